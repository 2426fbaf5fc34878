"""Calendar helpers of the grammar (scorer.temporal.dates), against Python's calendar module."""

import calendar

import pytest

from scorer.temporal.dates import days_in_month, valid_date


def test_days_in_month_is_calendars_count():
    """Every month of the years 0 to 10000 (leap centuries and the year 0 included) has the day
    count calendar.monthrange gives it."""
    for year in range(0, 10001):
        for month in range(1, 13):
            assert days_in_month(year, month) == calendar.monthrange(year, month)[1], (year, month)


@pytest.mark.parametrize("month", [0, 13, -1])
def test_no_such_month_is_an_error_as_in_calendar(month):
    with pytest.raises(calendar.IllegalMonthError):
        days_in_month(2026, month)


@pytest.mark.parametrize("year, month, day, exists", [
    (2024, 2, 29, True), (2026, 2, 29, False), (1900, 2, 29, False), (2000, 2, 29, True),
    (2026, 4, 31, False), (2026, 12, 31, True), (0, 1, 1, False), (9999, 12, 31, True), (2026, 13, 1, False),
])
def test_valid_date(year, month, day, exists):
    assert (valid_date(year, month, day) is not None) == exists
