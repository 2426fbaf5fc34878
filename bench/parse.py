"""Bulk parsing of raw outputs alone: microseconds per distinct text, by shape, this tree beside a
baseline tree measured in the same run.

    python bench/parse.py [--predictions FILE.parquet] [--peers ../shared/peers] [--baseline DIR]
                          [--repeat 5]

Texts: the distinct `output` values of a predictions parquet (bench/throughput.py writes one,
with the formats real models write), and the distinct text results of BFCL's 16 models in
../shared/peers/bfcl-2024-08/result (when present). Each set is grouped by shape (JSON first,
Python-call list, `<tool_call>`, `<function_call>`, fence, other) and `scorer.parse_bulk.parse_outputs`
times each group, best of --repeat, in CPU seconds, in a child process per tree (this one, and
--baseline's, a `git archive` copy with its extension built), alternating. Prints µs per text
and the ratio. Nothing here is a test: it reads the clock on purpose.
"""

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHAPES = ("json", "python", "tool_call", "function_call", "fence", "other", "all")


def shape(text: str) -> str:
    stripped = text.strip()
    if stripped.startswith(("{", "[{")):
        return "json"
    if stripped.startswith("["):
        return "python"
    for tag, name in (("<tool_call>", "tool_call"), ("<function_call>", "function_call"), ("```", "fence")):
        if tag in stripped:
            return name
    return "other"


def texts_of(predictions, peers) -> dict:
    import pyarrow.parquet as pq

    sets = {}
    if predictions:
        column = pq.read_table(predictions, columns=["output"]).column("output").to_pylist()
        sets[f"outputs of {Path(predictions).name}"] = list(dict.fromkeys(t for t in column if isinstance(t, str)))
    results = Path(peers) / "bfcl-2024-08" / "result"
    if results.is_dir():
        found = []
        for path in sorted(results.glob("*/*.json")):
            for line in path.read_text(encoding="utf-8").splitlines():
                result = json.loads(line).get("result")
                if isinstance(result, str):
                    found.append(result)
        sets["BFCL text results"] = list(dict.fromkeys(found))
    return sets


def child(texts_path: str, repeat: int):
    """In a child with a tree first on the path: {set: {shape: (texts, best µs per text)}}."""
    from scorer import parse_bulk
    from scorer.parse_bulk import parse_outputs

    if not parse_bulk.__file__.startswith(os.getcwd()):
        sys.exit(f"the child imported {parse_bulk.__file__}, not the tree in {os.getcwd()}")
    sets = json.loads(Path(texts_path).read_text(encoding="utf-8"))
    figures = {}
    for name, texts in sets.items():
        groups = {key: [text for text in texts if shape(text) == key] for key in SHAPES[:-1]}
        groups["all"] = texts
        figures[name] = {}
        for key, group in groups.items():
            if not group:
                continue
            best = float("inf")
            for _ in range(repeat):
                start = time.process_time()
                parse_outputs(group)
                best = min(best, time.process_time() - start)
            figures[name][key] = (len(group), best / len(group) * 1e6)
    print(json.dumps(figures))


def run_child(tree: Path, texts_path: Path, repeat: int) -> dict:
    env = {**os.environ, "PYTHONPATH": str(tree), "CALLSCORE_IMPL": "cython"}
    done = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--child", str(texts_path), str(repeat)],
                          cwd=tree, env=env, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--predictions", type=Path)
    parser.add_argument("--peers", type=Path, default=REPO / ".." / "shared" / "peers")
    parser.add_argument("--baseline", type=Path)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child(args.child[0], int(args.child[1]))
        return
    sets = texts_of(args.predictions, args.peers)
    if not sets:
        sys.exit("no texts: give --predictions, or --peers holding bfcl-2024-08")
    texts_path = Path(os.environ.get("TMPDIR", "/tmp")) / f"callscore-parse-bench-{os.getpid()}.json"
    texts_path.write_text(json.dumps(sets), encoding="utf-8")
    try:
        trees = [("this tree", REPO)] + ([("baseline", args.baseline.resolve())] if args.baseline else [])
        figures = {name: run_child(tree, texts_path, args.repeat) for name, tree in trees}
    finally:
        texts_path.unlink()
    for set_name in sets:
        print(f"{set_name}: µs per distinct text, best of {args.repeat} (CPU)")
        for key in SHAPES:
            if key not in figures["this tree"][set_name]:
                continue
            count, ours = figures["this tree"][set_name][key]
            line = f"  {key:<14} {count:>7,} texts  {ours:8.1f}"
            if "baseline" in figures:
                theirs = figures["baseline"][set_name][key][1]
                line += f"   baseline {theirs:8.1f}   {theirs / ours:5.2f}x"
            print(line)


if __name__ == "__main__":
    main()
