"""Normalize one argument value to its canonical form: `canonical(param, value, context)`.

Gold and prediction go through this same function, so equality is symmetric. The families
(text, numbers, aliases, temporal) are small pure functions driven by tables in `rules/`;
this module only dispatches on the parameter's kind and records which rule decided.

A canonical value is a `Canon`: a `key` string (equal keys = equal values), the interval of
a temporal value (epoch minutes and granularity, compared by the matcher's interval rule),
and flags the matcher and the pair checks need.
"""

import functools
import hashlib
from dataclasses import dataclass, replace
from datetime import datetime

import orjson

from scorer.frozen import hash_once
from scorer.normalize.aliases import canonical_alias
from scorer.normalize.dates import PLACEHOLDER_REFERENCE, impossible_date, resolve_absolute, written_absolutely
from scorer.normalize.identifiers import IDENTIFIER_RULE, identifier_key
from scorer.normalize.enums import enum_reading
from scorer.normalize.numbers import number_key, parse_bool, parse_number
from scorer.normalize.places import PLACE_RULE, canonical_place
from scorer.normalize.text import fold_text
from scorer.normalize.units import QUANTITY_RULE, quantity, text_quantity
from scorer.parse import load_json
from scorer.schema import Param, infer_kind
from scorer.vocab import TEMPORAL_KINDS

# Flag bits carried to the matcher (scorer/match_py.py mirrors them).
FUZZY = 1          # free text: pairs that still differ are scored with rapidfuzz
UNRESOLVED = 2     # a temporal-kind value that did not resolve to an interval
UNKNOWN_PARAM = 4  # a predicted argument the tool's schema does not define
IS_DEFAULT = 8     # a predicted argument equal to the schema's default (changes nothing)
RELATIVE = 16      # a temporal value written relative to the reference time (下周二)
TOLERANCE = 32     # a number compared within the parameter's tolerance
PERSON = 64        # a person's name: read by the pair checks only (normalize/fuzzy.py), not the matcher

NO_INTERVAL = (0, 0, -1)


@dataclass(frozen=True)
class Canon:
    key: str
    interval: tuple = NO_INTERVAL    # (start minute, end minute, granularity index) or NO_INTERVAL
    flags: int = 0
    rule: str = "exact"
    number: float | None = None      # for tolerance checks (None, not NaN: equal Canons compare equal)
    written: str = ""                # the folded text as written, when an alias or place rule replaced it

    def flagged(self, flag: int) -> "Canon":
        """This Canon with one more flag: dataclasses.replace without its per-call field lookup
        (hot: once per predicted value of an undefined argument). Every field is passed on."""
        return Canon(self.key, self.interval, self.flags | flag, self.rule, self.number, self.written)


@hash_once
@dataclass(frozen=True)
class Context:
    """What normalization may depend on besides the value: where it sits and when it was asked."""

    reference_time: datetime | None
    tool: str | None = None
    parameter: str | None = None
    temporal_policy: object = None
    reference_known: bool = True   # False: a stand-in, so only absolute times may resolve


NO_REFERENCE_RULE = "temporal.no_reference_time"  # relative, on a row that has no reference time


MAX_COMPARED_CHARS = 10_000  # longer texts are compared exactly, as written (as temporal search caps its input)


