"""The trap bench: hand-labelled cases per class of difference, scored by `score`.

    python bench/traps.py [--traps bench/traps] [--baseline DIR] [--show-wrong]

Each `bench/traps/<class>.jsonl` holds one class (identifiers, negation, ...); a line is one
case: `id`, `tools` (the tool schemas), `gold_calls` and `calls` (the prediction), an optional
`reference_time`, the `label` set by hand from the class's rule before the scorer ran
(`correct`, `incorrect_value`, `missing_arg`, ...: the verdict a careful judge gives; or
`undecided`: only a judge can tell, so the rules are right to leave it), and `why`.

All cases are written to one gold and one prediction file and scored by `python -m scorer` in a
subprocess, with this tree's scorer and, with `--baseline DIR`, with another tree's (an unpacked
`git archive` of the commit to compare, with its compiled extensions copied in) on the same files
in the same run. Printed per class and scorer: cases; decided share (rows the scorer decided);
right where decided (decided rows whose verdict is the label: a decided row labelled
`undecided` is wrong); right (decided and right, or labelled `undecided` and left undecided).
The last line is every figure as one JSON object.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
REFERENCE = "2026-03-04T10:00:00+08:00"   # a Wednesday
MODEL = "traps"


def read_cases(directory: Path) -> dict:
    """{class: [case, ...]} from every <class>.jsonl of the directory, in name order."""
    classes = {}
    for path in sorted(directory.glob("*.jsonl")):
        with path.open(encoding="utf-8") as lines:
            classes[path.stem] = [json.loads(line) for line in lines if line.strip()]
    return classes


def write_inputs(classes: dict, workdir: Path) -> tuple:
    """(gold path, predictions path) holding every case once."""
    gold, predictions = workdir / "gold.jsonl", workdir / "predictions.jsonl"
    with gold.open("w", encoding="utf-8") as gold_file, predictions.open("w", encoding="utf-8") as pred_file:
        for cases in classes.values():
            for case in cases:
                tools = json.dumps(case["tools"], ensure_ascii=False)
                gold_file.write(json.dumps({"id": case["id"], "gold_calls": case["gold_calls"], "tools": tools,
                                            "reference_time": case.get("reference_time", REFERENCE)},
                                           ensure_ascii=False) + "\n")
                pred_file.write(json.dumps({"model": MODEL, "id": case["id"], "calls": case["calls"]},
                                           ensure_ascii=False) + "\n")
    return gold, predictions


def score_with(tree: Path, gold: Path, predictions: Path, out: Path) -> dict:
    """{id: verdict row} from `python -m scorer` run with the scorer of `tree`."""
    environment = {**os.environ, "PYTHONPATH": str(tree)}
    environment.pop("CALLSCORE_RULES", None)   # each tree reads its own rules/
    subprocess.run([sys.executable, "-m", "scorer", str(predictions), str(gold), "-o", str(out), "-q"],
                   check=True, env=environment, cwd=tree)
    with out.open(encoding="utf-8") as lines:
        return {row["id"]: row for row in map(json.loads, lines)}


def verdict_of(row: dict) -> str:
    """The verdict as a label names it: `correct`, else the subtype (or the outcome)."""
    return "correct" if row["outcome"] == "correct" else (row["subtype"] or row["outcome"])


def figures(cases: list, verdicts: dict) -> dict:
    """cases, decided share, right where decided and right overall, for one class."""
    rows = [(case, verdicts[case["id"]]) for case in cases]
    decided = sum(row["decided"] for _case, row in rows)
    right = sum(is_right(case, row) for case, row in rows)
    right_decided = sum(row["decided"] and is_right(case, row) for case, row in rows)
    return {"cases": len(cases), "decided": decided / len(cases), "right_where_decided":
            right_decided / decided if decided else None, "right": right / len(cases)}


def is_right(case: dict, row: dict) -> bool:
    """Decided as labelled, or labelled undecided and left undecided."""
    return verdict_of(row) == case["label"] if row["decided"] else case["label"] == "undecided"


def wrong_cases(cases: list, verdicts: dict) -> list:
    """(id, label, verdict, why) of each case not right."""
    found = []
    for case in cases:
        row = verdicts[case["id"]]
        if not is_right(case, row):
            shown = verdict_of(row) if row["decided"] else f"undecided ({verdict_of(row)})"
            found.append((case["id"], case["label"], shown, case["why"]))
    return found


def _percent(value) -> str:
    return "-" if value is None else f"{100 * value:.1f} %"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--traps", type=Path, default=ROOT / "bench" / "traps")
    parser.add_argument("--baseline", type=Path, help="another tree's scorer, scored on the same cases")
    parser.add_argument("--show-wrong", action="store_true", help="list the cases each scorer got wrong")
    args = parser.parse_args()
    classes = read_cases(args.traps)
    trees = {"this tree": ROOT}
    if args.baseline:
        trees = {"baseline": args.baseline.resolve(), **trees}
    with tempfile.TemporaryDirectory() as workdir:
        gold, predictions = write_inputs(classes, Path(workdir))
        verdicts = {name: score_with(tree, gold, predictions, Path(workdir) / f"verdicts-{index}.jsonl")
                    for index, (name, tree) in enumerate(trees.items())}
    everything = [case for cases in classes.values() for case in cases]
    table = {name: {**{cls: figures(cases, found) for cls, cases in classes.items()}, "all": figures(everything, found)}
             for name, found in verdicts.items()}
    print(f"{'class':<18}{'scorer':<11}{'cases':>6}{'decided':>10}{'right where decided':>21}{'right':>9}")
    for cls in [*classes, "all"]:
        for name in trees:
            row = table[name][cls]
            print(f"{cls:<18}{name:<11}{row['cases']:>6}{_percent(row['decided']):>10}"
                  f"{_percent(row['right_where_decided']):>21}{_percent(row['right']):>9}")
    if args.show_wrong:
        for name, found in verdicts.items():
            print(f"\nnot right, {name}:")
            for case_id, label, shown, why in wrong_cases(everything, found):
                print(f"  {case_id}: label {label}, scored {shown} ({why})")
    print(json.dumps(table, ensure_ascii=False))


if __name__ == "__main__":
    main()
