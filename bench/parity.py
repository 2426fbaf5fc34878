"""Parity of callscore with BFCL's own AST checker, on the same rows.

    python bench/parity.py [--peers ../shared/peers] [--variants 4] [--seed 0]

Two sets of rows:
1. Real results: the 16 models x 5 categories of ../shared/peers/bfcl-2024-08. BFCL's verdicts
   are its published score files (a row absent from a score file was judged valid); nothing
   of BFCL runs for them.
2. Perturbed gold: each AST question's gold answer turned into a prediction and perturbed in
   seeded ways (a value changed, an argument dropped or added, a call dropped or repeated,
   ...). BFCL's checker judges them in its own virtual environment, bench/.venv-bfcl, created
   on first use with the `bfcl-eval` wheel only (`--no-deps`): the AST checker needs nothing
   but the standard library and its own package, except `constants.model_config`, which
   imports every provider SDK only to read `underscore_to_dot`; the driver replaces that one
   module by a stub answering False (the perturbed predictions use declared names).
   callscore's environment never sees bfcl-eval.

For both it prints a confusion table (BFCL valid/invalid x callscore outcome) and, per class
of disagreement, its count, two examples, and which side is right and why. A class is a
deliberate difference (docs/deliberate_differences.md) when a named rule below explains it.
"""

import argparse
import collections
import json
import random
import subprocess
import sys
import venv
from pathlib import Path

import pyarrow as pa

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

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
        verdict = {"key": case["key"], "valid": bool(result["valid"]), "error_type": result.get("error_type")}
    except Exception as error:  # BFCL's checker raising counts as invalid, as in its runner
        verdict = {"key": case["key"], "valid": False, "error_type": f"checker_crash:{type(error).__name__}"}
    print(json.dumps(verdict))
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
    """key -> (valid, error_type) from BFCL's checker on the perturbed cases."""
    python = bfcl_environment()
    stdin = "".join(json.dumps({k: case[k] for k in ("key", "category", "function", "output", "answer")}) + "\n"
                    for case in cases)
    done = subprocess.run([str(python), str(VENV / "driver.py")], input=stdin, capture_output=True,
                          text=True, check=True)
    verdicts = {}
    for line in done.stdout.splitlines():
        verdict = json.loads(line)
        verdicts[verdict["key"]] = (verdict["valid"], verdict["error_type"])
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


# --- callscore's side --------------------------------------------------------------------

def callscore_verdicts(predictions: pa.Table, gold: pa.Table) -> dict:
    """(model, id) -> (outcome, subtype, detail) from scorer.pipeline.score_tables. Rows on
    which callscore raises are found by halving and reported as outcome `error`, so one bad
    row cannot stop the report."""
    from scorer.pipeline import score_tables

    gold_index = {row_id: i for i, row_id in enumerate(gold.column("id").to_pylist())}
    verdicts = {}

    def score(part: pa.Table):
        ids = part.column("id").to_pylist()
        mine = gold.take(sorted({gold_index[row_id] for row_id in ids if row_id in gold_index}))
        try:
            table = score_tables(part, mine).verdicts.select(["model", "id", "outcome", "subtype", "detail"])
        except Exception as error:  # noqa: BLE001 -- reported per row, never hidden
            if part.num_rows == 1:
                row = part.to_pylist()[0]
                verdicts[(row["model"], row["id"])] = ("error", type(error).__name__, str(error)[:120])
                return
            half = part.num_rows // 2
            score(part.slice(0, half))
            score(part.slice(half))
            return
        for row in table.to_pylist():
            if not row.get("missing_prediction"):
                verdicts[(row["model"], row["id"])] = (row["outcome"], row["subtype"], row["detail"])

    score(predictions)
    return verdicts


def gold_for_cases(gold_by_category: dict, cases) -> pa.Table:
    """callscore gold rows for perturbed cases: the question's gold row under the case key."""
    parts = []
    for category, gold in gold_by_category.items():
        index = {row_id: i for i, row_id in enumerate(gold.column("id").to_pylist())}
        mine = [case for case in cases if case["category"] == category]
        if not mine:
            continue
        taken = gold.take([index[case["id"]] for case in mine])
        parts.append(taken.set_column(0, "id", pa.array([case["key"] for case in mine], pa.string())))
    return pa.concat_tables(parts)


