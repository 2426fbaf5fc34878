"""Temporal values resolved to canonical intervals against a row's reference time.

Gold and predicted values (`2026-03-10`, `下周二`, `明天下午三点`, `next Tuesday`) both become an
Interval [start, end) in the row's timezone with a granularity, so that comparison is
arithmetic instead of string equality. Our rules come first (Chinese grammar in
grammar/, vocabulary in rules/temporal/); dateparser is the guarded fallback.
"""

import dataclasses
import datetime as dt
import functools
import re
import unicodedata
from zoneinfo import ZoneInfo

from scorer import match_py
from scorer.script import HAN_RANGES, to_simplified
from scorer.temporal import fallback
from scorer.temporal.dates import DAY, add_years, midnight, shift_month, week_first_day
from scorer.temporal.grammar import (GRANULARITY_INDEX, Context, iso_reading, lookalikes, scan, start_chars,
                                     token_starts_at, zh_date_reading)
from scorer.temporal.whole import iso_fields, zh_date_fields
from scorer.temporal.grammar import _candidates, _leading_candidates
from scorer.temporal.grammar.units import unit_floor
from scorer.temporal.numerals import numeral_chars
from scorer.temporal.starts import inside_word, reading_starts
from scorer.temporal.policy import WEEKDAYS, TemporalPolicy, default_policy, for_date_field
from scorer.vocab import GRANULARITIES

__all__ = [
    "Interval", "TemporalPolicy", "default_policy", "for_date_field", "resolve", "find_in_text", "may_hold_time", "slip",
    "to_minutes", "temporal_equal", "coarsen", "time_of_day", "SLIPS",
]

SLIPS = ("off_by_one_day", "off_by_one_week", "off_by_one_year", "wrong_weekday",
         "whole_vs_part", "timezone_shift", "inclusive_exclusive_end")
_EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.timezone.utc)
_MINUTE = dt.timedelta(minutes=1)
_YEAR_ONLY = re.compile(r"\d{4}")
_WRITTEN_YEAR = re.compile(r"(?<!\d)\d{4}(?!\d)")
_DECIMAL = re.compile(r"\d+\.\d+|[\d〇零一二两三四五六七八九十百千]+点[\d〇零一二三四五六七八九]+")  # 1200.5, 三点五
_MAX_LENGTH = 200
_SPACE_BETWEEN_HAN = re.compile(rf"(?<=[{HAN_RANGES}])\s+(?=[{HAN_RANGES}])")  # 晚 上 8点 = 晚上8点
_counters = {"calls": 0, "dateparser": 0}


@dataclasses.dataclass(frozen=True)
class Interval:
    start: dt.datetime        # timezone-aware, in the row's timezone
    end: dt.datetime          # exclusive
    granularity: str          # one of scorer.vocab.GRANULARITIES
    rule: str                 # the rule(s) that fired, e.g. "zh.relative_day", "iso.date", "dateparser"
    relative: bool            # True when the reference time supplied any part of the value


@functools.lru_cache(maxsize=65_536)
def _normalize(text: str) -> str:
    """Full-width forms to ASCII (NFKC), traditional to simplified characters (OpenCC), lower
    case, outer spaces trimmed: 這個星期五 and 这个星期五 are one expression."""
    text = to_simplified(unicodedata.normalize("NFKC", text)).strip().lower()
    return _SPACE_BETWEEN_HAN.sub("", text) if " " in text else text


@functools.lru_cache(maxsize=64)
def _zone(name: str) -> dt.tzinfo:
    return ZoneInfo(name)


def _reference(reference_time: dt.datetime, policy: TemporalPolicy):
    """(naive local reference truncated to the second, tzinfo): the memo key's time part."""
    return _local_reference(reference_time, reference_time.tzinfo, policy.timezone)


@functools.lru_cache(maxsize=4096)
def _local_reference(reference_time: dt.datetime, zone, timezone: str):
    """Keyed on the zone too: equal instants in two zones are two local references."""
    tz = zone or _zone(timezone)
    local = reference_time.astimezone(tz) if reference_time.tzinfo else reference_time
    return local.replace(microsecond=0, tzinfo=None), tz


