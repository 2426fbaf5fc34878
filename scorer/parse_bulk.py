"""Bulk parsing of a column of raw outputs: the regular shapes most models write read with
orjson or the compiled Python-call scanner, everything else handed to the careful parser (scorer/parse.py), which stays the
definition of what an output means.

The fast path accepts an output only when it can tell that the careful parser would take
the same road, and builds the calls through the careful parser's own `_from_value` (decoded
JSON -> calls), so an accepted output reads exactly as `parse_output` reads it:
- OpenAI's tool calls, a JSON list of them or a message holding them, when every call has
  exactly the keys `id`, `type` and `function`, and its function `name` and an `arguments`
  text: msgspec decodes and checks that shape in C (2x a Python walk over orjson's objects on
  the throughput sample), and the calls are built with the careful parser's own helpers; any
  other JSON text is the careful parser's own first step (orjson on the whole text);
- `<tool_call>` blocks, and granite's `<function_call>` ones, whose bodies are each one JSON
  object shaped like a call;
- Python-call syntax (`[get_weather(city='北京'), book(n=3)]`, a bare call, prose lines
  before it) read by the scanner of scorer/callscan.py instead of `ast`, where the scanner
  reads the whole segment the careful parser would hand to `ast` (markdown-escaped
  underscores retried unescaped, as the careful parser retries them);
- markdown fences whose bodies that start like calls are each one JSON value shaped like
  calls or a Python-call list the scanner reads, prose around them allowed;
- prose in which no line starts like a call: an empty prediction, as the careful parser
  finds it (with markdown-escaped underscores undone too).
Anything else, and anything the fast path would read as malformed or as data (the careful
parser then explains it or looks further), goes to `parse_output`; so does any text with a
chat-template token (`<|...|>`, `[TOOL_CALLS]`), which the careful parser rewrites first, or
with brackets nested past what it reads. tests/parse/test_bulk.py and test_callscan.py hold
the two equal on generated corpora of regular shapes and near misses.

Each distinct text of a column is read once."""

import msgspec
import orjson
import pyarrow as pa

from scorer.callscan import NOT_PYTHON, has_long_digits, scan_calls
from scorer.parse import (_CALL_KEY, _FENCE, _FUNCTION_CALL_TAG, _NAME_THEN_JSON, _PY_BARE_POSITIONAL,
                          _PY_BRACKETED, _TOOL_CALL_BLOCK, EMPTY, Parsed, _arguments_text, _from_value,
                          _starts_call, _too_deep, _Unreadable, call_name, canonical_json, function_call_bodies,
                          has_lone_surrogate, is_refusal, line_starts, load_json, parse_calls_value,
                          parse_output)
from scorer.tables import CALLS

_REWRITTEN = ("<|", "[TOOL_CALLS]")   # chat-template tokens: the careful parser rewrites the text first


class _Function(msgspec.Struct, forbid_unknown_fields=True):
    name: str
    arguments: str


class _ToolCall(msgspec.Struct, forbid_unknown_fields=True):
    function: _Function
    id: str | None = None
    type: str | None = None


class _Message(msgspec.Struct):
    """A message's other keys (role, content) are read by neither parser once it has calls."""

    tool_calls: list[_ToolCall]


_TOOL_CALL_LIST = msgspec.json.Decoder(list[_ToolCall])
_MESSAGE = msgspec.json.Decoder(_Message)


def _read_tool_calls(stripped: str) -> Parsed | None:
    """OpenAI's tool calls (a list, or a message with a non-empty list) in the exact shape above,
    read as the careful parser reads them (refusal sentinels dropped); None for anything else,
    for what the careful parser finds malformed (a blank name, an arguments text that is no JSON
    object, a lone surrogate), and for a text the careful parser decodes with the standard
    library's json instead of orjson (a run of 20 digits)."""
    try:
        calls = _TOOL_CALL_LIST.decode(stripped) if stripped[0] == "[" else _MESSAGE.decode(stripped).tool_calls
    except (msgspec.MsgspecError, UnicodeEncodeError):   # not this shape, not JSON, or a lone surrogate
        return None
    if not calls or has_long_digits(stripped):
        return None   # an empty list or a message whose content is read instead; or the standard library's json
    return _regular_calls((call.function.name, call.function.arguments) for call in calls)


def _one_json_value(body: str):
    """The JSON value a text is, whole, when it opens like a call to the careful parser (a
    quoted call key); None otherwise."""
    if not body or body[0] not in "[{" or _CALL_KEY.search(body) is None:
        return None
    try:
        return load_json(body)
    except orjson.JSONDecodeError:
        return None


def _read_calls(bodies) -> Parsed | None:
    """Calls of the bodies, each one JSON value shaped like calls; None unless all are and
    none is malformed."""
    calls = []
    for body in bodies:
        value = _one_json_value(body.strip())
        if value is None:
            return None
        result = _from_value(value)
        if result is None or result.malformed:
            return None
        calls.extend(result.calls)
    return Parsed(tuple(calls), None)


def _as_parsed(calls) -> Parsed | None:
    """The scanner's calls as the careful parser's `_from_python` returns them (refusal
    sentinels such as `no_function()` dropped); None when the scanner did not read the text."""
    if isinstance(calls, int):
        return None
    return Parsed(tuple((name, canonical_json(arguments)) for name, arguments in calls if not is_refusal(name)),
                  None)


def _read_python(segment: str) -> Parsed | None:
    """The careful parser's `_read_unescaping` of a segment that starts like a call, when the
    scanner reads the segment whole; None otherwise. A segment the scanner reads is no JSON
    (`[` then a name), so the careful parser hands it to `ast` whole, which reads it as the
    scanner does. NOT_PYTHON on one line means that every `ast` attempt fails (malformed), so
    the careful parser reads the segment again unescaped."""
    calls = scan_calls(segment)
    if calls == NOT_PYTHON and "\n" not in segment:
        calls = scan_calls(segment.replace("\\_", "_"))
    return _as_parsed(calls)


