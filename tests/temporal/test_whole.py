"""Dates written whole (ISO 8601 dates and date-times, 2026年3月10日) are read without the scanner
(scorer.temporal.whole): their fields are taken apart by the compiled reader or its pure twin, and
their readings are the handlers' own. Expected fields and spans are written from ISO 8601, the
calendar and the rules in whole_py.py; the readings are held equal to the scanner's, under every
policy value, and the scanner reads every other value."""

import datetime as dt
import random
from zoneinfo import ZoneInfo

import pytest

import scorer.temporal as temporal_module
from helpers import call, compiled_core, verdict
from scorer.temporal import _normalize, _reference, _resolve_cached, default_policy, find_in_text, resolve
from scorer.temporal.policy import TemporalPolicy, _choices
from scorer.temporal.whole import iso_fields, zh_date_fields
from scorer.temporal.whole_py import iso_fields as pure
from scorer.temporal.whole_py import zh_date_fields as pure_zh

core, NEEDS_COMPILED = compiled_core("scorer.temporal._whole_cy", "reader of dates written whole")
compiled, compiled_zh = (core.iso_fields, core.zh_date_fields) if core else (None, None)
READERS = [pytest.param(pure, id="python"), pytest.param(compiled, id="cython", marks=NEEDS_COMPILED)]
ZH_READERS = [pytest.param(pure_zh, id="python"), pytest.param(compiled_zh, id="cython", marks=NEEDS_COMPILED)]
SHANGHAI = ZoneInfo("Asia/Shanghai")
REFERENCE = dt.datetime(2026, 3, 4, 10, 0, tzinfo=SHANGHAI)


@pytest.mark.parametrize("read", READERS)
@pytest.mark.parametrize("text, fields", [
    ("2026-03-10", (2026, 3, 10, None, 0, 0, None)),
    ("2026/3/9", (2026, 3, 9, None, 0, 0, None)),
    ("2026.12.31", (2026, 12, 31, None, 0, 0, None)),
    ("2026-03/10", (2026, 3, 10, None, 0, 0, None)),          # each separator on its own, as the token
    ("2026-02-30", (2026, 2, 30, None, 0, 0, None)),          # taken apart; whether the day exists is decided later
    ("2026-03-10t14:30", (2026, 3, 10, 14, 30, 0, None)),
    ("2026-03-10 9:05", (2026, 3, 10, 9, 5, 0, None)),
    ("2026-03-10   14:30", (2026, 3, 10, 14, 30, 0, None)),   # a run of spaces
    ("2026-03-10-14:30", (2026, 3, 10, 14, 30, 0, None)),
    ("2026-03-10t14:30:05", (2026, 3, 10, 14, 30, 5, None)),
    ("2026-03-10t14:30:05.250", (2026, 3, 10, 14, 30, 5, None)),  # the fraction is read past
    ("2026-03-10t14:30z", (2026, 3, 10, 14, 30, 0, 0)),
    ("2026-03-10t14:30:00z", (2026, 3, 10, 14, 30, 0, 0)),
    ("2026-03-10t14:30:00+08:00", (2026, 3, 10, 14, 30, 0, 480)),
    ("2026-03-10t14:30:00 +0530", (2026, 3, 10, 14, 30, 0, 330)),
    ("2026-03-10t14:30:00-05", (2026, 3, 10, 14, 30, 0, -300)),
    ("2026-03-10t14:30+0800", (2026, 3, 10, 14, 30, 0, 480)),
    ("2026-03-10 14:30 +08:00", (2026, 3, 10, 14, 30, 0, 480)),
    ("2026-03-10t14:30:00+25:00", (2026, 3, 10, 14, 30, 0, 1500)),  # taken apart; no zone, decided later
])
def test_the_shapes_read(read, text, fields):
    assert read(text) == fields


