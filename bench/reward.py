"""Reward latency: one batch of 1,024 raw completions scored on one core, after warm-up.

    python bench/reward.py [--batch 1024] [--batches 5] [--gold-rows 128] [--seed 0] [--profile 15]

Completions are raw text as models write them, in mixed formats (Python-call syntax, bare JSON,
OpenAI `tool_calls` JSON, `<tool_call>` tags, a sentence then a call, plain replies), mostly
distinct (cities, dates, numbers and formats drawn per sample; the repetition rate is printed),
with relative dates (明天, 后天, 下周三, 3月9日) and aliases (北京市, Shanghai, 穗) against gold
with canonical values; 8 samples per prompt as GRPO draws them. Warm-up scores a batch drawn
with another seed (imports, rule tables, first-use caches); each timed batch is new text, so
the parse memo does not serve it. Printed, per path, the median of --batches timed batches:
- reward, gold in the batch (TRL columns): the batch's distinct gold rows normalized each call;
- reward, gold set by id (`make_reward(gold=Gold...)`): gold normalized once, before timing;
- Gold.score_batch on the same rows (the full verdict path, the baseline of the ratios).
Wall and CPU milliseconds are printed. Target: the reward with gold by id at or under 50 ms.
The machine is shared: compare ratios, and CPU time rather than wall time.
"""

import argparse
import cProfile
import json
import os
import pstats
import random
import statistics
import time

import pyarrow as pa

if hasattr(os, "sched_setaffinity"):
    os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})   # one core
pa.set_cpu_count(1)
pa.set_io_thread_count(1)

from scorer import Gold  # noqa: E402 - after pinning the process to one core
from scorer.reward import make_reward  # noqa: E402

REFERENCE = "2026-03-04T10:00:00+08:00"   # a Wednesday
CITIES = {"北京": ["北京", "北京市", "Beijing"], "上海": ["上海", "上海市", "Shanghai"],
          "广州": ["广州", "广州市", "穗"], "深圳": ["深圳", "深圳市", "Shenzhen"],
          "杭州": ["杭州", "杭州市", "Hangzhou"], "成都": ["成都", "成都市", "Chengdu"]}
DATES = {"2026-03-05": ["明天", "2026-03-05", "3月5日"], "2026-03-06": ["后天", "2026-03-06", "3月6日"],
         "2026-03-11": ["下周三", "2026-03-11", "3月11日"], "2026-03-09": ["3月9日", "下周一", "2026-03-09"]}
TOOLS = json.dumps([
    {"name": "get_weather", "parameters": {"type": "object", "properties": {
        "city": {"type": "string"}, "date": {"type": "string", "format": "date"},
        "days": {"type": "integer"}}, "required": ["city", "date"]}},
    {"name": "search_flights", "parameters": {"type": "object", "properties": {
        "from_city": {"type": "string"}, "to_city": {"type": "string"},
        "date": {"type": "string", "format": "date"}, "seats": {"type": "integer"}},
        "required": ["from_city", "to_city", "date"]}},
    {"name": "book_hotel", "parameters": {"type": "object", "properties": {
        "city": {"type": "string"}, "check_in": {"type": "string", "format": "date"},
        "nights": {"type": "integer"}, "guests": {"type": "integer"}}, "required": ["city", "check_in", "nights"]}},
], ensure_ascii=False)


def gold_rows(count: int, rng: random.Random) -> list[dict]:
    rows = []
    for index in range(count):
        city, other = rng.sample(sorted(CITIES), 2)
        date = rng.choice(sorted(DATES))
        kind = index % 4
        if kind == 0:
            calls = [{"name": "get_weather", "arguments": {"city": city, "date": date}}]
        elif kind == 1:
            calls = [{"name": "search_flights", "arguments": {"from_city": city, "to_city": other, "date": date,
                                                              "seats": rng.randint(1, 4)}}]
        elif kind == 2:
            calls = [{"name": "book_hotel", "arguments": {"city": city, "check_in": date,
                                                          "nights": rng.randint(1, 9)}}]
        else:
            calls = [{"name": "get_weather", "arguments": {"city": city, "date": date}},
                     {"name": "get_weather", "arguments": {"city": other, "date": date}}]
        rows.append({"id": f"q{index}", "gold_calls": json.dumps(calls, ensure_ascii=False),
                     "tools": TOOLS, "reference_time": REFERENCE})
    return rows


def surface(value, rng: random.Random):
    """A way a model writes a gold value: an alias, a relative date, the number as text."""
    if value in CITIES:
        return rng.choice(CITIES[value])
    if value in DATES:
        return rng.choice(DATES[value])
    return value


