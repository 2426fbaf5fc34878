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

from scorer.rules import read_toml
from scorer.temporal import calendars, holidays
from scorer.temporal.dates import (
    DAY, add_months, add_years, days_in_month, midnight, month_span, shift_month,
    valid_date, week_first_day,
)
from scorer.temporal.numerals import numeral_class, zh_int
from scorer.temporal.policy import WEEKDAYS, TemporalPolicy
from scorer.vocab import GRANULARITIES

GRANULARITY_INDEX = {name: index for index, name in enumerate(GRANULARITIES)}
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


@dataclasses.dataclass(frozen=True)
class Context:
    ref: dt.datetime              # reference time, naive local, truncated to the minute
    anchor: dt.datetime           # ref, or the start of a range's left side
    anchor_pod: dict | None
    policy: TemporalPolicy
    tzinfo: dt.tzinfo


@dataclasses.dataclass(frozen=True)
class Token:
    name: str
    regex: re.Pattern
    apply: object                 # (match, State, Context) -> State | None
    kind: str = "token"           # token | filler | connector | opener


def _alt(words) -> str:
    """A regex alternation of literal words, longest first so the longest wins."""
    return "|".join(re.escape(word) for word in sorted(words, key=lambda w: (-len(w), w)))


def _step(st: State, ctx: Context, span: Span, rule: str, relative=False, pod=None, implicit=None):
    return State(span, pod, st.relative or relative, implicit or st.implicit, st.rules + (rule,))


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
    if 1900 <= year <= 2100:
        return Span(dt.datetime(year, 1, 1), dt.datetime(year + 1, 1, 1), "year")
    return None


def h_year(m, st, ctx):
    year = zh_int(m.group(1))
    span = _year_span(year) if st.span is None and year is not None else None
    return span and _step(st, ctx, span, "zh.year")


def h_year_relative(vocab):
    def apply(m, st, ctx):
        span = _year_span(ctx.ref.year + vocab[m.group(0)]) if st.span is None else None
        return span and _step(st, ctx, span, "zh.relative_year", relative=True)
    return apply


def h_year_part(vocab):
    def apply(m, st, ctx):
        year, implicit = _year_of(st, ctx)
        if year is None:
            return None
        first, last = vocab[m.group(0)]
        span = Span(dt.datetime(year, first, 1), month_span(year, last)[1], "month")
        return _step(st, ctx, span, "zh.year_part", relative=implicit)
    return apply


def _quarter(st, ctx, quarter, rule, year=None):
    implicit = False
    if year is None:
        year, implicit = _year_of(st, ctx)
    elif st.span is not None:
        return None
    if year is None or not 1 <= quarter <= 4:
        return None
    span = Span(dt.datetime(year, 3 * quarter - 2, 1), month_span(year, 3 * quarter)[1], "quarter")
    return _step(st, ctx, span, rule, relative=implicit)


def h_quarter(m, st, ctx):
    return _quarter(st, ctx, zh_int(m.group(1) or m.group(2)) or 0, "zh.quarter")


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
        return None
    year, month = shift_month(ctx.ref.year, ctx.ref.month, offset)
    return _step(st, ctx, Span(*month_span(year, month), "month"), rule, relative=True)


def h_month_relative(vocab):
    return lambda m, st, ctx: _relative_month(st, ctx, vocab[m.group(0)], "zh.relative_month")


def _month(st, ctx, month, rule, year=None):
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


def _month_days(word, table, end_words, ctx, year, month):
    """First and last day of a month part; a month-end word is the last day alone under
    policy month_end = "last_day"."""
    first, last = table[word]
    last = last or days_in_month(year, month)
    if word in end_words and ctx.policy.month_end == "last_day":
        first = last
    return first, last


def h_month_part(vocab, end_words):
    def apply(m, st, ctx):
        year, month, implicit = _month_of(st, ctx)
        if year is None:
            return None
        first, last = _month_days(m.group(0), vocab, end_words, ctx, year, month)
        span = Span(dt.datetime(year, month, first), dt.datetime(year, month, last) + DAY, "day")
        return _step(st, ctx, span, "zh.month_part", relative=implicit)
    return apply


