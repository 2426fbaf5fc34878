"""Parity of callscore with BFCL's AST checker and ACEBench's rules, on the same rows.

    python bench/parity.py [--peers ../shared/peers] [--variants 4] [--seed 0] [--skip real|perturbed|acebench]

Three sets of rows:
1. BFCL real results: the 16 models x 5 categories of ../shared/peers/bfcl-2024-08. BFCL's
   verdicts are its published score files (a row absent from a score file was judged valid).
2. BFCL perturbed gold: each AST question's gold answer turned into a prediction and perturbed
   in seeded ways (a value changed, an argument dropped or added, a call dropped or repeated,
   ...). BFCL's checker judges them in its own virtual environment, bench/.venv-bfcl, created
   on first use with the `bfcl-eval` wheel only (`--no-deps`): the AST checker needs nothing
   but the standard library and its own package, except `constants.model_config`, which
   imports every provider SDK only to read `underscore_to_dot`; the driver replaces that one
   module by a stub answering False (the perturbed predictions use declared names).
   callscore's environment never sees bfcl-eval.
3. ACEBench normal rows (zh and en), perturbed the same way. No ACEBench checker package
   exists, so its rules are RE-IMPLEMENTED here (ace_check), from its paper/README as far as
   they are stated: the number of calls, the function names, the set of parameter names and
   every value must match one of the possible answers exactly, after a light normalization of
   strings (lower case; spaces and `,./-_*^` removed, the BFCL rule ACEBench's checker
   descends from); int and float compare as numbers, booleans only with booleans, lists in
   order, objects key by key; calls pair in any order.

For each it prints a confusion table (benchmark valid/invalid x callscore outcome; rows callscore
leaves undecided in their own column), the agreement (a) on all rows, (b) without rows a
deliberate difference covers, (c) without undecided rows, (d) without both, per model (or per
perturbation) and in total, and every class of disagreement with its kind, count, reason and two
examples. Kinds: deliberate (a named rule of docs/deliberate_differences.md, tested in
tests/io/test_deliberate_differences.py), defect (callscore is wrong: a proposal, xfail test),
undecided (left to a judge; never counted as agreement).
"""

import argparse
import collections
import json
import random
import re
import subprocess
import sys
import venv
from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from scorer.io.acebench import read_acebench_gold  # noqa: E402
from scorer.io.bfcl import declared_name, read_bfcl_gold, read_bfcl_results, read_json_lines  # noqa: E402

BFCL_EVAL = "bfcl-eval==2026.3.23"
VENV = REPO / "bench" / ".venv-bfcl"
CATEGORIES = ("simple", "multiple_function", "parallel_function", "parallel_multiple_function", "relevance")
AST_CATEGORIES = CATEGORIES[:4]
# The "dot->_" column of ../shared/peers/bfcl-2024-08/README.md: BFCL sent these models the
# function names with `.` replaced by `_` (their APIs forbid dots) and maps them back.
RENAMED_DOTS = {
    "gpt-4-0125-preview-FC", "claude-3-5-sonnet-20240620-FC", "gemini-1.5-pro-preview-0514",
    "command-r-plus-FC", "mistral-large-2407-FC-Any", "meetkai_functionary-small-v3.2-FC",
    "NousResearch_Hermes-2-Pro-Llama-3-8B", "ibm-granite_granite-20b-functioncalling",
}

DRIVER = r'''
"""Runs BFCL's AST checker on JSON lines {key, category, function, output, answer} from stdin."""
import json, sys, types
stub = types.ModuleType("bfcl_eval.constants.model_config")
stub.MODEL_CONFIG_MAPPING = __import__("collections").defaultdict(
    lambda: types.SimpleNamespace(underscore_to_dot=False))
sys.modules["bfcl_eval.constants.model_config"] = stub
from bfcl_eval.constants.enums import Language
from bfcl_eval.eval_checker.ast_eval.ast_checker import ast_checker
for line in sys.stdin:
    case = json.loads(line)
    try:
        result = ast_checker(case["function"], case["output"], case["answer"], Language.PYTHON,
                             case["category"], "parity")
        verdict = {"key": case["key"], "valid": bool(result["valid"]), "error_type": result.get("error_type"),
                   "error": result.get("error")}
    except Exception as error:  # BFCL's checker raising counts as invalid, as in its runner
        verdict = {"key": case["key"], "valid": False, "error_type": f"checker_crash:{type(error).__name__}",
                   "error": [str(error)]}
    print(json.dumps(verdict, default=str))
'''


# --- BFCL's side -------------------------------------------------------------------------

