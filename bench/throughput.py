"""Throughput of callscore at sweep scale: generate predictions, score them end to end, measure.

    python bench/throughput.py --rows N [--repetition value|realistic|heavy] [--baseline DIR]
                               [--gold-size 3000] [--jobs J] [--seed 0] [--workdir DIR]
                               [--models 12] [--variants V] [--sample 20000] [--profile K]
                               [--python-end-to-end] [--distinct] [--generate-only]

1. Generates a gold set of --gold-size instances with the templates, negatives and model error
   profiles of data/examples/build.py (imported, not copied: the benchmark exercises the same
   tools, relative dates, aliases, raw-text outputs and errors as the example data), with
   reference times spread over 2026. Each (gold row, model profile) gets --variants predicted
   cells; the N prediction rows (--models models x as many samples as N needs, sample-major)
   are drawn from that pool with numpy and written as parquet in row groups of 1M rows.
   Value-distinct mode (the default, --repetition value): the realistic pool, each row varying
   the values of the cell it draws as sweeps do (varied_value: dates shifted and rewritten,
   numbers changed, aliases, reworded texts), so most readings are distinct and values are new.
   Realistic mode: 24 variants per cell, 70 % of call-making predictions as raw
   text (OpenAI tool_calls lists and messages whose call ids are random per row as the API
   returns them, JSON lists, <tool_call> blocks, Python-call syntax, fenced JSON, prose around):
   about 35 % of 1M rows are distinct. --repetition heavy is the earlier pool (4 variants, 8 %
   raw text), where each prediction repeats ~70 times at 1M rows. The repetition rate of the
   file (distinct (id, prediction) keys, readings and (tool, argument, value)) is printed, the
   shares of distinct readings and values beside every figure, and the parse floor: reading the parquet
   and orjson.loads of every call string, the least any scorer of the file pays.
   A few gold ids are never predicted by one model family (missing predictions) and a few rows
   carry ids not in gold (reported and skipped), as in the examples.
2. Runs `python -m scorer PRED GOLD -o verdicts.parquet --summary summary.json -q` in a
   subprocess, with --jobs J (rows/s) and with --jobs 1 (rows per CPU-second): wall seconds
   (clock around the process), CPU seconds (wait4), peak RSS of the largest process (wait4's
   ru_maxrss) and of the whole process tree (sampled from /proc every 50 ms). With --baseline
   DIR the same two runs use that tree's scorer on the same files (ratios, byte-identity).
3. On the first --sample rows, runs scorer.pipeline.score_files in-process in two child
   processes, CALLSCORE_IMPL=cython and =python, timing the pipeline and, separately, each
   stage (STAGES: functions wrapped by timers), and prints the ratios and the stage timers. The
   compiled sample's verdicts are compared with the outcome each generated cell was built to
   have (the examples' `intended` verdict), as a sanity check of the generated mix.
   With --distinct (the heavy pool, 8 % raw text), every structured prediction gets a row-unique
   extra argument, so nothing repeats, not even the calls as read: the case of sampled
   rollouts, where memory must stay bounded without the memos' help.
   With --python-end-to-end, step 2's command also runs whole with CALLSCORE_IMPL=python: the
   per-row ratio at full scale, where both paths share the Arrow keying and the verdict memo.

The last line printed is the figures as one JSON object. Nothing here is a test: it reads
the clock on purpose and asserts nothing about speed.
"""

import argparse
import collections
import cProfile
import importlib.util
import json
import os
import pstats
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from datetime import datetime, timedelta
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

REPO = Path(__file__).resolve().parents[1]
# the scorer measured: this tree, or --baseline's in the child that times its stages
sys.path.insert(0, os.environ.get("CALLSCORE_BENCH_CODE", str(REPO)))

from scorer.tables import CALLS  # noqa: E402

EXAMPLES_BUILDER = REPO / "data" / "examples" / "build.py"
ROW_GROUP_ROWS = 1_000_000
RAW_TEXT_SHARE = 0.08     # heavy-repetition mode: call-making predictions written as raw text, as in data/examples/build.py
REALISTIC_RAW_SHARE = 0.7  # realistic mode: most models are read from their raw text (open models, rollouts)
# realistic mode: how raw texts are written, with weights (OpenAI tool_calls carry a random call id per row,
# as the API returns them, so those rows never repeat even when the calls do)
REALISTIC_STYLES = (("openai", 0.35), ("openai_message", 0.15), ("json", 0.10), ("tool_call", 0.15),
                    ("python", 0.12), ("fenced", 0.08), ("prose_around", 0.05))
CALL_ID = "@@call-id@@"    # placeholder in pool texts, replaced by a row-unique id when rows are drawn
REALISTIC_VARIANTS = 24
MISSING_SHARE = 0.005     # gold ids that the weakest model family never predicts
UNKNOWN_ID_SHARE = 0.0001  # prediction rows whose id is not in gold
NEGATIVE_DIFFICULTY = {"no_tool": "easy", "other_tool": "medium", "beyond_capability": "hard"}
PREDICTION_SCHEMA = pa.schema([("id", pa.string()), ("model", pa.string()), ("calls", CALLS),
                               ("output", pa.string())])
UNKNOWN_LABEL = "skipped (id not in gold)"


def load_examples_builder():
    """data/examples/build.py as a module: its tools, templates and perturbations."""
    spec = importlib.util.spec_from_file_location("callscore_examples_build", EXAMPLES_BUILDER)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# ---------------------------------------------------------------------------- gold

def reference_time(rng, examples) -> datetime:
    """A waking-hours minute of 2026 in China Standard Time."""
    day = datetime(2026, 1, 1, tzinfo=examples.CST) + timedelta(days=rng.randrange(365))
    return day.replace(hour=rng.randrange(7, 23), minute=rng.randrange(60))


