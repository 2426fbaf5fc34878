"""Ids are read as their decimal text on both sides: an integer id in gold matches the same id
written as a string in the predictions; a value that cannot be an id stops the run naming it,
except on a line of a JSON Lines prediction file or a row of a parquet one, which is reported
and skipped."""

import json

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from scorer.cli import cli

CALL = [{"name": "f", "arguments": {"x": 1}}]


def _jsonl(path, rows):
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


def _score(tmp_path, predictions, gold, *options):
    out = tmp_path / "v.jsonl"
    result = CliRunner().invoke(cli, [str(predictions), str(gold), "-o", str(out), *options])
    rows = [json.loads(line) for line in out.read_text().splitlines()] if out.exists() else []
    return result, rows


def _gold_with_ids(tmp_path, ids, kind):
    if kind == "parquet":
        path = tmp_path / "g.parquet"
        pq.write_table(pa.table({"id": ids, "gold_calls": [json.dumps(CALL), "[]"]}), path)
        return path
    return _jsonl(tmp_path / "g.jsonl", [{"id": ids[0], "gold_calls": CALL}, {"id": ids[1], "gold_calls": []}])


@pytest.mark.parametrize("gold_ids,kind", [
    (pa.array([1, 2], pa.int64()), "parquet"), (pa.array([1.0, 2.0]), "parquet"), ([1, 2], "jsonl"),
    (["1", "2"], "jsonl")])
@pytest.mark.parametrize("predicted_ids", [["1", "2"], [1, 2], [1.0, "2"], [1, "2"]])
def test_integer_and_string_ids_match(tmp_path, gold_ids, kind, predicted_ids):
    gold = _gold_with_ids(tmp_path, gold_ids, kind)
    predictions = _jsonl(tmp_path / "p.jsonl", [{"id": predicted_ids[0], "model": "m", "calls": CALL},
                                                {"id": predicted_ids[1], "model": "m", "calls": []}])
    result, rows = _score(tmp_path, predictions, gold)
    assert result.exit_code == 0, result.output
    assert [(r["id"], r["outcome"], r["missing_prediction"]) for r in rows] == [
        ("1", "correct", False), ("2", "correct", False)]
    assert "not in gold" not in result.output


@pytest.mark.parametrize("bad", [True, 1.5, {"n": 1}])
def test_a_prediction_line_whose_id_cannot_be_text_is_reported_and_skipped(tmp_path, bad):
    """It cannot be tied to a gold row, as a line that is not JSON cannot: the line is named with
    the reason, and the other lines are scored (the gold row it may have meant is missing)."""
    gold = _gold_with_ids(tmp_path, ["1", "2"], "jsonl")
    predictions = _jsonl(tmp_path / "p.jsonl", [{"id": "1", "model": "m", "calls": CALL},
                                                {"id": bad, "model": "m", "calls": []}])
    result, rows = _score(tmp_path, predictions, gold)
    assert result.exit_code == 0, result.output
    assert "prediction line 2 unreadable, skipped: field id: ids must be strings or integers" in result.output
    # row 2 is scored as a missing prediction: no call, which its gold (no call) calls correct
    assert [(r["id"], r["outcome"], r["missing_prediction"]) for r in rows] == [
        ("1", "correct", False), ("2", "correct", True)]


@pytest.mark.parametrize("bad", [True, 1.5])
def test_an_id_that_cannot_be_text_in_gold_or_a_json_array_is_an_error_naming_the_row(tmp_path, bad):
    """Gold is the reference: a row of it that cannot be read stops the run. A .json array is one
    document, read whole: it stops too, naming the row."""
    gold = _jsonl(tmp_path / "g.jsonl", [{"id": "1", "gold_calls": CALL}, {"id": bad, "gold_calls": []}])
    predictions = _jsonl(tmp_path / "p.jsonl", [{"id": "1", "model": "m", "calls": CALL}])
    result, _rows = _score(tmp_path, predictions, gold)
    assert result.exit_code == 2 and "g.jsonl row 2, field id: ids must be strings or integers" in result.output
    array = tmp_path / "p.json"
    array.write_text(json.dumps([{"id": "1", "model": "m", "calls": CALL}, {"id": bad, "model": "m", "calls": []}]))
    result, _rows = _score(tmp_path, array, _gold_with_ids(tmp_path, ["1", "2"], "jsonl"))
    assert result.exit_code == 2 and "p.json row 2, field id: ids must be strings or integers" in result.output


def test_a_fractional_float_id_column_is_an_error(tmp_path):
    gold = _gold_with_ids(tmp_path, pa.array([1.0, 2.5]), "parquet")
    predictions = _jsonl(tmp_path / "p.jsonl", [{"id": "1", "model": "m", "calls": CALL}])
    result, _rows = _score(tmp_path, predictions, gold)
    assert result.exit_code == 2 and "g.parquet row 2, field id" in result.output and "2.5" in result.output


def test_a_parquet_prediction_row_whose_float_id_is_not_whole_is_reported_and_skipped(tmp_path):
    """A float id column (a writer that turned integer ids with gaps into floats) is read as its
    whole numbers; a row whose id is a fraction or not finite cannot be tied to a gold row: it is
    named (file, row counted across batches, field) and skipped, and the other rows are scored."""
    gold = _gold_with_ids(tmp_path, ["1", "2"], "jsonl")
    predictions = tmp_path / "p.parquet"
    pq.write_table(pa.table({"id": pa.array([1.0, 2.5, float("inf"), 2.0]), "model": ["m"] * 4,
                             "calls": [json.dumps(CALL), "[]", "[]", "[]"]}), predictions)
    result, rows = _score(tmp_path, predictions, gold, "--batch-size", "2")
    assert result.exit_code == 0, result.output
    for row, value in ((2, "2.5"), (3, "inf")):
        assert f"{predictions} row {row}, field id: ids must be strings or integers " \
               f"(an integer is read as its decimal text), not {value} (prediction skipped)" in result.output
    assert [(r["id"], r["outcome"], r["missing_prediction"]) for r in rows] == [
        ("1", "correct", False), ("2", "correct", False)]
