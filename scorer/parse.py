"""Raw model output -> tool calls, or the reason it could not be read. Pure and total:
no input text makes these functions raise.

Formats read by `parse_output`
- JSON: an OpenAI `tool_calls` list (`{"type": "function", "function": {"name", "arguments"}}`,
  arguments a JSON string or an object); an assistant message or xLAM answer holding
  `"tool_calls"` (when that list is empty or null, the message's `content` text is read);
  a legacy message holding `"function_call"`; a plain list of `{name, arguments}` or one such
  object. Argument keys accepted, in this order of preference: `arguments`, `parameters` (Llama
  3.1 JSON calls), `params`, `args` (Gemini), and `input` for `"type": "tool_use"` (Anthropic).
  A `"function": "name"` string (seen from Mistral) names the tool like `"name"` does.
  Python-literal dicts (`[{'name': 'f', 'arguments': {...}}]`) are read the same way.
  Several JSON values in a row (`{...}; {...}` or one per line) are several calls.
- Tagged blocks: `<tool_call>{json}</tool_call>` (Hermes, Qwen; one or several; a missing
  closing tag ends at the next block or the end), granite's `<function_call> {json}`.
- Python-call syntax: `[get_weather(city='北京', days=3)]`, a bare `f(a=1)`, `[f(a=1), g(b=2)]`,
  bare calls separated by commas or newlines, dotted names `math.factorial(n=5)`. Only
  keyword arguments with literal values (read by walking the `ast`, never evaluated); JSON's
  `true`, `false`, `null` are accepted as literals too because models write them there.
- A list of quoted call strings (`['area(base=10, height=5)']`), each read as a Python call;
  GLM's tool name alone on a line with its JSON arguments below (`get_weather\n{"city": ...}`).
- Not calls, on every path (`is_call`): a refusal sentinel (`{"name": "no_function"}`) and a
  tool schema echoed back; an empty `<tool_call></tool_call>` beside other blocks is skipped.
- Around any of these: markdown code fences, a leading special token (`<|python_tag|>`,
  `<|start_header_id|>`, `[TOOL_CALLS]`; chat-template tokens such as `<|im_start|>` anywhere
  separate what they sit between), markdown-escaped underscores (`get\\_weather`, tried
  again unescaped when the text does not read as it is), and prose before or after the call.

What "tries to be a call" means (the malformed heuristic)
A text is an attempt when, after stripping special tokens, it holds a `<tool_call>` or
`<function_call>` tag, a code fence whose body starts like a call, or a line (outside fences)
that starts like a call:
- `[` + name + `(`: a bracketed Python call list;
- name + `(` directly followed by `)` or `keyword=`: a bare Python call. `I think (maybe)` and
  `Paris(France)` do not qualify (a space before `(`, a plain word after it);
- name + `(` + a quote, `[` or `{` (a positional literal, Llama's `f({'a': 1})`), but only as
  the first line of the answer or of a fence that is the whole answer: further down,
  `print("...")` is example code in a prose answer, not an attempt;
- `{` or `[` with a quoted call key (`"name":`, `"func":`, `"function":`, `"tool_calls":`,
  `"arguments":`, `"parameters":`) somewhere after it.
Calls are read from the first such line to the end of the text; if that fails, trailing lines
are dropped one at a time, so prose after the calls is tolerated (BFCL's decoder rejects it:
a deliberate difference). A call list missing only its closing `]` is read (as BFCL does);
`[f(a=1` with the call itself unclosed is malformed. A line that reads as plain data (JSON that is not call-shaped)
passes the turn to the next one. An attempt that still cannot be read is `malformed` with the
first reason found; any other text is an empty prediction. A JSON document that is not
call-shaped (`[1, 2]`, `{"answer": 3}`, `{"name": "Alice"}`: a name without arguments or
`function` is data) is an empty prediction; `[]` is an explicit "no call".

Decisions
- A call object is one with `function`, `arguments`, or `name`/`func` plus an argument key
  or a call `type`. A call without arguments (key absent or null) has `{}`; an empty
  arguments string is `{}` too (some servers send `""` for no-argument calls). Any other
  string must decode to a JSON object, otherwise the call is malformed; a value that is
  neither object nor string is too. Strings are decoded once: double-encoded JSON is malformed.
- A bare identifier as a Python value (`data=my_data`) is read as its name, the string
  "my_data", as BFCL reads it (its gold expects that string). Positional arguments,
  `**kwargs`, attribute or subscript expressions, nested calls, arithmetic, `...`, sets, bytes
  and non-finite numbers are malformed: they have no literal JSON value (BFCL turns some of
  them into their source text; callscore does not guess).
- When a text is malformed its `calls` are empty: one unreadable call spoils the prediction.

Speed: texts starting with `[` or `{` are first tried whole with orjson, the common case. On
3,000 JSON texts from real BFCL results (tool-call lists and argument strings), orjson
decoded them about 4.5x faster than `json` (1.8 ms vs 8.2 ms, best of 7, decode only;
measured while writing this module). Regexes are compiled at import; `ast` runs only on text
that starts like a Python call or a Python-literal dict. All 13,110 text results of the 16
BFCL models parse in about a second.
"""

