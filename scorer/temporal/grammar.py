"""How temporal words combine: a left-to-right scanner over tokens, each token a compiled
regex plus a small pure function that refines the interval read so far.

`明天下午三点` reads as: 明天 -> the day; 下午 -> the afternoon of that day; 三点 -> 15:00 of
that afternoon. A token that needs a coarser context and finds none takes it from the anchor
(the reference time, or the left side of a range: in `3月5日至8日` the 8日 takes the month
of 3月5日). The vocabulary is data in rules/temporal/ and rules/holidays/.
"""

import dataclasses
import datetime as dt
import functools
import re
from zoneinfo import ZoneInfo

from scorer.rules import read_toml
from scorer.temporal import calendars, holidays
from scorer.temporal.dates import (
    DAY, OutOfCalendar, add_months, days_in_month, midnight, month_span, shift_month,
    valid_date, week_first_day,
)
from scorer.temporal.numerals import numeral_class, zh_int
from scorer.temporal.policy import WEEKDAYS, TemporalPolicy
from scorer.temporal.whole_py import offset_minutes
from scorer.vocab import GRANULARITIES

# "second" is finer than every granularity the matcher knows; to_minutes() reports it as minute
GRANULARITY_INDEX = {"second": -1, **{name: index for index, name in enumerate(GRANULARITIES)}}
_SECOND = dt.timedelta(seconds=1)
_MINUTE = dt.timedelta(minutes=1)
_HOUR = dt.timedelta(hours=1)


@dataclasses.dataclass(frozen=True)
class Span:
    """An interval in naive local wall-clock time, end exclusive."""

    start: dt.datetime
    end: dt.datetime
    granularity: str


@dataclasses.dataclass(frozen=True)
class State:
    """What has been read so far. `implicit` names the component taken from the anchor
    ('year' for 3月5日, 'month' for 5号) so the 'upcoming' policies can move it forward."""

    span: Span | None = None
    pod: dict | None = None
    relative: bool = False
    implicit: str | None = None
    rules: tuple = ()
    zone: object = None       # a time zone named in the text (北京时间, 9am PST): the clock is read there


@dataclasses.dataclass(frozen=True)
class Context:
    ref: dt.datetime              # reference time, naive local, truncated to the minute
    anchor: dt.datetime           # ref, or the start of a range's left side
    anchor_pod: dict | None
    policy: TemporalPolicy
    tzinfo: dt.tzinfo
    left: "State | None" = None   # on the right side of a range: what the left side read


@dataclasses.dataclass(frozen=True)
class Token:
    name: str
    regex: re.Pattern
    apply: object                 # (match, State, Context) -> State | None
    kind: str = "token"           # token | filler | connector | opener


def _alt(words, compounds: dict | None = None) -> str:
    """A regex alternation of literal words, longest first so the longest wins; a word with
    `compounds` does not match where one of them follows it, beginning a longer word (六点起床:
    get up at six, not since six)."""
    compounds = compounds or {}
    return "|".join(re.escape(word) + (f"(?!{_alt(compounds[word])})" if word in compounds else "")
                    for word in sorted(words, key=lambda w: (-len(w), w)))


def _step(st: State, ctx: Context, span: Span, rule: str, relative=False, pod=None, implicit=None):
    return State(span, pod, st.relative or relative, implicit or st.implicit, st.rules + (rule,), st.zone)


def _day_span(day: dt.date) -> Span:
    start = midnight(day)
    return Span(start, start + DAY, "day")


def _single(st: State, granularity: str) -> bool:
    return st.span is not None and st.span.granularity == granularity


# -- context lookups: the year / month / day a partial expression belongs to ------------------

def _year_of(st: State, ctx: Context):
    if st.span is None:
        return ctx.anchor.year, True
    if _single(st, "year"):
        return st.span.start.year, False
    return None, False


def _month_of(st: State, ctx: Context):
    if st.span is None:
        return ctx.anchor.year, ctx.anchor.month, True
    if _single(st, "month") and st.span.end == month_span(st.span.start.year, st.span.start.month)[1]:
        return st.span.start.year, st.span.start.month, False
    return None, None, False


def _day_of(st: State, ctx: Context):
    """The day a part of day or a clock time refines, and the part of day in force."""
    if st.span is None:
        return ctx.anchor.date(), ctx.anchor_pod, True
    if _single(st, "day") and st.span.end - st.span.start == DAY:
        return st.span.start.date(), None, False
    if _single(st, "part_of_day"):
        return st.span.start.date(), st.pod, False
    return None, None, False


# -- handlers ----------------------------------------------------------------------------------

def _year_span(year: int) -> Span | None:
    if 1 <= year <= 9998:
        return Span(dt.datetime(year, 1, 1), dt.datetime(year + 1, 1, 1), "year")
    return None


def h_year(m, st, ctx):
    year = zh_int(m.group(1))
    span = _year_span(year) if st.span is None and year is not None else None
    return span and _step(st, ctx, span, "zh.year")


def h_era_year(eras: dict):
    """A year counted in a named era: 民国38年 = 1949 (the Republic's first year is 1912), 公元2026年."""
    def apply(m, st, ctx):
        count = zh_int(m.group("n"))
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


def h_bare_number(m, st, ctx):
    """A number with no unit before a range connector takes the unit written after it:
    2001-2003年, 2019年1-5月, 9~12点半, 1985到89年9月."""
    value, unit = zh_int(m.group("n")), m.group("unit")
    if value is None:
        return None
    if unit == "年":
        if st.span is not None:
            return None
        year = value if len(m.group("n")) == 4 else two_digit_year(value, ctx.anchor.year, ctx.policy)
        span = _year_span(year) if year is not None else None
        return span and _step(st, ctx, span, "zh.year")
    if unit in ("月",):
        return _month(st, ctx, value, "zh.month")
    if unit in ("日", "号"):
        return _day_of_month(st, ctx, value, "zh.day")
    return _clock(st, ctx, value, 0, "zh.clock", hour_only=True)


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


def h_slash_date_year(m, st, ctx):
    """06/01/2023: a date with the year last, month first or day first by policy slash_date_order;
    a number over 12 can only be the day (25/12/2025, 12/25/2025)."""
    if st.span is not None:
        return None
    first, second = int(m.group("a")), int(m.group("b"))
    day_first = first > 12 or (second <= 12 and ctx.policy.slash_date_order == "day_first")
    date = valid_date(int(m.group("y")), *((second, first) if day_first else (first, second)))
    return date and _step(st, ctx, _day_span(date), "slash.date_year")


def h_month_day_range(m, st, ctx):
    """3/10-3/12, 3.10-3.12: two month.day dates joined by a dash, as notices write a range (a
    lone 3.10 stays a number); the right side takes its year from the left and rolls over
    (12.30-1.2)."""
    if st.span is not None:
        return None
    if m.group("sep") == "." and m.group("m1") != m.group("m2") and min(len(m.group("d1")), len(m.group("d2"))) < 2:
        return None  # 1.5-2.5 is as likely two decimals: with dots, one month or two-digit days only
    left = _month(st, ctx, int(m.group("m1")), "zh.month")
    left = left and _finish(_day_of_month(left, ctx, int(m.group("d1")), "zh.day") or State(), ctx)
    if left is None:
        return None
    side = dataclasses.replace(ctx, anchor=left.span.start, anchor_pod=None, left=left)
    right = _month(State(), side, int(m.group("m2")), "zh.month")
    right = right and _finish(_day_of_month(right, side, int(m.group("d2")), "zh.day") or State(), side)
    return right and _join(left, right, ctx)


def h_bare_day(m, st, ctx):
    """A day number right after a month, without 日/号 (1月3至2月10, 8月14)."""
    if not _single(st, "month"):
        return None
    return _day_of_month(st, ctx, int(m.group(1)), "zh.day")


def h_day(m, st, ctx):
    return _day_of_month(st, ctx, zh_int(m.group(1)), "zh.day")


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


def h_day_range(m, st, ctx):
    return _day_of_month(st, ctx, zh_int(m.group(1)), "zh.day_range", zh_int(m.group(2)))


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


def _part_of_day(st, ctx, entry, rule, day=None):
    implicit = False
    start_hour, end_hour = ctx.policy.pod_hours(entry.get("name"), entry["hours"])
    if day is None and st.span is not None and st.span.granularity == "day" and DAY < st.span.end - st.span.start <= 7 * DAY:
        # 周末下午: from the afternoon of the first day to that of the last
        span = Span(st.span.start + start_hour * _HOUR, st.span.end - DAY + end_hour * _HOUR, "part_of_day")
        return _step(st, ctx, span, rule, pod=entry)
    if day is None:
        day, pod, implicit = _day_of(st, ctx)
        if day is None or (st.span is not None and st.span.granularity != "day"):
            return None
    start = midnight(day)
    span = Span(start + start_hour * _HOUR, start + end_hour * _HOUR, "part_of_day")
    return _step(st, ctx, span, rule, relative=implicit, pod=entry, implicit="day" if implicit else None)


def h_part_of_day(vocab, rule):
    return lambda m, st, ctx: _part_of_day(st, ctx, vocab[m.group(1) if m.groups() else m.group(0)], rule)


def part_of_day_table(table: dict) -> dict:
    """rules/temporal/zh.toml's parts of day, each entry knowing its canonical name (aliases share
    the entry, and so the hours a policy sets for the name)."""
    entries = {}
    for name, entry in table.items():
        if "same_as" not in entry:
            entries[name] = {**entry, "name": name}
    for name, entry in table.items():
        if "same_as" in entry:
            entries[name] = entries[entry["same_as"]]
    return entries


def h_day_with_part(vocab, pods):
    def apply(m, st, ctx):
        if st.span is not None:
            return None
        offset, pod_name = vocab[m.group(0)]
        offset = _tomorrow_offset(m.group(0), offset, ctx)
        state = _part_of_day(st, ctx, pods[pod_name], "zh.day_with_part", day=ctx.ref.date() + offset * DAY)
        return dataclasses.replace(state, relative=True)
    return apply