def h_part_suffix(month_parts, year_parts, end_words):
    """底/初/末 after an explicit month or year: 本月底, 3月初, 明年底."""
    def apply(m, st, ctx):
        if _single(st, "month"):
            year, month = st.span.start.year, st.span.start.month
            first, last = _month_days(m.group(0), month_parts, end_words, ctx, year, month)
            span = Span(dt.datetime(year, month, first), dt.datetime(year, month, last) + DAY, "day")
        elif _single(st, "year"):
            first, last = year_parts[m.group(0)]
            year = st.span.start.year
            span = Span(dt.datetime(year, first, 1), month_span(year, last)[1], "month")
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


def h_day(m, st, ctx):
    return _day_of_month(st, ctx, zh_int(m.group(1)), "zh.day")


def h_day_range(m, st, ctx):
    return _day_of_month(st, ctx, zh_int(m.group(1)), "zh.day_range", zh_int(m.group(2)))


def _relative_day(st, ctx, offset, rule):
    if st.span is not None:
        return None
    return _step(st, ctx, _day_span(ctx.ref.date() + offset * DAY), rule, relative=True)


def h_day_relative(vocab, rule):
    return lambda m, st, ctx: _relative_day(st, ctx, vocab[m.group(0)], rule)


def _part_of_day(st, ctx, entry, rule, day=None):
    implicit = False
    if day is None:
        day, pod, implicit = _day_of(st, ctx)
        if day is None or (st.span is not None and st.span.granularity != "day"):
            return None
    start_hour, end_hour = entry["hours"]
    start = midnight(day)
    span = Span(start + start_hour * _HOUR, start + end_hour * _HOUR, "part_of_day")
    return _step(st, ctx, span, rule, relative=implicit, pod=entry)


def h_part_of_day(vocab, rule):
    return lambda m, st, ctx: _part_of_day(st, ctx, vocab[m.group(1) if m.groups() else m.group(0)], rule)


def h_day_with_part(vocab, pods):
    def apply(m, st, ctx):
        if st.span is not None:
            return None
        offset, pod_name = vocab[m.group(0)]
        state = _part_of_day(st, ctx, pods[pod_name], "zh.day_with_part", day=ctx.ref.date() + offset * DAY)
        return dataclasses.replace(state, relative=True)
    return apply


def _clock(st, ctx, hour, minute, rule, use_pod=True):
    day, pod, implicit = _day_of(st, ctx)
    if day is None or hour is None or minute is None:
        return None
    if pod is not None and use_pod:
        low, high = pod.get("pm", (13, 12))
        if low <= hour <= high:
            hour += 12
        elif hour == 12 and pod.get("twelve_is_zero"):
            hour = 0
    if not (0 <= hour <= 24 and 0 <= minute <= 59) or (hour == 24 and minute):
        return None
    start = midnight(day) + hour * _HOUR + minute * _MINUTE
    return _step(st, ctx, Span(start, start + _MINUTE, "minute"), rule, relative=implicit, pod=pod)


def h_clock(m, st, ctx):
    hour = zh_int(m.group("hour"))
    if m.group("half"):
        minute = 30
    elif m.group("quarter"):
        minute = 15
    elif m.group("three_quarters"):
        minute = 45
    elif m.group("minute"):
        minute = zh_int(m.group("minute"))
    else:
        minute = 0
    return _clock(st, ctx, hour, minute, "zh.clock")


def h_clock_colon(m, st, ctx):
    return _clock(st, ctx, int(m.group(1)), int(m.group(2)), "clock")


def _week_day(ctx, week_offset, weekday):
    """The date of `weekday` (0 = Monday) in the calendar week `week_offset` from the reference."""
    start = WEEKDAYS.index(ctx.policy.week_start)
    first = week_first_day(ctx.ref.date(), start) + 7 * week_offset * DAY
    return first + ((weekday - start) % 7) * DAY


