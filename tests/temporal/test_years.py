"""Years written in other ways (scorer/temporal/grammar/years.py, whole_dates.py): before 1000,
reign titles (rules/temporal/reign_titles.tsv), dotted and slashed dates with the year last.
Expected years worked out by hand from each era's first year (贞观 627, 开元 713, 乾隆 1736, ...)."""

import pytest

from scorer.temporal import TemporalPolicy, resolve
from tests.temporal.test_families import REF, check

YEARS = [
    ("五八一年", [], "0581-01-01", "0582-01-01", "year"),          # digit by digit: a year, not a count
    ("公元七五五年", [], "0755-01-01", "0756-01-01", "year"),
    ("贞观三年", [], "0629-01-01", "0630-01-01", "year"),          # 627 is its first year
    ("开元元年十一月", [], "0713-11-01", "0713-12-01", "month"),   # 元年: the first
    ("乾隆六十年", [], "1795-01-01", "1796-01-01", "year"),
    ("康熙元年", [], "1662-01-01", "1663-01-01", "year"),
    ("民国元年", [], "1912-01-01", "1913-01-01", "year"),
    ("21.6.2018", [], "2018-06-21", "2018-06-22", "day"),           # dots: day first
    ("1.5.2018", [], "2018-05-01", "2018-05-02", "day"),
    ("07/08/92", [], "1992-07-08", "1992-07-09", "day"),            # month first; 1992 nearer 2026 than 2092
    ("07/08/92", ["slash_date_order=day_first"], "1992-08-07", "1992-08-08", "day"),
    ("4/4/16", [], "2016-04-04", "2016-04-05", "day"),
    ("25/12/99", [], "1999-12-25", "1999-12-26", "day"),            # 25 can only be the day
    ("25/12/30", ["two_digit_year=past"], "1930-12-25", "1930-12-26", "day"),   # not after 2026: 1930
]


@pytest.mark.parametrize("text, policy, start, end, granularity", YEARS)
def test_years_written_other_ways(text, policy, start, end, granularity):
    check(text, start, end, granularity, policy=policy)


def test_two_digit_years_off_leave_a_slashed_date_unread():
    assert resolve("4/4/16", REF, TemporalPolicy.from_strings(["two_digit_year=off"])) is None


@pytest.mark.parametrize("text", ["v1.2.3", "1.2.16", "3.14"])
def test_dotted_numbers_are_no_dates(text):
    assert resolve(text, REF) is None
