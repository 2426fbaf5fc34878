"""Dialogues scored turn by turn on the single-turn pipeline, then judged as wholes.

A dialogue is flattened into one gold row per user turn (`DIALOGUE_TURN_GOLD` columns: an
ordinary gold row plus `dialogue_id`, `turn` counted from 1, `dialogue_turns` and the length
bucket `turns`), predictions into one prediction row per turn, and the turns go through
load -> encode -> match -> attribute like any request. On top of the turn verdicts:
- carry-over: a `missing_arg` / `incorrect_value` turn whose argument value the gold already
  had at an earlier turn (same argument name, same gold value) gets `carried_from_turn`, the
  earliest such turn: the model dropped or changed a slot the user gave before;
- one dialogue verdict per (model, dialogue, kept columns) in the verdict schema, so that
  `score table` and `score plot` read it as they read turn verdicts: `correct` when every turn
  is, else the first failing turn's outcome and subtype; `turns_correct`, `process_accuracy`
  (share of correct turns), `first_failing_turn`;
- pass^k and pass@k over repeated samples (τ-bench): with n samples of a dialogue of which c
  are correct, pass^k = C(c, k) / C(n, k) (all k drawn samples succeed) and pass@k =
  1 - C(n - c, k) / C(n, k) (at least one does), averaged over dialogues.

Turns a model's prediction leaves out (a dialogue it stopped early, a dropped turn) are
scored as empty predictions with `missing_prediction` set, per model and per kept value.
"""

import math
import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from scorer import load, vocab
from scorer.aggregate import Tally
from scorer.duplicates import Duplicates
from scorer.errors import InputError
from scorer.io import formats
from scorer.options import Options
from scorer.parse import canonical_json, dump_json, json_text, load_json
from scorer.tables import DIALOGUE_COLUMNS, DIALOGUE_TURN_GOLD

DEFAULT_BOUNDS = (5, 10, 20, 40)   # length buckets 1–5, 6–10, 11–20, 21–40, >40
TURN_SEPARATOR = "#"               # turn row id of a nested dialogue: `<dialogue id>#<turn>`
_MISSING_FLAG = "\0missing_turn"   # prediction column marking a turn filled in as empty
_AS_WRITTEN = ("\0calls", "\0output")   # the predicted calls and text carried to the verdicts, for judge records
_ACEBENCH_TURN = re.compile(r"^(?P<dialogue>.+)_(?P<turn>\d+)$")
_CARRIED_SUBTYPES = (vocab.MISSING_ARG, vocab.INCORRECT_VALUE)


def bucket_labels(bounds=DEFAULT_BOUNDS) -> list:
    """Labels of the length buckets, zero-padded so that they sort in length order as text
    (`01–05`, `06–10`, `11–20`, `21–40`, `>40`)."""
    width = len(str(bounds[-1]))
    labels, low = [], 1
    for high in bounds:
        labels.append(f"{low:0{width}d}–{high:0{width}d}" if high > low else f"{low:0{width}d}")
        low = high + 1
    return labels + [f">{bounds[-1]}"]


def bucket_of(length: int, bounds=DEFAULT_BOUNDS) -> str:
    labels = bucket_labels(bounds)
    for label, high in zip(labels, bounds):
        if length <= high:
            return label
    return labels[-1]


def parse_bounds(text: str) -> tuple:
    """`5,10,20,40` -> (5, 10, 20, 40); ValueError unless positive and increasing."""
    try:
        bounds = tuple(int(part) for part in text.split(","))
    except ValueError:
        raise ValueError(f"length buckets must be integers separated by commas, not {text!r}") from None
    if not bounds or bounds[0] < 1 or any(b <= a for a, b in zip(bounds, bounds[1:])):
        raise ValueError(f"length buckets must be positive and increasing, not {text!r}")
    return bounds


# ------------------------------------------------------------------------------ reading

def _records(path: Path) -> list:
    if path.suffix.lower() == ".parquet":
        return pq.read_table(path).to_pylist()
    return load.read_json_records(path, None)   # a bad line stops the run, naming file and row


