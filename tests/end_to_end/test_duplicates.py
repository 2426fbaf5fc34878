"""Repeated (model, id) predictions without a sample column: counted and named in a note, and
--on-duplicate keeps all (default), the first, the last, or stops naming the row."""

import json

import pytest
from click.testing import CliRunner

from scorer.cli import cli

GOLD = [{"id": str(i), "gold_calls": [{"name": "f", "arguments": {"x": i}}]} for i in range(3)]
PREDICTIONS = [  # m/0 first wrong then right; m/1 first right then empty
    {"id": "0", "model": "m", "calls": [{"name": "f", "arguments": {"x": 9}}]},
    {"id": "1", "model": "m", "calls": [{"name": "f", "arguments": {"x": 1}}]},
    {"id": "0", "model": "m", "calls": [{"name": "f", "arguments": {"x": 0}}]},
    {"id": "2", "model": "m", "calls": [{"name": "f", "arguments": {"x": 2}}], "sample": 0},
    {"id": "1", "model": "m", "calls": [], "sample": 1},
]


def _run(tmp_path, *options):
    gold, predictions, out = tmp_path / "g.jsonl", tmp_path / "p.jsonl", tmp_path / "v.jsonl"
    gold.write_text("".join(json.dumps(r) + "\n" for r in GOLD))
    predictions.write_text("".join(json.dumps(r) + "\n" for r in PREDICTIONS))
    out.unlink(missing_ok=True)
    result = CliRunner().invoke(cli, [str(predictions), str(gold), "-o", str(out), *options])
    rows = [json.loads(line) for line in out.read_text().splitlines()] if out.exists() else None
    return result, rows and [(r["id"], r["outcome"]) for r in rows]


@pytest.mark.parametrize("batch_size", ["1", "2", "100"])
def test_by_default_all_are_kept_and_the_repeats_named(tmp_path, batch_size):
    result, rows = _run(tmp_path, "--batch-size", batch_size)
    assert result.exit_code == 0, result.output
    assert "2 repeated (model, id) prediction(s) (first: m/0, m/1): all kept" in result.output
    assert rows == [("0", "param_error"), ("1", "correct"), ("0", "correct"), ("2", "correct"),
                    ("1", "miss_recall")]


@pytest.mark.parametrize("batch_size", ["1", "2", "100"])
def test_first_keeps_the_first_of_each(tmp_path, batch_size):
    result, rows = _run(tmp_path, "--on-duplicate", "first", "--batch-size", batch_size)
    assert result.exit_code == 0, result.output
    assert "the first of each kept" in result.output
    assert rows == [("0", "param_error"), ("1", "correct"), ("2", "correct")]


@pytest.mark.parametrize("batch_size", ["1", "2", "100"])
def test_last_keeps_the_last_of_each(tmp_path, batch_size):
    result, rows = _run(tmp_path, "--on-duplicate", "last", "--batch-size", batch_size)
    assert result.exit_code == 0, result.output
    assert rows == [("0", "correct"), ("2", "correct"), ("1", "miss_recall")]


def test_error_stops_naming_the_row(tmp_path):
    result, rows = _run(tmp_path, "--on-duplicate", "error")
    assert result.exit_code == 2
    assert "p.jsonl row 3, field id: a second prediction for model 'm', id '0'" in result.output
    assert rows is None


def test_a_kept_sample_column_declares_the_repeats(tmp_path):
    result, rows = _run(tmp_path, "--keep", "sample")
    assert result.exit_code == 0, result.output
    assert "repeated" not in result.output and len(rows) == 5