import ast
import functools
import json
import math
import operator
import re
import warnings
from typing import NamedTuple

import orjson

from scorer.callscan import LONG_DIGITS, has_long_digits


class Parsed(NamedTuple):
    """Calls read from one prediction: (tool name, canonical JSON arguments) pairs. A named
    tuple, not a dataclass: readings key the verdict memos, and a tuple is built, hashed and
    compared in C (a frozen dataclass's hash and equality run in Python on every lookup)."""

    calls: tuple[tuple[str, str], ...]
    malformed: str | None


EMPTY = Parsed((), None)

_ARGUMENT_KEYS = ("arguments", "parameters", "params", "args")
_CALL_TYPES = ("function", "function_call", "tool_use")
_MAX_REASON = 200
_MAX_TRIMMED_LINES = 60  # how many trailing lines may be dropped in search of a readable call

_NAME = r"(?:[A-Za-z_]|\\_)(?:[\w.]|\\_)*"
_PY_BRACKETED = re.compile(r"\[\s*" + _NAME + r"\s*\(")
_PY_BARE = re.compile(_NAME + r"\((?=\s*(?:\)|" + _NAME + r"\s*=))")
_PY_BARE_POSITIONAL = re.compile(_NAME + r"\((?=\s*(?:['\"\[{]|(?:None|True|False)\b))")
_PY_QUOTED = re.compile(r"\[\s*['\"]" + _NAME + r"\s*\(")
_CALL_KEY = re.compile(r"""["'](?:name|func|function|tool_calls|arguments|parameters)["']\s*:""")
_SPECIAL_TOKEN = re.compile(r"<\|[\w-]+\|>")
_LEADING_TOKENS = re.compile(r"^(?:\s*(?:<\|[\w-]+\|>|\[TOOL_CALLS\]))+")
_FENCE = re.compile(r"```[\w+.-]*[^\S\n]*\n?(.*?)(?:```|\Z)", re.DOTALL)
_TOOL_CALL_BLOCK = re.compile(r"<tool_call>(.*?)(?:</tool_call>|(?=<tool_call>)|\Z)", re.DOTALL)
_FUNCTION_CALL_TAG = "<function_call>"
_FUNCTION_CALL_CLOSE = re.compile(r"</function_call>\s*\Z")
_SEPARATORS = re.compile(r"[\s;,]*")
_NAME_THEN_JSON = re.compile(r"([A-Za-z_][\w.]*)[^\S\n]*\n\s*(\{.*\})\s*\Z", re.DOTALL)
_NOT_TOOL_NAMES = frozenset({"assistant", "user", "system", "tool", "json", "python", "output", "answer"})


class _Unreadable(Exception):
    """An attempted call that cannot be read; the message is the `malformed` reason."""


def json_text(value) -> str | None:
    """A column value as JSON-holding columns keep it: None and text as they are, anything else
    (lists, objects, numbers) written as JSON."""
    return value if value is None or isinstance(value, str) else dump_json(value)


def dump_json(value, sort_keys: bool = False) -> str:
    """Compact UTF-8 JSON text (orjson; the standard library only for integers past 64 bits,
    which orjson cannot write)."""
    try:
        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS if sort_keys else None).decode()
    except TypeError:
        return json.dumps(value, ensure_ascii=False, sort_keys=sort_keys, separators=(",", ":"), allow_nan=False)


