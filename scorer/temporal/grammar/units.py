"""Arithmetic in calendar units (a day, a week, a month, ...): moving by whole units, the unit
containing a moment, the reference as a unit, the N-th workday; shared by windows, offsets,
ordinals and the English words.
"""

import datetime as dt

from scorer.temporal.dates import DAY, OutOfCalendar, add_months, midnight, week_first_day
from scorer.temporal.grammar.core import _HOUR, _MINUTE, _SECOND, Span
from scorer.temporal.policy import WEEKDAYS, TemporalPolicy


_CLOCK_UNITS = {"second": _SECOND, "minute": _MINUTE, "hour": _HOUR}


def _add(moment: dt.datetime, unit: str, amount: int) -> dt.datetime:
    """`moment` moved by whole calendar units (months and years clamp the day: 1月31日 + 1个月 = 2月28日)."""
    try:
        if unit in _CLOCK_UNITS:
            return moment + amount * _CLOCK_UNITS[unit]
        if unit in ("day", "week"):
            return moment + amount * (7 if unit == "week" else 1) * DAY
    except OverflowError:
        raise OutOfCalendar(f"{amount} {unit} from {moment}") from None
    months = amount * {"month": 1, "quarter": 3, "year": 12}[unit]
    if not 1 <= moment.year + (moment.month - 1 + months) // 12 <= 9998:
        raise OutOfCalendar(f"{amount} {unit} from {moment}")
    return dt.datetime.combine(add_months(moment.date(), months), moment.time())


def unit_floor(moment: dt.datetime, unit: str, policy: TemporalPolicy) -> dt.datetime:
    """The start of the calendar unit containing `moment` (a week's by policy week_start)."""
    if unit == "second":
        return moment.replace(microsecond=0)
    if unit == "minute":
        return moment.replace(second=0, microsecond=0)
    if unit == "hour":
        return moment.replace(minute=0, second=0, microsecond=0)
    day = midnight(moment.date())
    if unit == "day":
        return day
    if unit == "week":
        return midnight(week_first_day(moment.date(), WEEKDAYS.index(policy.week_start)))
    if unit == "month":
        return day.replace(day=1)
    if unit == "quarter":
        return day.replace(month=moment.month - (moment.month - 1) % 3, day=1)
    return day.replace(month=1, day=1)


def _unit_span(moment: dt.datetime, unit: str, ctx, count: int = 1) -> Span:
    start = unit_floor(moment, unit, ctx.policy)
    return Span(start, _add(start, unit, count), "month" if unit == "quarter" else unit)


def _now(ctx) -> tuple:
    """(start, end) of "now": the reference instant, or the whole unit the reference stands for
    (policy reference_unit: a request time given to the minute is that minute)."""
    unit = ctx.policy.reference_unit
    if unit == "instant":
        return ctx.ref, ctx.ref
    start = unit_floor(ctx.ref, unit, ctx.policy)
    return start, _add(start, unit, 1)


def _workday(day: dt.date, count: int, ctx) -> dt.date:
    """The `count`-th workday (policy workdays) after `day`, or before it when negative."""
    workdays = {WEEKDAYS.index(name) for name in ctx.policy.workdays}
    step = DAY if count > 0 else -DAY
    for _ in range(abs(count)):
        day += step
        while day.weekday() not in workdays:
            day += step
    return day
