"""Parity of callscore with BFCL v4 (bfcl-eval 2026.3.23) on results generated from its own data.

    python bench/parity_v4.py [--variants 4] [--seed 0] [--entries N] [--skip single|multi]
    python bench/parity.py --v4 ...   (the same, after parity.py's 2024-08 sets)

Real v4 result files are not in the project's data; what can be checked is BFCL's own checker
on results generated from bfcl-eval's shipped questions and possible answers:
- single turn (every category with a possible answer, and the relevance ones): each question's
  gold answer as a model result plus up to `--variants` seeded perturbations of it (parity.py's:
  a value changed, an argument dropped or added, a call dropped, repeated or renamed, ...); the
  relevance categories get a text reply and a call of the first function;
- multi turn (base, miss_func, miss_param, long_context): each entry's gold trajectory plus
  perturbations (a call dropped, a turn made twice, calls reversed, one step per call, a value
  changed, an unknown function called, a turn answered without calls, the next turn's calls or
  a read-only call on the turn whose gold is empty, the last turn cut off).
Every result is written in the two shapes BFCL's default handlers read: an FC model's
`[{name: arguments JSON}]` steps (multi-turn: one step per call, then a text reply) and a
prompt model's text `[f(a=1)]` (Java and JavaScript: FC only, their text parsers need
tree_sitter, which bfcl-eval's Python checker does not). Single-turn results are also written
in the texts of two handlers with decoders of their own, each variant as the result of one of
the models bfcl-eval serves with that handler: "Qwen FC", the `<tool_call>\n{json}\n</tool_call>`
blocks of QwenFCHandler (the FC models vLLM serves), and "xLAM", the JSON array of
`{name, arguments}` of Salesforce{Qwen,Llama}Handler. Multi-turn trajectories are also written
in the Qwen FC shape (each step's calls as one text of `<tool_call>` blocks, then a text reply),
each variant as the result of one of the Qwen FC models bfcl-eval lists, and judged on BFCL's side
with QwenFCHandler's own `decode_execute`.

BFCL's side: its runner's own per-entry functions (`eval_runner._evaluate_single_ast_entry`,
`_evaluate_single_relevance_entry`, `_evaluate_single_multi_turn_entry`) with the decoders of
its default handler (OpenAI's: FC arguments by `json.loads`, text by
`default_decode_ast_prompting` / `default_decode_execute_prompting`), or the `decode_ast` /
`decode_execute` of the handler class of the other shapes (an instance made without `__init__`, which starts a
client), imported from the installed bfcl-eval. Modules that import provider SDKs or
tree_sitter only to be importable are replaced by stubs: `constants.model_config`
(`underscore_to_dot` False for every model: the generated results use the declared names), the
Java/JavaScript text parsers, and `openai` when it is missing. Needs
bfcl-eval's light dependencies: `pip install --no-deps bfcl-eval==2026.3.23 mpmath` and
`pip install tenacity overrides python-dotenv tqdm pandas`.

callscore's side: single-turn results written as BFCL v4 writes them
(`result/<model>/<group>/BFCL_v4_<category>_result.json`), read by scorer.io.bfcl and scored with
`--compat bfcl`; multi-turn results by `score dialogue`'s BFCL path (`bfcl_valid`).

Prints the agreement per category and shape on all rows, then every disagreement counted by
cause (BFCL's error type against callscore's verdict), with an example of each.
"""

import argparse
import collections
import copy
import inspect
import json
import random
import sys
import tempfile
import types
from pathlib import Path

import pyarrow as pa

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from parity import _first_value, _perturbations, callscore_verdicts  # noqa: E402

from scorer import bfcl_multi_turn  # noqa: E402
from scorer.errors import InputError  # noqa: E402
from scorer.io.bfcl import declared_name, read_bfcl_gold, read_bfcl_results, read_json_lines  # noqa: E402
from scorer.parse import load_json  # noqa: E402

