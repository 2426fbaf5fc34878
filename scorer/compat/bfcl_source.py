"""BFCL's `java` and `javascript` categories, as its checker reads them (2024-08 source,
`eval_checker/java_type_converter.py`, `js_type_converter.py`, `model_handler/java_parser.py`,
`js_parser.py`; bfcl-eval 2026.3.23 reads them the same way).

A model passes every argument as source text; the checker converts the text by the declared
type (a text that does not read as that type stays text and fails the type check), then checks
it as in Python. The converters are regular-expression readers with their own edges, kept here:
a Java `long` needs its `L`, a `char` is never converted (BFCL's pattern for it cannot match), a
`String` inside an `Array` keeps its quotes, list items are split at every comma, a JavaScript
object is cut at its first `}`.

Prompt-mode results are call source text, parsed by tree-sitter's Java or JavaScript grammar
(the `bfcl-java` extra pins BFCL's versions); without it those rows are not decided.
"""

import re

JAVA_TYPES = {"byte": int, "short": int, "integer": int, "float": float, "double": float, "long": int,
              "boolean": bool, "char": str, "Array": list, "ArrayList": list, "Set": set, "HashMap": dict,
              "Hashtable": dict, "Queue": list, "Stack": list, "String": str, "any": str}
JS_TYPES = {"String": str, "integer": int, "float": float, "Bigint": int, "Boolean": bool, "dict": dict,
            "array": list, "any": str}
NESTED_CONVERSION = ("Array", "ArrayList", "array")

_INTEGER = re.compile(r"^-?\d+$")
_JAVA_FLOAT = re.compile(r"^-?\d+(\.\d+)?([eE][+-]?\d+)?[fF]$")
_JAVA_DOUBLE = re.compile(r"^-?\d+(\.\d+)?([eE][+-]?\d+)?$")
_JAVA_LONG = re.compile(r"^-?\d+[lL]$")
_AS_LIST = re.compile(r"new\s+ArrayList<\w*>\(Arrays\.asList\((.+?)\)\)")
_ADDS = re.compile(r"new\s+ArrayList<\w*>\(\)\s*\{\{\s*(.+?)\s*\}\}", re.DOTALL)
_ADD = re.compile(r"add\((.+?)\)")
_EMPTY_LIST = re.compile(r"new\s+ArrayList<\w*>\(\)")
_ARRAY = re.compile(r"new\s+\w+\[\]\s*\{(.*?)\}")
_PUTS = re.compile(r"new\s+HashMap<.*?>\s*\(\)\s*\{\s*\{?\s*(.*?)\s*\}?\s*\}", re.DOTALL)
_PUT = re.compile(r"put\(\"(.*?)\",\s*(.*?)\)")
_EMPTY_MAP = re.compile(r"new\s+HashMap<.*?>\s*\(\)")
_JS_FLOAT = re.compile(r"^-?\d+(\.\d+)?$")
_JS_BIGINT = re.compile(r"^-?\d+n$")
_JS_ARRAYS_2D = re.compile(r"\[\s*\[.*?\]\s*(,\s*\[.*?\]\s*)*\]|\bnew\s+Array\(\s*\[.*?\]\s*(,\s*\[.*?\]\s*)*\)")
_JS_ARRAY = re.compile(r"\[(.*?)\]|\bnew\s+Array\((.*?)\)")
_JS_INNER = re.compile(r"\[(.*?)\]")
_JS_OBJECT = re.compile(r"\{(.*?)\}")
_JS_PAIR = re.compile(r"([^:]+):\s*(.*?)(?:,\s*(?=[^,]+:)|$)")


def _is_boolean(text: str) -> bool:
    return text in ("true", "false")


def _quoted(text: str) -> bool:
    return (text.startswith('"') and text.endswith('"')) or (text.startswith("'") and text.endswith("'"))


# scalar type -> (the test a text must pass, how it is read then); a text that fails stays text
_JAVA_SCALARS = {"byte": (_INTEGER.match, int), "short": (_INTEGER.match, int), "integer": (_INTEGER.match, int),
                 "float": (_JAVA_FLOAT.match, lambda text: float(text[:-1])), "double": (_JAVA_DOUBLE.match, float),
                 "long": (_JAVA_LONG.match, lambda text: int(text[:-1])), "boolean": (_is_boolean, "true".__eq__)}
_JS_SCALARS = {"String": (_quoted, lambda text: text[1:-1]), "integer": (_INTEGER.match, int),
               "float": (_JS_FLOAT.match, float), "Bigint": (_JS_BIGINT.match, lambda text: int(text[:-1])),
               "Boolean": (_is_boolean, "true".__eq__)}


