"""Years and eras: 2026年, 九八年 / '98 (policy two_digit_year), 民国38年, decades and centuries
(八十年代末), 去年 / 明年, parts of a year (年初, 上半年), seasons, quarters.
"""

import datetime as dt
import functools
import re

from scorer.rules import read_toml, read_tsv
from scorer.temporal import calendars
from scorer.temporal.dates import midnight, month_span
from scorer.temporal.grammar.core import Span, _single, _step, _year_of
from scorer.temporal.numerals import zh_int
from scorer.temporal.policy import TemporalPolicy


def _year_span(year: int) -> Span | None:
    if 1 <= year <= 9998:
        return Span(dt.datetime(year, 1, 1), dt.datetime(year + 1, 1, 1), "year")
    return None


def h_year(m, st, ctx):
    year = zh_int(m.group(1))
    span = _year_span(year) if st.span is None and year is not None else None
    return span and _step(st, ctx, span, "zh.year")


@functools.lru_cache(maxsize=None)
def era_offsets() -> dict:
    """Era name -> the year before its first: 民国 and 公元 from rules/temporal/zh.toml, and the reign
    titles of rules/temporal/reign_titles.tsv (贞观 -> 626: 贞观三年 = 629)."""
    eras = dict(read_toml("temporal/zh.toml")["era"])
    _header, *titles = read_tsv("temporal/reign_titles.tsv")
    eras.update((title, int(first_year) - 1) for title, first_year, _dynasty in titles)
    return eras


def h_era_year(eras: dict):
    """A year counted in a named era: 民国38年 = 1949 (the Republic's first year is 1912), 公元2026年,
    贞观三年 = 629; 元年 is the first (民国元年 = 1912, 开元元年 = 713)."""
    def apply(m, st, ctx):
        count = 1 if m.group("n") == "元" else zh_int(m.group("n"))
        span = _year_span(eras[m.group("era")] + count) if st.span is None and count else None
        return span and _step(st, ctx, span, "zh.era_year")
    return apply


def two_digit_year(digits: int, anchor_year: int, policy: TemporalPolicy) -> int | None:
    """The full year of 98年 / 03年 / '03 under policy two_digit_year (None when it is off)."""
    if policy.two_digit_year == "off":
        return None
    century = anchor_year - anchor_year % 100
    options = [century - 100 + digits, century + digits, century + 100 + digits]
    if policy.two_digit_year == "past":
        return max(year for year in options if year <= anchor_year)
    return min(options, key=lambda year: (abs(year - anchor_year), -year))


def h_year_two_digits(m, st, ctx):
    digits = zh_int(m.group("y"))
    if st.span is not None or digits is None or digits > 99:
        return None
    year = two_digit_year(digits, ctx.anchor.year, ctx.policy)
    span = _year_span(year) if year is not None else None
    return span and _step(st, ctx, span, "zh.year_two_digits")


def h_bare_year(m, st, ctx):
    """A four-digit number on either side of a range of years (2008.03-2009, 2011-2020); on the
    left only when another year of the next hundred follows (not 1234-5678, 2021-09-31); before a
    half of it (2025H1)."""
    year = int(m.group(0))
    if st.span is not None:
        return None
    if ctx.left is None and not _HALF_AHEAD.match(m.string, m.end()):
        after = _YEAR_AHEAD.match(m.string, m.end())
        if after is None or not year < int(after.group(1)) <= year + 100:
            return None
    span = _year_span(year)
    return span and _step(st, ctx, span, "year")


_YEAR_AHEAD = re.compile(r"\s*(?:[-~～到至—]|——)\s*(\d{4})(?![\d\-/.:])")


_HALF_AHEAD = re.compile(r"\s*h[12](?![a-z\d])")


def h_decade(parts):
    """五十年代, 1990年代, 上世纪八十年代末, 18世纪, 二十世纪九十年代末期: a decade or a century, and a part of it."""
    def apply(m, st, ctx):
        if st.span is not None:
            return None
        century = zh_int(m.group("century")) if m.group("century") else None
        if m.group("last_century"):
            century = (ctx.ref.year - 1) // 100
        elif m.group("this_century"):
            century = (ctx.ref.year - 1) // 100 + 1
        part = m.group("part")
        if m.group("decade"):
            decade = zh_int(m.group("decade"))
            if decade is not None and 1000 <= decade <= 9990 and century is None:  # 1990年代: written in full
                century, decade = decade // 100 + 1, decade % 100
            if decade is None or decade % 10 or decade > 90:
                return None
            if century is None:
                first = max(y for y in range(ctx.ref.year - 109, ctx.ref.year + 1) if y % 100 == decade)
            else:
                first = 100 * (century - 1) + decade
            length, table = 10, parts["decade"]
        else:
            if century is None or not 1 <= century <= 99:
                return None
            first, length, table = 100 * (century - 1), 100, parts["century"]
        if part:
            offset, size = table[part]
            first, length = first + offset, size
        if not 1 <= first or first + length > 9999:
            return None
        return _step(st, ctx, Span(dt.datetime(first, 1, 1), dt.datetime(first + length, 1, 1), "year"),
                     "zh.decade", relative=century is None or bool(m.group("last_century") or m.group("this_century")))
    return apply