def bfcl_environment() -> Path:
    """The venv's python, creating the venv and installing bfcl-eval (no deps) on first use."""
    python = VENV / "bin" / "python"
    if not python.exists():
        venv.create(VENV, with_pip=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", "--no-deps", BFCL_EVAL], check=True)
    (VENV / "driver.py").write_text(DRIVER)
    return python


def run_bfcl_checker(cases) -> dict:
    """key -> (valid, error_type, error list) from BFCL's checker on the perturbed cases."""
    python = bfcl_environment()
    stdin = "".join(json.dumps({k: case[k] for k in ("key", "category", "function", "output", "answer")}) + "\n"
                    for case in cases)
    done = subprocess.run([str(python), str(VENV / "driver.py")], input=stdin, capture_output=True,
                          text=True, check=True)
    verdicts = {}
    for line in done.stdout.splitlines():
        verdict = json.loads(line)
        verdicts[verdict["key"]] = (verdict["valid"], verdict["error_type"], verdict["error"] or [])
    return verdicts


def published_verdicts(root: Path, model: str, category: str, ids: list) -> dict:
    """id -> (valid, error_type, failed entry) from a score file; absent rows were valid."""
    failed = {}
    for number, entry in read_json_lines(root / "score" / model / f"{category}_score.json"):
        if number > 1:
            failed[f"{category}_{int(entry['id']) - 1}"] = entry
    return {row_id: (row_id not in failed, failed.get(row_id, {}).get("error_type"), failed.get(row_id))
            for row_id in ids}


# --- perturbed gold ----------------------------------------------------------------------

def _first_value(accepted):
    """The prediction value a model would give for a possible-answer list (None = omit)."""
    values = [value for value in accepted if value != ""]
    if not values:
        return None
    value = values[0]
    if isinstance(value, dict):
        return {key: _first_value(sub) for key, sub in value.items() if _first_value(sub) is not None}
    if isinstance(value, list):
        return [{k: _first_value(v) for k, v in item.items() if _first_value(v) is not None}
                if isinstance(item, dict) else item for item in value]
    return value


def _changed(value):
    if isinstance(value, bool):
        return not value
    if isinstance(value, (int, float)):
        return value + 7
    if isinstance(value, str):
        return value + " zzz"
    if isinstance(value, list):
        return value[:-1] if value else ["zzz"]
    return "zzz"


def _perturbations(calls, answer, functions, rng):
    """Named variants of the gold prediction `calls` ([(name, args)]); each a new call list."""
    variants = {"identity": calls}
    declared = {function["name"]: function for function in functions}
    slots = [(index, param) for index, (_, args) in enumerate(calls) for param in args]
    if slots:
        index, param = rng.choice(slots)
        variants["wrong_value"] = _with(calls, index, param, _changed(calls[index][1][param]))
        droppable = [(i, p) for i, p in slots if p in declared.get(calls[i][0], {}).get("parameters", {}).get("required", [])]
        if droppable:
            i, p = rng.choice(droppable)
            variants["drop_required"] = _without(calls, i, p)
        optional = [(i, p) for i, p in slots if "" in answer[i][1].get(p, [])]
        if optional:
            i, p = rng.choice(optional)
            variants["drop_optional"] = _without(calls, i, p)
        alternates = [(i, p) for i, p in slots if len([v for v in answer[i][1].get(p, []) if v != ""]) > 1]
        if alternates:
            i, p = rng.choice(alternates)
            values = [v for v in answer[i][1][p] if v != "" and v != calls[i][1][p]]
            if values:
                variants["other_accepted"] = _with(calls, i, p, _first_value([rng.choice(values)]))
        strings = [(i, p) for i, p in slots if isinstance(calls[i][1][p], str) and calls[i][1][p].lower() != calls[i][1][p].upper()]
        if strings:
            i, p = rng.choice(strings)
            variants["upper_case"] = _with(calls, i, p, calls[i][1][p].upper())
        floats = [(i, p) for i, p in slots if isinstance(calls[i][1][p], float) and calls[i][1][p].is_integer()]
        if floats:
            i, p = rng.choice(floats)
            variants["int_for_float"] = _with(calls, i, p, int(calls[i][1][p]))
    defaults = [(i, p, spec["default"]) for i, (name, args) in enumerate(calls)
                for p, spec in sorted(declared.get(name, {}).get("parameters", {}).get("properties", {}).items())
                if isinstance(spec, dict) and "default" in spec and p not in args]
    if defaults:
        i, p, value = rng.choice(defaults)
        variants["extra_default_arg"] = _with(calls, i, p, value)
    index = rng.randrange(len(calls))
    variants["extra_arg"] = _with(calls, index, "unexpected_param", "x")
    variants["wrong_name"] = [(name + "_v2", args) if i == index else (name, args) for i, (name, args) in enumerate(calls)]
    if len(calls) > 1:
        variants["drop_call"] = calls[:index] + calls[index + 1:]
        variants["reversed_calls"] = calls[::-1]
    variants["repeat_call"] = calls + [calls[index]]
    return variants


def _with(calls, index, param, value):
    return [(name, {**args, param: value}) if i == index else (name, args) for i, (name, args) in enumerate(calls)]


def _without(calls, index, param):
    return [(name, {k: v for k, v in args.items() if k != param}) if i == index else (name, args)
            for i, (name, args) in enumerate(calls)]


def perturbed_cases(root: Path, variants: int, seed: int) -> list:
    """Per AST question: the identity variant plus up to `variants` others, chosen by seed."""
    rng = random.Random(seed)
    cases = []
    for category in AST_CATEGORIES:
        questions = read_json_lines(root / "data" / f"gorilla_openfunctions_v1_test_{category}.json")
        answers = read_json_lines(root / "data" / "possible_answer" / f"gorilla_openfunctions_v1_test_{category}.json")
        for (_, question), (_, answer) in zip(questions, answers):
            functions = question["function"] if isinstance(question["function"], list) else [question["function"]]
            declared = {function["name"] for function in functions}
            entries = []  # [(declared name, {param: accepted list})]
            for key, params in answer["ground_truth"].items():
                if not isinstance(params, dict):
                    continue  # the one misplaced parameter (parallel_multiple_function_179)
                entries.append((declared_name(key, declared), params))
            calls = [(name, {p: _first_value(v) for p, v in params.items() if _first_value(v) is not None})
                     for name, params in entries]
            named = _perturbations(calls, entries, functions, rng)
            chosen = ["identity"] + sorted(rng.sample(sorted(set(named) - {"identity"}),
                                                      min(variants, len(named) - 1)))
            for kind in chosen:
                cases.append({
                    "key": f"{question['id']}#{kind}", "id": question["id"], "kind": kind, "category": category,
                    "function": functions,
                    "output": [{name: args} for name, args in named[kind]],
                    "answer": [{name: params} for name, params in entries],
                })
    return cases


# --- ACEBench's side (re-implemented: no checker package exists) ----------------------------

ACE_PUNCTUATION = str.maketrans("", "", " ,./-_*^")


def ace_standardize(text: str) -> str:
    """ACEBench's light string normalization as re-implemented here: lower case, and spaces and
    `,./-_*^` removed (the BFCL rule its checker descends from)."""
    return text.lower().translate(ACE_PUNCTUATION)


def ace_equal(predicted, gold) -> bool:
    """Exact equality after ace_standardize on strings; null only with null; int and float compare as numbers,
    booleans only with booleans; lists item by item in order; objects key by key."""
    if gold is None or predicted is None:
        return gold is predicted
    if isinstance(gold, bool) or isinstance(predicted, bool):
        return isinstance(gold, bool) and isinstance(predicted, bool) and gold == predicted
    if isinstance(gold, (int, float)) and isinstance(predicted, (int, float)):
        return gold == predicted
    if isinstance(gold, str) and isinstance(predicted, str):
        return ace_standardize(gold) == ace_standardize(predicted)
    if isinstance(gold, list) and isinstance(predicted, list):
        return len(gold) == len(predicted) and all(ace_equal(p, g) for p, g in zip(predicted, gold))
    if isinstance(gold, dict) and isinstance(predicted, dict):
        return gold.keys() == predicted.keys() and all(ace_equal(predicted[k], gold[k]) for k in gold)
    return False


def ace_check(predicted, alternatives) -> tuple:
    """(valid, error_type) of predicted calls [(name, args)] against ACEBench answers, each a
    list of (name, args). Valid when some answer has as many calls and its calls pair one to
    one, in any order, with predicted calls of the same name, the same argument names and
    equal values."""
    error = "wrong_count"
    for gold in alternatives:
        if len(gold) != len(predicted):
            continue
        error = "wrong_func_name"
        if sorted(name for name, _ in gold) != sorted(name for name, _ in predicted):
            continue
        error = _ace_pair(gold, predicted)
        if error is None:
            return True, None
    return False, error


def _ace_pair(gold, predicted):
    """None when the calls pair up (backtracking over same-name calls), else the error of the
    first gold call that pairs with nothing."""
    if not gold:
        return None
    (name, args), rest = gold[0], gold[1:]
    error = "wrong_func_name"
    for index, (other, given) in enumerate(predicted):
        if other != name:
            continue
        if given.keys() - args.keys():
            error = "unexpected_param"
        elif args.keys() - given.keys():
            error = "missing_param"
        elif not all(ace_equal(given[key], args[key]) for key in args):
            error = "value_error"
        else:
            error = _ace_pair(rest, predicted[:index] + predicted[index + 1:])
            if error is None:
                return None
    return error


def acebench_cases(root: Path, variants: int, seed: int) -> list:
    """Per ACEBench normal row (zh and en): the identity variant and up to `variants` others."""
    rng = random.Random(seed)
    cases = []
    for language in ("zh", "en"):
        folder = root / f"data_{language}"
        for data_path in sorted(folder.glob("data_normal_*.json")):
            answers = {str(row["id"]): row["ground_truth"]
                       for _, row in read_json_lines(folder / "possible_answer" / data_path.name)}
            for _, question in read_json_lines(data_path):
                functions = question["function"] if isinstance(question["function"], list) else [question["function"]]
                declared = {function["name"] for function in functions}
                answer = answers[str(question["id"])]
                alternatives = [[(declared_name(name, declared), args) for name, args in option.items()]
                                for option in (answer if isinstance(answer, list) else [answer])]
                calls = alternatives[0]
                entries = [(name, {p: [v] for p, v in args.items()}) for name, args in calls]
                named = _perturbations(calls, entries, functions, rng)
                chosen = ["identity"] + sorted(rng.sample(sorted(set(named) - {"identity"}),
                                                          min(variants, len(named) - 1)))
                for kind in chosen:
                    valid, error = ace_check(named[kind], alternatives)
                    cases.append({"key": f"{language}/{question['id']}#{kind}", "id": str(question["id"]),
                                  "kind": kind, "source": data_path, "language": language,
                                  "output": [{name: args} for name, args in named[kind]],
                                  "verdict": (valid, error and f"ace:{error}", [])})
    return cases


# --- callscore's side --------------------------------------------------------------------

VERDICT_FIELDS = ("outcome", "subtype", "decided", "uncertain_reason", "detail", "errors")


def callscore_verdicts(predictions: pa.Table, gold: pa.Table) -> dict:
    """(model, id) -> {outcome, subtype, decided, uncertain_reason, detail} from
    scorer.pipeline.score_tables. Rows on which callscore raises are found by halving and get
    outcome `error`, so one bad row cannot stop the report."""
    from scorer.pipeline import score_tables

    gold_index = {row_id: i for i, row_id in enumerate(gold.column("id").to_pylist())}
    verdicts = {}

    def score(part: pa.Table):
        ids = part.column("id").to_pylist()
        mine = gold.take(sorted({gold_index[row_id] for row_id in ids if row_id in gold_index}))
        try:
            table = score_tables(part, mine).verdicts
        except Exception as error:  # noqa: BLE001 -- reported per row, never hidden
            if part.num_rows == 1:
                row = part.to_pylist()[0]
                verdicts[(row["model"], row["id"])] = {"outcome": "error", "subtype": type(error).__name__,
                                                       "decided": True, "uncertain_reason": None,
                                                       "detail": str(error)[:120], "errors": []}
                return
            half = part.num_rows // 2
            score(part.slice(0, half))
            score(part.slice(half))
            return
        for row in table.select(["model", "id", "missing_prediction", *VERDICT_FIELDS]).to_pylist():
            if not row["missing_prediction"]:
                verdicts[(row["model"], row["id"])] = {field: row[field] for field in VERDICT_FIELDS}

    score(predictions)
    return verdicts


def gold_for_cases(gold_by_source: dict, cases, source_of) -> pa.Table:
    """callscore gold rows for perturbed cases: the question's gold row under the case key."""
    parts = []
    for source, gold in gold_by_source.items():
        index = {row_id: i for i, row_id in enumerate(gold.column("id").to_pylist())}
        mine = [case for case in cases if source_of(case) == source]
        if mine:
            taken = gold.take([index[case["id"]] for case in mine])
            parts.append(taken.set_column(0, "id", pa.array([case["key"] for case in mine], pa.string())))
    return pa.concat_tables(parts, promote_options="default")


def predictions_for_cases(cases, model="perturbed") -> pa.Table:
    from scorer.tables import PREDICTIONS

    calls = [[{"name": name, "arguments": json.dumps(args, ensure_ascii=False)}
              for item in case["output"] for name, args in item.items()] for case in cases]
    return pa.Table.from_pydict({"id": [case["key"] for case in cases], "model": [model] * len(cases),
                                 "calls": calls, "output": [None] * len(cases),
                                 "malformed": [None] * len(cases)}, schema=PREDICTIONS)


# --- classes of disagreement ---------------------------------------------------------------
# A row is one comparison: the benchmark's verdict (valid, error_type, error list), callscore's
# verdict, and what both judged (raw model output, possible answer). Classes are tried in order;
# the first whose test holds names the row. `kind`: deliberate (a rule of
# docs/deliberate_differences.md), defect (callscore is wrong; a proposal to the lead), or
# benchmark (the benchmark's own data/checker is wrong and callscore is right by the same rule).

@dataclass
class Row:
    key: tuple
    valid: bool
    error_type: str | None
    errors: list
    verdict: dict
    raw: str = ""
    answer: dict | None = None
    kind: str = ""          # perturbation kind (perturbed sets)

    @property
    def ours(self) -> bool:
        return self.verdict["outcome"] == "correct"

    @property
    def label(self) -> str:
        if not self.verdict["decided"]:
            return "undecided"
        outcome, subtype = self.verdict["outcome"], self.verdict["subtype"]
        return outcome if not subtype else f"{outcome}/{subtype}"

    def sub_errors(self) -> set:
        """BFCL's error types, with the per-candidate ones a parallel checker wraps."""
        found = {self.error_type}
        for item in self.errors:
            if isinstance(item, dict):
                for value in item.values():
                    if isinstance(value, dict) and value.get("sub_error_type"):
                        found.add(value["sub_error_type"])
        found.discard("simple_function_checker:wrong_func_name")
        return found

    def text(self) -> str:
        return " ".join(str(item) for item in self.errors)


@dataclass(frozen=True)
class Class:
    name: str
    kind: str
    why: str
    test: object


def _decoder(row):
    return (row.error_type or "").startswith("ast_decoder") and row.verdict["subtype"] != "malformed"


def _optional_in_answer(row):
    missing = re.findall(r"Missing required parameter: '([^']+)'", row.text())
    return bool(missing) and all(any("" in (params.get(name) or []) for params in (row.answer or {}).values()
                                     if isinstance(params, dict)) for name in missing)


def _stringified_scalar(row):
    pairs = re.findall(r"Invalid value for parameter '[^']+': (.+?)\. Expected one of \[(.+?)\]", row.text())
    return bool(pairs) and all(f"'{given}'" in accepted.split(", ") for given, accepted in pairs)


_BFCL_DROPPED = str.maketrans("", "", " ,./-_*^")
_JSON_MARKS = str.maketrans("", "", '"[]{}:')


def _value_errors_equal_after(row, fold) -> bool:
    """Every incorrect value callscore found becomes equal to one gold alternative under `fold`."""
    errors = [e for e in row.verdict["errors"] or () if e["kind"] == "incorrect_value"]
    return bool(errors) and all(
        e["gold"] is not None and e["predicted"] is not None and
        fold(e["predicted"]) in {fold(alternative) for alternative in e["gold"].split(" | ")} for e in errors)


def _bfcl_standardized(text: str) -> str:
    return text.lower().translate(_JSON_MARKS).translate(_BFCL_DROPPED)


def _underscore_as_space(text: str) -> str:
    return " ".join(text.lower().replace("_", " ").split())


def _value_error(row) -> bool:
    return bool({"value_error:string", "value_error:list/tuple", "value_error:dict_value", "value_error:others",
                 "ace:value_error"} & row.sub_errors())


BFCL_CLASSES = (
    Class("calls_in_code_fence", "deliberate",
          "callscore: the calls are inside a ``` fence and readable; BFCL's decoder gives up",
          lambda r: not r.valid and _decoder(r) and "```" in r.raw),
    Class("tool_call_key_order", "deliberate",
          "callscore: a <tool_call> object with `arguments` before `name` is the same call",
          lambda r: not r.valid and _decoder(r) and re.search(r'\{\s*"arguments"', r.raw)),
    Class("python_literals_in_json", "deliberate",
          "callscore: True/False/None in a JSON call block are read as true/false/null",
          lambda r: not r.valid and _decoder(r) and re.search(r"[:,\[]\s*(True|False|None)\b", r.raw)),
    Class("bfcl_mixed_text_calls", "deliberate",
          "callscore: a result list mixing prose and calls (Gemini) holds calls; BFCL's decoder fails on the text",
          lambda r: not r.valid and _decoder(r) and "has no attribute 'keys'" in r.text()),
    Class("calls_without_brackets", "deliberate",
          "callscore: `f(a=1)` without the surrounding [ ] is a call; BFCL's prompt format demands the list",
          lambda r: not r.valid and _decoder(r) and "has no attribute 'elts'" in r.text()),
    Class("lenient_call_reading", "deliberate",
          "callscore: its parser reads calls BFCL's per-model decoder rejects (chat-template tokens before "
          "the list, markdown `\\_` escapes, {'name', 'parameters'} objects)",
          lambda r: not r.valid and _decoder(r) and r.ours),
    Class("calls_in_prose", "deliberate",
          "callscore: calls written out in a prose reply are calls; BFCL reads the whole text as no call",
          lambda r: r.valid and r.label.startswith("over_recall") and "unreadable" not in (r.verdict["detail"] or "")),
    Class("malformed_call_on_negative", "deliberate",
          "callscore: an unreadable call attempt on a no-call row is over recall; BFCL counts it as no call",
          lambda r: r.valid and r.label.startswith("over_recall")),
    Class("numbers_unified", "deliberate",
          "callscore: an int where a float is typed (also inside arrays) is the same number",
          lambda r: not r.valid and r.ours and r.sub_errors() <= {r.error_type, "type_error:nested"}
          and "type_error:nested" in r.sub_errors()),
    Class("scalar_strings_coerced", "deliberate",
          "callscore: \"18\" for an integer, \"true\" for a boolean, 25 for \"25\" compare as the same value",
          lambda r: not r.valid and r.ours and ("type_error:simple" in r.sub_errors() or _stringified_scalar(r))),
    Class("gold_over_schema", "deliberate",
          "callscore: where possible answer and schema disagree the answer wins (\"\" lets a `required` "
          "parameter be omitted; a parameter the answer lists is not `unexpected`)",
          lambda r: not r.valid and r.ours and (_optional_in_answer(r) or "Unexpected parameter" in r.text())),
    Class("schema_default_argument", "deliberate",
          "callscore: an argument the gold leaves out, given with the schema's default value, is harmless",
          lambda r: not r.valid and r.ours and r.kind == "extra_default_arg"),
    Class("bfcl_misplaced_param", "deliberate",
          "callscore: parallel_multiple_function_179's possible answer puts `deck` beside the calls; read "
          "as find_card_in_deck's parameter, a correct 4-call answer is correct (BFCL fails every model)",
          lambda r: r.key[1].startswith("parallel_multiple_function_179") and not r.valid and r.ours),
    Class("fuzzy_accepts_added_word", "defect",
          "benchmark: a wrong value (text + ' zzz') is >= 90 similar to a long gold text, so callscore "
          "calls it equal",
          lambda r: not r.valid and r.ours and r.kind == "wrong_value"),
    Class("text_equivalence", "deliberate",
          "callscore: aliases (US dollar = USD, New York = NYC) and >= 90 similarity (Jaume/James Plensa, "
          "cookies/cookie) are equal; BFCL compares exact strings",
          lambda r: not r.valid and r.ours and _value_error(r)),
    Class("underscore_as_space", "defect",
          "BFCL: `total_points` = `total points` (its standardize_string drops `_`); callscore keeps `_`",
          lambda r: r.valid and _value_errors_equal_after(r, _underscore_as_space)),
    Class("punctuation_kept", "deliberate",
          "callscore: `x^3` != `x**3`, `D.C.` != `DC`: it keeps `.*^/-`, which carry meaning (3.5/35, 1/2/12); "
          "BFCL deletes them",
          lambda r: r.valid and _value_errors_equal_after(r, _bfcl_standardized)),
    Class("any_inside_object", "defect",
          "BFCL: accepted values listed per key inside an object argument; callscore does not honour "
          "`$any` nested in an object",
          lambda r: r.valid and r.label == "param_error/incorrect_value" and '"$any"' in (r.verdict["detail"] or "")),
    Class("expression_argument", "defect",
          "BFCL: the gold expects the expression text (x=data['sales'], 25/1); callscore calls it unreadable",
          lambda r: r.valid and r.verdict["subtype"] == "malformed" and "not a literal" in (r.verdict["detail"] or "")),
    Class("bare_call_with_positional_argument", "defect",
          "BFCL: `portfolio.returns(None, initial_investment=1, ...)` is a call; callscore reads no call",
          lambda r: not r.valid and r.error_type == "relevance_error:decoder_success" and r.ours),
)

ACE_CLASSES = (
    Class("schema_default_argument", "deliberate",
          "callscore: an argument the gold leaves out, given with the schema's default value, is harmless",
          lambda r: not r.valid and r.ours and r.kind == "extra_default_arg"),
    Class("fuzzy_accepts_added_word", "defect",
          "ACEBench: a wrong value (text + ' zzz') is >= 90 similar to a long gold text, so callscore "
          "calls it equal",
          lambda r: not r.valid and r.ours and r.kind == "wrong_value"),
)


def classify(row: Row, classes) -> Class | None:
    """The class of a row callscore decided and disagrees on; None when they agree."""
    if row.verdict["decided"] and row.valid == row.ours:
        return None
    if not row.verdict["decided"]:
        reason = row.verdict["uncertain_reason"] or ""
        name = ("undecided:fuzzy_band" if "fuzzy" in reason else
                "undecided:unknown_argument" if "unknown argument" in reason else "undecided:other")
        return Class(name, "undecided", "callscore leaves the row to a judge; counted apart, never as agreement", None)
    for candidate in classes:
        if candidate.test(row):
            return candidate
    return Class(f"unexplained:{'valid' if row.valid else row.error_type}->{row.label}", "defect",
                 "no rule explains it yet", None)


# --- report --------------------------------------------------------------------------------

def confusion(rows) -> str:
    """Benchmark valid/invalid x callscore outcome (undecided rows in their own column)."""
    counts = collections.Counter((row.valid, row.label) for row in rows)
    columns = sorted({label for _, label in counts})
    width = max([len(c) for c in columns] + [8])
    lines = ["benchmark \\ callscore".ljust(22) + "".join(c.rjust(width + 2) for c in columns)]
    for valid in (True, False):
        lines.append(("valid" if valid else "invalid").ljust(22)
                     + "".join(str(counts[(valid, c)]).rjust(width + 2) for c in columns))
    return "\n".join(lines)


def agreement_line(label: str, rows, classes) -> str:
    """Agreement (a) on all rows, (b) without rows a deliberate difference covers, (c) without
    undecided rows, (d) without both. Undecided rows never count as agreement."""
    kinds = [getattr(classify(row, classes), "kind", None) for row in rows]
    agree = sum(kind is None for kind in kinds)

    def share(excluded):
        total = len(rows) - sum(kind in excluded for kind in kinds)
        return f"{100 * agree / total:6.2f}% of {total:>6}" if total else "     –"

    return (f"{label:<42} {share(())}  {share(('deliberate', 'benchmark'))}  {share(('undecided',))}  "
            f"{share(('deliberate', 'benchmark', 'undecided'))}")


def report(title: str, rows, classes, group_of):
    print(f"\n== {title}")
    print(confusion(rows))
    print(f"\nagreement {'':<32} {'(a) all rows':>17}  {'(b) w/o deliberate':>17}  "
          f"{'(c) w/o undecided':>17}  {'(d) w/o both':>17}")
    groups = collections.defaultdict(list)
    for row in rows:
        groups[group_of(row)].append(row)
    if len(groups) > 1:
        for name in sorted(groups):
            print(agreement_line(name, groups[name], classes))
    print(agreement_line("TOTAL", rows, classes))
    found = collections.defaultdict(list)
    for row in rows:
        kind = classify(row, classes)
        if kind is not None:
            found[(kind.kind, kind.name, kind.why)].append(row)
    print("\nclasses of disagreement (kind, name: count -- which side is right and why)")
    for (kind, name, why), members in sorted(found.items(), key=lambda item: (item[0][0], -len(item[1]))):
        print(f"-- [{kind}] {name}: {len(members)} -- {why}")
        for row in members[:2]:
            theirs = "valid" if row.valid else row.error_type
            print(f"     {row.key[0]} {row.key[1]}: benchmark {theirs}; callscore {row.label}: "
                  f"{(row.verdict['detail'] or '')[:150]}")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--peers", type=Path, default=REPO / ".." / "shared" / "peers")
    parser.add_argument("--variants", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--skip", action="append", default=[], choices=("real", "perturbed", "acebench"))
    options = parser.parse_args(argv)
    root = options.peers / "bfcl-2024-08"
    gold = {}
    for category in CATEGORIES:
        answer = root / "data" / "possible_answer" / f"gorilla_openfunctions_v1_test_{category}.json"
        gold[category] = read_bfcl_gold(root / "data" / f"gorilla_openfunctions_v1_test_{category}.json",
                                        answer if answer.exists() else None)
    if "real" not in options.skip:
        report_real(root, gold)
    if "perturbed" not in options.skip:
        report_perturbed(root, gold, options.variants, options.seed)
    if "acebench" not in options.skip:
        report_acebench(options.peers / "acebench", options.variants, options.seed)


def _answers(root: Path, category: str) -> dict:
    path = root / "data" / "possible_answer" / f"gorilla_openfunctions_v1_test_{category}.json"
    return {str(row["id"]): row["ground_truth"] for _, row in read_json_lines(path)} if path.exists() else {}


def report_real(root, gold):
    models = sorted(path.name for path in (root / "result").iterdir())
    tables, theirs, answers = [], {}, {}
    for category in CATEGORIES:
        answers.update(_answers(root, category))
    for model in models:
        for category in CATEGORIES:
            question = root / "data" / f"gorilla_openfunctions_v1_test_{category}.json"
            tables.append(read_bfcl_results(root / "result" / model / f"gorilla_openfunctions_v1_test_{category}_result.json",
                                            model, question_path=question, renamed_dots=model in RENAMED_DOTS))
            for row_id, verdict in published_verdicts(root, model, category, gold[category].column("id").to_pylist()).items():
                theirs[(model, row_id)] = verdict
    predictions = pa.concat_tables(tables)
    raw = {(row["model"], row["id"]): row["output"] or json.dumps(row["calls"], ensure_ascii=False)
           for row in predictions.select(["model", "id", "calls", "output"]).to_pylist()}
    ours = callscore_verdicts(predictions, pa.concat_tables(gold.values(), promote_options="default"))
    rows = [Row(key, valid, error_type, (entry or {}).get("error") or [], ours[key], raw[key], answers.get(key[1]))
            for key, (valid, error_type, entry) in sorted(theirs.items())]
    report(f"BFCL real results: {len(models)} models, {len(rows)} rows (BFCL = published score files)",
           rows, BFCL_CLASSES, lambda row: row.key[0])
    rescored_tables(predictions, pa.concat_tables(gold.values(), promote_options="default"), theirs)


def rescored_tables(predictions: pa.Table, gold: pa.Table, theirs: dict):
    """The real results re-scored: callscore's per-model metrics and attribution beside BFCL's
    own accuracy, over all five categories and per category."""
    from scorer import report
    from scorer.aggregate import HEADLINE
    from scorer.pipeline import score_tables

    rows = score_tables(predictions, gold, by=("category",)).tally.rows()
    valid = collections.defaultdict(list)
    for (model, _row_id), (is_valid, _error_type, _entry) in theirs.items():
        valid[model].append(is_valid)
    for row in rows:
        if row["group"] == "all":
            row["bfcl_accuracy"] = sum(valid[row["model"]]) / len(valid[row["model"]])
    headline = [c for c in HEADLINE if c not in ("missing_n",)]
    print("\n== BFCL real results re-scored by callscore (all categories; BFCL's own accuracy beside)")
    print(report.render([r for r in rows if r["group"] == "all"], "md",
                        columns=["model", *headline, "bfcl_accuracy"]))
    attribution = [name for name in rows[0] if "/" in name and not name.endswith("_n")]
    print("\n== Attribution of the same rows (shares of P, negative types of N)")
    print(report.render([r for r in rows if r["group"] == "all"], "md", columns=["model", *attribution]))
    print("\n== Per category")
    print(report.render([r for r in rows if r["group"] != "all"], "md",
                        columns=["model", "group", "n", "recall", "accuracy", "miss_recall", "param_error",
                                 "over_recall", "decided"]))


def report_perturbed(root, gold, variants, seed):
    cases = perturbed_cases(root, variants, seed)
    theirs = run_bfcl_checker(cases)
    ours = callscore_verdicts(predictions_for_cases(cases), gold_for_cases(gold, cases, lambda case: case["category"]))
    rows = [Row(("perturbed", case["key"]), *theirs[case["key"]], ours[("perturbed", case["key"])],
                json.dumps(case["output"]), {k: v for item in case["answer"] for k, v in item.items()}, case["kind"])
            for case in cases]
    kinds = collections.Counter(case["kind"] for case in cases)
    report(f"BFCL perturbed gold: {len(cases)} rows ({', '.join(f'{k} {n}' for k, n in sorted(kinds.items()))}); "
           f"BFCL = {BFCL_EVAL} AST checker", rows, BFCL_CLASSES, lambda row: row.kind)


def report_acebench(root, variants, seed):
    cases = acebench_cases(root, variants, seed)
    gold = {path: read_acebench_gold(path) for path in sorted({case["source"] for case in cases})}
    ours = callscore_verdicts(predictions_for_cases(cases), gold_for_cases(gold, cases, lambda case: case["source"]))
    rows = [Row(("perturbed", case["key"]), *case["verdict"], ours[("perturbed", case["key"])],
                json.dumps(case["output"], ensure_ascii=False), None, case["kind"]) for case in cases]
    kinds = collections.Counter(case["kind"] for case in cases)
    report(f"ACEBench normal rows (zh + en), perturbed gold: {len(cases)} rows "
           f"({', '.join(f'{k} {n}' for k, n in sorted(kinds.items()))}); ACEBench = its rules re-implemented "
           "(ace_check)", rows, ACE_CLASSES, lambda row: f"{row.key[1][:2]} {row.kind}")


if __name__ == "__main__":
    main()
