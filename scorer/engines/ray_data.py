"""Ray Data: score a dataset of predictions on a Ray cluster (the `[ray]` extra).

`score_dataset(ds, gold)` maps `Gold.score_batch` over Arrow batches with an actor pool: each
actor receives the pickled gold once and normalizes it once, then scores every batch it gets.
Rows are scored independently, so the verdicts equal a local run's row for row (compare after
sorting by model, id); the missing predictions (gold ids a model has no row for) are found
from the (model, id) columns of the input, on the driver, and appended. Rows whose id is not
in gold are left out, as the CLI leaves them (it also notes them; here they are not counted).

Listing, reading and writing the dataset are Ray tasks that need a CPU beside the actors: the
actors together ask for at most the CPUs Ray reports less one (each a share of a CPU when there
are more actors than that), or else they hold every CPU, the read never runs and the run never
ends. The rows of one file are cut into blocks of the batch size (Ray reads a file as one
block), so that one large file still feeds every actor.

Process-wide settings travel to the actors in their runtime environment ($CALLSCORE_RULES,
$CALLSCORE_POLICY, $CALLSCORE_IMPL): on a cluster a worker does not inherit the driver's
environment, and a rules directory must then be a path every node can read. Duplicate
predictions are kept as they are: `on_duplicate` first/last/error need every row of a
(model, id) in one process, which actors do not have, so they are refused.

Spark takes the same function: `df.mapInArrow(lambda batches: (gold.score_batch(b) for b in
batches), schema)`, the gold pickled into each task once (README, "Library API").
"""

from __future__ import annotations

import logging
import os
import warnings
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.dataset as pads
import pyarrow.fs as pafs
import pyarrow.parquet as pq
import ray

from scorer.aggregate import Tally
from scorer.api import Gold
from scorer.options import Options
from scorer.pipeline import Result, read_gold
from scorer.rules import rules_hash
from scorer.temporal.policy import POLICY_ENV
from scorer.vocab import NO_REFERENCE_TIME

PROCESS_SETTINGS = ("CALLSCORE_RULES", POLICY_ENV, "CALLSCORE_IMPL")   # read from the environment by each process
DATASET_TASK_CPUS = 1.0   # left free by the actors for the dataset's listing, read and write tasks


def worker_environment() -> dict:
    """The runtime environment that gives actors this process's callscore settings."""
    return {"env_vars": {name: os.environ[name] for name in PROCESS_SETTINGS if name in os.environ}}


def actor_cpus(actors: int, cpus: float) -> float:
    """The CPUs each of `actors` scoring actors asks for, on a Ray that reports `cpus`: one, or
    an equal share of what the dataset's own tasks leave (zero on a one-CPU Ray: the actors then
    only share the CPU with those tasks, which keeps them runnable)."""
    return max(0.0, min(1.0, (cpus - DATASET_TASK_CPUS) / actors))


class ScoreBatches:
    """A Ray Data actor: the gold arrives (pickled) with the actor and is normalized once."""

    def __init__(self, gold: Gold):
        self.gold = gold

    def __call__(self, batch: pa.Table) -> pa.Table:
        return pa.Table.from_batches([self.gold.score_batch(batch)])


def score_dataset(ds: "ray.data.Dataset", gold: Gold | str | Path, *, actors: int = 1, batch_size: int | None = 65536,
                  missing: bool = True, **options) -> "ray.data.Dataset":
    """Verdicts of a Ray dataset of predictions (id, model, calls and/or output), as a Ray
    dataset; `gold` a `Gold` or a gold file (then `options` are Options fields). `actors`
    scoring actors (CPUs each: `actor_cpus`); `missing` appends the rows of missing predictions."""
    gold = gold if isinstance(gold, Gold) else Gold.from_file(gold, **options)
    if gold.options.on_duplicate != "keep":
        raise ValueError(f"on_duplicate={gold.options.on_duplicate!r} needs every row of a (model, id) in one "
                         "process; score on Ray with on_duplicate='keep', or locally")
    if batch_size:
        ds = ds.repartition(target_num_rows_per_block=batch_size)   # a large file's rows reach every actor
    verdicts = ds.map_batches(ScoreBatches, fn_constructor_args=(gold,), batch_format="pyarrow",
                              batch_size=batch_size, compute=ray.data.ActorPoolStrategy(size=actors),
                              num_cpus=actor_cpus(actors, ray.cluster_resources().get("CPU", 0.0)),
                              runtime_env=worker_environment())
    if not missing:
        return verdicts
    keys = ["id", "model"] if "model" in ds.schema().names else ["id"]
    seen = pa.concat_tables(list(ds.select_columns(keys).iter_batches(batch_format="pyarrow", batch_size=None)))
    if "model" not in seen.column_names:
        seen = seen.append_column("model", pa.array(["model"] * seen.num_rows, pa.string()))
    seen = seen.set_column(0, "id", seen.column("id").cast(pa.string()))
    absent = gold.missing_batch(seen)
    return verdicts if absent is None else verdicts.union(ray.data.from_arrow(pa.Table.from_batches([absent])))


