"""Predicted arguments are normalized once per (gold row, tool, parameter, value), apart from
whole calls: calls that never repeat (a row-unique argument, sampled rollouts) still share most
of their values, and a shared value gives the verdict it gives alone."""

import json

import pytest

from helpers import call, verdicts_for
from scorer import encode
from scorer.encode import PredictionEncoder

GOLD = [{"id": "w", "gold_calls": [call("get_weather", city="北京", date="2026-03-05")]},
        {"id": "o", "gold_calls": [call("get_weather", city="北京", unit={"$optional": "celsius"})]}]


@pytest.fixture
def normalized(monkeypatch):
    """The (parameter, value) of each argument the encoder normalizes."""
    seen = []
    original = PredictionEncoder._value

    def counting(self, slot, g_row, tool, param_name, raw, value_json):
        seen.append((param_name, raw))
        return original(self, slot, g_row, tool, param_name, raw, value_json)

    monkeypatch.setattr(PredictionEncoder, "_value", counting)
    return seen


def test_values_shared_by_distinct_calls_are_normalized_once(normalized):
    predictions = [{"id": "w", "model": f"m{n}", "calls": [call("get_weather", trace=f"r{n}", city="北京", date="明天")]}
                   for n in range(3)]
    verdicts = verdicts_for(GOLD[:1], predictions)
    assert sorted(normalized) == [("city", "北京"), ("date", "明天"), ("trace", "r0"), ("trace", "r1"), ("trace", "r2")]
    for n in range(3):   # each row: 明天 is the gold's 2026-03-05 (a Wednesday reference), only `trace` is wrong
        row = verdicts[(f"m{n}", "w")]
        gold, predicted = json.loads(row["normalized_gold"])[0], json.loads(row["normalized_pred"])[0]
        assert predicted["arguments"] == {**gold["arguments"], "trace": f"s:r{n}"}
        assert [(error["kind"], error["predicted"]) for error in row["errors"]] == [("unknown_argument", f"r{n}")]


def test_a_shared_value_is_per_gold_row(normalized):
    predictions = [{"id": gold_id, "calls": [call("get_weather", city="北京")]} for gold_id in ("w", "o")]
    verdicts_for(GOLD, predictions)
    assert normalized == [("city", "北京"), ("city", "北京")]   # two gold rows, two readings


def test_an_empty_value_left_out_stays_left_out_when_it_repeats(normalized):
    predictions = [{"id": "o", "model": f"m{n}", "calls": [call("get_weather", trace=f"r{n}", city="北京", unit="")]}
                   for n in range(2)]
    verdicts = verdicts_for(GOLD[1:], predictions)
    assert normalized.count(("unit", "")) == 1
    for row in verdicts.values():   # `unit` dropped both times: only the unknown `trace` argument is reported
        assert [error["argument"] for error in row["errors"]] == ["trace"]


def test_a_value_met_again_after_its_memo_turned_is_kept(normalized, monkeypatch):
    """A full memo starts a new generation and keeps the one before: a value met again within
    two generations is not read again, one left out of both is. (A memo emptied when full read
    北京 again in the third row.)"""
    monkeypatch.setattr(encode, "MEMO_ENTRIES", 2)   # a generation turns once it holds 3 values
    cities = ["北京", "上海", "北京", "广州", "上海"]
    predictions = [{"id": "w", "model": f"m{n}", "calls": [call("get_weather", trace=f"r{n}", city=city)]}
                   for n, city in enumerate(cities)]
    verdicts = verdicts_for(GOLD[:1], predictions, batch_size=1)
    # rows 0-1 fill the first generation; row 2 takes 北京 back from it; row 3 fills the second;
    # row 4's 上海 was in the first, forgotten when the second turned
    assert normalized == [("city", "北京"), ("trace", "r0"), ("city", "上海"), ("trace", "r1"), ("trace", "r2"),
                          ("city", "广州"), ("trace", "r3"), ("city", "上海"), ("trace", "r4")]
    assert [verdicts[(f"m{n}", "w")]["outcome"] for n in range(5)] == ["param_error"] * 5   # date missing


def test_a_turned_generation_is_taken_back_when_met_and_forgotten_after_two():
    memo = encode.Generations()
    memo["a"], memo["b"] = 1, 2
    memo.turn()
    assert memo["a"] == 1 and "a" in memo and "b" not in memo   # met again: into the new generation
    memo.turn()
    assert memo["a"] == 1 and memo["b"] is encode._OMITTED     # b was met in neither: gone
    memo.forget()
    assert memo["a"] is encode._OMITTED
