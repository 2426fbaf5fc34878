"""Dates written whole: ISO 8601 dates, date-times, months and weeks, 06/01/2023 (policy
slash_date_order), and the reading of 2026年3月10日 that scorer.temporal.whole's fields feed.
"""

import datetime as dt

from scorer.temporal.dates import DAY, midnight, month_span, valid_date
from scorer.temporal.grammar.clock import _clock
from scorer.temporal.grammar.core import _MINUTE, _SECOND, Context, Span, State, _day_span, _step
from scorer.temporal.grammar.days import _day_of_month, _month
from scorer.temporal.grammar.ranges import _result
from scorer.temporal.grammar.years import _year_span, two_digit_year
from scorer.temporal.whole_py import offset_minutes


def h_slash_date_year(m, st, ctx):
    """06/01/2023, 07/08/92: a date with the year last, month first or day first by policy
    slash_date_order (a number over 12 can only be the day: 25/12/2025, 12/25/2025), a two-digit
    year by policy two_digit_year; 21.6.2018: with dots, day first, the order dates with dots are
    written in."""
    if st.span is not None:
        return None
    if m.group("dotted_year"):
        date = valid_date(int(m.group("dotted_year")), int(m.group("month")), int(m.group("day")))
        return date and _step(st, ctx, _day_span(date), "dotted.date_year")
    written = m.group("y")
    year = int(written) if len(written) == 4 else two_digit_year(int(written), ctx.anchor.year, ctx.policy)
    first, second = int(m.group("a")), int(m.group("b"))
    day_first = first > 12 or (second <= 12 and ctx.policy.slash_date_order == "day_first")
    date = year and valid_date(year, *((second, first) if day_first else (first, second)))
    return date and _step(st, ctx, _day_span(date), "slash.date_year")


def zh_date_reading(year: int, month: int, day: int, hour, minute, second, ctx: Context) -> State | None:
    """The reading of a Chinese date written whole (2026年3月10日, and 2026年3月10日 14:30; fields
    read by scorer.temporal.whole): the year, month and day tokens' handlers in turn, then
    clock_colon's, as the scanner applies them; None where one of them declines."""
    span = _year_span(year)
    state = span and _step(State(), ctx, span, "zh.year")
    state = state and _month(state, ctx, month, "zh.month")
    state = state and _day_of_month(state, ctx, day, "zh.day")
    if hour is not None:
        state = state and _clock(state, ctx, hour, minute, "clock", second=second)
    return state and _result(state, None, ctx)


def h_iso(m, st, ctx):
    if st.span is not None:
        return None
    hour = m.group("h")
    found = iso_reading(int(m.group("y")), int(m.group("mo") or m.group("mo2") or m.group("mo3")),
                        int(m.group("d") or m.group("d2") or m.group("d3")), None if hour is None else int(hour),
                        int(m.group("mi") or 0), int(m.group("s") or 0),
                        offset_minutes(m.group("tz") or m.group("tz_minute")), ctx.tzinfo)
    return found and _step(st, ctx, *found)


_DAY_MINUTES = 24 * 60


def iso_reading(year, month, day, hour, minute, second, offset, tzinfo):
    """(Span, rule) of a date or date-time written in ISO 8601 form, or None when no such day or
    time exists: the `iso` token's reading, and a whole value's without the scanner (scorer.temporal.whole).
    `hour` None is a date alone; `offset`, minutes east of UTC written after the time (None: none
    written), moves the time into `tzinfo`; an offset of a day or more names no zone, and one that
    moves the time past year 9999 no time."""
    date = valid_date(year, month, day)
    if date is None or year < 1000:
        return None
    if hour is None:
        return _day_span(date), "iso.date"
    if hour > 23 or minute > 59 or second > 59:
        return None
    start = dt.datetime(year, month, day, hour, minute, second)
    if offset is not None:
        if not -_DAY_MINUTES < offset < _DAY_MINUTES:
            return None
        zone = dt.timezone(dt.timedelta(minutes=offset))
        try:
            start = start.replace(tzinfo=zone).astimezone(tzinfo).replace(tzinfo=None)
        except OverflowError:
            return None
    if second:  # written to the second (an ISO time's ":00" is still a minute)
        return Span(start, start + _SECOND, "second"), "iso.datetime"
    return Span(start, start + _MINUTE, "minute"), "iso.datetime"


def h_iso_month(m, st, ctx):
    year, month = int(m.group(1)), int(m.group(2))
    if st.span is not None or not (1 <= month <= 12 and 1000 <= year):
        return None
    return _step(st, ctx, Span(*month_span(year, month), "month"), "iso.month")


def h_iso_week(m, st, ctx):
    """2026-W11: an ISO 8601 week, Monday to Sunday whatever policy week_start says (ISO fixes it)."""
    if st.span is not None:
        return None
    try:
        monday = dt.date.fromisocalendar(int(m.group(1)), int(m.group(2)), 1)
    except ValueError:  # 2026-W54: no such week
        return None
    start = midnight(monday)
    return _step(st, ctx, Span(start, start + 7 * DAY, "week"), "iso.week")
