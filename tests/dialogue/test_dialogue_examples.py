"""The example multi-turn benchmark: the scorer reproduces the verdicts each prediction was
built to get (data/examples/build_dialogues.py writes them from the rules, not the scorer)."""

import json
from pathlib import Path

import pyarrow.parquet as pq
from click.testing import CliRunner

from scorer.cli import cli

EXAMPLES = Path(__file__).resolve().parents[2] / "data" / "examples"
GOLD = EXAMPLES / "dialogue_gold.jsonl"
PREDICTIONS = EXAMPLES / "dialogue_predictions.jsonl"


def read_jsonl(path):
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def run(tmp_path, *extra):
    turns, dialogues = tmp_path / "turns.parquet", tmp_path / "dialogues.parquet"
    result = CliRunner().invoke(cli, ["dialogue", str(PREDICTIONS), str(GOLD), "-o", str(turns),
                                      "--dialogues", str(dialogues), *extra])
    assert result.exit_code == 0, result.output
    return result, turns, dialogues


def test_the_benchmark_has_what_the_issue_asks_for():
    gold = read_jsonl(GOLD)
    assert len(gold) >= 40 and all(2 <= len(d["turns"]) <= 12 for d in gold)
    turns = [t for d in gold for t in d["turns"]]
    assert any(not t["gold_calls"] for t in turns)                       # no-call turns
    assert any("不对" in t["query"] or "改成" in t["query"] for t in turns)  # corrections
    assert len({m["model"] for m in read_jsonl(PREDICTIONS)}) == 3


def test_turn_and_dialogue_verdicts_are_the_intended_ones(tmp_path):
    _result, turns, dialogues = run(tmp_path)
    got = {(r["model"], r["id"]): r for r in pq.read_table(turns).to_pylist()}
    intended = read_jsonl(EXAMPLES / "dialogue_intended_turns.jsonl")
    assert len(got) == len(intended)
    for want in intended:
        row = got[(want["model"], want["id"])]
        assert row["decided"], want
        assert {k: row[k] for k in ("outcome", "subtype", "carried_from_turn", "missing_prediction")} == {
            k: want[k] for k in ("outcome", "subtype", "carried_from_turn", "missing_prediction")}, want
    assert any(w["carried_from_turn"] for w in intended) and any(w["missing_prediction"] for w in intended)
    got = {(r["model"], r["id"]): r for r in pq.read_table(dialogues).to_pylist()}
    for want in read_jsonl(EXAMPLES / "dialogue_intended_dialogues.jsonl"):
        row = got[(want["model"], want["id"])]
        assert {k: row[k] for k in want} == want


def test_reruns_are_byte_identical_and_tables_read_the_dialogue_file(tmp_path):
    _result, turns, dialogues = run(tmp_path)
    first = (turns.read_bytes(), dialogues.read_bytes())
    _result, turns, dialogues = run(tmp_path)
    assert (turns.read_bytes(), dialogues.read_bytes()) == first
    table = CliRunner().invoke(cli, ["table", str(dialogues), "--by", "turns", "--format", "csv"])
    assert table.exit_code == 0, table.output
    assert "zhiyuan-72b,01–05," in table.output and "zhiyuan-72b,06–10," in table.output


def test_summary_has_length_buckets_and_turn_positions(tmp_path):
    result, _turns, _dialogues = run(tmp_path, "--summary", str(tmp_path / "summary.json"))
    rows = json.loads((tmp_path / "summary.json").read_text())
    groups = {row["group"] for row in rows}
    assert {"all", "turns=01–05", "turns=06–10", "turn=1", "turn=12"} <= groups
    assert "dialogue_accuracy" in result.output