def _clock(st, ctx, hour, minute, rule, use_pod=True, second=None, hour_only=False, meridiem=None):
    """A clock time on the day read so far (or the anchor's), hours moved by the part of day
    (下午3点 = 15:00, 晚上12点 = 24:00, 凌晨12点 = 00:00) or by am/pm. A minute, a second when
    seconds are written, the hour under policy clock_granularity = hour when only the hour is."""
    day, pod, implicit = _day_of(st, ctx)
    if day is None or hour is None or minute is None:
        return None
    rolled = False  # twelve read as midnight (晚上十二点半): its minutes run into the next day
    if meridiem is not None:
        if not 1 <= hour <= 12:
            return None
        hour = hour % 12 + (12 if meridiem.startswith("p") else 0)
        pod = pod or _MERIDIEM_PODS[meridiem[0]]  # 6pm-8: the right side reads 8 in the evening too
    elif pod is not None and use_pod:
        low, high = pod.get("pm", (13, 12))
        if low <= hour <= high:
            hour += 12
        elif hour == 12 and pod.get("twelve_is_zero"):
            hour = 0
        elif hour == 12 and pod.get("twelve_is_midnight"):
            hour, rolled = 24, True
    if not (0 <= hour <= 24 and 0 <= minute <= 59) or (hour == 24 and (minute or second) and not rolled) \
            or (second is not None and not 0 <= second <= 59):
        return None
    start = midnight(day) + hour * _HOUR + minute * _MINUTE
    if (implicit or st.implicit == "day") and meridiem is None and ctx.left is None \
            and ctx.policy.bare_clock == "upcoming":
        # 3点14分 said at noon: the next 3:14 on a twelve-hour clock (15:14), 5点 said at 19:00: tomorrow;
        # 下午三点 said at 15:15 (no day written): tomorrow
        step = 12 * _HOUR if pod is None and 1 <= hour < 12 else DAY
        while start + (second or 0) * _SECOND < ctx.ref:
            start += step
    if second is not None:
        span = Span(start + second * _SECOND, start + (second + 1) * _SECOND, "second")
    elif hour_only and ctx.policy.clock_granularity == "hour":
        span = Span(start, start + _HOUR, "hour")
    else:
        span = Span(start, start + _MINUTE, "minute")
    return _step(st, ctx, span, rule, relative=implicit, pod=pod, implicit="day" if implicit else None)


# am/pm carried like a part of day, for the other side of a range
_MERIDIEM_PODS = {"a": {"meridiem": "am"}, "p": {"meridiem": "pm", "pm": (1, 11)}}


def h_clock(m, st, ctx):
    if _DIGIT_BY_DIGIT.fullmatch(m.group("hour")):
        return None  # 两三点 is two or three o'clock (clock_pair), never 23:00
    hour = zh_int(m.group("hour"))
    quarters = m.group("quarters")
    if m.group("half"):
        minute = 30
    elif quarters:
        minute = 15 * (zh_int(quarters) or 0)
        if minute == 60:  # 午时四刻, 三点四刻: the next hour
            hour, minute = (hour or 0) + 1, 0
    elif m.group("minute"):
        minute = zh_int(m.group("minute"))
    elif m.group("five_minutes"):  # 三点两个字: Cantonese counts minutes in fives
        minute = 5 * (zh_int(m.group("five_minutes")) or 0)
    else:
        minute = 0
    second = m.group("second") or m.group("second_alone")
    second = zh_int(second) if second else None
    state = _clock(st, ctx, hour, minute, "zh.clock", second=second,
                   hour_only=minute == 0 and second is None and not quarters, meridiem=m.group("ampm"))
    if state is not None and m.group("more"):  # 五点多: some time in that hour
        start = state.span.start.replace(minute=0, second=0)
        state = dataclasses.replace(state, span=Span(start, start + _HOUR, "hour"))
    return state


def h_clock_pair(m, st, ctx):
    """七八点: seven or eight o'clock, the two hours [7:00, 9:00) (part of day applied)."""
    first, second = zh_int(m.group("a")), zh_int(m.group("b"))
    if first is None or second != first + 1:
        return None
    state = _clock(st, ctx, first, 0, "zh.clock_pair")
    if state is None:
        return None
    return dataclasses.replace(state, span=Span(state.span.start, state.span.start + 2 * _HOUR, "hour"))


def h_span_pair(table):
    """今明两天, 明后天, 今明两年: two neighbouring days or years as one span."""
    def apply(m, st, ctx):
        if st.span is not None:
            return None
        unit, first, count = table[m.group(0)]
        start = _add(unit_floor(ctx.ref, unit, ctx), unit, first)
        return _step(st, ctx, Span(start, _add(start, unit, count), unit), "zh.span_pair", relative=True)
    return apply


def h_clock_before(m, st, ctx):
    """差十分五点 / 五点差十分 / 差一刻八点: N minutes (or quarters) before the hour."""
    hour, minutes = zh_int(m.group("hour") or m.group("hour2")), zh_int(m.group("minus") or m.group("minus2"))
    quarters = m.group("quarters") or m.group("quarters2")
    if quarters:
        minutes = 15 * zh_int(quarters)
    if hour is None or minutes is None or not 0 < minutes < 60:
        return None
    return _clock(st, ctx, hour - 1, 60 - minutes, "zh.clock")


def h_clock_colon(m, st, ctx):
    second = m.group("s")
    if int(m.group("h")) >= 24 and second is None and st.span is None and not m.group("ampm") \
            and m.group(0) == m.string:
        # a lone 35:37: no hour, so minutes and seconds inside the reference hour
        minute, second = int(m.group("h")), int(m.group("mi"))
        if minute > 59 or second > 59:
            return None
        start = ctx.ref.replace(minute=minute, second=second)
        return _step(st, ctx, Span(start, start + _SECOND, "second"), "clock.minute_second", relative=True)
    return _clock(st, ctx, int(m.group("h")), int(m.group("mi")), "clock",
                  second=int(second) if second is not None else None, meridiem=m.group("ampm"))


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


def unit_floor(moment: dt.datetime, unit: str, ctx) -> dt.datetime:
    """The start of the calendar unit containing `moment`."""
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
        return midnight(week_first_day(moment.date(), WEEKDAYS.index(ctx.policy.week_start)))
    if unit == "month":
        return day.replace(day=1)
    if unit == "quarter":
        return day.replace(month=moment.month - (moment.month - 1) % 3, day=1)
    return day.replace(month=1, day=1)


def _unit_span(moment: dt.datetime, unit: str, ctx, count: int = 1) -> Span:
    start = unit_floor(moment, unit, ctx)
    return Span(start, _add(start, unit, count), "month" if unit == "quarter" else unit)


def _now(ctx) -> tuple:
    """(start, end) of "now": the reference instant, or the whole unit the reference stands for
    (policy reference_unit: a request time given to the minute is that minute)."""
    unit = ctx.policy.reference_unit
    if unit == "instant":
        return ctx.ref, ctx.ref
    start = unit_floor(ctx.ref, unit, ctx)
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


def _shift(ctx, unit, amount, size=1):
    """The target `amount` units (may be negative; halves allowed) from the reference: for clock
    units the instant, the unit containing it or the spoken unit next to it (policy offset_clock;
    `size` units make one spoken unit: 15 minutes for 刻钟), for days and coarser the day or the
    whole unit containing it (policy offset_unit); N个工作日后 the N-th workday after today."""
    ref = ctx.ref
    if unit == "workday":
        return _day_span(_workday(ref.date(), int(amount), ctx)) if amount == int(amount) and abs(amount) < 1000 else None
    if unit in _CLOCK_UNITS:
        try:
            moment = ref + amount * _CLOCK_UNITS[unit]
            if ctx.policy.offset_clock == "unit_span":  # 6小时前 = the hour that ended then; 半小时前 = that half hour
                far = moment + (1 if amount > 0 else -1) * min(abs(amount), size) * _CLOCK_UNITS[unit]
                return Span(min(moment, far), max(moment, far), "second" if moment.second or unit == "second"
                            else "minute")
        except OverflowError:  # 99999999999小时后: past the calendar
            raise OutOfCalendar(f"{amount} {unit} from {ref}") from None
        if ctx.policy.offset_clock == "whole_unit":
            return _unit_span(moment, unit, ctx)
        fine = "second" if moment.second or unit == "second" else "minute"
        return _unit_span(moment, fine, ctx)
    if amount != int(amount) and unit in ("day", "week"):  # 两天半后 = 60 hours on, an instant
        return _shift(ctx, "hour", amount * (168 if unit == "week" else 24))
    if amount != int(amount):
        if unit not in ("year", "month"):
            return None
        amount, unit = amount * (12 if unit == "year" else 1), "month"  # 一年半后 = 18 months
        if amount != int(amount):
            amount, unit = amount * 30, "day"  # 半个月后 = 15 days
            if amount != int(amount):
                return None
    target = _add(ref, unit, int(amount))
    if not 1 <= target.year <= 9998:
        return None
    if ctx.policy.offset_unit == "same_day" or unit == "day":
        return _day_span(target.date())
    return _unit_span(target, unit, ctx)


def _window(ctx, unit, amount, forward, through_last_day=False, approximate=False):
    """最近N天 / 未来N天: N units next to now (policies recent_window, upcoming_window,
    recent_includes_today, upcoming_includes_today); `through_last_day`: a forward window of days
    or coarser units ends with the whole day on which its N-th unit ends (17天内, policy within_end);
    `approximate`: N and some more (三个多月以来), widened to a whole unit under approximate_window."""
    ref = ctx.ref
    if amount <= 0:
        return None
    if approximate and ctx.policy.approximate_window == "unit_start" and amount == int(amount):
        window = _window(ctx, unit, amount, forward, through_last_day)
        if forward:
            return Span(window.start, _add(unit_floor(window.end - _SECOND, unit, ctx), unit, 1), window.granularity)
        return Span(unit_floor(window.start, unit, ctx), window.end, window.granularity)
    if amount != int(amount):
        if unit == "workday":
            return None  # 半个工作日内: no whole workday to count
        if unit in _CLOCK_UNITS or unit == "day":
            amount, unit = amount * {"second": 1, "minute": 60, "hour": 3600, "day": 86400}[unit], "second"
        elif unit == "month":  # 半个月 = 15 days
            amount, unit = amount * 30, "day"
        else:
            amount, unit = amount * {"week": 7, "quarter": 3, "year": 12}[unit], "day" if unit == "week" else "month"
        if amount != int(amount):
            return None
    amount = int(amount)
    if through_last_day and forward and unit not in _CLOCK_UNITS and unit != "workday":
        window = _window(ctx, unit, amount, forward)
        return Span(window.start, _add(midnight(_add(ref, unit, amount).date()), "day", 1), window.granularity)
    mode = ctx.policy.upcoming_window if forward else ctx.policy.recent_window
    if unit == "workday":  # 15个工作日内: through the 15th workday after today (or since the 15th before)
        if amount >= 1000:
            return None
        today = midnight(ref.date())
        if forward:
            return Span(_now(ctx)[0] if mode == "instant" else today, midnight(_workday(ref.date(), amount, ctx)) + DAY,
                        "second" if mode == "instant" else "day")
        return Span(midnight(_workday(ref.date(), -amount, ctx)), _now(ctx)[1] if mode == "instant" else today + DAY,
                    "second" if mode == "instant" else "day")
    if unit in _CLOCK_UNITS or mode == "instant":
        granularity = unit if unit in _CLOCK_UNITS else "second"
        now_start, now_end = _now(ctx)
        far = _add(now_end, unit, amount) if forward else _add(now_start, unit, -amount)
        if unit in ("month", "quarter", "year") and ctx.policy.window_far_edge == "midnight":
            far = midnight(far.date())
        return Span(now_start, far, granularity) if forward else Span(far, now_end, granularity)
    today = midnight(ref.date())
    if forward:
        first = today if ctx.policy.upcoming_includes_today else today + DAY
        return Span(first, _add(first, unit, amount), "day")
    if mode == "same_day_back":
        start = _add(today, unit, -amount)
        if unit in ("month", "quarter", "year"):
            start = unit_floor(start, "month", ctx)
        return Span(start, today + DAY, "day")
    end = today + DAY if ctx.policy.recent_includes_today else today
    return Span(_add(end, unit, -amount), end, "day")