BFCL_EVAL = "bfcl-eval==2026.3.23"
AST_CATEGORIES = ("simple_python", "simple_java", "simple_javascript", "multiple", "parallel", "parallel_multiple",
                  "live_simple", "live_multiple", "live_parallel", "live_parallel_multiple")
RELEVANCE_CATEGORIES = ("irrelevance", "live_irrelevance", "live_relevance")
TEXT_ONLY_FC = ("simple_java", "simple_javascript")   # no prompt shape (tree_sitter parsers)
SHAPES = ("FC", "prompt")
RUN = "bfcl-eval-2026.3.23"
# shapes of handlers with decoders of their own: (bfcl-eval module, class) per handler
HANDLER_SHAPES = {"Qwen FC": (("local_inference.qwen_fc", "QwenFCHandler"),),
                  "xLAM": (("local_inference.salesforce_qwen", "SalesforceQwenHandler"),
                           ("local_inference.salesforce_llama", "SalesforceLlamaHandler"))}
REPLY = "I have done what you asked."
UNGENERATED = []   # questions whose possible answer parity's generator cannot turn into a prediction


# --- BFCL's side ---------------------------------------------------------------------------

def bfcl_runner():
    """bfcl-eval's eval_runner module, imported with its SDK-only modules stubbed."""
    try:
        __import__("openai")
    except ImportError:   # the local handlers' base class imports its client
        sys.modules["openai"] = types.SimpleNamespace(OpenAI=object, RateLimitError=Exception)
    stub = types.ModuleType("bfcl_eval.constants.model_config")
    stub.MODEL_CONFIG_MAPPING = collections.defaultdict(lambda: types.SimpleNamespace(underscore_to_dot=False))
    sys.modules.setdefault("bfcl_eval.constants.model_config", stub)
    for name, function in (("java_parser", "parse_java_function_call"), ("js_parser", "parse_javascript_function_call")):
        try:
            __import__(f"bfcl_eval.model_handler.parser.{name}")
        except ImportError:
            parser = types.ModuleType(f"bfcl_eval.model_handler.parser.{name}")
            setattr(parser, function, None)
            sys.modules[parser.__name__] = parser
    from bfcl_eval.eval_checker import eval_runner

    return eval_runner


class DefaultHandler:
    """The decoding of bfcl-eval's default (OpenAI) handler, FC or prompt."""

    def __init__(self, fc: bool):
        from bfcl_eval.model_handler import utils

        self.is_fc_model, self.utils = fc, utils

    def decode_ast(self, result, language, has_tool_call_tag):
        if self.is_fc_model:
            return [{list(item)[0]: json.loads(item[list(item)[0]])} for item in result]
        return self.utils.default_decode_ast_prompting(result, language, has_tool_call_tag)

    def decode_execute(self, result, has_tool_call_tag):
        if self.is_fc_model:
            return self.utils.convert_to_function_call(result)
        return self.utils.default_decode_execute_prompting(result)


def bfcl_single(runner, case, question, answer, model) -> tuple:
    """(valid, error_type) of one single-turn result by BFCL's runner functions."""
    from bfcl_eval.constants.enums import Language, ReturnFormat

    handler = case.get("handler") or DefaultHandler(case["shape"] == "FC")
    category = case["category"]
    if category in RELEVANCE_CATEGORIES:
        verdict = runner._evaluate_single_relevance_entry(handler, question["id"], case["result"],
                                                          copy.deepcopy(question), model, category)
    else:
        language = next((lang for lang in ("java", "javascript") if category.endswith("_" + lang)), "python")
        verdict = runner._evaluate_single_ast_entry(
            handler, question["id"], case["result"], answer["ground_truth"], copy.deepcopy(question), model,
            category, language=getattr(Language, language.upper()), return_format=getattr(ReturnFormat, language.upper()))
    return bool(verdict["valid"]), verdict.get("error_type")