def score_files(predictions: str | Path | list, gold_path: str | Path, out: str | Path, options: Options = Options(),
                by=(), gold_format: str = "auto", actors: int = 1, quiet: bool = False) -> Result:
    """`score --engine ray`: read predictions with `ray.data.read_parquet`, write the verdicts
    as a parquet directory `out` (the missing predictions in its `missing_predictions.parquet`,
    found from the written verdicts without another pass over the input), and tally its
    summary. Connects to $RAY_ADDRESS when set (an existing cluster), else starts a local Ray;
    `quiet` keeps Ray's INFO lines and progress bars off. A run that fails removes the `out`
    directory it made."""
    if quiet:
        _silence_ray()
    if not ray.is_initialized():
        ray.init(include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR if quiet else logging.INFO)
    gold = Gold(read_gold(gold_path, gold_format), options, gold_path)
    paths = [str(path) for path in (predictions if isinstance(predictions, list) else [predictions])]
    filesystem, directory = _filesystem(out)
    made = filesystem.get_file_info(directory).type == pafs.FileType.NotFound
    try:
        ds = ray.data.read_parquet(paths, override_num_blocks=max(2 * actors, 1))
        score_dataset(ds, gold, actors=actors, batch_size=options.batch_size, missing=False).write_parquet(str(out))
        absent = gold.missing_batch(pads.dataset(str(out), format="parquet").to_table(columns=["model", "id"]))
        if absent is not None:
            pq.write_table(pa.Table.from_batches([absent]), Path(out) / "missing_predictions.parquet")
        tally, no_reference = Tally(tuple(by)), 0
        columns = list(dict.fromkeys(["model", "positive", "outcome", "subtype", "decided", "missing_prediction",
                                      "uncertain_reason",
                                      *(c for spec in by for c in ([spec] if isinstance(spec, str) else spec))]))
        for batch in pads.dataset(str(out), format="parquet").to_batches(columns=columns):
            tally.add(batch)
            no_reference += pc.sum(pc.equal(batch.column("uncertain_reason"), NO_REFERENCE_TIME)).as_py() or 0
    except BaseException:
        if made and filesystem.get_file_info(directory).type != pafs.FileType.NotFound:
            filesystem.delete_dir(directory)
        raise
    return Result(tally, rules_hash=rules_hash(), missing_predictions=0 if absent is None else absent.num_rows,
                  no_reference_rows=no_reference, **gold.run_notes)


def _silence_ray() -> None:
    """`-q`: no INFO lines or warnings from Ray either. Ray Data logs its progress at INFO
    through its own logger, whose level it sets again from $RAY_DATA_LOG_LEVEL at each run,
    warns when an actor gets no input, and draws progress bars on a terminal."""
    os.environ["RAY_DATA_LOG_LEVEL"] = "ERROR"
    logging.getLogger("ray").setLevel(logging.ERROR)
    warnings.filterwarnings("ignore", module=r"ray\.")
    ray.data.DataContext.get_current().enable_progress_bars = False


def _filesystem(out: str | Path) -> tuple:
    """(filesystem, path) of the output directory: a local path, or a URI such as s3://..."""
    if "://" in str(out):
        return pafs.FileSystem.from_uri(str(out))
    return pafs.LocalFileSystem(), str(Path(out).resolve())
