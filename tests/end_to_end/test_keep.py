"""`--keep COLUMN`: prediction columns (a sample index) carried into the verdicts, the summary
groups and the judge records, in row order, whatever the input format, batch size or jobs."""

import json
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from scorer.cli import cli
from scorer.errors import InputError
from scorer.options import Options
from scorer.pipeline import Scorer

EXAMPLES = Path(__file__).resolve().parents[2] / "data" / "examples"
PREDICTIONS, GOLD = EXAMPLES / "predictions.parquet", EXAMPLES / "gold.parquet"


def two_samples() -> pa.Table:
    """The example predictions twice, as samples 0 and 1; sample 1 in reverse row order."""
    table = pq.read_table(PREDICTIONS)
    second = table.take(pa.array(range(table.num_rows - 1, -1, -1)))
    return pa.concat_tables([
        table.append_column("sample", pa.array([0] * table.num_rows, pa.int64())),
        second.append_column("sample", pa.array([1] * table.num_rows, pa.int64())),
    ])


def score(*args):
    return CliRunner().invoke(cli, [*map(str, args)])


def scored(tmp_path, predictions, *extra) -> pa.Table:
    out = tmp_path / f"verdicts-{len(list(tmp_path.iterdir()))}.parquet"
    result = score(predictions, GOLD, "-o", out, "-q", "--keep", "sample", *extra)
    assert result.exit_code == 0, result.output
    return pq.read_table(out)


def test_kept_column_follows_its_rows(tmp_path):
    path = tmp_path / "p.parquet"
    predictions = two_samples()
    pq.write_table(predictions, path)
    verdicts = scored(tmp_path, path)
    assert verdicts.column_names[-1] == "sample"
    given = verdicts.filter(pc.invert(verdicts["missing_prediction"]))
    predictions = predictions.filter(pc.is_in(predictions["id"], value_set=pq.read_table(GOLD)["id"]))
    assert given["sample"].to_pylist() == predictions["sample"].to_pylist()
    assert given["id"].to_pylist() == predictions["id"].to_pylist()
    # sample 1 is sample 0 reversed: the same verdict per (model, id)
    by_key = {}
    for row in given.select(["model", "id", "sample", "outcome", "subtype"]).to_pylist():
        by_key.setdefault((row["model"], row["id"]), {})[row["sample"]] = (row["outcome"], row["subtype"])
    assert all(found[0] == found[1] for found in by_key.values())
    missing = verdicts.filter(verdicts["missing_prediction"])
    assert missing.num_rows and missing["sample"].null_count == missing.num_rows


def test_parallel_batched_and_jsonl_runs_carry_the_same_values(tmp_path):
    parquet, jsonl = tmp_path / "p.parquet", tmp_path / "p.jsonl"
    predictions = two_samples()
    pq.write_table(predictions, parquet)
    jsonl.write_text("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in predictions.to_pylist()),
                     encoding="utf-8")
    reference = scored(tmp_path, parquet, "-j", "1")
    assert scored(tmp_path, parquet, "-j", "2", "--batch-size", "37").equals(reference)
    from_jsonl = scored(tmp_path, jsonl, "-j", "2")
    assert from_jsonl.schema.field("sample").type == pa.int64()
    assert from_jsonl.equals(reference)


def test_summary_groups_by_a_kept_column(tmp_path):
    path = tmp_path / "p.parquet"
    pq.write_table(two_samples(), path)
    summary = tmp_path / "s.json"
    result = score(path, GOLD, "-q", "--keep", "sample", "--by", "sample", "--summary", summary)
    assert result.exit_code == 0, result.output
    groups = {(row["model"], row["group"]): row for row in json.loads(summary.read_text(encoding="utf-8"))}
    for model in {model for model, _group in groups}:
        assert groups[(model, "sample=0")]["correct_n"] == groups[(model, "sample=1")]["correct_n"]
        assert groups[(model, "sample=0")]["n"] + groups[(model, "sample=1")]["n"] + \
            groups.get((model, "sample=null"), {"n": 0})["n"] == groups[(model, "all")]["n"]


