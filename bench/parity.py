"""Parity of callscore with BFCL's AST checker and ACEBench's rules, on the same rows.

    python bench/parity.py [--peers ../shared/peers] [--variants 4] [--seed 0]
                           [--skip real|perturbed|acebench|tables] [--v4]

Three sets of rows:
1. BFCL real results: the 16 models x 7 categories (java and javascript included) of
   ../shared/peers/bfcl-2024-08. BFCL's verdicts are its published score files (a row absent
   from a score file was judged valid). --compat bfcl reads all models in one run, each as
   BFCL's handler for it did (its dots and Java/JavaScript source text too).
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

What it prints, in this order:
- the agreement on ALL rows of each set, no exclusion (an undecided row counts as a
  disagreement), for callscore's default rules and for `--compat bfcl` (BFCL sets), then per
  category;
- default mode: each deliberate difference (docs/deliberate_differences.md) with its count. A
  row is attributed to a difference only when that difference's predicate holds on the row,
  and each predicate checks the stated reason (a fenced call must decode with BFCL's own
  decoder once the fence is removed; a value difference must make BFCL's checker, as
  --compat bfcl reproduces it, accept the row once the difference's rule is applied, or name
  a value pair that the named text rule makes equal). Then the undecided rows, then every
  other disagreement by class with examples;
- `--compat bfcl`: every row it judges otherwise than BFCL, one by one;
- rows per CPU-second of callscore (both modes) and of BFCL's checker on the same rows, in this
  run (BFCL's checker timed inside its own process, its imports and I/O excluded);
- the real results re-scored by callscore (per model and category, BFCL's accuracy beside).
"""

import argparse
import ast
import collections
import json
import random
import re
import subprocess
import sys
import time
import venv
from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from normalizer_floor import timed_normalizers  # noqa: E402 - beside this script
from scorer.io.acebench import read_acebench_gold  # noqa: E402
from scorer.io.bfcl import declared_name, read_bfcl_gold, read_bfcl_results, read_json_lines  # noqa: E402

BFCL_EVAL = "bfcl-eval==2026.3.23"
# --compat bfcl's verdicts: BFCL's decoders and checker rules, applied to each distinct prediction
BFCL_RULES = (("scorer.compat.verdicts", "BfclVerdicts.apply", "BFCL's rules"),)
VENV = REPO / "bench" / ".venv-bfcl"
CATEGORIES = ("simple", "multiple_function", "parallel_function", "parallel_multiple_function", "relevance",
              "java", "javascript")
AST_CATEGORIES = CATEGORIES[:4]   # the Python ones, perturbed
PYTHON_CATEGORIES = CATEGORIES[:5]  # default mode's deliberate differences are counted on these
# The "dot->_" column of ../shared/peers/bfcl-2024-08/README.md: BFCL sent these models the
# function names with `.` replaced by `_` (their APIs forbid dots) and maps them back. Default
# mode is told so by --renamed-dots; --compat bfcl reads it from BFCL's own model list.
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
import time
cases = [json.loads(line) for line in sys.stdin]
started = time.process_time()  # the checker's own CPU time: imports, reading and writing excluded
verdicts = []
for case in cases:
    try:
        result = ast_checker(case["function"], case["output"], case["answer"], Language.PYTHON,
                             case["category"], "parity")
        verdict = {"key": case["key"], "valid": bool(result["valid"]), "error_type": result.get("error_type"),
                   "error": result.get("error")}
    except Exception as error:  # BFCL's checker raising counts as invalid, as in its runner
        verdict = {"key": case["key"], "valid": False, "error_type": f"checker_crash:{type(error).__name__}",
                   "error": [str(error)]}
    verdicts.append(verdict)
seconds = time.process_time() - started
for verdict in verdicts:
    print(json.dumps(verdict, default=str))
print(json.dumps({"key": None, "cpu_seconds": seconds}))
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
    """(key -> (valid, error_type, error list), the checker's CPU seconds) from BFCL's checker
    on the perturbed cases."""
    python = bfcl_environment()
    stdin = "".join(json.dumps({k: case[k] for k in ("key", "category", "function", "output", "answer")}) + "\n"
                    for case in cases)
    done = subprocess.run([str(python), str(VENV / "driver.py")], input=stdin, capture_output=True,
                          text=True, check=True)
    verdicts, seconds = {}, None
    for line in done.stdout.splitlines():
        verdict = json.loads(line)
        if verdict["key"] is None:
            seconds = verdict["cpu_seconds"]
            continue
        verdicts[verdict["key"]] = (verdict["valid"], verdict["error_type"], verdict["error"] or [])
    return verdicts, seconds


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

VERDICT_FIELDS = ("outcome", "subtype", "decided", "uncertain_reason", "detail", "errors", "rule")


