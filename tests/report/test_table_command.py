import csv
import io
import json

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner
from verdict_builder import verdict, verdict_table

from scorer.commands.table import table


def stratified(tmp_path, suffix=".parquet"):
    """Model a: easy rows all correct, hard rows all missed; one negative per stratum."""
    rows = [
        verdict(1, model="a", difficulty="easy"), verdict(2, model="a", difficulty="easy"),
        verdict(3, "miss_recall", "no_call", model="a", difficulty="hard"),
        verdict(4, "miss_recall", "no_call", model="a", difficulty="hard"),
        verdict(5, "miss_recall", "wrong_tool", model="a", difficulty="hard"),
        verdict(6, "over_recall", "no_tool", model="a", positive=False, difficulty="hard"),
        verdict(1, model="b", difficulty="easy"),
        verdict(3, "param_error", "temporal", model="b", difficulty="hard"),
    ]
    path = tmp_path / f"v{suffix}"
    if suffix == ".parquet":
        pq.write_table(verdict_table(rows), path)
    else:
        path.write_text("".join(json.dumps(r) + "\n" for r in verdict_table(rows).to_pylist()))
    return path


def run(*args):
    result = CliRunner().invoke(table, [str(a) for a in args])
    return result


def as_json(*args):
    result = run(*args, "--format", "json")
    assert result.exit_code == 0, result.output
    return {(r["model"], r.get("difficulty")): r for r in json.loads(result.stdout)}


@pytest.mark.parametrize("suffix", [".parquet", ".jsonl"])
def test_plain_table_per_model_and_difficulty(tmp_path, suffix):
    rows = as_json(stratified(tmp_path, suffix), "--by", "model", "--by", "difficulty")
    assert rows[("a", "all")]["recall"] == 0.4
    assert rows[("a", "easy")]["recall"] == 1.0 and rows[("a", "hard")]["recall"] == 0.0
    assert rows[("a", "easy")]["over_recall"] is None     # an empty denominator, not an error
    assert rows[("a", "hard")]["over_recall"] == 1.0


def test_reweighting_by_stratum_weights(tmp_path):
    rows = as_json(stratified(tmp_path), "--reweight", "difficulty=easy:0.75,hard:0.25",
                   "--columns", "n,recall,over_recall,miss_recall/no_call")
    assert rows[("a", None)]["recall"] == 0.75          # 0.75 * 1.0 + 0.25 * 0.0
    assert rows[("a", None)]["n"] == 6                  # counts are not re-weighted
    # no negatives among easy rows: over_recall comes from hard alone, weights renormalized
    assert rows[("a", None)]["over_recall"] == 1.0
    assert rows[("a", None)]["miss_recall/no_call"] == pytest.approx(0.25 * 2 / 3, abs=1e-6)


@pytest.mark.parametrize("fmt", ["json", "csv"])
def test_machine_formats_name_the_reweighting_on_every_row(tmp_path, fmt):
    spec = "difficulty=easy:0.75,hard:0.25"
    result = run(stratified(tmp_path), "--by", "difficulty", "--reweight", spec, "--format", fmt)
    assert result.exit_code == 0, result.output
    if fmt == "json":
        rows = json.loads(result.stdout)
    else:
        rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert rows and all(row["reweighted_by"] == "difficulty" for row in rows)
    assert {row["difficulty"] for row in rows} == {"all", "easy", "hard"}   # values stay as programs key on them


def test_plain_machine_formats_have_no_weighting_field(tmp_path):
    rows = json.loads(run(stratified(tmp_path), "--format", "json").stdout)
    assert all("reweighted_by" not in row for row in rows)


def test_absent_stratum_weight_is_spread_and_named(tmp_path):
    result = run(stratified(tmp_path), "--reweight", "difficulty=easy:0.3,expert:0.7",
                 "--format", "json")
    assert "reweight: difficulty=expert has no rows" in result.stderr
    rows = {r["model"]: r for r in json.loads(result.stdout)}
    assert rows["a"]["recall"] == 1.0                   # easy alone, renormalized to weight 1


def test_group_without_weighted_strata_shows_a_dash(tmp_path):
    result = run(stratified(tmp_path), "--by", "difficulty", "--reweight", "difficulty=easy:1",
                 "--columns", "recall", "--format", "md")
    assert "| a | hard | – |" in result.stdout
    assert "| a | easy | 100.0 |" in result.stdout


