"""BFCL multi-turn (`multi_turn_base`, `miss_func`, `miss_param`, `long_context`) on the API
simulators shipped in the `bfcl-eval` package: the optional extra `bfcl`
(`pip install --no-deps bfcl-eval mpmath`; the eight simulators of these categories need only
the standard library and mpmath, not bfcl-eval's own heavy dependencies).

A result is a list per turn of steps, as BFCL writes them: a function-calling (FC) model's step
is a list of `{name: arguments JSON}` (or a text reply), a prompt model's step is its text; a
step may also be a list of call texts, the decoded form BFCL's checker takes. Each step is read
twice, because the two verdicts read text differently:
- callscore reads the calls with its own parser (a call with positional arguments,
  `sort('report.pdf')`, is first rewritten to keywords from the simulator method's signature,
  through Python's `ast`, which parses and does not run);
- BFCL's reading decides what its checker executes: the `decode_execute` of the model's own
  handler in bfcl-eval 2026.3.23's model list (the row's `model`, else its result/<model>/
  folder), reproduced in scorer.compat.bfcl_eval_decoders beside the single-turn decoders: e.g.
  the `<tool_call>` blocks a vLLM-served Qwen FC model writes as text are its calls. A model the
  list does not name, or one with a default handler, is read as bfcl-eval's defaults: FC steps
  by `convert_to_function_call`, text by the prompt decoder, which drops positional arguments;
  for an FC model (one whose rows hold FC steps) a text step is a reply, never calls. A step
  that fails to decode or decodes to nothing is skipped, as BFCL's runner skips it.
Each call is then made by looking its name up among the simulator instances' public methods
with the JSON arguments (a wrong name or argument is an error result, as in BFCL, not an
exception). Model text is never evaluated.

Two verdicts side by side, per entry:
- BFCL's all-or-nothing rule, as bfcl-eval 2026.3.23's runner and checker apply it: a result
  that is not a list, or whose number of turns is not the gold's, fails whole; then turn by
  turn every decoded call is executed, and on a turn whose gold is not empty the model must
  have called something, the simulators' public state must equal the gold's and every gold
  execution result of the turn must be among the model's results so far (a multiset, any
  order). A turn whose gold is empty is not checked (its calls still change the state);
- callscore's turn verdicts and dialogue verdict (scorer/dialogue.py) over the same turns,
  the tools being the involved classes' function documents.
"""

import ast
import copy
import importlib
import inspect
import json
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import pyarrow as pa

from scorer.compat import bfcl_eval_decoders, bfcl_models
from scorer.compat.bfcl import handler_of
from scorer.compat.bfcl_eval_decoders import LIST, PROMPT
from scorer.dialogue import DEFAULT_BOUNDS, DialogueResult, bucket_of, score_dialogue_tables
from scorer.errors import InputError
from scorer.io import evalscope
from scorer.io.bfcl import convert_tools, model_of_result, read_json_lines
from scorer.io.formats import first_record
from scorer.options import Options
from scorer.parse import dump_json, load_json, parse_output
from scorer.tables import BFCL_COLUMNS

CATEGORIES = ("base", "miss_func", "miss_param", "long_context")
_NEGATIVE_TYPE = {"miss_func": "other_tool", "miss_param": "needs_clarification"}
# bfcl-eval's default handlers' keys: an FC step is executed as convert_to_function_call reads it
# (also for a prompt model: its text decoder would raise, callscore reads the list as calls)
DEFAULT_DECODERS = (LIST, PROMPT)
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
        """One call by name -> its result as BFCL records it (its error text when it raises)."""
        method = self.methods.get(name)
        if method is None:
            return f"Error during execution: name '{name}' is not defined"
        try:
            result = method(**load_json(arguments_json))
        except Exception as error:  # noqa: BLE001 - a refusal or a wrong argument is a result, as in BFCL
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


def _entry_problem(row, answers: dict, backend) -> str | None:
    """Why a question row cannot be scored: no gold turns for its id, or classes without a simulator."""
    turns = answers.get(str(row.get("id")))
    if not isinstance(turns, list) or not all(isinstance(turn, list) and all(isinstance(text, str) for text in turn)
                                              for turn in turns):
        return "no ground_truth (a list of turns of call texts) for its id in the answer file"
    classes = row.get("involved_classes")
    if not isinstance(classes, list) or not classes:
        return "no involved_classes"
    unknown = [name for name in classes if name not in backend.MULTI_TURN_FUNC_DOC_FILE_MAPPING
               or name not in backend.CLASS_FILE_PATH_MAPPING]
    return f"no simulator for class {unknown[0]!r}" if unknown else None


