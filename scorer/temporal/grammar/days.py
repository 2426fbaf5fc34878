"""Months and days: 3月, 上个月, 月底 / 3月初 (policies month_end, month_start), 5号, 11/3, lists of
days (9月10号，11号), 今天 / 明天 (policy small_hours), 这一天.
"""

import dataclasses
import datetime as dt
import functools
import re

from scorer.rules import read_toml
from scorer.temporal.dates import DAY, days_in_month, midnight, month_span, shift_month, valid_date
from scorer.temporal.grammar.core import Span, State, _day_span, _month_of, _single, _step, _year_of
from scorer.temporal.grammar.years import _year_months
from scorer.temporal.numerals import zh_int


def _relative_month(st, ctx, offset, rule):
    if st.span is not None:
        if offset == 0 and _single(st, "year"):  # 前年本月: the reference's month in that year
            year = st.span.start.year
            return _step(st, ctx, Span(*month_span(year, ctx.ref.month), "month"), rule, relative=True)
        return None
    year, month = shift_month(ctx.ref.year, ctx.ref.month, offset)
    return _step(st, ctx, Span(*month_span(year, month), "month"), rule, relative=True)


def h_month_relative(vocab):
    return lambda m, st, ctx: _relative_month(st, ctx, vocab[m.group(0)], "zh.relative_month")


def _month(st, ctx, month, rule, year=None):
    if st.span is not None and st.rules[-1:] in (("zh.weekday",), ("en.weekday",)):
        st = State(rules=st.rules)  # 周三，三月五号: the weekday names the date that follows; the date wins
    implicit = False
    if year is None:
        year, implicit = _year_of(st, ctx)
    elif st.span is not None:
        return None
    if year is None or month is None or not 1 <= month <= 12:
        return None
    return _step(st, ctx, Span(*month_span(year, month), "month"), rule,
                 relative=implicit, implicit="year" if implicit else None)


def h_month(m, st, ctx):
    return _month(st, ctx, zh_int(m.group(1)), "zh.month")


def _month_days(word, table, edge_words, ctx, year, month):
    """First and last day of a month part; a month-end word is the last day alone under policy
    month_end = "last_day", from the 25th under "from_25th"; a month-start word is the first five
    days under month_start = "first_five_days"."""
    first, last = table[word]
    last = last or days_in_month(year, month)
    if word in edge_words["end"] and ctx.policy.month_end != "last_ten_days":
        first = last if ctx.policy.month_end == "last_day" else 25
    elif word in edge_words["start"] and ctx.policy.month_start == "first_five_days":
        last = 5
    return first, last


def h_month_part(vocab, edge_words):
    def apply(m, st, ctx):
        year, month, implicit = _month_of(st, ctx)
        if year is None:
            return None
        first, last = _month_days(m.group(0), vocab, edge_words, ctx, year, month)
        span = Span(dt.datetime(year, month, first), dt.datetime(year, month, last) + DAY, "day")
        return _step(st, ctx, span, "zh.month_part", relative=implicit)
    return apply


def h_part_suffix(month_parts, year_parts, edge_words):
    """底/初/末/中 after an explicit month, year or quarter: 本月底, 3月初, 3月中, 明年底, 一季度末."""
    def apply(m, st, ctx):
        if _single(st, "month"):
            year, month = st.span.start.year, st.span.start.month
            first, last = _month_days(m.group(0), month_parts, edge_words, ctx, year, month)
            span = Span(dt.datetime(year, month, first), dt.datetime(year, month, last) + DAY, "day")
        elif _single(st, "year"):
            first, last = _year_months(m.group(0), year_parts, ctx.policy)
            year = st.span.start.year
            span = Span(dt.datetime(year, first, 1), month_span(year, last)[1], "month")
        elif _single(st, "quarter"):  # 一季度末, 去年四季度初: the quarter's last or first month
            year, month = st.span.start.year, st.span.start.month + {"初": 0, "伊始": 0, "中": 1}.get(m.group(0), 2)
            span = Span(*month_span(year, month), "month")
        else:
            return None
        return _step(st, ctx, span, "zh.part_suffix")
    return apply


def _day_of_month(st, ctx, day, rule, last_day=None):
    year, month, implicit = _month_of(st, ctx)
    if year is None or day is None:
        return None
    first = valid_date(year, month, day)
    last = valid_date(year, month, last_day) if last_day is not None else first
    if first is None or last is None or last < first:
        return None
    span = Span(midnight(first), midnight(last) + DAY, "day")
    return _step(st, ctx, span, rule, relative=implicit, implicit="month" if implicit else None)


