"""The LLM-judge pre-filter: judge-ready records for the rows the rules could not decide, and
validation of the judge's answers before they are folded back (`score merge-judge`).

callscore never calls a model itself: it writes what a judge needs, including the prompt
(template `rules/judge_prompt.txt`, overridable), and checks what comes back.
"""

from __future__ import annotations

import json
import math
import os
import re
from pathlib import Path
from typing import Iterator

import pyarrow as pa
import pyarrow.compute as pc

from scorer import vocab
from scorer.load import json_lines
from scorer.outputs import open_partial
from scorer.parse import canonical_json
from scorer.rules import rules_dir

TEMPLATE_NAME = "judge_prompt.txt"
_ROWS_AT_ONCE = 1024   # verdict rows turned into Python objects at a time
NOT_GIVEN = "(not given)"

# Ideographs, kana, hangul and CJK punctuation/full-width forms: about 1.5 characters a token.
_CJK = re.compile(
    "[\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]"
)


def estimate_tokens(text: str) -> int:
    """A tokenizer-free estimate: CJK characters / 1.5 + other characters / 4, rounded up.

    BPE tokenizers spend roughly 4 characters of English or JSON per token and 1 to 2 Chinese
    characters per token; the mix is weighted per character, so mixed text needs no switch."""
    cjk = len(_CJK.findall(text))
    return math.ceil(cjk / 1.5 + (len(text) - cjk) / 4)


def load_template(path=None) -> str:
    """The prompt template without its leading `#` comment lines."""
    path = Path(path) if path is not None else rules_dir() / TEMPLATE_NAME
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    while lines and lines[0].startswith("#"):
        lines.pop(0)
    return "".join(lines)


def taxonomy() -> dict:
    """outcome -> allowed subtypes (correct: [None]), in vocab order."""
    return {o: list(vocab.SUBTYPES[o]) or [None] for o in vocab.OUTCOMES}


def _dumps(value) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def _json_or_text(value):
    """A JSON string decoded, anything else (or undecodable text) as it is."""
    if not isinstance(value, str):
        return value
    try:
        return json.loads(value)
    except ValueError:
        return value


def _calls(value) -> list | None:
    """gold_calls / predicted calls as [{name, arguments: object}] from a list or JSON text."""
    value = _json_or_text(value)
    if not isinstance(value, list):
        return value
    return [
        {"name": call.get("name"), "arguments": _json_or_text(call.get("arguments"))}
        if isinstance(call, dict) else call
        for call in value
    ]


def _in_doubt(errors) -> list[dict]:
    return [
        {"call": e.get("call"), "argument": e.get("argument"), "gold": e.get("gold"),
         "predicted": e.get("predicted")}
        for e in errors or [] if e.get("kind") == "uncertain"
    ]


def undecided_records(verdicts: pa.Table, gold: pa.Table, predicted_calls=None,
                      template: str | None = None, kept=()) -> Iterator[dict]:
    """One judge-ready dict per verdict row with `decided` false (or null), in verdict order.

    `predicted_calls` yields the calls each of those rows' model made, in the same order (by
    position: repeated samples share a (model, id)); without it they are read from
    `normalized_pred`. `template` is the prompt text (default: the rules file). `kept` names
    prediction columns of the verdicts copied into each record's `kept`, so that an answer
    can be traced to its sample. Each record holds the prompt and its `estimated_tokens`."""
    template = load_template() if template is None else template
    undecided = verdicts.filter(pc.invert(pc.fill_null(verdicts.column("decided"), False)))
    if undecided.num_rows == 0:
        return
    wanted = gold.filter(pc.is_in(gold.column("id"), value_set=undecided.column("id").unique()))
    gold_by_id = {row["id"]: row for row in wanted.to_pylist()}
    allowed = _dumps(taxonomy())
    calls_in_order = iter(predicted_calls) if predicted_calls is not None else None
    for row in (row for chunk in undecided.to_batches(max_chunksize=_ROWS_AT_ONCE) for row in chunk.to_pylist()):
        gold_row = gold_by_id.get(row["id"], {})
        if calls_in_order is not None:
            predicted = _calls(next(calls_in_order))
        else:
            predicted = _calls(row.get("normalized_pred"))
        record = {
            "model": row["model"],
            "id": row["id"],
            "query": gold_row.get("query"),
            "tools": _json_or_text(gold_row.get("tools")),
            "gold_calls": _calls(gold_row.get("gold_calls")),
            "predicted_calls": predicted,
            "normalized_gold": _json_or_text(row.get("normalized_gold")),
            "normalized_pred": _json_or_text(row.get("normalized_pred")),
            "in_doubt": _in_doubt(row.get("errors")),
            "uncertain_reason": row.get("uncertain_reason"),
            "tentative": {"outcome": row["outcome"], "subtype": row["subtype"],
                          "argument": row.get("argument"), "detail": row.get("detail")},
        }
        if kept:
            record["kept"] = {name: row[name] for name in kept}
        record["prompt"] = template.format(
            query=record["query"] or NOT_GIVEN,
            tools=NOT_GIVEN if record["tools"] is None else _dumps(record["tools"]),
            gold_calls=_dumps(record["gold_calls"]),
            predicted_calls=_dumps(record["predicted_calls"]),
            normalized_gold=_dumps(record["normalized_gold"]),
            normalized_pred=_dumps(record["normalized_pred"]),
            in_doubt=_dumps(record["in_doubt"]),
            uncertain_reason=record["uncertain_reason"] or NOT_GIVEN,
            tentative_outcome=row["outcome"],
            tentative_subtype=row["subtype"] or "none",
            taxonomy=allowed,
            model_json=_dumps(row["model"]),
            id_json=_dumps(row["id"]),
        )
        record["estimated_tokens"] = estimate_tokens(record["prompt"])
        yield record