def canonical(param: Param, value, context: Context) -> Canon:
    """The canonical form of `value` for a parameter of this kind."""
    if value is None:
        return Canon("null", rule="null")
    if isinstance(value, str) and len(value) > MAX_COMPARED_CHARS:
        # folding, aliases, numbers, times and fuzzy similarity are for values, not documents:
        # on megabytes they would take minutes and gigabytes, so equal means identical here
        return Canon("x:" + hashlib.sha256(value.encode("utf-8", "surrogatepass")).hexdigest(), rule="text.too_long")
    kind = param.kind
    if isinstance(value, dict) and context.reference_time is not None and context.reference_known:
        as_range = _range_object(value, context)
        if as_range is not None:
            return as_range
    if kind in ("object", "array") or isinstance(value, (dict, list)) or _json_text(value):
        return Canon("j:" + _structure_key(param, value, context), rule="structure")
    if param.identifier is not None:
        identifier = identifier_key(value, param.identifier)
        if identifier is not None:   # CA 1234 = CA1234 in a flight number, never fuzzy
            return Canon("s:" + identifier, flags=FUZZY, rule=IDENTIFIER_RULE)
    if kind == "boolean":
        flag = parse_bool(value)
        if flag is not None:
            return Canon("b:" + ("true" if flag else "false"), rule="boolean")
    if kind in ("number", "integer") or (kind in ("text", "unknown", "enum") and not isinstance(value, str)):
        number = parse_number(value)
        if number is None and kind in ("number", "integer"):
            number = quantity(value, param.unit)   # 1.75% in a rate field, 26℃ in a temperature field
        if number is not None:
            flags = TOLERANCE if param.tolerance > 0 else 0
            return Canon("n:" + number_key(number), flags=flags, rule="number", number=float(number))
    if kind in ("date", "datetime", "time", "date_range"):
        return _temporal(param, str(value), context)
    text = fold_text(str(value))
    if param.place:
        place = canonical_place(text)
        if place is not None:   # 洛阳市 = 洛阳 = Luoyang in a city parameter
            return Canon("s:" + place, flags=FUZZY, rule=PLACE_RULE, written=text)
    alias = canonical_alias(text, context.tool, context.parameter)
    if kind == "enum":   # a member, a value a table links to one (商务舱 = business), or neither
        key, rule = enum_reading(param.members, text, alias, context.tool, context.parameter)
        return Canon("e:" + key, flags=FUZZY if param.members else 0, rule=rule)
    if alias is not None:
        return Canon("s:" + alias, flags=FUZZY, rule="alias" if alias != text else "text", written=text)
    number = parse_number(text)
    if number is not None:
        return Canon("n:" + number_key(number), rule="number")
    amount = text_quantity(text)
    if amount is not None:   # 1200.50 HKD = 1200.5港币: a number and its currency or unit, never a time
        return Canon("q:" + amount, flags=FUZZY, rule=QUANTITY_RULE)
    if kind == "text" and context.reference_time is not None and context.reference_known:
        from scorer import temporal

        marked = temporal.mark_in_text(str(value), context.reference_time, context.temporal_policy)
        if marked is not None:  # 明天北京天气 = 3月5日北京天气: the time inside a free text, resolved
            return Canon("s:" + fold_text(marked), flags=FUZZY, rule="temporal.in_text")
    return Canon("s:" + text, flags=FUZZY | PERSON if param.person else FUZZY, rule="text" if text != value else "exact")


def _temporal(param: Param, text: str, context: Context) -> Canon:
    from scorer import temporal  # the resolver loads its rule tables on first use

    if impossible_date(text):  # 2月31日: a wrong date, not an unreadable one
        return Canon("s:" + fold_text(text), rule="temporal.invalid_date")
    policy = temporal.for_date_field(context.temporal_policy) if param.kind == "date" else context.temporal_policy
    if context.reference_time is not None and context.reference_known:
        interval = temporal.resolve(text, context.reference_time, policy)
    else:  # no moment asked: absolute dates and clock times in a time field only, no guess
        interval = resolve_absolute(text, param.kind, policy)
        if interval is None and temporal.resolve(text, PLACEHOLDER_REFERENCE, policy):
            return Canon("s:" + fold_text(text), flags=UNRESOLVED, rule=NO_REFERENCE_RULE)  # 明天
    if interval is None:
        return Canon("s:" + fold_text(text), flags=UNRESOLVED, rule="temporal.unresolved")
    if param.kind == "date" and temporal.GRANULARITY_INDEX[interval.granularity] < temporal.GRANULARITY_INDEX["day"]:
        interval = temporal.coarsen(interval, "day")
    minutes = temporal.to_minutes(interval)
    flags = RELATIVE if interval.relative else 0
    return Canon(f"t:{minutes[0]}/{minutes[1]}/{minutes[2]}", minutes, flags, "temporal." + interval.rule)


def _range_object(value: dict, context: Context) -> Canon | None:
    """A time range written as an object (`{"start": ..., "end": ...}`, `{"from", "to"}`) as
    one interval: from the start's beginning to the end's end (a day given as the end is
    included; a clock time ends there), so two ways of writing one range compare equal."""
    from scorer import temporal
    from scorer.schema import range_role

    if len(value) != 2 or not all(isinstance(item, str) for item in value.values()):
        return None
    roles = {range_role(key): item for key, item in value.items()}
    if set(roles) != {"start", "end"}:
        return None
    start = temporal.resolve(roles["start"], context.reference_time, context.temporal_policy)
    end = temporal.resolve(roles["end"], context.reference_time, context.temporal_policy)
    if start is None or end is None:
        return None
    start_minutes, end_minutes = temporal.to_minutes(start), temporal.to_minutes(end)
    point = end_minutes[2] <= temporal.GRANULARITY_INDEX["hour"]
    interval = (start_minutes[0], end_minutes[0] if point else end_minutes[1], min(start_minutes[2], end_minutes[2]))
    flags = RELATIVE if start.relative or end.relative else 0
    return Canon(f"t:{interval[0]}/{interval[1]}/{interval[2]}", interval, flags, "temporal.range_object")