def build_gold(examples, size: int, seed: int) -> list:
    """`size` gold rows with the examples' share of positives, templates weighted as there."""
    rng = random.Random(f"callscore-bench-gold-{seed}")
    plan = [(domain, template, count) for domain, entries in examples.POSITIVE_PLAN.items()
            for template, count in entries]
    weights = [count for _domain, _template, count in plan]
    positives = round(size * sum(weights) / (sum(weights) + len(examples.NEGATIVES)))
    rows = []
    for domain, template, _count in rng.choices(plan, weights, k=positives):
        moment = reference_time(rng, examples)
        query, calls, difficulty, spoken = template(rng, moment)
        needed = sorted({c["name"] for c in calls})
        rows.append({"query": query, "gold_calls": calls, "reference_time": moment.isoformat(),
                     "tool_names": examples.offered_tools(rng, needed), "negative_type": None,
                     "difficulty": difficulty, "domain": domain, "spoken": spoken})
    for index in range(size - positives):
        negative_type, domain, query, explicit = examples.NEGATIVES[index % len(examples.NEGATIVES)]
        tools = list(explicit) if explicit else rng.sample(sorted(examples.TOOLS), 3)
        rows.append({"query": query, "gold_calls": [], "reference_time": reference_time(rng, examples).isoformat(),
                     "tool_names": tools, "negative_type": negative_type,
                     "difficulty": NEGATIVE_DIFFICULTY[negative_type], "domain": domain, "spoken": {}})
    rng.shuffle(rows)
    for number, row in enumerate(rows, start=1):
        row["id"] = f"g{number:06d}"
    return rows


def arrow_calls(calls):
    """Calls as CALLS cells: arguments as JSON object text, non-ASCII kept as models emit it."""
    if calls is None:
        return None
    return [{"name": c["name"], "arguments": json.dumps(c["arguments"], ensure_ascii=False)} for c in calls]


def write_gold(examples, gold: list, path: Path):
    table = pa.table({
        "id": pa.array([r["id"] for r in gold], pa.string()),
        "query": pa.array([r["query"] for r in gold], pa.string()),
        "gold_calls": pa.array([arrow_calls(r["gold_calls"]) for r in gold], CALLS),
        "reference_time": pa.array([r["reference_time"] for r in gold], pa.string()),
        "tools": pa.array([json.dumps([examples.TOOLS[n] for n in r["tool_names"]], ensure_ascii=False)
                           for r in gold], pa.string()),
        "negative_type": pa.array([r["negative_type"] for r in gold], pa.string()),
        "difficulty": pa.array([r["difficulty"] for r in gold], pa.string()),
        "domain": pa.array([r["domain"] for r in gold], pa.string()),
    })
    pq.write_table(table, path)


# ---------------------------------------------------------------------------- prediction pool

class Pool:
    """Predicted cells: `variants` per (gold row, model profile), cell index
    (row * profiles + profile) * variants + variant, each with its intended label."""

    def __init__(self, examples, gold: list, variants: int, seed: int, realistic: bool = False):
        rng = random.Random(f"callscore-bench-pool-{seed}")
        raw_share = REALISTIC_RAW_SHARE if realistic else RAW_TEXT_SHARE
        self.profile_names, self.profiles, self.variants = examples.MODELS, len(examples.MODELS), variants
        self.positive = np.array([bool(row["gold_calls"]) for row in gold])
        calls, outputs, labels = [], [], []
        self.written = []   # per cell: (calls, style) with style None for structured calls, or (None, the text)
        for row in gold:
            produce = examples.predict_positive if row["gold_calls"] else examples.predict_negative
            for model in examples.MODELS:
                for _ in range(variants):
                    result, verdict = produce(model, row, rng)
                    if isinstance(result, str):
                        call_cell, output_cell = None, result
                        self.written.append((None, result))
                    elif result and rng.random() < raw_share:
                        style = realistic_style(rng) if realistic else None
                        call_cell, output_cell = None, (realistic_render(examples, result, rng, style) if realistic
                                                        else examples.render(result, rng))
                        self.written.append((result, style or "builder"))
                    else:
                        call_cell, output_cell = arrow_calls(result), None
                        self.written.append((result, None))
                    calls.append(call_cell)
                    outputs.append(output_cell)
                    labels.append(f"{verdict['outcome']}/{verdict['subtype']}" if verdict["subtype"]
                                  else verdict["outcome"])
        self.calls = pa.array(calls, CALLS)
        self.outputs = pa.array(outputs, pa.string())
        self.label_names = sorted(set(labels) | {"correct", "miss_recall/no_call", UNKNOWN_LABEL})
        code = {name: index for index, name in enumerate(self.label_names)}
        self.labels = np.array([code[name] for name in labels], np.int16)
        self.distinct = len({(json.dumps(c, ensure_ascii=False), o) for c, o in zip(calls, outputs)})

    def __len__(self):
        return len(self.labels)

    def cells(self, gold_rows: np.ndarray, profiles: np.ndarray, rng) -> np.ndarray:
        chosen = rng.integers(0, self.variants, len(gold_rows))
        return (gold_rows * self.profiles + profiles) * self.variants + chosen


def realistic_style(rng) -> str:
    return rng.choices([name for name, _w in REALISTIC_STYLES], [w for _n, w in REALISTIC_STYLES])[0]


def realistic_render(examples, calls, rng, style: str | None = None) -> str:
    """Calls as a model's raw text in one of REALISTIC_STYLES (drawn when not given): the example
    builder's four styles, OpenAI's with a per-row call id (CALL_ID) and as a whole assistant
    message, a JSON list in a markdown fence, and calls with prose before and after."""
    style = style or realistic_style(rng)
    if style in ("openai", "openai_message"):
        tool_calls = [{"id": f"call_{CALL_ID}{i}", "type": "function",
                       "function": {"name": c["name"], "arguments": json.dumps(c["arguments"], ensure_ascii=False)}}
                      for i, c in enumerate(calls)]
        if style == "openai":
            return json.dumps(tool_calls, ensure_ascii=False)
        return json.dumps({"role": "assistant", "content": None, "tool_calls": tool_calls}, ensure_ascii=False)
    if style == "fenced":
        return "```json\n" + json.dumps(calls, ensure_ascii=False, indent=rng.choice([None, 2])) + "\n```"
    if style == "prose_around":
        return (rng.choice(["好的，我来帮你处理。\n\n", "我将调用工具：\n"]) + examples.render(calls, rng, "tool_call")
                + rng.choice(["", "\n\n请稍等，马上为你查询。"]))
    return examples.render(calls, rng, style)


# ---------------------------------------------------------------------------- values varied per row

VARIED_SHARE = 0.6         # value mode: arguments whose value a row writes its own way
DAY_SHIFTS = (-7, -2, -1, 1, 1, 2, 7, 14, 30)   # the days a varied date moves by, when it moves
IDENTIFIERS = {"tracking_number", "flight_number", "symbol"}   # models copy these; varied, they are only wrong
TEXT_BEFORE = ("", "", "请", "帮我", "记得", "关于", "安排")
TEXT_AFTER = ("", "", "一下", "，谢谢", "吧", "（重要）", "事项", "！")