def load_entries(question_path, notes: list | None = None) -> list:
    """Entries of a BFCL multi-turn question file with their gold turns (from possible_answer/
    beside it). A row that cannot be scored is skipped, one row never losing the file: named
    in `notes` when given, else an InputError (a caller must not lose rows unseen)."""
    question_path = Path(question_path)
    answer_path = question_path.parent / "possible_answer" / question_path.name
    answers = {str(row.get("id")): row.get("ground_truth") for _n, row in read_json_lines(answer_path)}
    docs = data_dir() / "multi_turn_func_doc"
    from bfcl_eval.constants import executable_backend_config as backend

    class_docs = {}   # class name -> its function docs, read once per file
    entries = []
    for number, row in read_json_lines(question_path):
        entry_id = str(row.get("id"))
        problem = _entry_problem(row, answers, backend)
        if problem:
            if notes is None:
                raise InputError(question_path, f"id {entry_id!r}: {problem}", row=number)
            notes.append(f"gold row {number} (id {entry_id}) skipped: {problem}")
            continue
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


@dataclass(frozen=True)
class Step:
    """One step of a turn as both verdicts read it."""
    calls: list              # callscore's reading: [(name, arguments JSON)]
    malformed: str | None    # why callscore could not read it
    executed: list | None    # what BFCL's checker executes; None when BFCL skips the step


def _fc_calls(step) -> list:
    """BFCL's `convert_to_function_call`: `{name: arguments}` items, arguments a JSON object
    (as text or decoded); ValueError otherwise (BFCL's decoder raises: the step is skipped)."""
    calls = []
    for item in [step] if isinstance(step, dict) else step:
        for name, arguments in item.items():
            if isinstance(arguments, str):
                try:
                    arguments = load_json(arguments)
                except ValueError:
                    raise ValueError(f"the arguments of {name} are not JSON") from None
            if not isinstance(arguments, dict):
                raise ValueError(f"the arguments of {name} are not a JSON object")
            calls.append((str(name), dump_json(arguments)))
    return calls


def _is_fc_step(step) -> bool:
    return isinstance(step, dict) or (isinstance(step, list) and bool(step)
                                      and all(isinstance(item, dict) for item in step))


def _executed(decoder: str, items, text) -> list | None:
    """The calls BFCL's runner executes for a step by the handler's `decode_execute`
    (scorer.compat.bfcl_eval_decoders); None when it fails or finds none: the step is skipped."""
    try:
        return [(name, dump_json(arguments))
                for name, arguments in bfcl_eval_decoders.decode_execute(decoder, items, text)] or None
    except Exception:  # noqa: BLE001 - any failure of BFCL's decoder skips the step
        return None


def read_step(step, methods: dict, decoder: str) -> Step:
    """One step -> Step: FC calls, a text (calls, or an FC model's reply), a list of call texts
    (the checker's decoded form, read by both as calls), or nothing. `decoder`: the model's
    handler key (model_decoder's), which decides what BFCL executes."""
    if _is_fc_step(step):
        try:
            calls = _fc_calls(step)
        except ValueError as error:
            return Step([], str(error), None)
        if decoder in DEFAULT_DECODERS:
            return Step(calls, None, calls or None)
        items = [(name, arguments) for item in ([step] if isinstance(step, dict) else step)
                 for name, arguments in item.items()]
        return Step(calls, None, _executed(decoder, items, None))
    if isinstance(step, str):
        calls, malformed = read_calls(step, methods)
        return Step(calls, malformed, None if decoder == LIST else _executed(decoder, None, step))
    if isinstance(step, list) and all(isinstance(text, str) for text in step):
        calls, malformed = [], None
        for text in step:
            more, problem = read_calls(text, methods)
            calls += more
            malformed = malformed or problem
        return Step(calls, malformed, calls or None)
    return Step([], f"a step is a {type(step).__name__}, not calls or a text", None)


def read_result(result, methods: dict, decoder: str) -> list | None:
    """A BFCL multi-turn result -> per turn, its steps read; None when it is not a list."""
    if not isinstance(result, list):
        return None
    return [[read_step(step, methods, decoder) for step in (turn if isinstance(turn, list) else [turn])]
            for turn in result]


def model_decoder(model: str, fc_model: bool) -> str:
    """The handler key whose `decode_execute` BFCL ran on the model's steps: its handler in
    bfcl-eval's model list; for a model the list does not name, its default handler, FC when
    its rows hold FC steps."""
    run = bfcl_models.latest()
    found = bfcl_models.listed(model, run)
    if found is not None and found[0] == run:
        return handler_of(model, run)
    return LIST if fc_model else PROMPT


def is_fc_result(result) -> bool:
    """Whether a result holds FC steps: its model is an FC model, whose text steps are replies."""
    return isinstance(result, list) and any(
        _is_fc_step(step) for turn in result if isinstance(turn, list) for step in turn)


