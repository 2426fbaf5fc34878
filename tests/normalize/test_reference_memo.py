"""A value whose reading cannot use the reference time is normalized once for every reference
time; one that can (a time inside a free text, a temporal kind) is still read per reference."""

import datetime as dt
from zoneinfo import ZoneInfo

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
    assert first is second   # one memo entry
    assert first == fresh    # equal values compare equal on every Python (3.13's dataclass __eq__ is per field)
    assert calls == [text]


def test_a_time_free_value_takes_one_context_whatever_the_reference_time():
    from scorer.normalize import _without_reference

    moments = [MONDAY + dt.timedelta(minutes=minute) for minute in range(5000)]   # more than the cache holds
    found = {id(_without_reference(Context(moment, "t_many", "p"))) for moment in moments}
    shared = _without_reference(Context(TUESDAY, "t_many", "p"))
    assert found == {id(shared)}
    assert shared == Context(None, "t_many", "p", reference_known=True)


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


@pytest.mark.parametrize("kind, text", [("date", "2026-03-05"), ("datetime", "2026-03-05T15:00:00+08:00"),
                                        ("datetime", "2026-03-05 15:00"), ("date", "2026/3/5"),
                                        ("datetime", "2026年3月5日 15:00")])
def test_a_date_written_whole_is_normalized_once_per_time_zone(monkeypatch, kind, text):
    calls = _count_canonical(monkeypatch)
    param = Param(kind=kind, described="date", default_json='"2026-01-01"')
    monday = canonical_cached(param, f'"{text}"', Context(MONDAY, "t_iso", "p"))
    tuesday = canonical_cached(param, f'"{text}"', Context(TUESDAY, "t_iso", "p"))
    elsewhere = canonical_cached(Param(kind=kind), f'"{text}"', Context(TUESDAY, "t_other", "q"))
    assert monday is tuesday is elsewhere and calls == [text]   # one reading for every row, tool and parameter
    fresh = canonical(param, text, Context(TUESDAY, "t_iso", "p"))
    assert (monday.key, monday.interval, monday.flags, monday.rule) == (fresh.key, fresh.interval, fresh.flags, fresh.rule)
    for other_zone in (MONDAY.astimezone(dt.timezone.utc), MONDAY.replace(tzinfo=ZoneInfo("Europe/London")),
                       MONDAY.replace(tzinfo=dt.timezone.utc)):   # an equal instant, an equal offset, both
        other = canonical_cached(param, f'"{text}"', Context(other_zone, "t_iso", "p"))
        assert (other.key, other.interval) == (lambda c: (c.key, c.interval))(
            canonical(param, text, Context(other_zone, "t_iso", "p")))
        if "+08:00" not in text:
            assert other.interval != monday.interval         # the same wall-clock day in UTC starts 8 hours later
    assert len(calls) == 3                                   # once per zone: +08:00, UTC, London


def whole_date_texts(rnd, count):
    """Dates written whole in each shape `written_absolutely` accepts, valid or not, any year,
    with and without a clock time (seconds, fraction, offset where ISO allows them)."""
    for _ in range(count):
        year, month, day = rnd.choice([rnd.randint(1, 9999), rnd.randint(1990, 2035)]), rnd.randint(0, 13), rnd.randint(0, 32)
        shape = rnd.choice(["iso", "slash", "han"])
        if shape == "iso":
            text = f"{year:04d}-{month:02d}-{day:02d}"
            if rnd.random() < 0.6:
                text += f"{rnd.choice('T ')}{rnd.randint(0, 25):02d}:{rnd.randint(0, 61):02d}"
                text += rnd.choice(["", f":{rnd.randint(0, 61):02d}", f":{rnd.randint(0, 59):02d}.{rnd.randint(0, 999999)}"])
                text += rnd.choice(["", "Z", f"{rnd.choice('+-')}{rnd.randint(0, 14):02d}:{rnd.choice(['00', '30'])}"])
        else:
            text = f"{year:04d}/{month}/{day}" if shape == "slash" else f"{year:04d}年{month}月{day}{rnd.choice('日号')}"
            if rnd.random() < 0.5:
                text += f"{rnd.choice(['', ' '])}{rnd.randint(0, 25)}:{rnd.randint(0, 61):02d}{rnd.choice(['', ':30'])}"
        yield text


def test_whole_dates_read_the_same_against_any_reference_time_in_a_zone():
    """The premise of the memo above, checked against the resolver."""
    import random

    from scorer.normalize.dates import written_absolutely

    rnd = random.Random(11)
    zones = [dt.timezone(dt.timedelta(hours=8)), dt.timezone.utc, dt.timezone(dt.timedelta(hours=-5))]
    for text in whole_date_texts(rnd, 600):
        assert written_absolutely(text)
        zone, kind = rnd.choice(zones), rnd.choice(["date", "datetime", "time"])
        readings = set()
        for _ in range(3):
            reference = dt.datetime(rnd.randint(1950, 2090), rnd.randint(1, 12), rnd.randint(1, 28), rnd.randint(0, 23),
                                    rnd.randint(0, 59), tzinfo=zone)
            found = canonical(Param(kind=kind), text, Context(reference, "t", "p"))
            readings.add((found.key, found.interval, found.flags, found.rule))
        assert len(readings) == 1, text


def test_the_start_test_agrees_with_the_scanners_candidates():
    # may_hold_time asks only whether some token matches at a place; the scanner builds them all
    import random

    from scorer.temporal.grammar import _candidates, start_chars, token_starts_at

    rng = random.Random(3)
    alphabet = sorted(start_chars()) + list("北京的了 x")
    texts = ["明天北京天气", "下周二下午3点", "r2160", "2026-03-10 10:00", "北京123号", "tomorrow at 5pm", "三点一刻"]
    texts += ["".join(rng.choice(alphabet) for _ in range(rng.randrange(1, 12))) for _ in range(3000)]
    found = [(token_starts_at(text, pos), bool(_candidates(text, pos))) for text in texts for pos in range(len(text))]
    assert all(fast == full for fast, full in found)
    assert 0 < sum(fast for fast, _full in found) < len(found)


@pytest.mark.parametrize("kind, value_json", [("date", '"明天"'), ("text", '"明天北京天气"')])
def test_one_instant_in_two_zones_is_two_readings(kind, value_json):
    """Two reference times equal as instants (20:00 in Shanghai, 12:00 UTC) compare equal, and
    so would two contexts holding them; 明天 is still another day in each zone. Written from the
    calendar: 3月3日 from 00:00 in Shanghai, 3月3日 from 00:00 UTC, eight hours apart."""
    shanghai = dt.datetime(2026, 3, 2, 20, 0, tzinfo=ZoneInfo("Asia/Shanghai"))
    utc = shanghai.astimezone(dt.timezone.utc)
    assert shanghai == utc
    param = Param(kind=kind)
    in_shanghai = canonical_cached(param, value_json, Context(shanghai, "t_zones", "p"))
    in_utc = canonical_cached(param, value_json, Context(utc, "t_zones", "p"))
    day_start_shanghai = int(dt.datetime(2026, 3, 3, tzinfo=ZoneInfo("Asia/Shanghai")).timestamp()) // 60
    day_start_utc = int(dt.datetime(2026, 3, 3, tzinfo=dt.timezone.utc).timestamp()) // 60
    if kind == "date":
        assert (in_shanghai.interval[0], in_utc.interval[0]) == (day_start_shanghai, day_start_utc)
    else:
        assert f"<{day_start_shanghai}/" in in_shanghai.key and f"<{day_start_utc}/" in in_utc.key
