"""A compatibility mode's verdicts written into callscore's verdict columns.

The pipeline scores a batch of distinct predictions as usual (so every column exists and is
filled the same way); `BfclVerdicts.apply` then replaces the columns that carry the verdict
(outcome, subtype, detail, errors, rule, decided, uncertain_reason; argument and tool are
cleared) with BFCL's. An invalid row's subtype is read from BFCL's error type: decoding ->
malformed, a wrong count -> partial calls / no call / extra call, a wrong name -> wrong tool, a
missing parameter -> missing_arg, any other type or value error -> incorrect_value; a call
decoded on a relevance row is over recall. Rows the mode does not reproduce keep callscore's tentative verdict, undecided.
"""

import json

import orjson
import pyarrow as pa

from scorer import vocab
from scorer.compat import bfcl, bfcl_models
from scorer.io.bfcl import BFCL_ANSWER_CALLS, BFCL_VERSION
from scorer.tables import VERDICTS_FIXED

_SUBTYPE_OF = (  # BFCL error type (prefix, suffix or cause) -> callscore subtype
    ("ast_decoder:", vocab.MALFORMED), ("relevance_error:decoder_failed", vocab.NO_CALL),
    (":wrong_func_name", vocab.WRONG_TOOL), (":missing_required", vocab.MISSING_ARG),
    (":missing_optional", vocab.MISSING_ARG), ("value_error:dict_key", vocab.INCORRECT_VALUE),
)
_OUTCOME_OF = {vocab.MALFORMED: vocab.MISS_RECALL, vocab.NO_CALL: vocab.MISS_RECALL,
               vocab.WRONG_TOOL: vocab.MISS_RECALL, vocab.PARTIAL_CALLS: vocab.MISS_RECALL,
               vocab.MISSING_ARG: vocab.PARAM_ERROR, vocab.INCORRECT_VALUE: vocab.PARAM_ERROR,
               vocab.EXTRA_CALL: vocab.OVER_RECALL}
_REPLACED = ("outcome", "subtype", "argument", "tool", "detail", "errors", "rule", "decided", "uncertain_reason")


def subtype_of(verdict: bfcl.Verdict, gold_calls: int, negative_type) -> tuple:
    """(outcome, subtype) for an invalid BFCL verdict."""
    kind = verdict.error_type or ""
    if kind == "relevance_error:decoder_success":
        return vocab.OVER_RECALL, negative_type or vocab.UNSPECIFIED
    if kind.endswith(":wrong_count"):
        subtype = (vocab.NO_CALL if not verdict.decoded else
                   vocab.PARTIAL_CALLS if verdict.decoded < gold_calls else vocab.EXTRA_CALL)
        return _OUTCOME_OF[subtype], subtype
    for name in (kind, verdict.cause or ""):
        for mark, subtype in _SUBTYPE_OF:
            if mark in name:
                return _OUTCOME_OF[subtype], subtype
    return vocab.PARAM_ERROR, vocab.INCORRECT_VALUE


def _rebuilt(value: dict) -> tuple:
    """(category, functions, possible answers, negative type, answer entries) of one gold row."""
    tools = value.get("tools")
    tools = json.loads(tools) if isinstance(tools, str) else (tools or [])
    functions = bfcl.functions_from_tools(tools)
    calls = value.get("gold_calls") or []
    answers = [{call["name"]: {param: bfcl.accepted_values(accepted)
                               for param, accepted in json.loads(call["arguments"]).items()}}
               for call in calls]
    category = bfcl.category_of_row(value.get("category"), calls, functions, value.get("expect"))
    return category, functions, answers, value.get("negative_type"), value.get(BFCL_ANSWER_CALLS)


class BfclVerdicts:
    """BFCL's verdicts for the rows of one gold table; per gold row, its functions, possible
    answers and category are rebuilt once. `version`: the BFCL version to reproduce (a
    `--compat bfcl@VERSION`); else the one the gold file's name told (scorer.io.bfcl), else the
    latest reproduced."""

    def __init__(self, gold_table: pa.Table, renamed_dots: bool = False, version: str | None = None):
        self.columns = {name: gold_table.column(name) for name in
                        ("tools", "gold_calls", "category", "expect", "negative_type", BFCL_ANSWER_CALLS)
                        if name in gold_table.column_names}
        self.renamed_dots = renamed_dots
        told = (gold_table.schema.metadata or {}).get(BFCL_VERSION, b"").decode()
        self.version = bfcl_models.run_of(version) if version else told or bfcl_models.latest()
        self._rows = {}
        self._contents = {}   # a gold row's content -> its rebuilt form: gold rows of one question repeat it
        self._values = None

    def _gold(self, g_row: int):
        found = self._rows.get(g_row)
        if found is None:
            if self._values is None:   # columns read into Python once, not a scalar at a time
                self._values = {name: column.to_pylist() for name, column in self.columns.items()}
            value = {name: values[g_row] for name, values in self._values.items()}
            content = orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
            found = self._contents.get(content)
            if found is None:
                found = self._contents[content] = _rebuilt(value)
            self._rows[g_row] = found
        return found

    def judge(self, g_row: int, model: str, calls, output, malformed) -> bfcl.Verdict:
        category, functions, answers, _negative, entries = self._gold(g_row)
        decoded_calls = None if calls is None else [(call["name"], json.loads(call["arguments"])) for call in calls]
        renamed = self.renamed_dots or bool(bfcl_models.underscore_to_dot(model or "", self.version))  # BFCL's setting per model
        return bfcl.judge(category, functions, answers, model or "", decoded_calls, output, malformed, renamed,
                          self.version, entries)

    def apply(self, verdicts: pa.RecordBatch, firsts: pa.RecordBatch, g_rows) -> pa.RecordBatch:
        """`verdicts` (callscore's, for the distinct predictions `firsts`) with BFCL's verdict."""
        replaced = {name: verdicts.column(name).to_pylist() for name in _REPLACED}
        for row, (g_row, model, calls, output, malformed) in enumerate(zip(
                g_rows, firsts.column("model").to_pylist(), firsts.column("calls").to_pylist(),
                firsts.column("output").to_pylist(), firsts.column("malformed").to_pylist())):
            verdict = self.judge(int(g_row), model, calls, output, malformed)
            if verdict.valid is None:
                replaced["decided"][row] = False
                replaced["uncertain_reason"][row] = verdict.message
                continue
            _category, _functions, answers, negative, entries = self._gold(int(g_row))
            outcome, subtype = (vocab.CORRECT, None) if verdict.valid else subtype_of(
                verdict, entries or len(answers), negative)
            replaced["outcome"][row], replaced["subtype"][row] = outcome, subtype
            replaced["detail"][row] = verdict.message  # BFCL's message names what failed; callscore's
            replaced["argument"][row] = replaced["tool"][row] = None  # argument and tool may point elsewhere
            replaced["errors"][row] = [] if verdict.valid else [
                {"call": -1, "argument": None, "kind": subtype, "gold": None, "predicted": verdict.error_type}]
            replaced["rule"][row] = f"bfcl.{verdict.error_type or 'valid'}"
            replaced["decided"][row], replaced["uncertain_reason"][row] = True, None
        for name in _REPLACED:
            index = verdicts.schema.get_field_index(name)
            verdicts = verdicts.set_column(index, name, pa.array(replaced[name], VERDICTS_FIXED.field(name).type))
        return verdicts
