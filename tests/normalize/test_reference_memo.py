"""A value whose reading cannot use the reference time is normalized once for every reference
time; one that can (a time inside a free text, a temporal kind) is still read per reference."""

import datetime as dt

import pytest

from scorer.normalize import Context, canonical, canonical_cached
from scorer.schema import Param
from scorer.temporal import may_hold_time

MONDAY = dt.datetime(2026, 3, 2, 9, 0, tzinfo=dt.timezone(dt.timedelta(hours=8)))
TUESDAY = MONDAY + dt.timedelta(days=1)


def _count_canonical(monkeypatch):
    import scorer.normalize as normalize

    calls = []

    def counted(param, value, context):
        calls.append(value)
        return canonical(param, value, context)

    monkeypatch.setattr(normalize, "canonical", counted)
    return calls


@pytest.mark.parametrize("text", ["北京", "Shanghai Pudong", "上海 浦东 机场"])
def test_text_without_time_is_normalized_once_across_reference_times(monkeypatch, text):
    assert not may_hold_time(text)
    calls = _count_canonical(monkeypatch)
    param = Param(kind="text")
    first = canonical_cached(param, f'"{text}"', Context(MONDAY, "t_once", "p"))
    second = canonical_cached(param, f'"{text}"', Context(TUESDAY, "t_once", "p"))
    fresh = canonical(param, text, Context(MONDAY, "t_once", "p"))
    assert first is second   # one memo entry (compared by identity: a non-number's `number` is NaN)
    assert (first.key, first.flags, first.rule) == (fresh.key, fresh.flags, fresh.rule)
    assert calls == [text]


def test_text_with_a_time_is_read_per_reference_time(monkeypatch):
    assert may_hold_time("明天北京天气")
    calls = _count_canonical(monkeypatch)
    param = Param(kind="text")
    monday = canonical_cached(param, '"明天北京天气"', Context(MONDAY, "t_time", "p"))
    tuesday = canonical_cached(param, '"明天北京天气"', Context(TUESDAY, "t_time", "p"))
    assert monday.rule == tuesday.rule == "temporal.in_text"
    assert monday.key != tuesday.key   # 3月3日 and 3月4日
    assert len(calls) == 2


@pytest.mark.parametrize("kind, value_json", [("date", '"明天"'), ("unknown", '{"start": "明天", "end": "后天"}')])
def test_temporal_kinds_and_structures_stay_per_reference_time(kind, value_json):
    param = Param(kind=kind)
    monday = canonical_cached(param, value_json, Context(MONDAY, "t_kind", "p"))
    tuesday = canonical_cached(param, value_json, Context(TUESDAY, "t_kind", "p"))
    assert monday.interval != tuesday.interval
