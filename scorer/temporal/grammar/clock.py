"""The clock: parts of the day (下午, 今晚), clock times (三点半, 14:30, 3pm; policies
clock_granularity, bare_clock), 七八点, 差十分五点, now, and time zones (北京时间, UTC+8, PST).
"""

import dataclasses
import datetime as dt
from zoneinfo import ZoneInfo

from scorer.temporal.dates import DAY, midnight
from scorer.temporal.grammar.core import _DIGIT_BY_DIGIT, _HOUR, _MINUTE, _SECOND, Span, _day_of, _step
from scorer.temporal.grammar.days import _tomorrow_offset
from scorer.temporal.grammar.units import _unit_span
from scorer.temporal.numerals import zh_int


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


_SINGLE_DIGITS = frozenset("一二三四五六七八九")


def _counted_in_marks(m, policy) -> bool:
    """Whether the minutes after the hour count 字, the five-minute marks of the dial, as Cantonese
    says them: after 踏 / 搭 (五點踏二 = 5:10), or a lone Chinese digit with no 分 (五點四 = 5:20) under
    policy clock_single_digit = five_minutes (Mandarin writes 5:04 as 五点零四 or 五点四分)."""
    if m.group("mark"):
        return True
    return policy.clock_single_digit == "five_minutes" and not m.group("fen") and m.group("minute") in _SINGLE_DIGITS


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
        if minute is not None and _counted_in_marks(m, ctx.policy):
            minute *= 5
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
