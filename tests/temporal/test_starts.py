"""The start scan (where a temporal reading may start) gives the same positions in its compiled
and pure twins; expected positions written from the rules: a place a token starts, not a space,
not inside a word (after a numeral, after `digit.`, an ASCII letter or digit after one)."""

import random

import pytest

from helpers import compiled_core
from scorer.temporal import may_hold_time
from scorer.temporal.grammar import _candidates, start_chars, token_starts_at
from scorer.temporal.numerals import numeral_chars
from scorer.temporal.starts_py import reading_starts as pure

core, NEEDS_COMPILED = compiled_core("scorer.temporal._starts_cy", "start scan")
compiled = core and core.reading_starts
SCANS = [pytest.param(pure, id="python"), pytest.param(compiled, id="cython", marks=NEEDS_COMPILED)]


def everywhere(norm, pos):
    return True   # a token at every place: only the character rules decide


@pytest.mark.parametrize("scan", SCANS)
@pytest.mark.parametrize("text, expected", [
    ("明天 3点", [0, 1, 3, 4]),    # not the space
    ("r2160", [0]),               # ASCII letters and digits run into one word
    ("1.5个", [0, 1, 3]),          # the 5 of 1.5 belongs to the number; the dot is no numeral
    ("三十五号", [0, 3]),          # numerals after a numeral
    ("a.b", [0, 1, 2]),           # a letter after a dot starts
])
def test_the_character_rules(scan, text, expected):
    first = frozenset(text) - {" "}   # every character but the space may start a token here
    assert scan(text, first, numeral_chars(), everywhere) == expected


@pytest.mark.parametrize("scan", SCANS)
def test_first_only_stops_at_the_first(scan):
    assert scan("明天下午三点", None, numeral_chars(), everywhere, True) == [0]
    assert scan("   ", None, numeral_chars(), everywhere, True) == []


def texts(count=4000, seed=5):
    rng = random.Random(seed)
    alphabet = sorted(start_chars()) + list("北京的了 x.\t\u3000\ud800") + ["\U00020bb7"]
    found = ["明天北京天气", "下周二下午3点", "r2160", "2026-03-10 10:00", "北京123号", "1.5个工作日内", "三点一刻", ""]
    return found + ["".join(rng.choice(alphabet) for _ in range(rng.randrange(1, 14))) for _ in range(count)]


@NEEDS_COMPILED
@pytest.mark.parametrize("tokens_at", [_candidates, token_starts_at, everywhere])
@pytest.mark.parametrize("first_only", [False, True])
def test_the_twins_agree(tokens_at, first_only):
    for first in (start_chars(), None):
        for text in texts():
            assert compiled(text, first, numeral_chars(), tokens_at, first_only) == \
                pure(text, first, numeral_chars(), tokens_at, first_only), text


def test_may_hold_time_reads_the_scan():
    assert may_hold_time("明天北京天气") and may_hold_time("北京123号")
    assert not may_hold_time("北京") and not may_hold_time("r2160")