# --- single turn -----------------------------------------------------------------------------

def _python_text(calls) -> str:
    return "[" + ", ".join(f"{name}(" + ", ".join(f"{k}={v!r}" for k, v in args.items()) + ")"
                           for name, args in calls) + "]"


def _shaped(calls, shape):
    if shape == "FC":
        return [{name: json.dumps(args, ensure_ascii=False)} for name, args in calls]
    if shape == "Qwen FC":
        return "\n".join(f"<tool_call>\n{json.dumps({'name': name, 'arguments': args}, ensure_ascii=False)}\n</tool_call>"
                         for name, args in calls)
    if shape == "xLAM":
        return json.dumps([{"name": name, "arguments": args} for name, args in calls], ensure_ascii=False)
    return _python_text(calls)


def handler_models() -> dict:
    """{shape: [(model, bfcl-eval handler instance)]}: the models bfcl-eval serves with each
    shape's handlers (callscore's copy of its model list), in the form of result folder names."""
    from scorer.compat import bfcl_models

    listed = bfcl_models.versions()[RUN]
    models = {}
    for shape, handlers in HANDLER_SHAPES.items():
        models[shape] = []
        for module, name in handlers:
            handler_class = getattr(__import__(f"bfcl_eval.model_handler.{module}", fromlist=[name]), name)
            handler = handler_class.__new__(handler_class)   # decode_ast reads nothing __init__ sets
            models[shape] += [(model.replace("/", "_"), handler) for model in sorted(listed)
                              if listed[model]["handler"] == name]
    return models


def _first_function_call(functions):
    """A call of the first function with a value of each required parameter's type."""
    samples = {"integer": 1, "float": 1.5, "number": 1.5, "boolean": True, "array": ["a"], "dict": {"a": "b"},
               "object": {"a": "b"}}
    function = functions[0]
    parameters = function.get("parameters", {})
    return [(function["name"], {name: samples.get(parameters.get("properties", {}).get(name, {}).get("type"), "a")
                                for name in parameters.get("required", [])})]


def single_cases(variants: int, seed: int, limit) -> list:
    """Per question and shape, the generated results: {category, shape, kind, id, result, and
    for a handler's shape its model and handler}."""
    rng = random.Random(seed)
    served = handler_models()
    data = bfcl_multi_turn.data_dir()
    cases = []
    for category in (*AST_CATEGORIES, *RELEVANCE_CATEGORIES):
        questions = [row for _n, row in read_json_lines(data / f"BFCL_v4_{category}.json")][:limit]
        answers = ([row for _n, row in read_json_lines(data / "possible_answer" / f"BFCL_v4_{category}.json")][:limit]
                   if category in AST_CATEGORIES else [None] * len(questions))
        for question, answer in zip(questions, answers):
            functions = question["function"] if isinstance(question["function"], list) else [question["function"]]
            if answer is None:
                named = {"text_reply": None, **({"a_call": _first_function_call(functions)} if functions else {})}
            else:
                declared = {function["name"] for function in functions}
                entries = [(declared_name(key, declared), params) for item in answer["ground_truth"]
                           for key, params in item.items() if isinstance(params, dict)]
                try:
                    calls = [(name, {p: _first_value(v) for p, v in params.items() if _first_value(v) is not None})
                             for name, params in entries]
                except TypeError:   # an accepted value that is not a list: no gold prediction to make
                    UNGENERATED.append(question["id"])
                    continue
                every = _perturbations(calls, entries, functions, rng)
                named = {kind: every[kind] for kind in ["identity", *sorted(rng.sample(
                    sorted(set(every) - {"identity"}), min(variants, len(every) - 1)))]}
            for shape in SHAPES:
                if shape == "prompt" and category in TEXT_ONLY_FC:
                    continue
                for kind, calls in named.items():
                    cases.append({"category": category, "shape": shape, "kind": kind, "id": question["id"],
                                  "result": REPLY if calls is None else _shaped(calls, shape),
                                  "question": question, "answer": answer})
            for shape, models in served.items():   # one model per variant: as many variants as models
                for (model, handler), (kind, calls) in zip(models, named.items()):
                    cases.append({"category": category, "shape": shape, "kind": kind, "id": question["id"],
                                  "result": REPLY if calls is None else _shaped(calls, shape),
                                  "question": question, "answer": answer, "model": model, "handler": handler})
    return cases


