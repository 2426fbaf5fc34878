"""BFCL (Berkeley Function Calling Leaderboard) files -> callscore gold and predictions.

Read as published, so nobody converts data before scoring:
- question files: JSON lines `{id, question, function}` (v1: `question` is the user text and
  `function` an object or a list; v3/v4: `question` is a list of turns of chat messages);
- possible_answer files: `{id, ground_truth}`, per parameter a list of accepted values, `""`
  among them meaning the parameter may be left out. v1 keys parallel calls by function name
  with a suffix (`spotify.play_1`, `calculate_bmi 2`); v3/v4 give a list of one-key objects;
- result files: `{id, result}`, `result` a list of `{name: arguments}` or a text.

Category semantics (by file name or `category=`): `irrelevance`, `live_irrelevance` and v1's
`relevance` expect no call (negative, `no_tool`); v3's `live_relevance` accepts any call: the
row has no gold calls and the carried column `expect` = "any_call", which the scorer honours.
Every row carries `expect` ("calls", "no_call" or "any_call"), `category` and `query`.
"""

import functools
import json
import re
from pathlib import Path

import pyarrow as pa

from scorer.compat import bfcl_models
from scorer.errors import InputError
from scorer.load import json_lines, salvage, without_bom
from scorer.tables import GOLD_FIXED, PREDICTIONS

# BFCL's parameter type names -> JSON Schema. `any` becomes an unconstrained schema (BFCL's
# own OpenAPI export says "string", but its checker accepts any value for it).
_TYPE_NAMES = {
    "dict": "object", "object": "object",
    "float": "number", "double": "number", "number": "number",
    "integer": "integer", "int": "integer", "long": "integer", "short": "integer", "byte": "integer",
    "tuple": "array", "list": "array", "array": "array",
    "string": "string", "str": "string", "char": "string",
    "boolean": "boolean", "bool": "boolean",
    # the java and javascript categories' type names
    "String": "string", "Boolean": "boolean", "Bigint": "integer",
    "HashMap": "object", "Hashtable": "object", "Map": "object", "TreeMap": "object",
    "Array": "array", "ArrayList": "array", "List": "array", "LinkedList": "array", "Queue": "array",
    "Stack": "array", "Set": "array",
}
_UNTYPED = ("any", "Any")
_SOURCE_TEXT_CATEGORIES = ("java", "javascript")  # arguments written as source text, read by declared type

_FILE_PREFIXES = ("gorilla_openfunctions_v1_test_", "BFCL_v3_", "BFCL_v4_")
_NEGATIVE_CATEGORIES = ("irrelevance", "live_irrelevance", "relevance")
_ANY_CALL_CATEGORIES = ("live_relevance",)
_NAME_SUFFIX = re.compile(r"^(.+?)[_ ]\d+$")

EXPECT_CALLS, EXPECT_NO_CALL, EXPECT_ANY_CALL = "calls", "no_call", "any_call"
# A parameter whose possible answer lists no value (`"auto_loan_payment_start": []` in
# BFCL_v4_live_simple): BFCL's checker finds no value among none and the parameter is not
# optional, so every answer to the row is invalid. An object no model output is compared equal
# to stands for it, so both modes score the row so; --compat bfcl reads it back as `[]`.
NO_ACCEPTED_VALUE = {"bfcl": "no accepted value"}
GOLD_NOTES = b"callscore.gold_notes"  # schema metadata: the gold rows a user must know about
BFCL_VERSION = b"callscore.bfcl_version"  # schema metadata: the BFCL run a gold file's name tells
# a gold column, where BFCL's answer has more entries than calls (a parameter written beside
# them): the entries, which BFCL's checker counts as calls (--compat bfcl reads it)
BFCL_ANSWER_CALLS = "bfcl_answer_calls"
# the BFCL run a gold file's name tells (scorer/compat/bfcl_models.toml names the runs): v1 files are
# the 2024-08 leaderboard's, v3/v4 files the latest bfcl-eval reproduced
_VERSION_OF_PREFIX = {"gorilla_openfunctions_v1_test_": "2024-08", "BFCL_v3_": "bfcl-eval-2026.3.23",
                      "BFCL_v4_": "bfcl-eval-2026.3.23"}