def _sequence(ctx, unit, count, direction):
    """上三个月, 下两周, 前3天, 后2年: the `count` whole units just before the current one, or
    just after it."""
    current = unit_floor(ctx.ref, unit, ctx)
    if direction < 0:
        return Span(_add(current, unit, -count), current, "month" if unit == "quarter" else unit)
    first = _add(current, unit, 1)
    return Span(first, _add(first, unit, count), "month" if unit == "quarter" else unit)


def _part_of(span: Span, unit, count, from_end, ctx):
    """The first (or last) `count` units of a span: 今年前五个月, 这个月前两天, 上月最后五天."""
    unit_start = unit_floor(span.start, unit, ctx)
    if unit_start != span.start:
        return None
    granularity = "month" if unit == "quarter" else unit
    if not from_end:
        end = _add(span.start, unit, count)
        return Span(span.start, end, granularity) if end <= span.end else None
    start = _add(span.end, unit, -count)
    return Span(start, span.end, granularity) if start >= span.start else None


_FINER_AFTER = frozenset(("part_of_day", "clock", "clock_colon", "clock_before", "sequence"))


def _finer_follows(m) -> bool:
    """Whether `的` and a part of day, a clock time or a 前/后N天 follows the match."""
    text, pos = m.string, m.end()
    while pos < len(text) and text[pos] == " ":
        pos += 1
    if not text.startswith("的", pos) or pos + 1 >= len(text):
        return False
    return any(token.name in _FINER_AFTER and (token.name != "sequence" or match.group("dir") in ("前", "后")
                                                and match.group("unit") in ("天", "日"))
               for token, match in _candidates(text, pos + 1))


def h_sequence(units):
    """前/后/上/下/最后 + N + unit: relative to now (上三个月), inside what was read (2021年前两个
    季度, 上月最后五天), or beside a day (国庆节前三天 = the three days before it)."""
    def apply(m, st, ctx):
        count = zh_int(m.group("n")) if m.group("n") else 1
        word, unit_word = m.group("dir").replace("末", "最后"), m.group("unit")  # 末三天 = 最后三天
        unit = units[unit_word][0]
        if count is None or count <= 0 or units[unit_word][1] != 1:
            return None
        if unit == "workday":  # 下个工作日 / 上一个工作日: the next (previous) workday, not counting today
            if st.span is not None or word not in ("上", "下") or m.group("n") and count != 1:
                return None
            day = _workday(ctx.ref.date(), 1 if word == "下" else -1, ctx)
            return _step(st, ctx, _day_span(day), "zh.sequence", relative=True)
        if st.span is None:
            if word == "最后":
                container = {"day": "month", "week": "month", "month": "year", "quarter": "year"}.get(unit)
                if container is None:
                    return None
                span = _part_of(_unit_span(ctx.ref, container, ctx), unit, count, True, ctx)
            elif unit_word == "月" and not m.group("measure"):
                return None  # 上3月 is not a count of months
            elif m.group("n") and unit in ("day", "week", "month", "year") and _finer_follows(m):
                # 后三天的下午4点, 上2个月的前一天: the day N units away, which the rest refines
                span = _day_span(_add(ctx.ref, unit, count if word in ("下", "后") else -count).date())
            else:
                span = _sequence(ctx, unit, count, -1 if word in ("上", "前") else 1)
            return span and _step(st, ctx, span, "zh.sequence", relative=True)
        if word in ("上", "下"):
            return None
        if st.span.granularity == "day" and st.span.end - st.span.start == DAY and unit in ("day", "week"):
            day, days = st.span.start, count * (7 if unit == "week" else 1)  # 元旦前一周: the 7 days before it
            span = Span(day - days * DAY, day, "day") if word == "前" else Span(day + DAY, day + (days + 1) * DAY, "day")
        else:
            span = _part_of(st.span, unit, count, word != "前", ctx)
        return span and _step(st, ctx, span, "zh.sequence")
    return apply


def _nth_week(container: Span, n: int, ctx) -> Span | None:
    """The n-th calendar week that begins inside `container` (第N周 of a month or a year); n < 0
    counts from the end."""
    start = WEEKDAYS.index(ctx.policy.week_start)
    first = week_first_day(container.start.date(), start)
    if midnight(first) < container.start:
        first += 7 * DAY
    weeks = []
    day = first
    while midnight(day) < container.end:
        weeks.append(day)
        day += 7 * DAY
    if not weeks or abs(n) > len(weeks) or n == 0:
        return None
    chosen = midnight(weeks[n - 1 if n > 0 else n])
    return Span(chosen, chosen + 7 * DAY, "week")


def _nth_weekday(container: Span, n: int, weekday: int) -> Span | None:
    """The n-th `weekday` inside `container` (五月第二个星期日); n < 0 counts from the end."""
    days = []
    day = container.start.date()
    while midnight(day) < container.end:
        if day.weekday() == weekday:
            days.append(day)
        day += DAY
    if n == 0 or abs(n) > len(days):
        return None
    return _day_span(days[n - 1 if n > 0 else n])


def _nth_workday(container: Span, n: int, ctx) -> Span | None:
    """下个月的第一个工作日, 本周最后一个工作日: the n-th (from the end when negative) day of the
    container that is a workday under policy workdays."""
    workdays = {WEEKDAYS.index(name) for name in ctx.policy.workdays}
    first, last = container.start.date(), (container.end - DAY).date()
    days = [first + offset * DAY for offset in range((last - first).days + 1)]
    chosen = [day for day in days if day.weekday() in workdays]
    index = n - 1 if n > 0 else n
    return _day_span(chosen[index]) if -len(chosen) <= index < len(chosen) else None


def h_ordinal(units, weekdays):
    """第N周, 第二个星期日, 最后一个周五, 第一天, 最后一天, 第8个月, 首月: the n-th unit inside
    what was read (a year, a quarter, a month, a week), or inside the current one."""
    def apply(m, st, ctx):
        if m.group("first"):
            n = 1
        elif m.group("last"):
            count = zh_int(m.group("n")) if m.group("n") else 1
            n = -count if count else None  # 末一6天: no count
        else:
            n = zh_int(m.group("n"))
        if not n:
            return None
        unit = units[m.group("unit")][0]
        weekday = m.group("weekday")
        if m.group("weekend"):
            return _nth_weekend(st, ctx, n)
        container = st.span
        if container is None and n > 0 and weekday is None and unit != "workday" \
                and ctx.policy.ordinal_origin == "reference":
            # 第三天 counted from today (day 1): the day after tomorrow
            piece = _add(unit_floor(ctx.ref, unit, ctx), unit, n - 1)
            return _step(st, ctx, _unit_span(piece, unit, ctx), "zh.ordinal", relative=True)
        if container is None and unit == "year":
            return None  # 第七年: no year contains years
        if container is None:
            container = _unit_span(ctx.ref, "month" if unit in ("day", "week", "workday") else "year", ctx)
            if weekday is not None or unit == "week":
                container = _unit_span(ctx.ref, "month", ctx)
            if unit == "day" and m.group("unit") in ("周", "星期", "礼拜"):
                return None
        if GRANULARITY_INDEX[container.granularity] < GRANULARITY_INDEX["day"]:
            return None
        span = _nth(container, n, unit, weekdays[weekday] if weekday is not None else None, ctx)
        if span is None and st.span is None and container.granularity == "month" and weekday is None:
            # 第11周, 第40天: more than a month holds, so the n-th of the year
            span = _nth(_unit_span(ctx.ref, "year", ctx), n, unit, None, ctx)
        return span and _step(st, ctx, span, "zh.ordinal", relative=st.span is None)
    return apply


def _nth_weekend(st, ctx, n):
    """第一个周末, 最后一个周末: the weekend whose first day (policy weekend_first_day) is that
    day's n-th in the month read before, or in the reference's month."""
    container = st.span or _unit_span(ctx.ref, "month", ctx)
    if GRANULARITY_INDEX[container.granularity] < GRANULARITY_INDEX["day"]:
        return None
    first = _nth_weekday(container, n, WEEKDAYS.index(ctx.policy.weekend_first_day))
    return first and _step(st, ctx, _weekend_from(first.start.date(), ctx), "zh.ordinal", relative=st.span is None)


def _nth(container: Span, n: int, unit: str, weekday, ctx) -> Span | None:
    """The n-th unit (from the end when negative) inside `container`, a weekday's n-th when given."""
    if weekday is not None:
        return _nth_weekday(container, n, weekday)
    if unit == "workday":
        return _nth_workday(container, n, ctx)
    if unit == "week":
        return _nth_week(container, n, ctx)
    piece = _add(container.start, unit, n - 1) if n > 0 else _add(container.end, unit, n)
    span = Span(piece, _add(piece, unit, 1), "month" if unit == "quarter" else unit)
    return None if span.start < container.start or span.end > container.end else span