def h_year_relative(vocab):
    def apply(m, st, ctx):
        span = _year_span(ctx.ref.year + vocab[m.group(0)]) if st.span is None else None
        return span and _step(st, ctx, span, "zh.relative_year", relative=True)
    return apply


@functools.lru_cache(maxsize=None)
def _loose_year_edges() -> frozenset:
    return frozenset(read_toml("temporal/zh.toml")["year_edge_words"])


def _year_months(word, table, policy):
    """First and last month of a year part; a one-month edge (年初, 年底; not 伊始, the very
    start) is two months under policy year_edge = "two_months"."""
    first, last = table[word]
    if policy.year_edge == "two_months" and word in _loose_year_edges() and first == last in (1, 12):
        return (1, 2) if first == 1 else (11, 12)
    return first, last


def h_year_part(vocab, needs_year=frozenset()):
    def apply(m, st, ctx):
        year, implicit = _year_of(st, ctx)
        if year is None or (implicit and m.group(0) in needs_year and m.group(0) != m.string):
            return None
        first, last = _year_months(m.group(0), vocab, ctx.policy)
        span = Span(dt.datetime(year, first, 1), month_span(year, last)[1], "month")
        return _step(st, ctx, span, "zh.year_part", relative=implicit)
    return apply


def h_season(seasons):
    """A season of the year read so far (or the anchor's year), per policy season."""
    by_word = {word: season for season in seasons.values() for word in season["words"]}

    def apply(m, st, ctx):
        word = m.group(0)
        if len(word) == 1 and not _single(st, "year"):
            return None
        year, implicit = _year_of(st, ctx)
        if year is None:
            return None
        season = by_word[word]
        if ctx.policy.season == "solar_terms":
            first, last = season["terms"]
            start = calendars.solar_term(year, first)
            end = calendars.solar_term(year + (last == "立春"), last)
            if start is None or end is None:
                return None
            span = Span(midnight(start), midnight(end), "day")
        else:
            first, last = season["months"]
            if year + (last < first) > 9998:
                return None
            span = Span(dt.datetime(year, first, 1), month_span(year + (last < first), last)[1], "month")
        return _step(st, ctx, span, "zh.season", relative=implicit)
    return apply


def _quarter(st, ctx, quarter, rule, year=None):
    implicit = False
    if year is None:
        year, implicit = _year_of(st, ctx)
    elif st.span is not None:
        return None
    if year is None or not 1 <= quarter <= 4 or not 1 <= year <= dt.MAXYEAR:   # q1 0000: no year 0
        return None
    span = Span(dt.datetime(year, 3 * quarter - 2, 1), month_span(year, 3 * quarter)[1], "quarter")
    return _step(st, ctx, span, rule, relative=implicit)


def h_quarter(m, st, ctx):
    written = m.group(1) or m.group(2)
    return _quarter(st, ctx, 1 if written == "首" else zh_int(written) or 0, "zh.quarter")


def _relative_quarter(st, ctx, offset, rule):
    if st.span is not None:
        return None
    index = ctx.ref.year * 4 + (ctx.ref.month - 1) // 3 + offset
    year, quarter = divmod(index, 4)
    span = Span(dt.datetime(year, 3 * quarter + 1, 1), month_span(year, 3 * quarter + 3)[1], "quarter")
    return _step(st, ctx, span, rule, relative=True)


def h_quarter_relative(vocab):
    return lambda m, st, ctx: _relative_quarter(st, ctx, vocab[m.group(0)], "zh.relative_quarter")


def h_quarter_part(m, st, ctx):
    """季初 / 季末 / 季度末: the first or last month of the current quarter."""
    if st.span is not None:
        return None
    quarter = _relative_quarter(st, ctx, 0, "zh.relative_quarter")
    year, month = quarter.span.start.year, quarter.span.start.month + (0 if m.group("part") == "初" else 2)
    return _step(st, ctx, Span(*month_span(year, month), "month"), "zh.quarter_part", relative=True)