def _scanned_python(text: str, unescaping: bool = True) -> Parsed | None:
    """The careful parser's reading of a text that reaches its line scan (`_scan_unescaping`,
    nothing found being an empty prediction): the calls when the first line that starts like a
    call opens a segment the scanner reads, EMPTY when no line starts like one (prose); None
    otherwise."""
    calls = scan_calls(text) if text[0] == "[" else None
    if calls is not None and not isinstance(calls, int):
        return _as_parsed(calls)   # a text the scanner reads starts like a call on its first line
    for first, start in line_starts(text):
        if start < len(text) and _starts_call(text, start, whole=first):
            segment = text[start:].rstrip()
            if start or calls is None:
                calls = scan_calls(segment)
            if calls == NOT_PYTHON and unescaping and "\n" not in segment:
                # the careful parser finds this segment malformed and reads the whole text again
                # unescaped; when that finds nothing, it keeps the malformed reading (not ours to build)
                retried = _scanned_python(text.replace("\\_", "_"), unescaping=False)
                return None if retried is EMPTY else retried
            return _as_parsed(calls)
    if unescaping and "\\_" in text:
        return _scanned_python(text.replace("\\_", "_"), unescaping=False)   # the careful parser looks again unescaped
    return EMPTY


def _read_fences(stripped: str) -> Parsed | None:
    """The careful parser's reading of fenced calls: each fence body that starts like a call is
    a JSON value shaped like calls or Python calls the scanner reads; None unless all are and
    there is at least one."""
    calls = []
    for body in _FENCE.findall(stripped):
        body = body.strip()
        if not body or not _starts_call(body):
            if body and _PY_BARE_POSITIONAL.match(body):
                return None   # an attempt or not, depending on the prose around the fence: the careful parser decides
            continue
        python_like = _PY_BRACKETED.match(body) if body[0] == "[" else body[0] != "{"
        result = _read_python(body) if python_like else None
        if result is None:
            result = _read_calls([body])
            if result is None:
                return None
        calls.extend(result.calls)
    return Parsed(tuple(calls), None) if calls else None


def read_regular(text) -> Parsed | None:
    """An output read by the fast path, or None when it is left to the careful parser."""
    if not isinstance(text, str):
        return None
    stripped = text.strip()
    if not stripped:
        return EMPTY
    if _too_deep(text):
        return None
    if stripped[0] == "{" or (stripped[0] == "[" and not _PY_BRACKETED.match(stripped)):
        return _read_tool_calls(stripped)
    if has_lone_surrogate(text) or any(token in stripped for token in _REWRITTEN):
        return None
    tagged = any(mark in stripped for mark in ("<tool_call>", _FUNCTION_CALL_TAG, "```"))
    if stripped[0] == "[":
        return None if tagged else _scanned_python(stripped)   # the scanner reads no JSON
    if _NAME_THEN_JSON.match(stripped):
        return None   # GLM's name-then-arguments: the careful parser's next step
    try:
        if not tagged:
            return _scanned_python(stripped)
        if "<tool_call>" in stripped:
            return _read_calls(_TOOL_CALL_BLOCK.findall(stripped))
        if _FUNCTION_CALL_TAG in stripped:
            return _read_calls(function_call_bodies(stripped))
        return _read_fences(stripped)
    except RecursionError:   # arguments nested past what JSON writing allows: the careful parser says so
        return None


def calls_values(calls: pa.Array) -> list:
    """A `calls` column as the encoder's `parse_column` takes it: in callscore's own type, read
    here from its Arrow columns (Parsed per row, None for null); in any other type, as Python values."""
    return parse_call_lists(calls) if calls.type == CALLS else calls.to_pylist()


def parse_call_lists(calls: pa.Array) -> list:
    """Parsed calls of each row of a `calls` column in callscore's own type (CALLS: a list of
    {name, arguments text}), read from its flattened columns without a Python dict per call;
    None for a null row. A row whose every call has a name and arguments that are null or a
    JSON-object text is read here as `parse_calls_value` reads it (refusal sentinels dropped);
    any other row is handed to `parse_calls_value` itself, which says what is wrong."""
    names, texts = (field.to_pylist() for field in calls.flatten().flatten())   # a null call: null fields
    offsets = calls.offsets.to_numpy()
    offsets = (offsets - offsets[0]).tolist()
    found = []
    for row, valid in enumerate(calls.is_valid().to_pylist()):
        start, end = offsets[row], offsets[row + 1]
        parsed = _regular_calls(zip(names[start:end], texts[start:end])) if valid else None
        found.append(parse_calls_value(calls[row].as_py()) if valid and parsed is None else parsed)
    return found


def _regular_calls(calls) -> Parsed | None:
    """(name, arguments text or None) pairs read as the careful parser reads them (refusal
    sentinels dropped), or None when one of them is not regular: no name, a blank one, or
    arguments the careful parser would find unreadable (it then says why)."""
    read = []
    for name, text in calls:
        if name is None or not name.strip():
            return None
        if not is_refusal(name):
            try:
                read.append((call_name(name), "{}" if text is None else _arguments_text(text)))
            except _Unreadable:
                return None
    return Parsed(tuple(read), None)


def parse_outputs(texts) -> list:
    """Parsed calls of each output of a column (None -> an empty prediction), in order."""
    read = {}
    found = []
    for text in texts:
        result = read.get(text)
        if result is None:
            result = read[text] = read_regular(text) or parse_output(text)
        found.append(result)
    return found