def _scalar(text: str, passes, read):
    return read(text) if passes(text) else text


class Unconvertible(Exception):
    """BFCL's converter raised (a type it does not convert): its run would stop on the row."""


def _number_or_text(text: str):
    """Python's int(), then float(), then the text: BFCL's last resort for an untyped item."""
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            continue
    return text


# ---------------------------------------------------------------- Java


def java_value(text: str, type_name: str, item_type=None):
    """BFCL's `java_type_converter`: `text` read as Java type `type_name`."""
    if type_name not in JAVA_TYPES:
        raise Unconvertible(f"Unsupported type: {type_name}")
    if type_name in _JAVA_SCALARS:
        return _scalar(text, *_JAVA_SCALARS[type_name])
    if type_name == "ArrayList":
        return _java_array_list(text, item_type)
    if type_name == "Array":
        return _java_array(text, item_type)
    if type_name == "HashMap":
        return _java_hash_map(text)
    if type_name in ("Set", "Hashtable", "Queue", "Stack"):
        raise Unconvertible(f"{type_name} conversion is not implemented")
    return text  # String, any, and char (whose pattern in BFCL never matches)


def _java_item(text: str, item_type):
    if item_type in ("char", "String"):
        return text[1:-1]  # the quotes off, whatever they are
    return java_value(text, item_type) if item_type else java_literal(text)


def _java_array_list(text: str, item_type):
    found = _AS_LIST.search(text)
    if found:
        return [_java_item(part.strip(), item_type) for part in found.group(1).split(",")]
    found = _ADDS.search(text)
    if found:
        return [_java_item(added.strip(), item_type) for added in _ADD.findall(found.group(1))]
    return [] if _EMPTY_LIST.search(text) else text


def _java_array(text: str, item_type):
    found = _ARRAY.search(text)
    if not found:
        return text
    parts = [part.strip() for part in found.group(1).split(",") if part.strip()]
    return [java_value(part, item_type) if item_type else java_literal(part) for part in parts]


def _java_hash_map(text: str):
    found = _PUTS.search(text)
    if found:
        body = found.group(1)
        return {key: java_literal(value.strip()) for key, value in _PUT.findall(body)} if body.strip() else {}
    return {} if _EMPTY_MAP.search(text) else text


def java_literal(text: str):
    """BFCL's `parse_java_value`: a value read without its declared type."""
    if text in ("true", "false"):
        return text == "true"
    if text.startswith('"') and text.endswith('"'):
        return text[1:-1]
    if _JAVA_LONG.match(text):
        return int(text[:-1])
    if _JAVA_FLOAT.match(text):
        return float(re.sub(r"[fF]$", "", text))
    return _number_or_text(text)


# ---------------------------------------------------------------- JavaScript


def js_value(text: str, type_name: str, item_type=None):
    """BFCL's `js_type_converter`: `text` read as JavaScript type `type_name`."""
    if type_name not in JS_TYPES:
        raise Unconvertible(f"Unsupported type: {type_name}")
    if type_name in _JS_SCALARS:
        return _scalar(text, *_JS_SCALARS[type_name])
    if type_name == "dict":
        return _js_object(text.strip())
    if type_name == "array":
        return _js_array(text.strip(), item_type)
    return text


def _js_split(text: str) -> list:
    text = text.strip()
    return text.split(",") if text else []


def _js_array(code: str, item_type):
    try:
        found = _JS_ARRAYS_2D.match(code)
        if found:
            rows = []
            for index, inner in enumerate(_JS_INNER.findall(found.group(0))):
                inner = inner.strip()
                if index == 0 and inner.startswith("["):
                    inner = inner[1:]
                rows.append([js_literal(item.strip()) for item in inner.split(",")])
            return rows
        found = _JS_ARRAY.match(code)
        if not found:
            return code
        items = _js_split(found.group(1) if found.group(1) is not None else found.group(2) or "")
        if item_type:  # BFCL passes a quoted item "String" as its own item type
            return [js_value(item.strip(), item_type, "String" if _quoted(item.strip()) else None) for item in items]
        return [js_literal(item.strip()) for item in items]
    except Exception:  # noqa: BLE001 -- BFCL's reader returns the text on any error here
        return code


def _js_object(code: str):
    if code == "{}":
        return {}
    found = _JS_OBJECT.match(code)
    if not found:
        return code
    result = {}
    try:
        for key, value in _JS_PAIR.findall(found.group(1)):
            key, value = key.strip().strip("'\""), value.strip()
            if value.startswith("[") and value.endswith("]"):
                result[key] = _js_array(value, None)
            elif value.startswith("{") and value.endswith("}"):
                result[key] = _js_object(value)
            else:
                result[key] = js_literal(value.strip("'\""))
    except Exception:  # noqa: BLE001 -- as above
        return code
    return result


