"""The Ray checks of tests/engines/test_ray_data.py, run in a child process of pytest: a Ray
driver leaves threads behind in its process (even after ray.shutdown), and a later test that
forks scoring workers from that process can deadlock in the child. Usage: ray_session.py DIR.
Prints `passed: NAME` per check passed (Ray may print its own warnings to stdout too: the raylet's
notice of extra worker processes on a loaded machine); an assertion error fails the run."""

import json
import os
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import ray
from click.testing import CliRunner

from scorer import Gold, summarize
from scorer.cli import cli
from scorer.engines.ray_data import score_dataset

EXAMPLES = Path(__file__).resolve().parents[2] / "data" / "examples"
PREDICTIONS, GOLD = EXAMPLES / "predictions.parquet", EXAMPLES / "gold.parquet"
ACTORS = 2
PASSED = "passed: "


def _local(predictions: pa.Table) -> pa.Table:
    """The local run: every row scored, then the missing predictions appended (as the CLI)."""
    gold = Gold.from_file(GOLD)
    verdicts = pa.Table.from_batches([gold.score_batch(predictions)])
    missing = gold.missing_batch()
    return verdicts if missing is None else pa.concat_tables([verdicts, pa.Table.from_batches([missing])])


def _sorted(table: pa.Table) -> pa.Table:
    return table.sort_by([("model", "ascending"), ("id", "ascending")])


def engine_ray_writes_a_directory_and_the_same_summary(work: Path):
    def run(*args):
        result = CliRunner().invoke(cli, [str(PREDICTIONS), str(GOLD), *args, "-q"])
        assert result.exit_code == 0, result.output
    run("-j", "1", "-o", str(work / "local.parquet"), "--summary", str(work / "local.json"), "--by", "difficulty")
    run("--engine", "ray", "-j", str(ACTORS), "-o", str(work / "ray"), "--summary", str(work / "ray.json"),
        "--by", "difficulty")
    assert (work / "ray").is_dir()
    written = pq.read_table(work / "ray")
    assert _sorted(written).to_pylist() == _sorted(pq.read_table(work / "local.parquet")).to_pylist()
    assert json.loads((work / "ray.json").read_text()) == json.loads((work / "local.json").read_text())


def rows_200k_equal_the_local_run(work: Path):
    """The example predictions 418 times over, each copy under its own model name (so that
    (model, id) stays a key): 200,222 prediction rows in 17 row groups."""
    base = pq.read_table(PREDICTIONS)
    copies = [base.set_column(0, "model", pc.binary_join_element_wise(base.column("model"), str(k), "#"))
              for k in range(418)]
    predictions = pa.concat_tables(copies)
    pq.write_table(predictions, work / "p.parquet", row_group_size=12_000)
    assert predictions.num_rows == 200_222
    dataset = ray.data.read_parquet(str(work / "p.parquet"), override_num_blocks=2 * ACTORS)
    got = pa.concat_tables(ray.get(score_dataset(dataset, Gold.from_file(GOLD), actors=ACTORS).to_arrow_refs()))
    expected = _local(predictions)
    assert got.num_rows == expected.num_rows == 418 * 480   # 2 unknown ids dropped, 3 missing added per copy
    assert _sorted(got).equals(_sorted(expected).cast(got.schema))
    assert summarize(got) == summarize(expected)


def one_file_is_split_into_blocks_of_the_batch_size(work: Path):
    """The 200k rows of one file (rows_200k_equal_the_local_run's) read with Ray's own block
    count: scored in ceil(200,222 / 65,536) = 4 blocks, one actor task each, not in one."""
    dataset = ray.data.read_parquet(str(work / "p.parquet"))
    verdicts = score_dataset(dataset, Gold.from_file(GOLD), actors=ACTORS, batch_size=65_536, missing=False)
    assert verdicts.materialize().num_blocks() == 4


def a_failed_run_leaves_no_output_directory(work: Path):
    """Predictions without an id column fail inside the actors, after Ray made the output
    directory: the run stops with an error and the directory is gone."""
    pq.write_table(pq.read_table(PREDICTIONS).drop_columns(["id"]), work / "no_id.parquet")
    result = CliRunner().invoke(cli, [str(work / "no_id.parquet"), str(GOLD), "--engine", "ray", "-j", "1",
                                      "-o", str(work / "failed"), "-q"])
    assert result.exit_code != 0
    assert not (work / "failed").exists()


def notes_on_the_gold_are_the_local_runs(work: Path):
    """A gold file without reference times: the run's warning of the rows left undecided for it
    is the local run's, and so is what it says of the gold."""
    from scorer.engines.ray_data import score_files

    gold = pq.read_table(GOLD)
    gold = gold.set_column(gold.schema.get_field_index("reference_time"), "reference_time",
                           pa.nulls(gold.num_rows, gold.schema.field("reference_time").type))
    pq.write_table(gold, work / "no_reference.parquet")
    local = Gold.from_file(work / "no_reference.parquet").score_file(PREDICTIONS, out=work / "local_nr.parquet")
    engine = score_files(PREDICTIONS, work / "no_reference.parquet", work / "ray_nr", actors=ACTORS, quiet=True)
    warned = [line for line in local.notes() if "no_reference_time" in line]
    assert warned and warned == [line for line in engine.notes() if "no_reference_time" in line], engine.notes()
    assert engine.gold_notes == local.gold_notes


def main(work: Path):
    os.environ.pop("RAY_ADDRESS", None)   # never a cluster the environment points at
    ray.init(num_cpus=ACTORS + 1, include_dashboard=False, object_store_memory=80 << 20, log_to_driver=False)
    ray.data.DataContext.get_current().enable_progress_bars = False
    try:
        for check in (engine_ray_writes_a_directory_and_the_same_summary, rows_200k_equal_the_local_run,
                      one_file_is_split_into_blocks_of_the_batch_size, a_failed_run_leaves_no_output_directory,
                      notes_on_the_gold_are_the_local_runs):
            check(work)
            print(f"{PASSED}{check.__name__}", flush=True)
    finally:
        ray.shutdown()


if __name__ == "__main__":
    main(Path(sys.argv[1]))