def _weekend_in_week(ctx, week_offset):
    first = _week_day(ctx, week_offset, WEEKDAYS.index(ctx.policy.weekend_first_day))
    return Span(midnight(first), midnight(first) + ctx.policy.weekend_length * DAY, "day")


def _workdays_in_week(ctx, week_offset):
    days = sorted(_week_day(ctx, week_offset, WEEKDAYS.index(name)) for name in ctx.policy.workdays)
    return Span(midnight(days[0]), midnight(days[-1]) + DAY, "day")


def _upcoming_weekday(anchor: dt.date, weekday: int, include_today: bool) -> dt.date:
    delta = (weekday - anchor.weekday()) % 7
    if delta == 0 and not include_today:
        delta = 7
    return anchor + delta * DAY


def _bare_weekday(st, ctx, weekday, rule):
    if st.span is not None:
        return None
    anchor = ctx.anchor.date()
    if ctx.policy.bare_weekday == "this_week":
        start = WEEKDAYS.index(ctx.policy.week_start)
        day = week_first_day(anchor, start) + ((weekday - start) % 7) * DAY
    else:
        day = _upcoming_weekday(anchor, weekday, ctx.policy.bare_weekday == "upcoming_including_today")
    return _step(st, ctx, _day_span(day), rule, relative=True)


