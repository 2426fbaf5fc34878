"""Tool schemas (OpenAI style, JSON Schema parameters) -> a *kind* per parameter.

The kind, not the look of a value, decides how the value is normalized: a `number` parameter
compares `"3"` and `3.0` as numbers, an `enum` case-insensitively, a `format: date` parameter
as a date. Without a schema the kind is inferred from the gold value and the parameter name.
"""

import functools
import re
from dataclasses import dataclass, replace

import orjson

from scorer import vocab
from scorer.frozen import hash_once
from scorer.rules import read_toml
from scorer.script import HAN

_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_WORD_SEPARATORS = re.compile(r"[_\-\s.]+")
# a gold value that may be a time: digits, a Chinese date or clock word, or an English day word
_TIME_LIKE = re.compile(r"\d|[年月日号周天时点分今明昨]|\b(today|tomorrow|yesterday|tonight|now|noon|midnight|"
                        r"monday|tuesday|wednesday|thursday|friday|saturday|sunday|morning|evening)\b", re.I)
_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_ISO_DATETIME = re.compile(r"^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}")
_FORMAT_KIND = {"date": "date", "date-time": "datetime", "time": "time"}
_TYPE_KIND = {
    "number": "number", "integer": "integer", "boolean": "boolean",
    "object": "object", "array": "array", "string": "text",
}


