"""ACEBench files (zh and en) -> callscore gold.

A data file (`data_normal_*`, `data_special_*`) is paired by `id` with its
`possible_answer/` file. Normal rows (single/multi-turn, similar_api, preference, atom_*)
become gold calls: `{api_name: {arg: value}}` is one call per key (ACEBench suffixes repeated
calls `_1`, `_2` like BFCL), a list of such objects lists alternative answers, merged into one
answer with `$any` / `$optional` arguments. The `time` field becomes `reference_time`, the
start of that day at +08:00 for both languages: ACEBench states no zone, its en data are
translations of the zh data written in China, and a day needs no finer time.

Special rows expect a diagnostic reply, not a call: `gold_calls` is [] with negative_type
`needs_clarification` (incomplete, error_param) or `no_tool` (irrelevant), and
`expect_mentions` lists what the reply must name (the missing parameters, the wrong values),
which the scorer checks (README: Inputs). Carried for reference: `special_kind` and
`special_expect`, a JSON object: {"api": name, "missing": [params]} for incomplete,
{"wrong_values": {param: [values]}} for error_param, {"reply": text} for irrelevant.
The agent subset (stateful multi-step tasks) is scored by `score dialogue` (scorer/agent.py), not
here: this reader refuses it. Multi-turn rows are read here as single rows; `score dialogue`
reads the same files as dialogues (scorer/dialogue.py).
"""

import json
import re
from pathlib import Path

import pyarrow as pa

from scorer.errors import InputError
from scorer.io.bfcl import convert_tools, declared_name, question_id, read_json_lines
from scorer.tables import GOLD_FIXED

_MONTHS = {name: number for number, name in enumerate(
    ("january", "february", "march", "april", "may", "june", "july", "august", "september",
     "october", "november", "december"), start=1)}
_DATE_PATTERNS = (
    re.compile(r"(?P<y>\d{4})\s*年\s*(?P<m>\d{1,2})\s*月\s*(?P<d>\d{1,2})\s*日"),
    re.compile(r"(?P<y>\d{4})-(?P<m>\d{1,2})-(?P<d>\d{1,2})"),
    re.compile(r"(?P<month>[A-Za-z]+)\s+(?P<d>\d{1,2}),\s*(?P<y>\d{4})"),
)
_OFFSET = "+08:00"
_SPECIAL_KINDS = ("incomplete", "error_param", "irrelevant")
_NEGATIVE_TYPE = {"irrelevant": "no_tool", "incomplete": "needs_clarification", "error_param": "needs_clarification"}
_ABSENT = "\0absent"  # marks an argument an alternative leaves out


def reference_time(text) -> str | None:
    """ACEBench's `time` sentence -> ISO 8601 start of that day at +08:00, or None if empty.
    Raises ValueError when a non-empty sentence names no date."""
    if not text:
        return None
    for pattern in _DATE_PATTERNS:
        for match in pattern.finditer(text):
            fields = match.groupdict()
            month = _MONTHS.get(fields["month"].lower()) if fields.get("month") else int(fields["m"])
            if month is None:
                continue
            year, day = int(fields["y"]), int(fields["d"])
            return f"{year:04d}-{month:02d}-{day:02d}T00:00:00{_OFFSET}"
    raise ValueError(f"no date in {text!r}")


def _category(path) -> str:
    return Path(path).name.removesuffix(".json").removesuffix(".jsonl").removeprefix("data_")


def _language(path) -> str | None:
    for part in reversed(Path(path).resolve().parts):
        if part in ("data_zh", "data_en"):
            return part.removeprefix("data_")
    return None


def _dumps(value) -> str:
    return json.dumps(value, ensure_ascii=False)


def _calls(answer, declared, path, row):
    if not isinstance(answer, dict) or not all(isinstance(args, dict) for args in answer.values()):
        raise InputError(path, "ground_truth must map api names to argument objects", row=row, field="ground_truth")
    return [(declared_name(name, declared), args) for name, args in answer.items()]


def _merge_alternatives(alternatives, path, row):
    """Alternative answers -> one answer: per argument, values that differ become `$any`,
    an argument some alternatives leave out becomes `$optional`. Exact only when the
    alternatives differ in one argument per call (true of every ACEBench row); otherwise
    the merge would accept mixtures no alternative allows, so it is refused."""
    if len({tuple(name for name, _ in calls) for calls in alternatives}) != 1:
        raise InputError(path, "alternative answers call different apis", row=row, field="ground_truth")
    merged = []
    for index, (name, _) in enumerate(alternatives[0]):
        versions = [calls[index][1] for calls in alternatives]
        keys = list(dict.fromkeys(key for version in versions for key in version))
        differing = [key for key in keys if len({_dumps(v.get(key, _ABSENT)) for v in versions}) > 1]
        if len(differing) > 1:
            raise InputError(path, f"alternative answers differ in several arguments of {name!r}",
                             row=row, field="ground_truth")
        arguments = {}
        for key in keys:
            values = [v[key] for v in versions if key in v]
            distinct = list({_dumps(value): value for value in values}.values())
            value = distinct[0] if len(distinct) == 1 else {"$any": distinct}
            arguments[key] = {"$optional": value} if len(values) < len(versions) else value
        merged.append((name, arguments))
    return merged