# bfcl-eval's folders between result/<model>/ and a result file (its get_directory_structure_by_category)
_GROUP_FOLDERS = ("non_live", "live", "multi_turn", "agentic", "format_sensitivity", "memory")


def model_of_result(path) -> str:
    """The model a BFCL result file belongs to: its folder (v1: result/<model>/), above the
    category group folders bfcl-eval adds (v3/v4: result/<model>/<group>/, memory:
    result/<model>/agentic/memory/<backend>/)."""
    folder = Path(path).resolve().parent
    while folder.parent != folder and (folder.name in _GROUP_FOLDERS or folder.parent.name == "memory"):
        folder = folder.parent
    return folder.name


def read_json_lines(path, lenient=False) -> list:
    """The objects of a JSON-lines file (or of a file holding one JSON array), in file order,
    as (line number, object). `lenient`: a line that is not a JSON object does not stop the
    file; every row comes as (line number, object or None, why it is not one or None), a
    broken line as its id when the line shows one."""
    path = Path(path)
    try:
        text = without_bom(path.read_bytes()).decode("utf-8")
    except OSError as error:
        raise InputError(path, f"cannot read: {error.strerror or error}") from None
    if text.lstrip().startswith("["):
        try:
            rows = json.loads(text)
        except json.JSONDecodeError as error:
            raise InputError(path, f"not valid JSON ({error.msg})") from None
        numbered = [(number, row, None) for number, row in enumerate(rows, start=1)]
    else:
        numbered = list(json_lines(path, raw=lenient))
    checked = []
    for number, row, problem in numbered:
        if problem is not None and lenient:
            row = salvage(row, number, problem)  # its id, when the broken line shows one
        elif not isinstance(row, dict):
            row, problem = None, "expected a JSON object"
        if problem is not None and not lenient:
            raise InputError(path, problem, row=number)
        checked.append((number, row, problem) if lenient else (number, row))
    return checked


def question_id(path, number, row, seen: set) -> str:
    """The id of a question row (BFCL and ACEBench alike), checked: the fields a question needs
    are there and the id is new."""
    for field in ("id", "question", "function"):
        if field not in row:
            raise InputError(path, f"missing field {field}", row=number, field=field)
    row_id = str(row["id"])
    if row_id in seen:
        raise InputError(path, f"duplicate id {row_id!r}", row=number, field="id")
    seen.add(row_id)
    return row_id


def category_of(path, category=None) -> str:
    """The BFCL category named by `category`, else by the file name (prefix and suffix off)."""
    if category:
        return category
    stem = Path(path).name.removesuffix(".json").removesuffix(".jsonl").removesuffix("_result")
    for prefix in _FILE_PREFIXES:
        stem = stem.removeprefix(prefix)
    return stem


def declared_name(key: str, declared) -> str:
    """The declared function a gold key means. BFCL's repeat suffix (`_1`, ` 2`) is removed
    only when the key itself is not declared and the stripped name is: `get_rectangle_property_1`
    means `get_rectangle_property`, while a function really named `sort_2` stays itself. A key
    still undeclared that is the last dotted part of exactly one declared name means that name
    (simple_363's gold says `find_closest` for the declared `restaurant_search.find_closest`;
    BFCL's checker takes the declared name there too)."""
    if key in declared:
        return key
    match = _NAME_SUFFIX.match(key)
    stripped = match.group(1) if match else key
    if stripped in declared:
        return stripped
    qualified = [name for name in declared if name.endswith("." + stripped)]
    return qualified[0] if len(qualified) == 1 else key


def convert_schema(spec):
    """A BFCL parameter schema -> JSON Schema, recursively (type names only; other keys kept).
    A BFCL type name that JSON Schema spells otherwise is kept as `x-bfcl-type`."""
    if isinstance(spec, list):
        return [convert_schema(item) for item in spec]
    if not isinstance(spec, dict):
        return spec
    converted = {}
    for key, value in spec.items():
        if key == "type" and isinstance(value, str):
            if value not in _UNTYPED:
                converted[key] = _TYPE_NAMES.get(value, value)
            if converted.get(key) != value:
                converted["x-bfcl-type"] = value  # BFCL's own name, which its type rules use (--compat bfcl)
        elif key in ("properties",) and isinstance(value, dict):
            converted[key] = {name: convert_schema(sub) for name, sub in value.items()}
        elif key in ("items", "additionalProperties") and isinstance(value, dict):
            converted[key] = convert_schema(value)
        else:
            converted[key] = value
    return converted


