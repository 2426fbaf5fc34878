"""What `score dialogue` counts and says: agent tasks with no prediction stay in the
denominator, undecided turns are shown and exported for a judge, repeated (model, id) rows
follow --on-duplicate, one bad agent row is that task's malformed verdict, and predictions
that match no gold turn are warned about. Expected values are written from the rules by hand."""

import copy
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from scorer.cli import cli

FIXTURES = Path(__file__).resolve().parents[1] / "data" / "acebench"
AGENT_GOLD = FIXTURES / "data_zh" / "data_agent_multi_step.json"   # two tasks: agent_multi_step_0 and _6


def write_jsonl(path, rows):
    path.write_text("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows), encoding="utf-8")
    return path


def run(*args):
    return CliRunner().invoke(cli, ["dialogue", *map(str, args)])


def summary_of(tmp_path, *args):
    """(summary rows by model and group, the command's output)."""
    summary = tmp_path / "summary.json"
    result = run(*args, "--summary", summary)
    assert result.exit_code == 0, result.output
    return {(row["model"], row.get("group")): row for row in json.loads(summary.read_text())}, result.output


# ------------------------------------------------------------------------------ agent tasks

def agent_predictions(tmp_path, ids=None, edit=None):
    """Predictions equal to the answers (end state and first milestone list) of the tasks in `ids`."""
    rows = []
    for answer in map(json.loads, (AGENT_GOLD.parent / "possible_answer" / AGENT_GOLD.name).read_text(
            encoding="utf-8").splitlines()):
        if ids is not None and answer["id"] not in ids:
            continue
        stones = answer["mile_stone"]
        row = {"id": answer["id"], "model": "m", "result": copy.deepcopy(answer["ground_truth"]),
               "process": stones[0] if stones and isinstance(stones[0], list) else list(stones)}
        rows.append(edit(row) if edit else row)
    return write_jsonl(tmp_path / "agent_predictions.jsonl", rows)


def test_an_agent_task_without_prediction_is_a_failure_in_the_denominator(tmp_path):
    predictions = agent_predictions(tmp_path, ids={"agent_multi_step_0"})
    rows, output = summary_of(tmp_path, predictions, AGENT_GOLD, "--dialogues", tmp_path / "tasks.jsonl")
    assert (rows["m", None]["tasks"], rows["m", None]["end_state_accuracy"], rows["m", None]["missing"]) == (2, 0.5, 1)
    assert "1 task(s) had no prediction for a model" in output
    tasks = {row["id"]: row for row in map(json.loads, (tmp_path / "tasks.jsonl").read_text().splitlines())}
    unpredicted = tasks["agent_multi_step_6"]   # nothing called, no end state: the first milestone is missed
    assert (unpredicted["missing_prediction"], unpredicted["outcome"], unpredicted["subtype"]) == \
        (True, "miss_recall", "no_call")
    assert tasks["agent_multi_step_0"]["missing_prediction"] is False


def test_a_bad_agent_result_is_that_tasks_malformed_verdict_not_the_end_of_the_run(tmp_path):
    def unreadable_first(row):
        if row["id"] == "agent_multi_step_0":
            row["result"] = "the end state"
        return row

    predictions = agent_predictions(tmp_path, edit=unreadable_first)
    rows, output = summary_of(tmp_path, predictions, AGENT_GOLD, "--dialogues", tmp_path / "tasks.jsonl")
    assert f"{predictions} row 1, field result: expected {{class: state}} objects (scored as malformed)" in output
    assert (rows["m", None]["tasks"], rows["m", None]["end_state_accuracy"]) == (2, 0.5)
    tasks = {row["id"]: row for row in map(json.loads, (tmp_path / "tasks.jsonl").read_text().splitlines())}
    assert (tasks["agent_multi_step_0"]["outcome"], tasks["agent_multi_step_0"]["subtype"]) == \
        ("miss_recall", "malformed")
    assert tasks["agent_multi_step_6"]["outcome"] == "correct"


def test_an_agent_row_without_an_id_is_named_and_skipped_not_the_end_of_the_run(tmp_path):
    def without_id(row):
        if row["id"] == "agent_multi_step_0":
            del row["id"]
        return row

    predictions = agent_predictions(tmp_path, edit=without_id)
    rows, output = summary_of(tmp_path, predictions, AGENT_GOLD, "--dialogues", tmp_path / "tasks.jsonl")
    assert f"{predictions} row 1, field id: missing field (prediction skipped)" in output
    # the row names no task: agent_multi_step_0 has no prediction (a failure), _6 is right
    assert (rows["m", None]["tasks"], rows["m", None]["end_state_accuracy"], rows["m", None]["missing"]) == (2, 0.5, 1)


def test_repeated_agent_rows_are_noted_and_follow_on_duplicate(tmp_path):
    predictions = agent_predictions(tmp_path)
    write_jsonl(predictions, [*map(json.loads, predictions.read_text(encoding="utf-8").splitlines())] * 2)
    rows, output = summary_of(tmp_path, predictions, AGENT_GOLD)
    assert rows["m", None]["tasks"] == 4 and "2 repeated (model, id) prediction(s)" in output
    rows, output = summary_of(tmp_path, predictions, AGENT_GOLD, "--on-duplicate", "first")
    assert rows["m", None]["tasks"] == 2 and "the first of each kept" in output
    refused = run(predictions, AGENT_GOLD, "--on-duplicate", "error")
    assert refused.exit_code == 2 and "row 3, field id" in refused.output


# ------------------------------------------------------------------------------ dialogues

PLAY = [{"name": "play", "parameters": {"type": "object", "properties": {"song": {"type": "string"}}}}]
GOLD = {"id": "d1", "tools": PLAY, "turns": [
    {"query": "放稻香", "gold_calls": [{"name": "play", "arguments": {"song": "稻香"}}]},
    {"query": "再放晴天", "gold_calls": [{"name": "play", "arguments": {"song": "晴天"}}]}]}


def played(*songs):
    return {"id": "d1", "model": "m", "turns": [[{"name": "play", "arguments": {"song": song}}] for song in songs]}


def test_undecided_turns_are_shown_counted_for_a_judge_and_exported(tmp_path):
    gold = write_jsonl(tmp_path / "gold.jsonl", [GOLD])
    predictions = write_jsonl(tmp_path / "pred.jsonl", [played("稻香现场", "晴天")])   # 稻香现场: the fuzzy band
    rows, output = summary_of(tmp_path, predictions, gold)
    assert (rows["m", "all"]["decided"], rows["m", "all"]["dialogues_decided"]) == (0.5, 0.0)
    assert "1 undecided row(s) would go to a judge (--undecided FILE writes them" in output
    undecided = tmp_path / "undecided.jsonl"
    _rows, output = summary_of(tmp_path, predictions, gold, "--undecided", undecided)
    records = [json.loads(line) for line in undecided.read_text(encoding="utf-8").splitlines()]
    assert [(r["id"], r["query"], r["predicted_calls"][0]["arguments"]["song"]) for r in records] == \
        [("d1#1", "放稻香", "稻香现场")]
    assert f"written to {undecided}" in output


def test_undecided_is_refused_where_nothing_is_scored_turn_by_turn(tmp_path):
    result = run(agent_predictions(tmp_path), AGENT_GOLD, "--undecided", tmp_path / "u.jsonl")
    assert result.exit_code == 2 and "are not scored turn by turn" in result.output


def test_a_repeated_dialogue_is_noted_and_follows_on_duplicate(tmp_path):
    gold = write_jsonl(tmp_path / "gold.jsonl", [GOLD])
    predictions = write_jsonl(tmp_path / "pred.jsonl", [played("稻香", "晴天"), played("稻香", "七里香")])
    _rows, output = summary_of(tmp_path, predictions, gold)
    assert "2 repeated (model, id) prediction(s) (first: m/d1#1, m/d1#2)" in output
    rows, _output = summary_of(tmp_path, predictions, gold, "--on-duplicate", "first")
    assert (rows["m", "all"]["turns"], rows["m", "all"]["dialogues"], rows["m", "all"]["dialogue_accuracy"]) == \
        (2, 1, 1.0)
    rows, _output = summary_of(tmp_path, predictions, gold, "--on-duplicate", "last")
    assert (rows["m", "all"]["turns"], rows["m", "all"]["turn_accuracy"], rows["m", "all"]["dialogue_accuracy"]) == \
        (2, 0.5, 0.0)


@pytest.mark.parametrize("predicted_ids", [["d1-1", "d1-2"], ["other#1"]])
def test_predictions_that_match_no_gold_turn_are_warned_about(tmp_path, predicted_ids):
    gold = write_jsonl(tmp_path / "gold.jsonl", [GOLD])
    predictions = write_jsonl(tmp_path / "pred.jsonl", [
        {"id": identifier, "model": "m", "calls": [{"name": "play", "arguments": {"song": "稻香"}}]}
        for identifier in predicted_ids])
    rows, output = summary_of(tmp_path, predictions, gold)
    assert rows["m", "all"]["turn_accuracy"] == 0.0
    assert f"no prediction matches a gold turn id (gold: d1#1, ...; predictions: {predicted_ids[0]}, ...)" in output