def callscore_verdicts(predictions: pa.Table, gold: pa.Table, options=None) -> tuple:
    """((model, id) -> {outcome, subtype, decided, uncertain_reason, detail, errors, rule},
    CPU seconds) from scorer.pipeline.score_tables in this process (one job). A row whose
    scoring raises is an undecided verdict naming the error (the pipeline's own guard)."""
    from scorer.options import Options
    from scorer.pipeline import score_tables

    started = time.process_time()
    table = score_tables(predictions, gold, options or Options(jobs=1)).verdicts
    seconds = time.process_time() - started
    verdicts = {}
    for row in table.select(["model", "id", "missing_prediction", *VERDICT_FIELDS]).to_pylist():
        if not row["missing_prediction"]:
            verdicts[(row["model"], row["id"])] = {field: row[field] for field in VERDICT_FIELDS}
    return verdicts, seconds


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


# --- deliberate differences ------------------------------------------------------------------
# A row is one comparison: the benchmark's verdict (valid, error_type, error list), callscore's
# verdict, and what both judged. A disagreeing row is attributed to a deliberate difference
# only when that difference's predicate holds, and each predicate checks the stated reason on
# the row itself (a fenced call must decode once its fence is removed; a text equivalence needs
# a value pair that the named rule makes equal). Every other disagreement is listed as one.

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
    output: str | None = None  # the text result, if any
    handler: str = "list"   # the BFCL handler that decoded the model's results
    compat: dict | None = None  # the --compat bfcl verdict
    case: tuple | None = None   # (category, functions, accepted answers) as BFCL's checker reads them

    @property
    def fc_named(self) -> bool:  # several handlers read a list only for an FC model name
        return "FC" in self.key[0]

    @property
    def ours(self) -> bool:
        return self.verdict["outcome"] == "correct"

    @property
    def label(self) -> str:
        if not self.verdict["decided"]:
            return "undecided"
        outcome, subtype = self.verdict["outcome"], self.verdict["subtype"]
        return outcome if not subtype else f"{outcome}/{subtype}"

    def messages(self) -> list:
        """BFCL's error messages, the per-candidate ones a parallel checker wraps included."""
        found = []

        def walk(item):
            if isinstance(item, str):
                found.append(item)
            elif isinstance(item, dict):
                for value in item.values():
                    walk(value)
            elif isinstance(item, list):
                for value in item:
                    walk(value)
        walk(self.errors)
        return found


@dataclass(frozen=True)
class Difference:
    name: str
    why: str
    test: object


def _decodes(row, text: str) -> bool:
    from scorer.compat import bfcl

    try:
        bfcl.decode(row.handler, None, text, fc_named=row.fc_named)
    except bfcl.DecodeError:
        return False
    return True


def _reads_list(row) -> bool:
    from scorer.compat import bfcl

    return bfcl.reads_list(row.handler, row.fc_named)


def _bfcl_read_no_call(row) -> bool:
    """BFCL decoded no call: its decoder failed on an AST row, or a relevance row was valid."""
    return ((not row.valid and (row.error_type or "").startswith("ast_decoder"))
            or (row.valid and row.key[1].startswith("relevance")))


def _we_read_calls(row) -> bool:
    """callscore read calls: its verdict is no `no_call` and names no malformed output."""
    kinds = [error["kind"] for error in row.verdict["errors"] or ()]
    return row.verdict["subtype"] not in ("no_call", "malformed") and "malformed" not in kinds


def _json_calls(row) -> bool:
    """The output (fence removed) is a JSON or Python-literal list of call objects
    (`[{'name': ..., 'parameters': {...}}]`), not the Python call syntax BFCL's prompt asks for."""
    from scorer.parse import parse_output

    bodies = [body.strip() for body in _FENCE.findall(row.output)] or [row.output.strip()]
    return any(body[:1] in "[{" and re.match(r"[\[\s]*\{\s*['\"]", body) and parse_output(body).calls
               for body in bodies if body)


def _json_with_apostrophe(row) -> bool:
    """Every line after a `<tool_call>` line is valid JSON as written, and one holds a `'`."""
    lines = row.output.split("\n")
    bodies = [following for line, following in zip(lines, lines[1:]) if line == "<tool_call>"]
    try:
        return bool(bodies) and all(json.loads(body) is not None for body in bodies) and any("'" in b for b in bodies)
    except ValueError:
        return False


def _quoted_call_strings(row) -> bool:
    """The output is a list of quoted call strings, each of which BFCL's decoder reads."""
    value = _literal(row.output.strip())
    return (isinstance(value, list) and bool(value) and all(isinstance(item, str) for item in value)
            and all(_decodes(row, "[" + item + "]") for item in value))


_FENCE = re.compile(r"```[\w+.-]*[^\S\n]*\n?(.*?)(?:```|\Z)", re.DOTALL)
_TOKEN = re.compile(r"<\|[\w-]+\|>")
_CALL_LINE = re.compile(r"^\s*(?:[\[{(`<]|[\w.\\]+\()")
_WORDS = re.compile(r"[A-Za-z]{2,}(?:[ ,]+[A-Za-z]{2,}){3,}")


def _fenced(row) -> bool:
    return "```" in row.output and any(_decodes(row, body.strip()) for body in _FENCE.findall(row.output))


def _has_prose(row) -> bool:
    """A line of four or more words that is not a call line, outside code fences."""
    outside = _FENCE.sub("\n", row.output or "")
    return any(_WORDS.search(line) for line in outside.splitlines() if line.strip() and not _CALL_LINE.match(line))