def completion(gold: dict, rng: random.Random, serial: int) -> str:
    calls = []
    for call in json.loads(gold["gold_calls"]):
        arguments = {name: surface(value, rng) for name, value in call["arguments"].items()}
        slip = rng.random()
        if slip < 0.15:                                  # a wrong value
            name = rng.choice(sorted(arguments))
            arguments[name] = rng.choice(sorted(CITIES)) if isinstance(arguments[name], str) else serial % 7 + 1
        elif slip < 0.22:                                # an argument left out
            arguments.pop(rng.choice(sorted(arguments)))
        elif slip < 0.30:                                # a extra, schema-defined argument
            arguments["days" if call["name"] == "get_weather" else "guests"] = serial % 9 + 1
        calls.append({"name": call["name"] if rng.random() > 0.05 else "search_flights", "arguments": arguments})
    style = rng.randrange(6)
    if style == 0:
        return "\n".join(f"{c['name']}(" + ", ".join(f"{k}={json.dumps(v, ensure_ascii=False)}"
                                                      for k, v in c["arguments"].items()) + ")" for c in calls)
    if style == 1:
        return json.dumps(calls if len(calls) > 1 else calls[0], ensure_ascii=False)
    if style == 2:
        return json.dumps({"role": "assistant", "content": None, "tool_calls": [
            {"id": f"call_{serial}_{i}", "type": "function",
             "function": {"name": c["name"], "arguments": json.dumps(c["arguments"], ensure_ascii=False)}}
            for i, c in enumerate(calls)]}, ensure_ascii=False)
    if style == 3:
        return "".join(f"<tool_call>\n{json.dumps(c, ensure_ascii=False)}\n</tool_call>\n" for c in calls)
    if style == 4:
        return (f"好的，我来帮你查询（请求 {serial}）。\n"
                + " ".join(f"{c['name']}(" + ", ".join(f"{k}={json.dumps(v, ensure_ascii=False)}"
                                                       for k, v in c["arguments"].items()) + ")" for c in calls))
    return f"抱歉，我暂时无法完成这个请求（{serial}）。"


def batch(golds: list[dict], size: int, seed: int) -> tuple[list[str], list[dict]]:
    rng = random.Random(seed)
    prompts = rng.sample(golds, size // 8) if size // 8 <= len(golds) else [rng.choice(golds) for _ in range(size // 8)]
    rows = [gold for gold in prompts for _ in range(8)][:size]
    return [completion(gold, rng, seed * size + i) for i, gold in enumerate(rows)], rows


def timed(run, repeats) -> tuple[float, float]:
    """Median wall and CPU milliseconds (CPU time: what the batch costs this process, less
    sensitive than wall time to other processes sharing the core)."""
    wall, cpu = [], []
    for argument in repeats:
        start, start_cpu = time.perf_counter(), time.process_time()
        run(argument)
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return statistics.median(wall) * 1000, statistics.median(cpu) * 1000


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--batch", type=int, default=1024)
    parser.add_argument("--batches", type=int, default=5)
    parser.add_argument("--gold-rows", type=int, default=128)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--profile", type=int, default=0, help="print the top K functions of one timed batch")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    golds = gold_rows(args.gold_rows, rng)
    gold_set = Gold.from_table(pa.Table.from_pylist(golds))
    baseline_gold = Gold.from_table(pa.Table.from_pylist(golds))   # its own memos: nothing shared
    batches = [batch(golds, args.batch, args.seed * 1000 + b) for b in range(args.batches + 1)]
    texts = [text for completions, _rows in batches[1:] for text in completions]
    repetition = 1 - len(set(texts)) / len(texts)

    in_batch = make_reward("fractional")
    by_id = make_reward("fractional", gold=gold_set)

    def columns(rows):
        return {"gold_calls": [r["gold_calls"] for r in rows], "tools": [r["tools"] for r in rows],
                "reference_time": [r["reference_time"] for r in rows]}

    def run_in_batch(b):
        return in_batch(None, b[0], **columns(b[1]))

    def run_by_id(b):
        return by_id(None, b[0], id=[r["id"] for r in b[1]])

    def run_verdicts(b):
        return baseline_gold.score_batch(pa.table({"id": [r["id"] for r in b[1]], "model": ["m"] * len(b[0]),
                                              "output": b[0]}))

    for run in (run_in_batch, run_by_id, run_verdicts):
        run(batches[0])                                   # warm-up: another seed's text
    timed_batches = batches[1:]
    figures = {"completions": args.batch, "batches_timed": args.batches,
               "repetition_rate": round(repetition, 4),
               "reward_gold_in_batch_ms": timed(run_in_batch, timed_batches),
               "reward_gold_by_id_ms": timed(run_by_id, timed_batches),
               "score_batch_ms": timed(run_verdicts, timed_batches)}
    # the same text again: what the memo of parsed outputs and normalized arguments saves
    figures["reward_gold_by_id_repeated_ms"] = timed(run_by_id, timed_batches)
    mean = statistics.mean(v for b in timed_batches for v in run_by_id(b))
    print(f"{args.batch} completions per batch, {args.gold_rows} gold rows, one core; "
          f"repetition rate {repetition:.1%}; mean fractional reward {mean:.3f}")
    baseline_wall, baseline_cpu = figures["score_batch_ms"]
    for name in ("reward_gold_in_batch_ms", "reward_gold_by_id_ms", "score_batch_ms",
                 "reward_gold_by_id_repeated_ms"):
        wall, cpu = figures[name]
        print(f"{name:32s} wall {wall:8.1f} ms  cpu {cpu:8.1f} ms   ratio to score_batch "
              f"{wall / baseline_wall:.2f} (cpu {cpu / baseline_cpu:.2f})")
    wall, cpu = figures["reward_gold_by_id_ms"]
    print(f"target: reward (gold by id) <= 50 ms: {'met' if wall <= 50 else 'NOT met'} on wall time, "
          f"{'met' if cpu <= 50 else 'NOT met'} on CPU time")
    if args.profile:
        fresh = batch(golds, args.batch, args.seed * 1000 + 999)
        profiler = cProfile.Profile()
        profiler.runcall(run_by_id, fresh)
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(args.profile)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