def _first_keys(path: Path) -> set:
    if path.suffix.lower() == ".parquet":
        return set(pq.read_schema(path).names)
    return set(formats.first_record(path))


def _calls_text(calls, path, row, name):
    """Calls as written (list of {name, arguments} with arguments an object or JSON text) -> JSON text."""
    if calls is None:
        return None
    if isinstance(calls, str):
        return calls
    if not isinstance(calls, list):
        raise InputError(path, "calls must be a list of {name, arguments}", row=row, field=name)
    return dump_json([{"name": c.get("name"), "arguments": load_json(c["arguments"])
                       if isinstance(c.get("arguments"), str) else c.get("arguments")}
                      if isinstance(c, dict) else c for c in calls])


def flatten_gold_records(records, path, bounds=DEFAULT_BOUNDS) -> pa.Table:
    """Nested dialogues (`id`, `tools`, `turns`: [{gold_calls, negative_type, reference_time,
    query, ...}], other dialogue columns) -> one gold row per turn."""
    rows = []
    for number, record in enumerate(records, start=1):
        turns = record.get("turns")
        if "id" not in record or not isinstance(turns, list) or not turns:
            raise InputError(path, "a dialogue needs an `id` and a non-empty `turns` list", row=number,
                             field="turns")
        dialogue = str(record["id"])
        shared = {key: json_text(value) for key, value in record.items() if key not in ("id", "turns")}
        for index, turn in enumerate(turns, start=1):
            if not isinstance(turn, dict) or "gold_calls" not in turn:
                raise InputError(path, f"turn {index} needs `gold_calls`", row=number, field="turns")
            row = {**shared, **{key: json_text(value) for key, value in turn.items()}}
            row.update(id=f"{dialogue}{TURN_SEPARATOR}{index}", dialogue_id=dialogue, turn=index,
                       dialogue_turns=None, turns=None, gold_calls=_calls_text(turn["gold_calls"], path, number, "gold_calls"))
            rows.append(row)
    table = load.rows_to_table(path, rows)
    return _with_dialogue_columns(table.drop_columns(["dialogue_turns", "turns"]), path, bounds)


def _with_dialogue_columns(table: pa.Table, path, bounds) -> pa.Table:
    """A flat turn table with `dialogue_id` and `turn`: adds the length columns, ids checked."""
    dialogues = table.column("dialogue_id").cast(pa.string())
    try:
        turns = table.column("turn").cast(pa.int64())
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        raise InputError(path, "turn must be an integer", field="turn") from None
    if dialogues.null_count or turns.null_count:
        raise InputError(path, "every row needs a dialogue_id and a turn", field="dialogue_id")
    counts = pa.table({"d": dialogues}).group_by("d").aggregate([([], "count_all")])
    length = dict(zip(counts.column("d").to_pylist(), counts.column("count_all").to_pylist()))
    seen = set()
    for dialogue, turn in zip(dialogues.to_pylist(), turns.to_pylist()):
        if (dialogue, turn) in seen:
            raise InputError(path, f"dialogue {dialogue!r} has turn {turn} twice", field="turn")
        seen.add((dialogue, turn))
    lengths = [length[d] for d in dialogues.to_pylist()]
    for name, values in (("dialogue_id", dialogues), ("turn", turns), ("dialogue_turns", lengths),
                         ("turns", [bucket_of(n, bounds) for n in lengths])):
        column = pa.array(values, DIALOGUE_TURN_GOLD.field(name).type) if isinstance(values, list) else values
        if name in table.column_names:
            table = table.set_column(table.schema.get_field_index(name), name, column)
        else:
            table = table.append_column(name, column)
    return table