def canonical_json(value) -> str:
    """The one JSON spelling of a value that gold and predictions are compared in: sorted keys."""
    return dump_json(value, sort_keys=True)


_LONG_DIGIT_BYTES = re.compile(rb"\d{%d}" % LONG_DIGITS)


def load_json(text):
    """orjson.loads, except for a text holding a run of 20 or more digits: orjson reads an
    integer past 64 bits as a float (so 2**70 + 1 and 2**70 + 2 would compare equal), the
    standard library keeps it exact. Errors are orjson's either way."""
    long_digits = has_long_digits(text) if isinstance(text, str) else _LONG_DIGIT_BYTES.search(text)
    if long_digits:
        try:
            return json.loads(text, parse_constant=_non_finite, parse_float=_finite_float)
        except (ValueError, RecursionError):
            pass  # not JSON to the standard library either: orjson says why
    return orjson.loads(text)


def _one_line(reason: str) -> str:
    reason = " ".join(str(reason).split())
    return reason if len(reason) <= _MAX_REASON else reason[: _MAX_REASON - 3] + "..."


def _malformed(reason: str) -> Parsed:
    return Parsed((), _one_line(reason))


# ---------------------------------------------------------------- structured call values


def _is_call_like(item) -> bool:
    """Whether a decoded value is shaped like a call (so a bad one is malformed, not data)."""
    if not isinstance(item, dict):
        return False
    if "function" in item or "arguments" in item:
        return True
    if "name" not in item and "func" not in item:
        return False
    return (any(key in item for key in _ARGUMENT_KEYS)
            or item.get("type") in _CALL_TYPES)


class _NonFinite(ValueError):
    """NaN or Infinity in arguments: no JSON value, so not a readable call."""


def _non_finite(constant):
    raise _NonFinite(constant)


def _finite_float(text: str) -> float:
    """A JSON number as a float, or _NonFinite past the float range (1e400 is infinity as a
    double: orjson refuses it, the standard library would read inf, which no JSON can hold)."""
    value = float(text)
    if not math.isfinite(value):
        raise _NonFinite(text)
    return value


def _decode_arguments(value, label: str) -> dict:
    if value is None:
        return {}
    if isinstance(value, dict):
        return value
    if isinstance(value, str):
        if not value.strip():
            return {}
        try:
            decoded = load_json(value)
        except orjson.JSONDecodeError:
            try:
                decoded = json.loads(value, parse_constant=_non_finite, parse_float=_finite_float)
            except _NonFinite:
                raise _Unreadable(f"{label}: arguments hold a non-finite number") from None
            except (ValueError, RecursionError):
                raise _Unreadable(f"{label}: arguments is not a JSON object") from None
        if isinstance(decoded, dict):
            return decoded
    raise _Unreadable(f"{label}: arguments is not a JSON object")


MAX_DEPTH = 200  # nesting levels of one call's arguments; orjson writes at most 254


def _shallow(arguments, label: str) -> dict:
    """The arguments, or _Unreadable when they nest deeper than MAX_DEPTH (no tool takes
    such values, and the values downstream are written with orjson)."""
    for child in arguments.values():
        if isinstance(child, (dict, list)):
            break
    else:
        return arguments   # flat, the common case: no level to count
    level, frontier = 0, [arguments]
    while frontier:
        level += 1
        if level > MAX_DEPTH:
            raise _Unreadable(f"{label}: arguments nest deeper than {MAX_DEPTH} levels")
        frontier = [child for value in frontier
                    for child in (value.values() if isinstance(value, dict) else value)
                    if isinstance(child, (dict, list))]
    return arguments


def _call_from_dict(item, number: int) -> tuple[str, str]:
    """One call object -> (name, canonical arguments); raises _Unreadable with the reason."""
    label = f"call {number}"
    if not isinstance(item, dict):
        raise _Unreadable(f"{label}: not a call object")
    holder = item
    name = item.get("name")
    function = item.get("function")
    if isinstance(function, dict):
        holder, name = function, function.get("name")
    elif name is None:
        name = function if isinstance(function, str) else item.get("func")
    if not isinstance(name, str) or not name.strip():
        raise _Unreadable(f"{label}: missing name" if name is None else f"{label}: name is not a text")
    raw = None
    for key in _ARGUMENT_KEYS:
        if key in holder:
            raw = holder[key]
            break
    else:
        if "input" in holder and holder.get("type") == "tool_use":
            raw = holder["input"]
    if isinstance(raw, str):
        try:
            return call_name(name), _arguments_text(raw)
        except _Unreadable:
            pass   # said again below, naming the call
    return call_name(name), _arguments_json(_decode_arguments(raw, label), label)


