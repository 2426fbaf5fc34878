"""The normalizers' own CPU time in a scoring run: what scoring costs at least while the rules
stay in Python, whatever the pipeline around them does.

    python bench/normalizer_floor.py PREDICTIONS GOLD     # one process, prints JSON

Three entry points do the normalizers' work, and each is timed where it is called from:
- `canonical`, a value read for the first time (a gold value or a predicted one);
- `may_hold_time`, the scan of a free text for a place where a time could start;
- `pair_status`, a gold/predicted pair of free texts or numbers that needs more than equal keys.

A call made from inside another one is counted once, in the outer call. The timers cost about
1 µs a call. Run as a script, garbage collection is off while the run is timed.
"""

import argparse
import collections
import contextlib
import gc
import json
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

ENTRY_POINTS = (("scorer.normalize", "canonical", "value readings"),
                ("scorer.temporal", "may_hold_time", "free-text scans"),
                ("scorer.encode", "pair_status", "pair statuses"))


@contextlib.contextmanager
def timed_normalizers(entry_points=ENTRY_POINTS):
    """Within the block, the CPU seconds and calls of each entry point, by its label
    ({label: [seconds, calls]}); the functions are restored afterwards. An entry point is
    (module, attribute path, label): a function of the module or a method of one of its classes."""
    from throughput import attribute_owner

    spent = collections.defaultdict(lambda: [0.0, 0])
    depth = [0]
    originals = []
    for module_name, path, label in entry_points:
        owner, name = attribute_owner(module_name, path)
        if owner is None:
            raise AttributeError(f"{module_name} has no {path}: nothing to time")
        original = getattr(owner, name)
        originals.append((owner, name, original))

        def timed(*args, _original=original, _label=label, **kwargs):
            if depth[0]:
                return _original(*args, **kwargs)
            depth[0] += 1
            started = time.process_time()
            try:
                return _original(*args, **kwargs)
            finally:
                entry = spent[_label]
                entry[0] += time.process_time() - started
                entry[1] += 1
                depth[0] -= 1

        setattr(owner, name, timed)
    try:
        yield spent
    finally:
        for owner, name, original in originals:
            setattr(owner, name, original)


def floor_of(predictions: Path, gold: Path) -> dict:
    """Score the files in this process (one job, verdicts discarded) with the normalizers timed."""
    import pyarrow.parquet as pq

    from scorer.options import Options
    from scorer.pipeline import score_tables

    predictions_table, gold_table = pq.read_table(predictions), pq.read_table(gold)
    gc.disable()
    with timed_normalizers() as spent:
        started = time.process_time()
        score_tables(predictions_table, gold_table, Options(jobs=1))
        total = time.process_time() - started
    gc.enable()
    return {"scoring_cpu_s": round(total, 3), "normalizers_cpu_s": round(sum(s for s, _n in spent.values()), 3),
            **{label: {"cpu_s": round(seconds, 3), "calls": calls} for label, (seconds, calls) in spent.items()}}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("predictions", type=Path)
    parser.add_argument("gold", type=Path)
    options = parser.parse_args(argv)
    print(json.dumps(floor_of(options.predictions, options.gold)))


if __name__ == "__main__":
    main()
