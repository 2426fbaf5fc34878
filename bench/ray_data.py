"""Ray Data throughput with 1 and 2 actors beside the local run, on one machine.

    python bench/throughput.py --rows 200000 --generate-only --workdir /tmp/tp
    python bench/ray_data.py /tmp/tp/predictions.parquet /tmp/tp/gold.parquet [--actors 1 2] [--files 8]

Local: `Gold.score_file` in one process (jobs=1, as each actor). Ray reads the predictions as
they are (one file: score_dataset splits it into blocks of the batch size) and rewritten as
--files parquet files (a dataset on a cluster is many files), and, for its fixed cost, the
first 500 rows alone (no missing-prediction pass). A local Ray with one CPU more than the most actors, dashboard off; each
run is timed from building the dataset to its last verdict in the driver (reading, actor
start-up with one gold normalization each, scoring, the missing-prediction pass), `ray.init`
excluded. Every full run's verdicts are checked equal to the local run's, row for row as a
multiset (samples repeat (model, id) here). Prints seconds, rows/s and ratios to local, then
the cost Ray adds per row beyond its fixed cost, which says where Ray can pay: with that rate
per actor and as many actors as free cores (a cluster), the rows from which Ray beats one
local process.
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


def _timed(source: str, gold, actors: int, override, missing=True) -> tuple[float, pa.Table]:
    """(seconds, verdicts) of one Ray run over `source`, `override` blocks (None: Ray's own)."""
    start = time.perf_counter()
    ds = ray.data.read_parquet(source, override_num_blocks=override)
    got = pa.concat_tables(ray.get(score_dataset(ds, gold, actors=actors, missing=missing).to_arrow_refs()))
    return time.perf_counter() - start, got


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
    head = Path(work.name) / "head.parquet"
    pq.write_table(table.slice(0, 500), head)
    for actors in args.actors:
        fixed = _timed(str(head), gold, actors, override=None, missing=False)[0]
        figures[f"ray_{actors}_fixed_s"] = round(fixed, 2)
        print(f"ray, {actors} actor(s), first 500 rows (fixed cost): {fixed:.1f} s")
        for label, source, blocks in (("one file", args.predictions, None), (f"{args.files} files", str(split),
                                                                               args.files)):
            seconds, got = _timed(source, gold, actors, override=blocks)
            same = _rows(got.cast(local.schema.remove_metadata())) == local_rows
            key = f"ray_{actors}_{'one_file' if blocks is None else 'files'}"
            figures[f"{key}_s"] = round(seconds, 2)
            print(f"ray, {actors} actor(s), {label}: {seconds:.1f} s, {rows / seconds:,.0f} rows/s, "
                  f"{local_s / seconds:.2f}x local; verdicts equal to local: {same}")
        marginal = max(figures[f"ray_{actors}_files_s"] - fixed, 1e-9) / rows * actors   # actor-seconds a row
        figures[f"ray_{actors}_row_us_per_actor"] = round(marginal * 1e6, 1)
        print(f"  beyond the fixed cost: {marginal * 1e6:.1f} actor-us a row (local: {local_s / rows * 1e6:.1f} us)")
    best = min(figures[f"ray_{a}_row_us_per_actor"] for a in args.actors) / 1e6
    fixed = figures[f"ray_{min(args.actors)}_fixed_s"]
    for cores in (8, 32):
        gain = local_s / rows - best / cores   # seconds saved a row with `cores` actors
        crossover = round(fixed / gain) if gain > 0 else None
        figures[f"crossover_rows_{cores}_cores"] = crossover
        print(f"with {cores} actors on free cores: Ray beats one local process from "
              f"{'never' if crossover is None else f'{crossover:,} rows'}")
    ray.shutdown()
    work.cleanup()
    figures["cores"] = os.cpu_count()
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
