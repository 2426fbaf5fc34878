"""Windows and offsets: 三天后 / 1年2个月前 (policies offset_unit, offset_clock), 最近N天 / 未来N天 /
N天内 (policies recent_window, upcoming_window, within_end, ...), 上三个月 / 前两周, approximate
counts (三个多月, 两三天), 今明两天.
"""

import dataclasses
import re

from scorer.temporal.dates import DAY, OutOfCalendar, midnight
from scorer.temporal.grammar.core import _DIGIT_BY_DIGIT, _SECOND, Span, _alt, _day_span, _step
from scorer.temporal.grammar.matching import _candidates
from scorer.temporal.grammar.units import _CLOCK_UNITS, _add, _now, _unit_span, _workday, unit_floor
from scorer.temporal.numerals import zh_int


def h_span_pair(table):
    """今明两天, 明后天, 今明两年: two neighbouring days or years as one span."""
    def apply(m, st, ctx):
        if st.span is not None:
            return None
        unit, first, count = table[m.group(0)]
        start = _add(unit_floor(ctx.ref, unit, ctx.policy), unit, first)
        return _step(st, ctx, Span(start, _add(start, unit, count), unit), "zh.span_pair", relative=True)
    return apply


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
            return Span(window.start, _add(unit_floor(window.end - _SECOND, unit, ctx.policy), unit, 1), window.granularity)
        return Span(unit_floor(window.start, unit, ctx.policy), window.end, window.granularity)
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
            start = unit_floor(start, "month", ctx.policy)
        return Span(start, today + DAY, "day")
    end = today + DAY if ctx.policy.recent_includes_today else today
    return Span(_add(end, unit, -amount), end, "day")


def _sequence(ctx, unit, count, direction):
    """上三个月, 下两周, 前3天, 后2年: the `count` whole units just before the current one, or
    just after it."""
    current = unit_floor(ctx.ref, unit, ctx.policy)
    if direction < 0:
        return Span(_add(current, unit, -count), current, "month" if unit == "quarter" else unit)
    first = _add(current, unit, 1)
    return Span(first, _add(first, unit, count), "month" if unit == "quarter" else unit)


def _part_of(span: Span, unit, count, from_end, ctx):
    """The first (or last) `count` units of a span: 今年前五个月, 这个月前两天, 上月最后五天."""
    unit_start = unit_floor(span.start, unit, ctx.policy)
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
            elif unit in ctx.policy.sequence_rolling:  # 前2周 as 最近两周: the window next to now
                span = _window(ctx, unit, count, forward=word in ("下", "后"))
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


def _amount(number_text, half):
    if number_text and "." in number_text:  # 1.5小时后: a decimal count takes no 半 besides
        return None if half else float(number_text)
    number = zh_int(number_text) if number_text else (0 if half else None)
    if number is None:
        return None
    return number + (0.5 if half else 0)


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


def _in_whole_units(rule, measured, policy) -> bool:
    """Whether 最近N / 未来N of this unit reads as the N whole calendar units before (after) the current
    one, as 上N个 / 下N个 do (policy window_whole_units): an exact whole count only."""
    unit, amount, approximation = measured
    return rule in ("zh.recent", "zh.upcoming") and unit in policy.window_whole_units \
        and amount == int(amount) and not approximation


def h_window(units, needs_measure, forward, rule):
    """最近N天 / 未来N天 / N天内; after 近 or 未来, 三月 is a count of months (近三月)."""
    def apply(m, st, ctx):
        measured = _counted(m, st, units, needs_measure if rule in ("zh.within", "zh.since") else frozenset())
        through_last_day = rule == "zh.within" and ctx.policy.within_end == "through_last_day"
        if measured and measured[1] > 0 and _in_whole_units(rule, measured, ctx.policy):
            span = _sequence(ctx, measured[0], int(measured[1]), 1 if forward else -1)
        elif measured and measured[1] > 0:
            span = _window(ctx, measured[0], measured[1], forward, through_last_day, approximate=measured[2] > 0)
        else:
            span = None
        return span and _step(st, ctx, span, rule, relative=True)
    return apply