def _interval(span, tz, rule: str, relative: bool) -> Interval:
    return Interval(span.start.replace(tzinfo=tz), span.end.replace(tzinfo=tz), span.granularity,
                    rule, relative)


def _rule_name(rules: tuple) -> str:
    return "+".join(dict.fromkeys(rules))


def resolve(text: str, reference_time: dt.datetime, policy: TemporalPolicy | None = None) -> Interval | None:
    """The whole value as an interval, or None when it is not temporal (a value that is not a
    string is not temporal). A failure inside the grammar is a bug and raises."""
    if not isinstance(text, str) or not isinstance(reference_time, dt.datetime):
        return None
    policy = policy or default_policy()
    ref, tz = _reference(reference_time, policy)
    _counters["calls"] += 1
    return _resolve_cached(text, ref, tz, policy) if _room_around(ref) else None


@functools.lru_cache(maxsize=262_144)
def _resolve_cached(text: str, ref: dt.datetime, tz: dt.tzinfo, policy: TemporalPolicy) -> Interval | None:
    norm = _normalize(text)
    if not norm or len(norm) > _MAX_LENGTH:
        return None
    if _YEAR_ONLY.fullmatch(norm) and 1900 <= int(norm) <= 2100:
        year = int(norm)
        return Interval(dt.datetime(year, 1, 1, tzinfo=tz), dt.datetime(year + 1, 1, 1, tzinfo=tz),
                        "year", "year", False)
    iso = _whole_iso(norm, tz)
    if iso is not None:
        return iso
    ctx = Context(ref, ref, None, policy, tz)
    zh_date = _whole_zh_date(norm, ctx)
    if zh_date is not None:
        return zh_date
    found = scan(norm, 0, ctx, whole=True)
    if found is not None:
        state = found[1]
        return _interval(state.span, tz, _rule_name(state.rules), state.relative)
    if policy.dateparser_fallback and fallback.worth_asking(norm):
        _counters["dateparser"] += 1
        span = fallback.parse(norm, ref, tz)
        if span is not None:
            return _interval(span, tz, "dateparser", not _WRITTEN_YEAR.search(norm))
    return None


def _whole_iso(norm: str, tz: dt.tzinfo) -> Interval | None:
    """The reading of a date or date-time written whole in ISO form, without the scanner: what
    the `iso` token reads, as the scanner takes it first when it reaches the end (no reference
    or policy enters it but the zone). None when the text is not such a value or names no such
    day or time; the scanner then reads it, trying the other tokens as it always does."""
    fields = iso_fields(norm)
    found = fields and iso_reading(*fields, tz)
    return found and _interval(found[0], tz, found[1], False)


def _whole_zh_date(norm: str, ctx: Context) -> Interval | None:
    """The reading of 2026年3月10日 (or 2026年3月10日 14:30) written whole, without the scanner: the
    year, month, day (and clock) handlers in turn, as the scanner applies them; None when the text
    is not such a date or the handlers decline it (the scanner then reads it, trying the others)."""
    fields = zh_date_fields(norm)
    state = fields and zh_date_reading(*fields, ctx)
    return state and _interval(state.span, ctx.tzinfo, _rule_name(state.rules), state.relative)


def find_in_text(text: str, reference_time: dt.datetime, policy: TemporalPolicy | None = None) -> Interval | None:
    """The longest temporal expression inside a free text (明天北京的天气 -> 明天), or None.
    Names and counts that look temporal (五一广场, 一周年, 三星) do not count."""
    found = _find(text, reference_time, policy)
    return found and found[0]


def mark_in_text(text: str, reference_time: dt.datetime, policy: TemporalPolicy | None = None) -> str | None:
    """The (normalized) text with its longest temporal expression replaced by its interval,
    `<start/end/granularity>` in epoch minutes, so that 明天北京天气 and 3月5日北京天气 compare
    equal; None when the text holds none."""
    found = _find(text, reference_time, policy)
    if found is None:
        return None
    interval, norm, start, end = found
    minutes = to_minutes(interval)
    return f"{norm[:start]}<{minutes[0]}/{minutes[1]}/{minutes[2]}>{norm[end:]}"