def read_dialogue_gold(path, fmt="auto", bounds=DEFAULT_BOUNDS) -> pa.Table:
    """Dialogue gold as one row per turn: nested (`turns`), flat (`dialogue_id`, `turn`), or
    ACEBench's multi-turn files, whose rows `<dialogue>_<turn>` are turns counted from 0."""
    path = load.check_path(path)
    if fmt in ("auto", "callscore") and "turns" in _first_keys(path):
        return flatten_gold_records(_records(path), path, bounds)
    fmt = formats.detect_gold(path) if fmt == "auto" else fmt
    table = formats.read_gold(path, fmt)
    if fmt == "acebench":
        parts = [_ACEBENCH_TURN.match(identifier) for identifier in table.column("id").to_pylist()]
        if not all(parts):
            raise InputError(path, "ACEBench multi-turn ids end in _<turn>", field="id")
        table = table.append_column("dialogue_id", pa.array([p["dialogue"] for p in parts], pa.string()))
        table = table.append_column("turn", pa.array([int(p["turn"]) + 1 for p in parts], pa.int64()))
    for name in ("dialogue_id", "turn"):
        if name not in table.column_names:
            raise InputError(path, "dialogue gold needs a `turns` list per dialogue, or `dialogue_id` and "
                                   "`turn` columns", field=name)
    return _with_dialogue_columns(table, path, bounds)


def _turn_entry(turn, index):
    """One predicted turn -> (calls JSON, output, malformed reason): {calls} / {output} / a list
    of calls / raw text / null. The calls are read later by the pipeline, so a bad one is that
    turn's `malformed` verdict, not an error."""
    if turn is None or isinstance(turn, str):
        return None, turn, None
    if isinstance(turn, list):
        return dump_json(turn), None, None
    if isinstance(turn, dict):
        return json_text(turn.get("calls")), json_text(turn.get("output")), None
    return None, None, f"turn {index} is a {type(turn).__name__}, not an object, a list of calls or a text"


def _nested_records(path: Path, unreadable):
    """(line, record) of a nested predictions file; lines that cannot be tied to a dialogue
    (not JSON, not an object, no id) are reported in `unreadable` and skipped."""
    if path.suffix.lower() != ".jsonl":
        numbered = enumerate(_records(path), start=1)
    else:
        numbered = ((number, record) for number, record, problem in load.json_lines(path)
                    if problem is None or unreadable.lines.append((number, problem)))
    for number, record in numbered:
        if not isinstance(record, dict) or "id" not in record:
            unreadable.lines.append((number, "not a dialogue object with an id"))
            continue
        yield number, record


def read_dialogue_predictions(path, gold: pa.Table, keep=(), fmt="auto", renamed_dots=False,
                              unreadable: load.Unreadable | None = None) -> pa.Table:
    """Predictions as one row per turn: nested (`id` of the dialogue, `model`, `turns`: one
    entry per turn in order) become rows with the gold's turn ids; anything else is read as
    turn rows by the single-turn readers (ids are the gold's turn ids). A turn that cannot be
    read is that turn's `malformed` prediction (`turns` not a list: every gold turn of the
    dialogue); lines that name no dialogue go to `unreadable` (an error when it is None)."""
    path = load.check_path(path)
    report = unreadable if unreadable is not None else load.Unreadable()
    if fmt in ("auto", "callscore") and "turns" in _first_keys(path):
        gold_turns = {}
        for d, t, i in zip(gold.column("dialogue_id").to_pylist(), gold.column("turn").to_pylist(),
                           gold.column("id").to_pylist()):
            gold_turns.setdefault(d, {})[t] = i
        rows = []
        for number, record in _nested_records(path, report):
            dialogue = str(record["id"])
            for name in keep:
                if name not in record:
                    raise InputError(path, "no such column to keep (--keep)", row=number, field=name)
            turns = record.get("turns")
            entries = [_turn_entry(turn, index) for index, turn in enumerate(turns, start=1)] \
                if isinstance(turns, list) else [(None, None, "turns is not a list")] * len(gold_turns.get(dialogue, ()))
            for index, (calls, output, malformed) in enumerate(entries, start=1):
                rows.append({"id": gold_turns.get(dialogue, {}).get(index, f"{dialogue}{TURN_SEPARATOR}{index}"),
                             "model": record.get("model"), "calls": calls, "output": output, "malformed": malformed,
                             **{name: record[name] for name in keep}})
        batch = pa.RecordBatch.from_pydict({
            **{name: pa.array([row[name] for row in rows], pa.string())
               for name in ("id", "model", "calls", "output", "malformed")},
            **{name: pa.array([row[name] for row in rows]) for name in keep}})
        table = pa.Table.from_batches([load.prediction_batch(path, batch, keep)])
    else:
        from scorer.pipeline import read_prediction_batches

        table = pa.Table.from_batches(list(read_prediction_batches(path, fmt, None, 1 << 20, report, renamed_dots,
                                                                   keep)))
    if unreadable is None and report.lines:
        number, reason = report.lines[0]
        raise InputError(path, f"unreadable line: {reason}", row=number)
    return table


