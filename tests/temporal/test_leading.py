"""The scanner reads a token that matches to the end of the text without matching the others
first (`_leading_candidates`), and asks for every candidate only when that token's handler
declines. The rule: no match is longer than one that reaches the end, and tokens are tried in
table order, which breaks ties, so the first to reach the end is the candidate the scanner
takes first. Held here against the scanner that matches every candidate, on whole values and
on free texts."""

import json
import random
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from scorer import temporal
from scorer.temporal import grammar
from scorer.temporal.grammar import matching, scanner

REF = datetime(2026, 3, 10, 9, 30, tzinfo=timezone(timedelta(hours=8)))
OWN = Path(__file__).resolve().parents[1] / "data" / "temporal_zh.jsonl"
DEV = Path(__file__).resolve().parents[2] / ".." / "shared" / "temporal-dev" / "cases.jsonl"


def _written_dates(count=3000, seed=3):
    rng = random.Random(seed)
    shapes = ["{y}-{m:02d}-{d:02d}", "{y}-{m:02d}-{d:02d}T{h:02d}:{mi:02d}:00", "{y}-{m:02d}-{d:02d} {h:02d}:{mi:02d}",
              "{y}/{m}/{d}", "{y}.{m}.{d}", "{y}-{m:02d}", "{h}:{mi:02d}", "{y}-{m:02d}-{d:02d}T{h:02d}:{mi:02d}:{s:02d}Z",
              "{y}-{m:02d}-{d:02d}T{h:02d}:{mi:02d}:00+09:00", "{y}年{m}月{d}日", "{m}月{d}日{h}点", "{y}-{m:02d}-{d:02d}至{y}-{m:02d}-28",
              "明天{h}点", "{y}-{m:02d}-{d:02d}到下周二", "{y}{m:02d}{d:02d}", "{y}-W{m:02d}", "q{q} {y}", "{d}号"]
    return [rng.choice(shapes).format(y=rng.choice([1999, 2025, 2026, 2027, 9999]), m=rng.randrange(0, 14),
                                      d=rng.randrange(0, 33), h=rng.randrange(0, 26), mi=rng.randrange(0, 61),
                                      s=rng.randrange(0, 61), q=rng.randrange(0, 6)) for _ in range(count)]


def _texts():
    texts = _written_dates()
    texts += [json.loads(line)["text"] for line in OWN.read_text(encoding="utf-8").splitlines()]
    if DEV.exists():   # ../shared beside the checkout; absent in a plain clone
        texts += [json.loads(line)["text"] for line in DEV.read_text(encoding="utf-8").splitlines()]
    return texts


def _readings(texts):
    found = []
    for text in texts:
        found.append((temporal.resolve(text, REF), temporal.find_in_text("会议在" + text, REF),
                      temporal.find_in_text(text + "的天气", REF)))
    return found


def _clear():
    for cached in (temporal._resolve_cached, temporal._find_cached, grammar._candidates, grammar._leading_candidates):
        getattr(cached, "cache_clear", lambda: None)()   # the stand-in for _leading_candidates keeps no memo


def test_reading_the_leading_token_first_reads_as_every_candidate(monkeypatch):
    texts = _texts()
    _clear()
    shortcut = _readings(texts)
    for module in (scanner, matching):   # the scanner's first ask, and the one `_candidates` builds on
        monkeypatch.setattr(module, "_leading_candidates", grammar._all_candidates)
    _clear()
    everything = _readings(texts)
    _clear()
    assert sum(reading[0] is not None for reading in shortcut) > len(texts) // 2   # the corpus reads, mostly
    for text, ours, theirs in zip(texts, shortcut, everything):
        assert ours == theirs, text


def _shown(candidates):
    return [(token.name, match.span()) for token, match in candidates]


@pytest.mark.parametrize("text", ["2026-03-10t10:00:00", "2026-03-10", "2026-03"])
def test_a_token_that_reaches_the_end_is_the_only_candidate_matched(text):
    leading = _shown(grammar._leading_candidates(text, 0))
    everything = _shown(grammar._candidates(text, 0))
    assert leading == everything[:1] and leading[0][1] == (0, len(text)) and len(everything) > 1


def test_without_a_token_to_the_end_every_candidate_is_matched():
    assert _shown(grammar._leading_candidates("3月5日", 0)) == _shown(grammar._candidates("3月5日", 0))
    assert len(grammar._candidates("3月5日", 0)) > 1


def test_clear_caches_forgets_both_candidate_memos():
    """bench/temporal.py times cold passes after clear_caches: a memo it left full made the second
    cold figure partly warm."""
    temporal.resolve("2026-03-10t10:00", REF)
    temporal.find_in_text("会议在明天下午", REF)
    assert grammar._leading_candidates.cache_info().currsize and grammar._candidates.cache_info().currsize
    temporal.clear_caches()
    assert grammar._leading_candidates.cache_info().currsize == 0 == grammar._candidates.cache_info().currsize