def _before_prose(text: str) -> str:
    """The text up to its first line of prose."""
    kept = []
    for line in text.strip().split("\n"):
        if line.strip() and not _CALL_LINE.match(line) and _WORDS.search(line):
            break
        kept.append(line)
    return "\n".join(kept).strip() if len(kept) < len(text.strip().split("\n")) else ""


def _after_tokens(text: str) -> str:
    lines = _TOKEN.sub("\n", text).strip().split("\n")
    if lines and re.fullmatch(r"\w+", lines[0].strip()):
        lines = lines[1:]  # a chat role (`assistant`) after the tokens
    return "\n".join(lines).strip()


_VALUE_ERROR = re.compile(r"Invalid value for parameter '([^']+)': (.+?)\. Expected one of (\[.*\])\.", re.DOTALL)
_TYPE_ERROR = re.compile(r"Expected type (\w+), got (\w+)\. Parameter value: (.+?)\.$", re.DOTALL)


def _literal(text: str):
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return None


def _value_pairs(row):
    """(predicted, accepted values) of every invalid value BFCL reports on the row."""
    pairs = []
    for message in row.messages():
        match = _VALUE_ERROR.search(message)
        if match:
            pairs.append((_literal(match.group(2)), _literal(match.group(3)) or []))
    return pairs


def _text_rule(predicted, accepted) -> str | None:
    """The callscore text rule that makes `predicted` equal to one accepted text: the rule
    that normalized both to one key (folding, an alias), or the typo rule (similarity at or
    above 90 with as many words). None when no rule does."""
    from rapidfuzz import fuzz

    from scorer.normalize import Context, canonical
    from scorer.schema import Param

    if not isinstance(predicted, str):
        return None
    context = Context(None, "", "", None)
    ours = canonical(Param(kind="text"), predicted, context)
    for value in accepted:
        if not isinstance(value, str) or not value:
            continue
        theirs = canonical(Param(kind="text"), value, context)
        if theirs.key == ours.key:
            return theirs.rule if theirs.rule != "text" else ours.rule
        if fuzz.ratio(ours.key[2:], theirs.key[2:]) >= 90 and len(ours.key.split()) == len(theirs.key.split()):
            return "fuzzy_typo"
    return None


def _text_equivalence_rule(row) -> str | None:
    pairs = _value_pairs(row)
    rules = [_text_rule(predicted, accepted) for predicted, accepted in pairs]
    return rules[0] if rules and all(rules) else None


def _scalar_coerced(row) -> bool:
    """BFCL's type error on a string holding the declared scalar ("18" for an integer), or a
    value error where the text of a number is accepted for the number (25 for "25")."""
    found = False
    for message in row.messages():
        match = _TYPE_ERROR.search(message)
        if match and match.group(2) == "str":
            value = _literal(match.group(3))
            if not isinstance(value, str):
                return False
            kind = match.group(1)
            text = value.strip().lower()
            if kind == "boolean" and text in ("true", "false"):
                found = True
            elif kind in ("integer", "float") and re.fullmatch(r"[-+]?\d+(\.\d+)?", text):
                found = True
            else:
                return False
    for message in row.messages():
        if "Nested type checking failed" in message and re.search(r"inner type <class '(int|float)'>", message):
            value = _literal(message.rsplit("Parameter value: ", 1)[-1].rstrip("."))
            if not (isinstance(value, list) and value and all(
                    isinstance(item, str) and re.fullmatch(r"[-+]?\d+(\.\d+)?", item.strip()) for item in value)):
                return False
            found = True
    for predicted, accepted in _value_pairs(row):
        if any(str(predicted) == str(value) and type(predicted) is not type(value) for value in accepted):
            found = True
        else:
            return False
    return found


def _ints_for_floats(row) -> bool:
    nested = [m for m in row.messages() if "Nested type checking failed" in m and "float" in m]
    if not nested:
        return False
    for message in nested:
        value = _literal(message.rsplit("Parameter value: ", 1)[-1].rstrip("."))
        if not isinstance(value, list) or not all(isinstance(item, (int, float)) for item in value):
            return False
    return True


def _accepted_once(row, change) -> bool:
    """BFCL's checker (as --compat bfcl reproduces it) accepts the row's decoded calls once
    `change(value, accepted values of that parameter, declared BFCL type)` is applied to every
    argument: the difference named by `change` is then what separated the verdicts."""
    from scorer.compat import bfcl

    found = _decoded(row)
    if found is None:
        return False
    category, functions, answers, decoded = found
    accepted = collections.defaultdict(list)
    for answer in answers:
        for params in answer.values():
            for param, values in params.items():
                accepted[param] += values
    types = {param: bfcl._bfcl_type(spec) for function in functions
             for param, spec in ((function.get("parameters") or {}).get("properties") or {}).items()}
    changed = [{name: {param: change(value, accepted[param], types.get(param)) for param, value in arguments.items()}
                if isinstance(arguments, dict) else arguments for name, arguments in call.items()} for call in decoded]
    if repr(changed) == repr(decoded):  # repr: 4 and 4.0 are equal to Python, not to BFCL's type rules
        return False
    return _bfcl_accepts(row, category, functions, changed, answers)