def without_repeats(predictions: pa.Table, gold_ids: pa.Array, policy: str, path) -> tuple[np.ndarray, str | None]:
    """(mask of the prediction rows to score, note) under `--on-duplicate` `policy`: repeated
    (model, id) rows are counted (and kept, dropped or refused) by scorer/duplicates.py, as
    single-turn rows are; rows whose id is not in `gold_ids` are kept (they are noted later)."""
    repeats = Duplicates(policy, len(gold_ids), path)
    batches = predictions.select(["model", "id"]).to_batches()
    if policy == "last":
        repeats.note_last_rows(batches, gold_ids)
    masks = []
    for batch in batches:
        positions = pc.index_in(batch.column("id"), value_set=gold_ids)
        known = pc.is_valid(positions).to_numpy(zero_copy_only=False)
        mask = np.ones(batch.num_rows, bool)
        drop = repeats.dropped(batch.filter(known), pc.drop_null(positions), known)
        if drop is not None:
            mask[known.nonzero()[0][drop]] = False
        masks.append(mask)
    return (np.concatenate(masks) if masks else np.ones(0, bool)), repeats.note()


def with_missing_turns(predictions: pa.Table, gold: pa.Table, keep=()) -> pa.Table:
    """The predictions plus an empty row, flagged, for every gold turn a (model, kept values)
    did not predict: a dialogue cut short or a turn dropped is scored, not skipped."""
    gold_ids = gold.column("id").to_pylist()
    group_columns = ["model", *keep]
    present = {}
    for values in zip(*(predictions.column(c).to_pylist() for c in [*group_columns, "id"])):
        present.setdefault(values[:-1], set()).add(values[-1])
    fill = {name: [] for name in ["id", *group_columns]}
    for group in sorted(present, key=lambda g: tuple((v is None, str(v)) for v in g)):
        for identifier in gold_ids:
            if identifier not in present[group]:
                fill["id"].append(identifier)
                for name, value in zip(group_columns, group):
                    fill[name].append(value)
    flag = pa.array([False] * predictions.num_rows + [True] * len(fill["id"]))
    if fill["id"]:
        filled = pa.table({name: pa.array(fill[name], predictions.column(name).type) if name in keep
                           else pa.array(fill[name], pa.string()) for name in fill})
        filled = filled.append_column("calls", pa.nulls(len(fill["id"]), predictions.column("calls").type))
        predictions = pa.concat_tables([predictions, filled], promote_options="default")
    return predictions.append_column(_MISSING_FLAG, flag)


# ------------------------------------------------------------------------------ carry-over

def _gold_values(calls_json):
    """Per gold call of a turn (JSON text, or Arrow CALLS as Python lists): argument name ->
    canonical JSON of the gold value."""
    calls = load_json(calls_json) if isinstance(calls_json, str) else (calls_json or [])
    result = []
    for call in calls:
        arguments = call.get("arguments") if isinstance(call, dict) else None
        if isinstance(arguments, str):
            arguments = load_json(arguments)
        result.append({name: canonical_json(value) for name, value in (arguments or {}).items()})
    return result