def _amount(number_text, half):
    if number_text and "." in number_text:  # 1.5小时后: a decimal count takes no 半 besides
        return None if half else float(number_text)
    number = zh_int(number_text) if number_text else (0 if half else None)
    if number is None:
        return None
    return number + (0.5 if half else 0)


_DIGIT_BY_DIGIT = re.compile("[零〇一两二三四五六七八九]{2,}")
_PAIR_DIGITS = "一两二三四五六七八九"


def _approximate_pair(number: str | None) -> tuple | None:
    """(a, b) of a count said as two neighbouring digits, 两三 (two or three), 一两, 七八, or the
    idiom 三五 (three to five); None for any other numeral (二〇 is no count)."""
    if not number or len(number) != 2 or any(char not in _PAIR_DIGITS for char in number):
        return None
    low, high = zh_int(number[0]), zh_int(number[1])
    return (low, high) if high == low + 1 or (low, high) == (3, 5) else None


class _NotACount(Exception):
    """多 without a number before it (多天) or beside 半: not a count."""


def _measured(m, st, units, needs_measure):
    """(unit, amount in that unit, approximation) of an `N 个 unit` match that starts a value, else
    None; the approximation is how many units past N an approximate count (三个多月) may reach.
    A numeral read digit by digit (五八年, 二〇二四年) or a four-digit number of years names a
    year, not a count (五八年前七个月, 2024年内)."""
    unit_word, number = m.group("unit"), m.group("n")
    measure = m.group("measure") or m.groupdict().get("measure_after_half")
    if st.span is not None or (unit_word in needs_measure and not measure):
        return None
    after = m.groupdict().get("half_after")
    pair = _approximate_pair(number)
    if pair:  # 两三天后: between two and three days on, as 三个多月前 is between three and four months
        if m.group("half") or m.group("more") or m.group("more_after_measure") or after or m.groupdict().get("few"):
            return None
        unit, size = units[unit_word]
        return unit, pair[0] * size, (pair[1] - pair[0]) * size
    if number and (_DIGIT_BY_DIGIT.fullmatch(number) or (units[unit_word][0] == "year" and len(number) >= 4)):
        return None
    amount = _amount(number, m.group("half") or (after or "").startswith("半"))  # 一分半钟: 1.5 minutes
    unit, size = units[unit_word]
    if amount is None:
        return None
    if m.groupdict().get("few"):  # 几十年: some tens, 20 to 90
        if number not in ("十", "百") or m.group("half") or after:
            return None
        return unit, 2 * amount * size, 7 * amount * size
    return unit, amount * size, _approximation(m, number, after == "多") * size


def _approximation(m, number, more_after_unit):
    """How far past N an approximate count reaches, in units: 三个多月 and 3年多 are N to N+1,
    十多天, 二十几年 (多 or 几 right after a round numeral) N to N+10; 0 for an exact count."""
    more = m.group("more")
    if not (more or m.group("more_after_measure") or more_after_unit):
        return 0
    if not number or m.group("half") or "." in number:
        raise _NotACount
    round_number = zh_int(number) % 10 == 0
    if more == "几" and not round_number:
        raise _NotACount  # 三几天 is no count
    return 10 if more and round_number else 1


def _counted(m, st, units, needs_measure):
    try:
        return _measured(m, st, units, needs_measure)
    except _NotACount:
        return None


def _between(ctx, unit, near, far):
    """三个多月前 / 二十几年前: the span between the targets `near` and `far` units from the
    reference: instants for clock units; for days and coarser what policy offset_unit makes of
    one target, so whole_unit widens the span to whole units (二十几年前 said in 2021 = 1991
    through 2001, as 20年前 = 2001) and same_day keeps the days between them."""
    if near != int(near) or far != int(far) or unit == "workday":
        return None
    a, b = sorted((_add(ctx.ref, unit, int(near)), _add(ctx.ref, unit, int(far))))
    if unit in _CLOCK_UNITS:
        return Span(a, b, "second" if a.second or b.second or unit == "second" else "minute")
    if ctx.policy.offset_unit == "whole_unit" and unit not in ("day", "workday"):
        first, last = _unit_span(a, unit, ctx), _unit_span(b - _SECOND, unit, ctx)
        return Span(first.start, last.end, first.granularity)
    return Span(midnight(a.date()), midnight(b.date()), "day")


def h_offset(units, after_words, needs_measure):
    def apply(m, st, ctx):
        measured = _counted(m, st, units, needs_measure)
        if measured is None or not (m.group("dir") or m.group("pre")):
            return None
        unit, amount, approximation = measured
        if unit == "year" and amount >= 1000:
            return None  # 2025年前: before the year 2025, not 2025 years ago
        sign = 1 if m.group("pre") or m.group("dir") in after_words else -1
        if approximation:
            span = _between(ctx, unit, sign * amount, sign * (amount + approximation))
        else:
            span = _shift(ctx, unit, sign * amount, units[m.group("unit")][1])
        return span and _step(st, ctx, span, "zh.offset", relative=True)
    return apply


_UNIT_ORDER = ("year", "quarter", "month", "week", "day", "hour", "minute", "second")


def h_compound_offset(units, after_words):
    """1年2个月前, 3天5小时后, 1年，1月，1周，1天前: a sum of counts, largest unit first, before
    前/后. The coarser parts move the reference; the finest is an offset from there (policies
    offset_unit / offset_clock). 月 without 个 counts months only after a separator (1年，1月)."""
    part = re.compile(r"\s*(?P<sep>[，,、和又零])?\s*(?P<n>[^个\s，,、和又]+?)\s*(?P<measure>个)?\s*(?P<unit>"
                      + _alt(units) + ")")

    def apply(m, st, ctx):
        if st.span is not None:
            return None
        parts = []
        for piece in part.finditer(m.group("parts")):
            unit, size = units[piece.group("unit")]
            number = piece.group("n")
            amount = zh_int(number)
            if unit not in _UNIT_ORDER or amount is None or _DIGIT_BY_DIGIT.fullmatch(number) \
                    or (unit == "year" and len(number) >= 4) \
                    or (piece.group("unit") == "月" and not piece.group("measure") and not piece.group("sep")) \
                    or (parts and _UNIT_ORDER.index(unit) <= _UNIT_ORDER.index(parts[-1][0])):
                return None
            parts.append((unit, amount * size))
        if len(parts) < 2:
            return None
        sign = 1 if m.group("dir") in after_words else -1
        moved = ctx.ref
        for unit, amount in parts[:-1]:
            moved = _add(moved, unit, sign * amount)
        span = _shift(dataclasses.replace(ctx, ref=moved), parts[-1][0], sign * parts[-1][1])
        return span and _step(st, ctx, span, "zh.offset", relative=True)
    return apply


def h_window(units, needs_measure, forward, rule):
    """最近N天 / 未来N天 / N天内; after 近 or 未来, 三月 is a count of months (近三月)."""
    def apply(m, st, ctx):
        measured = _counted(m, st, units, needs_measure if rule in ("zh.within", "zh.since") else frozenset())
        through_last_day = rule == "zh.within" and ctx.policy.within_end == "through_last_day"
        span = _window(ctx, measured[0], measured[1], forward, through_last_day, approximate=measured[2] > 0) \
            if measured and measured[1] > 0 else None
        return span and _step(st, ctx, span, rule, relative=True)
    return apply


def _holiday(st, ctx, canonical, period, rule):
    """A holiday (or its statutory break) in the year read so far, else the next one not yet
    over (policy holiday_year) counting from the anchor's year."""
    statutory = holidays.holiday_period(canonical)
    period = period or (statutory is not None and ctx.policy.holiday_break == "statutory_break")
    year, implicit = _year_of(st, ctx)
    if year is None or (period and statutory is None):
        return None

    def span(date):
        if period:
            start_days, length = statutory
            return Span(midnight(date) + start_days * DAY, midnight(date) + (start_days + length) * DAY, "day")
        return Span(midnight(date), midnight(date) + holidays.holiday_days(canonical, date, ctx.policy) * DAY, "day")

    upcoming = implicit and ctx.policy.holiday_year == "upcoming"
    spans = [span(date) for y in ((year, year + 1) if upcoming else (year,))
             for date in holidays.holiday_dates(canonical, y, ctx.policy)]
    if upcoming:
        spans = [found for found in spans if found.end > midnight(ctx.anchor.date())]
    return _step(st, ctx, spans[0], rule, relative=implicit) if spans else None


# a holiday name ending in a numeral must not run on into a number, a date or an amount: 二月二日 is
# not 龙抬头 (二月二), 十一万 not 国庆 (十一), 520元 and 520.5 not 5月20日; 元旦10点 stays a holiday
_NOT_AFTER_HOLIDAY = (r"(?![a-z])(?!(?<=[\d零〇一二三四五六七八九十])"
                      r"[\d.%零〇一二三四五六七八九十百千万亿日号號元块])")


def h_holiday(names):
    def apply(m, st, ctx):
        return _holiday(st, ctx, names[m.group("name")], bool(m.group("period")), "holiday")
    return apply


# month and day numerals of lunar dates; alternatives in the order they must be tried
_LUNAR_FIRST_DAYS = "初(?:十|[一二三四五六七八九])"
_PLAIN_LUNAR_DAY = rf"{_LUNAR_FIRST_DAYS}|廿[一二三四五六七八九]?|卅|二十[一二三四五六七八九]?|三十|十[一二三四五六七八九]?"
_LUNAR_DAY = rf"初\s*\d{{1,2}}|{_PLAIN_LUNAR_DAY}|[一二三四五六七八九]|[12]\d|3[01]|0?[1-9]"
_PLAIN_MONTH = "十[一二]|[一二三四五六七八九十]"
_LUNAR_MONTH = rf"{_PLAIN_MONTH}|1[0-2]|0?[1-9]"


def _lunar_day(text: str | None) -> int | None:
    """初五 -> 5, 廿 -> 20, 廿三 -> 23, 卅 -> 30, 十五 / 15 -> 15; None when absent."""
    if text is None:
        return None
    text = text.replace(" ", "")
    if text[0] == "初":
        return zh_int(text[1:])
    return zh_int(text)   # 廿三, 卅: the numeral reader knows them


def _lunar_day_from(anchor: dt.date, day: int, roll: bool) -> dt.date | None:
    """That day of the lunar month `anchor` is in; with `roll`, of the next lunar month when it
    would come before the anchor."""
    month = calendars.lunar_month_of(anchor)
    date = month and calendars.lunar_to_solar(*month[:2], day, month[2])
    if roll and date is not None and date < anchor:
        month = calendars.lunar_month_of(calendars.lunar_month_span(*month[:2], month[2])[1])
        date = month and calendars.lunar_to_solar(*month[:2], day, month[2])
    return date