_KIND_OF_BFCL_TYPE = {"integer": "integer", "float": "number", "number": "number", "boolean": "boolean"}


def _defaults_filled(row) -> bool:
    """BFCL's checker accepts the row's decoded calls once every optional parameter they leave
    out is written at its default (the schema's, else the one its description states: `Default
    is 'celsius'`): the calls left out what the answer wrote at the default."""
    from scorer.schema import described_default

    found = _decoded(row)
    if found is None:
        return False
    category, functions, answers, decoded = found
    defaults = {}
    for function in functions:
        parameters = function.get("parameters") or {}
        required = parameters.get("required") or ()
        defaults[function.get("name")] = {}
        for param, spec in (parameters.get("properties") or {}).items():
            if not isinstance(spec, dict) or param in required:
                continue
            described = described_default(spec.get("description"), _KIND_OF_BFCL_TYPE.get(spec.get("type"), "text"))
            if "default" in spec or described is not None:
                defaults[function.get("name")][param] = spec["default"] if "default" in spec else json.loads(described)
    filled = [{name: {**{param: value for param, value in defaults.get(name, {}).items() if param not in arguments},
                      **arguments} if isinstance(arguments, dict) else arguments for name, arguments in call.items()}
              for call in decoded]
    return repr(filled) != repr(decoded) and _bfcl_accepts(row, category, functions, filled, answers)


def _decoded(row):
    """(category, functions, accepted answers, the row's calls as BFCL's decoder reads them), or
    None when it reads no list of calls."""
    from scorer.compat import bfcl

    if row.case is None:
        return None
    category, functions, answers = row.case
    calls = None if row.output is not None else [(c["name"], json.loads(c["arguments"])) for c in json.loads(row.raw)]
    try:
        decoded = bfcl.decode(row.handler, calls, row.output, fc_named=row.fc_named)
    except bfcl.DecodeError:
        return None
    return (category, functions, answers, decoded) if bfcl.is_call_list(decoded) else None


def _bfcl_accepts(row, category, functions, calls, answers) -> bool:
    from scorer.compat import bfcl

    try:
        bfcl.check(category, functions, calls, answers, row.key[0] in RENAMED_DOTS and row.output is not None)
    except bfcl.Invalid:
        return False
    return True


def _coerce_scalar(value, accepted, kind):
    """A string holding the declared scalar, as that scalar; a number whose text is accepted, as that text."""
    if isinstance(value, str):
        text = value.strip().lower()
        if kind == "boolean" and text in ("true", "false"):
            return text == "true"
        if kind == "integer" and re.fullmatch(r"[-+]?\d+", text):
            return int(text)
        if kind == "float" and re.fullmatch(r"[-+]?\d+(\.\d+)?", text):
            return float(text)
    if isinstance(value, list):
        return [_coerce_scalar(item, [], _item_kind(accepted)) for item in value]
    if isinstance(value, (int, float)) and not isinstance(value, bool) and str(value) in accepted:
        return str(value)
    return value


def _equal_date(value, accepted, kind):
    """The accepted text naming the same written date or time as `value` (10th December 2022 and
    2022-12-10): both resolve, without a reference time of their own (nothing relative), to one
    interval."""
    import datetime as dt

    from scorer.temporal import resolve

    reference = dt.datetime(2024, 1, 1, tzinfo=dt.timezone.utc)  # unused by what is not relative
    mine = resolve(value, reference) if isinstance(value, str) else None
    if mine is None or mine.relative:
        return value
    for option in accepted:
        theirs = resolve(option, reference) if isinstance(option, str) else None
        if theirs is not None and not theirs.relative and (theirs.start, theirs.end) == (mine.start, mine.end):
            return option
    return value


def _item_kind(accepted):
    """The scalar kind of an accepted list's items."""
    for answer in accepted:
        if isinstance(answer, list) and answer:
            first = answer[0]
            return {int: "integer", float: "float", bool: "boolean"}.get(type(first))
    return None


def _unified_numbers(value, accepted, kind):
    """Ints in an array as floats; an integral float for an integer parameter as an int."""
    if kind in ("array", "tuple") and isinstance(value, list) and any(type(item) is int for item in value):
        return [float(item) if type(item) is int else item for item in value]
    if kind == "integer" and type(value) is float and value.is_integer():
        return int(value)
    return value


def _equal_text(value, accepted, kind):
    """The accepted text a callscore text rule equates with `value`: one it folds to the same
    key first, then one within the typo rule."""
    if isinstance(value, str):
        rules = [(option, _text_rule(value, [option])) for option in accepted if isinstance(option, str) and option]
        for wanted in (lambda rule: rule and rule != "fuzzy_typo", bool):
            for option, rule in rules:
                if wanted(rule):
                    return option
    return value


def _answer_params(row) -> dict:
    params = {}
    for accepted in (row.answer or {}).values():
        if isinstance(accepted, dict):
            params.update(accepted)
    return params


def _gold_over_schema(row) -> bool:
    params = _answer_params(row)
    missing = re.findall(r"Missing required parameter: '([^']+)'", " ".join(row.messages()))
    unexpected = re.findall(r"Unexpected parameter: '([^']+)'", " ".join(row.messages()))
    if not missing and not unexpected:
        return False
    return (all("" in (params.get(name) or []) for name in missing)
            and all(name in params for name in unexpected))


