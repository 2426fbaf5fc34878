"""One entry point per side for every input format callscore reads, so the CLI's
`--gold-format` / `--pred-format` need not know any reader.

Gold formats: `callscore` (scorer.load), `bfcl` (question file; its answers are
`possible_answer/<same name>` beside it, BFCL's layout, unless `answers=` is given),
`acebench` (data file; answers likewise beside it).
Prediction formats: `callscore`, `bfcl` and `acebench` (both publish `{id, result}` rows),
`evalscope` (EvalScope's prediction and review files, scorer.io.evalscope), the provider dumps `openai` (Chat Completions), `responses`, `anthropic`, `gemini`, `qwen`
(raw `<tool_call>` text) and `provider` (the provider told per record).

`auto` looks at the first record and picks a format only when exactly one fits; otherwise it
raises an InputError that names the file and asks for --gold-format / --pred-format.
"""

from pathlib import Path

import orjson
import pyarrow as pa

from scorer import load
from scorer.errors import InputError
from scorer.io.acebench import read_acebench_gold
from scorer.io.bfcl import category_of, model_of_result, read_bfcl_gold, read_bfcl_results
from scorer.io.evalscope import is_evalscope_record, read_evalscope
from scorer.io.providers import DEFAULT_MODEL, detect_provider, read_provider_dump

GOLD_FORMATS = ("auto", "callscore", "bfcl", "acebench")
# format name -> scorer.io.providers provider (None: told per record)
PROVIDER_FORMATS = {"openai": "openai_chat", "responses": "openai_responses", "anthropic": "anthropic",
                    "gemini": "gemini", "qwen": "text", "provider": None}
PRED_FORMATS = ("auto", "callscore", "bfcl", "acebench", "evalscope", *PROVIDER_FORMATS)
_BFCL_NEGATIVES_WITHOUT_ANSWERS = ("irrelevance", "live_irrelevance", "relevance", "live_relevance")


def first_record(path: Path) -> dict:
    """The first JSON object of a JSON-lines file (only its first line is read: detection
    must not read a large file twice), a JSON array or a single JSON document."""
    try:
        with open(path, "rb") as handle:
            line = next((line for line in map(load.without_bom, handle) if line.strip()), b"")
    except OSError as error:
        raise InputError(path, f"cannot read: {error.strerror or error}") from None
    if not line:
        raise InputError(path, "empty file")
    try:
        first = orjson.loads(line)
    except orjson.JSONDecodeError:
        try:
            first = orjson.loads(load.without_bom(path.read_bytes()))  # one document, several lines
        except orjson.JSONDecodeError as error:
            # JSON Lines whose first line is bad: the first line that reads decides the format
            first = next((value for _n, value, problem in load.json_lines(path) if problem is None), None)
            if first is None:
                raise InputError(path, f"not valid JSON ({error.msg})", row=error.lineno) from None
    if isinstance(first, list):
        if not first:
            raise InputError(path, "empty JSON array")
        first = first[0]
    if not isinstance(first, dict):
        raise InputError(path, "expected JSON objects", row=1)
    return first


def _ask(path, side: str, candidates) -> InputError:
    flag = "--gold-format" if side == "gold" else "--pred-format"
    known = GOLD_FORMATS if side == "gold" else PRED_FORMATS
    if candidates:
        what = f"could be {' or '.join(candidates)}"
    else:
        what = f"not a {side} format callscore recognises"
    return InputError(path, f"{what}; say which with {flag} ({', '.join(known[1:])})")


def detect_gold(path) -> str:
    """"callscore", "bfcl" or "acebench" when exactly one fits the first record."""
    path = Path(path)
    if path.suffix.lower() == ".parquet":
        return "callscore"
    first = first_record(path)
    candidates = []
    if "gold_calls" in first:
        candidates.append("callscore")
    if {"question", "function"} <= first.keys():
        question = first["question"]
        acebench = bool({"time", "profile"} & first.keys()) or (
            isinstance(question, str) and question.lstrip().startswith("user:"))
        candidates.append("acebench" if acebench else "bfcl")
    if not candidates and "ground_truth" in first:
        raise InputError(path, "this is an answer file: give the question/data file as gold "
                               "(its possible_answer/ file is found beside it)")
    if not candidates and "id" in first:
        return "callscore"  # an id and no benchmark's keys: callscore's loader names what is missing
    if len(candidates) != 1:
        raise _ask(path, "gold", candidates)
    return candidates[0]