@pytest.mark.parametrize("read", READERS)
@pytest.mark.parametrize("text", [
    "20260310",                     # compact: the scanner's
    "2026-03-10\t14:30",            # a tab
    "2026-03-1014:30",              # no separator before the time
    "2026-03-10t14:30-05:00",       # a minus offset without seconds: 14:30 to 05:00, a range
    "2026-03-10t14:30+08",          # hours alone only after seconds
    "2026-03-10t14:30:00 z",        # z is written right after the time
    "2026-03-10t14:30:00+08:0",
    "2026-03-10t14:30:00.",
    "2026-03-10t14:300",
    "2026-03-10t143:00",
    "2026-003-10",
    "2026-03-100",
    "202-03-10",
    "20260-03-10",
    "2026-03-10 明天",
    "٢٠٢٦-03-10",                   # digits of another script
    "2026-03-10t",
    "",
])
def test_other_texts_are_left_to_the_scanner(read, text):
    assert read(text) is None


@pytest.mark.parametrize("read", ZH_READERS)
@pytest.mark.parametrize("text, fields", [
    ("2026年3月10日", (2026, 3, 10, None, None, None)),
    ("2026年03月09号", (2026, 3, 9, None, None, None)),
    ("0999年2月30日", (999, 2, 30, None, None, None)),   # taken apart; whether it exists is decided later
    ("2026年3月10日 14:30", (2026, 3, 10, 14, 30, None)),
    ("2026年3月10日9:05:00", (2026, 3, 10, 9, 5, 0)),      # seconds written, even zero
    ("2026年3月10号 24:00", (2026, 3, 10, 24, 0, None)),
])
def test_the_chinese_dates_read(read, text, fields):
    assert read(text) == fields


@pytest.mark.parametrize("read", ZH_READERS)
@pytest.mark.parametrize("text", ["2026年3月10日上午", "2026年3月10日14点30分", "2026年3月10日 2:30pm", "二〇二六年三月十日",
                                  "26年3月10日", "2026年 3月10日", "2026年3月10", "2026年3月100日", "2026年3月10日日",
                                  "年3月10日", "2026年3月", "2026-3月10日", "2026年3月10日  14:30", "2026年3月10日 14:3",
                                  "2026年3月10日 14:30:5", "2026年3月10日 14:30:05.5", "2026年3月10日 14:", ""])
def test_other_chinese_texts_are_left_to_the_scanner(read, text):
    assert read(text) is None


def _generated(count, seed):
    """Texts near a boundary (days that do not exist, hours 24, seconds 60, offsets of a day, years
    0, before 1000 and at 9999, separators and endings the readers do not take), real moments
    from the year 1000 to 9999 in each shape read, and random strings of the characters involved."""
    rng = random.Random(seed)
    texts = []
    for _ in range(count):
        text = (rng.choice(["2026", "2024", "2100", "9999", "1000", "0999", "0001", "202"]) + rng.choice("-/.-x")
                + rng.choice(["3", "03", "12", "13", "0", "2", "02"]) + rng.choice("-/.-")
                + rng.choice(["1", "01", "28", "29", "30", "31", "32", "0", "10"]))
        if rng.random() < 0.8:
            text += (rng.choice(["t", " ", "  ", "-", "", "\t"]) + rng.choice(["0", "9", "09", "23", "24", "123"]) + ":"
                     + rng.choice(["00", "59", "60", "5", "30"]))
            if rng.random() < 0.5:
                text += ":" + rng.choice(["00", "05", "59", "60", "7"]) + rng.choice(["", "", ".5", ".123456", "."])
            text += rng.choice(["", "", "z", " z", "+08:00", "+0800", "+08", "-05:00", "-0500", "-05", " +08:00",
                                "+08:0", "+24:00", "+23:59", "-23:59", "+25:00", "+08:60", "-00:00", "x", "+8"])
        texts.append(text)
        texts.append(rng.choice(["2026", "9999", "9998", "0001", "0000", "0999", "202", "二〇二六"]) + rng.choice(["年", "年", " 年"])
                     + rng.choice(["3", "03", "12", "13", "0", "02", "三"]) + rng.choice(["月", "月", "月 "])
                     + rng.choice(["1", "01", "29", "30", "31", "32", "0", "十"])
                     + rng.choice(["日", "号", "", "日上午", "号晚上8点", "日14:30"])
                     + rng.choice(["", "", " 9:05", "14:30", " 24:00", " 24:01", " 25:00", " 12:60", " 9:05:59", " 9:05:60",
                                   " 00:00:00", " 3:00pm", "  8:00"]))
    moments = [dt.datetime(1000, 1, 1) + dt.timedelta(minutes=rng.randrange(4_700_000_000)) for _ in range(count)]
    shapes = ["%Y-%m-%d", "%Y/%m/%d", "%Y-%m-%dt%H:%M", "%Y-%m-%d %H:%M:%S", "%Y.%m.%d-%H:%M:%S.123",
              "%Y-%m-%dt%H:%M:%Sz", "%Y-%m-%dt%H:%M:%S+08:00", "%Y-%m-%dt%H:%M:%S -0500", "%Y-%m-%dt%H:%M+0530"]
    texts += [moment.strftime(rng.choice(shapes)) for moment in moments]   # real days and times, in every shape
    texts += [f"{moment.year}年{moment.month}月{moment.day}{rng.choice('日号')}"
              + rng.choice(["", moment.strftime(" %H:%M"), moment.strftime("%H:%M:%S")]) for moment in moments]
    alphabet = "0123456789-/.tz :+x年月日号"
    return texts + ["".join(rng.choice(alphabet) for _ in range(rng.randrange(1, 26))) for _ in range(count)]