def _week(st, ctx, offset, rule, weekday=None, part=None):
    """A calendar week `offset` weeks away, or one of its days, its weekend or its workdays."""
    if st.span is not None:
        return None
    if weekday is not None:
        if offset == 1 and ctx.policy.next_weekday == "upcoming_excluding_today":
            day = _upcoming_weekday(ctx.ref.date(), weekday, include_today=False)
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
        return _week(st, ctx, prefixes[m.group("prefix")], "zh.week",
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
    return _step(st, ctx, Span(midnight(first), midnight(first) + length * DAY, "day"), rule, relative=True)


def h_weekend(m, st, ctx):
    return _bare_weekend(st, ctx, "zh.weekend")


def h_workdays(m, st, ctx):
    return _week(st, ctx, 0, "zh.workdays", part="workdays")


def _shift(ctx, unit, amount):
    """The point `amount` units (may be negative, halves allowed for hours) from the reference."""
    ref = ctx.ref
    if unit == "minute":
        start = ref + amount * _MINUTE
        return Span(start, start + _MINUTE, "minute")
    if unit == "hour" and amount == int(amount):
        start = (ref + amount * _HOUR).replace(minute=0)
        return Span(start, start + _HOUR, "hour")
    if unit == "hour":
        start = ref + amount * _HOUR
        return Span(start, start + _MINUTE, "minute")
    if amount != int(amount):
        return None
    amount = int(amount)
    if unit == "day":
        return _day_span(ref.date() + amount * DAY)
    if unit == "month":
        return _day_span(add_months(ref.date(), amount))
    return _day_span(add_years(ref.date(), amount))


def _window(ctx, unit, amount, forward):
    """最近N天 / 未来N天: N units ending with (or before) today, or starting today (or tomorrow)."""
    ref = ctx.ref
    if amount <= 0 or amount != int(amount):
        return None
    amount = int(amount)
    if unit in ("minute", "hour"):
        size = amount * (_MINUTE if unit == "minute" else _HOUR)
        return Span(ref, ref + size, unit) if forward else Span(ref - size, ref, unit)
    today = midnight(ref.date())
    if forward:
        first = today if ctx.policy.upcoming_includes_today else today + DAY
        step = {"day": lambda d: d + amount * DAY, "month": lambda d: add_months(d, amount),
                "year": lambda d: add_years(d, amount)}[unit]
        return Span(first, midnight(step(first.date())), "day")
    end = today + DAY if ctx.policy.recent_includes_today else today
    step = {"day": lambda d: d - amount * DAY, "month": lambda d: add_months(d, -amount),
            "year": lambda d: add_years(d, -amount)}[unit]
    return Span(midnight(step(end.date())), end, "day")


def _amount(number_text, half):
    number = zh_int(number_text) if number_text else (0 if half else None)
    if number is None:
        return None
    return number + (0.5 if half else 0)


def _measured(m, st, units, needs_measure):
    """(unit, amount in that unit) of an `N 个 unit` match that starts a value, else None."""
    unit_word = m.group("unit")
    if st.span is not None or (unit_word in needs_measure and not m.group("measure")):
        return None
    amount = _amount(m.group("n"), m.group("half"))
    unit, size = units[unit_word]
    return None if amount is None else (unit, amount * size)


def h_offset(units, after_words, needs_measure):
    def apply(m, st, ctx):
        measured = _measured(m, st, units, needs_measure)
        if measured is None:
            return None
        unit, amount = measured
        sign = 1 if m.group("dir") in after_words else -1
        span = _shift(ctx, unit, sign * amount)
        return span and _step(st, ctx, span, "zh.offset", relative=True)
    return apply


def h_window(units, needs_measure, forward, rule):
    def apply(m, st, ctx):
        measured = _measured(m, st, units, needs_measure)
        span = measured and measured[1] and _window(ctx, measured[0], measured[1], forward)
        return span and _step(st, ctx, span, rule, relative=True)
    return apply


def _holiday(st, ctx, canonical, period, rule):
    """A holiday (or its statutory break) in the year read so far, else the next one not yet
    over (policy holiday_year) counting from the anchor's year."""
    days = holidays.holiday_period_days(canonical)
    period = period or (days is not None and ctx.policy.holiday_break == "statutory_break")
    year, implicit = _year_of(st, ctx)
    if year is None or (period and days is None):
        return None

    def span(date):
        length = days if period else holidays.holiday_days(canonical, date, ctx.policy)
        return Span(midnight(date), midnight(date) + length * DAY, "day")

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
    if text[0] in "廿卅":
        return (20 if text[0] == "廿" else 30) + (zh_int(text[1:]) if len(text) > 1 else 0)
    return zh_int(text)


def _bare_lunar_day(st, ctx, day):
    """初五 / 廿三 alone on the right of a range (正月初一到初五, 腊月廿八到初六): that day of the lunar
    month the left side starts in, or of the next one when it would come before the left side.
    Alone it is not read: 初三 is as likely a school year."""
    if st.span is not None or ctx.anchor == ctx.ref:
        return None
    month = calendars.lunar_month_of(ctx.anchor.date())
    date = month and calendars.lunar_to_solar(*month[:2], day, month[2])
    if date is not None and date < ctx.anchor.date():
        month_end = calendars.lunar_month_span(*month[:2], month[2])[1]
        month = calendars.lunar_month_of(month_end)
        date = month and calendars.lunar_to_solar(*month[:2], day, month[2])
    return date and _step(st, ctx, _day_span(date), "zh.lunar_day")


def h_lunar_date(months):
    """农历2019年三月初三, 腊月廿三, 闰四月, 大年初十, a Chinese-numeral month and day without 日/号
    (五月初五) read per policy unmarked_month_day, and a lone lunar day ending a range. The year is
    the lunar year."""
    def apply(m, st, ctx):
        if m.group("bare_day"):
            return _bare_lunar_day(st, ctx, _lunar_day(m.group("bare_day")))
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
    return _step(st, ctx, Span(ctx.ref, ctx.ref + _MINUTE, "minute"), "now", relative=True)


def h_iso(m, st, ctx):
    if st.span is not None:
        return None
    year, month, day = int(m.group("y")), int(m.group("mo")), int(m.group("d"))
    date = valid_date(year, month, day)
    if date is None or not 1900 <= year <= 2100:
        return None
    if m.group("h") is None:
        return _step(st, ctx, _day_span(date), "iso.date")
    hour, minute = int(m.group("h")), int(m.group("mi"))
    second = int(m.group("s") or 0)
    if hour > 23 or minute > 59 or second > 59:
        return None
    start = dt.datetime(year, month, day, hour, minute)
    offset = m.group("tz")
    if offset:
        if offset.lower() == "z":
            tz = dt.timezone.utc
        else:
            sign = 1 if offset[0] == "+" else -1
            digits = offset[1:].replace(":", "")
            tz = dt.timezone(sign * dt.timedelta(hours=int(digits[:2]), minutes=int(digits[2:])))
        start = start.replace(tzinfo=tz).astimezone(ctx.tzinfo).replace(tzinfo=None)
    return _step(st, ctx, Span(start, start + _MINUTE, "minute"), "iso.datetime")


def h_iso_month(m, st, ctx):
    year, month = int(m.group(1)), int(m.group(2))
    if st.span is not None or not (1 <= month <= 12 and 1900 <= year <= 2100):
        return None
    return _step(st, ctx, Span(*month_span(year, month), "month"), "iso.month")


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
        span = _shift(ctx, unit, sign * amount * size)
        return span and _step(st, ctx, span, "en.offset", relative=True)
    return apply


def h_en_window(numbers, units, forward):
    def apply(m, st, ctx):
        if st.span is not None:
            return None
        amount = _en_number(numbers, m.group("n"))
        unit, size = units[m.group("unit")]
        span = amount and _window(ctx, unit, amount * size, forward)
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
        month = months[m.group("m1") or m.group("m2")]
        day = int(m.group("d1") or m.group("d2"))
        year = m.group("y1") or m.group("y2")
        state = _month(st, ctx, month, "en.month", int(year) if year else None)
        return state and _day_of_month(dataclasses.replace(state, rules=st.rules), ctx, day, "en.date")
    return apply


def h_en_month(months):
    def apply(m, st, ctx):
        year = m.group(2)
        return _month(st, ctx, months[m.group(1)], "en.month", int(year) if year else None)
    return apply


def h_en_clock(m, st, ctx):
    hour = int(m.group(1))
    minute = int(m.group(2) or 0)
    meridiem = m.group(3).replace(".", "")
    if not 1 <= hour <= 12:
        return None
    hour = hour % 12 + (12 if meridiem == "pm" else 0)
    return _clock(st, ctx, hour, minute, "en.clock", use_pod=False)


def h_en_noon(m, st, ctx):
    return _clock(st, ctx, 12, 0, "en.clock", use_pod=False)


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


@functools.lru_cache(maxsize=None)
def tokens() -> tuple:
    """Every token, compiled once. Order breaks ties between equally long matches."""
    numeral = numeral_class() + "+"
    zh = read_toml("temporal/zh.toml")
    en = read_toml("temporal/en.toml")
    words = zh["words"]
    units = zh["unit"]
    unit_alt = _alt(units)
    after, before = words["after"], words["before"]
    needs_measure = frozenset(words["needs_measure_word"])
    week_word = "(?:周|星期|礼拜|週|禮拜)"
    weekday_alt = _alt(zh["weekday"])
    pods = zh["part_of_day"]
    holiday_names = holidays.holiday_names()
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

    amount = rf"(?P<n>{numeral})?(?P<measure>个)?(?P<half>半)?(?:个)?"
    return (
        tok("iso", r"(?P<y>\d{4})[-/.](?P<mo>\d{1,2})[-/.](?P<d>\d{1,2})(?!\d)"
            r"(?:(?:t|\s+)(?P<h>\d{1,2}):(?P<mi>\d{2})(?::(?P<s>\d{2})(?:\.\d+)?)?"
            r"\s*(?P<tz>z|[+-]\d{2}:?\d{2})?)?(?!\d)", h_iso),
        tok("iso_month", r"(\d{4})[-/.](\d{1,2})(?![\d/.\-])", h_iso_month),
        tok("clock_colon", r"(\d{1,2}):(\d{2})(?::\d{2})?(?!\d)", h_clock_colon),
        tok("now", _alt(words["now"] + en["words"]["now"]) + end, h_now),
        tok("year", r"(\d{4}|[零〇一二三四五六七八九]{4})\s*年度?(?!代|级|龄)", h_year),
        tok("relative_year", _alt(zh["relative_year"]), h_year_relative(zh["relative_year"])),
        tok("year_part", _alt(zh["year_part"]), h_year_part(zh["year_part"])),
        tok("quarter", r"(?:第\s*)?([1-4一二三四])\s*季度|q\s*([1-4])(?![\d])", h_quarter),
        tok("relative_quarter", _alt(zh["relative_quarter"]), h_quarter_relative(zh["relative_quarter"])),
        tok("relative_month", _alt(zh["relative_month"]), h_month_relative(zh["relative_month"])),
        tok("month", rf"({numeral})\s*月份?", h_month),
        tok("month_part", _alt(zh["month_part"]), h_month_part(zh["month_part"], set(zh["month_end_words"]))),
        tok("part_suffix", _alt(zh["part_suffix"]["month"]),
            h_part_suffix(zh["part_suffix"]["month"], zh["part_suffix"]["year"], set(zh["month_end_words"]))),
        tok("day", rf"({numeral})\s*(?:日|号|號)", h_day),
        tok("day_range", rf"({numeral})\s*(?:[-~～到至]|——)\s*({numeral})\s*(?:日|号|號)", h_day_range),
        tok("relative_day", _alt(zh["relative_day"]), h_day_relative(zh["relative_day"], "zh.relative_day")),
        tok("day_with_part", _alt(zh["day_with_part"]), h_day_with_part(zh["day_with_part"], pods)),
        tok("offset", rf"{amount}(?P<unit>{unit_alt})(?P<dir>{_alt(after + before)})",
            h_offset(units, frozenset(after), needs_measure)),
        tok("recent", rf"(?:{_alt(words['recent'])})\s*{amount}(?P<unit>{unit_alt})",
            h_window(units, needs_measure, False, "zh.recent")),
        tok("upcoming", rf"(?:{_alt(words['upcoming'])})\s*{amount}(?P<unit>{unit_alt})",
            h_window(units, needs_measure, True, "zh.upcoming")),
        tok("within", rf"{amount}(?P<unit>{unit_alt})(?:{_alt(words['within'])})",
            h_window(units, needs_measure, True, "zh.upcoming")),
        tok("week", rf"(?P<prefix>{_alt(zh['week_prefix'])}){week_word}"
            rf"(?:(?P<day>{weekday_alt})|(?P<weekend>末)|(?P<workdays>的?工作日))?",
            h_week(zh["week_prefix"], zh["weekday"])),
        tok("weekday", rf"{week_word}({weekday_alt})", h_weekday(zh["weekday"])),
        tok("weekend", r"周末|週末", h_weekend),
        tok("workdays", r"工作日", h_workdays),
        tok("part_of_day", _alt(pods), h_part_of_day(pods, "zh.part_of_day")),
        tok("clock", rf"(?P<hour>{numeral})\s*(?:点|點|时|時)(?:钟|鐘)?(?:(?P<half>半)|(?P<quarter>一刻)"
            rf"|(?P<three_quarters>三刻)|整|(?P<minute>{numeral})\s*分?)?", h_clock),
        tok("holiday", rf"(?<![\d.])(?:{lunar_marker})?\s*(?P<name>{_alt(holiday_names)})"
            rf"(?P<period>{_alt(holidays.period_suffixes())})?{_NOT_AFTER_HOLIDAY}", h_holiday(holiday_names)),
        tok("lunar_date", rf"(?:(?:(?:{lunar_marker})\s*(?:(?P<year>\d{{4}}|[零〇一二三四五六七八九]{{4}})\s*年\s*)?"
            rf"(?P<leap>闰)?|(?P<leap_only>闰))(?P<month>{named_months}|{_LUNAR_MONTH})\s*月"
            rf"(?:\s*(?P<day>{_LUNAR_DAY})\s*[日号號]?)?"
            rf"|(?P<named>{named_months})月(?:\s*(?P<named_day>{_LUNAR_DAY})\s*[日号號]?)?"
            rf"|大年(?P<danian_day>{_LUNAR_FIRST_DAYS})"
            rf"|(?P<plain_month>{_PLAIN_MONTH})月(?P<plain_day>{_PLAIN_LUNAR_DAY})(?!\s*[日号號])"
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
            rf"(?:\s*,?\s*(?P<y2>\d{{4}}))?{end}", h_en_month_day(en["month"])),
        tok("en.month", rf"({en_month_alt})\.?(?:\s*,?\s*(\d{{4}}))?{end}", h_en_month(en["month"])),
        tok("en.clock", r"(\d{1,2})(?::(\d{2}))?\s*(am|pm|a\.m\.|p\.m\.)" + end, h_en_clock),
        tok("en.noon", r"noon" + end, h_en_noon),
        tok("en.last_night", r"last\s+night" + end, h_en_last_night(en_pods)),
        tok("en.part_of_day", rf"(this\s+)?({_alt(en_pods)}){end}", h_en_part_of_day(en_pods)),
        tok("opener", _alt(words["range_openers"]) + "|" + rf"(?:{_alt(en['words']['range_openers'])}){end}",
            _noop, "opener"),
        tok("connector", _alt(words["range_connectors"]) + "|" + rf"(?:{_alt(en['words']['range_connectors'])}){end}",
            _noop, "connector"),
        tok("filler", _alt(words["fillers"]) + "|" + rf"(?:{_alt(w for w in en['words']['fillers'] if w.strip())}){end}"
            + r"|\s+", _noop, "filler"),
    )


@functools.lru_cache(maxsize=None)
def lookalikes():
    """(regex of what may not follow a span in free text, spans that are idioms when alone)."""
    zh = read_toml("temporal/zh.toml")["lookalike"]
    en = read_toml("temporal/en.toml")["lookalike"]
    return re.compile(_alt(zh["after"])), frozenset(zh["lone_spans"]) | frozenset(en["lone_spans"])


@functools.lru_cache(maxsize=None)
def token_starts() -> re.Pattern:
    """One regex matching wherever any token matches (their groups made anonymous), so that a
    search through a free text can jump over positions where no reading can start."""
    anonymous = (_GROUP_NAME.sub("(?:", token.regex.pattern) for token in tokens())
    return re.compile("|".join(f"(?:{pattern})" for pattern in anonymous))


_GROUP_NAME = re.compile(r"\(\?P<\w+>")


def _longest(text: str, pos: int):
    best = None
    for token in tokens():
        match = token.regex.match(text, pos)
        if match and match.end() > pos and (best is None or match.end() > best[1].end()):
            best = (token, match)
    return best


def _finish(st: State, ctx: Context) -> State | None:
    """Apply the 'upcoming' policies to a component taken from the anchor."""
    span = st.span
    if span is None:
        return None
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
    return dataclasses.replace(st, span=span)


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
    end = right.span.start if fine or not ctx.policy.range_includes_end else right.span.end
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
    while pos < len(text):
        found = _longest(text, pos)
        if found is None:
            break
        token, match = found
        if token.kind == "filler":
            pos = match.end()
            continue
        if token.kind == "opener":
            if started:
                break
            started = True
            pos = match.end()
            continue
        if token.kind == "connector":
            if state.span is None or left is not None:
                break
            left = _finish(state, side_ctx)
            if left is None:
                break
            side_ctx = dataclasses.replace(ctx, anchor=left.span.start, anchor_pod=left.pod)
            state = State()
            pos = match.end()
            continue
        new_state = token.apply(match, state, side_ctx)
        if new_state is None:
            break
        state, pos, started = new_state, match.end(), True
        side = _finish(state, side_ctx)
        result = None
        if side is not None:
            result = side if left is None else _join(left, side, side_ctx)
        best = (pos, result) if result is not None else None if whole else best
    if whole:
        if pos < len(text) or best is None or best[0] != _last_token_end(text, best[0]):
            return None
    return best


def _last_token_end(text: str, end: int) -> int:
    """`end` when only fillers follow it, else -1 (a dangling connector such as 明天到)."""
    pos = end
    while pos < len(text):
        found = _longest(text, pos)
        if found is None or found[0].kind != "filler":
            return -1
        pos = found[1].end()
    return end
