"""Ray Data throughput with 1 and 2 actors beside the local run, on one machine.

    python bench/throughput.py --rows 200000 --generate-only --workdir /tmp/tp
    python bench/ray_data.py /tmp/tp/predictions.parquet /tmp/tp/gold.parquet [--actors 1 2] [--blocks 8]

Local: `Gold.score_file` in one process (jobs=1, as each actor). Ray: a local Ray with one
CPU more than the most actors, dashboard off; each run is timed from building the dataset to
its last verdict in the driver (reading, actor start-up with one gold normalization each,
scoring, the missing-prediction pass), `ray.init` excluded. Every run's verdicts are checked
equal to the local run's after sorting by (model, id). Prints rows/s and ratios to local.
"""

import argparse
import json
import os
import tempfile
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import ray

from scorer import Gold
from scorer.engines.ray_data import score_dataset


def _sorted(table: pa.Table) -> pa.Table:
    return table.sort_by([("model", "ascending"), ("id", "ascending")])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("predictions")
    parser.add_argument("gold")
    parser.add_argument("--actors", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--blocks", type=int, default=8, help="read blocks (override_num_blocks)")
    args = parser.parse_args()
    rows = pq.ParquetFile(args.predictions).metadata.num_rows
    gold = Gold.from_file(args.gold)
    with tempfile.TemporaryDirectory() as work:
        start = time.perf_counter()
        Gold.from_file(args.gold, jobs=1).score_file(args.predictions, out=Path(work) / "local.parquet")
        local_s = time.perf_counter() - start
        local = _sorted(pq.read_table(Path(work) / "local.parquet"))
    os.environ.pop("RAY_ADDRESS", None)
    ray.init(num_cpus=max(args.actors) + 1, include_dashboard=False, log_to_driver=False)
    ray.data.DataContext.get_current().enable_progress_bars = False
    figures = {"rows": rows, "local_s": round(local_s, 2), "local_rows_per_s": round(rows / local_s)}
    print(f"{rows} prediction rows; local (one process): {local_s:.1f} s, {rows / local_s:,.0f} rows/s")
    for actors in args.actors:
        start = time.perf_counter()
        ds = ray.data.read_parquet(args.predictions, override_num_blocks=args.blocks)
        got = pa.concat_tables(ray.get(score_dataset(ds, gold, actors=actors).to_arrow_refs()))
        seconds = time.perf_counter() - start
        same = _sorted(got).cast(local.schema).equals(local)
        figures[f"ray_{actors}_s"] = round(seconds, 2)
        figures[f"ray_{actors}_rows_per_s"] = round(rows / seconds)
        print(f"ray, {actors} actor(s): {seconds:.1f} s, {rows / seconds:,.0f} rows/s, "
              f"{local_s / seconds:.2f}x local; verdicts equal to local: {same}")
    ray.shutdown()
    figures["cores"] = os.cpu_count()
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