def call_name(name: str) -> str:
    """A called name as it is compared: trimmed, markdown-escaped underscores undone; _Unreadable
    when it holds a lone surrogate (an escaped half pair), which no verdict file can write."""
    if has_lone_surrogate(name):
        raise _Unreadable("a called name holds a lone surrogate code point: not Unicode text")
    return name.strip().replace("\\_", "_")


def _arguments_json(arguments: dict, label: str) -> str:
    """Canonical JSON of a call's decoded arguments; _Unreadable when they nest too deeply or
    hold a lone surrogate (JSON's "\\ud83d" decodes to one), which orjson cannot read back."""
    text = canonical_json(_shallow(arguments, label))
    if has_lone_surrogate(text):
        raise _Unreadable(f"{label}: arguments hold a lone surrogate code point: not Unicode text")
    return text


@functools.lru_cache(maxsize=65_536)
def _arguments_text(raw: str) -> str:
    """Canonical JSON of arguments written as a JSON text, once per distinct text: outputs that
    differ only around their calls (OpenAI's call ids, random per row) repeat the same text."""
    return _arguments_json(_decode_arguments(raw, "call"), "call")


REFUSAL_NAMES = frozenset({"no_function", "no_tool", "no_tool_call", "no_call", "none"})
_SCHEMA_TYPES = ("object", "dict")


def is_refusal(name) -> bool:
    """Whether a called name is a refusal sentinel (`no_function`): no call at all."""
    return isinstance(name, str) and name.strip().lower() in REFUSAL_NAMES


def is_call(item: dict) -> bool:
    """Whether a decoded call-shaped object really calls a tool (every parser path asks this).
    Not calls: an explicit refusal sentinel (`{"name": "no_function", "arguments": {}}`, how
    granite and others say "no call") and a tool schema echoed back (a `description` beside
    `parameters` that is itself a JSON Schema object with `properties`)."""
    holder = item["function"] if isinstance(item.get("function"), dict) else item
    if is_refusal(holder.get("name", holder.get("func"))):
        return False
    parameters = holder.get("parameters")
    return not ("description" in holder and isinstance(parameters, dict)
                and parameters.get("type") in _SCHEMA_TYPES and isinstance(parameters.get("properties"), dict))


def _calls_from_items(items) -> Parsed:
    calls = []
    try:
        for item in items:
            if not isinstance(item, dict) or is_call(item):   # numbered among the calls kept
                calls.append(_call_from_dict(item, len(calls) + 1))
    except _Unreadable as problem:
        return _malformed(str(problem))
    return Parsed(tuple(calls), None)


def _from_value(value) -> Parsed | None:
    """A decoded JSON (or Python-literal) value -> Parsed, or None when it is not call-shaped."""
    if isinstance(value, dict):
        if "tool_calls" in value:
            tool_calls = value["tool_calls"]
            if tool_calls is None or tool_calls == []:
                content = value.get("content")
                # the content is a shorter text than the one holding it: recursion ends
                return _parse_text(content) if isinstance(content, str) else EMPTY
            if not isinstance(tool_calls, list):
                return _malformed("tool_calls is not a list")
            return _calls_from_items(tool_calls)
        if isinstance(value.get("function_call"), dict):
            return _calls_from_items([value["function_call"]])
        return _calls_from_items([value]) if _is_call_like(value) else None
    if isinstance(value, list):
        if not value:
            return EMPTY
        if isinstance(value[0], str) and all(isinstance(item, str) for item in value):
            return _quoted_calls(value)
        return _calls_from_items(value) if any(map(_is_call_like, value)) else None
    return None