def test_bootstrap_intervals_are_seeded_and_reproducible(tmp_path):
    path = stratified(tmp_path)
    args = [path, "--ci", "0.9", "--bootstrap", "300", "--columns", "recall,accuracy"]
    first, second = run(*args, "--seed", "7"), run(*args, "--seed", "7")
    assert first.exit_code == 0 and first.stdout == second.stdout
    assert run(*args, "--seed", "8").stdout != first.stdout
    rows = as_json(*args, "--seed", "7")
    recall = rows[("a", None)]["recall"]
    assert recall["low"] <= recall["value"] <= recall["high"] and recall["low"] < recall["high"]
    # a group's interval does not depend on the other groups in the table
    grouped = as_json(*args, "--seed", "7", "--by", "difficulty")
    assert grouped[("a", "all")]["recall"] == recall


def test_bootstrap_with_reweighting(tmp_path):
    rows = as_json(stratified(tmp_path), "--reweight", "difficulty=easy:0.5,hard:0.5",
                   "--ci", "0.95", "--bootstrap", "200")
    recall = rows[("a", None)]["recall"]
    assert recall["value"] == 0.5
    # every resample keeps easy all-correct and hard all-missed, so the interval is a point
    assert recall["low"] == recall["high"] == 0.5


def test_latex_with_bold_best_and_file_output_byte_identical(tmp_path):
    path = stratified(tmp_path)
    outputs = [tmp_path / "t1.tex", tmp_path / "t2.tex"]
    for out in outputs:
        assert run(path, "--format", "latex", "--columns", "recall,miss_recall", "-o", out).exit_code == 0
    text = outputs[0].read_text()
    assert outputs[0].read_bytes() == outputs[1].read_bytes()
    assert "\\toprule" in text and "b & \\textbf{50.0} & \\textbf{0.0} \\\\" in text
    plain = run(path, "--format", "latex", "--no-bold-best").stdout
    assert "\\textbf" not in plain


def test_bad_inputs_exit_2(tmp_path):
    path = stratified(tmp_path)
    result = run(path, "--by", "domain")
    assert result.exit_code == 2 and "field domain: no such column to group by" in result.output
    assert run(path, "--reweight", "difficulty=easy").exit_code == 2
    assert run(path, "--reweight", "difficulty=easy:-1").exit_code == 2
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    result = run(empty)
    assert result.exit_code == 2 and "no verdict rows to tabulate" in result.output
    result = run(tmp_path / "v.csv")
    assert result.exit_code == 2 and "no such file" in result.output
    result = run(path, "--columns", "recall,bogus")
    assert result.exit_code == 2 and "bogus" in result.output


def sampled(tmp_path, copies: int, name: str):
    """Ten instances of model a, half correct; each instance repeated `copies` times (samples
    that all agree), so the rows carry no more information than the instances."""
    rows = [verdict(i, "correct" if i % 2 else "miss_recall", None if i % 2 else "no_call", model="a",
                    difficulty="easy" if i < 5 else "hard", sample=str(k))
            for i in range(10) for k in range(copies)]
    path = tmp_path / name
    pq.write_table(verdict_table(rows), path)
    return path


@pytest.mark.parametrize("extra", [[], ["--by", "difficulty"], ["--reweight", "difficulty=easy:0.3,hard:0.7"]])
def test_cluster_bootstrap_resamples_instances_not_samples(tmp_path, extra):
    args = ["--ci", "0.95", "--bootstrap", "400", "--columns", "recall", *extra]
    once, repeated = sampled(tmp_path, 1, "once.parquet"), sampled(tmp_path, 5, "five.parquet")
    key = ("a", "all") if extra[:1] == ["--by"] else ("a", None)
    by_id = as_json(repeated, *args, "--cluster", "id")
    # five agreeing samples per instance: the same clusters, weighted alike, the same interval
    assert by_id == as_json(once, *args, "--cluster", "id")
    recall = by_id[key]["recall"]
    assert recall["low"] < recall["high"]
    # resampling rows treats the five copies as independent: a narrower, overconfident interval
    by_row = as_json(repeated, *args)[key]["recall"]
    assert by_row["high"] - by_row["low"] < recall["high"] - recall["low"]


def test_repeated_rows_without_cluster_are_named(tmp_path):
    repeated = sampled(tmp_path, 3, "three.parquet")
    result = run(repeated, "--ci", "0.9", "--bootstrap", "50")
    assert result.exit_code == 0 and "--cluster id" in result.output
    assert "--cluster id" not in run(repeated, "--ci", "0.9", "--bootstrap", "50", "--cluster", "id").output
    assert "--cluster" not in run(sampled(tmp_path, 1, "one.parquet"), "--ci", "0.9", "--bootstrap", "50").output
    absent = run(repeated, "--ci", "0.9", "--cluster", "seed")
    assert absent.exit_code == 2 and "seed" in absent.output