def js_literal(text: str):
    """BFCL's `parse_js_value`."""
    text = text.strip()
    if text in ("true", "false"):
        return text == "true"
    if _quoted(text):
        return text[1:-1]
    return _number_or_text(text)


CONVERTERS = {"Java": (JAVA_TYPES, java_value, "type_error:java"),
              "JavaScript": (JS_TYPES, js_value, "type_error:js")}


# ---------------------------------------------------------------- call source text


class SourceError(Exception):
    """The source text does not parse (BFCL's decoder raised)."""


_PARSERS = {}


def _parser(language: str):
    """tree-sitter's parser for the language, built once; None without the bfcl-java extra."""
    if language not in _PARSERS:
        try:
            from tree_sitter import Language, Parser
            if language == "Java":
                import tree_sitter_java as grammar
            else:
                import tree_sitter_javascript as grammar
        except ImportError:
            _PARSERS[language] = None
        else:
            parser = Parser()
            parser.set_language(Language(grammar.language(), language.lower()))
            _PARSERS[language] = parser
    return _PARSERS[language]


def can_parse(language: str) -> bool:
    return _parser(language) is not None


def _tree(language: str, source: str):
    root = _parser(language).parse(source.encode("utf-8")).root_node
    if "ERROR" in root.sexp():
        raise SourceError(f"Error parsing {language} the source code.")
    return root


def java_calls(source: str):
    """BFCL's `parse_java_function_call`: the first method call in the text, as
    [{name: {argument: source text}}], or {} when there is none. Node texts are cut from the
    text at the nodes' byte offsets, as BFCL cuts them (off by a few characters after a
    character outside ASCII)."""
    root = _tree("Java", source)

    def text(node):
        return source[node.start_byte:node.end_byte]

    def value(node, nested=False):
        if node.type in ("string_literal", "character_literal"):
            return text(node) if nested else text(node)[1:-1]
        if node.type in ("identifier", "class_literal", "type_identifier", "method_invocation"):
            return text(node)
        if node.type == "array_creation_expression":
            return f"new {value(node.child_by_field_name('type'), True)}[]{value(node.child_by_field_name('value'), True)}"
        if node.type == "object_creation_expression":
            kind = value(node.child_by_field_name("type"), True)
            arguments = node.child_by_field_name("arguments")
            if arguments is None:
                return f"new {kind}()"
            parts = [value(child, True) for child in arguments.children if child.type not in (",", "(", ")")]
            return f"new {kind}({', '.join(parts)})"
        if node.type == "set":
            return "{" + ", ".join(value(child, True) for child in node.children if child.type not in (",", "set")) + "}"
        if node.child_count:
            return "".join(value(child, True) for child in node.children)
        return text(node)

    def arguments_of(node):
        found = {}
        for child in node.children:
            if child.type == "assignment_expression":
                name, given = text(child.children[0]), value(child.children[2])
            elif child.type in ("identifier", "class_literal", "set"):
                name, given = None, value(child)
            else:
                continue
            if name in found:
                raise SourceError("Error: Multiple arguments with the same name are not supported.")
            found[name] = given
        return found

    def first_call(node):
        if node.type == "method_invocation":
            arguments = node.child_by_field_name("arguments")
            if arguments is None:
                return None
            owner = node.child_by_field_name("object")
            name = text(node.child_by_field_name("name"))
            return [{f"{text(owner)}.{name}" if owner is not None else name: arguments_of(arguments)}]
        for child in node.children:
            found = first_call(child)
            if found:
                return found
        return None

    return first_call(root) or {}


def js_calls(source: str):
    """BFCL's `parse_javascript_function_call`: the call that is a statement of its own, as
    [{name: {argument: source text, quotes off}}]; None when there is none."""
    root = _tree("JavaScript", source)
    if root.type != "program":
        return None
    for statement in root.children:
        if statement.type != "expression_statement":
            continue
        for node in statement.children:
            if node.type == "call_expression":
                found = {}
                for child in node.children[1].children:
                    if child.type == "assignment_expression":
                        name, given = child.children[0].text.decode(), child.children[2].text.decode()
                        given = given[1:-1] if _quoted(given) else given
                    elif child.type in ("identifier", "true"):
                        name, given = None, child.text.decode()
                    else:
                        continue
                    if name in found:
                        raise SourceError("Error: Multiple arguments with the same name are not supported.")
                    found[name] = given
                return [{node.children[0].text.decode(): found}]
    return None
