"""The cost of one value the scorer has not met before, by kind of value: microseconds per new
value, this tree beside a baseline tree (and beside its own pure-Python twins) in the same run.

    python bench/values.py [--count 20000] [--repeat 5] [--rounds 2] [--baseline DIR] [--python]

Whole runs hide this cost when values repeat (the memos answer); in sampled rollouts and sweeps
of many models the values that differ (times, free texts, numbers) are normalized one by one.
For each family of values below, every pass draws values never seen in the process (a stride
through the calendar, or a counter), and times `scorer.temporal.resolve` (temporal families) and
`scorer.normalize.canonical_cached` in a parameter of the matching kind, as the encoder calls it;
best of --repeat passes, wall clock, with the cyclic collector off while timing (a run raises its
thresholds, scorer.pipeline._rare_collections: here a collection of the whole heap would be
charged to whichever value set it off). Then, as outside data, every string of ACEBench's gold
arguments (../shared/peers/acebench, when present) resolved cold against three references.
Each tree runs in a child process: this one, --baseline's (a `git archive` copy with its
extensions built) and, with --python, this one with CALLSCORE_IMPL=python; the children run in
turn --rounds times and each figure is the best of its rounds (the machine is shared: a single
round moved figures by a third either way). Nothing here is a test: it reads the clock on purpose.
"""

import argparse
import datetime as dt
import gc
import importlib.util
import json
import os
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
ZONE = "Asia/Shanghai"
REFERENCE = dt.datetime(2026, 5, 1, 10, 0)
FIRST_DAY = dt.datetime(1200, 1, 1)
DAYS, MINUTES = 2_900_000, 4_000_000_000   # days and minutes after FIRST_DAY that stay before 9999


def _moment(index: int, dates_only: bool) -> dt.datetime:
    """The index-th fresh moment: strides prime to the span, so no two indices meet."""
    if dates_only:
        return FIRST_DAY + dt.timedelta(days=index * 97 % DAYS)
    return FIRST_DAY + dt.timedelta(minutes=index * 7919 % MINUTES)


# family -> (parameter kind, whether resolve is timed, the index-th value)
FAMILIES = {
    "ISO date-time": ("datetime", True, lambda i: _moment(i, False).strftime("%Y-%m-%dT%H:%M:%S")),
    "ISO date-time, offset": ("datetime", True, lambda i: _moment(i, False).strftime("%Y-%m-%dT%H:%M:%S+08:00")),
    "ISO date": ("date", True, lambda i: _moment(i, True).strftime("%Y-%m-%d")),
    "2026年3月10日": ("date", True, lambda i: "{0.year}年{0.month}月{0.day}日".format(_moment(i, True))),
    "2026年3月10日 14:30": ("datetime", True, lambda i: "{0.year}年{0.month}月{0.day}日 {0.hour}:{0.minute:02d}"
                                                        .format(_moment(i, False))),
    "free text r123": ("text", False, lambda i: f"r{i}"),
    "free text 北京123号": ("text", False, lambda i: f"北京{i}号"),
    "number": ("number", False, lambda i: f"{i}.5"),
}


def child(count: int, repeat: int, peers: str):
    """In a child with a tree first on the path: {family: {function: best µs per value}}."""
    from zoneinfo import ZoneInfo

    import scorer
    from scorer.normalize import Context, canonical_cached
    from scorer.parse import canonical_json
    from scorer.schema import Param
    from scorer.temporal import clear_caches, default_policy, resolve

    if not scorer.__file__.startswith(os.getcwd()):
        sys.exit(f"the child imported {scorer.__file__}, not the tree in {os.getcwd()}")
    reference, policy = REFERENCE.replace(tzinfo=ZoneInfo(ZONE)), default_policy()
    resolve("2026-01-01", reference, policy)   # the grammar compiled before timing
    drawn = 0

    def timed(function, make):
        nonlocal drawn
        best = float("inf")
        for _ in range(repeat):
            values = [make(drawn + index) for index in range(count)]
            drawn += count
            gc.disable()
            start = time.perf_counter()
            function(values)
            best = min(best, time.perf_counter() - start)
            gc.enable()
        return best / count * 1e6

    figures = {}
    for family, (kind, temporal, make) in FAMILIES.items():
        param, context = Param(kind=kind), Context(reference, "tool", "value", policy)
        figures[family] = {"canonical_cached": timed(
            lambda values: [canonical_cached(param, canonical_json(value), context) for value in values], make)}
        if temporal:
            figures[family]["resolve"] = timed(lambda values: [resolve(value, reference, policy) for value in values],
                                               make)
    bench_temporal = Path(os.getcwd()) / "bench" / "temporal.py"
    if (Path(peers) / "acebench").is_dir() and bench_temporal.is_file():
        spec = importlib.util.spec_from_file_location("bench_temporal", bench_temporal)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        items = module.corpus([])   # ACEBench's gold strings against three references
        best = float("inf")
        for _ in range(repeat):
            clear_caches()
            gc.disable()
            start = time.perf_counter()
            for text, moment in items:
                resolve(text, moment)
            best = min(best, time.perf_counter() - start)
            gc.enable()
        figures[f"ACEBench gold strings ({len(items):,}), cold"] = {"resolve": best / len(items) * 1e6}
    print(json.dumps(figures))


def run_child(tree: Path, count: int, repeat: int, peers: Path, implementation: str) -> dict:
    env = {**os.environ, "PYTHONPATH": str(tree), "CALLSCORE_IMPL": implementation}
    done = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--child", str(count), str(repeat),
                           str(peers.resolve())], cwd=tree, env=env, capture_output=True, text=True)
    if done.returncode:
        sys.exit(f"the child for {tree} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=20_000, help="new values per pass (default 20000)")
    parser.add_argument("--repeat", type=int, default=5, help="passes, the best one counts (default 5)")
    parser.add_argument("--baseline", type=Path, metavar="DIR", help="another tree, measured in the same run")
    parser.add_argument("--python", action="store_true", help="this tree with CALLSCORE_IMPL=python too")
    parser.add_argument("--rounds", type=int, default=2, help="children run in turn this many times (default 2)")
    parser.add_argument("--peers", type=Path, default=REPO / ".." / "shared" / "peers")
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child(int(args.child[0]), int(args.child[1]), args.child[2])
        return
    columns = [("this tree", REPO, "cython")]
    if args.python:
        columns.append(("pure twins", REPO, "python"))
    if args.baseline:
        columns.append(("baseline", args.baseline.resolve(), "cython"))
    figures = {}
    for _round in range(args.rounds):
        for name, tree, impl in columns:
            found = run_child(tree, args.count, args.repeat, args.peers, impl)
            best = figures.setdefault(name, found)
            for family, functions in found.items():
                for function, micros in functions.items():
                    best[family][function] = min(best[family][function], micros)
    print(f"µs per new value, best of {args.repeat} passes of {args.count:,} in each of {args.rounds} rounds "
          "(wall clock, collector off)")
    print(f"  {'values':<40}{'function':<18}" + "".join(f"{name:>13}" for name, _t, _i in columns)
          + ("   baseline / this" if args.baseline else ""))
    for family, functions in figures["this tree"].items():
        for function, ours in functions.items():
            line = f"  {family:<40}{function:<18}" + "".join(
                f"{figures[name][family][function]:13.2f}" for name, _t, _i in columns)
            if args.baseline:
                line += f"   {figures['baseline'][family][function] / ours:8.2f}x"
            print(line)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
