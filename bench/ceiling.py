"""How far compiled twins of hot spots can take callscore: the share of a pure-Python run spent
inside the functions that have a compiled twin, and the bound that share sets on the speed-up
of compiled over pure (Amdahl's law: twins that took no time at all would give 1 / (1 - share)).

    python bench/ceiling.py PREDICTIONS GOLD [--rows 50000] [--rounds 5]
    python bench/ceiling.py --bfcl [PEERS] [--rows 50000] [--rounds 5]

Three children score the first --rows rows in one process (scorer.pipeline.score_files,
--jobs 1):
1. CALLSCORE_IMPL=python, with `scorer.implementation.chosen` wrapped before the scorer is
   imported (loaded from its file and registered first, since `import scorer` imports every
   chooser). Each function it hands out (the pure twins of every compiled core: the matcher,
   the output scanners, the temporal start scan, text folding, the readers of dates written
   whole) is known by identity, not by a list kept here, and is handed out inside a wrapper
   that adds up its CPU seconds and calls. The share is their sum over the run's CPU seconds.
   The wrappers' own clock readings count in both, which errs towards a higher share, a
   higher bound;
2. and 3. CALLSCORE_IMPL=cython and =python with nothing wrapped, --rounds times each in
   alternation (best kept): the speed-up measured, which should fall below the bound up to the
   noise of the machine (on runs of a second it swings by a fifth).
The bound is the most any compiled twin of these functions can give, however fast; a larger
speed-up needs more of the run compiled. A second bound takes the whole scoring of distinct
predictions (Scorer.score_distinct: parse, normalize, encode, match, attribute) as compiled and
free: what remains is the work both implementations share, in Arrow and in the main process.
Both bounds are for one process; with --jobs the shared part runs in the main process alone.
Nothing here is a test: it reads the clock and asserts nothing.
"""

import argparse
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

REPO = Path(__file__).resolve().parents[1]


def twin_share(predictions: str, gold: str) -> dict:
    """In this process (CALLSCORE_IMPL=python): the run's CPU seconds, and the CPU seconds and
    calls inside each function `chosen` handed out, each timed by a wrapper of its own."""
    sys.path.insert(0, str(REPO))
    # loaded by hand and registered before the package: `import scorer` imports every chooser
    spec = importlib.util.spec_from_file_location("scorer.implementation", REPO / "scorer" / "implementation.py")
    implementation = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(implementation)
    spent, calls = {}, {}
    choose = implementation.chosen

    def timed(function):
        name = f"{function.__module__}.{function.__name__}"
        spent[name], calls[name] = 0.0, 0

        def wrapper(*args, **kwargs):
            start = time.process_time()
            try:
                return function(*args, **kwargs)
            finally:
                spent[name] += time.process_time() - start
                calls[name] += 1
        return wrapper

    def recording(*args, **kwargs):
        functions, which = choose(*args, **kwargs)
        return tuple(timed(function) for function in functions), which

    implementation.chosen = recording
    sys.modules["scorer.implementation"] = implementation
    from scorer import pipeline
    from scorer.options import Options

    scored, depth = [0.0], [0]
    score_distinct = pipeline.Scorer.score_distinct

    def timed_distinct(self, *args):
        """The distinct predictions' scoring (the workers' part with --jobs), outermost calls
        only: a slice that raises is scored again in halves, inside the first call."""
        depth[0] += 1
        start = time.process_time()
        try:
            return score_distinct(self, *args)
        finally:
            depth[0] -= 1
            if not depth[0]:
                scored[0] += time.process_time() - start

    pipeline.Scorer.score_distinct = timed_distinct
    start = time.process_time()
    pipeline.score_files(predictions, gold, Options(jobs=1))
    return {"total_s": time.process_time() - start, "twins_s": spent, "calls": calls, "distinct_s": scored[0]}


def timed_run(predictions: str, gold: str) -> dict:
    """In this process: the pipeline's CPU seconds, nothing wrapped."""
    sys.path.insert(0, str(REPO))
    from scorer import pipeline
    from scorer.options import Options

    start = time.process_time()
    result = pipeline.score_files(predictions, gold, Options(jobs=1))
    return {"cpu_s": time.process_time() - start, "implementation": result.implementation}