def varied_value(examples, tool: str, name: str, value, today: datetime, rng):
    """`value` as one row of a sweep writes it: dates shifted and written in another form (ISO,
    2026年3月10日, 3月10日, 下周二), numbers changed or spelled otherwise, enum values in another case,
    places by an alias or with 市, free texts reworded; identifiers as they are."""
    spec = examples.param_spec(tool, name)
    if isinstance(value, bool) or name in IDENTIFIERS or not isinstance(value, (str, int, float)):
        return value
    if spec.get("format") == "date":
        return varied_date(examples, value, today, rng)
    if spec.get("format") == "date-time":
        return varied_moment(value, rng)
    if isinstance(value, (int, float)):
        return varied_number(examples, value, rng)
    if "enum" in spec:
        other = rng.choice(spec["enum"]) if rng.random() < 0.1 else value
        return rng.choice([other, other.upper(), other.title(), f" {other}"])
    if spec.get("format") == "time":
        return value
    aliases = examples.alias_variants(value)
    if aliases or value in examples.CITIES:
        if rng.random() < 0.1:
            return rng.choice(examples.CITIES)
        return rng.choice([value, value + "市" if value in examples.CITIES else value, *aliases])
    worded = rng.choice(TEXT_BEFORE) + value + rng.choice(TEXT_AFTER)
    return worded + str(rng.randint(2, 999)) if rng.random() < 0.3 else worded


def varied_date(examples, value: str, today: datetime, rng):
    try:
        day = datetime.fromisoformat(value).date()
    except ValueError:     # already written otherwise by the pool's variant
        return value
    if rng.random() < 0.4:
        day += timedelta(days=rng.choice(DAY_SHIFTS))
    forms = [day.isoformat(), f"{day.year}年{day.month}月{day.day}日", f"{day.year}/{day.month}/{day.day}"]
    if day.year == today.year:
        forms.append(f"{day.month}月{day.day}日")
    forms += [text for text, said in examples.day_expressions(today.date()) if said == day]
    return rng.choice(forms)


def varied_moment(value: str, rng):
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        return value
    if rng.random() < 0.4:
        moment += timedelta(minutes=15 * rng.randint(-96, 96))
    return rng.choice([moment.isoformat(), moment.strftime("%Y-%m-%d %H:%M"), moment.strftime("%Y-%m-%dT%H:%M:%S"),
                       f"{moment.year}年{moment.month}月{moment.day}日 {moment.hour}:{moment.minute:02d}"])


def varied_number(examples, value, rng):
    if rng.random() < 0.4:
        value = value + rng.randint(1, 20) if isinstance(value, int) else round(value * rng.uniform(0.5, 1.5), 2)
    forms = [value, str(value)]
    if isinstance(value, int) and 0 < value < 100:
        forms.append(examples.chinese_number(value))
    if value >= 1000:
        forms.append(f"{value:,}")
    return rng.choice(forms)


def varied_cells(examples, pool: "Pool", references: list, cells: np.ndarray, gold_rows: np.ndarray, rng):
    """(calls, outputs) of drawn cells whose values each row varies (varied_value), written as
    the cell was (structured calls, or raw text in its style)."""
    calls, outputs = [], []
    for cell, gold_row in zip(cells.tolist(), gold_rows.tolist()):
        made, style = pool.written[cell]
        if made is None:
            calls.append(None)
            outputs.append(style)
            continue
        today = references[gold_row]
        varied = [{"name": call["name"], "arguments": {
            name: varied_value(examples, call["name"], name, value, today, rng) if rng.random() < VARIED_SHARE
            else value for name, value in call["arguments"].items()}} for call in made]
        calls.append(arrow_calls(varied) if style is None else None)
        outputs.append(None if style is None else realistic_render(examples, varied, rng, style))
    return pa.array(calls, CALLS), pa.array(outputs, pa.string())


# ---------------------------------------------------------------------------- predictions

def row_slices(n_rows: int, models: int, predicted_by_model: list):
    """(gold rows, model indices) for consecutive slices of at most ROW_GROUP_ROWS rows:
    sample-major, then model, then gold row, so every model gets its first sample early."""
    pending_gold, pending_model, pending, produced, block = [], [], 0, 0, 0
    while produced < n_rows:
        model = block % models
        rows = predicted_by_model[model][: n_rows - produced - pending]
        pending_gold.append(rows)
        pending_model.append(np.full(len(rows), model, np.int32))
        pending += len(rows)
        block += 1
        while pending >= ROW_GROUP_ROWS or (pending and produced + pending == n_rows):
            gold_rows, model_rows = np.concatenate(pending_gold), np.concatenate(pending_model)
            take = min(pending, ROW_GROUP_ROWS)
            yield gold_rows[:take], model_rows[:take]
            pending_gold, pending_model = [gold_rows[take:]], [model_rows[take:]]
            pending -= take
            produced += take


def with_trace(calls: pa.Array, first_row: int) -> pa.Array:
    """Every call given one more argument, `trace`, naming its row: each prediction becomes
    distinct (and undecided, an argument the schema does not define), as in sweeps whose
    outputs never repeat (sampled rollouts)."""
    flat = calls.flatten()
    offsets = calls.offsets.to_numpy() - calls.offsets[0].as_py()
    rows = np.repeat(np.arange(first_row, first_row + len(calls)), np.diff(offsets)).astype(str)
    arguments = flat.field("arguments")
    opened = pc.binary_join_element_wise(pa.array(np.full(len(rows), '{"trace":"r')), pa.array(rows), '"', "")
    rest = pc.utf8_slice_codeunits(arguments, 1)
    traced = pc.if_else(pc.equal(pc.utf8_trim_whitespace(rest), "}"), pc.binary_join_element_wise(opened, rest, ""),
                        pc.binary_join_element_wise(opened, rest, ","))
    return pa.ListArray.from_arrays(pa.array(offsets, pa.int32()), pa.StructArray.from_arrays(
        [flat.field("name"), traced], names=["name", "arguments"]), mask=calls.is_null()).cast(CALLS)