def carried_from_turn(verdicts: pa.Table, gold: pa.Table) -> pa.Array:
    """For each turn verdict: the earliest earlier turn of its dialogue whose gold gave the
    argument the row's missing_arg / incorrect_value error is about, with the same gold value;
    null when the row has no such error or the value is new at this turn."""
    values_of = dict(zip(gold.column("id").to_pylist(), gold.column("gold_calls").to_pylist()))
    first_turn = {}   # (dialogue, argument, canonical value) -> earliest turn giving it
    for identifier, dialogue, turn in sorted(zip(gold.column("id").to_pylist(), gold.column("dialogue_id").to_pylist(),
                                                 gold.column("turn").to_pylist()), key=lambda r: (r[1], r[2])):
        for call in _gold_values(values_of[identifier]):
            for name, value in call.items():
                first_turn.setdefault((dialogue, name, value), turn)
    result = [None] * verdicts.num_rows
    subtypes = verdicts.column("subtype").to_pylist()
    for row in (i for i, s in enumerate(subtypes) if s in _CARRIED_SUBTYPES):
        record = {c: verdicts.column(c)[row].as_py() for c in ("id", "dialogue_id", "turn", "argument", "errors")}
        headline = next((e for e in record["errors"] or () if e["kind"] == subtypes[row]
                         and e["argument"] == record["argument"]), None)
        calls = _gold_values(values_of[record["id"]])
        if headline is None or not 0 <= (headline["call"] or 0) < len(calls):
            continue
        value = calls[headline["call"] or 0].get(record["argument"])
        earlier = first_turn.get((record["dialogue_id"], record["argument"], value))
        if value is not None and earlier is not None and earlier < record["turn"]:
            result[row] = earlier
    return pa.array(result, pa.int64())


# ------------------------------------------------------------------------------ dialogues

def dialogue_verdicts(turns: pa.Table, keep=(), carried=()) -> pa.Table:
    """One verdict per (model, dialogue, kept values), in the verdict schema plus
    DIALOGUE_COLUMNS; `carried` names dialogue-level gold columns copied from the first turn."""
    names = ["model", "dialogue_id", *keep, "turn", "positive", "outcome", "subtype", "argument", "tool",
             "detail", "decided", "missing_prediction", "dialogue_turns", "turns", "carried_from_turn", *carried]
    data = turns.select(names).to_pydict()
    key_names = ["model", "dialogue_id", *keep]
    order = sorted(range(turns.num_rows), key=lambda i: (
        *((data[c][i] is not None, str(data[c][i])) for c in key_names), data["turn"][i]))
    out = {name: [] for name in ["model", "id", "positive", "outcome", "subtype", "argument", "tool", "detail",
                                 "decided", "missing_prediction", *DIALOGUE_COLUMNS.names, *keep, *carried]}
    start = 0
    while start < len(order):
        key = tuple(data[c][order[start]] for c in key_names)
        end = start
        while end < len(order) and tuple(data[c][order[end]] for c in key_names) == key:
            end += 1
        rows = order[start:end]
        failing = next((i for i in rows if data["outcome"][i] != vocab.CORRECT), None)
        first = rows[0]
        correct = sum(data["outcome"][i] == vocab.CORRECT for i in rows)
        out["model"].append(key[0])
        out["id"].append(key[1])
        out["positive"].append(any(data["positive"][i] for i in rows))
        for name in ("outcome", "subtype", "argument", "tool"):
            out[name].append(vocab.CORRECT if name == "outcome" and failing is None
                             else None if failing is None else data[name][failing])
        out["detail"].append(None if failing is None else
                             f"turn {data['turn'][failing]}: {data['detail'][failing] or data['outcome'][failing]}")
        out["decided"].append(all(data["decided"][i] for i in rows))
        out["missing_prediction"].append(all(data["missing_prediction"][i] for i in rows))
        out["dialogue_turns"].append(data["dialogue_turns"][first])
        out["turns"].append(data["turns"][first])
        out["turns_correct"].append(correct)
        out["process_accuracy"].append(correct / len(rows))
        out["first_failing_turn"].append(None if failing is None else data["turn"][failing])
        out["carried_from_turn"].append(None if failing is None else data["carried_from_turn"][failing])
        for name in (*keep, *carried):
            out[name].append(data[name][first])
        start = end
    schema = pa.schema([pa.field("model", pa.string()), pa.field("id", pa.string()), pa.field("positive", pa.bool_()),
                        *(pa.field(n, pa.string()) for n in ("outcome", "subtype", "argument", "tool", "detail")),
                        pa.field("decided", pa.bool_()), pa.field("missing_prediction", pa.bool_()),
                        *DIALOGUE_COLUMNS, *(turns.schema.field(n) for n in (*keep, *carried))])
    return pa.table(out, schema=schema)


