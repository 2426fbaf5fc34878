"""Benchmark of the temporal resolver, in one run: accuracy on public test suites the project did
not write (../shared/temporal-dev) per source, with the default policies and with each source's
own conventions set through policies, beside plain dateparser and the previous resolver (commit
ffb98d0); throughput cold and cached; the share of calls that reached dateparser.

Scoring of a dev case: exact [start, end); only the start where the source asserted an instant
(`interval_derived`). A text the whole-value resolver does not read is searched as free text
(find_in_text), since some sources assert the span found inside a sentence ("我明天要打游戏").
Cases without a reference time are absolute; they are resolved against 2020-01-01 00:00.

Throughput corpus (>= 100k values): the dev texts and the labelled cases of
tests/data/temporal_zh.jsonl, each against 60 reference times, plus every string argument
value of the ACEBench gold (../shared/peers/acebench, skipped when absent) against 3.

Run from the repo root: `python bench/temporal.py` (about a minute on the shared 2-core
machine; `--misses FILE` writes every miss with the default and the conventions policy).
"""

import argparse
import collections
import datetime as dt
import functools
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scorer.temporal import TemporalPolicy, clear_caches, counters, find_in_text, resolve  # noqa: E402

CASES_FILE = ROOT / "tests" / "data" / "temporal_zh.jsonl"
DEV_FILE = ROOT / ".." / "shared" / "temporal-dev" / "cases.jsonl"
ACEBENCH = ROOT / ".." / "shared" / "peers" / "acebench"
PREVIOUS = "ffb98d0"
ABSOLUTE_REFERENCE = "2020-01-01T00:00:00"
TZ = dt.timezone(dt.timedelta(hours=8))

# Each source's conventions where they are a legitimate alternative reading, as policies (the
# source README's "Known convention differences"). Choices a source makes that we judge wrong
# (docs/temporal.md) are not here.
CONVENTIONS = {
    "jionlp": [  # hour points, closed ranges, its own part-of-day spans, windows from the instant
        "clock_granularity=hour", "clock_range_end=inclusive", "recent_window=instant", "upcoming_window=instant",
        "part_of_day.早上=6-10", "part_of_day.上午=7-12", "part_of_day.中午=12-13", "part_of_day.白天=6-19",
        "part_of_day.午后=13-15", "part_of_day.黎明=4-7", "part_of_day.后半夜=2-5", "part_of_day.夜间=20-24",
        "solar_term_year=spring_start", "year_end_holidays=lunar_year",
        "month_end=from_25th", "month_start=first_five_days", "year_edge=two_months", "season=solar_terms",
        "ordinal_origin=reference", "offset_clock=unit_span", "within_end=through_last_day",
        "window_far_edge=midnight", "approximate_window=unit_start"],
    "chrono": [  # one representative hour per part of day, offsets to the day (not bare_weekday=nearest:
        # chrono's own tests disagree, 星期四 on a Friday is the day before, 礼拜四 the next week's);
        # 明天 said before 02:00 is the day not yet slept through (its casual-date parser)
        "next_weekday=upcoming_excluding_today", "offset_unit=same_day", "small_hours=same_day", "small_hours_end=2",
        "part_of_day.早上=6-7", "part_of_day.下午=15-16", "part_of_day.晚上=22-23", "part_of_day.凌晨=0-1"],
    "when": [],
    "dateparser": [],
    "dateparser-tw": [],
    "mcp-chinese-time": ["recent_window=same_day_back", "holiday_year=reference_year", "holiday_break=statutory_break"],
    "pyunit-time": ["solar_term_year=spring_start"],
    "zh-time-nlp": [  # the next such clock time; one representative hour per part of day
        "bare_clock=upcoming", "part_of_day.凌晨=3-4", "part_of_day.早上=8-9", "part_of_day.上午=10-11",
        "part_of_day.中午=12-13", "part_of_day.下午=15-16", "part_of_day.晚上=18-19"],
    "chinesetimenlp": [],
}