def child(mode: str, implementation: str, predictions: Path, gold: Path) -> dict:
    env = {**os.environ, "CALLSCORE_IMPL": implementation}
    done = subprocess.run([sys.executable, __file__, str(predictions), str(gold), "--child", mode],
                          env=env, cwd=REPO, capture_output=True, text=True)
    if done.returncode:
        sys.exit(f"the {mode} child with CALLSCORE_IMPL={implementation} failed:\n{done.stderr[-4000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def bfcl_files(peers: Path, directory: Path) -> tuple:
    """BFCL's published results of its 16 models and its gold (all categories bench/parity.py
    reads), written as callscore parquet files by parity's readers: outside data, all rows."""
    from parity import bfcl_gold, real_predictions

    root = peers / "bfcl-2024-08"
    predictions, gold = directory / "bfcl-predictions.parquet", directory / "bfcl-gold.parquet"
    pq.write_table(real_predictions(root, sorted(path.name for path in (root / "result").iterdir())), predictions)
    pq.write_table(pa.concat_tables(bfcl_gold(root).values(), promote_options="default"), gold)
    return predictions, gold


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("predictions", type=Path, nargs="?")
    parser.add_argument("gold", type=Path, nargs="?")
    parser.add_argument("--bfcl", type=Path, nargs="?", const=REPO.parent / "shared" / "peers", metavar="PEERS",
                        help="instead of PREDICTIONS GOLD: BFCL's published results in PEERS/bfcl-2024-08 "
                             "(default ../shared/peers), all 19,840 rows unless --rows is smaller")
    parser.add_argument("--rows", type=int, default=50_000, help="rows of PREDICTIONS scored (default 50000)")
    parser.add_argument("--rounds", type=int, default=5, help="unwrapped runs of each implementation (default 5)")
    parser.add_argument("--child", choices=("share", "time"), help=argparse.SUPPRESS)
    options = parser.parse_args(argv)
    if options.child:
        run = twin_share if options.child == "share" else timed_run
        print(json.dumps(run(str(options.predictions), str(options.gold))))
        return
    if (options.bfcl is None) == (options.gold is None):
        parser.error("give PREDICTIONS GOLD, or --bfcl")
    sys.path.insert(0, str(REPO / "bench"))
    from throughput import write_sample

    with tempfile.TemporaryDirectory() as directory:
        if options.bfcl is not None:
            options.predictions, options.gold = bfcl_files(options.bfcl, Path(directory))
        sample = Path(directory) / "sample.parquet"
        rows = write_sample(options.predictions, sample, options.rows)
        profile = child("share", "python", sample, options.gold)
        best = {"cython": float("inf"), "python": float("inf")}
        for _round in range(options.rounds):
            for implementation in best:
                figures = child("time", implementation, sample, options.gold)
                if figures["implementation"] != implementation:
                    sys.exit(f"asked for CALLSCORE_IMPL={implementation}, the scorer ran {figures['implementation']}")
                best[implementation] = min(best[implementation], figures["cpu_s"])
    total, twins = profile["total_s"], profile["twins_s"]
    share = sum(twins.values()) / total
    source = f"BFCL's published results ({options.bfcl})" if options.bfcl is not None else options.predictions
    print(f"{rows:,} rows of {source}, one process")
    print(f"  pure-Python run, twins timed: {total:.2f} CPU s; inside functions with a compiled twin: "
          f"{sum(twins.values()):.2f} s = {share:.1%}")
    for name, seconds in sorted(twins.items(), key=lambda item: -item[1]):
        print(f"    {seconds:7.3f} s  {seconds / total:6.1%}  {profile['calls'][name]:>9,} calls  {name}")
    bound = 1 / (1 - share)
    measured = best["python"] / best["cython"]
    shared = total - profile["distinct_s"]
    whole_bound = total / shared
    print(f"  bound on compiled / pure (twins taking no time): {bound:.2f}x")
    print(f"  scoring the distinct predictions (Scorer.score_distinct, the workers' part with --jobs): "
          f"{profile['distinct_s']:.2f} s; the rest, which both implementations share (reading, keying, "
          f"the verdict memo, spreading, writing, gold): {shared:.2f} s = {shared / total:.1%}")
    print(f"  bound with all of score_distinct compiled and taking no time: {whole_bound:.2f}x")
    print(f"  measured, nothing wrapped, best of {options.rounds}: pure {best['python']:.2f} s, "
          f"compiled {best['cython']:.2f} s = {measured:.2f}x")
    print(json.dumps({"rows": rows, "share_in_twins": round(share, 4), "bound": round(bound, 3),
                      "shared_s": round(shared, 3), "whole_bound": round(whole_bound, 3),
                      "measured": round(measured, 3), "twins_s": twins, "calls": profile["calls"]}))


if __name__ == "__main__":
    main()