def _quoted_calls(texts) -> Parsed | None:
    """A list of quoted call strings (`['area(base=10, height=5)']`): each string read as a
    Python call. None unless every string starts like one (`["a", "b"]` is data)."""
    texts = [text.strip() for text in texts]
    if not all(_PY_BARE.match(text) or _PY_BARE_POSITIONAL.match(text) for text in texts):
        return None
    results = []
    for text in texts:
        if has_lone_surrogate(text):   # an escape in the quoting string made one: Python's parser refuses it
            return _malformed(f"quoted call {text[:40]!r}: holds a lone surrogate code point: not Unicode text")
        try:
            result = _from_python(text)
        except SyntaxError as problem:
            return _malformed(f"quoted call {text[:40]!r}: invalid call syntax: {problem.msg}")
        except _Unreadable as problem:
            return _malformed(str(problem))
        if result is None:
            return None
        results.append(result)
    return _combine(results)


def parse_calls_value(value) -> Parsed:
    """The structured `calls` column: a JSON string, or a list of {name, arguments} with
    arguments an object or a JSON-object string. Null is an empty prediction."""
    if value is None:
        return EMPTY
    if isinstance(value, (str, bytes)):
        try:
            value = load_json(value)
        except orjson.JSONDecodeError as problem:
            return _malformed(f"calls is not valid JSON: {problem}")
    if isinstance(value, dict):
        return _malformed("calls is an object, not a list of calls")
    if not isinstance(value, (list, tuple)):
        return _malformed(f"calls is a {type(value).__name__}, not a list of calls")
    try:
        return _calls_from_items(value)
    except RecursionError:
        return _malformed("calls are nested too deeply")


# ---------------------------------------------------------------- Python-call syntax


def _dotted_name(node) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        owner = _dotted_name(node.value)
        return None if owner is None else f"{owner}.{node.attr}"
    return None


_JSON_NAMES = {"true": True, "false": False, "null": None}


def _literal(node, label: str, identifiers: bool = False):
    """A literal expression -> its JSON value; never evaluates code. With `identifiers`
    (inside a Python call) a bare name stands for itself."""
    if isinstance(node, ast.Constant):
        value = node.value
        if value is None or isinstance(value, (str, bool, int)):
            return value
        if isinstance(value, float) and value == value and abs(value) != float("inf"):
            return value
        raise _Unreadable(f"{label} is not a JSON value ({type(value).__name__} {value!r})")
    if isinstance(node, (ast.List, ast.Tuple)):
        return [_literal(element, label, identifiers) for element in node.elts]
    if isinstance(node, ast.Dict):
        result = {}
        for key, value in zip(node.keys, node.values):
            if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
                raise _Unreadable(f"{label} has a dict key that is not a text")
            result[key.value] = _literal(value, label, identifiers)
        return result
    if (isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd))
            and isinstance(node.operand, ast.Constant)
            and type(node.operand.value) in (int, float)):
        value = node.operand.value
        return _literal(ast.Constant(-value if isinstance(node.op, ast.USub) else value), label)
    if isinstance(node, ast.Name) and (identifiers or node.id in _JSON_NAMES):
        # a bare identifier stands for its own name: `data=my_data` passes "my_data", which
        # is what BFCL reads and what its gold expects
        return _JSON_NAMES.get(node.id, node.id)
    if isinstance(node, ast.Set):
        raise _Unreadable(f"{label} is a set, which has no JSON form")
    if identifiers and isinstance(node, ast.BinOp) and (value := _evaluated(node)) is not None:
        return value  # constant arithmetic (`25/1`, `12*2`) passes its value, as BFCL's decoder reads it
    if identifiers and not isinstance(node, ast.Call):
        # another expression inside a Python call (`data['sales']`, `2*pi`) passes its own
        # source text, never evaluated: what BFCL's gold expects; a nested call stays unread
        return ast.unparse(node)
    raise _Unreadable(f"{label} is not a literal ({ast.unparse(node)[:40]})")


_OPERATORS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
              ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod, ast.Pow: operator.pow}
_MAX_RESULT_DIGITS = 4300
_SEQUENCES = (str, bytes, list, tuple)