def pass_hat_k(samples: int, successes: int, k: int) -> float:
    """τ-bench's pass^k of one task: the chance that k samples drawn without replacement all succeed."""
    return math.comb(successes, k) / math.comb(samples, k)


def pass_at_k(samples: int, successes: int, k: int) -> float:
    """pass@k of one task: the chance that at least one of k samples drawn succeeds."""
    return 1.0 - math.comb(samples - successes, k) / math.comb(samples, k)


def pass_k_rows(dialogues: pa.Table, sample: str) -> list:
    """Per model and k = 1..(fewest samples of any of its dialogues): pass^k and pass@k
    averaged over its dialogues, with the samples per dialogue counted from `sample` values."""
    counts = dialogues.group_by(["model", "id"], use_threads=False).aggregate([
        (sample, "count_distinct"), ("outcome", "count")]).to_pylist()
    correct = pa.table({"model": dialogues.column("model"), "id": dialogues.column("id"),
                        "ok": pc.equal(dialogues.column("outcome"), vocab.CORRECT)})
    successes = {(r["model"], r["id"]): r["ok_sum"] for r in correct.group_by(["model", "id"], use_threads=False)
                 .aggregate([("ok", "sum")]).to_pylist()}
    by_model = {}
    for record in counts:
        if record[f"{sample}_count_distinct"] != record["outcome_count"]:
            raise ValueError(f"dialogue {record['id']} of {record['model']} has a {sample} value twice")
        by_model.setdefault(record["model"], []).append((record["outcome_count"],
                                                         successes[(record["model"], record["id"])]))
    rows = []
    for model in sorted(by_model, key=str):
        tasks = by_model[model]
        for k in range(1, min(n for n, _ in tasks) + 1):
            rows.append({"model": model, "group": f"k={k}", "tasks": len(tasks),
                         "pass^k": sum(pass_hat_k(n, c, k) for n, c in tasks) / len(tasks),
                         "pass@k": sum(pass_at_k(n, c, k) for n, c in tasks) / len(tasks)})
    return rows


def summary_rows(turns: pa.Table, dialogues: pa.Table) -> list:
    """Per model, then per length bucket: turns, their accuracy and the share the rules decided
    (an undecided turn counts as its tentative outcome, often correct), dialogues, dialogue
    accuracy (all turns correct), the share of dialogues with every turn decided and mean
    process accuracy; then per turn position: turns and their accuracy."""
    turn_tally = Tally(("turns", "turn"))
    turn_tally.add(turns)
    dialogue_tally = Tally(("turns",))
    dialogue_tally.add(dialogues)
    process = dialogues.group_by(["model", "turns"], use_threads=False).aggregate(
        [("process_accuracy", "mean")]).to_pylist()
    overall = dialogues.group_by(["model"], use_threads=False).aggregate([("process_accuracy", "mean")]).to_pylist()
    mean = {(r["model"], f"turns={r['turns']}"): r["process_accuracy_mean"] for r in process}
    mean.update({(r["model"], "all"): r["process_accuracy_mean"] for r in overall})
    dialogue_rows = {(r["model"], r["group"]): r for r in dialogue_tally.rows()}
    rows = []
    for row in turn_tally.rows():
        other = dialogue_rows.get((row["model"], row["group"]), {})
        rows.append({"model": row["model"], "group": row["group"], "turns": row["n"],
                     "turn_accuracy": row["accuracy"], "decided": row["decided"], "dialogues": other.get("n"),
                     "dialogue_accuracy": other.get("accuracy"), "dialogues_decided": other.get("decided"),
                     "process_accuracy": mean.get((row["model"], row["group"]))})
    return rows


