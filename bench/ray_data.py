"""Ray Data throughput with 1 and 2 actors beside the local run, on one machine.

    python bench/throughput.py --rows 200000 --generate-only --workdir /tmp/tp
    python bench/ray_data.py /tmp/tp/predictions.parquet /tmp/tp/gold.parquet [--actors 1 2] [--files 8]

Local: `Gold.score_file` in one process (jobs=1, as each actor). Ray reads the predictions
rewritten as --files parquet files (a dataset on a cluster is many files; Ray hands one file's
blocks to one actor, so a single file would keep the second actor idle). A local Ray with one
CPU more than the most actors, dashboard off; each run is timed from building the dataset to
its last verdict in the driver (reading, actor start-up with one gold normalization each,
scoring, the missing-prediction pass), `ray.init` excluded. Every run's verdicts are checked
equal to the local run's, row for row as a multiset (samples repeat (model, id) here). Prints
rows/s and ratios to local.
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


def _rows(table: pa.Table) -> list[str]:
    """Every verdict row as JSON, sorted: samples repeat (model, id), so sorting by those
    alone leaves their order to the engine; this compares the rows as a multiset."""
    return sorted(json.dumps(row, sort_keys=True, ensure_ascii=False, default=str) for row in table.to_pylist())


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("predictions")
    parser.add_argument("gold")
    parser.add_argument("--actors", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--files", type=int, default=8, help="files the predictions are split into for Ray")
    args = parser.parse_args()
    rows = pq.ParquetFile(args.predictions).metadata.num_rows
    gold = Gold.from_file(args.gold)
    work = tempfile.TemporaryDirectory()
    start = time.perf_counter()
    Gold.from_file(args.gold, jobs=1).score_file(args.predictions, out=Path(work.name) / "local.parquet")
    local_s = time.perf_counter() - start
    local = pq.read_table(Path(work.name) / "local.parquet")
    local_rows = _rows(local)
    split = Path(work.name) / "predictions"
    split.mkdir()
    table = pq.read_table(args.predictions)
    size = -(-table.num_rows // args.files)
    for part in range(args.files):
        pq.write_table(table.slice(part * size, size), split / f"part-{part:03d}.parquet")
    os.environ.pop("RAY_ADDRESS", None)
    ray.init(num_cpus=max(args.actors) + 1, include_dashboard=False, log_to_driver=False)
    ray.data.DataContext.get_current().enable_progress_bars = False
    figures = {"rows": rows, "local_s": round(local_s, 2), "local_rows_per_s": round(rows / local_s)}
    print(f"{rows} prediction rows; local (one process): {local_s:.1f} s, {rows / local_s:,.0f} rows/s")
    for actors in args.actors:
        start = time.perf_counter()
        ds = ray.data.read_parquet(str(split), override_num_blocks=args.files)  # small files: one block each
        got = pa.concat_tables(ray.get(score_dataset(ds, gold, actors=actors).to_arrow_refs()))
        seconds = time.perf_counter() - start
        same = _rows(got.cast(local.schema.remove_metadata())) == local_rows
        figures[f"ray_{actors}_s"] = round(seconds, 2)
        figures[f"ray_{actors}_rows_per_s"] = round(rows / seconds)
        print(f"ray, {actors} actor(s): {seconds:.1f} s, {rows / seconds:,.0f} rows/s, "
              f"{local_s / seconds:.2f}x local; verdicts equal to local: {same}")
    ray.shutdown()
    work.cleanup()
    figures["cores"] = os.cpu_count()
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
