"""Java and JavaScript argument values -> JSON values, by the parameter's declared type.

In BFCL's `java` and `javascript` categories a model passes every argument as source text
(`"true"`, `"50L"`, `"new ArrayList<>(Arrays.asList(\\"a\\", \\"b\\"))"`, `"{limit: 50}"`), while
the possible answers hold the typed values (`true`, `50`, `["a", "b"]`, `{"limit": 50}`). The
text is read by the type the function declares (BFCL's rule); what does not read as that type
stays the text it is, so it compares as a wrong value rather than as unreadable output.

Java: integer/int/short/byte `50`; long `50L` (or `50`); float `1.5f`, double `1.5` (`d` allowed);
boolean `true`; char `'x'`; String `"text"`; Array `new int[]{1, 2}`; ArrayList/List/Queue/Stack/
Set `Arrays.asList(...)`, `List.of(...)`, `new ArrayList<>(Arrays.asList(...))`,
`new ArrayList<>() {{ add(x); }}`, `new ArrayList<>()`; HashMap/Hashtable/Map
`new HashMap<>() {{ put("k", v); }}`, `Map.of("k", v, ...)`, `new HashMap<>()`.
JavaScript: String `'text'` or `"text"`; integer, float; Bigint `50n`; Boolean `true`; array
`[1, 2]` or `new Array(1, 2)`; dict `{key: value, "k": v}` (keys quoted or not).
Items of collections are read as literals (quoted text, numbers with their suffix, booleans,
null, nested collections); `any` values stay text.
"""

import re

_INTEGER = re.compile(r"-?\d+")
_LONG = re.compile(r"(-?\d+)[lL]?")
_BIGINT = re.compile(r"(-?\d+)n?")
_FLOAT = re.compile(r"(-?\d+(?:\.\d*)?(?:[eE][+-]?\d+)?)[fFdD]?")
_CALL_ARGUMENTS = re.compile(r"^(?:Arrays\.asList|List\.of|Set\.of|Map\.of)\s*\((.*)\)$", re.DOTALL)
_NEW_WRAPPING = re.compile(r"^new\s+\w+\s*(?:<[^()]*>)?\s*\((.+)\)$", re.DOTALL)  # new ArrayList<>(Arrays.asList(...))
_JAVA_ARRAY = re.compile(r"^new\s+[\w.]+\s*\[\s*\]\s*\{(.*)\}$", re.DOTALL)
_DOUBLE_BRACE = re.compile(r"^new\s+\w+\s*(?:<[^{}]*>)?\s*\(\s*\)\s*\{\{(.*)\}\}$", re.DOTALL)
_EMPTY_COLLECTION = re.compile(r"^new\s+\w+\s*(?:<[^()]*>)?\s*\(\s*\)$")
_JS_NEW_ARRAY = re.compile(r"^new\s+Array\s*\((.*)\)$", re.DOTALL)
_STATEMENT = re.compile(r"(add|put)\s*\((.*)\)\s*;?$", re.DOTALL)

JAVA_LISTS = ("Array", "ArrayList", "List", "Queue", "Stack", "Set", "LinkedList")
JAVA_MAPS = ("HashMap", "Hashtable", "Map", "TreeMap")


def split_top_level(text: str, separator: str = ",") -> list:
    """The parts of a list of literals, split where `separator` is outside quotes and brackets."""
    parts, depth, quote, start, index = [], 0, None, 0, 0
    while index < len(text):
        char = text[index]
        if quote:
            if char == "\\":
                index += 1
            elif char == quote:
                quote = None
        elif char in "\"'":
            quote = char
        elif char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        elif char == separator and depth == 0:
            parts.append(text[start:index].strip())
            start = index + 1
        index += 1
    last = text[start:].strip()
    return parts + [last] if last or parts else parts


def literal(text: str):
    """A Java or JavaScript literal -> its JSON value; anything else stays its text."""
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        return text[1:-1].replace('\\"', '"').replace("\\'", "'")
    if text in ("true", "false"):
        return text == "true"
    if text in ("null", "undefined"):
        return None
    if _INTEGER.fullmatch(text):
        return int(text)
    for pattern, kind in ((_LONG, int), (_BIGINT, int), (_FLOAT, float)):
        match = pattern.fullmatch(text)
        if match:
            return kind(match.group(1))
    collection = _collection(text)
    return text if collection is None else collection


def _collection(text: str):
    for pattern in (_JAVA_ARRAY, _JS_NEW_ARRAY):
        match = pattern.match(text)
        if match:
            return [literal(part) for part in split_top_level(match.group(1))]
    match = _NEW_WRAPPING.match(text)
    if match and not _DOUBLE_BRACE.match(text):
        return _collection(match.group(1).strip())
    match = _CALL_ARGUMENTS.match(text)
    if match:
        items = [literal(part) for part in split_top_level(match.group(1))]
        if text.startswith("Map.of"):
            return {str(key): value for key, value in zip(items[::2], items[1::2])} if len(items) % 2 == 0 else None
        return items
    match = _DOUBLE_BRACE.match(text)
    if match:
        return _statements(match.group(1))
    if _EMPTY_COLLECTION.match(text):
        return {} if any(name in text for name in JAVA_MAPS) else []
    if text.startswith("[") and text.endswith("]"):
        return [literal(part) for part in split_top_level(text[1:-1])]
    if text.startswith("{") and text.endswith("}"):
        result = {}
        for part in split_top_level(text[1:-1]):
            key, colon, value = part.partition(":")
            if not colon:
                return None
            result[str(literal(key))] = literal(value)
        return result
    return None


def _statements(body: str):
    """`add(x); add(y);` -> [x, y]; `put("k", v); ...` -> {"k": v}."""
    listed, mapped = [], {}
    for statement in filter(None, split_top_level(body, ";")):
        match = _STATEMENT.match(statement)
        if not match:
            return None
        arguments = [literal(part) for part in split_top_level(match.group(2))]
        if match.group(1) == "add" and len(arguments) == 1:
            listed.append(arguments[0])
        elif match.group(1) == "put" and len(arguments) == 2:
            mapped[str(arguments[0])] = arguments[1]
        else:
            return None
    return mapped if mapped else listed


def typed_value(text: str, declared: str):
    """An argument's source text read as its declared Java or JavaScript type."""
    if not isinstance(text, str) or declared in (None, "any", "Any"):
        return text
    stripped = text.strip()
    if declared in ("integer", "int", "short", "byte"):
        return int(stripped) if _INTEGER.fullmatch(stripped) else text
    if declared in ("long", "Bigint"):
        match = (_LONG if declared == "long" else _BIGINT).fullmatch(stripped)
        return int(match.group(1)) if match else text
    if declared in ("float", "double", "number"):
        match = _FLOAT.fullmatch(stripped)
        return float(match.group(1)) if match else text
    if declared in ("boolean", "Boolean"):
        return stripped == "true" if stripped in ("true", "false") else text
    if declared in ("String", "char", "string"):
        value = literal(stripped)
        return value if isinstance(value, str) else text
    if declared in JAVA_LISTS + JAVA_MAPS + ("array", "dict"):
        value = _collection(stripped)
        return text if value is None else value
    return text