@NEEDS_COMPILED
def test_the_twins_agree():
    for text in _generated(4000, seed=3):
        assert (compiled(text), compiled_zh(text)) == (pure(text), pure_zh(text)), text


def _without_fast_paths(monkeypatch):
    monkeypatch.setattr(temporal_module, "_whole_iso", lambda norm, tz: None)
    monkeypatch.setattr(temporal_module, "_whole_zh_date", lambda norm, ctx: None)


def _readings(texts, ref, tz, policy):
    found = []
    for text in texts:
        _resolve_cached.cache_clear()
        found.append(_resolve_cached(text, ref, tz, policy))
    _resolve_cached.cache_clear()
    return found


@pytest.mark.parametrize("zone", ["Asia/Shanghai", "America/New_York", "UTC"])
def test_the_fast_paths_read_as_the_scanner(monkeypatch, zone):
    """Every generated text resolves to the same interval, rule included, with the fast paths and
    without them (the scanner, whose tokens then read what a fast path read)."""
    policy = default_policy()
    ref, tz = _reference(dt.datetime(2026, 5, 1, 10, tzinfo=ZoneInfo(zone)), policy)
    texts = [_normalize(text) for text in _generated(1000, seed=11)]
    fast = _readings(texts, ref, tz, policy)
    fast_iso = sum(iso_fields(text) is not None and found is not None for text, found in zip(texts, fast))
    fast_zh = sum(zh_date_fields(text) is not None and found is not None for text, found in zip(texts, fast))
    _without_fast_paths(monkeypatch)
    assert _readings(texts, ref, tz, policy) == fast
    assert fast_iso > 1000 and fast_zh > 900   # the corpus reaches the fast paths' readings, not only refusals


def _each_policy_value():
    policies = [TemporalPolicy.from_overrides({name: value}) for name, values in _choices().items() for value in values]
    return policies + [TemporalPolicy.from_overrides({name: not getattr(default_policy(), name)})
                       for name in ("range_includes_end", "recent_includes_today", "upcoming_includes_today")]


def test_the_fast_paths_read_as_the_scanner_under_every_policy(monkeypatch):
    """No policy enters these readings but through the handlers both paths call: one value of one
    policy at a time, each against a sample of the corpus."""
    texts = [_normalize(text) for text in _generated(300, seed=12)]
    policies = _each_policy_value()
    rng = random.Random(4)
    samples = [rng.sample(texts, 120) for _ in policies]
    reference = dt.datetime(2026, 12, 30, 23, 0, tzinfo=SHANGHAI)   # near a year's end, where years roll
    fast = [_readings(sample, *_reference(reference, policy), policy) for sample, policy in zip(samples, policies)]
    _without_fast_paths(monkeypatch)
    for sample, policy, found in zip(samples, policies, fast):
        assert _readings(sample, *_reference(reference, policy), policy) == found, policy


