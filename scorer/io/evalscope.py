"""EvalScope's run files, read as evalscope 1.14.1 writes them, for `acebench`, `bfcl_v3` and
`bfcl_v4` (`--pred-format evalscope`).

A run writes, per model and subset, `predictions/<model>/<benchmark>_<subset>.jsonl` (one
ModelResult per sample: `index`, `model`, `model_output` with the answer as the first choice's
message, `metadata` = the benchmark's record) and `reviews/<model>/<benchmark>_<subset>.jsonl`
(one ReviewResult: `index`, `target`, `messages`, `sample_score` = {`score`: {`value`:
{"acc": ...}, `status`, `prediction`, `metadata`, `main_score_name`}, `sample_metadata` = the
record}). The record's `id` is the benchmark's own id, the one callscore's ACEBench and BFCL
gold readers give; EvalScope's `index` is only its position.

The answer is the prediction text:
- ACEBench (normal, special): the model's text, `[ApiName(key=value)]`;
- BFCL v4: `json.dumps` of the result BFCL's own handler returned (an FC model's
  `[{name: arguments JSON}]`, a prompt model's text; multi-turn: per turn, the steps);
- BFCL v3: `json.dumps` of EvalScope's own generation, a list per turn of the items the model
  gave (`{name: arguments}` objects, texts); a single-turn sample is its one turn.

Beside each prediction, EvalScope's own verdict: `evalscope_score` (the main score, null when
EvalScope did not score the sample: a status other than success or fallback leaves it out of
its averages), `evalscope_status` and `evalscope_error_type`; carry them into the verdicts with
`--keep evalscope_score` (and the others). Samples `score` cannot take are skipped and named:
no record id (a run with metadata saving off), ACEBench agent samples (scored on their end
state, which these files do not hold whole), BFCL multi-turn samples (`score dialogue` reads
them: `multi_turn_rows`).
"""

import json
from pathlib import Path

import pyarrow as pa

from scorer import load
from scorer.io.bfcl import _rename, _result_calls, _undotted, convert_tools, read_json_lines
from scorer.tables import PREDICTIONS

BENCHMARKS = ("acebench", "bfcl_v3", "bfcl_v4")
CARRIED = pa.schema([("evalscope_score", pa.float64()), ("evalscope_status", pa.string()),
                     ("evalscope_error_type", pa.string())])
_SCORED = ("success", "fallback")   # the statuses whose score enters EvalScope's averages


def is_evalscope_record(record: dict) -> bool:
    """A ReviewResult or ModelResult row, as EvalScope writes them."""
    return "index" in record and isinstance(record.get("sample_score") or record.get("model_output"), dict)


def benchmark_of(path) -> str:
    """The benchmark a run file belongs to, from its name `<benchmark>_<subset>.jsonl`."""
    stem = Path(path).stem
    return next((name for name in BENCHMARKS if stem.startswith(name + "_")), "")


def _message_text(message: dict) -> str | None:
    content = message.get("content")
    if isinstance(content, list):   # content parts: the text ones, in order
        content = "".join(part.get("text") or "" for part in content if isinstance(part, dict))
    return content if isinstance(content, str) else None


def sample_of(row: dict) -> dict:
    """One run row -> {record, text, score, status, error_type}: the benchmark record, the
    prediction text and EvalScope's verdict (None in a predictions file)."""
    sample_score = row.get("sample_score")
    if isinstance(sample_score, dict):
        score = sample_score.get("score") or {}
        values = score.get("value") or {}
        main = score.get("main_score_name") or next(iter(values), None)
        status = score.get("status") or "success"
        details = score.get("metadata") or {}
        error_type = details.get("error_type") or (details.get("raw_score_result") or {}).get("error_type")
        value = values.get(main) if status in _SCORED else None
        return {"record": sample_score.get("sample_metadata") or {}, "text": score.get("prediction"),
                "score": None if value is None else float(value), "status": status,
                "error_type": None if error_type in (None, "", "None") else error_type}   # v4 writes str(None)
    choices = (row.get("model_output") or {}).get("choices") or [{}]
    return {"record": row.get("metadata") or {}, "text": _message_text(choices[0].get("message") or {}),
            "score": None, "status": None, "error_type": None}


