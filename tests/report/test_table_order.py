"""Paper tables: group values in their natural order (--order, else first appearance), a
label on re-weighted totals, and a compact column preset for one LaTeX column."""

import pyarrow.parquet as pq
from click.testing import CliRunner
from verdict_builder import verdict, verdict_table

from scorer.commands.table import table


def _verdicts(tmp_path):
    rows = [{**verdict(i), "difficulty": level} for i, level in
            enumerate(["hard", "easy", "medium", "easy", "hard", "medium"], start=1)]
    path = tmp_path / "v.parquet"
    pq.write_table(verdict_table(rows), path)
    return path


def _groups(output):
    return [line.split()[1] for line in output.splitlines()[2:] if line.strip()]


def test_group_values_follow_the_order_given(tmp_path):
    result = CliRunner().invoke(table, [str(_verdicts(tmp_path)), "--by", "difficulty", "--format", "text",
                                        "--columns", "recall", "--order", "easy,medium,hard"])
    assert result.exit_code == 0, result.output
    assert _groups(result.output) == ["all", "easy", "medium", "hard"]


def test_without_order_values_come_as_they_first_appear(tmp_path):
    result = CliRunner().invoke(table, [str(_verdicts(tmp_path)), "--by", "difficulty", "--format", "text",
                                        "--columns", "recall"])
    assert _groups(result.output) == ["all", "hard", "easy", "medium"]


def test_re_weighted_totals_say_so(tmp_path):
    result = CliRunner().invoke(table, [str(_verdicts(tmp_path)), "--by", "difficulty", "--format", "text",
                                        "--columns", "recall", "--reweight", "difficulty=easy:0.5,medium:0.3,hard:0.2"])
    assert result.exit_code == 0, result.output
    assert "all (re-weighted by difficulty)" in result.output


def test_the_compact_preset_has_five_headline_columns(tmp_path):
    result = CliRunner().invoke(table, [str(_verdicts(tmp_path)), "--format", "text", "--columns", "compact"])
    assert result.exit_code == 0, result.output
    header = result.output.splitlines()[0]
    assert header.split("%")[:-1] and header.count("%") == 5 and "Recall" in header and "Over Recall" in header
