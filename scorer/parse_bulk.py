"""Bulk parsing of a column of raw outputs: the regular shapes most models write read with
orjson, everything else handed to the careful parser (scorer/parse.py), which stays the
definition of what an output means.

The fast path accepts an output only when it can tell that the careful parser would take
the same road, and builds the calls through the careful parser's own `_from_value` (decoded
JSON -> calls), so an accepted output reads exactly as `parse_output` reads it:
- a text opening with `[` or `{` is the careful parser's own first step (orjson on the whole
  text), taken as it is;
- `<tool_call>` blocks whose bodies are each one JSON object shaped like a call;
- markdown fences whose bodies are each one JSON value shaped like calls, prose around them
  allowed.
Anything else, and anything the fast path would read as malformed or as data (the careful
parser then explains it or looks further), goes to `parse_output`. Python-call syntax
always does: it needs `ast`. tests/parse/test_bulk.py holds the two equal on a generated
corpus of regular shapes and near misses.

Each distinct text of a column is read once."""

import orjson

from scorer.parse import (_CALL_KEY, _FENCE, _FUNCTION_CALL_TAG, _TOOL_CALL_BLOCK, EMPTY,
                          Parsed, _from_value, load_json, parse_output)


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


def read_regular(text) -> Parsed | None:
    """An output read by the fast path, or None when it is left to the careful parser. (Leading
    special tokens need no stripping here: they cannot hold a tag or a fence.)"""
    if not isinstance(text, str):
        return None
    stripped = text.strip()
    if not stripped:
        return EMPTY
    if stripped[0] in "[{":
        return None  # the careful parser's first step is this fast path already
    if "<tool_call>" in stripped:
        bodies = _TOOL_CALL_BLOCK.findall(stripped)
    elif _FUNCTION_CALL_TAG in stripped or "```" not in stripped:
        return None
    else:
        bodies = _FENCE.findall(stripped)
    try:
        return _read_calls(bodies)
    except RecursionError:   # arguments nested past what JSON writing allows: the careful parser says so
        return None


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