def convert_tools(functions) -> list:
    """BFCL function docs (an object or a list) -> OpenAI-style tools."""
    functions = functions if isinstance(functions, list) else [functions]
    tools = []
    for function in functions:
        tool = {"name": function.get("name"), "description": function.get("description", "")}
        tool["parameters"] = convert_schema(function.get("parameters") or {"type": "object", "properties": {}})
        tools.append(tool)
    return tools


def convert_accepted(values):
    """One parameter's list of accepted values -> callscore notation: a single value stays
    plain, several become {"$any": [...]}, and `""` among them makes it {"$optional": ...}."""
    if not isinstance(values, list):
        return _convert_value(values)
    optional = any(value == "" for value in values)
    rest = [_convert_value(value) for value in values if value != ""]
    if not rest:
        return {"$optional": ""} if optional else dict(NO_ACCEPTED_VALUE)
    accepted = rest[0] if len(rest) == 1 else {"$any": rest}
    return {"$optional": accepted} if optional else accepted


def _convert_value(value):
    """An accepted value. Objects inside possible answers list accepted values per key
    (BFCL's dict_checker reads them so); list items that are objects do the same."""
    if isinstance(value, dict):
        return {key: convert_accepted(sub) for key, sub in value.items()}
    if isinstance(value, list):
        return [_convert_value(item) for item in value]
    return value


def _gold_row(path, number, row, problem, seen, expect, answers, answer_path):
    """(id, tools, gold calls, entries of BFCL's answer) of one question row, or InputError."""
    if problem is not None:
        raise InputError(path, problem, row=number)
    row_id = question_id(path, number, row, seen)
    functions = row["function"]
    if not all(isinstance(function, dict) for function in (functions if isinstance(functions, list) else [functions])):
        raise InputError(path, "function must be an object or a list of objects", row=number, field="function")
    tools = convert_tools(functions)
    if expect != EXPECT_CALLS:
        return row_id, tools, [], 0
    if row_id not in answers:
        raise InputError(answer_path, f"no possible answer for id {row_id!r}")
    answer_row, ground_truth = answers[row_id]
    calls, entries = _gold_calls(ground_truth, {tool["name"] for tool in tools}, answer_path, answer_row)
    return row_id, tools, calls, entries


def _gold_calls(ground_truth, declared, path, row):
    """(callscore gold calls, how many entries BFCL's answer has: BFCL counts each as a call)."""
    if isinstance(ground_truth, dict):
        items = list(ground_truth.items())
    elif isinstance(ground_truth, list) and all(isinstance(g, dict) and len(g) == 1 for g in ground_truth):
        items = [next(iter(g.items())) for g in ground_truth]
    else:
        raise InputError(path, "ground_truth must map function names to parameters", row=row, field="ground_truth")
    grouped = []
    for key, params in items:
        if isinstance(params, dict):
            grouped.append((key, dict(params)))
        elif isinstance(params, list) and grouped and key not in declared:
            # A parameter written one level too high (parallel_multiple_function_179 puts
            # find_card_in_deck's `deck` beside the calls): it belongs to the call before it.
            grouped[-1][1][key] = params
        else:
            raise InputError(path, f"parameters of {key!r} must be an object", row=row, field="ground_truth")
    calls = []
    for key, params in grouped:
        arguments = {name: convert_accepted(values) for name, values in params.items()}
        calls.append({"name": declared_name(key, declared), "arguments": _dumps(arguments)})
    return calls, len(items)


def unanswerable(arguments: dict, prefix: str = "") -> list:
    """The parameters (and keys of object values, dotted) whose possible answer lists no value."""
    found = []
    for name, value in arguments.items():
        if value == NO_ACCEPTED_VALUE:
            found.append(prefix + name)
        elif isinstance(value, dict) and set(value) - {"$any", "$optional"}:
            found += unanswerable(value, f"{prefix}{name}.")
    return found


def _dumps(value) -> str:
    return json.dumps(value, ensure_ascii=False)


