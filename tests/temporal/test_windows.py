"""Windows and offsets (scorer/temporal/grammar/windows.py): a count of units next to now read as a
rolling window or as whole calendar units, per unit (policies sequence_rolling, window_whole_units).
Expected intervals worked out by hand for the reference Tuesday 2026-03-10 09:30 (weeks from Monday)."""

import pytest

from scorer.temporal import TemporalPolicy
from tests.temporal.test_families import check

BOTH_READINGS = [
    # 上/下/前/后 N units: whole calendar units by default ...
    ("前2周", [], "2026-02-23", "2026-03-09", "week"),          # the two weeks before this one (from Monday the 9th)
    ("上3个月", [], "2025-12-01", "2026-03-01", "month"),       # December, January, February
    ("后2年", [], "2027-01-01", "2029-01-01", "year"),          # 2027 and 2028
    # ... a rolling window for the units listed, as 最近N / 未来N read (whole days through today, from today)
    ("前2周", ["sequence_rolling=week"], "2026-02-25", "2026-03-11", "day"),       # 14 days ending with today
    ("上3个月", ["sequence_rolling=month,year"], "2025-12-11", "2026-03-11", "day"),  # 3 months back to 12-11
    ("后2年", ["sequence_rolling=year"], "2026-03-10", "2028-03-10", "day"),
    ("后2年", ["sequence_rolling=year", "upcoming_window=instant"], "2026-03-10 09:30", "2028-03-10 09:30", "second"),
    ("后2年", ["sequence_rolling=month"], "2027-01-01", "2029-01-01", "year"),     # years not listed: calendar
    # 最近/近 N and 未来 N: a rolling window by default ...
    ("近五年", [], "2021-03-11", "2026-03-11", "day"),
    ("未来三天", [], "2026-03-10", "2026-03-13", "day"),
    # ... whole calendar units for the units listed, as 上N个 / 下N个 read
    ("近五年", ["window_whole_units=year"], "2021-01-01", "2026-01-01", "year"),
    ("未来三天", ["window_whole_units=day"], "2026-03-11", "2026-03-14", "day"),
    ("最近两周", ["window_whole_units=week"], "2026-02-23", "2026-03-09", "week"),
    ("未来三天", ["window_whole_units=year"], "2026-03-10", "2026-03-13", "day"),   # days not listed: rolling
]


@pytest.mark.parametrize("text, policy, start, end, granularity", BOTH_READINGS)
def test_rolling_windows_and_calendar_periods(text, policy, start, end, granularity):
    check(text, start, end, granularity, policy=policy)


def test_an_approximate_count_stays_a_window():
    """近三个多月 is three months and some more: no whole number of calendar months."""
    check("近三个多月", "2025-12-11", "2026-03-11", "day", policy=["window_whole_units=month"])


@pytest.mark.parametrize("policy", ["sequence_rolling=decade", "window_whole_units=workday"])
def test_only_units_may_be_listed(policy):
    with pytest.raises(ValueError, match="expected units among"):
        TemporalPolicy.from_strings([policy])