def test_a_column_the_predictions_lack_is_named():
    result = score(PREDICTIONS, GOLD, "-q", "--keep", "sample")
    assert result.exit_code == 2
    assert "predictions.parquet" in result.output and "field sample" in result.output


@pytest.mark.parametrize("name", ["outcome", "difficulty"])
def test_a_kept_column_may_not_shadow_a_verdict_or_gold_column(tmp_path, name):
    path = tmp_path / "p.parquet"
    table = pq.read_table(PREDICTIONS)
    pq.write_table(table.append_column(name, pa.array(["x"] * table.num_rows)), path)
    result = score(path, GOLD, "-q", "--keep", name)
    assert result.exit_code == 2 and f"field {name}" in result.output


def test_judge_round_trip_tells_samples_apart_by_their_kept_values(tmp_path):
    gold = tmp_path / "g.jsonl"
    gold.write_text(json.dumps({"id": "1", "gold_calls": [{"name": "play", "arguments": {"song": "稻香"}}],
                                "tools": json.dumps([{"name": "play", "parameters": {"type": "object",
                                                      "properties": {"song": {"type": "string"}}}}])},
                               ensure_ascii=False) + "\n", encoding="utf-8")
    predictions = tmp_path / "p.jsonl"
    songs = ["稻香现场", "稻香新版"]   # both in the fuzzy band (ratio 67): undecided
    predictions.write_text("".join(json.dumps({"id": "1", "model": "m", "sample": sample, "calls": [
        {"name": "play", "arguments": json.dumps({"song": song}, ensure_ascii=False)}]}, ensure_ascii=False) + "\n"
        for sample, song in enumerate(songs)), encoding="utf-8")
    verdicts, undecided = tmp_path / "v.parquet", tmp_path / "u.jsonl"
    result = score(predictions, gold, "-q", "--keep", "sample", "-o", verdicts, "--undecided", undecided)
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in undecided.read_text(encoding="utf-8").splitlines()]
    assert [(r["kept"]["sample"], r["predicted_calls"][0]["arguments"]["song"]) for r in records] == \
        list(enumerate(songs))

    answers = tmp_path / "judge.jsonl"
    verdict_of = {0: ("correct", None), 1: ("param_error", "incorrect_value")}
    answers.write_text("".join(json.dumps({"model": r["model"], "id": r["id"], "kept": r["kept"],
                                           "outcome": verdict_of[r["kept"]["sample"]][0],
                                           "subtype": verdict_of[r["kept"]["sample"]][1]}) + "\n"
                               for r in records)
                       + json.dumps({"model": "m", "id": "1", "outcome": "correct"}) + "\n", encoding="utf-8")
    merged = tmp_path / "merged.parquet"
    result = score("merge-judge", verdicts, answers, "-o", merged)
    assert result.exit_code == 0, result.output
    assert "line 3: 2 rows have model m id 1" in result.output
    table = pq.read_table(merged)
    assert [(row["sample"], row["outcome"], row["subtype"], row["decided_by"]) for row in table.to_pylist()] == \
        [(0, "correct", None, "judge"), (1, "param_error", "incorrect_value", "judge")]


def test_a_kept_column_keeps_the_type_of_its_first_batch():
    scorer = Scorer(pq.read_table(GOLD), GOLD, Options(keep=("sample",)), predictions_path="p.jsonl")
    first = pa.record_batch({"sample": pa.array([1, 2], pa.int64())})
    assert scorer._kept(first, "sample").type == pa.int64()
    assert scorer._kept(pa.record_batch({"sample": pa.array([3], pa.int32())}), "sample").type == pa.int64()
    with pytest.raises(InputError, match="changes type from int64 to string"):
        scorer._kept(pa.record_batch({"sample": pa.array(["a"])}), "sample")

