"""Ranges between two years or dates (scorer/temporal/grammar/ranges.py). Expected intervals
worked out by hand (reference 2026-03-10 09:30; 从X到Y includes Y under range_includes_end)."""

import pytest

from tests.temporal.test_families import check

BETWEEN = [
    ("2012年与2014年间", [], "2012-01-01", "2015-01-01"),        # X与Y间 as X与Y之间: both years in
    ("2012年和2014年间", [], "2012-01-01", "2015-01-01"),
    ("从1999年到2003年间", [], "1999-01-01", "2004-01-01"),       # 间 after a range: during it
    # X之后Y之前: from the start of X (90后 counts from 1990) to the start of Y (before Y) ...
    ("2005年之后2011年之前", [], "2005-01-01", "2011-01-01"),
    ("3月5日以后3月8日以前", [], "2026-03-05", "2026-03-08"),
    # ... or from the end of X, as X以后 alone reads
    ("2005年之后2011年之前", ["after_before=from_end"], "2006-01-01", "2011-01-01"),
    ("3月5日以后3月8日以前", ["after_before=from_end"], "2026-03-06", "2026-03-08"),
    # a clock time is an instant either way
    ("10点之后12点之前", [], "2026-03-10 10:00", "2026-03-10 12:00"),
    # 从X到Y之前 still ends with Y (X至Y年前: through Y)
    ("2020至2025年前", [], "2020-01-01", "2026-01-01"),
]


@pytest.mark.parametrize("text, policy, start, end", BETWEEN)
def test_ranges_between_two_years_or_dates(text, policy, start, end):
    check(text, start, end, policy=policy)