def with_call_ids(outputs: pa.Array, rng) -> pa.Array:
    """Each CALL_ID placeholder replaced by a random id of its row (OpenAI's `call_...`): texts
    without one stay as they are."""
    if not len(outputs):
        return outputs
    ids = pa.array(np.char.mod("%013x", rng.integers(0, 1 << 52, len(outputs))).astype(object), pa.string())
    return pc.binary_join(pc.split_pattern(outputs, CALL_ID), ids)


def repetition(path: Path) -> dict:
    """Distinct (id, prediction) keys of a predictions file (the scorer keys a verdict by gold row
    and prediction) and the share of rows that repeat an earlier one."""
    table = pq.read_table(path, columns=["id", "calls", "output"])
    flat = table["calls"].combine_chunks()
    names = pc.fill_null(flat.flatten().field("name"), "")
    arguments = pc.fill_null(flat.flatten().field("arguments"), "")
    joined = pa.ListArray.from_arrays(pc.subtract(flat.offsets, flat.offsets[0]),
                                      pc.binary_join_element_wise(names, arguments, "\x1f"), mask=flat.is_null())
    key = pc.binary_join_element_wise(table["id"].combine_chunks(), pc.fill_null(pc.binary_join(joined, "\x1e"), "\x00"),
                                      pc.fill_null(table["output"].combine_chunks(), "\x00"), "\x1c")
    distinct = pc.count_distinct(key).as_py()
    return {"distinct_rows": distinct, "distinct_share": distinct / max(table.num_rows, 1),
            "repetition_rate": 1 - distinct / max(table.num_rows, 1)}


def distinct_readings(path: Path) -> dict:
    """Distinct (id, calls as the scorer reads them): outputs that differ only around their
    calls (call ids, prose, fences) read the same, and a scorer may pay once for those. And the
    distinct (tool, argument, value) among all the values the rows' calls hold: what a scorer
    that normalizes each value once pays for."""
    import orjson

    from scorer.parse import parse_calls_value, parse_output

    readings, outputs, triples, values = set(), {}, set(), 0
    for batch in pq.ParquetFile(path).iter_batches(batch_size=ROW_GROUP_ROWS, columns=["id", "calls", "output"]):
        for identifier, calls, output in zip(*(batch.column(name).to_pylist() for name in ("id", "calls", "output"))):
            if calls is not None:
                reading = parse_calls_value(calls)
            else:
                reading = outputs.get(output) or outputs.setdefault(output, parse_output(output))
            readings.add((identifier, reading))
            for tool, arguments in reading.calls:
                held = orjson.loads(arguments)
                values += len(held)
                triples.update((tool, name, value if isinstance(value, str) else (orjson.dumps(value),))
                               for name, value in held.items())
    return {"distinct_readings": len(readings), "distinct_values": len(triples), "values": values}


def parse_floor(path: Path) -> dict:
    """The floor any scorer of this file pays: read the parquet and orjson.loads every call
    string (each structured call's arguments, each raw output; texts that are not JSON cost
    their failed attempt)."""
    import orjson

    start = time.perf_counter()
    decoded = failed = 0
    for batch in pq.ParquetFile(path).iter_batches(batch_size=ROW_GROUP_ROWS, columns=["calls", "output"]):
        texts = batch.column("calls").flatten().field("arguments").to_pylist() + batch.column("output").to_pylist()
        for text in texts:
            if text is None:
                continue
            try:
                orjson.loads(text)
                decoded += 1
            except orjson.JSONDecodeError:
                failed += 1
    return {"floor_s": time.perf_counter() - start, "floor_decoded": decoded, "floor_not_json": failed}


def write_predictions(pool: Pool, gold_ids: pa.Array, path: Path, n_rows: int, models: int, seed: int,
                      distinct: bool = False, vary=None):
    """Writes the predictions; returns the intended row count per label (a gold id a model
    never predicts is an empty prediction: no_call on a positive, correct on a negative) and
    the cells and unknown-id mask of the first slice. `vary(cells, gold rows, rng)`: the
    (calls, outputs) of the drawn cells with their values varied per row (value mode)."""
    names = pa.array([f"{pool.profile_names[m % pool.profiles]}-r{m // pool.profiles}" for m in range(models)])
    gold_size = len(gold_ids)
    rng = np.random.default_rng([seed, 1])
    missing = rng.random(gold_size) < MISSING_SHARE
    weakest = pool.profiles - 1
    predicted_by_model = [np.flatnonzero(~missing) if m % pool.profiles == weakest else np.arange(gold_size)
                          for m in range(models)]
    label_counts = np.zeros(len(pool.label_names), np.int64)
    predicted = np.zeros((models, gold_size), bool)
    first = None
    with pq.ParquetWriter(path, PREDICTION_SCHEMA, compression="zstd") as writer:
        for number, (gold_rows, model_rows) in enumerate(row_slices(n_rows, models, predicted_by_model)):
            slice_rng = np.random.default_rng([seed, 2, number])
            cells = pool.cells(gold_rows, model_rows % pool.profiles, slice_rng)
            unknown = slice_rng.random(len(cells)) < UNKNOWN_ID_SHARE
            ids = gold_ids.take(pa.array(gold_rows))
            if unknown.any():
                stray = pc.binary_join_element_wise("unknown-", ids, "")
                ids = pc.if_else(pa.array(unknown), stray, ids)
            if vary:
                calls, outputs = vary(cells, gold_rows, random.Random(f"callscore-bench-values-{seed}-{number}"))
            else:
                calls, outputs = pool.calls.take(pa.array(cells)), pool.outputs.take(pa.array(cells))
            if distinct:
                calls = with_trace(calls, number * ROW_GROUP_ROWS)
            outputs = with_call_ids(outputs, slice_rng)
            table = pa.table([ids, names.take(pa.array(model_rows)), calls, outputs], schema=PREDICTION_SCHEMA)
            writer.write_table(table, row_group_size=ROW_GROUP_ROWS)
            label_counts += np.bincount(pool.labels[cells[~unknown]], minlength=len(label_counts))
            label_counts[pool.label_names.index(UNKNOWN_LABEL)] += int(unknown.sum())
            predicted[model_rows[~unknown], gold_rows[~unknown]] = True
            if first is None:
                first = (cells, unknown)
    absent = ~predicted[predicted.any(axis=1)]
    label_counts[pool.label_names.index("miss_recall/no_call")] += int(absent[:, pool.positive].sum())
    label_counts[pool.label_names.index("correct")] += int(absent[:, ~pool.positive].sum())
    return label_counts, first


# ---------------------------------------------------------------------------- measuring

