"""BFCL multi-turn (`multi_turn_base`, `miss_func`, `miss_param`, `long_context`) on the API
simulators shipped in the `bfcl-eval` package: the optional extra `bfcl`
(`pip install --no-deps bfcl-eval mpmath`; the eight simulators of these categories need only
the standard library and mpmath, not bfcl-eval's own heavy dependencies).

Model text is never evaluated: calls are read with callscore's parser (a BFCL gold call with
positional arguments, `sort('report.pdf')`, is first rewritten to keywords from the simulator
method's signature, through Python's `ast`, which parses and does not run), then each call is
made by looking its name up among the simulator instances' public methods and binding the
JSON arguments to the method's signature (a wrong name or argument is an error result, as
in BFCL, not an exception).

Two verdicts side by side, per entry:
- BFCL's all-or-nothing rule, as its checker applies it turn by turn: a turn whose gold is
  empty must have no call; otherwise the model must have called something, the simulators'
  public state after the turn must equal the gold's, and every gold execution result of the
  turn must be among the model's results so far (a multiset, any order);
- callscore's turn verdicts and dialogue verdict (scorer/dialogue.py) over the same turns,
  the tools being the involved classes' function documents.
"""

import ast
import copy
import importlib
import inspect
import json
from importlib import resources
from pathlib import Path

import pyarrow as pa

from scorer.dialogue import DEFAULT_BOUNDS, DialogueResult, bucket_of, score_dialogue_tables
from scorer.errors import InputError
from scorer.io.bfcl import convert_tools, read_json_lines
from scorer.options import Options
from scorer.parse import dump_json, load_json, parse_output
from scorer.tables import BFCL_COLUMNS

CATEGORIES = ("base", "miss_func", "miss_param", "long_context")
_NEGATIVE_TYPE = {"miss_func": "other_tool", "miss_param": "needs_clarification"}
_INSTALL = "pip install --no-deps bfcl-eval mpmath (the callscore[bfcl] extra)"


def missing_reason() -> str | None:
    """Why the simulators cannot be used here, or None when they can."""
    try:
        from bfcl_eval.constants import executable_backend_config as backend

        for name in ("GorillaFileSystem", "MathAPI", "MessageAPI", "TwitterAPI", "TicketAPI", "TradingBot",
                     "TravelAPI", "VehicleControlAPI"):
            importlib.import_module(backend.CLASS_FILE_PATH_MAPPING[name])
    except ImportError as error:
        return f"the BFCL simulators are not installed ({error}); {_INSTALL}"
    return None


def data_dir() -> Path:
    """The multi-turn questions and answers shipped in bfcl-eval."""
    return Path(str(resources.files("bfcl_eval") / "data"))


def question_file(category: str) -> Path:
    """The shipped question file of a category (`base`, `miss_func`, ...), whatever BFCL version names it."""
    found = sorted(data_dir().glob(f"BFCL_v*_multi_turn_{category}.json"))
    if not found:
        raise InputError(data_dir(), f"no multi-turn question file for {category!r} in bfcl-eval")
    return found[-1]


def is_bfcl_multi_turn_gold(path) -> bool:
    path = Path(path)
    if path.suffix.lower() not in (".json", ".jsonl") or not path.is_file():
        return False
    from scorer.io.formats import first_record

    try:
        first = first_record(path)
    except InputError:
        return False
    return "involved_classes" in first and isinstance(first.get("question"), list)


def _category(entry_id: str) -> str:
    return entry_id.rsplit("_", 1)[0].removeprefix("multi_turn_")


class Environment:
    """Fresh simulator instances of one entry, loaded with its initial configuration."""

    def __init__(self, entry: dict):
        from bfcl_eval.constants import executable_backend_config as backend

        self.instances, self.methods = {}, {}
        long_context = _category(entry["id"]) == "long_context"
        for name in entry["involved_classes"]:
            if name not in backend.CLASS_FILE_PATH_MAPPING:
                raise InputError(entry["id"], f"no simulator for class {name!r}")
            instance = getattr(importlib.import_module(backend.CLASS_FILE_PATH_MAPPING[name]), name)()
            if name not in backend.STATELESS_CLASSES:
                instance._load_scenario(copy.deepcopy(entry["initial_config"].get(name, {})),
                                        long_context=long_context)
            self.instances[name] = instance
            for method_name, method in inspect.getmembers(instance, predicate=inspect.ismethod):
                if not method_name.startswith("_"):
                    self.methods[method_name] = method

    def call(self, name: str, arguments_json: str) -> str:
        """One call by name with checked arguments -> its result as BFCL records it."""
        method = self.methods.get(name)
        if method is None:
            return f"Error during execution: name '{name}' is not defined"
        arguments = load_json(arguments_json)
        try:
            inspect.signature(method).bind(**arguments)
        except TypeError as error:
            return f"Error during execution: {error}"
        try:
            result = method(**arguments)
        except Exception as error:  # noqa: BLE001 - a simulator's refusal is a result, as in BFCL
            return f"Error during execution: {error}"
        if isinstance(result, str):
            return result
        if isinstance(result, dict):
            try:
                return json.dumps(result)
            except TypeError:
                return str(result)
        return str(result)

    def run(self, calls) -> list:
        return [self.call(name, arguments) for name, arguments in calls]

    def state(self) -> dict:
        """Public attributes of every instance (what BFCL's state check compares)."""
        return {name: {k: v for k, v in vars(instance).items() if not k.startswith("_")}
                for name, instance in self.instances.items()}


