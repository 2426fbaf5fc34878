"""Agent trajectories (ACEBench `data_agent_multi_turn` / `data_agent_multi_step`): scored by
the end state the agent left and by the milestones it passed.

Gold: the data file (`id`, `function`, `initial_config`, ...) and its `possible_answer/` file:
`ground_truth`, a list of `{class name: state}`, and `mile_stone`, a list of calls written as
`[f(a=1)]` or a list of such lists (alternative orders). Predictions, one row per (model,
task): `id`, `model`, `result` (the final states, the same shape as `ground_truth`, or one
object of class name -> state) and `process` (the calls the agent made, in order: call texts
as the milestones are written, or {name, arguments} objects).

- End state: every gold class must be in the result with an equal state; leaves are compared
  with the value normalization of arguments (`3` = `3.0`, case, width, aliases), objects by
  key, lists by position. Each differing attribute is one error, `argument` its path
  (`MessageApi.inbox.7.message`). A gold class the result lacks is an error too.
- Process accuracy: the share of a milestone list matched as an ordered subsequence of the
  calls made (longest common subsequence), best alternative; a milestone equals a call when
  callscore's single-turn scoring of the call against the milestone, with the task's tools, is
  `correct` (so argument normalization applies, not string equality).
- The verdict is `correct` when the end state is; otherwise it is attributed to the first
  milestone of the best alternative left unmatched (the verdict of the closest call to that
  tool, `miss_recall/no_call` when nothing was called, `miss_recall/partial_calls` when that
  tool never was), or, all milestones met, to calls beyond them (`over_recall/extra_call`) or
  to a value no milestone shows (`param_error/incorrect_value`).

ACEBench's published checker differs in two ways (docs/dialogues.md): a gold class with no
class of that name in the result reuses the previous class's comparison (a stale result; here
it is an error), and with alternative milestone lists it compares against the wrong list
(here each alternative is matched and the best one counts).
"""

import re
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc

from scorer import vocab
from scorer.dialogue import DialogueResult, without_repeats
from scorer.errors import InputError
from scorer.io import formats
from scorer.io.bfcl import convert_tools, read_json_lines
from scorer.normalize import Context, canonical
from scorer.options import Options
from scorer.parse import canonical_json, dump_json, json_text, load_json, parse_calls_value, parse_output
from scorer.schema import Param, infer_kind
from scorer.tables import AGENT_COLUMNS, ERROR

END_STATE = "end_state"                   # error kind of a differing state attribute
MILESTONE = "milestone"                   # error kind of a milestone not met


def is_agent_gold(path) -> bool:
    """An ACEBench agent data file (`initial_config` and a text `question`; BFCL's multi-turn
    questions are lists of messages)."""
    path = Path(path)
    if path.suffix.lower() not in (".json", ".jsonl") or not path.is_file():
        return False
    try:
        first = formats.first_record(path)
        return "initial_config" in first and isinstance(first.get("question"), str)
    except InputError:
        return False


_APOSTROPHE = re.compile(r"(?<=[A-Za-z])'(?=[A-Za-z])")


def read_call_text(text: str):
    """Calls written as `[f(a='x')]` (ACEBench's milestones and call logs). ACEBench writes
    apostrophes unescaped inside single-quoted values (`'Domino's'`, 14 en milestones): a text
    that does not read is read again with each apostrophe between two letters escaped."""
    read = parse_output(text)
    if read.malformed and _APOSTROPHE.search(text):
        repaired = parse_output(_APOSTROPHE.sub(r"\\'", text))
        if not repaired.malformed:
            return repaired
    return read


def _class_states(value, path, row, name) -> dict:
    """`[{class: state}, ...]` or `{class: state}` -> {class: state}."""
    if isinstance(value, dict):
        return value
    if isinstance(value, list) and all(isinstance(item, dict) for item in value):
        return {cls: state for item in value for cls, state in item.items()}
    raise InputError(path, "expected {class: state} objects", row=row, field=name)


