"""Dialogues scored turn by turn: buckets, carry-over, dropped turns, dialogue verdicts, pass^k.
Expected values are written from the rules in scorer/dialogue.py's docstring, by hand."""

import json

import pyarrow as pa
import pytest

from scorer import dialogue

TOOLS = [{"name": "get_weather", "parameters": {"type": "object", "properties": {
             "city": {"type": "string"}, "date": {"type": "string", "format": "date"}}, "required": ["city"]}},
         {"name": "get_air_quality", "parameters": {"type": "object", "properties": {
             "city": {"type": "string"}, "date": {"type": "string", "format": "date"}}, "required": ["city"]}}]
GOLD = {"id": "d1", "tools": TOOLS, "reference_time": "2026-03-01T10:00:00+08:00", "domain": "weather", "turns": [
    {"query": "明天北京天气", "gold_calls": [{"name": "get_weather", "arguments": {"city": "北京", "date": "2026-03-02"}}]},
    {"query": "空气呢", "gold_calls": [{"name": "get_air_quality", "arguments": {"city": "北京", "date": "2026-03-02"}}]},
    {"query": "上海呢", "gold_calls": [{"name": "get_air_quality", "arguments": {"city": "上海", "date": "2026-03-02"}}]},
    {"query": "谢谢", "gold_calls": [], "negative_type": "no_tool"}]}


def weather(city, date="2026-03-02", tool="get_air_quality"):
    return [{"name": tool, "arguments": {"city": city, "date": date}}]