def _query(question) -> str:
    """The user text: v1 holds it as a string, v3/v4 as turns of chat messages."""
    if isinstance(question, str):
        return question
    texts = []
    turns = question if isinstance(question, list) else []
    for turn in turns:
        for message in turn if isinstance(turn, list) else [turn]:
            if isinstance(message, dict) and message.get("role") == "user":
                texts.append(str(message.get("content", "")))
    return "\n".join(texts)


def read_bfcl_gold(question_path, answer_path=None, category=None) -> pa.Table:
    """A BFCL question file (+ its possible_answer file) -> a gold table (GOLD_FIXED columns,
    then `category`, `query`, `expect`). Rows are paired with answers by id."""
    category = category_of(question_path, category)
    questions = read_json_lines(question_path, lenient=True)
    answers, notes = {}, []
    if answer_path is not None:
        for number, row, problem in read_json_lines(answer_path, lenient=True):
            if problem is None and ("id" not in row or "ground_truth" not in row):
                problem = "expected fields id and ground_truth"
            if problem is not None:
                notes.append(f"{answer_path} row {number}: {problem}; skipped")
                continue
            answers[str(row["id"])] = (number, row["ground_truth"])
    if category in _NEGATIVE_CATEGORIES:
        expect = EXPECT_NO_CALL
    elif category in _ANY_CALL_CATEGORIES:
        expect = EXPECT_ANY_CALL
    else:
        expect = EXPECT_CALLS
        if answer_path is None:
            raise InputError(question_path, f"category {category!r} needs its possible_answer file")
    columns = {name: [] for name in ("id", "gold_calls", "reference_time", "tools", "negative_type",
                                     "category", "query", "expect")}
    seen, answer_calls = set(), []
    for number, row, problem in questions:
        try:
            row_id, tools, calls, entries = _gold_row(question_path, number, row, problem, seen, expect, answers,
                                                      answer_path)
        except InputError as error:  # one row BFCL's files cannot give: named and skipped, not the file's end
            notes.append(f"{error}; the row is skipped (predictions for it count as ids not in gold)")
            continue
        answer_calls.append(entries if entries != len(calls) else None)
        if expect == EXPECT_CALLS:
            answer_row = answers[row_id][0]
            unmet = [f"{call['name']}.{param}" for call in calls for param in unanswerable(json.loads(call["arguments"]))]
            if unmet:
                notes.append(f"{answer_path} row {answer_row} (id {row_id}): no accepted value for {', '.join(unmet)}; "
                             "BFCL scores every answer to the row invalid, and so does callscore")
        columns["id"].append(row_id)
        columns["gold_calls"].append(calls)
        columns["reference_time"].append(None)
        columns["tools"].append(_dumps(tools))
        columns["negative_type"].append("no_tool" if expect == EXPECT_NO_CALL else None)
        columns["category"].append(category)
        columns["query"].append(_query(row["question"]))
        columns["expect"].append(expect)
    schema = GOLD_FIXED
    for extra in ("category", "query", "expect"):
        schema = schema.append(pa.field(extra, pa.string()))
    if any(entries is not None for entries in answer_calls):
        columns[BFCL_ANSWER_CALLS] = answer_calls
        schema = schema.append(pa.field(BFCL_ANSWER_CALLS, pa.int32()))
    metadata = {GOLD_NOTES: _dumps(notes).encode()} if notes else {}
    for prefix, version in _VERSION_OF_PREFIX.items():
        if Path(question_path).name.startswith(prefix):
            metadata[BFCL_VERSION] = version.encode()
    if metadata:
        schema = schema.with_metadata(metadata)
    return pa.Table.from_pydict(columns, schema=schema)


def _result_calls(result, path, number):
    """A list result -> (calls, text, malformed). Text items (Gemini mixes prose with calls)
    are kept as `output` beside the calls; the calls win, as for any prediction row."""
    calls, texts = [], []
    for index, item in enumerate(result):
        if isinstance(item, str):
            texts.append(item)
            continue
        if not isinstance(item, dict) or len(item) != 1:
            return None, None, f"result item {index} is not a {{name: arguments}} object"
        name, arguments = next(iter(item.items()))
        if isinstance(arguments, str):
            try:
                arguments = json.loads(arguments) if arguments.strip() else {}
            except json.JSONDecodeError as error:
                return None, None, f"arguments of call {index} ({name}) are not valid JSON: {error.msg}"
        if not isinstance(arguments, dict):
            return None, None, f"arguments of call {index} ({name}) are not a JSON object"
        calls.append({"name": name, "arguments": _dumps(arguments)})
    text = "\n".join(texts) if texts else None
    if texts and not calls:
        return None, text, None
    return calls, text, None