def constant_arithmetic(node, sequences: bool = False):
    """The value of arithmetic over number constants (`12*2`, `5*2800*0.1`, `2**-1`), as
    BFCL's decoder evaluates it, never by running code; with `sequences`, texts and lists too
    (`'a'*3`). Raises NameError for a name (`2*pi`: unknown to BFCL's `eval` too), ValueError
    for anything else, OverflowError or MemoryError for a result too large to hold."""
    if isinstance(node, ast.Constant) and type(node.value) in (int, float, complex) + (_SEQUENCES if sequences else ()):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        value = constant_arithmetic(node.operand, sequences)
        return -value if isinstance(node.op, ast.USub) else +value
    if sequences and isinstance(node, (ast.List, ast.Tuple)):
        items = [constant_arithmetic(item, sequences) for item in node.elts]
        return items if isinstance(node, ast.List) else tuple(items)
    if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
        left, right = constant_arithmetic(node.left, sequences), constant_arithmetic(node.right, sequences)
        if isinstance(node.op, ast.Pow) and isinstance(right, (int, float)) and isinstance(left, (int, float)) \
                and abs(right) * math.log10(max(abs(left), 2)) > _MAX_RESULT_DIGITS:
            raise OverflowError("result too large")
        if isinstance(node.op, ast.Mult) and (isinstance(left, _SEQUENCES) or isinstance(right, _SEQUENCES)):
            count = right if isinstance(left, _SEQUENCES) else left
            if isinstance(count, int) and count > 1_000_000:
                raise MemoryError("result too large")
        return _OPERATORS[type(node.op)](left, right)
    if isinstance(node, ast.Name):
        raise NameError(f"name '{node.id}' is not defined")
    raise ValueError(f"not constant arithmetic: {ast.unparse(node)[:40]}")


def _evaluated(node):
    """Constant arithmetic's value when it is a finite real number, else None."""
    try:
        value = constant_arithmetic(node)
    except (NameError, ValueError, ArithmeticError, MemoryError, TypeError, RecursionError):
        return None
    if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
        return value
    return None


def _call_from_ast(node: ast.Call, number: int) -> tuple[str, str]:
    name = _dotted_name(node.func)
    if name is None:
        raise _Unreadable(f"call {number}: the called thing is not a name")
    label = f"call {number} ({name})"
    if node.args:
        raise _Unreadable(f"{label}: positional arguments; only keyword arguments are read")
    arguments = {}
    for keyword in node.keywords:
        if keyword.arg is None:
            raise _Unreadable(f"{label}: **-unpacked arguments")
        arguments[keyword.arg] = _literal(keyword.value, f"{label}: argument {keyword.arg}",
                                          identifiers=True)
    return name, _arguments_json(arguments, label)