@dataclass
class DialogueResult:
    turns: pa.Table
    dialogues: pa.Table
    notes: list = field(default_factory=list)

    def summary(self, sample=None) -> list:
        """The summary rows, then pass^k / pass@k rows (group `k=1`, ...) when `sample` names
        the column of repeated samples."""
        return summary_rows(self.turns, self.dialogues) + (pass_k_rows(self.dialogues, sample) if sample else [])


def export_undecided(turns: pa.Table, gold: pa.Table, keep, path) -> tuple[int, int]:
    """(rows, estimated prompt tokens) of the judge records of the undecided turns, written to
    `path` by scorer/judge.py from what each turn's prediction wrote (its calls, else its text)."""
    from scorer.judge import UndecidedWriter, undecided_records

    held = turns.filter(pc.invert(pc.fill_null(turns.column("decided"), False)))
    as_written = zip(*(held.column(name).to_pylist() if name in held.column_names else [None] * held.num_rows
                       for name in _AS_WRITTEN))
    writer = UndecidedWriter(path)
    try:
        writer.add(undecided_records(turns, gold, (calls if calls is not None else output
                                                   for calls, output in as_written), kept=keep))
    except BaseException:
        writer.abort()
        raise
    return writer.close()


def score_dialogue_tables(predictions: pa.Table, gold: pa.Table, options: Options = Options(),
                          carried=(), path="predictions", undecided=None) -> DialogueResult:
    """Turn verdicts (with `carried_from_turn`) and dialogue verdicts of turn-row predictions
    against turn-row gold (both as `read_dialogue_*` return them). Repeated (model, turn id)
    rows follow `options.on_duplicate` (a kept sample column declares repeats); the undecided
    turns are counted for a judge and, with `undecided` a path, written there as `score
    --undecided` writes them."""
    from scorer.pipeline import score_tables

    keep = tuple(options.keep)
    gold_ids = gold.column("id").combine_chunks()
    repeated = None
    if not (keep and options.on_duplicate == "keep"):
        scored_rows, repeated = without_repeats(predictions, gold_ids, options.on_duplicate, path)
        predictions = predictions.filter(pa.array(scored_rows))
    filled = with_missing_turns(predictions, gold, keep)
    written = [name for name in _AS_WRITTEN if name[1:] in filled.column_names]
    for name in written:
        filled = filled.append_column(name, filled.column(name[1:]))
    carried_along = (_MISSING_FLAG, *written)
    scored = score_tables(filled, gold, Options(**{**options.__dict__, "keep": (*keep, *carried_along),
                                                    "on_duplicate": "keep"}))
    turns = scored.verdicts
    flag = turns.column(_MISSING_FLAG)
    index = turns.schema.get_field_index("missing_prediction")
    turns = turns.set_column(index, "missing_prediction", pc.or_(turns.column("missing_prediction"),
                                                                 pc.fill_null(flag, False)))
    turns = turns.append_column("carried_from_turn", carried_from_turn(turns, gold))
    turns = turns.sort_by([("model", "ascending"), *((k, "ascending") for k in keep),
                           ("dialogue_id", "ascending"), ("turn", "ascending")])
    decided = pc.sum(pc.fill_null(turns.column("decided"), False)).as_py() or 0
    scored.judge_rows, scored.judge_tokens = turns.num_rows - decided, None
    if undecided:
        scored.judge_rows, scored.judge_tokens = export_undecided(turns, gold, keep, undecided)
        scored.judge_file = str(undecided)
    turns = turns.drop_columns(list(carried_along))
    notes = scored.notes()
    if repeated:
        notes.insert(0, repeated)
    if predictions.num_rows and not pc.any(pc.is_in(predictions.column("id"), value_set=gold_ids)).as_py():
        notes.insert(0, f"no prediction matches a gold turn id (gold: {gold_ids[0].as_py()}, ...; predictions: "
                        f"{predictions.column('id')[0].as_py()}, ...): every turn is scored as missing; do the "
                        "predictions belong to this gold?")
    return DialogueResult(turns, dialogue_verdicts(turns, keep, carried), notes)