def _group(category: str) -> str:
    return "live" if category.startswith("live") else "non_live"


def single_rows(variants, seed, limit) -> list:
    """(category, shape, kind, id, BFCL's (valid, error_type), callscore's verdict or a reason)."""
    from scorer.options import Options

    runner = bfcl_runner()
    cases = single_cases(variants, seed, limit)
    slots = collections.Counter()   # the n-th variant of a question is model n's result: one row per id and model
    for case in cases:
        number = slots[(case["id"], case["shape"])]
        slots[(case["id"], case["shape"])] += 1
        case.setdefault("model", f"parity-v4-{case['shape']}-{number}")
    data = bfcl_multi_turn.data_dir()
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        written = collections.defaultdict(list)
        for case in cases:
            written[(case["model"], case["category"])].append({"id": case["id"], "result": case["result"]})
        by_category = collections.defaultdict(list)
        for (model, category), results in sorted(written.items()):
            path = Path(folder) / "result" / model / _group(category) / f"BFCL_v4_{category}_result.json"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text("".join(json.dumps(result, ensure_ascii=False) + "\n" for result in results))
            by_category[category].append(read_bfcl_results(path, model, question_path=data / f"BFCL_v4_{category}.json"))
        ours, refused = {}, {}
        for category, tables in by_category.items():   # a gold file callscore refuses loses its category only
            answer = data / "possible_answer" / f"BFCL_v4_{category}.json"
            try:
                gold = read_bfcl_gold(data / f"BFCL_v4_{category}.json", answer if category in AST_CATEGORIES else None)
                ours.update(callscore_verdicts(pa.concat_tables(tables), gold, Options(jobs=1, compat="bfcl"))[0])
            except InputError as error:
                refused[category] = f"refused whole: {error}"
    for case in cases:
        theirs = bfcl_single(runner, case, case["question"], case["answer"], case["model"])
        verdict = ours.get((case["model"], case["id"]))
        mine = refused.get(case["category"]) or (verdict if verdict else "no verdict")
        rows.append((case["category"], case["shape"], case["kind"], case["id"], theirs, mine))
    return rows


# --- multi turn ------------------------------------------------------------------------------

def read_only_call(entry, earlier_turns):
    """A call without arguments of one of the entry's methods that succeeds and leaves the state
    as the earlier turns ([(name, arguments JSON)] each) left it: (name, "{}"), or None."""
    environment = bfcl_multi_turn.Environment(entry)
    for turn in earlier_turns:
        environment.run(turn)
    for name in sorted(environment.methods):
        parameters = inspect.signature(environment.methods[name]).parameters.values()
        if any(p.default is p.empty for p in parameters):
            continue
        before = copy.deepcopy(environment.state())
        if not environment.call(name, "{}").startswith("Error") and environment.state() == before:
            return (name, "{}")
    return None