def read_agent_gold(data_path) -> list:
    """Tasks: dicts with id, tools (JSON text), states, milestone alternatives (parsed calls), category, language."""
    data_path = Path(data_path)
    answer_path = data_path.parent / "possible_answer" / data_path.name
    answers = {str(row.get("id")): (number, row) for number, row in read_json_lines(answer_path)}
    language = next((p.removeprefix("data_") for p in reversed(data_path.resolve().parts)
                     if p in ("data_zh", "data_en")), None)
    category = data_path.name.removesuffix(".json").removesuffix(".jsonl").removeprefix("data_")
    tasks = []
    for number, row in read_json_lines(data_path):
        task_id = str(row.get("id"))
        if task_id not in answers:
            raise InputError(answer_path, f"no ground_truth for id {task_id!r}")
        answer_row, answer = answers[task_id]
        for name in ("ground_truth", "mile_stone"):
            if name not in answer:
                raise InputError(answer_path, "missing field", row=answer_row, field=name)
        stones = answer["mile_stone"]
        alternatives = stones if stones and all(isinstance(s, list) for s in stones) else [stones]
        parsed = []
        for alternative in alternatives:
            calls = []
            for text in alternative:
                read = read_call_text(text) if isinstance(text, str) else parse_calls_value([text])
                if read.malformed or not read.calls:
                    raise InputError(answer_path, f"milestone {text!r} is not a call", row=answer_row,
                                     field="mile_stone")
                calls.extend(read.calls)
            parsed.append(calls)
        tasks.append({"id": task_id, "tools": dump_json(convert_tools(row.get("function") or [])),
                      "states": _class_states(answer["ground_truth"], answer_path, answer_row, "ground_truth"),
                      "milestones": parsed, "category": category, "language": language})
    return tasks


def read_agent_predictions(path, unreadable: list | None = None, skipped: list | None = None) -> list:
    """Rows: (model, id, {class: state} or None, calls as parsed, reason if unreadable). A
    `result` that is not class states makes that row a `malformed` prediction (no states, no
    calls), its InputError appended to `unreadable`; a row with no id names no task, so its
    InputError goes to `skipped` and the row is left out: one bad row must not stop the run
    (without the lists, either stops it)."""
    rows = []
    for number, row in read_json_lines(path):
        if "id" not in row:
            error = InputError(path, "missing field", row=number, field="id")
            if skipped is None:
                raise error
            skipped.append(error)
            continue
        states = row.get("result")
        try:
            states = None if states is None else _class_states(states, path, number, "result")
        except InputError as error:
            if unreadable is not None:
                unreadable.append(error)
            rows.append((str(row.get("model") or "model"), str(row["id"]), None, [], str(error)))
            continue
        process = row.get("process") or []
        if isinstance(process, str):
            process = [process]
        calls, malformed = [], None
        for step in process:
            read = read_call_text(step) if isinstance(step, str) else parse_calls_value(
                step if isinstance(step, list) else [step])
            if read.malformed:
                malformed = read.malformed
            calls.extend(read.calls)
        rows.append((str(row.get("model") or "model"), str(row["id"]), states, calls, malformed))
    return rows


# ------------------------------------------------------------------------------ end state

def _leaf_key(name: str, gold, predicted) -> tuple:
    kind = infer_kind(name, gold)
    param = Param(kind=kind)
    context = Context(None)
    return canonical(param, gold, context).key, canonical(param, predicted, context).key