def _python_elements(source: str):
    """The top-level expressions of a Python snippet, or raise SyntaxError. Warnings about
    the model's escapes (`'a\\_b'`) are silenced: the text is data, not our code."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            body = ast.parse(source, mode="eval").body
        except SyntaxError:
            statements = ast.parse(source, mode="exec").body
            if not all(isinstance(statement, ast.Expr) for statement in statements):
                return []
            elements = []
            for statement in statements:
                value = statement.value
                elements.extend(value.elts if isinstance(value, (ast.List, ast.Tuple)) else [value])
            return elements
    return body.elts if isinstance(body, (ast.List, ast.Tuple)) else [body]


def _from_python(source: str) -> Parsed | None:
    """Python calls or Python-literal call dicts -> Parsed; None when it is neither;
    raises SyntaxError or _Unreadable."""
    elements = _python_elements(source)
    if elements and all(isinstance(element, ast.Constant) and isinstance(element.value, str) for element in elements):
        return _quoted_calls([element.value for element in elements])
    if elements and all(isinstance(element, ast.Dict) for element in elements):
        values = [_literal(element, "value") for element in elements]
        return _from_value(values if len(values) > 1 or source.lstrip().startswith("[")
                           else values[0])
    if not any(isinstance(element, ast.Call) for element in elements):
        return None
    calls = []
    for number, element in enumerate(elements, 1):
        if not isinstance(element, ast.Call):
            raise _Unreadable(f"call {number}: not a function call")
        call = _call_from_ast(element, number)
        if not is_refusal(call[0]):   # `[no_function()]` is a refusal too
            calls.append(call)
    return Parsed(tuple(calls), None)


# ---------------------------------------------------------------- text segments


def _json_values(segment: str) -> list:
    """Consecutive JSON values at the start of a segment that opens with `[` or `{`
    (trailing text ignored); raises ValueError when the first one does not decode."""
    decoder = json.JSONDecoder(parse_constant=_reject_constant, parse_float=_finite_float)
    values, position = [], 0
    while position < len(segment) and segment[position] in "[{":
        try:
            value, position = decoder.raw_decode(segment, position)
        except ValueError:
            if not values:
                raise
            break
        values.append(value)
        position = _SEPARATORS.match(segment, position).end()
    return values


def _reject_constant(name):
    raise ValueError(f"{name} is not a JSON number")


def _from_json_segment(segment: str) -> Parsed | None:
    values = _json_values(segment)
    results = [_from_value(value) for value in values]
    if results[0] is None:
        return None
    return _combine([result for result in results if result is not None])


def _starts_call(text: str, start: int = 0, whole: bool = False) -> bool:
    """Whether the text at `start` (a line start, blanks skipped) begins like a call. A bare
    call with a literal first positional argument (`f({'a': 1})`) counts only when it opens
    the `whole` answer: further down, `print("...")` is example code, not an attempt."""
    if text[start] in "[{":
        return (_CALL_KEY.search(text, start) is not None or _PY_BRACKETED.match(text, start) is not None
                or _PY_QUOTED.match(text, start) is not None)
    return (_PY_BARE.match(text, start) is not None
            or (whole and _PY_BARE_POSITIONAL.match(text, start) is not None))


def _closings(source: str):
    """The source, then (for a call list whose `]` is missing) the source closed."""
    yield source
    if source.startswith("[") and not source.endswith("]"):
        yield source + "]"


def _read_segment(segment: str) -> Parsed | None:
    """Text that starts like a call, read as JSON, then as Python with trailing lines dropped
    one at a time. None when it reads as data rather than calls; malformed with the first
    reason when it does not read at all."""
    json_reason = python_reason = None
    if segment[0] in "[{":
        try:
            return _from_json_segment(segment)
        except ValueError as problem:
            json_reason = f"invalid JSON: {problem}"
    lines = segment.split("\n")
    for end in range(len(lines), max(0, len(lines) - _MAX_TRIMMED_LINES), -1):
        source = "\n".join(lines[:end]).strip()
        if not source:
            continue
        for candidate in _closings(source):
            try:
                return _from_python(candidate)
            except SyntaxError as problem:
                python_reason = python_reason or f"invalid call syntax: {problem.msg}"
            except _Unreadable as problem:
                return _malformed(str(problem))
    looks_python = (_PY_BRACKETED.match(segment) or _PY_BARE.match(segment)
                    or _PY_BARE_POSITIONAL.match(segment))
    return _malformed((python_reason if looks_python else json_reason) or python_reason)


def line_starts(text: str):
    """(first, start) for each line: `start` the position after the line's leading blanks (not
    newlines), `first` whether the line opens the text. What the regex `(?:^|\\n)[^\\S\\n]*`
    finds, by `str.find` (the regex cost ~40 ns per character of prose)."""
    newline = -1
    while True:
        start = newline + 1
        while start < len(text) and text[start] != "\n" and text[start].isspace():
            start += 1
        yield newline <= 0, start
        newline = text.find("\n", newline + 1)
        if newline < 0:
            return


def _scan(text: str) -> Parsed | None:
    """The calls starting at the first line that starts like a call and does not read as
    mere data; None when there is none."""
    for first, start in line_starts(text):
        if start < len(text) and _starts_call(text, start, whole=first):
            result = _read_segment(text[start:].rstrip())
            if result is not None:
                return result
    return None


def _unescaping(read, text: str) -> Parsed | None:
    """`read(text)`, tried again with markdown-escaped underscores (`get\\_weather`) undone
    when the text as it is does not read."""
    result = read(text)
    if (result is None or result.malformed) and "\\_" in text:
        retried = read(text.replace("\\_", "_"))
        if retried is not None:
            return retried
    return result


def _scan_unescaping(text: str) -> Parsed | None:
    return _unescaping(_scan, text)


def _read_unescaping(text: str) -> Parsed | None:
    return _unescaping(_read_segment, text)


def _combine(results) -> Parsed:
    for result in results:
        if result.malformed:
            return result
    return Parsed(tuple(call for result in results for call in result.calls), None)


def _read_blocks(bodies, tag: str) -> Parsed:
    results = []
    if not any(body.strip() for body in bodies):
        return _malformed(f"{tag} block 1: empty")
    for number, body in enumerate(bodies, 1):
        body = body.strip()
        if not body:
            continue  # an empty block beside others calls nothing; the others still count
        result = _scan_unescaping(body)
        if result is None:
            return _malformed(f"{tag} block {number}: not a call")
        if result.malformed:
            return _malformed(f"{tag} block {number}: {result.malformed}")
        results.append(result)
    return _combine(results)


def _name_then_arguments(text: str) -> Parsed | None:
    """GLM's format: the tool name alone on the first line, its JSON arguments below. A chat
    role (`assistant`) or a language tag is no tool name, and an object that is itself
    call-shaped is read as such by the other paths."""
    match = _NAME_THEN_JSON.match(text)
    if match is None or match.group(1).lower() in _NOT_TOOL_NAMES:
        return None
    try:
        arguments = load_json(match.group(2))
    except orjson.JSONDecodeError:
        return None
    if not isinstance(arguments, dict) or _is_call_like(arguments) or "tool_calls" in arguments:
        return None
    if is_refusal(match.group(1)):
        return EMPTY
    return Parsed(((match.group(1), canonical_json(arguments)),), None)


def function_call_bodies(text: str) -> list:
    """The bodies of granite's `<function_call>` blocks (text before the first tag is none)."""
    return [_FUNCTION_CALL_CLOSE.sub("", part) for part in text.split(_FUNCTION_CALL_TAG)[1:]]