def _bare_lunar_day(st, ctx, day):
    """初五 / 廿三 alone on the right of a range (正月初一到初五, 腊月廿八到初六): that day of the lunar
    month the left side starts in, or of the next one when it would come before the left side.
    Alone 初三 is not read (as likely a school year); a lone 廿/卅 day is a day of the month."""
    if st.span is not None or ctx.anchor == ctx.ref:
        return None
    date = _lunar_day_from(ctx.anchor.date(), day, roll=True)
    return date and _step(st, ctx, _day_span(date), "zh.lunar_day")


def _marked_lunar_day(st, ctx, day):
    """农历十五 / 阴历初一, a lunar day with no month: that day of the lunar month the reference is
    in, or (policy bare_day_of_month = upcoming) of the next one once it is over."""
    if st.span is not None:
        return None
    date = _lunar_day_from(ctx.anchor.date(), day, roll=ctx.policy.bare_day_of_month == "upcoming")
    return date and _step(st, ctx, _day_span(date), "zh.lunar_day", relative=True)


def h_lunar_date(months):
    """农历2019年三月初三, 腊月廿三, 闰四月, 大年初十, a month and a Chinese-numeral day without 日/号
    (五月初五, 8月十五) read per policy unmarked_month_day, and a lone lunar day ending a range. The year is
    the lunar year."""
    def apply(m, st, ctx):
        if m.group("bare_day"):
            day = _lunar_day(m.group("bare_day"))
            if st.span is None and ctx.anchor == ctx.ref and m.group(0) == m.string and day > 20:
                # a lone 廿一 / 卅 (days a calendar writes that way): that day of the reference month
                return _day_of_month(st, ctx, day, "zh.day")
            return _bare_lunar_day(st, ctx, day)
        if m.group("marked_day"):
            return _marked_lunar_day(st, ctx, _lunar_day(m.group("marked_day")))
        month_text = m.group("month") or m.group("named") or m.group("plain_month")
        month = 1 if m.group("danian_day") else months.get(month_text) or zh_int(month_text)
        day = _lunar_day(m.group("day") or m.group("named_day") or m.group("danian_day") or m.group("plain_day"))
        if m.group("plain_month"):
            policy = ctx.policy.unmarked_month_day
            if policy == "gregorian":
                state = _month(st, ctx, month, "zh.month")
                return state and _day_of_month(dataclasses.replace(state, rules=st.rules), ctx, day, "zh.day")
            if policy == "lunar_day_words" and m.group("plain_day")[0] not in "初廿卅":
                return None
        leap = bool(m.group("leap") or m.group("leap_only"))
        if m.group("year"):
            if st.span is not None:
                return None
            year, implicit = zh_int(m.group("year")), False
        else:
            year, implicit = _year_of(st, ctx)
        if year is None:
            return None

        def span_in(lunar_year):
            if day is None:
                bounds = calendars.lunar_month_span(lunar_year, month, leap)
                return bounds and Span(midnight(bounds[0]), midnight(bounds[1]), "day")
            date = calendars.lunar_to_solar(lunar_year, month, day, leap) if day else None
            return date and _day_span(date)

        span = span_in(year)
        if span and implicit and ctx.policy.bare_month_day == "upcoming" and span.end <= midnight(ctx.anchor.date()):
            span = span_in(year + 1)
        return span and _step(st, ctx, span, "zh.lunar_date", relative=implicit)
    return apply


def h_now(m, st, ctx):
    if st.span is not None:
        return None
    return _step(st, ctx, _unit_span(ctx.ref, ctx.policy.now_granularity, ctx), "now", relative=True)


def h_zone(zones):
    """北京时间, 东京时间, UTC+8, GMT-5, PST: the clock of the expression is read in that zone."""
    def apply(m, st, ctx):
        if st.zone is not None:
            return None
        name = m.group("name")
        if name is not None:
            zone = zones[name]
            zone = dt.timezone(dt.timedelta(hours=zone)) if isinstance(zone, (int, float)) else ZoneInfo(zone)
        else:
            hours, minutes = int(m.group("h")), int(m.group("mi") or 0)
            if hours > 14 or minutes > 59:
                return None
            sign = -1 if m.group("sign") == "-" else 1
            zone = dt.timezone(sign * dt.timedelta(hours=hours, minutes=minutes))
        return dataclasses.replace(st, zone=zone, rules=st.rules + ("zone",))
    return apply


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


def h_quarter_part(m, st, ctx):
    """季初 / 季末 / 季度末: the first or last month of the current quarter."""
    if st.span is not None:
        return None
    quarter = _relative_quarter(st, ctx, 0, "zh.relative_quarter")
    year, month = quarter.span.start.year, quarter.span.start.month + (0 if m.group("part") == "初" else 2)
    return _step(st, ctx, Span(*month_span(year, month), "month"), "zh.quarter_part", relative=True)


def h_open_range(before_words):
    """X以前 / X之前 / X前 and X起 / X以来 / X至今: an open range, closed at the reference instant
    under policy open_range = reference (年底前 = [now, end of the year)); not resolved under none."""
    def apply(m, st, ctx):
        if st.span is not None and ctx.left is not None and m.group(0) in before_words:
            return st  # X之后Y之前: the range ends with Y
        if st.span is not None and ctx.left is None and m.group(0) not in before_words \
                and m.end() < len(m.string) \
                and any(token.kind == "connector" for token, _match in _candidates(m.string, m.end())):
            return st  # 从明天开始到后天: 开始 / 起 only mark the left side of a range
        if st.span is None or ctx.policy.open_range == "none" or ctx.left is not None:
            return None
        if m.group(0) in before_words:
            return _open_before(st, ctx, "open_range")
        return _open_after(st, ctx)
    return apply


def _open_before(st, ctx, rule):
    """X以前 / 截至X: from now to X (十点前: by 10:00; 中午前: by 12:00, before noon begins; 月底前:
    through the month's last day); None when X is already over."""
    fine = st.span.granularity == "part_of_day" or (GRANULARITY_INDEX[st.span.granularity] <= GRANULARITY_INDEX["hour"]
                                                    and ctx.policy.clock_range_end == "instant")
    end = st.span.start if fine else st.span.end
    span = Span(ctx.ref, end, "second") if end > ctx.ref else None
    return span and State(span, None, True, None, st.rules + (rule,))


def h_by(m, st, ctx):
    """截至 / 截止到 / 直到 before X: marks the reading, closed as X以前 when X is read (policy open_range)."""
    if st.span is not None or st.rules or ctx.left is not None or ctx.policy.open_range == "none":
        return None
    return dataclasses.replace(st, rules=("zh.by",))


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


# -- English -----------------------------------------------------------------------------------

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


# -- the token table ---------------------------------------------------------------------------

def _noop(m, st, ctx):
    return st


class _Groups:
    """A match whose named groups are partly replaced (tokens with alternative spellings of one
    group hand their handler a single name)."""

    def __init__(self, match, **groups):
        self._match, self._groups, self.string = match, groups, match.string

    def group(self, name=0):
        return self._groups[name] if name in self._groups else self._match.group(name)

    def end(self, *args):
        return self._match.end(*args)


