"""Calendar arithmetic on naive local datetimes: the grammar works in wall-clock time and
the timezone is attached once, at the end."""

import calendar
import datetime as dt

DAY = dt.timedelta(days=1)


def midnight(day: dt.date) -> dt.datetime:
    return dt.datetime(day.year, day.month, day.day)


_MONTH_DAYS = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


def days_in_month(year: int, month: int) -> int:
    """calendar.monthrange's day count, without the weekday of the month's first day it computes
    too (most of its time; asked for every date read)."""
    if not 1 <= month <= 12:
        raise calendar.IllegalMonthError(month)
    return 29 if month == 2 and calendar.isleap(year) else _MONTH_DAYS[month - 1]


def shift_month(year: int, month: int, offset: int) -> tuple[int, int]:
    index = year * 12 + (month - 1) + offset
    return index // 12, index % 12 + 1


def add_months(day: dt.date, offset: int) -> dt.date:
    """Same day of month `offset` months later, clamped to the month's last day (1月31日 + 1个月 = 2月28日)."""
    year, month = shift_month(day.year, day.month, offset)
    return dt.date(year, month, min(day.day, days_in_month(year, month)))


def add_years(day: dt.date, offset: int) -> dt.date:
    """Same date `offset` years later; 2月29日 becomes 2月28日 in a common year."""
    year = day.year + offset
    return dt.date(year, day.month, min(day.day, days_in_month(year, day.month)))


class OutOfCalendar(Exception):
    """A reading that leaves the years 1-9999 (前2026年 from 2026): no interval, not a bug."""


def month_span(year: int, month: int) -> tuple[dt.datetime, dt.datetime]:
    """(first moment, end) of a month; Python's calendar holds no year 0, and no end for the last
    month of 9999."""
    next_year, next_month = shift_month(year, month, 1)
    if year < dt.MINYEAR or next_year > dt.MAXYEAR:
        raise OutOfCalendar(f"the month {year}-{month:02d}")
    return dt.datetime(year, month, 1), dt.datetime(next_year, next_month, 1)


def week_first_day(day: dt.date, week_start: int) -> dt.date:
    """First day of the calendar week containing `day` (week_start: 0 = Monday, 6 = Sunday)."""
    return day - dt.timedelta(days=(day.weekday() - week_start) % 7)


def valid_date(year: int, month: int, day: int) -> dt.date | None:
    if 1 <= month <= 12 and 1 <= day <= days_in_month(year, month) and 1 <= year <= 9999:
        return dt.date(year, month, day)
    return None