def _json_text(value) -> bool:
    """A string holding a JSON object or array (compared as the structure it encodes)."""
    if not isinstance(value, str) or value.lstrip()[:1] not in ("{", "["):
        return False
    try:
        return isinstance(orjson.loads(value), (dict, list))
    except orjson.JSONDecodeError:
        return False


def _structure_key(param: Param, value, context: Context) -> str:
    """Nested objects and arrays: each leaf normalized, keys sorted, list order kept unless
    the schema marks the array unordered (then compared as a multiset)."""
    return orjson.dumps(_structure(param, value, context)).decode()


def _structure(param: Param, value, context: Context):
    if _json_text(value):  # JSON written inside a string argument; the same test that sent it here
        value = load_json(value)
    if isinstance(value, dict):
        return {
            key: _structure(param.property(key) or Param(kind=infer_kind(key, item)), item, context)
            for key, item in sorted(value.items())
        }
    if isinstance(value, list):
        items = [_structure(param.items or Param(kind=infer_kind("", item)), item, context) for item in value]
        if param.unordered:
            items.sort(key=lambda item: orjson.dumps(item, option=orjson.OPT_SORT_KEYS))
        return items
    if param.kind in ("object", "array"):  # a scalar where a structure was declared
        param = replace(param, kind="text")
    return canonical(param, value, context).key


def canonical_cached(param: Param, value_json: str, context: Context) -> Canon:
    """`canonical` memoized on the JSON text of the value: predictions repeat values heavily.
    A value whose reading cannot use the reference time is remembered once for all of them,
    a full ISO date or date-time once per time zone. The memos are keyed by the reference
    time's zone as well as by the context: two moments equal as instants compare equal, yet
    明天 at 20:00 in Shanghai is not 明天 at 12:00 UTC."""
    if context.reference_time is None:
        return _canonical_memo(param, value_json, context, None)
    use = _reference_use(param.kind, value_json)
    if use == "none":
        return _canonical_memo(param, value_json, _without_reference(context), None)
    zone = context.reference_time.tzinfo
    if use == "zone" and context.reference_known:
        return _canonical_in_zone(param.kind, value_json, context.temporal_policy, zone)
    return _canonical_memo(param, value_json, context, zone)


@functools.lru_cache(maxsize=1 << 18)
def _canonical_memo(param: Param, value_json: str, context: Context, _zone) -> Canon:
    return canonical(param, load_json(value_json), context)


@functools.lru_cache(maxsize=1 << 18)
def _reference_use(kind: str, value_json: str) -> str:
    """What `canonical` may read of the reference time for this value: "time" for temporal
    kinds, structures (their leaves, range objects) and a free text where the grammar's token
    index finds a place a time could start (明天北京天气); "zone" for a full ISO date or
    date-time in a temporal kind; "none" otherwise (a plain `北京` reads the same at any time)."""
    value = load_json(value_json)
    if kind in TEMPORAL_KINDS:
        return "zone" if isinstance(value, str) and written_absolutely(value) else "time"
    if isinstance(value, (dict, list)) or _json_text(value):
        return "time"
    if kind != "text":
        return "none"
    from scorer import temporal

    return "time" if temporal.may_hold_time(str(value)) else "none"


def _without_reference(context: Context) -> Context:
    return _timeless(context.tool, context.parameter, context.temporal_policy)


@functools.lru_cache(maxsize=4096)
def _timeless(tool, parameter, policy) -> Context:
    """The context of a value that reads the same at any reference time: one per (tool,
    parameter, policy), however many rows and reference times (keyed by the whole context,
    its cache missed once thousands of reference times met: a dataclass copy per value)."""
    return Context(None, tool, parameter, policy)


@functools.lru_cache(maxsize=1 << 16)
def _canonical_in_zone(kind: str, value_json: str, policy, zone) -> Canon:
    """`canonical` of a full ISO date or date-time in a temporal kind. Its reading takes from the
    parameter only its kind and from the reference time only its zone, so it is read once per
    (kind, text, policy, zone), whatever the tool, parameter and row: the placeholder moment
    stands in for the reference (tests/normalize/test_reference_memo.py checks the premise)."""
    param, context = _zone_reading(kind, policy, zone)
    return canonical(param, load_json(value_json), context)


@functools.lru_cache(maxsize=256)
def _zone_reading(kind: str, policy, zone) -> tuple:
    """(parameter, context) a date written whole is read in, made once per (kind, policy, zone):
    two frozen dataclasses per new value cost about 2 µs, a third of its reading's fast path."""
    return Param(kind=kind), Context(PLACEHOLDER_REFERENCE.replace(tzinfo=zone), temporal_policy=policy)
