"""Throughput of `score dialogue` against the single-turn path, per turn, in the same run.

    python bench/dialogues.py [--turns 100000] [--jobs 2] [--workdir DIR]

Generates dialogues of 2-60 turns from the example multi-turn benchmark's scenes and the three
models' perturbations (data/examples/build_dialogues.py, imported; seeded), until the models'
predicted turns reach `--turns`. Writes them twice: nested (one row per dialogue, what `score
dialogue` reads) and flat (one gold row and one prediction row per turn, what `score` reads),
then times, in subprocesses, `score dialogue` (turn and dialogue verdict files written) and
`score` (turn verdicts written) on the same turns, and prints turns/s of each and the ratio
of seconds per turn (dialogue / single-turn). Also printed: the repetition rate (predicted
turns per distinct (turn, prediction) pair: the share the single-turn verdict memo can save)
and the length-bucket mix. The last line is every figure as one JSON object.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "data" / "examples"))

import build_dialogues  # noqa: E402

from scorer.dialogue import bucket_of  # noqa: E402


def generate(turns_wanted: int, seed: int):
    """(gold dialogues, nested predictions): dialogues drawn in chunks until the predicted turns
    (every model, the turns each predicted) reach `turns_wanted`."""
    gold, predictions, predicted, chunk = [], [], 0, 0
    while predicted < turns_wanted:
        more = build_dialogues.dialogues(count=200, seed=f"bench {seed} {chunk}",
                                         scene_counts=(1, 2, 3, 4, 6, 8, 12, 16), max_turns=60)
        for index, dialogue in enumerate(more):
            dialogue["id"] = f"b{chunk}-{index}"
        rows, _intended = build_dialogues.predictions(more)
        gold += more
        predictions += rows
        predicted += sum(len(row["turns"]) for row in rows)
        chunk += 1
    return gold, predictions


def write_jsonl(path: Path, rows):
    with open(path, "w", encoding="utf-8") as handle:
        for row in rows:
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")


def flat(gold, predictions):
    """The same turns as single-turn gold and prediction rows."""
    gold_rows = []
    for dialogue in gold:
        tools = json.dumps(dialogue["tools"], ensure_ascii=False)
        for index, turn in enumerate(dialogue["turns"], start=1):
            gold_rows.append({"id": f"{dialogue['id']}#{index}", "gold_calls": turn["gold_calls"],
                              "reference_time": dialogue["reference_time"], "tools": tools,
                              "negative_type": turn.get("negative_type")})
    prediction_rows = []
    for row in predictions:
        for index, turn in enumerate(row["turns"], start=1):
            prediction_rows.append({"id": f"{row['id']}#{index}", "model": row["model"], **turn})
    return gold_rows, prediction_rows


def timed(command):
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"{' '.join(command)} failed:\n{done.stderr}")
    return time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--turns", type=int, default=100_000)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workdir", type=Path)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        work = args.workdir or Path(scratch)
        work.mkdir(parents=True, exist_ok=True)
        gold, predictions = generate(args.turns, args.seed)
        gold_rows, prediction_rows = flat(gold, predictions)
        for name, rows in (("dialogue_gold.jsonl", [dict(d, tools=json.dumps(d["tools"], ensure_ascii=False))
                                                    for d in gold]),
                           ("dialogue_predictions.jsonl", predictions), ("turn_gold.jsonl", gold_rows),
                           ("turn_predictions.jsonl", prediction_rows)):
            write_jsonl(work / name, rows)
        turns = len(prediction_rows)
        distinct = len({(r["id"], json.dumps(r.get("calls"), ensure_ascii=False), r.get("output"))
                        for r in prediction_rows})
        score = [sys.executable, "-m", "scorer"]
        single = timed([*score, str(work / "turn_predictions.jsonl"), str(work / "turn_gold.jsonl"),
                        "-o", str(work / "turn_verdicts.parquet"), "-q", "--jobs", str(args.jobs)])
        multi = timed([*score, "dialogue", str(work / "dialogue_predictions.jsonl"), str(work / "dialogue_gold.jsonl"),
                       "-o", str(work / "dialogue_turns.parquet"), "--dialogues", str(work / "dialogues.parquet"),
                       "-q", "--jobs", str(args.jobs)])
    buckets = Counter(bucket_of(len(d["turns"])) for d in gold)
    figures = {"dialogues": len(gold), "gold_turns": len(gold_rows), "predicted_turns": turns,
               "repetition": round(turns / distinct, 3), "jobs": args.jobs,
               "single_turn_s": round(single, 2), "dialogue_s": round(multi, 2),
               "single_turn_turns_per_s": round(turns / single), "dialogue_turns_per_s": round(turns / multi),
               "dialogue_over_single_per_turn": round(multi / single, 2), "buckets": dict(sorted(buckets.items()))}
    print(f"{len(gold)} dialogues, {len(gold_rows)} gold turns, {turns} predicted turns "
          f"(3 models; {figures['repetition']} rows per distinct (turn, prediction)), --jobs {args.jobs}")
    print(f"dialogue lengths: {figures['buckets']}")
    print(f"score (single-turn rows): {single:.2f} s, {turns / single:,.0f} turns/s")
    print(f"score dialogue:           {multi:.2f} s, {turns / multi:,.0f} turns/s")
    print(f"seconds per turn, dialogue / single-turn: {multi / single:.2f}x (target: at most 2x)")
    print(json.dumps(figures, ensure_ascii=False))


if __name__ == "__main__":
    main()