def _bfcl_standardized(text: str) -> str:
    return text.lower().translate(str.maketrans("", "", '"[]{}:')).translate(str.maketrans("", "", " ,./-_*^"))


def _value_errors_equal_after(row, fold) -> bool:
    """Every incorrect value callscore found becomes equal to one gold alternative under `fold`."""
    errors = [e for e in row.verdict["errors"] or () if e["kind"] == "incorrect_value"]
    return bool(errors) and all(
        e["gold"] is not None and e["predicted"] is not None and
        fold(e["predicted"]) in {fold(alternative) for alternative in e["gold"].split(" | ")} for e in errors)


BFCL_DIFFERENCES = (
    # reading model output: BFCL decoded no call, callscore read calls, for the stated reason
    Difference("calls_in_code_fence", "the calls are inside a ``` fence: once the fence is removed BFCL's own "
               "decoder reads them", lambda r: _bfcl_read_no_call(r) and _we_read_calls(r) and _fenced(r)),
    Difference("json_calls_in_prompt_mode", "JSON call objects ({'name', 'parameters'}) where BFCL's prompt asks "
               "for Python call syntax: the calls are unambiguous",
               lambda r: _bfcl_read_no_call(r) and r.output is not None and _we_read_calls(r) and _json_calls(r)),
    Difference("quoted_call_strings", "a list of quoted call strings (['f(a=1)']): each string is a call BFCL's "
               "decoder reads on its own",
               lambda r: _bfcl_read_no_call(r) and r.output is not None and _we_read_calls(r)
               and _quoted_call_strings(r)),
    Difference("calls_without_brackets", "`f(a=1)` without [ ]: BFCL's decoder reads it once bracketed",
               lambda r: _bfcl_read_no_call(r) and _we_read_calls(r)
               and _decodes(r, "[" + r.output.strip() + "]")),
    Difference("chat_template_tokens", "chat-template tokens before the calls: BFCL's decoder reads what follows them",
               lambda r: _bfcl_read_no_call(r) and _we_read_calls(r) and _TOKEN.search(r.output)
               and _decodes(r, _after_tokens(r.output))),
    Difference("markdown_escapes", "markdown-escaped `\\_` in names: BFCL's decoder reads the text unescaped",
               lambda r: _bfcl_read_no_call(r) and _we_read_calls(r) and "\\_" in r.output
               and _decodes(r, r.output.replace("\\_", "_"))),
    Difference("python_literals_in_json", "True/False/None in a JSON call: BFCL's decoder reads it with JSON's literals",
               lambda r: _bfcl_read_no_call(r) and _we_read_calls(r)
               and _decodes(r, re.sub(r"\bTrue\b", "true", re.sub(r"\bFalse\b", "false",
                                                                    re.sub(r"\bNone\b", "null", r.output))))),
    Difference("apostrophe_in_json_call", "Hermes' decoder turns every ' into \", which breaks a JSON string "
               "holding an apostrophe; the JSON itself is valid",
               lambda r: _bfcl_read_no_call(r) and _we_read_calls(r) and r.handler == "HermesHandler" and _json_with_apostrophe(r)),
    Difference("bfcl_mixed_text_calls", "a function-calling API's result that holds text beside (or instead of) "
               "calls: BFCL's FC decoder fails on any text",
               lambda r: _bfcl_read_no_call(r) and _reads_list(r) and r.output is not None and _we_read_calls(r)),
    Difference("calls_in_prose", "a reply that writes calls out inside prose, on a no-call row: callscore "
               "counts the calls (over recall), BFCL's decoder fails on the prose",
               lambda r: r.valid and r.label.startswith("over_recall") and _we_read_calls(r) and _has_prose(r)),
    Difference("prose_after_calls", "calls followed by prose: BFCL's decoder reads the calls once the prose is cut",
               lambda r: _bfcl_read_no_call(r) and r.output is not None and _we_read_calls(r)
               and _decodes(r, _before_prose(r.output))),
    Difference("malformed_call_on_negative", "an unreadable call attempt on a no-call row: callscore counts it "
               "as over recall, BFCL as no call",
               lambda r: r.valid and r.label.startswith("over_recall") and r.verdict["subtype"] is not None
               and "malformed" in [e["kind"] for e in r.verdict["errors"] or ()]),
    # comparing values: BFCL invalid, callscore correct, for the stated reason
    Difference("numbers_unified", "an int where a float is typed inside an array, or 4.0 for an integer: one number "
               "to callscore",
               lambda r: not r.valid and r.ours and (_ints_for_floats(r) or _accepted_once(r, _unified_numbers))),
    Difference("scalar_strings_coerced", "\"18\" for an integer, \"true\" for a boolean, 25 for \"25\": one value",
               lambda r: not r.valid and r.ours and (_scalar_coerced(r) or _accepted_once(r, _coerce_scalar))),
    Difference("gold_over_schema", "the possible answer and the schema disagree (\"\" for a required parameter, "
               "a parameter only the answer lists): the answer wins",
               lambda r: not r.valid and r.ours and _gold_over_schema(r)),
    Difference("bfcl_misplaced_param", "parallel_multiple_function_179's answer puts `deck` beside the calls: "
               "read as find_card_in_deck's parameter, a correct 4-call answer is correct",
               lambda r: r.key[1] == "parallel_multiple_function_179" and not r.valid and r.ours
               and r.error_type.endswith("wrong_count")),
    Difference("text_equivalence", "a value pair that a named callscore text rule makes equal (folding, an "
               "alias, a typo at >= 90 similarity with as many words); BFCL compares standardized strings",
               lambda r: not r.valid and r.ours and (_text_equivalence_rule(r) is not None
                                                     or _accepted_once(r, _equal_text))),
    Difference("schema_default_argument", "an argument the gold leaves out, given with the schema's default",
               lambda r: not r.valid and r.ours and r.kind == "extra_default_arg"),
    Difference("default_left_out", "an optional argument the answer writes at its default (the schema's, or "
               "the one its description states), left out: "
               "the call means the default (BFCL accepts leaving it out only where the answer lists \"\")",
               lambda r: not r.valid and r.ours and _defaults_filled(r)),
    Difference("dates_unified", "one date written another way (`10th December 2022` for `2022-12-10`): one "
               "interval to callscore; BFCL compares strings",
               lambda r: not r.valid and r.ours and _accepted_once(r, _equal_date)),
    # BFCL valid, callscore not
    Difference("punctuation_kept", "`x^3` != `x**3`, `D.C.` != `DC`: callscore keeps `.*^/-`; BFCL deletes them",
               lambda r: r.valid and r.verdict["decided"] and _value_errors_equal_after(r, _bfcl_standardized)),
)

