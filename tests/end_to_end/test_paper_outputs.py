"""Tables, figures, judge round trip and gold lint on the shipped example benchmark."""

import json
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from scorer.cli import cli

EXAMPLES = Path(__file__).resolve().parents[2] / "data" / "examples"


def invoke(*args, code=0):
    result = CliRunner().invoke(cli, [str(a) for a in args])
    assert result.exit_code == code, result.output
    return result


@pytest.fixture(scope="module")
def verdicts(tmp_path_factory):
    path = tmp_path_factory.mktemp("verdicts") / "v.parquet"
    invoke(EXAMPLES / "predictions.parquet", EXAMPLES / "gold.parquet", "-o", path, "-q")
    return path


@pytest.mark.parametrize("fmt, marker", [("md", "| qiming-7b |"), ("latex", "\\toprule")])
def test_table_formats_and_reruns_identical(verdicts, tmp_path, fmt, marker):
    outputs = []
    for run in ("a", "b"):
        out = tmp_path / f"{run}.{fmt}"
        invoke("table", verdicts, "--by", "difficulty", "--format", fmt, "--ci", "0.95", "--bootstrap", "200",
               "--seed", "0", "-o", out)
        outputs.append(out.read_bytes())
    assert outputs[0] == outputs[1]
    assert marker in outputs[0].decode()


def test_reweighting_changes_accuracy_by_stratum_weights(verdicts):
    plain = json.loads(invoke("table", verdicts, "--format", "json").output)
    easy = json.loads(invoke("table", verdicts, "--format", "json",
                             "--reweight", "difficulty=easy:1,medium:0,hard:0").output)
    by_difficulty = json.loads(invoke("table", verdicts, "--format", "json", "--by", "difficulty").output)

    def accuracy(rows, model, difficulty="all"):
        return next(r["accuracy"] for r in rows if r["model"] == model and r.get("difficulty", "all") == difficulty)

    for model in ("qiming-7b", "tianshu-13b", "zhiyuan-72b"):
        assert accuracy(easy, model) == pytest.approx(accuracy(by_difficulty, model, "easy"))
    assert any(accuracy(easy, m) != accuracy(plain, m) for m in ("qiming-7b", "tianshu-13b", "zhiyuan-72b"))


def test_figures(verdicts, tmp_path):
    pytest.importorskip("matplotlib")
    invoke("plot", verdicts, "-o", tmp_path)
    names = sorted(p.name for p in tmp_path.iterdir())
    assert len([n for n in names if n.endswith(".png")]) == 3 and len([n for n in names if n.endswith(".svg")]) == 3


def test_judge_round_trip_with_a_bad_answer(verdicts, tmp_path):
    undecided = sorted((r["model"], r["id"]) for r in pq.read_table(verdicts).to_pylist() if not r["decided"])
    assert len(undecided) == 3
    (first, second, third) = undecided
    judge = tmp_path / "judge.jsonl"
    judge.write_text("\n".join(json.dumps(a, ensure_ascii=False) for a in [
        {"model": first[0], "id": first[1], "outcome": "param_error", "subtype": "incorrect_value",
         "argument": "title", "reason": "a different value"},
        {"model": second[0], "id": second[1], "outcome": "correct", "subtype": None, "reason": "same request"},
        {"model": third[0], "id": third[1], "outcome": "wonderful", "subtype": None},
    ]) + "\n", encoding="utf-8")
    out = tmp_path / "judged.parquet"
    result = invoke("merge-judge", verdicts, judge, "-o", out)
    assert "line 3" in result.output
    rows = {(r["model"], r["id"]): r for r in pq.read_table(out).to_pylist()}
    assert (rows[first]["outcome"], rows[first]["decided_by"]) == ("param_error", "judge")
    assert (rows[second]["outcome"], rows[second]["decided_by"]) == ("correct", "judge")
    assert rows[third]["decided"] is False  # the bad answer left it undecided
    assert rows[("zhiyuan-72b", "ex-001")]["decided_by"] == "rules"


def test_audit_on_decided_rows(verdicts, tmp_path):
    rows = [r for r in pq.read_table(verdicts).to_pylist() if r["decided"]][:40]
    answers = [{"model": r["model"], "id": r["id"], "outcome": r["outcome"], "subtype": r["subtype"]} for r in rows]
    answers[0] = dict(answers[0], outcome="correct" if answers[0]["outcome"] != "correct" else "param_error",
                      subtype=None if answers[0]["outcome"] != "correct" else "incorrect_value")
    judge = tmp_path / "sample.jsonl"
    judge.write_text("\n".join(json.dumps(a, ensure_ascii=False) for a in answers) + "\n", encoding="utf-8")
    report = json.loads(invoke("audit", verdicts, judge, "--format", "json").output)
    text = json.dumps(report)
    assert "kappa" in text and "0.975" in text  # 39 of 40 agree


def test_lint_example_gold_is_clean():
    result = invoke("lint", EXAMPLES / "gold.jsonl")
    assert "160 rows, 0 finding(s); gold against itself: 160/160 correct" in result.output


def test_lint_names_problems(tmp_path):
    tools = json.dumps([{"name": "f", "parameters": {"type": "object", "properties": {
        "x": {"type": "integer"}, "day": {"type": "string", "format": "date"}}, "required": ["x"]}}])
    rows = [
        {"id": "1", "gold_calls": [{"name": "g", "arguments": {}}], "tools": tools},
        {"id": "2", "gold_calls": [{"name": "f", "arguments": {"x": "three", "y": 1}}], "tools": tools},
        {"id": "3", "gold_calls": [{"name": "f", "arguments": {"day": "someday"}}], "tools": tools,
         "reference_time": "2026-03-04T10:00:00+08:00"},
        {"id": "4", "gold_calls": []},
        {"id": "5", "gold_calls": [{"name": "f", "arguments": {"x": 1}}], "tools": tools, "query": "q"},
        {"id": "6", "gold_calls": [{"name": "f", "arguments": {"x": 2}}], "tools": tools, "query": "q"},
        {"id": "7", "gold_calls": [{"name": "f", "arguments": {"x": 1}}], "tools": tools, "query": "q",
         "reference_time": "2026-05-01T09:00:00+08:00"},
    ]
    gold = tmp_path / "g.jsonl"
    gold.write_text("".join(json.dumps(r) + "\n" for r in rows))
    output = invoke("lint", gold, code=1).output
    for expected in ("row 1 (id 1), field gold_calls: g: tool not offered",
                     "row 2 (id 2), field gold_calls: f.x: 'three' is not of type integer",
                     "row 2 (id 2), field gold_calls: f.y: not defined by the tool's schema",
                     "row 3 (id 3), field gold_calls: f: required argument x missing",
                     "row 3 (id 3), field gold_calls: f.day: temporal value 'someday' does not resolve",
                     "row 4 (id 4), field negative_type: a row needing no call has no negative_type",
                     "row 6 (id 6), field gold_calls: conflicts with 5: same query and reference time, other gold",
                     "row 7 (id 7), field query: duplicate of 5: same query, same gold"):
        assert expected in output


def test_a_stratum_with_no_rows_is_named_and_its_weight_spread(verdicts):
    with_empty = invoke("table", verdicts, "--format", "json", "--reweight", "difficulty=easy:0.5,expert:0.5")
    assert "difficulty=expert has no rows" in with_empty.output
    easy_only = invoke("table", verdicts, "--format", "json", "--reweight", "difficulty=easy:1")
    table = with_empty.output[with_empty.output.index("["):]
    assert json.loads(table) == json.loads(easy_only.output)