def _parse_text(text: str) -> Parsed:
    stripped = text.strip()
    if not stripped:
        return EMPTY
    if stripped[0] in "[{":
        try:
            value = load_json(stripped)
        except orjson.JSONDecodeError:
            pass
        else:
            result = _from_value(value)
            return EMPTY if result is None else result
    # chat-template tokens anywhere (`<|im_start|>{...}<|im_start|>{...}`) separate what they sit between
    stripped = _SPECIAL_TOKEN.sub("\n", _LEADING_TOKENS.sub("", stripped)).strip()
    named = _name_then_arguments(stripped)
    if named is not None:
        return named
    if "<tool_call>" in stripped:
        return _read_blocks(_TOOL_CALL_BLOCK.findall(stripped), "tool_call")
    if _FUNCTION_CALL_TAG in stripped:
        return _read_blocks(function_call_bodies(stripped), "function_call")
    if "```" in stripped:
        # a fence holds calls only if its body starts like one; code that merely contains a
        # call somewhere (`print(...)` on line 5) is an example, not an attempt
        outside = _FENCE.sub("\n", stripped)
        bodies = [body.strip() for body in _FENCE.findall(stripped)]
        alone = not outside.strip() and len(bodies) == 1
        fenced = [result for body in bodies if body and _starts_call(body, whole=alone)
                  and (result := _read_unescaping(body)) is not None]
        if fenced:
            return _combine(fenced)
        stripped = outside
    result = _scan_unescaping(stripped)
    return EMPTY if result is None else result


def parse_output(text: str | None) -> Parsed:
    """Raw model text -> the calls it makes, an empty prediction, or malformed with a reason."""
    if text is None:
        return EMPTY
    if not isinstance(text, str):
        return _malformed(f"output is a {type(text).__name__}, not a text")
    if has_lone_surrogate(text):
        return _malformed("output holds a lone surrogate code point: not Unicode text")
    if _too_deep(text):
        return _malformed("output is nested too deeply to read")
    try:
        return _parse_text(text)
    except RecursionError:
        return _malformed("output is nested too deeply to read")


_SURROGATE = re.compile("[\ud800-\udfff]")


def has_lone_surrogate(text: str) -> bool:
    """Whether a text holds a surrogate code point, which no UTF-8 text can (a lenient JSON reader
    makes one of an escaped half pair): Python's parser and orjson refuse such a text."""
    return not text.isascii() and _SURROGATE.search(text) is not None


MAX_NESTING = 500  # brackets deep: how deep Python's parser and json read depends on the version


def _too_deep(text: str) -> bool:
    """Whether brackets nest deeper than MAX_NESTING, so that the verdict never depends on the
    Python version (3.13 reads nestings that 3.11 refuses); counted only when there are enough
    brackets to matter."""
    if len(text) <= MAX_NESTING or text.count("[") + text.count("{") + text.count("(") <= MAX_NESTING:
        return False
    depth = 0
    for char in text:
        if char in "[{(":
            depth += 1
            if depth > MAX_NESTING:
                return True
        elif char in "]})":
            depth = max(depth - 1, 0)
    return False