def _find(text, reference_time, policy):
    if not isinstance(text, str) or not isinstance(reference_time, dt.datetime):
        return None
    policy = policy or default_policy()
    ref, tz = _reference(reference_time, policy)
    return _find_cached(text, ref, tz, policy) if _room_around(ref) else None


def _room_around(ref: dt.datetime) -> bool:
    """Whether a reference leaves a year of calendar on each side: readings step days, weeks and
    quarters from it, and against a reference in year 1 or 9999 they would leave the calendar
    Python's dates can hold. Against such a reference nothing is read."""
    return 2 <= ref.year <= 9997


def may_hold_time(text: str) -> bool:
    """Whether a free text has a place where a temporal reading could start: only then can
    `find_in_text` find anything, whatever the reference time."""
    return isinstance(text, str) and bool(reading_starts(_normalize(text)[:4 * _MAX_LENGTH], start_chars(),
                                                         numeral_chars(), token_starts_at, True))


@functools.lru_cache(maxsize=65_536)
def _find_cached(text: str, ref: dt.datetime, tz: dt.tzinfo, policy: TemporalPolicy):
    norm = _normalize(text)[:4 * _MAX_LENGTH]
    after, lone, after_holiday = lookalikes()
    ctx = Context(ref, ref, None, policy, tz)
    best = None
    # where a token of the grammar starts (its first-character index narrows the places tried), not
    # on a space, not inside a word: elsewhere `scan` finds no token and reads nothing. The tokens are
    # the ones `scan` asks for first there (matched once, memoized)
    for pos in reading_starts(norm, start_chars(), numeral_chars(), _leading_candidates):
        found = scan(norm, pos, ctx, whole=False)
        if found is not None:
            end, state = found
            span_text = norm[pos:end].strip()
            if (span_text not in lone and not after.match(norm, end)
                    and not (state.rules[-1:] == ("holiday",) and after_holiday.match(norm, end))
                    and not (end < len(norm) and inside_word(norm, end, numeral_chars()))
                    and not _amount(span_text, norm, end)):
                if best is None or end - pos > best[0]:
                    best = (end - pos, state, pos, end)
    if best is None:
        return None
    _length, state, start, end = best
    return _interval(state.span, tz, _rule_name(state.rules), state.relative), norm, start, end


def _amount(span_text: str, norm: str, end: int) -> bool:
    """A decimal number before a currency or unit (1200.5 hkd, 1200.5港币, 三点五公里) is an
    amount, never the year and month (May of the year 1200) or the clock time it could be read as."""
    from scorer.normalize.units import unit_follows

    return _DECIMAL.fullmatch(span_text) is not None and unit_follows(norm, end)