def h_slash_date(m, st, ctx):
    """11/3号, 6·30, 09-01: month and day, the order Chinese writes dates in (with a hyphen only
    as two two-digit numbers: 9-12 is a range)."""
    state = _month(st, ctx, int(m.group("mo") or m.group("mo2")), "zh.month")
    return state and _day_of_month(state, ctx, int(m.group("d") or m.group("d2")), "zh.day")


def h_bare_day(m, st, ctx):
    """A day number right after a month, without 日/号 (1月3至2月10, 8月14)."""
    if not _single(st, "month"):
        return None
    return _day_of_month(st, ctx, int(m.group(1)), "zh.day")


def h_day(m, st, ctx):
    return _day_of_month(st, ctx, zh_int(m.group(1)), "zh.day")


_LISTED_DAY = re.compile(r"[，,、]\s*(\S+?)\s*(?:日|号|號)")


def h_day_list(m, st, ctx):
    """9月10号，11号，12号: a list of consecutive days of the month after a day is their span; a
    list with a gap is no single interval."""
    if st.span is None or st.span.end - st.span.start != DAY or st.rules[-1:] != ("zh.day",):
        return None
    first = st.span.start
    days = [zh_int(number) for number in _LISTED_DAY.findall(m.group(0))]
    if days != list(range(first.day + 1, first.day + 1 + len(days))) or days[-1] > days_in_month(first.year, first.month):
        return None
    return dataclasses.replace(st, span=Span(first, first + (len(days) + 1) * DAY, "day"), rules=st.rules + ("zh.day_list",))


def _relative_day(st, ctx, offset, rule, from_anchor=False):
    if st.span is not None:
        if offset != 0:
            return None
        if st.span.granularity == "day" and st.span.end - st.span.start == DAY:
            return st  # 3月5日当天: that very day
        year, month, _implicit = _month_of(st, ctx)
        if year is not None:  # 上个月的今天: the reference's day in that month
            day = valid_date(year, month, ctx.ref.day)
        elif _single(st, "week"):  # 下周的今天: the reference's weekday in that week
            day = st.span.start.date() + ((ctx.ref.weekday() - st.span.start.weekday()) % 7) * DAY
        elif _single(st, "year"):  # 明年的今天: the reference's date in that year
            day = valid_date(st.span.start.year, ctx.ref.month, ctx.ref.day)
        else:
            return None
        return day and _step(st, ctx, _day_span(day), rule, relative=True)
    origin = ctx.anchor if from_anchor else ctx.ref
    return _step(st, ctx, _day_span(origin.date() + offset * DAY), rule, relative=True)


def _tomorrow_offset(word, offset, ctx):
    """明天 said in the small hours (after midnight, before small_hours_end o'clock) under policy
    small_hours = same_day: the day not yet slept through, the reference's calendar day (offset 0);
    else `offset`. A reference of exactly 00:00 is the day's start (often a date given without a
    time), not the small hours of the night before."""
    if ctx.policy.small_hours == "same_day" and ctx.ref.hour < ctx.policy.small_hours_end \
            and ctx.ref != midnight(ctx.ref.date()) and word in _tomorrow_words():
        return offset - 1
    return offset


@functools.lru_cache(maxsize=None)
def _tomorrow_words() -> frozenset:
    return frozenset(read_toml("temporal/zh.toml")["words"]["tomorrow_words"])


def h_day_relative(vocab, rule, anchored=frozenset()):
    """今天, 明天, ...; the words in `anchored` (次日, 翌日) count from the anchor, so that on
    the right of a range they mean the day after the left side."""
    def apply(m, st, ctx):
        offset = vocab[m.group(0)]
        if st.span is None:
            offset = _tomorrow_offset(m.group(0), offset, ctx)
        return _relative_day(st, ctx, offset, rule, m.group(0) in anchored)
    return apply


def h_same_day(m, st, ctx):
    """这一天 / 同一天 after a year, month, week or day read before it, as 今天 is there (去年同一天 =
    去年的今天); alone they name a day said elsewhere, and are not read."""
    return None if st.span is None else _relative_day(st, ctx, 0, "zh.same_day")