@hash_once
@dataclass(frozen=True)
class Param:
    """What the schema says about one parameter."""

    kind: str = "unknown"
    place: bool = False              # a place-typed text: Chinese administrative names via rules/places/
    described: str | None = None     # what the schema's description says the value is (_described)
    unit: str | None = None          # numbers: the unit its values are in (rules/units.toml), if named
    identifier: str | None = None    # "phone", "code": compared by letters and digits (identifier_kind)
    person: bool = False             # a person's name: names one edit apart go to a judge (names_person)
    default_json: str | None = None  # the schema's default as JSON text (hashable), or None
    unordered: bool = False          # array compared as a set: `uniqueItems: true` or x-unordered
    tolerance: float = 0.0           # numbers within it compare equal: `x-tolerance`
    inclusive_end: object = None     # date ranges: True / False when the schema says, else None
    items: "Param | None" = None
    properties: tuple = ()           # ((name, Param), ...): a tuple so a Param can key a cache
    members: tuple = ()              # an enum's members as written (strings only), or ()

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
    described = _described(spec.get("description"))
    return Param(
        kind=kind,
        place=kind == "text" and described == "place",
        described=described,
        default_json=orjson.dumps(spec["default"]).decode() if "default" in spec else
        described_default(spec.get("description"), kind),
        unordered=bool(spec.get("uniqueItems") or spec.get("x-unordered")),
        tolerance=float(spec.get("x-tolerance") or 0.0),  # null: no tolerance, as if absent
        inclusive_end=spec.get("x-inclusive-end"),
        items=items,
        properties=properties,
        members=tuple(v for v in spec["enum"] if isinstance(v, str)) if kind == "enum" else (),
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
    from_text = isinstance(tools_json, (str, bytes))
    parsed = {}
    for position, tool in enumerate(tools):
        if isinstance(tool, dict) and isinstance(tool.get("function"), dict):
            tool = tool["function"]
        if not isinstance(tool, dict) or not isinstance(tool.get("name"), str):
            raise ValueError(f"tool {position} has no name")
        parsed[tool["name"]] = _tool_from_text(orjson.dumps(tool), tool) if from_text else _tool(tool)
    return parsed


_TOOLS_READ = {}     # JSON text of one tool schema -> Tool
MAX_TOOLS_READ = 4096


def _tool_from_text(text: bytes, tool: dict) -> Tool:
    """A tool read from JSON text, once per distinct schema: benchmarks offer each row a
    different list of the same few tools (the throughput bench's 3,000 gold rows: 1,922 lists,
    6,216 tools, 18,429 parameters read before). Only for tools read from text, whose JSON
    form is exact (a float NaN from Arrow would be written as null)."""
    found = _TOOLS_READ.get(text)
    if found is None:
        if len(_TOOLS_READ) >= MAX_TOOLS_READ:
            _TOOLS_READ.clear()
        found = _TOOLS_READ[text] = _tool(tool)
    return found


def _tool(tool: dict) -> Tool:
    parameters = tool.get("parameters") or {}
    if not isinstance(parameters, dict):
        raise ValueError(f"tool {tool['name']}: parameters is {type(parameters).__name__}, expected an object")
    _check(parameters, f"tool {tool['name']}")
    properties = parameters.get("properties") or {}
    return Tool(
        name=tool["name"],
        params={name: _named(name, spec, _param(spec, f"tool {tool['name']}, parameter {name}"))
                for name, spec in properties.items()},
        required=tuple(parameters.get("required") or ()),
    )


def omissible(tool: Tool | None, name: str) -> bool:
    """Whether a call may leave the parameter out and mean its schema's default: declared with a
    `default` and not required. Gold that writes it at the default is met by a call without it
    (unit: celsius, rooms: 1), as a call that writes the default where gold leaves it out is."""
    return tool is not None and name in tool.params and tool.params[name].default_json is not None \
        and name not in tool.required


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
        named = name_kind(name)
        if named in ("date", "datetime"):
            return named
        if named == "ambiguous" and _TIME_LIKE.search(gold_value):
            return "datetime"
    return "text"


def param_for(tools: dict, tool: str, name: str, gold_value) -> tuple:
    """(Param, known) for one argument: the schema's Param when the tool declares it, else a
    Param of the inferred kind; `known` is False when a schema exists for the tool but does not
    declare the argument."""
    declared = tools.get(tool)
    if declared is not None and name in declared.params:
        param = declared.params[name]
        if param.kind == "unknown":
            param = _of_kind(param, infer_kind(name, gold_value))
        elif param.kind == "text" and not param.place:
            refined = _refined_text_kind(param, name, gold_value)
            if refined != "text":
                param = _of_kind(param, refined)
        return param, True
    kind = infer_kind(name, gold_value)
    identifier = identifier_kind(name, "") if kind in IDENTIFIER_KINDS else None
    plain = kind == "text" and identifier is None
    return _undeclared(kind, plain and name_kind(name) == "place", identifier,
                       plain and names_person(name, "")), declared is None


@functools.lru_cache(maxsize=4096)
def _of_kind(param: Param, kind: str) -> Param:
    """`param` of another kind, one object per (param, kind), so that the normalization memo
    meets it by identity instead of comparing it field by field."""
    return replace(param, kind=kind)


@functools.lru_cache(maxsize=64)
def _undeclared(kind: str, place: bool, identifier: str | None, person: bool) -> Param:
    return Param(kind=kind, place=place, identifier=identifier, person=person)


def _refined_text_kind(param: Param, name: str, gold_value) -> str:
    """A declared string's kind: its description first (a date, a moment, a place), then the
    gold value and the name when the description says nothing."""
    if param.described in ("date", "datetime"):
        value_kind = infer_kind("", gold_value)
        return value_kind if value_kind in vocab.TEMPORAL_KINDS else param.described
    if param.described is not None:
        return "text"
    inferred = infer_kind(name, gold_value)
    return inferred if inferred in vocab.TEMPORAL_KINDS else "text"   # a string stays a string


def _named(name: str, spec, param: Param) -> Param:
    """What the name adds: a string or integer whose description or name says so is an
    identifier; a declared string whose description says nothing is a place when its name says
    so, and a person's name when its description or name says so; a number is in the unit its
    name or description names."""
    description = spec.get("description") if isinstance(spec, dict) else None
    description = description if isinstance(description, str) else ""
    if param.kind in IDENTIFIER_KINDS:
        identifier = identifier_kind(name, description)
        if identifier is not None:
            return replace(param, identifier=identifier)
    if param.kind == "text" and param.described is None and name_kind(name) == "place":
        return replace(param, place=True)
    if param.kind == "text" and not param.place and names_person(name, description):
        return replace(param, person=True)
    if param.kind in ("number", "integer"):
        unit = field_unit(name, description)
        if unit is not None:
            return replace(param, unit=unit)
    return param


@functools.lru_cache(maxsize=4096)
def names_person(name: str, description: str) -> bool:
    """Whether a parameter's description or, failing that, its name says its values are people's
    names (rules/param_kinds.toml `person`): `contact`, `artist`, `name` alone or after a word for
    a person (`full_name`, `passenger_name`, not `city_name`), a Chinese name ending `联系人`."""
    words = read_toml("param_kinds.toml")["person"]
    if any(word in description.lower() for word in words["description"]):
        return True
    head, before = _head_and_before(name)
    return head in words["heads"] or (head == "name" and (before is None or before in words["name_qualifiers"])) or (
        bool(HAN.search(name)) and any(name.endswith(ending) for ending in words["chinese"]))


IDENTIFIER_KINDS = ("text", "unknown", "integer")   # kinds an identifier is declared as (not a float)


@functools.lru_cache(maxsize=4096)
def identifier_kind(name: str, description: str) -> str | None:
    """The kind of identifier (a section of rules/param_kinds.toml's `identifiers`: "phone",
    "code") a parameter's description or, failing that, its name says its values are, else None.
    The name by its head word (`phone`, `postcode`), a number word after a qualifier
    (`phone_number`, `order_id`, `flight_no`), or a Chinese name's ending (`手机号`, `车次`)."""
    words = read_toml("param_kinds.toml")["identifiers"]
    kinds = {kind: spec for kind, spec in words.items() if isinstance(spec, dict)}
    text = description.lower()
    for kind, spec in kinds.items():
        if any(word in text for word in spec["description"]):
            return kind
    head, before = _head_and_before(name)
    for kind, spec in kinds.items():
        if head in spec["heads"] or (head in words["number_heads"] and before in spec["qualifiers"]) or (
                HAN.search(name) and any(name.endswith(ending) for ending in spec["chinese"])):
            return kind
    return None


@functools.lru_cache(maxsize=4096)
def field_unit(name: str, description: str) -> str | None:
    """The first unit of rules/units.toml whose field words are the head word of the parameter's
    name (`interest_rate`, not `rate_limit`; a Chinese name by its ending) or appear in its
    description (Latin words whole, Chinese as substrings), else None."""
    head = head_word(name)
    text = description.lower()
    for unit, han, latin, latin_pattern in _unit_words():
        if any(word in text or name.endswith(word) for word in han) or head in latin or (
                latin_pattern is not None and latin_pattern.search(text)):
            return unit
    return None


def _words_pattern(words):
    """One pattern finding any of the Latin words whole (what a search per word finds)."""
    return re.compile(r"\b(?:" + "|".join(map(re.escape, words)) + r")\b") if words else None


@functools.lru_cache(maxsize=None)
def _unit_words() -> tuple:
    """(unit, Chinese field words, Latin field words, their pattern) per unit of rules/units.toml, in order."""
    found = []
    for unit, spec in read_toml("units.toml").items():
        han = tuple(word for word in spec["fields"] if HAN.search(word))
        latin = tuple(word for word in spec["fields"] if not HAN.search(word))
        found.append((unit, han, frozenset(latin), _words_pattern(latin)))
    return tuple(found)


def name_words(name: str) -> list:
    """A parameter name as lowercase words: snake_case, kebab-case and camelCase split."""
    return [word for word in _WORD_SEPARATORS.split(_CAMEL.sub("_", name).lower()) if word]


def head_word(name: str) -> str:
    """The word that says what a name denotes: the last one, or the one before `of`
    (`departure_city` -> city, `date_of_birth` -> date)."""
    words = name_words(name)
    return words[_head_index(words)] if words else ""


def _head_and_before(name: str) -> tuple:
    """(head word, the word before it or None) of a parameter name: `order_id` -> (id, order)."""
    words = name_words(name)
    at = _head_index(words)
    return (words[at] if words else ""), (words[at - 1] if at > 0 else None)


def _head_index(words: list) -> int:
    """Where the head word is among a name's words: before `of`, else the last."""
    return words.index("of", 1) - 1 if "of" in words[1:] else len(words) - 1


@functools.lru_cache(maxsize=4096)
def name_kind(name: str) -> str | None:
    """"date", "datetime", "place", "ambiguous" (a bare start/end/departure word: a time or a
    place) or None, from the head word of a parameter name (words in rules/param_kinds.toml;
    a Chinese name is read by its ending: 出发城市 is a city, 出发时间 a time)."""
    words = read_toml("param_kinds.toml")
    head = head_word(name)
    if not head:
        return None
    if head in words["qualified_heads"]:
        head = next((word for word in reversed(name_words(name)[:-1])
                     if word in words["date_heads"] + words["datetime_heads"]), head)
    for kind, key in (("date", "date_heads"), ("datetime", "datetime_heads"), ("place", "place_heads")):
        heads = words[key]
        if head in heads or (HAN.search(head) and any(head.endswith(h) for h in heads if HAN.search(h))):
            return kind
    if len(name_words(name)) == 1 and head in words["ambiguous_alone"]:
        return "ambiguous"
    return None


def described_default(description, kind: str) -> str | None:
    """The default a description states in prose (`Number of diners (default: 2)`, `默认为1`;
    rules/described_defaults.toml) as JSON text read by the parameter's kind, or None."""
    if not isinstance(description, str) or not description:
        return None
    for pattern in _default_patterns():
        found = pattern.search(description)
        if found:
            return _default_json(found[1].strip().strip("'\"`“”"), kind)
    return None


def _default_json(text: str, kind: str) -> str | None:
    if not text:
        return None
    if kind in ("integer", "number"):
        try:
            number = float(text)
        except ValueError:
            return None
        return orjson.dumps(int(number) if kind == "integer" and number.is_integer() else number).decode()
    if kind == "boolean":
        return {"true": "true", "false": "false"}.get(text.lower())
    return orjson.dumps(text).decode() if kind in ("text", "enum") else None


@functools.lru_cache(maxsize=None)
def _default_patterns() -> tuple:
    return tuple(re.compile(pattern) for pattern in read_toml("described_defaults.toml")["patterns"])


@functools.lru_cache(maxsize=4096)
def _described(description) -> str | None:
    """"date", "datetime" or "place" when a parameter's description names exactly one of
    them (Latin words whole, Chinese as substrings), else None."""
    if not isinstance(description, str) or not description:
        return None
    text = description.lower()
    found = set()
    for kind, han, latin_pattern in _description_words():
        if any(word in text for word in han) or (latin_pattern is not None and latin_pattern.search(text)):
            found.add("temporal" if kind in ("date", "datetime") else kind)
            if kind != "place":
                temporal_kind = kind
    if found == {"place"}:
        return "place"
    if found == {"temporal"}:
        return temporal_kind
    return None


@functools.lru_cache(maxsize=None)
def _description_words() -> tuple:
    """(kind, Chinese words, pattern of the Latin words) per kind of the description words."""
    return tuple((kind, tuple(word for word in words if HAN.search(word)),
                  _words_pattern([word for word in words if not HAN.search(word)]))
                 for kind, words in read_toml("param_kinds.toml")["description"].items())


@functools.lru_cache(maxsize=4096)
def range_role(name: str) -> str | None:
    """"start" or "end" when a parameter name marks one end of a time range (start_date,
    end_time, to_date), else None; the words are data in rules/ranges.toml."""
    words = read_toml("ranges.toml")
    parts = name_words(name)
    if len(parts) > 1 and name_kind(name) not in ("date", "datetime"):
        return None   # end_city, start_location, from_station: a place, not a time
    if any(word in parts for word in words["end_words"]):
        return "end"
    if any(word in parts for word in words["start_words"]):
        return "start"
    return None