def _keywords(text: str, methods: dict) -> str:
    """`f('a', b=1)` -> `f(x='a', b=1)` using f's signature; text that is not a call list is kept."""
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError:
        return text
    calls = tree.body.elts if isinstance(tree.body, (ast.List, ast.Tuple)) else [tree.body]
    changed = False
    for node in calls:
        if not (isinstance(node, ast.Call) and node.args and isinstance(node.func, ast.Name)
                and node.func.id in methods):
            continue
        names = [p.name for p in inspect.signature(methods[node.func.id]).parameters.values()
                 if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        if len(node.args) > len(names):
            continue
        node.keywords = [ast.keyword(arg=n, value=v) for n, v in zip(names, node.args)] + node.keywords
        node.args = []
        changed = True
    return ast.unparse(tree) if changed else text


def read_calls(text: str, methods: dict):
    """(calls, malformed reason) of one call text, read by callscore's parser."""
    parsed = parse_output(_keywords(text, methods) if "(" in text else text)
    return list(parsed.calls), parsed.malformed


def load_entries(question_path) -> list:
    """Entries of a BFCL multi-turn question file with their gold turns (from possible_answer/ beside it)."""
    question_path = Path(question_path)
    answer_path = question_path.parent / "possible_answer" / question_path.name
    answers = {str(row.get("id")): row.get("ground_truth") for _n, row in read_json_lines(answer_path)}
    docs = data_dir() / "multi_turn_func_doc"
    from bfcl_eval.constants import executable_backend_config as backend

    class_docs = {}   # class name -> its function docs, read once per file
    entries = []
    for number, row in read_json_lines(question_path):
        entry_id = str(row.get("id"))
        if entry_id not in answers:
            raise InputError(answer_path, f"no ground_truth for id {entry_id!r}", row=number)
        functions = []
        for name in row["involved_classes"]:
            if name not in class_docs:
                doc = docs / backend.MULTI_TURN_FUNC_DOC_FILE_MAPPING[name]
                class_docs[name] = [item for _n, item in read_json_lines(doc)]
            functions += class_docs[name]
        excluded = set(row.get("excluded_function") or ())
        entries.append({**row, "id": entry_id, "gold_turns": answers[entry_id],
                        "tools": dump_json(convert_tools([f for f in functions if f["name"] not in excluded]))})
    return entries


def _predicted_turns(result, methods) -> list:
    """A BFCL multi-turn result -> per turn, per step, (calls, malformed reason)."""
    turns = []
    for turn in result if isinstance(result, list) else []:
        steps = turn if isinstance(turn, list) else [turn]
        read = []
        for step in steps:
            texts = step if isinstance(step, list) else [step]
            calls, malformed = [], None
            for text in texts:
                more, problem = read_calls(text, methods) if isinstance(text, str) else ([], "not a call text")
                calls += more
                malformed = malformed or problem
            read.append((calls, malformed))
        turns.append(read)
    return turns


def bfcl_verdict(entry: dict, predicted: list) -> dict:
    """BFCL's all-or-nothing verdict of one entry: {valid, error_type, turn}."""
    model, gold = Environment(entry), Environment(entry)
    everything = []
    for turn, gold_texts in enumerate(entry["gold_turns"]):
        steps = predicted[turn] if turn < len(predicted) else []
        made = []
        for calls, _malformed in steps:
            made += model.run(calls)
        gold_calls = [call for text in gold_texts for call in read_calls(text, gold.methods)[0]]
        expected = gold.run(gold_calls)
        everything += made
        any_call = any(calls for calls, _m in steps)
        if not gold_texts:
            if any_call:
                return {"valid": False, "error_type": "multi_turn:irrelevance_error", "turn": turn + 1}
            continue
        if not any_call:
            return {"valid": False, "error_type": "multi_turn:empty_turn_model_response", "turn": turn + 1}
        if model.state() != gold.state():
            return {"valid": False, "error_type": "multi_turn:instance_state_mismatch", "turn": turn + 1}
        pool = list(everything)
        for item in expected:
            if item not in pool:
                return {"valid": False, "error_type": "multi_turn:execution_response_mismatch", "turn": turn + 1}
            pool.remove(item)
    return {"valid": True, "error_type": None, "turn": None}


def score_bfcl_multi_turn(predictions_path, gold_path, options: Options = Options(),
                          bounds=DEFAULT_BOUNDS) -> DialogueResult:
    """Both verdicts of every predicted entry: the turn verdicts, and the dialogue verdicts with
    `bfcl_valid`, `bfcl_error_type`, `bfcl_error_turn` beside callscore's."""
    reason = missing_reason()
    if reason:
        raise InputError(gold_path, reason)
    entries = {entry["id"]: entry for entry in load_entries(gold_path)}
    gold_rows, prediction_rows, bfcl = [], [], {}
    methods_of = {}   # entry id -> its simulators' method signatures (a scenario load is a deep copy)
    for entry in entries.values():
        methods = methods_of[entry["id"]] = Environment(entry).methods
        category = _category(entry["id"])
        length = len(entry["gold_turns"])
        for turn, texts in enumerate(entry["gold_turns"], start=1):
            calls = [call for text in texts for call in read_calls(text, methods)[0]]
            gold_rows.append({"id": f"{entry['id']}#{turn}", "dialogue_id": entry["id"], "turn": turn,
                              "dialogue_turns": length, "turns": bucket_of(length, bounds),
                              "category": category, "tools": entry["tools"],
                              "gold_calls": dump_json([{"name": n, "arguments": load_json(a)} for n, a in calls]),
                              "negative_type": None if calls else _NEGATIVE_TYPE.get(category, "no_tool"),
                              # BFCL checks that no call is made, not what the reply asks
                              "expect": None if calls else "no_call"})
    for number, row in read_json_lines(predictions_path):
        entry = entries.get(str(row.get("id")))
        if entry is None:
            continue
        model = str(row.get("model") or "model")
        turns = _predicted_turns(row.get("result"), methods_of[entry["id"]])
        bfcl[(model, entry["id"])] = bfcl_verdict(entry, turns)
        for turn, steps in enumerate(turns, start=1):
            calls = [call for step_calls, _m in steps for call in step_calls]
            malformed = next((m for step_calls, m in steps if m and not step_calls), None)
            prediction_rows.append({"id": f"{entry['id']}#{turn}", "model": model, "malformed": malformed,
                                    "calls": dump_json([{"name": n, "arguments": load_json(a)} for n, a in calls])})
    gold = pa.Table.from_pylist(gold_rows)
    predictions = pa.Table.from_pylist(prediction_rows, schema=pa.schema(
        [("id", pa.string()), ("model", pa.string()), ("malformed", pa.string()), ("calls", pa.string())]))
    result = score_dialogue_tables(predictions, gold, options, carried=("category",))
    keys = list(zip(result.dialogues.column("model").to_pylist(), result.dialogues.column("id").to_pylist()))
    for key in keys:  # an entry a model did not predict: nothing was called
        if key not in bfcl:
            bfcl[key] = bfcl_verdict(entries[key[1]], [])
    dialogues = result.dialogues
    for column, field in zip(BFCL_COLUMNS, ("valid", "error_type", "turn")):
        dialogues = dialogues.append_column(column, pa.array([bfcl[key][field] for key in keys], column.type))
    return BfclResult(result.turns, dialogues, result.notes)


class BfclResult(DialogueResult):
    def summary(self, sample=None) -> list:
        """callscore's dialogue summary with BFCL's accuracy (share of entries valid) per model
        and length bucket beside it."""
        rows = super().summary(sample)
        table = self.dialogues.select(["model", "turns", "bfcl_valid"]).to_pylist()
        for row in rows:
            if row["group"] == "all" or row["group"].startswith("turns="):
                mine = [r["bfcl_valid"] for r in table if r["model"] == row["model"]
                        and (row["group"] == "all" or row["group"] == f"turns={r['turns']}")]
                row["bfcl_accuracy"] = sum(mine) / len(mine) if mine else None
        return rows