# Cases a source parsed with an option other than its usual one (flagged in `source_convention`):
# such a case gets the policies of that option on top of its source's conventions, when the option
# is a legitimate reading (JioNLP's ret_future=True: the next occurrence; lunar_date=False: a
# month-day is Gregorian). Counted beside the headline.
CASE_OPTIONS = {
    "parsed with ret_future=True": ["bare_month_day=upcoming", "bare_day_of_month=upcoming",
                                    "bare_weekday=upcoming_excluding_today", "bare_clock=upcoming"],
    "parsed with lunar_date=False": ["unmarked_month_day=gregorian"],
}


# A test that gave its base time only to the minute, hour, day, month or year (`reference_precision`)
# said "now" is that whole unit: in the conventions column the case gets policy reference_unit for it.
# It is an input, not a reading of the text; counted beside the headline.
COARSE_REFERENCES = ("minute", "hour", "day", "month", "year")


def source_of(case) -> str:
    return case["id"].rsplit("-", 1)[0]


def dev_cases():
    if not DEV_FILE.is_file():
        return []
    return [json.loads(line) for line in DEV_FILE.read_text(encoding="utf-8").splitlines() if line.strip()]


def reference_of(case) -> dt.datetime:
    return dt.datetime.fromisoformat(case["reference_time"] or ABSOLUTE_REFERENCE).replace(tzinfo=TZ)


def correct(case, start: dt.datetime | None, end: dt.datetime | None) -> bool:
    if start is None:
        return False
    if start.tzinfo is not None:
        start, end = start.astimezone(TZ).replace(tzinfo=None), end.astimezone(TZ).replace(tzinfo=None)
    if case["interval_derived"]:
        return start.isoformat() == case["start"]
    return (start.isoformat(), end.isoformat()) == (case["start"], case["end"])


def ours(case, policy):
    ref = reference_of(case)
    iv = resolve(case["text"], ref, policy) or find_in_text(case["text"], ref, policy)
    return (iv.start, iv.end) if iv else (None, None)


def dateparser_reading(case, parse):
    """Plain dateparser with RELATIVE_BASE; its point is the start (end one second later)."""
    ref = reference_of(case).replace(tzinfo=None)
    try:
        value = parse(case["text"], settings={"RELATIVE_BASE": ref})
    except Exception:  # a crash on odd input counts as a wrong answer, not a failed benchmark
        value = None
    return (value, value + dt.timedelta(seconds=1)) if value else (None, None)


_PREVIOUS_RUNNER = """
import datetime as dt, json, sys, time
from scorer.temporal import clear_caches, find_in_text, resolve
task = json.load(sys.stdin)
pairs = [(text, dt.datetime.fromisoformat(ref)) for text, ref in task["pairs"]]
if task["mode"] == "throughput":
    clear_caches()
    started = time.perf_counter()
    for text, ref in pairs:
        resolve(text, ref)
    json.dump(len(pairs) / (time.perf_counter() - started), sys.stdout)
else:
    out = []
    for text, ref in pairs:
        iv = resolve(text, ref) or find_in_text(text, ref)
        out.append(None if iv is None else [iv.start.isoformat(), iv.end.isoformat()])
    json.dump(out, sys.stdout)
"""


def run_previous(mode, pairs):
    """The resolver of commit ffb98d0, extracted with `git archive` and run in a subprocess
    (its own rules directory): its readings of `pairs` or its cold throughput on them; None
    when git or the commit is unavailable."""
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", PREVIOUS, "scorer", "rules"],
                                 capture_output=True)
        if archive.returncode != 0:
            return None
        subprocess.run(["tar", "-x", "-C", tmp], input=archive.stdout, check=True)
        payload = json.dumps({"mode": mode, "pairs": [[text, ref.isoformat()] for text, ref in pairs]})
        env = {**os.environ, "PYTHONPATH": tmp, "CALLSCORE_RULES": str(Path(tmp) / "rules"),
               "CALLSCORE_IMPL": "python"}
        env.pop("CALLSCORE_POLICY", None)
        run = subprocess.run([sys.executable, "-c", _PREVIOUS_RUNNER], input=payload, capture_output=True,
                             text=True, env=env, cwd=tmp)
        if run.returncode != 0:
            print(f"previous resolver failed: {run.stderr.strip().splitlines()[-1:]}")
            return None
        return json.loads(run.stdout)


