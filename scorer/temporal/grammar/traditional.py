"""Cantonese and traditional words: the double hours (子时, 午时三刻)."""

from scorer.temporal.dates import midnight
from scorer.temporal.grammar.clock import _clock
from scorer.temporal.grammar.core import _HOUR, Span, _day_of, _step
from scorer.temporal.numerals import zh_int


def h_double_hour(table):
    """子时, 午时三刻: a traditional double hour (its first hour) and quarters into it."""
    def apply(m, st, ctx):
        first = table[m.group("name")]
        quarters = zh_int(m.group("quarters")) if m.group("quarters") else None
        if quarters is None:
            day, _pod, implicit = _day_of(st, ctx)
            if day is None:
                return None
            start = midnight(day) + first * _HOUR
            return _step(st, ctx, Span(start, start + _HOUR, "hour"), "zh.double_hour", relative=implicit)
        minutes = first * 60 + 15 * quarters
        return _clock(st, ctx, minutes // 60, minutes % 60, "zh.double_hour", use_pod=False)
    return apply