def trajectory_variants(entry, rng):
    """Named perturbations of an entry's gold trajectory: per turn, the steps of calls
    [(name, arguments JSON)] (a turn with no step is answered by text only)."""
    methods = bfcl_multi_turn.Environment(entry).methods
    gold = [[call for text in turn for call in bfcl_multi_turn.read_calls(text, methods)[0]] for turn in entry["gold_turns"]]
    calling = [turn for turn, calls in enumerate(gold) if calls]
    empty = [turn for turn, calls in enumerate(gold) if not calls]

    def steps(turns):
        return [[calls] if calls else [] for calls in turns]

    def changed(turns, turn, value):
        out = steps(turns)
        out[turn] = value
        return out

    first, last, some = calling[0], calling[-1], rng.choice(calling)
    named = {"identity": steps(gold),
             "last call dropped": changed(gold, last, [gold[last][:-1]] if len(gold[last]) > 1 else []),
             "a turn made twice": changed(gold, some, [gold[some], gold[some]]),
             "calls reversed": changed(gold, some, [gold[some][::-1]]),
             "one step per call": changed(gold, some, [[call] for call in gold[some]]),
             "unknown function": changed(gold, some, [gold[some] + [("no_such_function", '{"x": 1}')]]),
             "turn without calls": changed(gold, some, []),
             "last turn cut off": steps(gold)[:-1]}
    with_strings = [(turn, i, key) for turn in calling for i, (_n, a) in enumerate(gold[turn])
                    for key, value in load_json(a).items() if isinstance(value, str)]
    if with_strings:
        turn, i, key = rng.choice(with_strings)
        name, arguments = gold[turn][i]
        value = {**load_json(arguments), key: load_json(arguments)[key] + " zzz"}
        named["a value changed"] = changed(gold, turn, [gold[turn][:i] + [(name, json.dumps(value))] + gold[turn][i + 1:]])
    for turn in empty:
        if turn + 1 < len(gold):
            named["next turn's calls on the empty gold turn"] = changed(gold, turn, [gold[turn + 1]])
        call = read_only_call(entry, gold[:turn])
        if call:
            named["read-only call on the empty gold turn"] = changed(gold, turn, [[call]])
    return named


def _shaped_turn(turn_steps, shape):
    """One turn's steps of calls as the model of that shape writes it, a text reply last."""
    if shape == "FC":
        return [[{name: arguments} for name, arguments in step] for step in turn_steps] + [REPLY]
    return [_shaped([(name, load_json(arguments)) for name, arguments in step], shape) for step in turn_steps] + [REPLY]


def multi_rows(variants, seed, limit) -> list:
    runner = bfcl_runner()
    rng = random.Random(seed)
    qwen_fc = handler_models()["Qwen FC"]
    rows = []
    for category in bfcl_multi_turn.CATEGORIES:
        questions = bfcl_multi_turn.question_file(category)
        entries = bfcl_multi_turn.load_entries(questions)[:limit]
        cases = []
        for entry in entries:
            named = trajectory_variants(entry, rng)
            kinds = ["identity", *sorted(rng.sample(sorted(set(named) - {"identity"}), min(variants, len(named) - 1)))]
            for shape in SHAPES:
                for slot, kind in enumerate(kinds):
                    cases.append({"entry": entry, "shape": shape, "kind": kind, "model": f"parity-v4-{shape}-{slot}",
                                  "handler": DefaultHandler(shape == "FC"),
                                  "result": [_shaped_turn(turn, shape) for turn in named[kind]]})
            for (model, handler), kind in zip(qwen_fc, kinds):   # one listed Qwen FC model per variant
                cases.append({"entry": entry, "shape": "Qwen FC", "kind": kind, "model": model, "handler": handler,
                              "result": [_shaped_turn(turn, "Qwen FC") for turn in named[kind]]})
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / f"BFCL_v4_multi_turn_{category}_result.json"
            path.write_text("".join(json.dumps({"id": case["entry"]["id"], "model": case["model"],
                                                "result": case["result"]}) + "\n" for case in cases))
            dialogues = bfcl_multi_turn.score_bfcl_multi_turn(path, questions).dialogues
        ours = {(row["model"], row["id"]): row for row in dialogues.select(
            ["model", "id", "bfcl_valid", "bfcl_error_type"]).to_pylist()}
        for case in cases:
            entry = case["entry"]
            prompt = {key: value for key, value in entry.items() if key not in ("gold_turns", "tools")}
            # its simulators live in module globals named after the model: one name per run
            verdict = runner._evaluate_single_multi_turn_entry(
                case["handler"], entry["id"], copy.deepcopy(case["result"]),
                entry["gold_turns"], prompt, f"{case['model']}-{category}", f"multi_turn_{category}")
            theirs = (bool(verdict["valid"]), (verdict.get("error") or {}).get("error_type"))
            mine = ours[(case["model"], entry["id"])]
            rows.append((f"multi_turn_{category}", case["shape"], case["kind"], entry["id"], theirs,
                         {"valid": mine["bfcl_valid"], "error_type": mine["bfcl_error_type"]}))
    return rows