def bfcl_result(benchmark: str, record: dict, text):
    """The BFCL result (as BFCL's result files hold it) in a BFCL sample's prediction text, or
    a malformed reason (str) inside a one-item tuple."""
    try:
        result = json.loads(text) if isinstance(text, str) else None
    except json.JSONDecodeError as error:
        return (f"the prediction is not JSON ({error.msg})",)
    if result is None:
        return ("no prediction",)
    if isinstance(result, dict):   # EvalScope records a failed inference as {error, error_message}
        return (f"inference failed: {result.get('error')}",)
    if benchmark == "bfcl_v3" and not _is_multi_turn(record):
        if not (isinstance(result, list) and len(result) == 1 and isinstance(result[0], list)):
            return ("a single-turn generation must be one turn",)
        return result[0]
    return result


def _is_multi_turn(record: dict) -> bool:
    return bool(record.get("multi_turn")) or str(record.get("id", "")).startswith("multi_turn")


def _skip_reason(benchmark: str, record: dict) -> str | None:
    if not record.get("id"):
        return "no record id (the run saved no sample metadata)"
    if benchmark == "acebench" and "agent" in str(record.get("test_category", "")):
        return "an ACEBench agent sample (scored on its end state)"
    if benchmark.startswith("bfcl") and _is_multi_turn(record):
        return "a BFCL multi-turn sample (score dialogue reads it)"
    return None


def read_evalscope(path, model: str, unreadable: load.Unreadable | None = None, renamed_dots=False) -> pa.Table:
    """An EvalScope predictions or reviews file -> a predictions table (PREDICTIONS columns,
    then CARRIED). Rows name the model the run does (a predictions row's `model`), else
    `model`; samples that cannot be scored here go to `unreadable` with the reason.
    `renamed_dots`: the run sent BFCL's functions with `.` as `_` (its `underscore_to_dot`,
    on by default, which the files do not record): `math_factorial` is read as the record's
    declared `math.factorial`."""
    benchmark = benchmark_of(path)
    columns = {name: [] for name in (*PREDICTIONS.names, *CARRIED.names)}
    for number, row in read_json_lines(path):
        sample = sample_of(row) if isinstance(row, dict) else None
        record = sample["record"] if sample else {}
        reason = "not an EvalScope row" if sample is None else _skip_reason(benchmark, record)
        if reason:
            if unreadable is not None:
                unreadable.lines.append((number, reason))
            continue
        calls, output, malformed = None, None, None
        if benchmark.startswith("bfcl"):
            result = bfcl_result(benchmark, record, sample["text"])
            if isinstance(result, tuple):
                malformed = result[0]
            elif isinstance(result, list):
                calls, output, malformed = _result_calls(result, path, number)
            else:
                output = str(result)
            if renamed_dots and not malformed:
                declared = [tool["name"] for tool in convert_tools(record.get("function") or record.get("functions") or [])]
                calls = _rename(calls, output, _undotted(declared))
        else:
            output = sample["text"]
        columns["id"].append(str(record["id"]))
        columns["model"].append(str(row.get("model") or model))
        columns["calls"].append(calls)
        columns["output"].append(output)
        columns["malformed"].append(malformed)
        for name, key in zip(CARRIED.names, ("score", "status", "error_type")):
            columns[name].append(sample[key])
    return pa.table(columns, schema=pa.schema([*PREDICTIONS, *CARRIED]))


def multi_turn_rows(path, model: str) -> list:
    """The BFCL multi-turn samples of an EvalScope run file as BFCL result rows {id, model,
    result}, EvalScope's verdict beside (CARRIED names)."""
    benchmark = benchmark_of(path)
    rows = []
    for _number, row in read_json_lines(path):
        sample = sample_of(row) if isinstance(row, dict) else None
        if sample is None or not _is_multi_turn(sample["record"]) or not sample["record"].get("id"):
            continue
        result = bfcl_result(benchmark, sample["record"], sample["text"])
        rows.append({"id": str(sample["record"]["id"]), "model": str(row.get("model") or model),
                     "result": None if isinstance(result, tuple) else result,
                     **{name: sample[key] for name, key in zip(CARRIED.names, ("score", "status", "error_type"))}})
    return rows
