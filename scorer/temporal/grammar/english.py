"""English words: tomorrow, next friday, in 3 days, the last 2 weeks, q3 2025, march 5th, 3pm."""

import dataclasses

from scorer.temporal.dates import DAY
from scorer.temporal.grammar.clock import _clock, _part_of_day
from scorer.temporal.grammar.core import _step
from scorer.temporal.grammar.days import _day_of_month, _month, _relative_day, _relative_month
from scorer.temporal.grammar.weeks import _bare_weekday, _week
from scorer.temporal.grammar.windows import _shift, _window
from scorer.temporal.grammar.years import _quarter, _relative_quarter, _year_span


def _en_number(numbers, text):
    return int(text) if text.isdigit() else numbers.get(text)


def h_en_relative_day(vocab, pods):
    def apply(m, st, ctx):
        if m.group(0) == "tonight":
            return None if st.span is not None else dataclasses.replace(
                _part_of_day(st, ctx, pods["night"], "en.part_of_day", day=ctx.ref.date()), relative=True)
        return _relative_day(st, ctx, vocab[m.group(0)], "en.relative_day")
    return apply


def h_en_relative_unit(relatives):
    def apply(m, st, ctx):
        offset, unit = relatives[m.group(1)], m.group(2)
        if unit == "week":
            return _week(st, ctx, offset, "en.week")
        if unit == "weekend":
            return _week(st, ctx, offset, "en.weekend", part="weekend")
        if unit == "month":
            return _relative_month(st, ctx, offset, "en.relative_month")
        if unit == "quarter":
            return _relative_quarter(st, ctx, offset, "en.relative_quarter")
        span = _year_span(ctx.ref.year + offset) if st.span is None else None
        return span and _step(st, ctx, span, "en.relative_year", relative=True)
    return apply


def h_en_weekday(relatives, weekdays):
    def apply(m, st, ctx):
        weekday = weekdays[m.group(2)]
        word = m.group(1)
        if word is None or word == "coming":
            return _bare_weekday(st, ctx, weekday, "en.weekday")
        return _week(st, ctx, relatives[word], "en.week", weekday=weekday)
    return apply


def h_en_offset(numbers, units):
    def apply(m, st, ctx):
        if st.span is not None:
            return None
        amount = _en_number(numbers, m.group("n"))
        if amount is None:
            return None
        unit, size = units[m.group("unit")]
        sign = -1 if m.group("dir") == "ago" else 1
        span = _shift(ctx, unit, sign * amount * size, size)
        return span and _step(st, ctx, span, "en.offset", relative=True)
    return apply


def h_en_window(numbers, units, forward):
    def apply(m, st, ctx):
        if st.span is not None:
            return None
        amount = _en_number(numbers, m.group("n"))
        unit, size = units[m.group("unit")]
        span = _window(ctx, unit, amount * size, forward) if amount else None
        return span and _step(st, ctx, span, "en.window", relative=True)
    return apply


def h_en_quarter(ordinals):
    def apply(m, st, ctx):
        quarter = m.group("q") or m.group("q2")
        quarter = int(quarter) if quarter else ordinals.index(m.group("ord")) + 1
        year = m.group("y") or m.group("y2") or m.group("y3")
        return _quarter(st, ctx, quarter, "en.quarter", int(year) if year else None)
    return apply


def h_en_month_day(months):
    def apply(m, st, ctx):
        month = months[m.group("m1") or m.group("m2") or m.group("m3")]
        day = int(m.group("d1") or m.group("d2") or m.group("d3"))
        year = m.group("y1") or m.group("y2") or m.group("y3")
        state = _month(st, ctx, month, "en.month", int(year) if year else None)
        return state and _day_of_month(dataclasses.replace(state, rules=st.rules), ctx, day, "en.date")
    return apply


def h_en_month(months):
    def apply(m, st, ctx):
        year = m.group(2)
        return _month(st, ctx, months[m.group(1)], "en.month", int(year) if year else None)
    return apply


def h_en_clock(m, st, ctx):
    return _clock(st, ctx, int(m.group(1)), int(m.group(2) or 0), "en.clock", meridiem=m.group(3).replace(".", ""))


def h_en_noon(m, st, ctx):
    """noon = 12:00; midnight = the midnight that ends the day (24:00), as 晚上十二点."""
    return _clock(st, ctx, 24 if m.group(0) == "midnight" else 12, 0, "en.clock", use_pod=False)


def h_en_part_of_day(pods):
    def apply(m, st, ctx):
        if m.group(1) and st.span is not None:
            return None
        return _part_of_day(st, ctx, pods[m.group(2)], "en.part_of_day")
    return apply


def h_en_last_night(pods):
    def apply(m, st, ctx):
        if st.span is not None:
            return None
        state = _part_of_day(st, ctx, pods["night"], "en.part_of_day", day=ctx.ref.date() - DAY)
        return dataclasses.replace(state, relative=True)
    return apply
