"""Gold rows without a reference_time (and no --reference-time): an absolute date needs no
reference and still compares as a date; a relative one cannot be resolved, so its row is left
undecided with the reason no_reference_time, and the run warns with the count."""

import json

from click.testing import CliRunner

from helpers import REFERENCE, call, verdicts_for
from scorer.cli import cli


def _verdict(gold_date, predicted_date, reference_time=None):
    gold = [{"id": "x", "reference_time": reference_time,
             "gold_calls": [call("get_weather", city="北京", date=gold_date)]}]
    predictions = [{"id": "x", "calls": [call("get_weather", city="北京", date=predicted_date)]}]
    return verdicts_for(gold, predictions)[("m", "x")]


def test_absolute_dates_in_two_notations_are_equal_without_a_reference():
    row = _verdict("2026-03-01", "2026/3/1")
    assert (row["outcome"], row["decided"]) == ("correct", True)
    row = _verdict("2026年3月1日", "2026-03-01")
    assert (row["outcome"], row["decided"]) == ("correct", True)


def test_different_absolute_dates_are_a_decided_temporal_error_without_a_reference():
    row = _verdict("2026-03-01", "2026-03-02")
    assert (row["outcome"], row["subtype"], row["decided"]) == ("param_error", "temporal", True)


def test_a_relative_prediction_without_a_reference_is_undecided():
    row = _verdict("2026-03-05", "明天")
    assert (row["decided"], row["uncertain_reason"]) == (False, "no_reference_time")


def test_a_relative_gold_without_a_reference_is_undecided():
    row = _verdict("明天", "2026-03-05")
    assert (row["decided"], row["uncertain_reason"]) == (False, "no_reference_time")


def test_the_same_relative_words_need_no_reference():
    row = _verdict("明天", "明天")
    assert (row["outcome"], row["decided"]) == ("correct", True)


def test_with_a_reference_the_relative_date_resolves():
    # REFERENCE is Wednesday 2026-03-04: 明天 is 2026-03-05
    row = _verdict("明天", "2026-03-05", reference_time=REFERENCE)
    assert (row["outcome"], row["decided"]) == ("correct", True)


def test_the_run_warns_with_the_count(tmp_path):
    tool = {"name": "get_weather", "parameters": {"type": "object", "properties": {
        "city": {"type": "string"}, "date": {"type": "string", "format": "date"}}}}
    gold_rows = [{"id": str(i), "tools": json.dumps([tool]),
                  "gold_calls": [call("get_weather", city="北京", date=date)]}
                 for i, date in enumerate(["明天", "2026-03-05", "2026-03-06"])]
    predicted = ["2026-03-05", "后天", "2026/3/6"]
    gold = tmp_path / "g.jsonl"
    gold.write_text("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in gold_rows), encoding="utf-8")
    predictions = tmp_path / "p.jsonl"
    predictions.write_text("".join(json.dumps({"id": str(i), "model": "m", "calls": [
        call("get_weather", city="北京", date=date)]}, ensure_ascii=False) + "\n" for i, date in enumerate(predicted)),
        encoding="utf-8")
    result = CliRunner().invoke(cli, [str(predictions), str(gold), "-o", str(tmp_path / "v.jsonl")])
    assert result.exit_code == 0, result.output
    assert "warning: 2 verdict row(s) left undecided (no_reference_time)" in result.output
    assert "note: warning" not in result.output   # a warning, not a note of one
    rows = [json.loads(line) for line in (tmp_path / "v.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [(r["decided"], r["uncertain_reason"]) for r in rows] == [
        (False, "no_reference_time"), (False, "no_reference_time"), (True, None)]
