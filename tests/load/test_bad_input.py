"""Bad input: a clear error naming file, row and field, exit status 2, nothing half written;
a bad prediction is that row's verdict and the run goes on."""

import json

import pytest
from click.testing import CliRunner

from scorer.cli import cli

GOLD = [{"id": "a", "gold_calls": [{"name": "f", "arguments": {"x": 1}}]},
        {"id": "b", "gold_calls": []}]


def write_jsonl(path, rows):
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return path


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


@pytest.fixture
def gold(tmp_path):
    return write_jsonl(tmp_path / "gold.jsonl", GOLD)


@pytest.fixture
def preds(tmp_path):
    return write_jsonl(tmp_path / "preds.jsonl", [{"id": "a", "calls": [{"name": "f", "arguments": {"x": 1}}]}])


def test_missing_file(tmp_path, gold):
    result = run(tmp_path / "nope.jsonl", gold)
    assert result.exit_code == 2
    assert f"Error: {tmp_path / 'nope.jsonl'}: no such file" in result.output


def test_unknown_extension(tmp_path, gold):
    (tmp_path / "p.csv").write_text("id\n")
    result = run(tmp_path / "p.csv", gold)
    assert result.exit_code == 2 and "unknown extension '.csv'" in result.output


@pytest.mark.parametrize("column", ["id", "gold_calls"])
def test_missing_gold_column(tmp_path, preds, column):
    rows = [{k: v for k, v in row.items() if k != column} for row in GOLD]
    bad = write_jsonl(tmp_path / "g.jsonl", rows)
    result = run(preds, bad)
    assert result.exit_code == 2 and f"field {column}: missing column" in result.output


def test_duplicate_gold_ids_are_named(tmp_path, preds):
    bad = write_jsonl(tmp_path / "g.jsonl", GOLD + [GOLD[0]])
    result = run(preds, bad)
    assert result.exit_code == 2 and "duplicate ids: a" in result.output


def test_gold_calls_not_json_names_row_and_field(tmp_path, preds):
    bad = write_jsonl(tmp_path / "g.jsonl", [GOLD[0], {"id": "b", "gold_calls": "[{\"name\": "}])
    out = tmp_path / "v.parquet"
    result = run(preds, bad, "-o", out)
    assert result.exit_code == 2
    assert "g.jsonl row 2, field gold_calls:" in result.output
    assert not out.exists() and not list(tmp_path.glob(".v.parquet*"))


def test_bad_reference_time_names_field(tmp_path, preds):
    bad = write_jsonl(tmp_path / "g.jsonl", [dict(GOLD[0], reference_time="next tuesday")])
    result = run(preds, bad)
    assert result.exit_code == 2 and "row 1, field reference_time" in result.output


def test_malformed_prediction_is_a_verdict_and_the_run_goes_on(tmp_path, gold):
    rows = [{"id": "a", "calls": "[{\"name\": \"f\", \"arguments\": "}, {"id": "b", "output": "no call needed"}]
    preds = write_jsonl(tmp_path / "p.jsonl", rows)
    (tmp_path / "p.jsonl").write_text(preds.read_text() + "this line is not json\n")
    out = tmp_path / "v.jsonl"
    result = run(preds, gold, "-o", out)
    assert result.exit_code == 0, result.output
    verdicts = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(v["id"], v["outcome"], v["subtype"]) for v in verdicts] == [
        ("a", "miss_recall", "malformed"), ("b", "correct", None)]
    assert "prediction line 3 unreadable" in result.output


def test_unknown_prediction_ids_are_reported(tmp_path, gold):
    preds = write_jsonl(tmp_path / "p.jsonl", [{"id": "zz", "output": ""}, {"id": "a", "output": ""}])
    result = run(preds, gold)
    assert result.exit_code == 0
    assert "1 prediction(s) with an id not in gold skipped (first: zz)" in result.output
    assert "1 gold id(s) had no prediction" in result.output


def test_reader_marked_malformed_rows_become_malformed_verdicts():
    from helpers import call, gold_table
    import pyarrow as pa
    from scorer.pipeline import score_tables

    predictions = pa.table({"id": ["x"], "model": ["m"], "calls": pa.nulls(1, pa.string()),
                            "output": pa.nulls(1, pa.string()), "malformed": ["arguments are not JSON"]})
    verdict = score_tables(predictions, gold_table([{"id": "x", "gold_calls": [call("get_weather", city="北京")]}])
                           ).verdicts.to_pylist()[0]
    assert (verdict["outcome"], verdict["subtype"]) == ("miss_recall", "malformed")
    assert "arguments are not JSON" in verdict["detail"]