def previous_readings(cases):
    readings = run_previous("readings", [(case["text"], reference_of(case)) for case in cases])
    if readings is None:
        return None
    return [(dt.datetime.fromisoformat(r[0]), dt.datetime.fromisoformat(r[1])) if r else (None, None)
            for r in readings]


def case_option(case) -> str | None:
    """The CASE_OPTIONS key whose option the source used for this case, if any."""
    note = case.get("source_convention") or ""
    return next((option for option in CASE_OPTIONS if option in note), None)


def accuracy_table(cases, misses_path=None):
    import dateparser

    default = TemporalPolicy.from_overrides({})
    conventions = {source: TemporalPolicy.from_strings(pairs, base=default) for source, pairs in CONVENTIONS.items()}
    with_option = {(source, option): TemporalPolicy.from_strings(CASE_OPTIONS[option], base=policy)
                   for source, policy in conventions.items() for option in CASE_OPTIONS}
    optioned = collections.Counter()
    previous = previous_readings(cases)
    counts = collections.defaultdict(lambda: [0, 0, 0, 0, 0])
    misses = []
    for index, case in enumerate(cases):
        source = source_of(case)
        row = counts[source]
        option = case_option(case)
        own = with_option[source, option] if option else conventions.get(source, default)
        precision = case.get("reference_precision")
        if precision in COARSE_REFERENCES:
            without_precision = correct(case, *ours(case, own))
            own = TemporalPolicy.from_strings([f"reference_unit={precision}"], base=own)
        got_default, got_conventions = ours(case, default), ours(case, own)
        with_default = correct(case, *got_default)
        with_conventions = correct(case, *got_conventions)
        if option:
            optioned[option, with_conventions] += 1
        if precision in COARSE_REFERENCES:
            optioned["coarse reference", with_conventions] += 1
            optioned["coarse reference, without", without_precision] += 1
        row[0] += 1
        row[1] += with_default
        row[2] += with_conventions
        row[3] += correct(case, *dateparser_reading(case, dateparser.parse))
        row[4] += previous is not None and correct(case, *previous[index])
        if not with_default or not with_conventions:
            misses.append({"id": case["id"], "text": case["text"], "default": with_default,
                           "conventions": with_conventions,
                           "got_default": [str(x) for x in got_default],
                           "got_conventions": [str(x) for x in got_conventions],
                           "expected": [case["start"], case["end"]], "interval_derived": case["interval_derived"],
                           "reference_time": case["reference_time"], "note": case.get("source_convention")})
    print(f"\naccuracy on {DEV_FILE.name} ({len(cases)} cases from public test suites; exact [start, end), "
          "start only where the source asserts an instant)")
    print(f"{'source':<18}{'n':>5}{'default':>10}{'conventions':>13}{'dateparser':>12}{'previous':>10}")
    total = [0, 0, 0, 0, 0]
    for source in sorted(counts, key=lambda s: -counts[s][0]):
        row = counts[source]
        total = [a + b for a, b in zip(total, row)]
        print(f"{source:<18}{row[0]:>5}" + "".join(f"{100 * v / row[0]:>{w}.1f}%" for v, w in
                                                  zip(row[1:], (9, 12, 11, 9))))
    print(f"{'all':<18}{total[0]:>5}" + "".join(f"{100 * v / total[0]:>{w}.1f}%" for v, w in
                                               zip(total[1:], (9, 12, 11, 9))))
    for option in CASE_OPTIONS:
        right, wrong = optioned[option, True], optioned[option, False]
        print(f"  of which {right + wrong} case(s) {option} (its policies: {' '.join(CASE_OPTIONS[option])}) "
              f"in the conventions column: {right} exact")
    right, without = optioned["coarse reference", True], optioned["coarse reference, without", True]
    cases_coarse = right + optioned["coarse reference", False]
    print(f"  of which {cases_coarse} case(s) with a reference given only to the minute or coarser (policy "
          f"reference_unit set to it) in the conventions column: {right} exact, {without} without that policy "
          f"(conventions column without it: {100 * (total[2] - right + without) / total[0]:.1f}%)")
    if previous is None:
        print("(previous resolver unavailable: needs git and the commit in this checkout)")
    print("conventions: " + "; ".join(f"{s}: {' '.join(p) or 'defaults'}" for s, p in CONVENTIONS.items()))
    if misses_path:
        with open(misses_path, "w", encoding="utf-8") as handle:
            for miss in misses:
                handle.write(json.dumps(miss, ensure_ascii=False) + "\n")
        print(f"misses written to {misses_path}")


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