def _special_expect(kind, answer, path, row):
    if kind == "irrelevant":
        return {"reply": answer if isinstance(answer, str) else _dumps(answer)}
    if not isinstance(answer, dict) or not all(isinstance(v, list) for v in answer.values()):
        raise InputError(path, f"{kind} ground_truth must map names to lists", row=row, field="ground_truth")
    if kind == "error_param":
        return {"wrong_values": {param: list(values) for param, values in answer.items()}}
    if len(answer) != 1:
        raise InputError(path, "incomplete ground_truth must name one api", row=row, field="ground_truth")
    api, missing = next(iter(answer.items()))
    return {"api": api, "missing": [str(name).strip() for name in missing]}


def _mentions(expectation: dict) -> str | None:
    """What a diagnostic reply must name, as callscore's `expect_mentions` (JSON list): the
    missing parameters (incomplete) or the wrong values (error_param); none for irrelevant."""
    if "missing" in expectation:
        return _dumps(expectation["missing"])
    if "wrong_values" in expectation:
        return _dumps([str(value) for values in expectation["wrong_values"].values() for value in values])
    return None


def read_acebench_gold(data_path, answer_path=None, language=None) -> pa.Table:
    """An ACEBench data file + its possible_answer file -> a gold table (GOLD_FIXED columns,
    then `category`, `language`, `query`, `profile`, `special_kind`, `special_expect`).
    `answer_path` defaults to `possible_answer/<same name>` beside the data file."""
    data_path = Path(data_path)
    category = _category(data_path)
    if category.startswith("agent"):
        raise InputError(data_path, "the ACEBench agent subset (stateful multi-step tasks) is scored by `score dialogue`")
    answer_path = Path(answer_path) if answer_path else data_path.parent / "possible_answer" / data_path.name
    language = language or _language(data_path)
    special = next((kind for kind in _SPECIAL_KINDS if category == f"special_{kind}"), None)
    answers = {}
    for number, row in read_json_lines(answer_path):
        if "id" not in row or "ground_truth" not in row:
            raise InputError(answer_path, "expected fields id and ground_truth", row=number)
        answers[str(row["id"])] = (number, row["ground_truth"])
    names = ("id", "gold_calls", "reference_time", "tools", "negative_type", "category", "language",
             "query", "profile", "special_kind", "special_expect", "expect_mentions")
    columns = {name: [] for name in names}
    seen = set()
    for number, row in read_json_lines(data_path):
        if "initial_config" in row:
            raise InputError(data_path, "the ACEBench agent subset is scored by `score dialogue`", row=number)
        row_id = question_id(data_path, number, row, seen)
        if row_id not in answers:
            raise InputError(answer_path, f"no ground_truth for id {row_id!r}")
        answer_row, answer = answers[row_id]
        functions = convert_tools(row["function"])
        try:
            when = reference_time(row.get("time"))
        except ValueError as error:
            raise InputError(data_path, str(error), row=number, field="time") from None
        calls, expect, mentions = [], None, None
        if special:
            expectation = _special_expect(special, answer, answer_path, answer_row)
            expect = _dumps(expectation)
            mentions = _mentions(expectation)
        else:
            declared = {function.get("name") for function in functions}
            alternatives = answer if isinstance(answer, list) else [answer]
            if not alternatives:
                raise InputError(answer_path, "empty list of answers", row=answer_row, field="ground_truth")
            parsed = [_calls(alternative, declared, answer_path, answer_row) for alternative in alternatives]
            merged = parsed[0] if len(parsed) == 1 else _merge_alternatives(parsed, answer_path, answer_row)
            calls = [{"name": name, "arguments": _dumps(arguments)} for name, arguments in merged]
        profile = row.get("profile")
        columns["id"].append(row_id)
        columns["gold_calls"].append(calls)
        columns["reference_time"].append(when)
        columns["tools"].append(_dumps(functions))
        columns["negative_type"].append(_NEGATIVE_TYPE.get(special))
        columns["category"].append(category)
        columns["language"].append(language)
        columns["query"].append(str(row["question"]))
        columns["profile"].append(profile if profile is None or isinstance(profile, str) else _dumps(profile))
        columns["special_kind"].append(special)
        columns["special_expect"].append(expect)
        columns["expect_mentions"].append(mentions)
    schema = GOLD_FIXED
    for extra in names[len(GOLD_FIXED.names):]:
        schema = schema.append(pa.field(extra, pa.string()))
    return pa.Table.from_pydict(columns, schema=schema)