# --- report ----------------------------------------------------------------------------------

def _agrees(theirs, mine) -> bool:
    if isinstance(mine, str):
        return False
    if "valid" in mine:   # multi-turn: the same verdict and the same error type
        return (mine["valid"], mine["error_type"]) == theirs
    return (mine["outcome"] == "correct") == theirs[0] and mine["decided"]


def _cause(theirs, mine) -> str:
    if isinstance(mine, str):
        return mine
    if "valid" in mine:
        return f"BFCL {theirs[1] or 'valid'} / callscore {mine['error_type'] or 'valid'}"
    if not mine["decided"]:
        return f"callscore leaves it undecided: {mine['uncertain_reason'] or mine['rule']}"
    ours = mine["outcome"] + (f"/{mine['subtype']}" if mine["subtype"] else "")
    return f"BFCL {theirs[1] or 'valid'} / callscore {ours} ({mine['rule']})"


def report(rows):
    print(f"== BFCL v4 ({BFCL_EVAL}) generated results: agreement on ALL rows (an undecided row or a "
          "refused file counts as a disagreement)")
    table = collections.defaultdict(lambda: [0, 0])
    for category, shape, _kind, _id, theirs, mine in rows:
        for key in ((category, shape), (category, "all"), ("ALL", shape), ("ALL", "all")):
            table[key][0] += _agrees(theirs, mine)
            table[key][1] += 1

    def cell(category, shape):
        agree, total = table.get((category, shape), (0, 0))
        return f"{total:>6} {100 * agree / total:>7.2f} %" if total else f"{'-':>6} {'-':>9}"

    columns = (*SHAPES, *HANDLER_SHAPES, "all")
    print(f"   {'category':<28} " + "   ".join(f"{shape:>6} {'agree':>9}" for shape in columns))
    categories = sorted({category for category, _shape in table if category != "ALL"}) + ["ALL"]
    for category in categories:
        print(f"   {category:<28} " + "   ".join(cell(category, shape) for shape in columns))
    causes = collections.defaultdict(list)
    for category, shape, kind, row_id, theirs, mine in rows:
        if not _agrees(theirs, mine):
            causes[(category, shape, _cause(theirs, mine))].append(f"{row_id} ({kind})")
    print("\n== Disagreements by cause (category, shape: BFCL's verdict / callscore's)")
    if not causes:
        print("   none")
    for (category, shape, cause), examples in sorted(causes.items(), key=lambda item: (-len(item[1]), item[0])):
        print(f"   {len(examples):>5}  {category} {shape}: {cause}; e.g. {examples[0]}")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--entries", type=int, default=None, help="Only the first N questions of each category.")
    parser.add_argument("--skip", action="append", default=[], choices=("single", "multi"))
    options = parser.parse_args(argv)
    reason = bfcl_multi_turn.missing_reason()
    if reason:
        raise SystemExit(reason)
    rows = []
    if "single" not in options.skip:
        rows += single_rows(options.variants, options.seed, options.entries)
    if "multi" not in options.skip:
        rows += multi_rows(options.variants, options.seed, options.entries)
    report(rows)
    if UNGENERATED:
        print(f"\n   not generated (a possible answer holding a value outside an accepted-value list): "
              f"{', '.join(UNGENERATED)}")


if __name__ == "__main__":
    main()