def _undotted(declared) -> dict:
    """`math_factorial` -> `math.factorial` for the declared names that hold a dot."""
    return {name.replace(".", "_"): name for name in declared if "." in name}


@functools.lru_cache(maxsize=16)
def _declared(question_path: str, _mtime_ns: int, _size: int) -> tuple:
    """(declared names by id, by position, declared types by id) of a BFCL question file, read
    once per version of the file: a directory of results holds one file per model for each
    question file. Callers only read what it returns."""
    declared_by_id, declared_by_position, types_by_id = {}, [], {}
    for _, row in read_json_lines(question_path):
        functions = row.get("function") or []
        names = frozenset(tool["name"] for tool in convert_tools(functions))
        declared_by_id[str(row.get("id"))] = names
        declared_by_position.append(names)
        types_by_id[str(row.get("id"))] = declared_types(functions)
    return declared_by_id, declared_by_position, types_by_id


@functools.lru_cache(maxsize=4096)
def _called(name: str) -> re.Pattern:
    """`name(` in a text result, not as the end of a longer or dotted name."""
    return re.compile(rf"(?<![\w.]){re.escape(name)}\s*\(")


def read_bfcl_results(result_path, model, question_path=None, renamed_dots=False, notes=None) -> pa.Table:
    """A BFCL result file -> a predictions table (PREDICTIONS schema).

    `renamed_dots`: BFCL sent this model the function names with `.` replaced by `_` (APIs
    that forbid dots), so a predicted `math_factorial` means the declared `math.factorial`;
    None: read as BFCL's own checker reads the file (--compat bfcl): dots renamed as BFCL's
    model list says for this model, and names as the file shows them for a model it does not
    list (with a line in `notes` when the file calls a declared dotted name without its dots);
    Java and JavaScript arguments kept as the source text they are.
    Names are mapped back using the declared functions of `question_path` (required then);
    text results are parsed with scorer.parse.parse_output for that purpose, the raw text
    staying in `output`. Rows keep their own `id`; a row without one gets the id at its line
    position (`<category>_<n>`), which is how BFCL pairs results with questions."""
    as_bfcl = renamed_dots is None
    if as_bfcl:
        renamed_dots = bool(bfcl_models.underscore_to_dot(model)) and question_path is not None
    if renamed_dots and question_path is None:
        raise InputError(result_path, "renamed_dots needs question_path to know the declared names")
    category = category_of(result_path)
    typed = any(category.endswith(name) for name in _SOURCE_TEXT_CATEGORIES) and not as_bfcl  # BFCL converts them itself
    declared_by_id, declared_by_position, types_by_id = {}, [], {}
    if question_path is not None:
        stat = Path(question_path).stat()
        declared_by_id, declared_by_position, types_by_id = _declared(str(question_path), stat.st_mtime_ns, stat.st_size)
    columns = {name: [] for name in PREDICTIONS.names}
    undotted_calls = []   # (row id, predicted, declared): a dotted name called without its dots
    dotted_rows = 0       # rows that call a declared dotted name as declared
    for position, (number, row, problem) in enumerate(read_json_lines(result_path, lenient=True)):
        row = row or {}
        row_id = str(row["id"]) if "id" in row else f"{category}_{position}"
        result, calls, output, malformed = row.get("result"), None, None, None
        if problem is not None or "result" not in row:  # that row's malformed verdict, not the file's end
            malformed = f"line {number}: {problem or 'missing field result'}"
        elif isinstance(result, list):
            calls, output, malformed = _result_calls(result, result_path, number)
        elif isinstance(result, str):
            output = result
        else:
            malformed = f"result is a {type(result).__name__}, not a list or a text"
        declared = declared_by_id.get(row_id)
        if declared is None and position < len(declared_by_position):
            declared = declared_by_position[position]
        if renamed_dots:
            calls = _rename(calls, output, _undotted(declared or ()))
        elif declared and any("." in name for name in declared):
            found = _undotted_calls(row_id, calls, output, declared)
            undotted_calls += found
            dotted_rows += not found and _calls_dotted(calls, output, declared)
        if typed and row_id in types_by_id:
            calls = _typed_calls(calls, output, types_by_id[row_id])
        columns["id"].append(row_id)
        columns["model"].append(model)
        columns["calls"].append(calls)
        columns["output"].append(output)
        columns["malformed"].append(malformed)
    if len(undotted_calls) > dotted_rows:  # mostly undotted: the names were sent so, not a slip of the model
        row_id, predicted, name = undotted_calls[0]
        if not as_bfcl:
            raise InputError(result_path, f"id {row_id} calls {predicted} where the question declares {name} "
                             f"({len(undotted_calls)} such rows, {dotted_rows} with the dots): BFCL sent this model "
                             "the names with dots replaced by underscores (APIs that forbid dots); score it with "
                             "--renamed-dots, which maps them back")
        if bfcl_models.listed(model) is None and notes is not None:  # BFCL's checker compares names as written
            notes.append(f"{result_path}: model {model} is not in BFCL's model list, so its function names are "
                         f"read as the file shows them: {len(undotted_calls)} row(s) call a declared dotted name "
                         f"without its dots (id {row_id} calls {predicted} for {name}); --renamed-dots maps them back")
    return pa.Table.from_pydict(columns, schema=PREDICTIONS)


