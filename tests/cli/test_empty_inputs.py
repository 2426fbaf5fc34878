"""Empty inputs: a gold with no rows is an error naming the gold file (score and lint), not a
run with empty shares; predictions whose every row was skipped are said to be that, not to
have no rows."""

import json
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from scorer.cli import cli

EXAMPLES = Path(__file__).resolve().parents[2] / "data" / "examples"
PREDICTIONS, GOLD = EXAMPLES / "predictions.parquet", EXAMPLES / "gold.parquet"


def run(*args):
    return CliRunner().invoke(cli, list(map(str, args)))


@pytest.fixture
def empty_gold(tmp_path):
    path = tmp_path / "empty_gold.parquet"
    pq.write_table(pq.read_table(GOLD).slice(0, 0), path)
    return path


def test_a_gold_with_no_rows_is_an_error_naming_it(empty_gold, tmp_path):
    result = run(PREDICTIONS, empty_gold, "-o", tmp_path / "v.parquet")
    assert result.exit_code == 2, result.output
    assert f"{empty_gold}: the gold has no rows" in result.output
    assert not (tmp_path / "v.parquet").exists()


def test_lint_of_a_gold_with_no_rows_is_an_error_naming_it(empty_gold):
    result = run("lint", empty_gold)
    assert result.exit_code == 2, result.output
    assert f"{empty_gold}: the gold has no rows" in result.output


def test_predictions_whose_every_row_was_skipped_are_not_said_to_have_no_rows(tmp_path):
    predictions = tmp_path / "p.jsonl"
    predictions.write_text("".join(json.dumps({"id": f"nowhere-{n}", "model": "m", "calls": []}) + "\n"
                                   for n in range(2)) + "not json at all\n", encoding="utf-8")
    result = run(predictions, GOLD)
    assert result.exit_code == 0, result.output
    assert "every one of the 3 prediction row(s) was skipped" in result.output   # 2 unknown ids, 1 unreadable line
    assert "have no rows" not in result.output