@functools.lru_cache(maxsize=None)
def tokens() -> tuple:
    """Every token, compiled once. Order breaks ties between equally long matches."""
    numeral_char = numeral_class()
    numeral = numeral_char + "+"  # a minute ends where its numeral does: 4点56秒 is 16:00:56, not 4:05:06
    zh = read_toml("temporal/zh.toml")
    en = read_toml("temporal/en.toml")
    words = zh["words"]
    units = zh["unit"]
    unit_alt = _alt(units)
    after, before = words["after"], words["before"]
    needs_measure = frozenset(words["needs_measure_word"])
    week_word = "(?:周|星期|礼拜|拜)"  # 拜一: Cantonese
    weekday_alt = _alt(zh["weekday"])
    pods = part_of_day_table(zh["part_of_day"])
    connector = r"\s*(?:[-~～到至—]|——)\s*"
    ampm = r"(?:\s*(?P<ampm>am|pm|a\.m\.|p\.m\.|a|p)(?![a-z]))?"
    ordinal_units = _alt(zh["ordinal_unit"])
    holiday_names = holidays.holiday_names()
    month_edges = {"end": frozenset(zh["month_end_words"]), "start": frozenset(zh["month_start_words"])}
    lunar = read_toml("holidays/lunar_words.toml")
    lunar_marker = _alt(lunar["markers"])
    named_months = _alt(lunar["named_months"])
    en_pods = en["part_of_day"]
    en_units = en["unit"]
    en_unit_alt = _alt(en_units)
    en_num = r"\d+|" + _alt(en["number"])
    en_rel_alt = _alt(en["relative_word"])
    en_weekday_alt = _alt(en["weekday"])
    en_month_alt = _alt(en["month"])
    end = r"(?![a-z])"

    def tok(name, pattern, apply, kind="token"):
        return Token(name, re.compile(pattern), apply, kind)

    amount = rf"(?P<few>几(?=[十百]))?(?P<n>\d+\.\d+|{numeral})?\s*(?P<more>多|几)?(?P<measure>个)?(?P<more_after_measure>多)?(?P<half>半)?(?P<measure_after_half>个)?\s*"
    return (
        tok("iso", r"(?P<y>\d{4})(?:[-/.](?P<mo>\d{1,2})[-/.](?P<d>\d{1,2})|(?P<mo2>\d{2})(?P<d2>\d{2})(?![\d:])"
            r"|\s(?P<mo3>\d{1,2})\s(?P<d3>\d{1,2})(?![\d:]))"
            r"(?:(?:t|\s+|-|(?<=\d\d[-/.]\d\d))(?P<h>\d{1,2}):(?P<mi>\d{2})"
            # an offset after seconds (+08:00, +0800, Postgres's +08, -05:00); without seconds only
            # z or a + offset: 2026-03-10 10:00-12:00 is a range of hours, not 10:00 at UTC-12
            r"(?:(?::(?P<s>\d{2})(?:\.\d+)?)(?P<tz>z|\s*[+-]\d{2}(?::?\d{2})?(?![\d./:-]))?"
            r"|(?P<tz_minute>z|\s*\+\d{2}:?\d{2}(?![\d./:-])))?)?(?!\d)", h_iso),
        tok("iso_month", r"(\d{4})[-/.](\d{1,2})(?![\d/.]|-\d{1,2}(?!\d))", h_iso_month),
        tok("iso_week", r"(\d{4})-?w(\d{2})(?![\d-])", h_iso_week),
        tok("clock_colon", r"(?P<h>\d{1,2}):(?P<mi>\d{2})(?::(?P<s>\d{2})(?:\.\d+)?)?(?!\d)(?:\s*[点时])?" + ampm, h_clock_colon),
        tok("now", _alt(words["now"] + en["words"]["now"]) + end, h_now),
        tok("year", r"(\d{4}|[零〇一二三四五六七八九]{4}|[两二一]千[零〇一二三四五六七八九十]*)\s*年度?(?!代|级|龄)", h_year),
        tok("era_year", rf"(?P<era>{_alt(zh['era'])})\s*(?P<n>\d{{1,4}}|{numeral})\s*年(?!代|级|龄)", h_era_year(zh["era"])),
        tok("year_two_digits", r"(?:'|’)(?P<y>\d{2})(?!\d)|(?P<y2>\d{2}|[零〇一二三四五六七八九]{2})\s*年(?!代|级|龄)",
            lambda m, st, ctx: h_year_two_digits(_Groups(m, y=m.group("y") or m.group("y2")), st, ctx)),
        tok("bare_number", rf"(?P<n>{numeral})(?={connector}{numeral}\s*(?P<unit>年|月|日|号|点|时))", h_bare_number),
        tok("bare_year", r"\d{4}(?![\d年])", h_bare_year),
        tok("decade", rf"(?:(?P<last_century>上个?世纪)|(?P<this_century>本世纪|这个世纪)|(?P<century>{numeral})\s*世纪)?"
            rf"(?:(?P<decade>{numeral})\s*年代)?(?P<part>{_alt(zh['decade_part']['decade'])})?",
            h_decade(zh["decade_part"])),
        tok("relative_year", _alt(zh["relative_year"]), h_year_relative(zh["relative_year"])),
        tok("year_part", rf"(?<![a-z])(?:{_alt(zh['year_part'])})(?![a-z\d])",
            h_year_part(zh["year_part"], frozenset(words["year_part_needs_year"]))),
        tok("season", _alt([word for season in zh["season"].values() for word in season["words"]]), h_season(zh["season"])),
        tok("quarter", r"(?:第\s*)?([1-4一二三四首])\s*季度|q\s*([1-4])(?![\d])(?:\s*季度)?", h_quarter),
        tok("relative_quarter", _alt(zh["relative_quarter"]), h_quarter_relative(zh["relative_quarter"])),
        tok("relative_month", _alt(zh["relative_month"]), h_month_relative(zh["relative_month"])),
        tok("month", rf"({numeral})\s*月份?", h_month),
        tok("month_part", _alt(zh["month_part"]), h_month_part(zh["month_part"], month_edges)),
        tok("part_suffix", _alt(w for w in zh["part_suffix"]["month"] if w != "中")
            + r"|中(?=$|[\s,，、的前后以之左到至~～-])",
            h_part_suffix(zh["part_suffix"]["month"], zh["part_suffix"]["year"], month_edges)),
        tok("day", rf"({numeral})\s*(?:日|号|號)", h_day),
        tok("day_list", rf"(?:\s*[，,、]\s*{numeral}\s*(?:日|号|號))+", h_day_list),
        tok("day_range", rf"({numeral})\s*(?:[-~～到至]|——)\s*({numeral})\s*(?:日|号|號)", h_day_range),
        tok("same_day", _alt(words["same_day"]), h_same_day),
        tok("relative_day", _alt(zh["relative_day"]),
            h_day_relative(zh["relative_day"], "zh.relative_day", frozenset(words["anchored_days"]))),
        tok("bare_day", r"(\d{1,2})(?![\d.:日号点时分秒年月])", h_bare_day),
        tok("day_with_part", _alt(zh["day_with_part"]), h_day_with_part(zh["day_with_part"], pods)),
        tok("offset", rf"(?:(?P<pre>{_alt(words['after_prefix'])})\s*)?{amount}(?P<unit>{unit_alt})(?P<half_after>半钟?|多)?"
            rf"(?P<dir>{_alt(after + before)})?",
            h_offset(units, frozenset(after), needs_measure)),
        tok("compound_offset", rf"(?P<parts>(?:\s*[，,、和又零]?\s*{numeral}\s*个?\s*(?:{unit_alt})){{2,}})"
            rf"\s*(?P<dir>{_alt(after + before)})", h_compound_offset(units, frozenset(after))),
        tok("recent", rf"(?:{_alt(words['recent'])})\s*{amount}(?P<unit>{unit_alt})(?P<half_after>半钟?|多)?",
            h_window(units, needs_measure, False, "zh.recent")),
        tok("since", rf"{amount}(?P<unit>{unit_alt})(?P<half_after>半钟?|多)?(?:{_alt(words['since'])})",
            h_window(units, needs_measure, False, "zh.since")),
        tok("upcoming", rf"(?:{_alt(words['upcoming'])})\s*{amount}(?P<unit>{unit_alt})",
            h_window(units, needs_measure, True, "zh.upcoming")),
        tok("within", rf"{amount}(?P<unit>{unit_alt})(?P<half_after>半钟?|多)?(?:{_alt(words['within'])})",
            h_window(units, needs_measure, True, "zh.within")),
        tok("month_day_range", r"(?<![\d./·-])(?P<m1>\d{1,2})(?P<sep>[./])(?P<d1>\d{1,2})\s*(?:[-~～]|至|到)\s*"
            r"(?P<m2>\d{1,2})(?P=sep)(?P<d2>\d{1,2})(?![\d./])", h_month_day_range),
        tok("slash_date_year", r"(?<![\d\-/.·])(?P<a>\d{1,2})/(?P<b>\d{1,2})/(?P<y>\d{4})(?![\d/])", h_slash_date_year),
        tok("slash_date", r"(?<![\d\-/.·])(?:(?P<mo>\d{1,2})[/·](?P<d>\d{1,2})(?![\d/·])|(?P<mo2>\d{2})-(?P<d2>\d{2})(?![\d\-.:]))"
            r"\s*(?:号|日)?", h_slash_date),
        tok("sequence", rf"(?P<dir>上|下|前|后|最后|末(?={numeral_char}))\s*(?P<n>{numeral})?\s*(?P<measure>个)?\s*(?P<unit>{unit_alt})"
            r"(?!\s*(?:前|后|以|之|内|[一二三四五六日天1-7]))", h_sequence(units)),
        tok("ordinal", rf"(?:第\s*(?P<n>{numeral})|(?P<first>首)|(?P<last>最后|倒数第|末(?=月))\s*(?P<n2>{numeral})?)\s*个?\s*"
            rf"(?P<unit>{ordinal_units})(?:\s*(?P<weekday>{weekday_alt})|(?<=[周期拜])(?P<weekend>末))?",
            lambda m, st, ctx: h_ordinal(zh["ordinal_unit"], zh["weekday"])(
                _Groups(m, n=m.group("n") or m.group("n2"),
                        weekday=m.group("weekday") if m.group("unit") in ("周", "星期", "礼拜") else None), st, ctx)),
        tok("week", rf"(?:(?P<prefix>{_alt(zh['week_prefix'])})|(?P<dir>[上下])\s*(?P<n>{numeral})\s*个)\s*{week_word}"
            rf"(?:\s*{week_word})?(?:\s*(?P<day>{weekday_alt})|(?P<weekend>末)|(?P<workdays>的?工作日))?",
            h_week(zh["week_prefix"], zh["weekday"])),
        tok("weekday", rf"{week_word}\s*({weekday_alt})", h_weekday(zh["weekday"])),
        tok("weekend", _alt(words["weekend"]), h_weekend),
        tok("workdays", r"工作日", h_workdays),
        tok("part_of_day", _alt(pods), h_part_of_day(pods, "zh.part_of_day")),
        tok("clock", rf"(?<!第)(?P<hour>{numeral})\s*(?:点|时(?!{_alt(words['shi_compounds'])}))钟?\s*(?:过\s*(?=半|{numeral_char}))?(?:(?P<half>半)(?:钟(?!头))?|(?P<quarters>[一二三四1-4])\s*刻钟?|整|正"
            rf"|(?P<minute>{numeral})(?!{numeral_char})\s*(?:分钟?|(?!\s*秒|\s*个字))|(?P<five_minutes>{numeral})\s*个字)?"
            rf"(?:\s*(?P<second>{numeral})\s*秒钟?|(?<=分)\s*(?P<second_alone>\d{{1,2}})(?!\d))?"
            rf"(?P<more>多钟?)?" + ampm, h_clock),
        tok("clock_pair", r"(?P<a>[一两二三四五六七八九十])(?P<b>[两二三四五六七八九十])\s*[点时]钟?(?!\s*[半一二三四五六七八九十0-9])",
            h_clock_pair),
        tok("span_pair", _alt(zh["span_pair"]), h_span_pair(zh["span_pair"])),
        tok("clock_before", rf"差\s*(?:(?P<minus>{numeral})\s*分钟?|(?P<quarters>[一三1-3])\s*刻钟?)\s*(?P<hour>{numeral})\s*[点时]"
            rf"|(?P<hour2>{numeral})\s*[点时]\s*差\s*(?:(?P<minus2>{numeral})\s*分钟?|(?P<quarters2>[一三1-3])\s*刻钟?)",
            h_clock_before),
        tok("double_hour", rf"(?P<name>{_alt(zh['double_hour'])})\s*时(?:\s*(?P<quarters>[一二三四1-4])\s*刻)?",
            h_double_hour(zh["double_hour"])),
        tok("quarter_part", r"季度?(?P<part>初|末|底)", h_quarter_part),
        tok("week_part", _alt(zh["week_part"]), h_week_part(zh["week_part"])),
        tok("zone", rf"(?:utc|gmt)\s*(?P<sign>[+-])\s*(?P<h>\d{{1,2}})(?::?(?P<mi>\d{{2}}))?|(?P<name>{_alt(zh['zone'])})(?![a-z])",
            h_zone(zh["zone"])),
        tok("by", _alt(words["by"]), h_by),
        tok("open_range", rf"(?:{_alt(words['open_before'] + words['open_after'], words['open_word_compounds'])})"
            r"(?![天日晚早])" + end,
            h_open_range(frozenset(words["open_before"]))),
        tok("holiday", rf"(?<![\d.第])(?:{lunar_marker})?\s*(?P<name>{_alt(holiday_names)})"
            rf"(?P<period>{_alt(holidays.period_suffixes())})?{_NOT_AFTER_HOLIDAY}", h_holiday(holiday_names)),
        tok("lunar_date", rf"(?:(?:(?:{lunar_marker})\s*(?:(?P<year>\d{{4}}|[零〇一二三四五六七八九]{{4}})\s*年\s*)?"
            rf"(?P<leap>闰)?|(?P<leap_only>闰))(?P<month>{named_months}|{_LUNAR_MONTH})\s*月"
            rf"(?:\s*(?P<day>{_LUNAR_DAY})\s*[日号號]?)?"
            rf"|(?:{lunar_marker})\s*(?P<marked_day>{_PLAIN_LUNAR_DAY})(?!\s*月)"
            rf"|(?P<named>{named_months})月(?:\s*(?P<named_day>{_LUNAR_DAY})\s*[日号號]?)?"
            rf"|大年(?P<danian_day>{_LUNAR_FIRST_DAYS})"
            rf"|(?P<plain_month>{_LUNAR_MONTH})月(?P<plain_day>{_PLAIN_LUNAR_DAY})(?!\s*[日号號])"
            rf"|(?P<bare_day>{_LUNAR_FIRST_DAYS}|廿[一二三四五六七八九]?|卅))"
            r"(?![\d零〇一二三四五六七八九十])", h_lunar_date(lunar["named_months"])),
        tok("en.relative_day", rf"(?:{_alt(en['relative_day'])}){end}",
            h_en_relative_day(en["relative_day"], en_pods)),
        tok("en.relative_unit", rf"({en_rel_alt})\s+(week|weekend|month|year|quarter){end}",
            h_en_relative_unit(en["relative_word"])),
        tok("en.weekday", rf"(?:({en_rel_alt})\s+)?({en_weekday_alt})\.?{end}",
            h_en_weekday(en["relative_word"], en["weekday"])),
        tok("en.weekend", rf"(?:the\s+)?weekend{end}", lambda m, st, ctx: _bare_weekend(st, ctx, "en.weekend")),
        tok("en.offset_in", rf"in\s+(?P<n>{en_num})\s+(?P<unit>{en_unit_alt})s?(?P<dir>){end}",
            h_en_offset(en["number"], en_units)),
        tok("en.offset", rf"(?P<n>{en_num})\s+(?P<unit>{en_unit_alt})s?\s+(?P<dir>ago|later|from now|hence){end}",
            h_en_offset(en["number"], en_units)),
        tok("en.recent", rf"(?:the\s+)?(?:last|past|previous)\s+(?P<n>{en_num})\s+(?P<unit>{en_unit_alt})s?{end}",
            h_en_window(en["number"], en_units, False)),
        tok("en.upcoming", rf"(?:the\s+)?(?:next|coming)\s+(?P<n>{en_num})\s+(?P<unit>{en_unit_alt})s?{end}",
            h_en_window(en["number"], en_units, True)),
        tok("en.quarter", r"q(?P<q>[1-4])(?:\s*,?\s*(?P<y>\d{4}))?(?![\da-z])"
            rf"|(?P<y2>\d{{4}})\s*-?\s*q(?P<q2>[1-4]){end}"
            rf"|(?P<ord>{_alt(en['words']['quarter_ordinals'])})\s+quarter(?:\s+of)?(?:\s+(?P<y3>\d{{4}}))?{end}",
            h_en_quarter(en["words"]["quarter_ordinals"])),
        tok("en.month_day", rf"(?P<m1>{en_month_alt})\.?\s+(?P<d1>\d{{1,2}})(?:st|nd|rd|th)?(?!\d)"
            rf"(?:\s*,?\s*(?P<y1>\d{{4}}))?{end}"
            rf"|(?P<d2>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<m2>{en_month_alt})\.?"
            rf"(?:\s*,?\s*(?P<y2>\d{{4}}))?{end}"
            rf"|(?P<d3>\d{{1,2}})-(?P<m3>{en_month_alt})-(?P<y3>\d{{4}}){end}",  # 12-Feb-2021
            h_en_month_day(en["month"])),
        tok("en.month", rf"({en_month_alt})\.?(?:\s*,?\s*(\d{{4}}))?{end}", h_en_month(en["month"])),
        tok("en.clock", r"(\d{1,2})(?::(\d{2}))?\s*(am|pm|a\.m\.|p\.m\.)" + end, h_en_clock),
        tok("en.noon", r"(?:noon|midnight)" + end, h_en_noon),
        tok("en.last_night", r"last\s+night" + end, h_en_last_night(en_pods)),
        tok("en.part_of_day", rf"(this\s+)?({_alt(en_pods)}){end}", h_en_part_of_day(en_pods)),
        tok("opener", _alt(words["range_openers"]) + "|" + rf"(?:{_alt(en['words']['range_openers'])}){end}",
            _noop, "opener"),
        tok("iso_interval", r"/(?=\d{4}-\d{2})", _noop, "connector"),   # 2026-03-10/2026-03-12 (ISO 8601)
        tok("connector", _alt(words["range_connectors"] + words["after_connectors"]) + "|" + rf"(?:{_alt(en['words']['range_connectors'])}){end}",
            _noop, "connector"),
        tok("filler", _alt(words["fillers"]) + "|" + rf"(?:{_alt(w for w in en['words']['fillers'] if w.strip())}){end}"
            + r"|\s+", _noop, "filler"),
    )