def state_differences(gold, predicted, path="") -> list:
    """(path, gold, predicted) of every attribute that differs, in gold order then extra keys."""
    if isinstance(gold, dict) and isinstance(predicted, dict):
        differences = []
        for key in [*gold, *(k for k in predicted if k not in gold)]:
            where = f"{path}.{key}" if path else str(key)
            if key not in predicted or key not in gold:
                differences.append((where, gold.get(key), predicted.get(key)))
            else:
                differences.extend(state_differences(gold[key], predicted[key], where))
        return differences
    if isinstance(gold, list) and isinstance(predicted, list):
        differences = []
        for index in range(max(len(gold), len(predicted))):
            where = f"{path}[{index}]"
            if index >= len(gold) or index >= len(predicted):
                differences.append((where, gold[index] if index < len(gold) else None,
                                    predicted[index] if index < len(predicted) else None))
            else:
                differences.extend(state_differences(gold[index], predicted[index], where))
        return differences
    if isinstance(gold, (dict, list)) or isinstance(predicted, (dict, list)):
        return [(path, gold, predicted)]
    name = path.rsplit(".", 1)[-1]
    gold_key, predicted_key = _leaf_key(name, gold, predicted)
    return [] if gold_key == predicted_key else [(path, gold, predicted)]


def end_state_errors(gold_states: dict, predicted_states) -> list:
    """Errors (ERROR structs) of an end state: each gold class compared with the result's class
    of the same name; a class the result lacks is one error."""
    errors = []
    for cls, state in gold_states.items():
        if predicted_states is None or cls not in predicted_states:
            errors.append((cls, state, None))
        else:
            errors.extend(state_differences(state, predicted_states[cls], cls))
    return [{"call": -1, "argument": where, "kind": END_STATE, "gold": json_text(gold), "predicted": json_text(predicted)}
            for where, gold, predicted in errors]


# ------------------------------------------------------------------------------ milestones

def longest_matched(equal) -> int:
    """Length of the longest common subsequence of milestones (rows) and calls (columns) under `equal[i][j]`."""
    if not equal:
        return 0
    previous = [0] * (len(equal[0]) + 1)
    for row in equal:
        current = [0]
        for j, same in enumerate(row):
            current.append(previous[j] + 1 if same else max(previous[j + 1], current[j]))
        previous = current
    return previous[-1]


def first_unmatched(equal) -> int | None:
    """Index of the first milestone outside one longest common subsequence (backtracked from the
    end, preferring to match later milestones), or None when all are matched."""
    n = len(equal)
    m = len(equal[0]) if n else 0
    table = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n):
        for j in range(m):
            table[i + 1][j + 1] = table[i][j] + 1 if equal[i][j] else max(table[i][j + 1], table[i + 1][j])
    matched, i, j = set(), n, m
    while i and j:
        if equal[i - 1][j - 1] and table[i][j] == table[i - 1][j - 1] + 1:
            matched.add(i - 1)
            i, j = i - 1, j - 1
        elif table[i - 1][j] >= table[i][j - 1]:
            i -= 1
        else:
            j -= 1
    return next((index for index in range(n) if index not in matched), None)


def _pair_verdicts(tasks, predictions, options):
    """Verdicts of every distinct (task, milestone, call) pair, scored by the single-turn
    pipeline (one gold row and one prediction per pair), by (milestone key, call key)."""
    from scorer.pipeline import score_tables

    milestone_keys = {}
    for task in tasks.values():
        for alternative in task["milestones"]:
            for tool, arguments in alternative:
                milestone_keys.setdefault((task["id"], tool, arguments), f"{task['id']}\x1f{len(milestone_keys)}")
    pairs = set()
    for _model, task_id, _states, calls, _malformed in predictions:
        if task_id in tasks:
            pairs.update((milestone_keys[(task_id, tool, arguments)], tool, arguments, call)
                         for alternative in tasks[task_id]["milestones"] for tool, arguments in alternative
                         for call in calls)
    if not pairs:
        return milestone_keys, {}
    ordered = sorted(pairs)
    gold = pa.table({
        "id": [str(n) for n in range(len(ordered))],
        "gold_calls": [dump_json([{"name": tool, "arguments": load_json(arguments)}]) for _k, tool, arguments, _c in ordered],
        "tools": [tasks[key.split("\x1f")[0]]["tools"] for key, *_ in ordered],
        "negative_type": pa.nulls(len(ordered), pa.string())})
    made = pa.table({"id": gold.column("id"), "model": ["pair"] * len(ordered),
                     "calls": [dump_json([{"name": call[0], "arguments": load_json(call[1])}]) for *_g, call in ordered]})
    verdicts = score_tables(made, gold, options).verdicts.sort_by([("id", "ascending")])
    by_id = {v["id"]: v for v in verdicts.select(["id", "outcome", "subtype", "argument", "detail", "decided"]).to_pylist()}
    return milestone_keys, {(key, call): by_id[str(n)] for n, (key, _t, _a, call) in enumerate(ordered)}


