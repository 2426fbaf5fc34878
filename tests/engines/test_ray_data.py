"""Ray Data gives the local verdicts row for row (after sorting by model, id) and the same
summary: on the example data (`score --engine ray`) and on a generated 200k-row file
(`score_dataset`, missing predictions included). One local Ray for the module: more CPUs than actors, no dashboard,
a small object store."""

import json
import os
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

ray = pytest.importorskip("ray", reason="the [ray] extra is not installed (pip install -e '.[ray]')")

from scorer import Gold, summarize  # noqa: E402
from scorer.cli import cli  # noqa: E402
from scorer.engines.ray_data import score_dataset  # noqa: E402

EXAMPLES = Path(__file__).resolve().parents[2] / "data" / "examples"
PREDICTIONS, GOLD = EXAMPLES / "predictions.parquet", EXAMPLES / "gold.parquet"
ACTORS = 2


@pytest.fixture(scope="module")
def local_ray():
    saved = os.environ.pop("RAY_ADDRESS", None)   # never a cluster the environment points at
    ray.init(num_cpus=ACTORS + 1, include_dashboard=False, object_store_memory=80 << 20, log_to_driver=False)
    ray.data.DataContext.get_current().enable_progress_bars = False
    yield
    ray.shutdown()
    if saved is not None:
        os.environ["RAY_ADDRESS"] = saved


def _local(predictions: pa.Table) -> pa.Table:
    """The local run: every row scored, then the missing predictions appended (as the CLI)."""
    gold = Gold.from_file(GOLD)
    verdicts = pa.Table.from_batches([gold.score_batch(predictions)])
    missing = gold.missing_batch()
    return verdicts if missing is None else pa.concat_tables([verdicts, pa.Table.from_batches([missing])])


def _sorted(table: pa.Table) -> pa.Table:
    return table.sort_by([("model", "ascending"), ("id", "ascending")])


def test_score_engine_ray_writes_a_directory_and_the_same_summary(local_ray, tmp_path):
    def run(*args):
        result = CliRunner().invoke(cli, [str(PREDICTIONS), str(GOLD), *args, "-q"])
        assert result.exit_code == 0, result.output
    run("-o", str(tmp_path / "local.parquet"), "--summary", str(tmp_path / "local.json"), "--by", "difficulty")
    run("--engine", "ray", "-j", str(ACTORS), "-o", str(tmp_path / "ray"), "--summary", str(tmp_path / "ray.json"),
        "--by", "difficulty")
    assert (tmp_path / "ray").is_dir()
    written = pq.read_table(tmp_path / "ray")
    assert _sorted(written).to_pylist() == _sorted(pq.read_table(tmp_path / "local.parquet")).to_pylist()
    assert json.loads((tmp_path / "ray.json").read_text()) == json.loads((tmp_path / "local.json").read_text())


def test_engine_ray_refuses_what_it_cannot_do():
    result = CliRunner().invoke(cli, [str(PREDICTIONS), str(GOLD), "--engine", "ray"])
    assert result.exit_code == 2 and "--out DIRECTORY" in result.output


def test_200k_rows_equal_the_local_run(local_ray, tmp_path):
    """The example predictions 418 times over, each copy under its own model name (so that
    (model, id) stays a key): 200,222 prediction rows in 17 row groups."""
    base = pq.read_table(PREDICTIONS)
    copies = [base.set_column(0, "model", pc.binary_join_element_wise(base.column("model"), str(k), "#"))
              for k in range(418)]
    predictions = pa.concat_tables(copies)
    pq.write_table(predictions, tmp_path / "p.parquet", row_group_size=12_000)
    assert predictions.num_rows == 200_222
    dataset = ray.data.read_parquet(str(tmp_path / "p.parquet"), override_num_blocks=2 * ACTORS)
    got = pa.concat_tables(ray.get(score_dataset(dataset, Gold.from_file(GOLD), actors=ACTORS).to_arrow_refs()))
    expected = _local(predictions)
    assert got.num_rows == expected.num_rows == 418 * 480   # 2 unknown ids dropped, 3 missing added per copy
    assert _sorted(got).equals(_sorted(expected).cast(got.schema))
    assert summarize(got) == summarize(expected)