def detect_predictions(path) -> str:
    """"callscore", "bfcl", "evalscope" or "provider" when exactly one fits the first record."""
    path = Path(path)
    if path.suffix.lower() == ".parquet":
        return "callscore"
    first = first_record(path)
    candidates = []
    if "calls" in first or isinstance(first.get("output"), str):
        candidates.append("callscore")
    if isinstance(first.get("result"), (list, str)):
        candidates.append("bfcl")  # ACEBench result files have the same shape
    if is_evalscope_record(first):
        candidates.append("evalscope")
    provider = detect_provider(first)
    if provider is not None and provider != "text":
        candidates.append("provider")  # raw-text records are callscore's `output` rows already
    if len(candidates) != 1:
        raise _ask(path, "predictions", candidates)
    return candidates[0]


def read_gold(path, fmt: str = "auto", answers=None) -> pa.Table:
    """A gold file of format `fmt` -> a gold table (GOLD_FIXED columns first, then the
    columns each reader carries). `answers`: the BFCL/ACEBench possible-answer file, when it
    is not at `possible_answer/<same name>` beside `path`."""
    path = Path(path)
    if fmt not in GOLD_FORMATS:
        raise InputError(path, f"unknown gold format {fmt!r}; one of {', '.join(GOLD_FORMATS)}")
    if not path.is_file():
        raise InputError(path, "no such file")
    if fmt == "auto":
        fmt = detect_gold(path)
    if answers is not None and fmt == "callscore":
        raise InputError(path, "an answers file goes with a BFCL or ACEBench gold file, not a callscore one")
    if fmt == "callscore":
        return load.read_gold_table(path)
    beside = path.parent / "possible_answer" / path.name
    if fmt == "acebench":
        return read_acebench_gold(path, answers or beside)
    if answers is None and beside.is_file():
        answers = beside
    if answers is None and category_of(path) not in _BFCL_NEGATIVES_WITHOUT_ANSWERS:
        raise InputError(path, f"no possible-answer file at {beside}; give it with answers=")
    return read_bfcl_gold(path, answers)


def read_predictions(path, fmt: str = "auto", model=None, gold_path=None, renamed_dots=False,
                     unreadable: load.Unreadable | None = None) -> pa.Table:
    """A prediction file of format `fmt` -> a predictions table (id, model, calls, output,
    malformed). `model` names the rows that do not name one themselves (BFCL/ACEBench rows
    never do: default the result file's model folder, BFCL's `result/<model>/` layout, above
    bfcl-eval's group folders `result/<model>/<group>/`).
    `gold_path`: the BFCL question file, which BFCL result rows without an id are paired with
    by position and which `renamed_dots` (BFCL sent the model `math_factorial` for
    `math.factorial`) needs for the declared names. `unreadable` collects the lines of a
    callscore JSON-lines file that are skipped because they are not JSON objects."""
    path = Path(path)
    if fmt not in PRED_FORMATS:
        raise InputError(path, f"unknown prediction format {fmt!r}; one of {', '.join(PRED_FORMATS)}")
    if not path.is_file():
        raise InputError(path, "no such file")
    if fmt == "auto":
        fmt = detect_predictions(path)
    if fmt == "callscore":
        batches = list(load.iter_prediction_batches(path, unreadable=unreadable))
        table = pa.Table.from_batches(batches) if batches else pa.table({})
        return _default_model(table, model)
    if fmt == "evalscope":   # reviews/<model>/<benchmark>_<subset>.jsonl
        return read_evalscope(path, model or path.parent.name, unreadable, renamed_dots)
    if fmt in ("bfcl", "acebench"):
        return read_bfcl_results(path, model or model_of_result(path), question_path=gold_path,
                                 renamed_dots=renamed_dots, notes=None if unreadable is None else unreadable.notes)
    table = read_provider_dump(path, PROVIDER_FORMATS[fmt])
    return _default_model(table, model)


def _default_model(table: pa.Table, model) -> pa.Table:
    """Rows that name no model (theirs fell back to the default `model`) get `model`."""
    if model is None or table.num_rows == 0:
        return table
    names = [model if name in (None, DEFAULT_MODEL) else name for name in table.column("model").to_pylist()]
    return table.set_column(table.schema.get_field_index("model"), "model", pa.array(names, pa.string()))