def write_jsonl(path, rows):
    path.write_text("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows), encoding="utf-8")
    return path


def scored(tmp_path, predictions, keep=()):
    gold = dialogue.read_dialogue_gold(write_jsonl(tmp_path / "gold.jsonl", [GOLD]))
    predicted = dialogue.read_dialogue_predictions(write_jsonl(tmp_path / "pred.jsonl", predictions), gold, keep)
    from scorer.options import Options

    return dialogue.score_dialogue_tables(predicted, gold, Options(keep=keep), carried=("domain",))


def by_turn(result, model):
    return {row["turn"]: row for row in result.turns.to_pylist() if row["model"] == model}


def test_bucket_labels_sort_in_length_order():
    assert dialogue.bucket_labels() == ["01–05", "06–10", "11–20", "21–40", ">40"]
    assert [dialogue.bucket_of(n) for n in (1, 5, 6, 10, 11, 40, 41, 300)] == [
        "01–05", "01–05", "06–10", "06–10", "11–20", "21–40", ">40", ">40"]
    assert dialogue.bucket_labels((3, 100)) == ["001–003", "004–100", ">100"]
    assert dialogue.parse_bounds("2,4") == (2, 4)
    for bad in ("4,2", "0,3", "a", ""):
        with pytest.raises(ValueError):
            dialogue.parse_bounds(bad)


def test_gold_flattened_to_turn_rows(tmp_path):
    gold = dialogue.read_dialogue_gold(write_jsonl(tmp_path / "gold.jsonl", [GOLD]))
    assert gold.column("id").to_pylist() == ["d1#1", "d1#2", "d1#3", "d1#4"]
    assert gold.column("turn").to_pylist() == [1, 2, 3, 4]
    assert gold.column("dialogue_turns").to_pylist() == [4] * 4
    assert gold.column("turns").to_pylist() == ["01–05"] * 4
    assert gold.column("negative_type").to_pylist() == [None, None, None, "no_tool"]


def test_changed_and_dropped_carried_slots_name_the_turn_that_gave_them(tmp_path):
    result = scored(tmp_path, [
        {"id": "d1", "model": "changes", "turns": [
            {"calls": weather("北京", tool="get_weather")}, {"calls": weather("广州")}, {"calls": weather("上海")},
            {"output": "不客气"}]},
        {"id": "d1", "model": "drops", "turns": [
            {"calls": weather("北京", tool="get_weather")},
            {"calls": [{"name": "get_air_quality", "arguments": {"date": "2026-03-02"}}]},
            {"calls": weather("广州")}, {"output": "不客气"}]},
    ])
    changes, drops = by_turn(result, "changes"), by_turn(result, "drops")
    assert (changes[2]["subtype"], changes[2]["argument"], changes[2]["carried_from_turn"]) == (
        "incorrect_value", "city", 1)
    assert (drops[2]["subtype"], drops[2]["argument"], drops[2]["carried_from_turn"]) == ("missing_arg", "city", 1)
    # 上海 is new at turn 3: a wrong city there is an ordinary incorrect value
    assert (drops[3]["subtype"], drops[3]["carried_from_turn"]) == ("incorrect_value", None)
    dialogues = {row["model"]: row for row in result.dialogues.to_pylist()}
    assert {k: dialogues["changes"][k] for k in ("outcome", "subtype", "turns_correct", "process_accuracy",
                                                 "first_failing_turn", "carried_from_turn", "domain")} == {
        "outcome": "param_error", "subtype": "incorrect_value", "turns_correct": 3, "process_accuracy": 0.75,
        "first_failing_turn": 2, "carried_from_turn": 1, "domain": "weather"}
    assert dialogues["drops"]["turns_correct"] == 2 and dialogues["drops"]["process_accuracy"] == 0.5


def test_a_dropped_turn_is_scored_as_missing(tmp_path):
    result = scored(tmp_path, [{"id": "d1", "model": "m", "turns": [
        {"calls": weather("北京", tool="get_weather")}, {"calls": weather("北京")}]}])
    turns = by_turn(result, "m")
    assert (turns[3]["outcome"], turns[3]["subtype"], turns[3]["missing_prediction"]) == ("miss_recall", "no_call", True)
    assert (turns[4]["outcome"], turns[4]["missing_prediction"]) == ("correct", True)  # no call was due
    assert not turns[2]["missing_prediction"]
    only = result.dialogues.to_pylist()[0]
    assert (only["outcome"], only["first_failing_turn"], only["missing_prediction"]) == ("miss_recall", 3, False)


def test_gold_against_itself_is_all_correct(tmp_path):
    result = scored(tmp_path, [{"id": "d1", "model": "gold", "turns": [t["gold_calls"] for t in GOLD["turns"]]}])
    assert set(result.turns.column("outcome").to_pylist()) == {"correct"}
    summary = result.summary()[0]
    assert (summary["turn_accuracy"], summary["dialogue_accuracy"], summary["process_accuracy"]) == (1.0, 1.0, 1.0)


def test_samples_give_pass_hat_k_and_pass_at_k(tmp_path):
    right = [weather("北京", tool="get_weather"), weather("北京"), weather("上海"), []]
    wrong = [weather("北京", tool="get_weather"), weather("广州"), weather("上海"), []]
    result = scored(tmp_path, [{"id": "d1", "model": "m", "sample": s, "turns": turns}
                               for s, turns in enumerate([right, wrong, right])], keep=("sample",))
    assert result.dialogues.num_rows == 3
    rows = dialogue.pass_k_rows(result.dialogues, "sample")
    # 3 samples, 2 correct: pass^1 = 2/3, pass^2 = C(2,2)/C(3,2) = 1/3, pass^3 = 0;
    # pass@1 = 2/3, pass@2 = 1 - C(1,2)/C(3,2) = 1, pass@3 = 1
    assert [(r["group"], round(r["pass^k"], 6), round(r["pass@k"], 6)) for r in rows] == [
        ("k=1", 0.666667, 0.666667), ("k=2", 0.333333, 1.0), ("k=3", 0.0, 1.0)]
    assert result.summary("sample")[-3:] == rows


def test_flat_turn_gold_needs_dialogue_columns(tmp_path):
    from scorer.errors import InputError

    path = write_jsonl(tmp_path / "flat.jsonl", [{"id": "a", "gold_calls": []}])
    with pytest.raises(InputError, match="dialogue_id"):
        dialogue.read_dialogue_gold(path)
    flat = write_jsonl(tmp_path / "flat2.jsonl", [
        {"id": "x1", "dialogue_id": "x", "turn": 1, "gold_calls": []},
        {"id": "x2", "dialogue_id": "x", "turn": 2, "gold_calls": []}])
    gold = dialogue.read_dialogue_gold(flat)
    assert gold.column("dialogue_turns").to_pylist() == [2, 2]
    assert pa.types.is_int64(gold.schema.field("turn").type)


def test_bad_turns_are_malformed_verdicts_and_unreadable_lines_are_reported(tmp_path):
    from scorer import load

    gold = dialogue.read_dialogue_gold(write_jsonl(tmp_path / "gold.jsonl", [GOLD]))
    path = tmp_path / "pred.jsonl"
    path.write_text("\n".join([
        json.dumps({"id": "d1", "model": "a", "turns": [42, {"calls": "not json"}, {"output": "[get_weather(city='北京'"}]}),
        json.dumps({"id": "d1", "model": "b", "turns": "oops"}),
        "{not json",
        json.dumps({"model": "c", "turns": []}),
    ]) + "\n", encoding="utf-8")
    unreadable = load.Unreadable()
    predicted = dialogue.read_dialogue_predictions(path, gold, unreadable=unreadable)
    assert [number for number, _reason in unreadable.lines] == [3, 4]
    result = dialogue.score_dialogue_tables(predicted, gold)
    a, b = by_turn(result, "a"), by_turn(result, "b")
    assert [a[t]["subtype"] for t in (1, 2, 3)] == ["malformed"] * 3
    assert (a[4]["outcome"], a[4]["missing_prediction"]) == ("correct", True)
    assert [b[t]["subtype"] for t in (1, 2, 3)] == ["malformed"] * 3
    assert b[4]["outcome"] == "over_recall"  # a malformed output on a turn needing no call: it tried to call
    from scorer.errors import InputError

    with pytest.raises(InputError, match="row 3"):
        dialogue.read_dialogue_predictions(path, gold)


def test_flat_turn_rows_in_parquet_score_like_nested_ones(tmp_path):
    import pyarrow.parquet as pq

    from scorer.tables import CALLS

    nested = [{"id": "d1", "model": "m", "turns": [weather("北京", tool="get_weather"), weather("广州")]}]
    expected = scored(tmp_path, nested).turns
    gold = dialogue.read_dialogue_gold(tmp_path / "gold.jsonl")
    calls = [[{"name": c["name"], "arguments": json.dumps(c["arguments"], ensure_ascii=False)} for c in turn]
             for turn in nested[0]["turns"]]
    flat = tmp_path / "flat.parquet"
    pq.write_table(pa.table({"id": ["d1#1", "d1#2"], "model": ["m", "m"], "calls": pa.array(calls, CALLS)}), flat)
    got = dialogue.score_dialogue_tables(dialogue.read_dialogue_predictions(flat, gold), gold, carried=("domain",)).turns
    columns = ["model", "id", "outcome", "subtype", "carried_from_turn", "missing_prediction"]
    assert got.select(columns).to_pylist() == expected.select(columns).to_pylist()