def _best_pair(pairs, gold_id, calls, tool):
    """The verdict of the call closest to a milestone: among calls to its tool, the first of
    the best outcome (param_error before others); None when the tool was never called."""
    rank = {vocab.CORRECT: 0, vocab.PARAM_ERROR: 1, vocab.OVER_RECALL: 2, vocab.MISS_RECALL: 3}
    candidates = [pairs[(gold_id, call)] for call in calls if call[0] == tool]
    return min(candidates, key=lambda v: rank[v["outcome"]], default=None)


def missing_predictions(tasks: list, predictions: list) -> list:
    """An empty prediction (no states, no calls) for every task a predicting model left out:
    scored, it fails, so that the task stays in that model's denominator."""
    predicted = {(model, task_id) for model, task_id, *_ in predictions}
    return [(model, task["id"], None, [], None) for model in sorted({model for model, *_ in predictions})
            for task in tasks if (model, task["id"]) not in predicted]


def score_agent(tasks: list, predictions: list, options: Options = Options()) -> pa.Table:
    """One verdict per (model, task): VERDICTS-like columns then AGENT_COLUMNS; the tasks a
    model has no prediction for are failures with `missing_prediction` set."""
    by_id = {task["id"]: task for task in tasks}
    gold_ids, pairs = _pair_verdicts(by_id, predictions, options)
    absent = missing_predictions(tasks, predictions)
    unpredicted = {(model, task_id) for model, task_id, *_ in absent}
    rows = []
    for model, task_id, states, calls, malformed in sorted([*predictions, *absent], key=lambda r: (r[0], r[1])):
        task = by_id.get(task_id)
        if task is None:
            continue
        errors = end_state_errors(task["states"], states)
        best = None
        for index, alternative in enumerate(task["milestones"]):
            keys = [gold_ids[(task_id, tool, arguments)] for tool, arguments in alternative]
            equal = [[pairs[(key, call)]["outcome"] == vocab.CORRECT for call in calls]
                     for key in keys]
            matched = longest_matched(equal) if calls else 0
            if best is None or matched / len(alternative) > best[1] / len(best[2]):
                best = (index, matched, alternative, keys, equal)
        index, matched, alternative, keys, equal = best
        missing = first_unmatched(equal) if calls else (0 if alternative else None)
        outcome, subtype, argument, tool, detail, decided = vocab.CORRECT, None, None, None, None, True
        if missing is not None:
            tool = alternative[missing][0]
            errors.append({"call": missing, "argument": None, "kind": MILESTONE,
                           "gold": canonical_json([tool, load_json(alternative[missing][1])]), "predicted": None})
        if errors and any(e["kind"] == END_STATE for e in errors):
            if malformed and not calls:
                outcome, subtype, detail = vocab.MISS_RECALL, vocab.MALFORMED, malformed
            elif missing is not None:
                pair = _best_pair(pairs, keys[missing], calls, tool)
                if not calls:
                    outcome, subtype = vocab.MISS_RECALL, vocab.NO_CALL
                elif pair is None or pair["outcome"] == vocab.CORRECT:
                    outcome, subtype = vocab.MISS_RECALL, vocab.PARTIAL_CALLS
                else:
                    outcome, subtype, argument, decided = pair["outcome"], pair["subtype"], pair["argument"], pair["decided"]
                    if outcome == vocab.OVER_RECALL:
                        outcome, subtype = vocab.MISS_RECALL, vocab.PARTIAL_CALLS
                detail = f"milestone {missing + 1} not met: {tool}" + (f" ({pair['detail']})" if pair and
                                                                       pair["detail"] else "")
            else:
                first = next(e for e in errors if e["kind"] == END_STATE)
                argument = first["argument"]
                extra = len(calls) > matched
                outcome = vocab.OVER_RECALL if extra else vocab.PARAM_ERROR
                subtype = vocab.EXTRA_CALL if extra else vocab.INCORRECT_VALUE
                detail = f"end state {argument}: gold {first['gold']}, result {first['predicted']}"
        rows.append({"model": model, "id": task_id, "positive": True, "outcome": outcome, "subtype": subtype,
                     "argument": argument, "tool": tool if outcome != vocab.CORRECT else None, "detail": detail,
                     "errors": errors, "decided": decided, "missing_prediction": (model, task_id) in unpredicted,
                     "end_state_correct": not any(e["kind"] == END_STATE for e in errors),
                     "process_accuracy": matched / len(alternative) if alternative else 1.0,
                     "milestones": len(alternative), "milestones_matched": matched, "alternative": index,
                     "first_missing_milestone": missing, "category": task["category"],
                     "language": task["language"]})
    schema = pa.schema([("model", pa.string()), ("id", pa.string()), ("positive", pa.bool_()),
                        *((n, pa.string()) for n in ("outcome", "subtype", "argument", "tool", "detail")),
                        ("errors", pa.list_(ERROR)), ("decided", pa.bool_()), ("missing_prediction", pa.bool_()),
                        *AGENT_COLUMNS])
    return pa.Table.from_pylist(rows, schema=schema)