@functools.lru_cache(maxsize=None)
def acebench_values() -> tuple:
    """Every string of ACEBench's gold arguments, read once per run."""
    values = []
    for path in sorted(ACEBENCH.glob("data_*/possible_answer/*.json")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                values.extend(_strings(json.loads(line).get("ground_truth")))
    return tuple(values)


def corpus(texts):
    references = [dt.datetime(2024, 1, 1, 9, tzinfo=TZ) + dt.timedelta(days=37 * i, hours=i % 13) for i in range(60)]
    items = [(text, ref) for ref in references for text in texts]
    values = acebench_values()
    items += [(value, ref) for ref in references[:3] for value in values]
    return items


def timed_pass(items):
    started = time.perf_counter()
    for text, ref in items:
        resolve(text, ref)
    return len(items) / (time.perf_counter() - started)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--misses", help="write every dev-set miss (JSON lines) here")
    args = parser.parse_args()
    cases = dev_cases()
    own = labelled_cases()
    items = corpus([case["text"] for case in own] + [case["text"] for case in cases])
    clear_caches()
    cold = timed_pass(items)
    cold_counts = counters()
    cached = timed_pass(items)
    distinct = len(set(items))
    print(f"corpus: {len(items)} values ({len(set(t for t, _ in items))} distinct texts, "
          f"{100 * (1 - distinct / len(items)):.1f} % repeated (text, reference) pairs)")
    previous = run_previous("throughput", items)
    print(f"cold:   {cold:,.0f} expressions/s" + (f" (previous resolver {PREVIOUS}, same corpus, same run: "
                                                  f"{previous:,.0f}/s; ratio {cold / previous:.2f})" if previous else ""))
    print(f"cached: {cached:,.0f} expressions/s")
    own_items = corpus([case["text"] for case in own])  # the corpus earlier versions of this script used
    clear_caches()
    own_cold = timed_pass(own_items)
    own_previous = run_previous("throughput", own_items)
    print(f"cold on the {len(own_items)} values without the dev texts: {own_cold:,.0f} expressions/s"
          + (f" (previous resolver {own_previous:,.0f}/s; ratio {own_cold / own_previous:.2f})" if own_previous else ""))
    print(f"reached dateparser (cold pass): {cold_counts['dateparser']} of {cold_counts['calls']} calls "
          f"({100 * cold_counts['dateparser'] / cold_counts['calls']:.2f} %)")
    if cases:
        accuracy_table(cases, args.misses)
    else:
        print(f"\n{DEV_FILE} is absent: no accuracy on public test suites")
    ours_right = sum(_own_correct(case) for case in own)
    print(f"\nown corpus ({CASES_FILE.name}, written for this resolver): {ours_right} of {len(own)} "
          f"({100 * ours_right / len(own):.1f} %) exact interval and granularity")


def _own_correct(case):
    policy = TemporalPolicy.from_overrides(case["policy"]) if case.get("policy") else None
    iv = resolve(case["text"], dt.datetime.fromisoformat(case["reference_time"]), policy)
    expected = case["expected"]
    if iv is None or expected is None:
        return iv is None and expected is None
    return (iv.start.isoformat(), iv.end.isoformat(), iv.granularity) == (
        expected["start"], expected["end"], expected["granularity"])


if __name__ == "__main__":
    main()