@functools.lru_cache(maxsize=None)
def lookalikes():
    """(regex of what may not follow a span in free text, spans that are idioms when alone, regex
    of what may not follow a holiday name)."""
    zh = read_toml("temporal/zh.toml")["lookalike"]
    en = read_toml("temporal/en.toml")["lookalike"]
    return (re.compile(_alt(zh["after"])), frozenset(zh["lone_spans"]) | frozenset(en["lone_spans"]),
            re.compile(_alt(zh["after_holiday"])))


@functools.lru_cache(maxsize=None)
def start_chars() -> frozenset | None:
    """Every character a (non-empty) token match can start with, or None when some token can
    start with any: a free-text search need only try positions holding one of them."""
    return _token_index()[2]


_CATEGORY_CHARS = {"CATEGORY_DIGIT": set("0123456789"), "CATEGORY_SPACE": set(" \t\n\r\f\v")}


def _first_chars(items) -> tuple:
    """(characters a parsed regex can start with, or None for "any"; whether it can match empty)."""
    chars = set()
    for op, arg in items:
        name = str(op)
        if name in ("AT", "ASSERT", "ASSERT_NOT"):
            continue  # zero width: the next item decides
        if name == "LITERAL":
            return chars | {chr(arg)}, False
        if name in ("IN", "CATEGORY"):
            for kind, value in (arg if name == "IN" else [(op, arg)]):
                kind = str(kind)
                if kind == "LITERAL":
                    chars.add(chr(value))
                elif kind == "RANGE":
                    chars |= {chr(c) for c in range(value[0], value[1] + 1)}
                elif kind == "CATEGORY" and str(value) in _CATEGORY_CHARS:
                    chars |= _CATEGORY_CHARS[str(value)]
                else:
                    return None, False
            return chars, False
        if name == "BRANCH":
            nullable = False
            for branch in arg[1]:
                first, empty = _first_chars(branch)
                if first is None:
                    return None, False
                chars |= first
                nullable = nullable or empty
            if not nullable:
                return chars, False
            continue
        if name == "SUBPATTERN":
            first, empty = _first_chars(arg[-1])
        elif name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            first, empty = _first_chars(arg[2])
            empty = empty or arg[0] == 0
        else:
            return None, False
        if first is None:
            return None, False
        chars |= first
        if not empty:
            return chars, False
    return chars, True


@functools.lru_cache(maxsize=None)
def _token_index() -> tuple:
    """{first character: tokens that can start with it}, the tokens that can start with any, and
    every character some token can start with (None when one can start with any)."""
    try:
        from re import _parser as parser
    except ImportError:  # Python < 3.11
        import sre_parse as parser
    index, anywhere, starts = {}, [], set()
    for order, token in enumerate(tokens()):
        first, empty = _first_chars(parser.parse(token.regex.pattern))
        starts = None if first is None or starts is None else starts | first
        if first is None or empty:
            anywhere.append((order, token))
        else:
            for char in first:
                index.setdefault(char, []).append((order, token))
    merged = {char: sorted(entries + anywhere, key=lambda item: item[0]) for char, entries in index.items()}
    return merged, sorted(anywhere, key=lambda item: item[0]), None if starts is None else frozenset(starts)


def token_starts_at(text: str, pos: int) -> bool:
    """Whether some token matches at `pos` (not empty): what `_candidates` finds, without
    finding them all, sorting and remembering them, for a search that asks only whether a
    reading may start somewhere (most texts it is asked about hold no time)."""
    index, anywhere, _starts = _token_index()
    for _order, token in index.get(text[pos], anywhere):
        match = token.regex.match(text, pos)
        if match and match.end() > pos:
            return True
    return False


@functools.lru_cache(maxsize=131_072)
def _candidates(text: str, pos: int) -> tuple:
    """(token, match) of every token matching at `pos`, longest first (table order breaks ties):
    the scanner takes the first one whose handler accepts the state, so a token that does not
    compose here (2025年前 is not 2025 years ago) leaves the place to the next reading. Only the
    tokens that can start with the character at `pos` are tried; memoized, since reading a text
    against another reference time tokenizes it the same way. Built on `_leading_candidates`,
    which the scanner asks first, so that a place is matched once whichever asks first."""
    leading = _leading_candidates(text, pos)
    if len(leading) == 1 and leading[0][1].end() == len(text):   # perhaps only the first: match them all
        return _all_candidates(text, pos)
    return leading


def _all_candidates(text: str, pos: int) -> tuple:
    return _matched(text, pos, stop_at_end=False)


@functools.lru_cache(maxsize=131_072)
def _leading_candidates(text: str, pos: int) -> tuple:
    """`_candidates(text, pos)`, or only its first when a token matches to the end of the text:
    no match is longer, and tokens are tried in table order, which breaks ties, so the first to
    reach the end is the one the scanner takes first. The others are matched only when its
    handler declines (the scanner then asks `_candidates`): a date written whole, such as
    2026-03-10T10:00, is read with one pattern instead of every pattern that starts with a digit."""
    return _matched(text, pos, stop_at_end=True)