def _secrets_written_otherwise(row) -> bool:
    """Every incorrect value is a secret's (rules/param_kinds.toml: a password, a token) written
    in another case or with other spaces and hyphens."""
    from scorer.schema import identifier_kind

    def fold(text):
        return re.sub(r"[\s\-]", "", text).casefold()

    errors = [e for e in row.verdict["errors"] or () if e["kind"] == "incorrect_value"]
    return bool(errors) and all(
        e["argument"] and identifier_kind(e["argument"], "") == "secret" and e["gold"] is not None
        and e["predicted"] is not None and fold(e["predicted"]) in {fold(gold) for gold in e["gold"].split(" | ")}
        for e in errors)


ACE_DIFFERENCES = (
    Difference("schema_default_argument", "an argument the gold leaves out, given with the schema's default",
               lambda r: not r.valid and r.ours and r.kind == "extra_default_arg"),
    Difference("secret_as_written", "a password or a token in another case (ABCD1234 for abcd1234) is another "
               "secret: callscore compares it as written, the re-implemented rules fold case",
               lambda r: r.valid and r.verdict["decided"] and not r.ours and _secrets_written_otherwise(r)),
)


def attribute(row: Row, differences):
    """None when callscore agrees; `undecided` when it left the row to a judge; the first
    deliberate difference whose predicate holds; else `disagreement`."""
    if row.verdict["decided"] and row.valid == row.ours:
        return None
    if not row.verdict["decided"]:
        return "undecided"
    for difference in differences:
        if difference.test(row):
            return difference
    return "disagreement"


# --- report --------------------------------------------------------------------------------

def _share(agree: int, total: int) -> str:
    return f"{100 * agree / total:6.2f} % ({agree:,} of {total:,})" if total else "–"


def _category(row) -> str:
    return row.key[1].split("#")[0].rsplit("_", 1)[0]


def _by_category(rows) -> dict:
    found = collections.defaultdict(list)
    for row in rows:
        found[_category(row)].append(row)
    order = {category: index for index, category in enumerate(CATEGORIES)}
    return {category: found[category] for category in sorted(found, key=lambda c: (order.get(c, len(order)), c))}


def all_rows_line(label: str, rows, compat: bool = True) -> str:
    """Agreement on every row: callscore's default mode (undecided rows count as disagreement)
    and --compat bfcl."""
    default = sum(row.verdict["decided"] and row.valid == row.ours for row in rows)
    line = f"{label:<44} default mode {_share(default, len(rows))}"
    if compat:
        agree = sum((row.compat["outcome"] == "correct") == row.valid for row in rows)
        line += f"   --compat bfcl {_share(agree, len(rows))}"
    return line


def differences_report(title: str, rows, differences, examples=2):
    """Each deliberate difference with its count, then undecided rows, then the
    disagreements no difference explains, by class."""
    found = collections.defaultdict(list)
    for row in rows:
        kind = attribute(row, differences)
        if kind is not None:
            found[kind if isinstance(kind, str) else kind.name].append(row)
    disagreeing = sum(len(members) for members in found.values())
    print(f"\n-- {title}: {disagreeing:,} of {len(rows):,} rows disagree in default mode")
    for difference in differences:
        members = found.get(difference.name, [])
        if members:
            print(f"   {difference.name:<28} {len(members):>5}  {difference.why}")
    for name, why in (("undecided", "left to a judge: never counted as agreement"),
                      ("disagreement", "no deliberate difference explains it")):
        members = found.get(name, [])
        print(f"   {name:<28} {len(members):>5}  {why}")
        groups = collections.Counter(f"{'valid' if row.valid else row.error_type} -> {row.label}" for row in members)
        for group, count in groups.most_common(12):
            print(f"      {count:>5}  benchmark {group}")
            for row in [r for r in members if f"{'valid' if r.valid else r.error_type} -> {r.label}" == group][:examples]:
                print(f"             {row.key[0]} {row.key[1]}: {(row.verdict['detail'] or '')[:120]}")
    return found