def test_repeated_samples_give_the_intended_dialogue_verdicts_and_pass_k(tmp_path):
    from math import comb

    dialogues, summary = tmp_path / "dialogues.jsonl", tmp_path / "summary.json"
    result = CliRunner().invoke(cli, ["dialogue", str(EXAMPLES / "dialogue_samples.jsonl"), str(GOLD), "--keep",
                                      "sample", "--dialogues", str(dialogues), "--summary", str(summary)])
    assert result.exit_code == 0, result.output
    got = {(r["model"], r["sample"], r["id"]): r for r in read_jsonl(dialogues)}
    intended = read_jsonl(EXAMPLES / "dialogue_intended_samples.jsonl")
    assert len(got) == len(intended)
    successes = {}
    for want in intended:
        row = got[(want["model"], want["sample"], want["id"])]
        assert {k: row[k] for k in want} == want
        key = (want["model"], want["id"])
        successes[key] = successes.get(key, 0) + (want["outcome"] == "correct")
    rows = {(r["model"], r["group"]): r for r in json.loads(summary.read_text()) if "pass^k" in r}
    for model in {m for m, _ in successes}:
        counts = [c for (m, _), c in successes.items() if m == model]
        for k in range(1, 5):  # four samples of every dialogue
            hat = sum(comb(c, k) / comb(4, k) for c in counts) / len(counts)
            at = sum(1 - comb(4 - c, k) / comb(4, k) for c in counts) / len(counts)
            row = rows[(model, f"k={k}")]
            assert round(row["pass^k"], 6) == round(hat, 6) and round(row["pass@k"], 6) == round(at, 6)


def test_the_builder_reproduces_the_committed_files(tmp_path):
    import importlib.util

    spec = importlib.util.spec_from_file_location("build_dialogues", EXAMPLES / "build_dialogues.py")
    builder = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(builder)
    builder.main(tmp_path)
    written = sorted(p.name for p in tmp_path.iterdir())
    assert written == sorted(p.name for p in EXAMPLES.glob("dialogue_*.jsonl"))
    for name in written:
        assert (tmp_path / name).read_bytes() == (EXAMPLES / name).read_bytes(), name


def test_agent_files_through_the_command(tmp_path):
    acebench = Path(__file__).resolve().parents[1] / "data" / "acebench" / "data_zh"
    answer = read_jsonl(acebench / "possible_answer" / "data_agent_multi_turn.json")[0]
    predictions = tmp_path / "agent.jsonl"
    predictions.write_text(json.dumps({"id": answer["id"], "model": "m", "result": answer["ground_truth"],
                                       "process": answer["mile_stone"]}, ensure_ascii=False) + "\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["dialogue", str(predictions), str(acebench / "data_agent_multi_turn.json"),
                                      "-o", str(tmp_path / "agent.parquet")])
    assert result.exit_code == 0, result.output
    row = pq.read_table(tmp_path / "agent.parquet").to_pylist()[0]
    assert (row["outcome"], row["end_state_correct"], row["process_accuracy"]) == ("correct", True, 1.0)
    assert "end_state_accuracy" in result.output


def test_table_pass_k_matches_the_summary(tmp_path):
    dialogues, summary = tmp_path / "dialogues.parquet", tmp_path / "summary.json"
    result = CliRunner().invoke(cli, ["dialogue", str(EXAMPLES / "dialogue_samples.jsonl"), str(GOLD), "--keep",
                                      "sample", "--dialogues", str(dialogues), "--summary", str(summary), "-q"])
    assert result.exit_code == 0, result.output
    table = CliRunner().invoke(cli, ["table", str(dialogues), "--pass-k", "sample", "--format", "json"])
    assert table.exit_code == 0, table.output
    expected = [r for r in json.loads(summary.read_text()) if r.get("pass^k") is not None]
    assert [{k: v for k, v in r.items() if v is not None} for r in json.loads(table.output)] == [
        {k: v for k, v in r.items() if v is not None} for r in expected]
    missing = CliRunner().invoke(cli, ["table", str(dialogues), "--pass-k", "seed"])
    assert missing.exit_code == 2 and "seed" in missing.output
