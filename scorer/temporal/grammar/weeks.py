"""Weeks: 上上个周五, 下周, 这周末, 周一周二, bare weekdays (policies bare_weekday, next_weekday,
this_weekday, week_start), weekends (policies weekend_*), workdays, 上半周.
"""

import dataclasses
import datetime as dt

from scorer.temporal.dates import DAY, midnight, week_first_day
from scorer.temporal.grammar.core import _HOUR, GRANULARITY_INDEX, Span, _day_span, _single, _step
from scorer.temporal.numerals import zh_int
from scorer.temporal.policy import WEEKDAYS


def _week_day(ctx, week_offset, weekday):
    """The date of `weekday` (0 = Monday) in the calendar week `week_offset` from the reference."""
    start = WEEKDAYS.index(ctx.policy.week_start)
    first = week_first_day(ctx.ref.date(), start) + 7 * week_offset * DAY
    return first + ((weekday - start) % 7) * DAY


def _weekend_in_week(ctx, week_offset):
    return _weekend_from(_week_day(ctx, week_offset, WEEKDAYS.index(ctx.policy.weekend_first_day)), ctx)


def _weekend_from(first: dt.date, ctx) -> Span:
    """The weekend whose first day is `first` (policies weekend_start, weekend_length)."""
    start = midnight(first) - (6 * _HOUR if ctx.policy.weekend_start == "friday_evening" else dt.timedelta(0))
    return Span(start, midnight(first) + ctx.policy.weekend_length * DAY, "day")


def _workdays_in_week(ctx, week_offset):
    days = sorted(_week_day(ctx, week_offset, WEEKDAYS.index(name)) for name in ctx.policy.workdays)
    return Span(midnight(days[0]), midnight(days[-1]) + DAY, "day")


def _upcoming_weekday(anchor: dt.date, weekday: int, include_today: bool) -> dt.date:
    delta = (weekday - anchor.weekday()) % 7
    if delta == 0 and not include_today:
        delta = 7
    return anchor + delta * DAY


_WEEKDAY_RULES = frozenset(("zh.weekday", "zh.week", "en.weekday", "en.week", "zh.weekday_list"))


def _bare_weekday(st, ctx, weekday, rule):
    if st.span is not None and st.rules[-1] in _WEEKDAY_RULES and st.span.granularity == "day" \
            and DAY <= st.span.end - st.span.start < 7 * DAY:
        # 周六周日, 周六、周日, 下周一周二: listed weekdays that follow each other are their span;
        # a list with a gap (周一周三) is no single interval
        if weekday != ((st.span.end - DAY).weekday() + 1) % 7:
            return None
        return dataclasses.replace(st, span=Span(st.span.start, st.span.end + DAY, "day"),
                                   rules=st.rules + ("zh.weekday_list",))
    if st.span is not None:
        if GRANULARITY_INDEX[st.span.granularity] < GRANULARITY_INDEX["day"] or st.span.end - st.span.start > 7 * DAY:
            return None
        if st.span.end - st.span.start == DAY and any(rule in st.rules for rule in _DATE_RULES):
            return st  # 2021年5月3号, 星期一: the weekday names the date (the date wins a conflict)
        # 三周后的周二, 下个月第一周的周五: that weekday in the week read so far
        start = WEEKDAYS.index(ctx.policy.week_start)
        day = week_first_day(st.span.start.date(), start) + ((weekday - start) % 7) * DAY
        return _step(st, ctx, _day_span(day), rule)
    anchor = ctx.anchor.date()
    if ctx.policy.bare_weekday == "this_week":
        start = WEEKDAYS.index(ctx.policy.week_start)
        day = week_first_day(anchor, start) + ((weekday - start) % 7) * DAY
    elif ctx.policy.bare_weekday == "nearest":
        day = anchor + (((weekday - anchor.weekday()) + 3) % 7 - 3) * DAY
    else:
        day = _upcoming_weekday(anchor, weekday, ctx.policy.bare_weekday == "upcoming_including_today")
    return _step(st, ctx, _day_span(day), rule, relative=True)


_DATE_RULES = ("zh.day", "iso.date", "en.date", "holiday")


def _week(st, ctx, offset, rule, weekday=None, part=None):
    """A calendar week `offset` weeks away, or one of its days, its weekend or its workdays."""
    if st.span is not None:
        return None
    if weekday is not None:
        if offset == 1 and ctx.policy.next_weekday == "upcoming_excluding_today":
            day = _upcoming_weekday(ctx.ref.date(), weekday, include_today=False)
        elif offset == 0 and ctx.policy.this_weekday == "upcoming":
            day = _upcoming_weekday(ctx.ref.date(), weekday, include_today=True)
        else:
            day = _week_day(ctx, offset, weekday)
        span = _day_span(day)
    elif part == "weekend":
        span = _weekend_in_week(ctx, offset)
    elif part == "workdays":
        span = _workdays_in_week(ctx, offset)
    else:
        first = midnight(_week_day(ctx, offset, WEEKDAYS.index(ctx.policy.week_start)))
        span = Span(first, first + 7 * DAY, "week")
    return _step(st, ctx, span, rule, relative=True)


def h_week(prefixes, weekdays):
    def apply(m, st, ctx):
        day = m.group("day")
        if m.group("prefix"):
            offset = prefixes[m.group("prefix")]
        else:  # 下3个星期一, 上两个周五
            count = zh_int(m.group("n"))
            if count is None:
                return None
            offset = count if m.group("dir") == "下" else -count
        return _week(st, ctx, offset, "zh.week",
                     weekday=weekdays[day] if day else None,
                     part="weekend" if m.group("weekend") else "workdays" if m.group("workdays") else None)
    return apply


def h_weekday(weekdays):
    return lambda m, st, ctx: _bare_weekday(st, ctx, weekdays[m.group(1)], "zh.weekday")


def _bare_weekend(st, ctx, rule):
    if st.span is not None:
        return None
    anchor = ctx.anchor.date()
    length = ctx.policy.weekend_length
    first = _upcoming_weekday(anchor, WEEKDAYS.index(ctx.policy.weekend_first_day), include_today=True)
    if (anchor - (first - 7 * DAY)).days < length:
        first -= 7 * DAY
    start = midnight(first)
    if ctx.policy.weekend_start == "friday_evening":
        start -= 6 * _HOUR
    return _step(st, ctx, Span(start, midnight(first) + length * DAY, "day"), rule, relative=True)


def h_weekend(m, st, ctx):
    return _bare_weekend(st, ctx, "zh.weekend")


def h_workdays(m, st, ctx):
    return _week(st, ctx, 0, "zh.workdays", part="workdays")


def h_week_part(table):
    """上半周 / 下半周: the first or second half of the week read so far, or of this week."""
    def apply(m, st, ctx):
        if st.span is None:
            week = _week(st, ctx, 0, "zh.week")
        elif _single(st, "week"):
            week = st
        else:
            return None
        first, last = table[m.group(0)]
        start = week.span.start
        return _step(week, ctx, Span(start + first * DAY, start + last * DAY, "day"), "zh.week_part")
    return apply
