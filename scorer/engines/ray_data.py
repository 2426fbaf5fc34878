"""Ray Data: score a dataset of predictions on a Ray cluster (the `[ray]` extra).

`score_dataset(ds, gold)` maps `Gold.score_batch` over Arrow batches with an actor pool: each
actor receives the pickled gold once and normalizes it once, then scores every batch it gets.
Rows are scored independently, so the verdicts equal a local run's row for row (compare after
sorting by model, id); the missing predictions (gold ids a model has no row for) are found
from the (model, id) columns of the input, on the driver, and appended. Rows whose id is not
in gold are left out, as the CLI leaves them (it also notes them; here they are not counted).

Process-wide settings travel to the actors in their runtime environment ($CALLSCORE_RULES,
$CALLSCORE_POLICY, $CALLSCORE_IMPL): on a cluster a worker does not inherit the driver's
environment, and a rules directory must then be a path every node can read. Duplicate
predictions are kept as they are: `on_duplicate` first/last/error need every row of a
(model, id) in one process, which actors do not have, so they are refused.

Spark takes the same function: `df.mapInArrow(lambda batches: (gold.score_batch(b) for b in
batches), schema)`, the gold pickled into each task once (README, "Library API").
"""

from __future__ import annotations

import os
from pathlib import Path

import pyarrow as pa
import pyarrow.dataset as pads
import pyarrow.parquet as pq
import ray

from scorer.aggregate import Tally
from scorer.api import Gold
from scorer.options import Options
from scorer.pipeline import Result, read_gold
from scorer.rules import rules_hash
from scorer.temporal.policy import POLICY_ENV

PROCESS_SETTINGS = ("CALLSCORE_RULES", POLICY_ENV, "CALLSCORE_IMPL")   # read from the environment by each process


def worker_environment() -> dict:
    """The runtime environment that gives actors this process's callscore settings."""
    return {"env_vars": {name: os.environ[name] for name in PROCESS_SETTINGS if name in os.environ}}


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
    scoring actors, one CPU each; `missing` appends the rows of missing predictions."""
    gold = gold if isinstance(gold, Gold) else Gold.from_file(gold, **options)
    if gold.options.on_duplicate != "keep":
        raise ValueError(f"on_duplicate={gold.options.on_duplicate!r} needs every row of a (model, id) in one "
                         "process; score on Ray with on_duplicate='keep', or locally")
    verdicts = ds.map_batches(ScoreBatches, fn_constructor_args=(gold,), batch_format="pyarrow",
                              batch_size=batch_size, compute=ray.data.ActorPoolStrategy(size=actors), num_cpus=1,
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
                by=(), gold_format: str = "auto", actors: int = 1) -> Result:
    """`score --engine ray`: read predictions with `ray.data.read_parquet`, write the verdicts
    as a parquet directory `out` (the missing predictions in its `missing_predictions.parquet`,
    found from the written verdicts without another pass over the input), and tally its
    summary. Connects to $RAY_ADDRESS when set (an existing cluster), else starts a local Ray."""
    if not ray.is_initialized():
        ray.init(include_dashboard=False, log_to_driver=False)
    gold = Gold(read_gold(gold_path, gold_format), options, gold_path)
    paths = [str(path) for path in (predictions if isinstance(predictions, list) else [predictions])]
    ds = ray.data.read_parquet(paths, override_num_blocks=max(2 * actors, 1))
    score_dataset(ds, gold, actors=actors, batch_size=options.batch_size, missing=False).write_parquet(str(out))
    absent = gold.missing_batch(pads.dataset(str(out), format="parquet").to_table(columns=["model", "id"]))
    if absent is not None:
        pq.write_table(pa.Table.from_batches([absent]), Path(out) / "missing_predictions.parquet")
    tally = Tally(tuple(by))
    columns = list(dict.fromkeys(["model", "positive", "outcome", "subtype", "decided", "missing_prediction",
                                  *(c for spec in by for c in ([spec] if isinstance(spec, str) else spec))]))
    result = Result(tally, rules_hash=rules_hash(), missing_predictions=0 if absent is None else absent.num_rows)
    for batch in pads.dataset(str(out), format="parquet").to_batches(columns=columns):
        tally.add(batch)
    return result