def to_minutes(iv: Interval) -> tuple[int, int, int]:
    """(start, end) in whole minutes since the epoch (UTC), and the granularity's index. The
    matcher works in minutes: a value written to the second is the minute(s) it falls in."""
    if iv.granularity == "second":
        return ((iv.start - _EPOCH) // _MINUTE, -((_EPOCH - iv.end) // _MINUTE), GRANULARITY_INDEX["minute"])
    return ((iv.start - _EPOCH) // _MINUTE, (iv.end - _EPOCH) // _MINUTE,
            GRANULARITY_INDEX[iv.granularity])


def temporal_equal(g: tuple[int, int, int], p: tuple[int, int, int]) -> bool:
    """THE comparison rule, on `to_minutes` tuples: the matcher's (scorer.match_py, mirrored in
    the compiled core). A day inside a month is not equal."""
    return match_py.temporal_equal(*g, *p)


def _unit(granularity: str) -> dt.timedelta:
    return {"minute": _MINUTE, "hour": dt.timedelta(hours=1)}.get(granularity, DAY)


def _same_week(a: dt.date, b: dt.date, policy: TemporalPolicy) -> bool:
    start = WEEKDAYS.index(policy.week_start)
    return week_first_day(a, start) == week_first_day(b, start)


def _year_shifted(gold: Interval, pred: Interval) -> bool:
    tz = gold.start.tzinfo
    gs, ge = gold.start.astimezone(tz), gold.end.astimezone(tz)
    ps, pe = pred.start.astimezone(tz), pred.end.astimezone(tz)
    for offset in (1, -1):
        moved = [dt.datetime.combine(add_years(d.date(), offset), d.time(), tz) for d in (gs, ge)]
        if moved == [ps, pe]:
            return True
    return False


def slip(gold: Interval, pred: Interval, policy: TemporalPolicy | None = None) -> str | None:
    """The recognizable kind of difference between two intervals (one of SLIPS), or None when
    they are equal under temporal_equal or differ in no recognizable way."""
    if temporal_equal(to_minutes(gold), to_minutes(pred)):
        return None
    policy = policy or default_policy()
    gold_length, pred_length = gold.end - gold.start, pred.end - pred.start
    finer = min(gold.granularity, pred.granularity, key=GRANULARITY_INDEX.get)
    unit = _unit(finer)
    if gold.start == pred.start and abs(pred.end - gold.end) == unit and max(gold_length, pred_length) > unit:
        return "inclusive_exclusive_end"
    shift = pred.start - gold.start
    if gold_length == pred_length:
        if abs(shift) == DAY:
            return "off_by_one_day"
        if abs(shift) == 7 * DAY:
            return "off_by_one_week"
        if abs(shift) < DAY and shift % dt.timedelta(minutes=15) == dt.timedelta(0):
            return "timezone_shift"
        tz = gold.start.tzinfo
        if gold_length == DAY and gold.granularity == pred.granularity == "day" \
                and _same_week(gold.start.astimezone(tz).date(), pred.start.astimezone(tz).date(), policy):
            return "wrong_weekday"
    if _year_shifted(gold, pred):
        return "off_by_one_year"
    if (gold.start <= pred.start and pred.end <= gold.end) or (pred.start <= gold.start and gold.end <= pred.end):
        return "whole_vs_part"
    return None


def _step_up(moment: dt.datetime, granularity: str) -> dt.datetime:
    if granularity in ("minute", "hour", "day", "week"):
        return moment + {"minute": _MINUTE, "hour": dt.timedelta(hours=1), "day": DAY, "week": 7 * DAY}[granularity]
    year, month = shift_month(moment.year, moment.month, {"month": 1, "quarter": 3, "year": 12}[granularity])
    return dt.datetime(year, month, 1)


def coarsen(iv: Interval, granularity: str, policy: TemporalPolicy | None = None) -> Interval:
    """The interval widened to whole units of `granularity` (a date field truncates a datetime
    to its day). An interval already that coarse is returned unchanged."""
    if granularity not in GRANULARITY_INDEX or granularity == "part_of_day":
        raise ValueError(f"cannot coarsen to {granularity!r}; expected one of {GRANULARITIES} except part_of_day")
    if GRANULARITY_INDEX[iv.granularity] >= GRANULARITY_INDEX[granularity]:
        return iv
    policy = policy or default_policy()
    tz = iv.start.tzinfo
    start = unit_floor(iv.start.replace(tzinfo=None), granularity, policy)
    last = iv.end.replace(tzinfo=None) - _MINUTE
    end = _step_up(unit_floor(last, granularity, policy), granularity)
    return dataclasses.replace(iv, start=start.replace(tzinfo=tz), end=end.replace(tzinfo=tz),
                               granularity=granularity)


def time_of_day(iv: Interval, reference_time: dt.datetime) -> Interval:
    """A time-kind value: the same clock time and length, moved onto the reference day."""
    tz = iv.start.tzinfo
    ref_day = reference_time.astimezone(tz).date() if reference_time.tzinfo else reference_time.date()
    shift = midnight(ref_day) - midnight(iv.start.date())
    return dataclasses.replace(iv, start=iv.start + shift, end=iv.end + shift)


def counters() -> dict:
    """How many resolve() calls were made and how many reached dateparser (for bench/)."""
    return dict(_counters)


def clear_caches() -> None:
    """Forget memoized results and counters (bench/ measures cold runs with it)."""
    _resolve_cached.cache_clear()
    _find_cached.cache_clear()
    _candidates.cache_clear()
    _leading_candidates.cache_clear()
    _normalize.cache_clear()
    _counters.update(calls=0, dateparser=0)
