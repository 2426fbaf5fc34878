"""Benchmark of the temporal resolver: speed (cold and cached), the share of calls that
reached dateparser, and accuracy by family against plain dateparser, in one run.

Corpus (>= 100k values): the labelled cases of tests/data/temporal_zh.jsonl, each resolved
against 60 reference times, plus every string argument value of the ACEBench gold
(../shared/peers/acebench, skipped when absent) against 3 reference times. Accuracy is
measured on the labelled cases only (their expected intervals are known).

Run from the repo root: `python bench/temporal.py`.
"""

import datetime as dt
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scorer.temporal import TemporalPolicy, clear_caches, counters, resolve  # noqa: E402

CASES_FILE = ROOT / "tests" / "data" / "temporal_zh.jsonl"
ACEBENCH = ROOT / ".." / "shared" / "peers" / "acebench"
TZ = dt.timezone(dt.timedelta(hours=8))


def labelled_cases():
    return [json.loads(line) for line in CASES_FILE.read_text(encoding="utf-8").splitlines() if line.strip()]


def _strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def acebench_values():
    values = []
    for path in sorted(ACEBENCH.glob("data_*/possible_answer/*.json")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                values.extend(_strings(json.loads(line).get("ground_truth")))
    return values


def corpus(cases):
    references = [dt.datetime(2024, 1, 1, 9, tzinfo=TZ) + dt.timedelta(days=37 * i, hours=i % 13) for i in range(60)]
    items = [(case["text"], ref) for ref in references for case in cases]
    items += [(value, ref) for ref in references[:3] for value in acebench_values()]
    return items


def timed_pass(items):
    started = time.perf_counter()
    for text, ref in items:
        resolve(text, ref)
    return len(items) / (time.perf_counter() - started)


def _policy(case):
    return TemporalPolicy.from_overrides(case["policy"]) if case.get("policy") else None


def callscore_correct(case):
    iv = resolve(case["text"], dt.datetime.fromisoformat(case["reference_time"]), _policy(case))
    expected = case["expected"]
    if iv is None or expected is None:
        return iv is None and expected is None
    return (iv.start.isoformat(), iv.end.isoformat(), iv.granularity) == (
        expected["start"], expected["end"], expected["granularity"])


def dateparser_correct(case, parse):
    """Plain dateparser with RELATIVE_BASE: a point, so any point inside the expected interval
    counts as right (lenient in its favour); None is right for non-temporal cases."""
    ref = dt.datetime.fromisoformat(case["reference_time"])
    try:
        value = parse(case["text"], settings={"RELATIVE_BASE": ref.replace(tzinfo=None)})
    except Exception:  # a crash on odd input counts as a wrong answer, not a failed benchmark
        value = None
    expected = case["expected"]
    if value is None or expected is None:
        return value is None and expected is None
    value = value.replace(tzinfo=None) if value.tzinfo is None else value.astimezone(TZ).replace(tzinfo=None)
    start = dt.datetime.fromisoformat(expected["start"]).replace(tzinfo=None)
    end = dt.datetime.fromisoformat(expected["end"]).replace(tzinfo=None)
    return start <= value < end


def main():
    cases = labelled_cases()
    items = corpus(cases)
    clear_caches()
    cold = timed_pass(items)
    cold_counts = counters()
    cached = timed_pass(items)
    print(f"corpus: {len(items)} values ({len(set(t for t, _ in items))} distinct texts)")
    print(f"cold:   {cold:,.0f} expressions/s")
    print(f"cached: {cached:,.0f} expressions/s")
    print(f"reached dateparser (cold pass): {cold_counts['dateparser']} of {cold_counts['calls']} calls "
          f"({100 * cold_counts['dateparser'] / cold_counts['calls']:.2f} %)")

    import dateparser
    families = sorted({case["family"] for case in cases})
    print(f"\naccuracy on the {len(cases)} labelled cases (exact interval + granularity for callscore; "
          "any point inside the interval for dateparser)")
    print(f"{'family':<14}{'n':>6}{'callscore':>12}{'dateparser':>12}")
    totals = [0, 0, 0]
    for family in families:
        subset = [case for case in cases if case["family"] == family]
        ours = sum(callscore_correct(case) for case in subset)
        theirs = sum(dateparser_correct(case, dateparser.parse) for case in subset)
        totals = [totals[0] + len(subset), totals[1] + ours, totals[2] + theirs]
        print(f"{family:<14}{len(subset):>6}{100 * ours / len(subset):>11.1f}%{100 * theirs / len(subset):>11.1f}%")
    print(f"{'all':<14}{totals[0]:>6}{100 * totals[1] / totals[0]:>11.1f}%{100 * totals[2] / totals[0]:>11.1f}%")


if __name__ == "__main__":
    main()