def _undotted_calls(row_id, calls, output, declared) -> list:
    """(row id, predicted name, declared name) when a result names a declared dotted function
    with its dots replaced (math_factorial for math.factorial), which would otherwise score
    as a wrong tool on every such row."""
    mapping = {plain: dotted for plain, dotted in _undotted(declared).items() if plain not in declared}
    if not mapping:
        return []
    names = [call["name"] for call in calls or ()]
    if not names and output:
        names = [plain for plain in mapping if _called(plain).search(output)]
    return [(row_id, name, mapping[name]) for name in names if name in mapping][:1]


def _calls_dotted(calls, output, declared) -> bool:
    """Whether a result names one of the declared dotted functions with its dots."""
    dotted = [name for name in declared if "." in name]
    if calls:
        return any(call["name"] in dotted for call in calls)
    return bool(output) and any(_called(name).search(output) for name in dotted)


def _rename(calls, output, mapping):
    if calls is None and output is not None and mapping:
        from scorer.parse import parse_output  # only needed for renamed text results

        parsed = parse_output(output)
        if parsed.malformed or not parsed.calls:
            return None
        calls = [_call_record(call) for call in parsed.calls]
    if not calls:
        return calls
    return [{"name": mapping.get(call["name"], call["name"]), "arguments": call["arguments"]} for call in calls]


def declared_types(functions) -> dict:
    """{function name: {parameter: BFCL type name}} of a question's function documents."""
    functions = functions if isinstance(functions, list) else [functions]
    return {function.get("name"): {name: spec.get("type") for name, spec in
                                   ((function.get("parameters") or {}).get("properties") or {}).items()
                                   if isinstance(spec, dict)}
            for function in functions if isinstance(function, dict)}


def _typed_calls(calls, output, types):
    """Java/JavaScript results: each argument's source text read as its declared type
    (scorer/io/bfcl_values.py); a text result is parsed first, as for renamed names."""
    from scorer.io.bfcl_values import typed_value
    from scorer.parse import parse_output

    if calls is None and output is not None:
        parsed = parse_output(output)
        if parsed.malformed or not parsed.calls:
            return None
        calls = [_call_record(call) for call in parsed.calls]
    typed = []
    for call in calls or ():
        declared = types.get(call["name"], {})
        arguments = json.loads(call["arguments"])
        typed.append({"name": call["name"], "arguments": _dumps(
            {name: typed_value(value, declared.get(name)) for name, value in arguments.items()})})
    return typed if calls is not None else None


def _call_record(call) -> dict:
    """A parsed call, a (name, arguments) pair or a {name, arguments} mapping -> a CALL record."""
    name, arguments = (call["name"], call["arguments"]) if isinstance(call, dict) else call
    return {"name": name, "arguments": arguments if isinstance(arguments, str) else _dumps(arguments)}