def _matched(text: str, pos: int, stop_at_end: bool) -> tuple:
    """(token, match) of each token matching at `pos`, longest first, table order breaking ties;
    with `stop_at_end`, the first match to reach the end of the text alone."""
    index, anywhere, _starts = _token_index()
    found = []
    for order, token in index.get(text[pos], anywhere):
        match = token.regex.match(text, pos)
        if match and match.end() > pos:
            if stop_at_end and match.end() == len(text):
                return ((token, match),)
            found.append((-match.end(), order, token, match))
    if len(found) > 1:
        found.sort(key=lambda item: item[:2])
    return tuple((token, match) for _end, _order, token, match in found)


def _finish(st: State, ctx: Context) -> State | None:
    """The reading so far as a value: the 'upcoming' policies applied, then a clock read in a
    named time zone moved into the row's zone."""
    st = _upcoming(st, ctx)
    if st is None or st.zone is None:
        return st
    zone, span = st.zone, st.span

    def moved(moment):
        return moment.replace(tzinfo=zone).astimezone(ctx.tzinfo).replace(tzinfo=None)
    return dataclasses.replace(st, span=Span(moved(span.start), moved(span.end), span.granularity), zone=None)


def _upcoming(st: State, ctx: Context) -> State | None:
    """Apply the 'upcoming' policies to a component taken from the anchor."""
    span = st.span
    if span is None:
        return None
    if not ((st.implicit == "year" and ctx.policy.bare_month_day == "upcoming")
            or (st.implicit == "month" and ctx.policy.bare_day_of_month == "upcoming")):
        return st
    today = midnight(ctx.anchor.date())
    if span.end > today:
        return st
    if st.implicit == "year" and ctx.policy.bare_month_day == "upcoming":
        try:
            span = Span(span.start.replace(year=span.start.year + 1),
                        span.end.replace(year=span.end.year + 1), span.granularity)
        except ValueError:
            return None
    elif st.implicit == "month" and ctx.policy.bare_day_of_month == "upcoming":
        moved = valid_date(*shift_month(span.start.year, span.start.month, 1), span.start.day)
        if moved is None:
            return None
        span = Span(midnight(moved) + (span.start - midnight(span.start.date())),
                    midnight(moved) + (span.end - midnight(span.start.date())), span.granularity)
    return State(span, st.pod, st.relative, st.implicit, st.rules, st.zone)


def _join(left: State, right: State, ctx: Context) -> State | None:
    """从X到Y: from the start of X to the end of Y (Y included when it is a day or coarser and the
    policy says so; a clock time Y is the end instant)."""
    if right.span.end <= left.span.start and right.implicit == "year":
        try:  # 12月30日到1月2日: the right side's year rolls over
            right = dataclasses.replace(right, span=Span(
                right.span.start.replace(year=right.span.start.year + 1),
                right.span.end.replace(year=right.span.end.year + 1), right.span.granularity))
        except ValueError:
            return None
    fine = GRANULARITY_INDEX[right.span.granularity] <= GRANULARITY_INDEX["hour"]
    if fine and (right.pod or {}).get("meridiem") == "pm" and left.pod is None \
            and left.span.start + 12 * _HOUR <= right.span.start and left.span.start.hour < 12:
        # 3点-5点pm: the pm written on the right holds for the left side too
        left = dataclasses.replace(left, span=Span(left.span.start + 12 * _HOUR, left.span.end + 12 * _HOUR,
                                                   left.span.granularity))
    if fine and right.implicit == "day" and right.span.start <= left.span.start and left.pod is None \
            and right.pod is None and right.rules[-1:] == ("zh.clock",) and right.span.start.hour < 12 \
            and right.span.start + 12 * _HOUR > left.span.start:
        # 9点到5点, 11点到1点: a bare hour said on a twelve-hour clock, the afternoon after the left side
        right = dataclasses.replace(right, span=Span(right.span.start + 12 * _HOUR, right.span.end + 12 * _HOUR,
                                                     right.span.granularity))
    if fine and right.implicit == "day" and right.span.start <= left.span.start:
        # 晚上10点到凌晨2点: a clock time earlier than the left side is on the next day
        right = dataclasses.replace(right, span=Span(right.span.start + DAY, right.span.end + DAY,
                                                     right.span.granularity))
    if fine:
        inclusive = ctx.policy.clock_range_end == "inclusive" and right.span.granularity in ("minute", "second")
        end = right.span.end if inclusive and "now" not in right.rules \
            else right.span.start
    else:
        end = right.span.end if ctx.policy.range_includes_end else right.span.start
    if end <= left.span.start:
        return None
    granularity = min(left.span.granularity, right.span.granularity, key=GRANULARITY_INDEX.get)
    return State(Span(left.span.start, end, granularity), None, left.relative or right.relative,
                 None, left.rules + ("range",) + right.rules)


def scan(text: str, pos: int, ctx: Context, whole: bool):
    """Read tokens from `pos`. Returns (end position, State) of the longest complete reading,
    or None. With whole=True the reading must cover the text to its end (fillers aside)."""
    state, left, side_ctx = State(), None, ctx
    best = None
    started = False
    open_after_end = None  # where X以后 / X之后 ends, read as an open range when nothing follows it
    between = False  # X和Y is a range only as X和Y之间 (3月5日和3月8日 names two days)
    while pos < len(text):
        candidates = _leading_candidates(text, pos)
        if not candidates:
            break
        token, match = candidates[0]
        if token.kind == "filler":
            pos = match.end()
            continue
        if token.kind == "opener":
            if started:
                break
            started = True
            pos = match.end()
            continue
        if len(candidates) == 1 and match.end() == len(text):   # perhaps only the first was matched
            candidates = _then_the_others(text, pos, candidates)
        new_state, token, match = _first_reading(candidates, state, left, side_ctx)
        if new_state is None and token.kind == "connector" and state.span is not None and left is None:
            left = _finish(state, side_ctx)
            if left is None:
                break
            if match.group(0) in _after_words():
                if GRANULARITY_INDEX[left.span.granularity] > GRANULARITY_INDEX["hour"]:
                    # 明天以后、5号以前: after a day (or coarser) starts when it ends
                    left = dataclasses.replace(left, span=Span(left.span.end, left.span.end, left.span.granularity))
                open_after_end = match.end()
                opened = None if whole else _open_after(left, ctx)
                best = (open_after_end, opened) if opened is not None else best
            side_ctx = dataclasses.replace(ctx, anchor=left.span.start, anchor_pod=left.pod, left=left)
            between = match.group(0) in _BETWEEN_CONNECTORS
            state = State()
            pos = match.end()
            continue
        if new_state is None:  # a longer candidate read nothing here (" 周" is no offset): a filler may
            filler = next((found for token, found in _candidates(text, pos) if token.kind == "filler"), None)
            if filler is None:
                break
            pos = filler.end()
            continue
        state, pos, started = new_state, match.end(), True
        last_end = pos
        if not whole and not (between and not text[pos:].lstrip().startswith("之间")):
            # in free text every prefix is a candidate; a whole value is read once, at its end
            result = _result(state, left, side_ctx)
            best = (pos, result) if result is not None else best
    if whole and state.span is None and open_after_end is not None and pos >= len(text) \
            and _last_token_end(text, open_after_end) == open_after_end:
        result = _open_after(left, ctx)
        return None if result is None else (open_after_end, result)
    if whole:
        if pos < len(text) or not started or state.span is None or _last_token_end(text, last_end) != last_end \
                or (between and not text[last_end:].lstrip().startswith("之间")):
            return None
        result = _result(state, left, side_ctx)
        return None if result is None else (last_end, result)
    return best


def _then_the_others(text: str, pos: int, leading: tuple):
    """The candidate that reaches the end, then the others at `pos`, matched only if the scanner
    gets past the first."""
    yield from leading
    yield from _candidates(text, pos)[1:]


def _first_reading(candidates, state, left, ctx):
    """(the state of the first candidate whose handler accepts, or None; the candidate the
    scanner stopped at: that one, a connector that ends the side, or the last)."""
    for token, match in candidates:
        if token.kind == "connector" and state.span is not None and left is None:
            return None, token, match
        if token.kind == "token":
            try:
                new_state = token.apply(match, state, ctx)
            except (OutOfCalendar, OverflowError):   # date arithmetic past year 1 or 9999 (去年至周末 in year 2)
                new_state = None
            if new_state is not None:
                return new_state, token, match
    return None, token, match


@functools.lru_cache(maxsize=None)
def _after_words() -> frozenset:
    return frozenset(read_toml("temporal/zh.toml")["words"]["after_connectors"])


_BETWEEN_CONNECTORS = frozenset(("和", "与"))


def _result(state: State, left: State | None, ctx: Context) -> State | None:
    """The reading so far as a value (`_finish`), joined to the left side of a range; None where
    that leaves the calendar (9999-12-31t23:30-00:00: a range that ends on the next day, as a
    handler's arithmetic past year 9999 gives no reading in `_first_reading`)."""
    try:
        return _completed(state, left, ctx)
    except (OutOfCalendar, OverflowError):
        return None


def _completed(state: State, left: State | None, ctx: Context) -> State | None:
    side = _finish(state, ctx)
    if side is None:
        return None
    if left is not None and left.rules[:1] == ("zh.by",):
        return None  # 截至X到Y: no reading
    if side.rules[:1] == ("zh.by",):  # 截至X: by X
        return None if left is not None or "open_range" in side.rules else _open_before(side, ctx, "open_range")
    return side if left is None else _join(left, side, ctx)


def _open_after(left: State, ctx: Context) -> State | None:
    """From `left` to now, under policy open_range = reference: X起 / X以来 (from X's start), and
    X以后 / X之后 with nothing after them (`left` then starts when a day or coarser X ends);
    None when that is still ahead."""
    if ctx.policy.open_range == "none" or left.span.start >= ctx.ref:
        return None
    return State(Span(left.span.start, ctx.ref, "second"), None, True, None, left.rules + ("open_range",))


def _last_token_end(text: str, end: int) -> int:
    """`end` when only fillers follow it, else -1 (a dangling connector such as 明天到)."""
    pos = end
    while pos < len(text):
        filler = next((match for token, match in _candidates(text, pos) if token.kind == "filler"), None)
        if filler is None:  # 截止 is a filler after a value (下周五截止) as well as a word before one
            return -1
        pos = filler.end()
    return end