class UndecidedWriter:
    """Judge-ready records, streamed: written as JSON lines (sorted keys) to a temporary file
    renamed into place on success when a path is given, and always counted (rows, estimated
    prompt tokens) for the summary; never all held in memory."""

    def __init__(self, path=None):
        self.path = Path(path) if path else None
        self.temporary, self.handle = open_partial(self.path) if self.path else (None, None)
        self.rows = self.tokens = 0

    def add(self, records) -> None:
        for record in records:
            self.rows += 1
            self.tokens += record["estimated_tokens"]
            if self.handle:
                self.handle.write(canonical_json(record).encode() + b"\n")

    def close(self) -> tuple[int, int]:
        """(rows, estimated tokens) written."""
        if self.handle:
            self.handle.close()
            os.replace(self.temporary, self.path)
        return self.rows, self.tokens

    def abort(self) -> None:
        if self.handle:
            self.handle.close()
            self.temporary.unlink(missing_ok=True)


def validate_answer(answer) -> dict:
    """A judge answer checked for shape and vocabulary -> {model, id, outcome, subtype,
    argument, reason, kept}. Raises ValueError with the reason; extra keys are ignored."""
    if not isinstance(answer, dict):
        raise ValueError(f"expected a JSON object, got {type(answer).__name__}")
    for key in ("model", "id", "outcome"):
        if key not in answer:
            raise ValueError(f"missing key {key!r}")
    model, row_id = answer["model"], answer["id"]
    if not isinstance(model, str):
        raise ValueError("'model' must be a string")
    if isinstance(row_id, int) and not isinstance(row_id, bool):
        row_id = str(row_id)
    if not isinstance(row_id, str):
        raise ValueError("'id' must be a string")
    outcome, subtype = answer["outcome"], answer.get("subtype")
    if outcome not in vocab.OUTCOMES:
        raise ValueError(f"outcome {outcome!r} is not one of {', '.join(vocab.OUTCOMES)}")
    if outcome == vocab.CORRECT:
        if subtype is not None:
            raise ValueError(f"outcome correct takes subtype null, got {subtype!r}")
    elif subtype not in vocab.SUBTYPES[outcome]:
        raise ValueError(
            f"subtype {subtype!r} is not one of {outcome}: {', '.join(vocab.SUBTYPES[outcome])}")
    for key in ("argument", "reason"):
        if answer.get(key) is not None and not isinstance(answer[key], str):
            raise ValueError(f"{key!r} must be a string or null")
    kept = answer.get("kept")
    if kept is not None and not isinstance(kept, dict):
        raise ValueError("'kept' must be an object (the record's `kept`) or null")
    return {"model": model, "id": row_id, "outcome": outcome, "subtype": subtype,
            "argument": answer.get("argument"), "reason": answer.get("reason"), "kept": kept or None}


def describe(answer: dict) -> str:
    """The row an answer names, for messages."""
    kept = "" if answer["kept"] is None else f" kept {kept_json(answer['kept'])}"
    return f"model {answer['model']} id {answer['id']}{kept}"


def answer_key(answer: dict) -> tuple:
    """(model, id, kept as sorted JSON or None): the row an answer is for. Repeated samples of
    one (model, id) differ only in their kept columns, which the answer echoes from its record."""
    return answer["model"], answer["id"], None if answer["kept"] is None else kept_json(answer["kept"])


def kept_json(kept: dict) -> str:
    """Kept column values as one comparable text (sorted keys)."""
    return _dumps(kept)


def check_fits_row(answer: dict, positive: bool) -> None:
    """An answer must be possible for its row: a negative row (gold []) is correct or
    over_recall by its negative type; a positive row's over_recall is extra_call."""
    outcome, subtype = answer["outcome"], answer["subtype"]
    if positive and outcome == vocab.OVER_RECALL and subtype != vocab.EXTRA_CALL:
        raise ValueError(f"over_recall/{subtype} needs a row whose gold is []; this row has calls")
    if not positive and (outcome in (vocab.MISS_RECALL, vocab.PARAM_ERROR)
                         or subtype == vocab.EXTRA_CALL):
        raise ValueError(f"{outcome}/{subtype} needs gold calls; this row's gold is []")


def read_answers(path) -> tuple[list[tuple[int, dict]], list[tuple[int, str]]]:
    """A judge JSONL file -> ([(line, validated answer)], [(line, problem)]); blank lines skipped.
    A later answer for the same row (answer_key) is a problem naming the first one's line."""
    answers, problems, first_line = [], [], {}
    for number, decoded, problem in json_lines(path):
        if problem is not None:
            problems.append((number, problem))
            continue
        try:
            answer = validate_answer(decoded)
        except ValueError as error:
            problems.append((number, str(error)))
            continue
        key = answer_key(answer)
        if key in first_line:
            problems.append((number, f"second answer for {describe(answer)} (first on line {first_line[key]})"))
            continue
        first_line[key] = number
        answers.append((number, answer))
    return answers, problems
