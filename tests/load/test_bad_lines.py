"""A line of a JSON Lines predictions file that is not JSON: that row's `malformed` verdict when
its id can be read, otherwise counted and named in the notes; the same on line 1 as on line
1,000 (the first line also decides the file's format, and pyarrow's reader reads in blocks)."""

import json

import pytest
from click.testing import CliRunner

from scorer.cli import cli

ROWS = 1200


def _files(tmp_path, bad_at, bad_line):
    gold = tmp_path / "g.jsonl"
    gold.write_text("".join(json.dumps({"id": str(i), "gold_calls": [{"name": "f", "arguments": {"x": i}}]}) + "\n"
                            for i in range(ROWS)))
    lines = [json.dumps({"id": str(i), "model": "m",
                         "calls": json.dumps([{"name": "f", "arguments": json.dumps({"x": i})}])}) for i in range(ROWS)]
    lines[bad_at] = bad_line(bad_at)
    predictions = tmp_path / "p.jsonl"
    predictions.write_text("\n".join(lines) + "\n")
    return predictions, gold


def _truncated(i):
    return '{"id": "%d", "model": "m", "calls": [{"name": "f", "arguments": {"x": %d}}' % (i, i)


def _score(tmp_path, predictions, gold):
    out = tmp_path / "v.jsonl"
    result = CliRunner().invoke(cli, [str(predictions), str(gold), "-o", str(out)])
    assert result.exit_code == 0, result.output
    return result.output, [json.loads(line) for line in out.read_text().splitlines()]


@pytest.mark.parametrize("bad_at", [0, 1, 999, ROWS - 1])
def test_a_bad_line_with_a_readable_id_is_that_rows_malformed_verdict(tmp_path, bad_at):
    output, rows = _score(tmp_path, *_files(tmp_path, bad_at, _truncated))
    assert len(rows) == ROWS
    wrong = [(i, r["id"], r["outcome"], r["subtype"], r["missing_prediction"]) for i, r in enumerate(rows)
             if r["outcome"] != "correct"]
    assert wrong == [(bad_at, str(bad_at), "miss_recall", "malformed", False)]
    assert f"line {bad_at + 1}: not valid JSON" in rows[bad_at]["detail"]
    assert f"1 prediction line(s) not valid JSON, scored as malformed for their id: line {bad_at + 1} " \
           f"(id {bad_at})" in output


@pytest.mark.parametrize("bad_at", [0, 999])
def test_a_bad_line_without_an_id_is_counted_and_named(tmp_path, bad_at):
    output, rows = _score(tmp_path, *_files(tmp_path, bad_at, lambda i: "garbage, not JSON"))
    assert f"prediction line {bad_at + 1} unreadable, skipped" in output
    assert [(r["id"], r["missing_prediction"]) for r in rows if r["outcome"] != "correct"] == [(str(bad_at), True)]


def test_an_id_inside_a_nested_object_is_not_taken_for_the_rows(tmp_path):
    nested = '{"calls": [{"id": "7", "name": "f", "arguments": {"x": 1}}'  # no top-level id
    output, rows = _score(tmp_path, *_files(tmp_path, 5, lambda i: nested))
    assert "prediction line 6 unreadable, skipped" in output
    assert [r["id"] for r in rows if r["outcome"] != "correct"] == ["5"]
