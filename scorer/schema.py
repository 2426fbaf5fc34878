"""Tool schemas (OpenAI style, JSON Schema parameters) -> a *kind* per parameter.

The kind, not the look of a value, decides how the value is normalized: a `number` parameter
compares `"3"` and `3.0` as numbers, an `enum` case-insensitively, a `format: date` parameter
as a date. Without a schema the kind is inferred from the gold value and the parameter name.
"""

import re
from dataclasses import dataclass, replace

import orjson

from scorer import vocab
from scorer.rules import read_toml

_DATE_NAME = re.compile(r"(^|_)(dates?|day|birthdays?|deadlines?)($|_)|日期", re.I)  # `days` is a count
_DATETIME_NAME = re.compile(r"(^|_)(datetime|timestamp|time|start|end|departure|arrival)($|_)|时间", re.I)
_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_ISO_DATETIME = re.compile(r"^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}")
_FORMAT_KIND = {"date": "date", "date-time": "datetime", "time": "time"}
_TYPE_KIND = {
    "number": "number", "integer": "integer", "boolean": "boolean",
    "object": "object", "array": "array", "string": "text",
}


@dataclass(frozen=True)
class Param:
    """What the schema says about one parameter."""

    kind: str = "unknown"
    default_json: str | None = None  # the schema's default as JSON text (hashable), or None
    unordered: bool = False          # array compared as a set: `uniqueItems: true` or x-unordered
    tolerance: float = 0.0           # numbers within it compare equal: `x-tolerance`
    inclusive_end: object = None     # date ranges: True / False when the schema says, else None
    items: "Param | None" = None
    properties: tuple = ()           # ((name, Param), ...): a tuple so a Param can key a cache

    def property(self, name: str) -> "Param | None":
        return next((param for key, param in self.properties if key == name), None)


@dataclass(frozen=True)
class Tool:
    name: str
    params: dict                     # name -> Param
    required: tuple = ()


def _check(spec: dict, where: str) -> None:
    """ValueError naming the parameter when a schema keyword has the wrong JSON type (a list
    of properties, a numeric format), rather than a crash deep in scoring."""
    for keyword, wanted, name in (("properties", dict, "an object"), ("format", str, "a string"),
                                  ("type", (str, list), "a string or a list"), ("enum", list, "a list"),
                                  ("required", list, "a list"), ("items", (dict, list), "an object")):
        if spec.get(keyword) is not None and not isinstance(spec[keyword], wanted):
            raise ValueError(f"{where}: {keyword} is {type(spec[keyword]).__name__}, expected {name}")
    if isinstance(spec.get("type"), list) and not all(isinstance(t, str) for t in spec["type"]):
        raise ValueError(f"{where}: type lists something other than type names")
    if spec.get("x-tolerance") is not None and (isinstance(spec["x-tolerance"], bool)
                                                or not isinstance(spec["x-tolerance"], (int, float))):
        raise ValueError(f"{where}: x-tolerance is not a number")


def _param(spec, where="parameter") -> Param:
    if not isinstance(spec, dict):
        return Param()
    _check(spec, where)
    declared = spec.get("type")
    if isinstance(declared, list):  # ["string", "null"] -> string
        declared = next((t for t in declared if t != "null"), None)
    kind = _FORMAT_KIND.get(spec.get("format")) or _TYPE_KIND.get(declared, "unknown")
    if spec.get("enum") is not None and kind in ("text", "unknown"):
        kind = "enum"
    items = _param(spec["items"], f"{where}.items") if isinstance(spec.get("items"), dict) else None
    properties = tuple(sorted((k, _param(v, f"{where}.{k}")) for k, v in (spec.get("properties") or {}).items()))
    return Param(
        kind=kind,
        default_json=orjson.dumps(spec["default"]).decode() if "default" in spec else None,
        unordered=bool(spec.get("uniqueItems") or spec.get("x-unordered")),
        tolerance=float(spec.get("x-tolerance", 0.0)),
        inclusive_end=spec.get("x-inclusive-end"),
        items=items,
        properties=properties,
    )


def parse_tools(tools_json) -> dict:
    """A row's `tools` JSON (a list of tools, bare or wrapped as {"type": "function",
    "function": {...}}) -> {tool name: Tool}. Raises ValueError on a bad shape."""
    if tools_json is None:
        return {}
    tools = orjson.loads(tools_json) if isinstance(tools_json, (str, bytes)) else tools_json
    if isinstance(tools, dict):
        tools = [tools]
    if not isinstance(tools, list):
        raise ValueError("tools is not a list of tool schemas")
    parsed = {}
    for position, tool in enumerate(tools):
        if isinstance(tool, dict) and isinstance(tool.get("function"), dict):
            tool = tool["function"]
        if not isinstance(tool, dict) or not isinstance(tool.get("name"), str):
            raise ValueError(f"tool {position} has no name")
        parameters = tool.get("parameters") or {}
        if not isinstance(parameters, dict):
            raise ValueError(f"tool {tool['name']}: parameters is {type(parameters).__name__}, expected an object")
        _check(parameters, f"tool {tool['name']}")
        properties = parameters.get("properties") or {}
        parsed[tool["name"]] = Tool(
            name=tool["name"],
            params={name: _param(spec, f"tool {tool['name']}, parameter {name}") for name, spec in properties.items()},
            required=tuple(parameters.get("required") or ()),
        )
    return parsed


def infer_kind(name: str, gold_value) -> str:
    """The kind of a parameter no schema describes, from its gold value and its name."""
    if isinstance(gold_value, bool):
        return "boolean"
    if isinstance(gold_value, int):
        return "integer"
    if isinstance(gold_value, float):
        return "number"
    if isinstance(gold_value, dict):
        return "object"
    if isinstance(gold_value, list):
        return "array"
    if isinstance(gold_value, str):
        if _ISO_DATETIME.match(gold_value):
            return "datetime"
        if _ISO_DATE.match(gold_value):
            return "date"
        if _DATE_NAME.search(name):
            return "date"
        if _DATETIME_NAME.search(name):
            return "datetime"
    return "text"


def param_for(tools: dict, tool: str, name: str, gold_value) -> tuple:
    """(Param, known) for one argument: the schema's Param when the tool declares it, else a
    Param of the inferred kind; `known` is False when a schema exists for the tool but does not
    declare the argument."""
    declared = tools.get(tool)
    if declared is not None and name in declared.params:
        param = declared.params[name]
        if param.kind == "unknown" or (param.kind == "text" and _looks_temporal(name, gold_value)):
            param = replace(param, kind=infer_kind(name, gold_value))
        return param, True
    return Param(kind=infer_kind(name, gold_value)), declared is None


def range_role(name: str) -> str | None:
    """"start" or "end" when a parameter name marks one end of a time range (start_date,
    end_time, to_date), else None; the words are data in rules/ranges.toml."""
    words = read_toml("ranges.toml")
    parts = name.lower().replace("-", "_").split("_")
    if any(word in parts for word in words["end_words"]):
        return "end"
    if any(word in parts for word in words["start_words"]):
        return "start"
    return None


def _looks_temporal(name, gold_value) -> bool:
    return infer_kind(name, gold_value) in vocab.TEMPORAL_KINDS