def _failure(error_type: str, turn: int | None = None) -> dict:
    return {"valid": False, "error_type": f"multi_turn:{error_type}", "turn": turn}


def bfcl_verdict(entry: dict, turns: list | None) -> dict:
    """BFCL's all-or-nothing verdict of one entry ({valid, error_type, turn}), `turns` as
    read_result returns them."""
    if turns is None:
        return _failure("inference_error")
    if len(turns) != len(entry["gold_turns"]):
        return _failure("force_terminated")
    model, gold = Environment(entry), Environment(entry)
    everything = []
    for turn, (steps, gold_texts) in enumerate(zip(turns, entry["gold_turns"]), start=1):
        executed = [step.executed for step in steps if step.executed]
        for calls in executed:
            everything += model.run(calls)
        expected = gold.run([call for text in gold_texts for call in read_calls(text, gold.methods)[0]])
        if not gold_texts:
            continue
        if not executed:
            return _failure("empty_turn_model_response", turn)
        if model.state() != gold.state():
            return _failure("instance_state_mismatch", turn)
        pool = list(everything)
        for item in expected:
            if item not in pool:
                return _failure("execution_response_mismatch", turn)
            pool.remove(item)
    return {"valid": True, "error_type": None, "turn": None}


def result_rows(path) -> list:
    """The result rows {id, model, result} of a predictions file: BFCL's own (a row without a
    model is the model of its folder, result/<model>/multi_turn/, whose handler decodes it),
    or the multi-turn samples of an EvalScope run file (scorer.io.evalscope), its verdict beside."""
    path = Path(path)
    if evalscope.is_evalscope_record(first_record(path)):
        return evalscope.multi_turn_rows(path, path.parent.name)
    return [{**row, "model": row.get("model") or model_of_result(path)} for _number, row in read_json_lines(path)]


def score_bfcl_multi_turn(predictions_path, gold_path, options: Options = Options(),
                          bounds=DEFAULT_BOUNDS) -> DialogueResult:
    """Both verdicts of every predicted entry: the turn verdicts, and the dialogue verdicts with
    `bfcl_valid`, `bfcl_error_type`, `bfcl_error_turn` beside callscore's."""
    reason = missing_reason()
    if reason:
        raise InputError(gold_path, reason)
    skipped = []
    entries = {entry["id"]: entry for entry in load_entries(gold_path, skipped)}
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
    rows = [row for row in result_rows(predictions_path) if str(row.get("id")) in entries]
    fc_models = {str(row.get("model") or "model") for row in rows if is_fc_result(row.get("result"))}
    decoders = {}   # model -> its handler key
    for row in rows:
        entry = entries[str(row.get("id"))]
        model = str(row.get("model") or "model")
        if model not in decoders:
            decoders[model] = model_decoder(model, model in fc_models)
        turns = read_result(row.get("result"), methods_of[entry["id"]], decoders[model])
        bfcl[(model, entry["id"])] = bfcl_verdict(entry, turns)
        if turns is None:   # every gold turn is that row's malformed prediction
            turns = [[Step([], "the result is not a list of turns", None)]] * len(entry["gold_turns"])
        for turn, steps in enumerate(turns, start=1):
            calls = [call for step in steps for call in step.calls]
            malformed = next((step.malformed for step in steps if step.malformed and not step.calls), None)
            prediction_rows.append({"id": f"{entry['id']}#{turn}", "model": model, "malformed": malformed,
                                    "calls": dump_json([{"name": n, "arguments": load_json(a)} for n, a in calls])})
    gold = pa.Table.from_pylist(gold_rows)
    predictions = pa.Table.from_pylist(prediction_rows, schema=pa.schema(
        [("id", pa.string()), ("model", pa.string()), ("malformed", pa.string()), ("calls", pa.string())]))
    result = score_dialogue_tables(predictions, gold, options, carried=("category",))
    keys = list(zip(result.dialogues.column("model").to_pylist(), result.dialogues.column("id").to_pylist()))
    for key in keys:  # an entry a model did not predict: nothing was called
        if key not in bfcl:
            bfcl[key] = bfcl_verdict(entries[key[1]], [])   # no turn: force-terminated
    dialogues = result.dialogues
    for column, field in zip(BFCL_COLUMNS, ("valid", "error_type", "turn")):
        dialogues = dialogues.append_column(column, pa.array([bfcl[key][field] for key in keys], column.type))
    if any(evalscope.CARRIED.names[0] in row for row in rows):   # EvalScope's own verdict beside
        theirs = {(str(row.get("model") or "model"), str(row["id"])): row for row in rows}
        for column in evalscope.CARRIED:
            dialogues = dialogues.append_column(column, pa.array([theirs.get(key, {}).get(column.name) for key in keys],
                                                                 column.type))
    return BfclResult(result.turns, dialogues, skipped + result.notes)


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
