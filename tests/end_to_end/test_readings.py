"""Outputs that read as the same calls against the same gold row are encoded, matched and
attributed once (scorer.pipeline.ReadingMemo) and get one verdict; the raw text still counts
where a verdict reads it (a reply's expected mentions); a full memo starts a new generation,
keeping the one before, and does not grow."""

import json

import pytest

from helpers import REFERENCE, call, gold_table, prediction_table
from scorer import pipeline
from scorer.encode import PredictionEncoder
from scorer.options import Options

CALLS = [call("get_weather", city="北京", date="2026-03-05")]


def openai(call_id, arguments='{"city": "北京", "date": "明天"}'):
    return json.dumps([{"id": call_id, "type": "function",
                        "function": {"name": "get_weather", "arguments": arguments}}])


def outputs():
    """Nine raw texts, three readings: the gold call (five spellings), another city, no call."""
    said = {"name": "get_weather", "arguments": {"city": "北京", "date": "明天"}}
    return [openai("call_a"), openai("call_b"), "<tool_call>" + json.dumps(said) + "</tool_call>",
            "```json\n" + json.dumps([said], ensure_ascii=False) + "\n```",
            "好的：\n" + openai("call_c"),
            openai("call_d", '{"city": "上海", "date": "明天"}'), openai("call_e", '{"city": "上海", "date": "明天"}'),
            "抱歉，我无法完成。", "我不知道。"]


@pytest.fixture
def encoded_rows(monkeypatch):
    counted = []
    original = PredictionEncoder.encode_parsed

    def counting(self, g_rows, parsed_rows):
        counted.append(len(parsed_rows))
        return original(self, g_rows, parsed_rows)

    monkeypatch.setattr(PredictionEncoder, "encode_parsed", counting)
    return counted


def score(predictions, gold_rows, **options):
    return pipeline.score_tables(prediction_table(predictions), gold_table(gold_rows), Options(**options)).verdicts


def test_each_reading_is_scored_once(encoded_rows):
    verdicts = score([{"id": "w", "output": text} for text in outputs()], [{"id": "w", "gold_calls": CALLS}])
    assert sum(encoded_rows) == 3
    assert [(row["outcome"], row["subtype"]) for row in verdicts.to_pylist()] == \
        [("correct", None)] * 5 + [("param_error", "incorrect_value")] * 2 + [("miss_recall", "no_call")] * 2


def test_a_reply_checked_for_mentions_is_read_as_text(encoded_rows):
    gold = [{"id": "q", "gold_calls": [], "expect_mentions": json.dumps(["城市"])}]
    verdicts = score([{"id": "q", "output": "请告诉我哪个城市？"}, {"id": "q", "output": "请告诉我哪一天？"}], gold)
    assert sum(encoded_rows) == 2   # no calls either way, but only the first names 城市
    assert [row["decided"] for row in verdicts.to_pylist()] == [True, False]


def test_a_full_memo_keeps_one_generation_and_the_verdicts_stay(monkeypatch, encoded_rows):
    """Three readings, then the first two again in other spellings (so that the verdict memo,
    keyed by the text, does not answer), one row a batch, two readings a generation: the third
    starts a generation, the first is taken back from the one before, the second comes after
    another turn and is scored again. A memo emptied when full scored all five."""
    monkeypatch.setattr(pipeline, "READINGS", 2)
    shanghai = '{"city": "上海", "date": "明天"}'
    texts = [openai("call_a"), openai("call_d", shanghai), "抱歉，我无法完成。", openai("call_b"), openai("call_e", shanghai)]
    predictions = [{"id": "w", "output": text} for text in texts]
    small = score(predictions, [{"id": "w", "gold_calls": CALLS}], batch_size=1)
    assert encoded_rows == [1, 1, 1, 1]   # the fourth row's reading came back from the generation before
    assert [(row["outcome"], row["subtype"]) for row in small.to_pylist()] == [
        ("correct", None), ("param_error", "incorrect_value"), ("miss_recall", "no_call"),
        ("correct", None), ("param_error", "incorrect_value")]
    monkeypatch.setattr(pipeline, "READINGS", 65536)
    assert small.equals(score(predictions, [{"id": "w", "gold_calls": CALLS}], batch_size=1))
    assert REFERENCE.startswith("2026-03-04")   # 明天 is 2026-03-05 in the gold call