class AgentResult(DialogueResult):
    def summary(self, sample=None) -> list:
        """Per model: tasks (those with no prediction among them, as failures), end-state
        accuracy, mean process accuracy, the share decided (samples are not told apart)."""
        rows = []
        records = self.dialogues.select(["model", "end_state_correct", "process_accuracy", "decided",
                                         "missing_prediction"]).to_pylist()
        for model in sorted({r["model"] for r in records}):
            mine = [r for r in records if r["model"] == model]
            rows.append({"model": model, "tasks": len(mine),
                         "end_state_accuracy": sum(r["end_state_correct"] for r in mine) / len(mine),
                         "process_accuracy": sum(r["process_accuracy"] for r in mine) / len(mine),
                         "decided": sum(bool(r["decided"]) for r in mine) / len(mine),
                         "missing": sum(r["missing_prediction"] for r in mine)})
        return rows


def score_agent_files(predictions_path, gold_path, options: Options = Options()) -> AgentResult:
    tasks = read_agent_gold(gold_path)
    unreadable, skipped = [], []
    predictions = read_agent_predictions(predictions_path, unreadable, skipped)
    scored, repeated = without_repeats(pa.table({"model": [p[0] for p in predictions], "id": [p[1] for p in predictions]},
                                                schema=pa.schema([("model", pa.string()), ("id", pa.string())])),
                                       pa.array([task["id"] for task in tasks], pa.string()), options.on_duplicate,
                                       predictions_path)
    predictions = [prediction for prediction, kept in zip(predictions, scored) if kept]
    known = {task["id"] for task in tasks}
    unknown = sorted({task_id for _m, task_id, *_ in predictions if task_id not in known})
    verdicts = score_agent(tasks, predictions, options)
    notes = [f"{error} (prediction skipped)" for error in skipped]
    notes += [f"{error} (scored as malformed)" for error in unreadable]
    notes += [repeated] if repeated else []
    notes += [f"{len(unknown)} prediction(s) with an id not in gold skipped (first: {', '.join(unknown[:5])})"] \
        if unknown else []
    missing = pc.sum(verdicts.column("missing_prediction")).as_py() or 0
    notes += [f"{missing} task(s) had no prediction for a model: scored as failures (missing_prediction)"] \
        if missing else []
    return AgentResult(verdicts, verdicts, notes)