def test_dates_written_whole_are_read_without_the_scanner(monkeypatch):
    def no_scan(*args, **kwargs):
        raise AssertionError("the scanner was asked")

    monkeypatch.setattr(temporal_module, "scan", no_scan)
    _resolve_cached.cache_clear()
    try:
        found = resolve("2026-03-10T14:30:00Z", REFERENCE)   # 14:30 UTC is 22:30 in Shanghai
        assert (found.start, found.end, found.granularity, found.rule, found.relative) == (
            dt.datetime(2026, 3, 10, 22, 30, tzinfo=SHANGHAI), dt.datetime(2026, 3, 10, 22, 31, tzinfo=SHANGHAI),
            "minute", "iso.datetime", False)
        day = resolve("2026/3/9", REFERENCE)
        assert (day.start, day.end, day.granularity, day.rule) == (
            dt.datetime(2026, 3, 9, tzinfo=SHANGHAI), dt.datetime(2026, 3, 10, tzinfo=SHANGHAI), "day", "iso.date")
        second = resolve("2026-03-10 14:30:05+08:00", REFERENCE)
        assert (second.start, second.granularity) == (dt.datetime(2026, 3, 10, 14, 30, 5, tzinfo=SHANGHAI), "second")
        chinese = resolve("2026年3月10号", REFERENCE)
        assert (chinese.start, chinese.end, chinese.granularity, chinese.rule, chinese.relative) == (
            dt.datetime(2026, 3, 10, tzinfo=SHANGHAI), dt.datetime(2026, 3, 11, tzinfo=SHANGHAI), "day",
            "zh.year+zh.month+zh.day", False)
        clock = resolve("2026年3月10日 14:30", REFERENCE)
        assert (clock.start, clock.end, clock.granularity, clock.rule) == (
            dt.datetime(2026, 3, 10, 14, 30, tzinfo=SHANGHAI), dt.datetime(2026, 3, 10, 14, 31, tzinfo=SHANGHAI),
            "minute", "zh.year+zh.month+zh.day+clock")
        with pytest.raises(AssertionError):
            resolve("2026年3月10日上午", REFERENCE)   # not a whole date: the scanner's
        with pytest.raises(AssertionError):
            resolve("2026年2月29日", REFERENCE)        # no such day: the handlers decline, the scanner tries the rest
    finally:
        _resolve_cached.cache_clear()


@pytest.mark.parametrize("text", ["2026-03-10T10:00:00+25:00", "2026-03-10T10:00:00-24:00", "2026-03-10T10:00:00+23:99"])
def test_an_offset_of_a_day_or_more_names_no_time(text):
    """Python's time zones end short of 24 hours: such an offset raised ValueError, which made the
    whole row a scoring error. It names no time, whole or inside a free text (where the scanner
    may still read a clock time in its digits, as in any text)."""
    _resolve_cached.cache_clear()
    assert resolve(text, REFERENCE) is None
    inside = find_in_text(f"会议在{text}开始", REFERENCE)   # raised as well; other readings of its digits remain
    assert inside is None or inside.start.date() != dt.date(2026, 3, 10)


def test_an_offset_of_a_day_is_a_wrong_value_not_a_broken_row():
    row = verdict([call("search_flights", from_city="北京", to_city="上海", date="2026-03-10")],
                  [call("search_flights", from_city="北京", to_city="上海", date="2026-03-10T10:00:00+25:00")])
    assert row["outcome"] != "malformed" and "scoring_error" not in row["detail"]
    assert (row["rule"], row["decided"]) == ("temporal.unresolved", False)   # undecided, for the judge


def test_an_offset_just_short_of_a_day_moves_the_time():
    found = resolve("2026-03-10T10:00:00+23:59", REFERENCE)   # 10:00 at UTC+23:59 is 10:01 UTC the day before
    assert found.start == dt.datetime(2026, 3, 9, 18, 1, tzinfo=SHANGHAI)


@pytest.mark.parametrize("text", ["9999-12-31T20:00:00-05:00", "9999-12-31 23:59+00:00"])
def test_an_offset_that_moves_the_time_past_year_9999_names_no_time(text, monkeypatch):
    """20:00 at UTC-5 on 9999-12-31 is 09:00 on the next day in Shanghai, a year Python's dates do
    not reach: no time, not an OverflowError, whether the fast path or the scanner reads it."""
    _resolve_cached.cache_clear()
    assert resolve(text, REFERENCE) is None
    monkeypatch.setattr(temporal_module, "iso_fields", lambda norm: None)   # the scanner's reading
    _resolve_cached.cache_clear()
    try:
        assert resolve(text, REFERENCE) is None
    finally:
        _resolve_cached.cache_clear()