def compat_disagreements(rows):
    """--compat bfcl: every row it judges otherwise than BFCL, one by one."""
    listed = [row for row in rows if (row.compat["outcome"] == "correct") != row.valid]
    print(f"\n-- --compat bfcl: {len(listed)} disagreeing row(s), one by one")
    for row in listed:
        theirs = "valid" if row.valid else row.error_type
        print(f"   {row.key[0]} {row.key[1]}: BFCL {theirs}; --compat bfcl {row.compat['outcome']} "
              f"({row.compat['rule']}): {(row.compat['detail'] or '')[:100]}")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--peers", type=Path, default=REPO / ".." / "shared" / "peers")
    parser.add_argument("--variants", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--skip", action="append", default=[], choices=("real", "perturbed", "acebench", "tables"))
    parser.add_argument("--v4", action="store_true", help="Then BFCL v4's generated set (bench/parity_v4.py).")
    options = parser.parse_args(argv)
    root = options.peers / "bfcl-2024-08"
    gold = bfcl_gold(root)
    sets, speed = {}, []
    if "real" not in options.skip:
        sets["real"] = real_rows(root, gold, speed)
    if "perturbed" not in options.skip:
        sets["perturbed"] = perturbed_rows(root, gold, options.variants, options.seed, speed)
    if "acebench" not in options.skip:
        sets["acebench"] = acebench_rows(options.peers / "acebench", options.variants, options.seed)
    print("== Agreement on ALL rows (no exclusion; an undecided row counts as a disagreement)")
    labels = {"real": "BFCL real results (16 models, published)", "perturbed": f"BFCL perturbed gold ({BFCL_EVAL})",
              "acebench": "ACEBench perturbed gold (rules re-implemented)"}
    for name, rows in sets.items():
        print(all_rows_line(labels[name], rows, compat=name != "acebench"))
        if name != "acebench":
            for category, members in _by_category(rows).items():
                print(all_rows_line(f"   {category}", members))
    print("\n== Default mode: each deliberate difference, counted by a predicate that checks its reason")
    if "real" in sets:  # java and javascript: callscore reads their source text by its own rules
        python = [row for row in sets["real"] if _category(row) in PYTHON_CATEGORIES]
        differences_report(labels["real"] + ", Python categories", python, BFCL_DIFFERENCES)
    if "perturbed" in sets:
        differences_report(labels["perturbed"], sets["perturbed"], BFCL_DIFFERENCES)
    if "acebench" in sets:
        differences_report(labels["acebench"], sets["acebench"], ACE_DIFFERENCES)
    for name in ("real", "perturbed"):
        if name in sets:
            print(f"\n== {labels[name]}")
            compat_disagreements(sets[name])
    if speed:
        print("\n== Rows per CPU-second on the same rows, this run (one process each)")
        for label, rows, seconds in speed:
            print(f"   {label:<58} {rows:>6} rows  {seconds:7.2f} CPU s  {rows / seconds:>10,.0f} rows/CPU-s"
                  if seconds else f"   {label}: not measured")
    if "real" in sets and "tables" not in options.skip:
        rescored_tables(root, gold)
    if options.v4:
        import parity_v4

        print()
        parity_v4.main(["--variants", str(options.variants), "--seed", str(options.seed)])


def bfcl_gold(root: Path) -> dict:
    """category -> callscore gold table of BFCL's questions and possible answers."""
    gold = {}
    for category in CATEGORIES:
        answer = root / "data" / "possible_answer" / f"gorilla_openfunctions_v1_test_{category}.json"
        gold[category] = read_bfcl_gold(root / "data" / f"gorilla_openfunctions_v1_test_{category}.json",
                                        answer if answer.exists() else None)
    return gold


def _answers(root: Path, category: str) -> dict:
    path = root / "data" / "possible_answer" / f"gorilla_openfunctions_v1_test_{category}.json"
    return {str(row["id"]): row["ground_truth"] for _, row in read_json_lines(path)} if path.exists() else {}


def real_predictions(root: Path, models, as_bfcl=False) -> pa.Table:
    tables = []
    for model in models:
        for category in CATEGORIES:
            question = root / "data" / f"gorilla_openfunctions_v1_test_{category}.json"
            tables.append(read_bfcl_results(root / "result" / model / f"gorilla_openfunctions_v1_test_{category}_result.json",
                                            model, question_path=question,
                                            renamed_dots=None if as_bfcl else model in RENAMED_DOTS))
    return pa.concat_tables(tables)


def real_rows(root, gold, speed) -> list:
    """Every row of the 16 models, with BFCL's published verdict, callscore's default verdict
    and the --compat bfcl verdict."""
    from scorer.compat.bfcl import accepted_values, functions_from_tools, handler_of
    from scorer.options import Options

    models = sorted(path.name for path in (root / "result").iterdir())
    theirs, answers = {}, {}
    for category in CATEGORIES:
        answers.update(_answers(root, category))
        for model in models:
            for row_id, verdict in published_verdicts(root, model, category, gold[category].column("id").to_pylist()).items():
                theirs[(model, row_id)] = verdict
    all_gold = pa.concat_tables(gold.values(), promote_options="default")
    predictions = real_predictions(root, models)
    ours, seconds = callscore_verdicts(predictions, all_gold)
    speed.append(("callscore default mode, BFCL real results", predictions.num_rows, seconds))
    # one run of all models, read as --compat bfcl reads them: no option but the mode
    compat, compat_seconds = callscore_verdicts(real_predictions(root, models, as_bfcl=True), all_gold,
                                                Options(jobs=1, compat="bfcl"))
    speed.append(("callscore --compat bfcl, BFCL real results", predictions.num_rows, compat_seconds))
    outputs = {(row["model"], row["id"]): (row["output"], row["calls"])
               for row in predictions.select(["model", "id", "calls", "output"]).to_pylist()}
    cases = {}
    for row in all_gold.select(["id", "tools", "gold_calls", "category"]).to_pylist():
        accepted = [{call["name"]: {param: accepted_values(value) for param, value in json.loads(call["arguments"]).items()}}
                    for call in row["gold_calls"]]
        cases[row["id"]] = (row["category"], functions_from_tools(json.loads(row["tools"])), accepted)
    rows = []
    for key, (valid, error_type, entry) in sorted(theirs.items()):
        output, calls = outputs[key]
        rows.append(Row(key, valid, error_type, (entry or {}).get("error") or [], ours[key],
                        output or json.dumps(calls, ensure_ascii=False), answers.get(key[1]), output=output,
                        handler=handler_of(key[0], "2024-08"), compat=compat[key], case=cases[key[1]]))
    return rows


def rescored_tables(root, gold):
    """The real results re-scored: callscore's per-model metrics and attribution beside BFCL's
    own accuracy, over all five categories and per category."""
    from scorer import report
    from scorer.aggregate import HEADLINE
    from scorer.pipeline import score_tables

    models = sorted(path.name for path in (root / "result").iterdir())
    predictions = real_predictions(root, models)
    rows = score_tables(predictions, pa.concat_tables(gold.values(), promote_options="default"),
                        by=("category",)).tally.rows()
    valid = collections.defaultdict(list)
    for category in CATEGORIES:
        for model in models:
            ids = gold[category].column("id").to_pylist()
            valid[model] += [verdict[0] for verdict in published_verdicts(root, model, category, ids).values()]
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


def perturbed_rows(root, gold, variants, seed, speed) -> list:
    from scorer.options import Options

    cases = perturbed_cases(root, variants, seed)
    theirs, checker_seconds = run_bfcl_checker(cases)
    predictions = predictions_for_cases(cases)
    # judged by bfcl-eval's checker on answers without 179's misplaced entry: the gold keeps
    # neither the 2024-08 run's version nor that run's count of answer entries
    cases_gold = gold_for_cases(gold, cases, lambda case: case["category"]).replace_schema_metadata(None)
    if "bfcl_answer_calls" in cases_gold.column_names:
        cases_gold = cases_gold.drop_columns(["bfcl_answer_calls"])
    with timed_normalizers() as spent:   # the normalizers' share of this very run
        ours, seconds = callscore_verdicts(predictions, cases_gold)
    with timed_normalizers(BFCL_RULES) as reproduced:
        compat, compat_seconds = callscore_verdicts(predictions, cases_gold, Options(jobs=1, compat="bfcl"))
    speed.append((f"BFCL's AST checker ({BFCL_EVAL}), perturbed gold", len(cases), checker_seconds))
    speed.append(("callscore default mode, same rows", len(cases), seconds))
    speed.append(("  of which callscore's normalizers alone", len(cases), sum(s for s, _n in spent.values())))
    speed.append(("callscore --compat bfcl, same rows", len(cases), compat_seconds))
    speed.append(("  of which BFCL's rules reproduced alone", len(cases), sum(s for s, _n in reproduced.values())))
    return [Row(("perturbed", case["key"]), *theirs[case["key"]], ours[("perturbed", case["key"])],
                json.dumps(case["output"]), {k: v for item in case["answer"] for k, v in item.items()}, case["kind"],
                compat=compat[("perturbed", case["key"])])
            for case in cases]


def acebench_rows(root, variants, seed) -> list:
    cases = acebench_cases(root, variants, seed)
    gold = {path: read_acebench_gold(path) for path in sorted({case["source"] for case in cases})}
    ours, _seconds = callscore_verdicts(predictions_for_cases(cases),
                                        gold_for_cases(gold, cases, lambda case: case["source"]))
    return [Row(("perturbed", case["key"]), *case["verdict"], ours[("perturbed", case["key"])],
                json.dumps(case["output"], ensure_ascii=False), None, case["kind"]) for case in cases]


if __name__ == "__main__":
    main()