def _children(pid: int) -> list:
    found = []
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as handle:
                found += [int(child) for child in handle.read().split()]
    except OSError:
        pass
    return found


def _rss_kb(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status") as handle:
            for line in handle:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


class TreeRss(threading.Thread):
    """Largest sum of RSS over a process and its descendants, sampled every 50 ms: with
    worker processes the machine pays for all of them at once, which ru_maxrss does not say."""

    def __init__(self, pid: int):
        super().__init__(daemon=True)
        self.pid, self.peak_kb, self.done = pid, 0, threading.Event()

    def run(self):
        while not self.done.is_set():
            tree, total = [self.pid], 0
            while tree:
                pid = tree.pop()
                total += _rss_kb(pid)
                tree += _children(pid)
            self.peak_kb = max(self.peak_kb, total)
            self.done.wait(0.05)


def normalizers_floor(predictions: Path, gold: Path) -> dict:
    """The normalizers' own CPU time in one scoring of the files (bench/normalizer_floor.py, in a
    child process of this tree)."""
    script = Path(__file__).resolve().parent / "normalizer_floor.py"
    done = subprocess.run([sys.executable, str(script), str(predictions), str(gold)], cwd=REPO,
                          env=scorer_env("cython"), capture_output=True, text=True)
    if done.returncode:
        sys.exit(f"the normalizer floor run failed:\n{done.stderr[-4000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def run_measured(command: list, env: dict, log: Path, cwd: Path = REPO) -> dict:
    """Wall seconds, CPU seconds (user + system of the process and the workers it waited for),
    peak RSS of the largest process (wait4) and of the process tree."""
    with open(log, "wb") as stderr:
        start = time.perf_counter()
        process = subprocess.Popen(command, env=env, cwd=cwd, stdout=stderr, stderr=stderr)
        sampler = TreeRss(process.pid)
        sampler.start()
        _pid, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - start
        sampler.done.set()
        sampler.join()
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode:
        sys.exit(f"`{' '.join(map(str, command))}` failed with status {process.returncode}:\n"
                 + log.read_text(errors="replace")[-4000:])
    return {"wall_s": wall, "cpu_s": usage.ru_utime + usage.ru_stime, "peak_rss_mb": usage.ru_maxrss / 1024,
            "tree_rss_mb": sampler.peak_kb / 1024}


def scorer_env(implementation: str, code: Path = REPO) -> dict:
    """The environment of a scorer run: `code` (this tree, or --baseline's) first on the path."""
    path = os.pathsep.join(filter(None, [str(code), os.environ.get("PYTHONPATH")]))
    return {**os.environ, "CALLSCORE_IMPL": implementation, "PYTHONPATH": path}


def cli_supports_jobs() -> bool:
    done = subprocess.run([sys.executable, "-m", "scorer", "run", "--help"], cwd=REPO,
                          env=scorer_env("cython"), capture_output=True, text=True, check=True)
    return "--jobs" in done.stdout


# (module, attribute path, label): the stages timed in the sample run; a name the scorer under test
# lacks is skipped, so one bench times this tree and an older one alike. Nested stages are
# timed inside their parents' figures (encode holds parse and normalize).
STAGES = (("scorer.encode", "GoldIndex.__init__", "gold index (parse, normalize, flatten gold)"),
          ("scorer.pipeline", "Scorer.prepare", "prepare (keying, memo lookup)"),
          ("scorer.encode", "PredictionEncoder.encode", "encode (parse + normalize + flatten)"),
          ("scorer.encode", "PredictionEncoder.encode_parsed", "encode parsed readings (normalize + flatten)"),
          ("scorer.encode", "PredictionEncoder.parse", "  parse, careful parser"),
          ("scorer.encode", "PredictionEncoder.parse_column", "  parse, bulk (fast path + careful rest)"),
          ("scorer.encode", "PredictionEncoder._arguments", "  normalize per call"),
          ("scorer.encode", "PredictionEncoder.normalize_values", "  normalize per distinct value"),
          ("scorer.pipeline", "match", "match (compiled core)"),
          ("scorer.attribute", "Attributor.batch", "attribute (verdict columns, details)"),
          ("scorer.pipeline", "Scorer.finish", "finish (memo merge, spread, tally, judge records)"),
          ("scorer.write", "VerdictWriter.write", "write verdicts"),
          ("scorer.judge", "UndecidedWriter.add", "judge records (built and counted)"))


def _timed(spent: dict, label: str, function):
    """`function` adding its CPU seconds to spent[label] (CPU, not wall: the machine is shared)."""
    def timed(*args, **kwargs):
        start = time.process_time()
        try:
            return function(*args, **kwargs)
        finally:
            spent[label] = spent.get(label, 0.0) + time.process_time() - start
    return timed


def attribute_owner(module_name: str, path: str) -> tuple:
    """(the object holding the attribute `path` names in the module, the attribute's name); the
    owner is None when the module lacks part of the path (an older tree)."""
    import importlib

    owner = importlib.import_module(module_name)
    *outer, name = path.split(".")
    for part in outer:
        owner = getattr(owner, part, None)
    return (owner, name) if owner is not None and hasattr(owner, name) else (None, name)


def install_stage_timers(spent: dict) -> None:
    for module_name, path, label in STAGES:
        owner, name = attribute_owner(module_name, path)
        if owner is not None:
            setattr(owner, name, _timed(spent, label, getattr(owner, name)))


def stage_child(predictions, gold, out, profile_path):
    """In a child with CALLSCORE_IMPL set: score_files on the sample, one process, timing the
    whole call and each stage of STAGES inside it; prints the figures as JSON."""
    from scorer import pipeline
    from scorer.options import Options

    spent = {}
    if not profile_path:
        install_stage_timers(spent)
    profiler = cProfile.Profile() if profile_path else None
    start = time.process_time()
    if profiler:
        profiler.enable()
    result = pipeline.score_files(predictions, gold, Options(jobs=1), out=out)
    if profiler:
        profiler.disable()
    wall = time.process_time() - start   # CPU seconds of the one process
    if profiler:
        profiler.dump_stats(profile_path)
    match_label = next(label for _m, path, label in STAGES if path == "match")
    print(json.dumps({"implementation": result.implementation, "pipeline_s": wall,
                      "match_s": spent.get(match_label), "stages": spent}))


def run_stage_child(implementation, predictions, gold, out, profile_path=None, code=REPO) -> dict:
    command = [sys.executable, str(Path(__file__).resolve()), "--stage-child", str(predictions), str(gold), str(out)]
    if profile_path:
        command += ["--profile-out", str(profile_path)]
    env = {**scorer_env(implementation, code), "CALLSCORE_BENCH_CODE": str(code)}
    done = subprocess.run(command, cwd=code, env=env, capture_output=True, text=True)
    if done.returncode:
        sys.exit(f"sample run with CALLSCORE_IMPL={implementation} failed:\n{done.stderr[-4000:]}")
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    if figures["implementation"] != implementation:
        sys.exit(f"asked for CALLSCORE_IMPL={implementation}, the scorer ran {figures['implementation']}")
    return figures


def write_sample(predictions: Path, path: Path, rows: int) -> int:
    batch = next(pq.ParquetFile(predictions).iter_batches(batch_size=rows))
    pq.write_table(pa.Table.from_batches([batch]), path)
    return batch.num_rows


def agreement(verdicts_path: Path, pool: Pool, cells: np.ndarray, unknown: np.ndarray):
    """(share of sample rows scored with the intended label, top disagreements)."""
    verdicts = pq.read_table(verdicts_path, columns=["outcome", "subtype", "decided", "missing_prediction"])
    verdicts = verdicts.filter(pc.invert(verdicts["missing_prediction"]))
    scored = [f"{o}/{s}" if s else o for o, s in zip(verdicts["outcome"].to_pylist(), verdicts["subtype"].to_pylist())]
    decided = verdicts["decided"].to_pylist()
    intended = [pool.label_names[code] for code in pool.labels[cells[~unknown]]]
    if len(scored) != len(intended):
        return None, [f"{len(scored)} verdicts for {len(intended)} sample rows with known ids"]
    # a disagreement on a row left to a judge is the judge's to settle: it says so
    differing = collections.Counter((i, s if d else f"{s} (tentative: undecided, for a judge)")
                                    for i, s, d in zip(intended, scored, decided) if i != s)
    share = 1 - sum(differing.values()) / max(len(scored), 1)
    return share, [f"{count:>6}  intended {i:<28} scored {s}" for (i, s), count in differing.most_common(6)]


def scored_mix(verdicts_path: Path) -> collections.Counter:
    mix = collections.Counter()
    for batch in pq.ParquetFile(verdicts_path).iter_batches(columns=["outcome", "subtype"]):
        label = pc.if_else(pc.is_null(batch.column("subtype")), batch.column("outcome"),
                           pc.binary_join_element_wise(batch.column("outcome"), batch.column("subtype"), "/"))
        for entry in pc.value_counts(label).to_pylist():
            mix[entry["values"]] += entry["counts"]
    return mix


def print_profile(path: Path, top: int):
    stats = pstats.Stats(str(path), stream=sys.stdout)
    stats.strip_dirs().sort_stats("tottime").print_stats(top)


# ---------------------------------------------------------------------------- main

def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=200_000, help="prediction rows (default 200000)")
    parser.add_argument("--gold-size", type=int, default=3000, help="gold instances (default 3000)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count(), help="score --jobs (default: all cores)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workdir", type=Path, help="keep the files here (default: a temporary directory)")
    parser.add_argument("--models", type=int, default=12, help="models in the sweep (default 12)")
    parser.add_argument("--repetition", choices=("value", "realistic", "heavy"), default="value",
                        help="value (default, value-distinct): the realistic pool with each row's values varied "
                             "as sweeps vary them (dates shifted and rewritten, numbers changed, aliases, "
                             "reworded texts), so most readings are distinct; realistic: at least 30%% of rows "
                             "distinct, most outputs raw text in the formats models write, few distinct values; "
                             "heavy: the earlier pool, each prediction repeated ~70 times at 1M rows (the memo "
                             "does the work)")
    parser.add_argument("--variants", type=int, help=f"cells per (gold row, model profile) (default "
                        f"{REALISTIC_VARIANTS} realistic, 4 heavy)")
    parser.add_argument("--baseline", type=Path, metavar="DIR",
                        help="another callscore tree (e.g. `git archive ffb98d0 | tar -x -C DIR`, its "
                             "extension copied or built): its end-to-end runs on the same files, printed beside")
    parser.add_argument("--sample", type=int, default=20_000, help="rows for the compiled vs pure-Python runs")
    parser.add_argument("--profile", type=int, default=0, metavar="K",
                        help="also cProfile a compiled sample run, print the top K functions by own time")
    parser.add_argument("--python-end-to-end", action="store_true",
                        help="also run the whole end-to-end command with CALLSCORE_IMPL=python and print the ratio")
    parser.add_argument("--distinct", action="store_true",
                        help="the heavy pool with a row-unique extra argument in every structured prediction "
                             "(92%% of rows): nothing repeats, not even as calls")
    parser.add_argument("--generate-only", action="store_true", help="write gold and predictions, score nothing")
    parser.add_argument("--stage-child", nargs=3, metavar=("PRED", "GOLD", "OUT"), help=argparse.SUPPRESS)
    parser.add_argument("--profile-out", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.distinct:
        args.repetition = "heavy"   # the earlier pool, every structured call made row-unique (the all-distinct case)
    if args.variants is None:
        args.variants = REALISTIC_VARIANTS if args.repetition != "heavy" else 4
    if args.stage_child is None and min(args.rows, args.gold_size, args.models, args.variants, args.sample) < 1:
        parser.error("--rows, --gold-size, --models, --variants and --sample must be positive")
    return args


def main(argv=None):
    args = parse_args(argv)
    if args.stage_child:
        stage_child(*args.stage_child, args.profile_out)
        return
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="callscore-bench-"))
    workdir.mkdir(parents=True, exist_ok=True)
    try:
        figures = benchmark(args, workdir)
    finally:
        if args.workdir is None:
            shutil.rmtree(workdir, ignore_errors=True)
    print(json.dumps(figures, sort_keys=True))


def benchmark(args, workdir: Path) -> dict:
    gold_path, predictions_path = workdir / "gold.parquet", workdir / "predictions.parquet"
    start = time.perf_counter()
    examples = load_examples_builder()
    gold = build_gold(examples, args.gold_size, args.seed)
    write_gold(examples, gold, gold_path)
    pool = Pool(examples, gold, args.variants, args.seed, realistic=args.repetition != "heavy")
    references = [datetime.fromisoformat(row["reference_time"]) for row in gold]
    vary = (lambda cells, gold_rows, rng: varied_cells(examples, pool, references, cells, gold_rows, rng)) \
        if args.repetition == "value" else None
    setup_s = time.perf_counter() - start
    start = time.perf_counter()
    gold_ids = pa.array([row["id"] for row in gold], pa.string())
    label_counts, (first_cells, first_unknown) = write_predictions(
        pool, gold_ids, predictions_path, args.rows, args.models, args.seed, args.distinct, vary)
    generate_s = time.perf_counter() - start
    size_mb = predictions_path.stat().st_size / 2**20
    cores = os.cpu_count()
    print(f"callscore throughput  rows {args.rows:,}  gold {args.gold_size:,}  models {args.models}  "
          f"seed {args.seed}  cores {cores}")
    print(f"  setup            gold + pool of {len(pool):,} cells ({pool.distinct:,} distinct) in {setup_s:.1f} s")
    print(f"  generation       {args.rows:,} rows in {generate_s:.1f} s "
          f"({args.rows / generate_s:,.0f} rows/s), {size_mb:.1f} MB parquet")
    figures = {"rows": args.rows, "gold_size": args.gold_size, "cores": cores, "seed": args.seed,
               "pool_cells": len(pool), "pool_distinct": pool.distinct,
               "generate_s": round(generate_s, 3), "predictions_mb": round(size_mb, 1)}
    repeated = repetition(predictions_path)
    repeated.update(distinct_readings(predictions_path))
    mode = "all-distinct (--distinct)" if args.distinct else {"value": "value-distinct"}.get(args.repetition,
                                                                                          args.repetition)
    readings_share = repeated["distinct_readings"] / args.rows
    values_share = repeated["distinct_values"] / max(repeated["values"], 1)
    print(f"  repetition       {mode} mode: {repeated['distinct_rows']:,} distinct (id, prediction) "
          f"keys, {repeated['distinct_share']:.1%} of rows distinct, repetition rate {repeated['repetition_rate']:.1%}; "
          f"{repeated['distinct_readings']:,} distinct (id, calls as read) = {readings_share:.1%} of rows; "
          f"{repeated['distinct_values']:,} distinct (tool, argument, value) = {values_share:.1%} of "
          f"{repeated['values']:,} values")
    figures.update({"repetition": args.repetition, **repeated})
    distinctness = f"[{mode}: readings {readings_share:.1%} distinct, (tool, argument, value) {values_share:.1%}]"
    if args.generate_only:
        return figures

    floor = parse_floor(predictions_path)
    floor_rate = args.rows / floor["floor_s"]
    print(f"  parse floor      {floor['floor_s']:.2f} s  {floor_rate:,.0f} rows/s  (read the parquet, orjson.loads "
          f"every call string: {floor['floor_decoded']:,} decoded, {floor['floor_not_json']:,} not JSON)  {distinctness}")
    figures.update({"floor_s": round(floor["floor_s"], 3),
                    "floor_rows_per_s": round(floor_rate)})

    jobs_flag = cli_supports_jobs()
    jobs = args.jobs if jobs_flag else 1
    trees = [("this tree", REPO)] + ([("baseline", args.baseline.resolve())] if args.baseline else [])

    def command(jobs_wanted, tag):
        line = [sys.executable, "-m", "scorer", str(predictions_path), str(gold_path),
                "-o", str(workdir / f"verdicts-{tag}.parquet"), "--summary", str(workdir / f"summary-{tag}.json"), "-q"]
        return line + (["--jobs", str(jobs_wanted)] if jobs_flag else [])

    startup = run_measured([sys.executable, "-m", "scorer", "--version"], scorer_env("cython"), workdir / "startup.log")
    runs = {}
    for label, code in trees:
        tag = "base" if code != REPO else "this"
        runs[label] = (run_measured(command(jobs, f"{tag}-jobs"), scorer_env("cython", code), workdir / f"{tag}-jobs.log", code),
                       run_measured(command(1, tag), scorer_env("cython", code), workdir / f"{tag}-one.log", code))
    end_to_end, one = runs["this tree"]
    shutil.copy(workdir / "verdicts-this-jobs.parquet", workdir / "verdicts.parquet")
    rate = args.rows / end_to_end["wall_s"]
    jobs_note = "" if jobs_flag else "  (score has no --jobs option yet: one process)"
    print(f"  end to end       rows/s with --jobs {jobs}, rows per CPU-second with --jobs 1 (both parquet in, "
          f"verdicts + summary out), beside the parse floor{jobs_note}")
    for label, (many, single) in runs.items():
        print(f"    {label:<13} {args.rows / many['wall_s']:>9,.0f} rows/s ({many['wall_s']:.1f} s, "
              f"{many['wall_s'] / floor['floor_s']:.0f}x the floor)   {args.rows / single['cpu_s']:>9,.0f} rows/CPU-s "
              f"({single['wall_s']:.1f} s wall)   tree RSS {many['tree_rss_mb']:.0f} MB (jobs {jobs}), "
              f"{single['peak_rss_mb']:.0f} MB (one process)  {distinctness}")
    if args.baseline:
        base_many, base_one = runs["baseline"]
        identical = all((workdir / f"verdicts-{a}.parquet").read_bytes() == (workdir / f"verdicts-{b}.parquet").read_bytes()
                        for a, b in (("this-jobs", "base-jobs"), ("this", "base"), ("this", "this-jobs")))
        print(f"    ratio         {base_many['wall_s'] / end_to_end['wall_s']:.2f}x rows/s (jobs {jobs}), "
              f"{base_one['cpu_s'] / one['cpu_s']:.2f}x rows/CPU-s against the baseline   "
              f"verdict files byte-identical: {'yes' if identical else 'NO'}  {distinctness}")
        figures.update({"baseline_rows_per_s": round(args.rows / base_many["wall_s"]),
                        "baseline_rows_per_cpu_s": round(args.rows / base_one["cpu_s"]),
                        "baseline_tree_rss_mb": round(base_many["tree_rss_mb"]), "baseline_identical": identical})
    print(f"  startup          {startup['wall_s']:.2f} s (score --version)")
    normalizers = normalizers_floor(predictions_path, gold_path)
    print(f"  normalizers      {normalizers['normalizers_cpu_s']:.1f} CPU s of a one-process scoring's "
          f"{normalizers['scoring_cpu_s']:.1f} (bench/normalizer_floor.py: "
          + ", ".join(f"{label} {normalizers[label]['cpu_s']:.1f} s in {normalizers[label]['calls']:,} calls"
                      for label in ("value readings", "free-text scans", "pair statuses") if label in normalizers)
          + f"): at most {args.rows / normalizers['normalizers_cpu_s']:,.0f} rows/CPU-s while the rules run in "
          f"Python  {distinctness}")
    figures.update({"normalizers_cpu_s": normalizers["normalizers_cpu_s"],
                    "normalizers_scoring_cpu_s": normalizers["scoring_cpu_s"]})
    figures.update({"rows_per_cpu_s": round(args.rows / one["cpu_s"]), "one_process_wall_s": round(one["wall_s"], 3),
                    "one_process_rss_mb": round(one["peak_rss_mb"])})

    if args.python_end_to_end:
        python_end_to_end = run_measured(command(jobs, "python"), scorer_env("python"), workdir / "score-python.log")
        end_to_end_ratio = python_end_to_end["wall_s"] / end_to_end["wall_s"]
        print(f"  pure Python      {args.rows:,} rows  {python_end_to_end['wall_s']:.2f} s wall  "
              f"{args.rows / python_end_to_end['wall_s']:,.0f} rows/s  jobs {jobs}   "
              f"ratio {end_to_end_ratio:.2f}x (same command, CALLSCORE_IMPL=python)")
        figures.update({"python_wall_s": round(python_end_to_end["wall_s"], 3),
                        "end_to_end_ratio": round(end_to_end_ratio, 2)})

    sample_path = workdir / "sample.parquet"
    sample_rows = write_sample(predictions_path, sample_path, args.sample)
    compiled = run_stage_child("cython", sample_path, gold_path, workdir / "sample-cython.parquet")
    python = run_stage_child("python", sample_path, gold_path, workdir / "sample-python.parquet")
    same = (pq.read_table(workdir / "sample-cython.parquet").equals(pq.read_table(workdir / "sample-python.parquet")))
    sample = {}
    for name, run in (("cython", compiled), ("python", python)):
        sample[f"{name}_rows_per_s"] = round(sample_rows / run["pipeline_s"])
        sample[f"{name}_match_rows_per_s"] = round(sample_rows / run["match_s"]) if run["match_s"] else None
    pipeline_ratio = python["pipeline_s"] / compiled["pipeline_s"]
    match_ratio = python["match_s"] / compiled["match_s"] if compiled["match_s"] and python["match_s"] else None
    print(f"  sample           first {sample_rows:,} rows, one process, score_files in-process (rows per CPU-second)"
          f"  {distinctness} of the whole file")
    for name, label in (("cython", "compiled"), ("python", "pure Python")):
        match_rate = sample[f"{name}_match_rows_per_s"]
        print(f"    {label:<14} pipeline {sample[f'{name}_rows_per_s']:>10,} rows/s   matcher "
              + (f"{match_rate:>12,} rows/s" if match_rate else "not measured (scorer.pipeline.match absent)"))
    print(f"    ratio          pipeline {pipeline_ratio:.2f}x   matcher "
          + (f"{match_ratio:.1f}x" if match_ratio else "n/a")
          + f"   verdicts identical: {'yes' if same else 'NO'}")
    timed = [("this tree", compiled)]
    if args.baseline:
        timed.append(("baseline", run_stage_child("cython", sample_path, gold_path, workdir / "sample-base.parquet",
                                                  code=args.baseline.resolve())))
    print("  stage timers     compiled sample, CPU seconds (share of the pipeline): where the time goes")
    for _module, _path, label in STAGES:
        cells = [f"{run['stages'][label]:>7.2f} ({run['stages'][label] / run['pipeline_s']:>4.0%})"
                 if label in run["stages"] else f"{'-':>14}" for _name, run in timed]
        if any(label in run["stages"] for _name, run in timed):
            print(f"    {label:<52}" + "".join(f"  {cell}" for cell in cells))
    print(f"    {'whole pipeline':<52}" + "".join(f"  {run['pipeline_s']:>7.2f} {name:>6}"[:16] for name, run in timed)
          + ("   (columns: " + ", ".join(name for name, _r in timed) + ")"))
    figures["stages"] = {name: {label: round(value, 3) for label, value in run["stages"].items()} for name, run in timed}

    share, differences = (None, ["--distinct adds an argument to every call: not the generated labels"]) \
        if args.distinct else (None, ["each row varies its values: not the generated labels"]) \
        if args.repetition == "value" else agreement(workdir / "sample-cython.parquet", pool, first_cells[:sample_rows],
                                        first_unknown[:sample_rows])
    print("  sample vs intended " + (f"{share:.2%} of rows scored as generated" if share is not None else "not comparable"))
    for line in differences:
        print("    " + line)
    mix = scored_mix(workdir / "verdicts.parquet")
    intended_total, scored_total = int(label_counts.sum()), sum(mix.values())
    print(f"  outcome mix      whole run, % of rows: intended ({intended_total:,} rows) vs scored ({scored_total:,} verdicts)")
    for label in sorted(set(pool.label_names) | set(mix), key=str):
        intended = int(label_counts[pool.label_names.index(label)]) if label in pool.label_names else 0
        if intended or mix.get(label):
            print(f"    {label:<32} {100 * intended / intended_total:>7.2f} {100 * mix.get(label, 0) / scored_total:>7.2f}")
    if args.profile:  # a run of its own: the profiler's overhead must not reach the timed runs
        profile_path = workdir / "sample.prof"
        run_stage_child("cython", sample_path, gold_path, workdir / "sample-profiled.parquet", profile_path)
        print(f"  profile          compiled sample run, top {args.profile} functions by own time")
        print_profile(profile_path, args.profile)
    figures.update({"wall_s": round(end_to_end["wall_s"], 3), "rows_per_s": round(rate),
                    "peak_rss_mb": round(end_to_end["peak_rss_mb"]), "tree_rss_mb": round(end_to_end["tree_rss_mb"]),
                    "jobs": jobs, "startup_s": round(startup["wall_s"], 3), "sample_rows": sample_rows,
                    **sample, "pipeline_ratio": round(pipeline_ratio, 2),
                    "match_ratio": round(match_ratio, 1) if match_ratio else None,
                    "sample_identical": same, "sample_agreement": round(share, 4) if share is not None else None})
    return figures


if __name__ == "__main__":
    main()