def predictions_for_cases(cases, model="perturbed") -> pa.Table:
    from scorer.tables import PREDICTIONS

    calls = [[{"name": name, "arguments": json.dumps(args, ensure_ascii=False)}
              for item in case["output"] for name, args in item.items()] for case in cases]
    return pa.Table.from_pydict({"id": [case["key"] for case in cases], "model": [model] * len(cases),
                                 "calls": calls, "output": [None] * len(cases),
                                 "malformed": [None] * len(cases)}, schema=PREDICTIONS)


# --- comparison --------------------------------------------------------------------------

def confusion(pairs) -> str:
    """pairs: [(bfcl_valid, callscore outcome/subtype)] -> a text table."""
    counts = collections.Counter(pairs)
    columns = sorted({outcome for _, outcome in counts})
    width = max([len(c) for c in columns] + [8])
    lines = ["BFCL \\ callscore".ljust(18) + "".join(c.rjust(width + 2) for c in columns)]
    for valid in (True, False):
        lines.append(("valid" if valid else "invalid").ljust(18)
                     + "".join(str(counts[(valid, c)]).rjust(width + 2) for c in columns))
    return "\n".join(lines)


def outcome_label(verdict) -> str:
    outcome, subtype, _ = verdict
    return outcome if not subtype else f"{outcome}/{subtype}"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--peers", type=Path, default=REPO / ".." / "shared" / "peers")
    parser.add_argument("--variants", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--skip-real", action="store_true")
    parser.add_argument("--skip-perturbed", action="store_true")
    options = parser.parse_args(argv)
    root = options.peers / "bfcl-2024-08"
    gold = {}
    for category in CATEGORIES:
        answer = root / "data" / "possible_answer" / f"gorilla_openfunctions_v1_test_{category}.json"
        gold[category] = read_bfcl_gold(root / "data" / f"gorilla_openfunctions_v1_test_{category}.json",
                                        answer if answer.exists() else None)
    if not options.skip_real:
        report_real(root, gold)
    if not options.skip_perturbed:
        report_perturbed(root, gold, options.variants, options.seed)


def report_real(root, gold):
    models = sorted(path.name for path in (root / "result").iterdir())
    tables, bfcl = [], {}
    for model in models:
        for category in CATEGORIES:
            question = root / "data" / f"gorilla_openfunctions_v1_test_{category}.json"
            tables.append(read_bfcl_results(root / "result" / model / f"gorilla_openfunctions_v1_test_{category}_result.json",
                                            model, question_path=question, renamed_dots=model in RENAMED_DOTS))
            for row_id, verdict in published_verdicts(root, model, category, gold[category].column("id").to_pylist()).items():
                bfcl[(model, row_id)] = verdict
    predictions = pa.concat_tables(tables)
    ours = callscore_verdicts(predictions, pa.concat_tables(gold.values(), promote_options="default"))
    print(f"== Real results: {len(models)} models, {predictions.num_rows} rows (BFCL verdicts = published score files)")
    compare(bfcl, ours, lambda key: bfcl[key][2])


def report_perturbed(root, gold, variants, seed):
    cases = perturbed_cases(root, variants, seed)
    theirs = run_bfcl_checker(cases)
    predictions = predictions_for_cases(cases)
    ours = callscore_verdicts(predictions, gold_for_cases(gold, cases))
    bfcl = {("perturbed", case["key"]): (*theirs[case["key"]], case) for case in cases}
    kinds = collections.Counter(case["kind"] for case in cases)
    print(f"== Perturbed gold: {len(cases)} rows ({', '.join(f'{k} {n}' for k, n in sorted(kinds.items()))}); "
          f"BFCL = {BFCL_EVAL} AST checker")
    compare(bfcl, ours, lambda key: bfcl[key][2])


def compare(bfcl: dict, ours: dict, example_of):
    pairs, classes = [], collections.defaultdict(list)
    for key in sorted(bfcl):
        valid, error_type, _ = bfcl[key]
        verdict = ours.get(key, ("missing", None, None))
        label = outcome_label(verdict)
        pairs.append((valid, label))
        agree = valid == (verdict[0] == "correct")
        if not agree:
            classes[(("valid" if valid else f"invalid:{error_type}"), label)].append(key)
    print(confusion(pairs))
    total = len(pairs)
    disagree = sum(len(keys) for keys in classes.values())
    print(f"agreement: {total - disagree}/{total} = {100 * (total - disagree) / total:.2f}%")
    for (theirs, label), keys in sorted(classes.items(), key=lambda item: -len(item[1])):
        print(f"-- BFCL {theirs} vs callscore {label}: {len(keys)}")
        for key in keys[:2]:
            print(f"   {key[0]} {key[1]}: {ours.get(key, (None, None, ''))[2]}")


if __name__ == "__main__":
    main()
