"""Encode: gold and predictions -> the matcher's flattened arrays (scorer/match_py.py).

Gold (thousands of rows) is parsed, validated and normalized once. Prediction values are
normalized per distinct (parameter, value, context) through a memo, and whole calls per
distinct (gold row, call text), because predictions repeat heavily across models and samples.
Everything policy-related is delegated to scorer.normalize; this module only flattens.
"""

from dataclasses import dataclass, field, replace
from datetime import datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import numpy as np
import orjson

from scorer import match_py as m
from scorer.errors import InputError
from scorer.normalize import (FUZZY, IS_DEFAULT, PERSON, TOLERANCE, UNKNOWN_PARAM, Canon, Context,
                              canonical_cached)
from scorer.normalize.fuzzy import pair_status
from scorer.normalize.dates import PLACEHOLDER_REFERENCE
from scorer.parse import Parsed, canonical_json, load_json, parse_calls_value
from scorer.parse_bulk import parse_outputs
from scorer.schema import Param, omissible, param_for, parse_tools, range_role
from scorer.tables import GOLD_FIXED, VERDICTS_FIXED
from scorer.temporal import default_policy
from scorer.vocab import GRANULARITIES, NEEDS_CLARIFICATION, NEGATIVE_TYPES, TEMPORAL_KINDS

MINUTES_PER_DAY = 24 * 60
DAY_INDEX = GRANULARITIES.index("day")
# kinds whose value depends on the reference time (a free text may hold a relative date)
_CONTEXT_KINDS = TEMPORAL_KINDS + ("object", "array", "text", "unknown")


_OMITTED = object()
MAX_ALTERNATIVES = 256


def expand_alternatives(value) -> list:
    """The concrete values a gold value stands for: `{"$any": [...]}` anywhere (top level or
    nested in objects and arrays) and `{"$optional": v}` inside objects (the key may be left
    out), expanded once per gold row so that the matcher only compares concrete values."""
    if isinstance(value, dict) and set(value) == {"$any"}:
        if not isinstance(value["$any"], list) or not value["$any"]:
            raise ValueError("$any needs a non-empty list")
        found = [concrete for option in value["$any"] for concrete in expand_alternatives(option)]
    elif isinstance(value, dict):
        choices = []
        for key, item in sorted(value.items()):
            if isinstance(item, dict) and set(item) == {"$optional"}:
                choices.append([(key, _OMITTED)] + [(key, v) for v in expand_alternatives(item["$optional"])])
            else:
                choices.append([(key, v) for v in expand_alternatives(item)])
        if all(len(options) == 1 for options in choices):  # no choice inside: the object itself, in linear time
            found = [dict(options[0] for options in choices)]
        else:
            found = [{k: v for k, v in combination if v is not _OMITTED} for combination in _product(choices)]
    elif isinstance(value, list):
        expanded = [expand_alternatives(item) for item in value]
        if all(len(options) == 1 for options in expanded):  # no choice inside: the list itself, in linear time
            found = [[options[0] for options in expanded]]
        else:
            found = [list(combination) for combination in _product(expanded)]
    else:
        found = [value]
    if len(found) > MAX_ALTERNATIVES:
        raise ValueError(f"more than {MAX_ALTERNATIVES} alternatives; list fewer")
    return found


def _product(choices):
    combinations = [[]]
    for options in choices:
        combinations = [done + [option] for done in combinations for option in options]
        if len(combinations) > MAX_ALTERNATIVES:
            raise ValueError(f"more than {MAX_ALTERNATIVES} alternatives; list fewer")
    return combinations


class Codebook:
    """Strings -> dense integer codes, first come first served (codes never leave a process)."""

    def __init__(self):
        self.codes, self.names = {}, []

    def code(self, name: str) -> int:
        found = self.codes.get(name)
        if found is None:
            found = self.codes[name] = len(self.names)
            self.names.append(name)
        return found

    def forget_after(self, size: int) -> None:
        """Drop every code from `size` on (those handed out after the first `size` names)."""
        for name in self.names[size:]:
            del self.codes[name]
        del self.names[size:]


def parse_reference_time(text, timezone: ZoneInfo):
    """ISO 8601 -> aware datetime in the scoring timezone; a naive time is taken in it."""
    moment = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    if moment.tzinfo is None:
        return moment.replace(tzinfo=timezone)
    return moment.astimezone(timezone)


def zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise ValueError(f"unknown timezone {name!r}") from None


@dataclass
class GoldRow:
    """What one gold row contributes to scoring its predictions."""

    id: str
    tools: dict
    reference_time: object
    negative_type: str | None
    calls: list                      # [(tool, {param: (Param, optional, [Canon, ...], [raw, ...])})]
    normalized: str
    any_call: bool = False           # `expect` = any_call: any call is correct (BFCL live_relevance)
    mentions: tuple = ()             # `expect_mentions`: what a reply on a no-call row must name
    reply_unchecked: bool = False    # `expect` = no_call: only the absence of a call counts (BFCL multi-turn)
    params: dict = field(default_factory=dict)   # (tool, param) -> Param

    @property
    def reply_matters(self) -> bool:
        """Whether the verdict reads the reply text: it must name `expect_mentions`, or ask."""
        return bool(self.mentions) or (self.negative_type == NEEDS_CLARIFICATION and not self.reply_unchecked)


_GOLD_CONTENT = ("gold_calls", "tools", "reference_time", "negative_type", "expect", "expect_mentions")


def _hashable(value):
    """A gold cell as a dictionary key: lists and structs (parquet gold_calls) by their JSON."""
    return orjson.dumps(value, default=str) if isinstance(value, (list, dict)) else value


class GoldIndex:
    """Gold parsed, validated and encoded once; `arrays` feeds the matcher."""

    def __init__(self, table, path, options, codes: Codebook, tools_book: Codebook, params_book: Codebook):
        self.path, self.options = path, options
        self.codes, self.tools_book, self.params_book = codes, tools_book, params_book
        self.timezone = zone(options.timezone)
        self.policy = default_policy()  # explicit, so memoized values are keyed by the run's --policy
        self.stand_in_reference = PLACEHOLDER_REFERENCE.replace(tzinfo=self.timezone)  # rows without a reference time
        default_time = None
        if options.reference_time:
            try:
                default_time = parse_reference_time(options.reference_time, self.timezone)
            except ValueError:
                raise InputError("--reference-time", f"not an ISO 8601 time: {options.reference_time!r}") from None
        columns = {name: table[name].to_pylist() for name in table.column_names}
        self.carried_types = {field.name: field.type for field in table.schema
                              if field.name not in GOLD_FIXED.names}
        clash = [name for name in self.carried_types if name in VERDICTS_FIXED.names]
        if clash:
            raise InputError(path, "a gold column has the name of a verdict column; rename it", field=clash[0])
        self.carried = {name: columns[name] for name in self.carried_types}
        n = table.num_rows
        for optional in ("tools", "reference_time", "negative_type", "expect", "expect_mentions"):
            columns.setdefault(optional, [None] * n)   # once, not a list of Nones per row
        self._tools_by_text = {}
        self._contexts = {}
        self.rows = []
        by_content = {}
        for row in range(n):
            self.rows.append(self._row_once(row, columns, default_time, by_content))
        self.position = {gold.id: index for index, gold in enumerate(self.rows)}
        self.arrays = self._flatten()

    def _tools(self, tools_value) -> dict:
        """Parsed tool schemas, once per distinct `tools` text: benchmarks offer the same tool
        lists on many rows (the throughput bench's 3,000 rows have 1,922: gold index 0.53 -> 0.35 s)."""
        if not isinstance(tools_value, str):
            return parse_tools(tools_value)
        found = self._tools_by_text.get(tools_value)
        if found is None:
            found = self._tools_by_text[tools_value] = parse_tools(tools_value)
        return found

    def _row_once(self, row, columns, default_time, by_content: dict) -> GoldRow:
        """A gold row, encoded once per distinct content (everything but its id): benchmarks
        repeat a question's gold under new ids (BFCL's perturbed set, sampled rollouts of one
        prompt), and encoding each copy again was most of such a run's gold time."""
        content = tuple(_hashable(columns[name][row]) for name in _GOLD_CONTENT)
        found = by_content.get(content)
        if found is None:
            found = by_content[content] = self._row(row, columns, default_time)
        identifier = columns["id"][row]
        return found if found.id == identifier else replace(found, id=identifier)

    def _fail(self, row, field_name, message):
        raise InputError(self.path, message, row=row + 1, field=field_name)

    def _row(self, row, columns, default_time) -> GoldRow:
        identifier = columns["id"][row]
        parsed = parse_calls_value(columns["gold_calls"][row])
        if parsed.malformed:
            self._fail(row, "gold_calls", parsed.malformed)
        try:
            tools = self._tools(columns["tools"][row])
        except (ValueError, orjson.JSONDecodeError) as error:
            self._fail(row, "tools", f"not valid tool schemas ({error})")
        reference = default_time
        raw_time = columns["reference_time"][row]
        if raw_time:
            try:
                reference = parse_reference_time(str(raw_time), self.timezone)
            except ValueError:
                self._fail(row, "reference_time", f"not an ISO 8601 time: {raw_time!r}")
            except OverflowError:  # year 1 moved to another zone falls off the calendar
                self._fail(row, "reference_time", f"{raw_time!r} is outside the years callscore can resolve")
        negative = columns["negative_type"][row]
        if negative is not None and negative not in NEGATIVE_TYPES:
            self._fail(row, "negative_type", f"{negative!r} is not one of {', '.join(NEGATIVE_TYPES)}")
        calls, params, normalized = [], {}, []
        for name, arguments_json in parsed.calls:
            arguments = {}
            shown = {}
            for param_name, raw in load_json(arguments_json).items():
                optional = isinstance(raw, dict) and set(raw) == {"$optional"}
                if optional:
                    raw = raw["$optional"]
                try:
                    alternatives = expand_alternatives(raw)
                except ValueError as error:
                    self._fail(row, "gold_calls", f"{name}.{param_name}: {error}")
                param, _known = param_for(tools, name, param_name, alternatives[0])
                params[(name, param_name)] = param
                context = self.context(reference, name, param_name, param)
                canons = [canonical_cached(param, canonical_json(alt), context) for alt in alternatives]
                if range_role(param_name) == "end":
                    convention = self.options.range_end if param.inclusive_end is None else (
                        "inclusive" if param.inclusive_end else "exclusive")
                    alternatives, canons = _other_end_convention(alternatives, canons, convention)
                at_default = omissible(tools.get(name), param_name) and any(
                    canon.key == canonical_cached(param, param.default_json, context).key for canon in canons)
                arguments[param_name] = (param, optional or at_default, canons, alternatives)
                keys = [c.key for c in canons]
                shown[param_name] = {"$optional": keys if len(keys) > 1 else keys[0]} if optional else (
                    keys if len(keys) > 1 else keys[0])
            calls.append((name, arguments))
            normalized.append({"name": name, "arguments": shown})
        expect = columns["expect"][row]
        if expect not in (None, "calls", "no_call", "any_call"):
            self._fail(row, "expect", f"{expect!r} is not one of calls, no_call, any_call")
        if expect == "any_call" and calls:
            self._fail(row, "expect", "any_call rows have no gold calls")
        mentions = columns["expect_mentions"][row]
        if mentions is not None:
            try:
                mentions = orjson.loads(mentions) if isinstance(mentions, str) else mentions
            except orjson.JSONDecodeError:
                mentions = None
            if not isinstance(mentions, list) or not all(isinstance(m, str) for m in mentions):
                self._fail(row, "expect_mentions", "must be a JSON list of texts")
            if calls:
                self._fail(row, "expect_mentions", "only rows without gold calls expect a reply")
        return GoldRow(identifier, tools, reference, negative, calls, canonical_json(normalized), params=params,
                       any_call=expect == "any_call", mentions=tuple(mentions or ()),
                       reply_unchecked=expect == "no_call" and not mentions)

    def context(self, reference, tool, parameter, param: Param) -> Context:
        """The normalization context; the reference time only where the kind can use it, so
        that the memo is shared across rows for every other kind. One object per distinct
        context: the memo then meets it by identity (and hashes it once)."""
        uses_time = param.kind in _CONTEXT_KINDS
        key = (reference if uses_time else None, tool, parameter, uses_time)
        found = self._contexts.get(key)
        if found is None:
            if len(self._contexts) >= MEMO_ENTRIES:
                self._contexts.clear()
            if not uses_time:
                found = Context(None, tool, parameter, self.policy)
            elif reference is None:  # no reference time: absolute dates still resolve, relative ones cannot
                found = Context(self.stand_in_reference, tool, parameter, self.policy, reference_known=False)
            else:
                found = Context(reference, tool, parameter, self.policy)
            self._contexts[key] = found
        return found

    def _flatten(self) -> m.Gold:
        row_call_off, call_tool, call_arg_off = [0], [], [0]
        arg_param, arg_optional, arg_alt_off = [], [], [0]
        values, names, self.values = [], [], []   # self.values: (raw, Canon) per flattened gold value
        for gold in self.rows:
            for name, arguments in gold.calls:
                call_tool.append(self.tools_book.code(name))
                for param_name, (param, optional, canons, raws) in arguments.items():
                    arg_param.append(self.params_book.code(param_name))
                    arg_optional.append(1 if optional else 0)
                    values.extend(canons)
                    names.extend(coded_as(canon, param) for canon in canons)
                    self.values.extend(zip(raws, canons))
                    arg_alt_off.append(len(values))
                call_arg_off.append(len(arg_param))
            row_call_off.append(len(call_tool))
        return m.Gold(
            np.array([row.any_call for row in self.rows], np.uint8), np.array(row_call_off, np.int64), np.array(call_tool, np.int32), np.array(call_arg_off, np.int64),
            np.array(arg_param, np.int32), np.array(arg_optional, np.uint8), np.array(arg_alt_off, np.int64),
            *_value_arrays(values, names, self.codes),
        )



def _other_end_convention(alternatives, canons, convention):
    """When the tool's end-of-range convention is known, a day given in the other convention
    is accepted too: an inclusive gold end 03-12 also accepts 03-13, an exclusive one 03-11."""
    if convention not in ("inclusive", "exclusive"):
        return alternatives, canons
    step = MINUTES_PER_DAY if convention == "inclusive" else -MINUTES_PER_DAY
    extra_raw, extra = [], []
    for raw, canon in zip(alternatives, canons):
        start, end, granularity = canon.interval
        if granularity != DAY_INDEX or end - start != MINUTES_PER_DAY:
            continue
        moved = (start + step, end + step, granularity)
        other = "exclusive" if convention == "inclusive" else "inclusive"
        extra_raw.append(f"{raw} {'+' if step > 0 else '-'}1 day ({other} end)")
        extra.append(Canon(f"t:{moved[0]}/{moved[1]}/{moved[2]}", moved, canon.flags, "temporal.other_end_convention"))
    return alternatives + extra_raw, canons + extra


def coded_as(canon: Canon, param=None) -> str:
    """The name a value is coded by for the matcher: its key, with what else a pair status reads
    (scorer.normalize.fuzzy.pair_status): for a free text, the text as written when an alias or a
    place replaced it, the rule that read it (an identifier, a quantity, an enum's non-member) and
    its person flag; for a gold value (`param` given), whether the parameter is place-typed and a
    number's tolerance. Statuses are kept per pair of codes, so two values of one key that a status
    tells apart (天安门 against Chengdu, undecided, and against 成都市, different) need two codes, or
    the first met would decide both; equal keys still compare equal, through a pair status
    (`_collect_pairs`)."""
    name = canon.key
    if canon.flags & FUZZY:
        name += f"\x1f{canon.written}\x1f{canon.rule}\x1f{canon.flags & PERSON}"
        if param is not None and param.place:
            name += "\x1fplace"
    if param is not None and param.tolerance and canon.flags & TOLERANCE:
        name += "\x1f" + repr(param.tolerance)
    return name


def _value_arrays(canons, names, codes: Codebook):
    n = len(canons)
    code = np.fromiter(map(codes.code, names), np.int64, n)
    start = np.fromiter((c.interval[0] for c in canons), np.int64, n)
    end = np.fromiter((c.interval[1] for c in canons), np.int64, n)
    gran = np.fromiter((c.interval[2] for c in canons), np.int8, n)
    flags = np.fromiter((c.flags for c in canons), np.int32, n)
    return code, start, end, gran, flags


@dataclass
class EncodedBatch:
    """A prediction batch as matcher arrays, plus what the report needs about each row."""

    arrays: m.Predictions
    calls: list            # per row: [(tool, [(param, raw value, Canon)])]
    malformed: list        # per row: reason or None
    normalized: list       # per row: canonical JSON of the predicted calls
    values: list           # flattened predicted (param, raw, Canon), indexed like the arrays
    pair_keys: np.ndarray
    pair_status: np.ndarray
    rules: list            # per row: the rule of its first value not read as written, else "exact" (None: no call)


MEMO_ENTRIES = 65536  # per generation of an encoder memo: at most twice as many are held


class Generations(dict):
    """A memo of two generations: the entries met since the last `turn` (the dict itself) and
    those of the generation before (`older`), taken back into the new one when met again. A
    memo emptied when full loses what the next rows repeat; a sweep repeats a gold row's values
    once per model, so across a pass over the gold rows, and a pass's values outgrew one memo
    (1M value-distinct rows: the value memo was emptied about every batch). Reading one is
    `memo[key]`, `_OMITTED` when absent (a lookup in C when the entry is of the new generation)."""

    def __init__(self):
        super().__init__()
        self.older = {}

    def __missing__(self, key):
        found = self.older.pop(key, _OMITTED)
        if found is not _OMITTED:
            self[key] = found
        return found

    def turn(self):
        """Start a generation: the one before is forgotten."""
        self.older = dict(self)
        self.clear()

    def forget(self):
        self.older = {}
        self.clear()


class PredictionEncoder:
    """Turns prediction rows into matcher arrays, memoizing what repeats."""

    def __init__(self, gold: GoldIndex, options):
        self.gold, self.options = gold, options
        self._parsed = Generations()    # raw calls/output text -> Parsed
        # (gold row, tool, arguments json) -> the call as the matcher reads it, flattened once:
        # ([(param, raw, Canon)], tool code, [value column], pair keys, shown JSON, rule or None)
        self._calls = Generations()
        # (gold row, tool, param, value) -> ((param, raw, Canon), value column, pair keys, rule or
        # None), or None: left out. A value column is its entry in the matcher's value arrays,
        # (param code, code, start, end, granularity, flags); a pair key is gold code << 32 | code.
        self._values = Generations()
        self._pairs = Generations()   # (gold code, pred code) -> pair status
        self._slots = Generations()   # (gold row, tool, param) -> what a value reads of its gold row (`_slot`)
        self._gold_codes = len(gold.codes.names)   # codes below this are gold values', never dropped

    def _bound_memos(self):
        """Start a memo's next generation when it is full, and drop the codes of predicted values
        when they are many (with every memo that holds codes). Between batches only: `encode`
        reads back the pairs and codes it makes. The value and call memos hold pair keys, so they
        turn with the pair memo: a batch reads the status of every pair its values name (taking
        it into the pairs' new generation), so a value or call of either generation names pairs
        of the same generation or a newer one, and never one forgotten."""
        for memo in (self._parsed, self._slots):
            if len(memo) > MEMO_ENTRIES:
                memo.turn()
        if len(self.gold.codes.names) - self._gold_codes > 4 * MEMO_ENTRIES:
            self.gold.codes.forget_after(self._gold_codes)
            for memo in (self._pairs, self._calls, self._values):
                memo.forget()
        elif any(len(memo) > MEMO_ENTRIES for memo in (self._pairs, self._calls, self._values)):
            for memo in (self._pairs, self._calls, self._values):
                memo.turn()

    def parse_column(self, calls_column, output_column, malformed_column) -> list:
        """Parsed calls of each row of a batch: a reader's `malformed` reason first, then
        `calls` (a value, or already Parsed: scorer.parse_bulk.calls_values), then `output`;
        the raw outputs not met before are read together by the bulk parser (which reads each
        distinct text once)."""
        rows = list(zip(calls_column, output_column, malformed_column))
        unseen = [output for calls_value, output, reason in rows
                  if not reason and calls_value is None and self._parsed[("o", output)] is _OMITTED]
        for output, parsed in zip(unseen, parse_outputs(unseen)):
            self._parsed[("o", output)] = parsed
        return [self._parsed_row(*row) for row in rows]

    def _parsed_row(self, calls_value, output, malformed):
        if malformed:
            return Parsed((), malformed)
        if calls_value is None:
            return self._parsed[("o", output)]
        if isinstance(calls_value, Parsed):
            return calls_value
        key = ("c", calls_value if isinstance(calls_value, str) else canonical_json(calls_value))
        found = self._parsed[key]
        if found is _OMITTED:
            found = self._parsed[key] = parse_calls_value(calls_value)
        return found

    def _call(self, g_row: int, tool: str, arguments_json: str) -> tuple:
        """A call under its gold row, as the `_calls` memo holds it; its values decided once
        per (gold row, tool, parameter, value) apart from whole calls: calls that never repeat
        (a row-unique argument) still share most of their values."""
        key = (g_row, tool, arguments_json)
        found = self._calls[key]
        if found is _OMITTED:
            memo, arguments, columns, pairs, shown, rule = self._values, [], [], [], {}, None
            for param_name, raw in load_json(arguments_json).items():
                # a text keys itself (a JSON spelling per value cost more than the lookup); other
                # values by their JSON, in a tuple so that "5" and 5 stay two keys
                value_json = None if type(raw) is str else canonical_json(raw)
                value_key = (g_row, tool, param_name, raw if value_json is None else (value_json,))
                value = memo[value_key]
                if value is _OMITTED:
                    value = memo[value_key] = self._encoded_value(g_row, tool, param_name, raw,
                                                                  value_json or canonical_json(raw))
                if value is not None:
                    argument, column, value_pairs, value_rule = value
                    arguments.append(argument)
                    columns.append(column)
                    pairs.extend(value_pairs)
                    shown[param_name] = argument[2].key
                    rule = rule or value_rule
            found = self._calls[key] = (arguments, self.gold.tools_book.code(tool), columns, pairs,
                                        canonical_json({"name": tool, "arguments": shown}), rule)
        return found

    def _encoded_value(self, g_row: int, tool: str, param_name: str, raw, value_json: str) -> tuple | None:
        """A `_values` memo entry: the value's Canon with its codes, its pair keys and its rule."""
        key = (g_row, tool, param_name)
        slot = self._slots[key]
        if slot is _OMITTED:
            slot = self._slots[key] = self._slot(g_row, tool, param_name)
        canon = self._value(slot, g_row, tool, param_name, raw, value_json)
        if canon is None:
            return None
        code = self.gold.codes.code(coded_as(canon))
        pairs = self._collect_pairs(slot[3], canon, code) if canon.flags & (FUZZY | TOLERANCE) else ()
        start, end, granularity = canon.interval
        return ((param_name, raw, canon), (self.gold.params_book.code(param_name), code, start, end, granularity,
                                           canon.flags), pairs, None if canon.rule in ("exact", "null") else canon.rule)

    def _value(self, slot: tuple, g_row: int, tool: str, param_name: str, raw, value_json: str) -> Canon | None:
        """The Canon of one predicted argument under its gold row (`slot`: what it reads of
        that row), or None when it is left out."""
        omissible, param, context, _pairing = slot
        if omissible and raw in ("", []):
            return None  # `""` or `[]` for a parameter the gold may leave out: left out (BFCL accepts it too)
        if param is not None:
            return canonical_cached(param, value_json, context)
        gold = self.gold.rows[g_row]
        param, known = param_for(gold.tools, tool, param_name, raw)   # its kind may be read from the value
        context = self.gold.context(gold.reference_time, tool, param_name, param)
        canon = canonical_cached(param, value_json, context)
        if not known:
            canon = canon.flagged(UNKNOWN_PARAM)
        elif param.default_json is not None and canonical_cached(param, param.default_json, context).key == canon.key:
            canon = canon.flagged(IS_DEFAULT)
        return canon

    def _slot(self, g_row: int, tool: str, param_name: str) -> tuple:
        """What a predicted value of this parameter reads of its gold row, once per gold row,
        tool and parameter: whether the gold may leave the parameter out; its gold Param and
        normalization context (None, None when the gold calls do not give it); the gold values it
        may need a pair status with (free texts, numbers within a tolerance), as (gold Canon, its
        code, Param)."""
        gold = self.gold.rows[g_row]
        omissible = any(arguments.get(param_name, (None, False))[1] for name, arguments in gold.calls if name == tool)
        param = gold.params.get((tool, param_name))
        if param is None:   # no gold call gives it (gold.params lists every gold argument): nothing to pair with
            return omissible, None, None, ()
        pairing = []
        for name, arguments in gold.calls:
            if name == tool and param_name in arguments:
                gold_param, _optional, canons, _raws = arguments[param_name]
                pairing.extend((canon, self.gold.codes.code(coded_as(canon, gold_param)), gold_param)
                               for canon in canons if canon.flags & (FUZZY | TOLERANCE))
        return omissible, param, self.gold.context(gold.reference_time, tool, param_name, param), pairing

    def encode(self, g_rows, calls_column, output_column, malformed_column=None) -> EncodedBatch:
        malformed_column = malformed_column or [None] * len(g_rows)
        return self.encode_parsed(g_rows, self.parse_column(calls_column, output_column, malformed_column))

    def encode_parsed(self, g_rows, parsed_rows) -> EncodedBatch:
        """Matcher arrays of rows already parsed (one Parsed per gold row of `g_rows`)."""
        self._bound_memos()
        row_flags, row_call_off, call_tool, call_arg_off, columns = [], [0], [], [0], []
        values, rows_calls, malformed, normalized, rules = [], [], [], [], []
        pairs = set()
        for g_row, parsed in zip(g_rows, parsed_rows):
            row_flags.append(m.ROW_MALFORMED if parsed.malformed else 0)
            malformed.append(parsed.malformed)
            row_calls, shown, rule = [], [], None
            for tool, arguments_json in parsed.calls:
                arguments, tool_code, call_columns, call_pairs, call_shown, call_rule = self._call(
                    g_row, tool, arguments_json)
                call_tool.append(tool_code)
                columns.extend(call_columns)
                pairs.update(call_pairs)
                values.extend(arguments)
                call_arg_off.append(len(columns))
                row_calls.append((tool, arguments))
                shown.append(call_shown)
                rule = rule or call_rule
            row_call_off.append(len(call_tool))
            rows_calls.append(row_calls)
            normalized.append("[" + ",".join(shown) + "]")   # canonical_json of the list: orjson's compact form
            rules.append(rule or ("exact" if row_calls else None))
        table = np.array(columns, np.int64).reshape(len(columns), 6)
        arrays = m.Predictions(
            np.asarray(g_rows, np.int64), np.array(row_flags, np.uint8), np.array(row_call_off, np.int64),
            np.array(call_tool, np.int32), np.array(call_arg_off, np.int64), table[:, 0].astype(np.int32),
            table[:, 1].copy(), table[:, 2].copy(), table[:, 3].copy(), table[:, 4].astype(np.int8),
            table[:, 5].astype(np.int32))
        keys = np.array(sorted(pairs), np.uint64)
        status = np.array([self._pairs[(int(k) >> 32, int(k) & 0xFFFFFFFF)] for k in keys], np.int8)
        return EncodedBatch(arrays, rows_calls, malformed, normalized, values, keys, status, rules)

    def _collect_pairs(self, pairing: tuple, canon: Canon, p_code: int) -> tuple:
        """Decide, once per distinct pair, the gold/predicted values that need more than
        equality of keys: free text by rapidfuzz ratio, numbers within a tolerance (`pairing`:
        the slot's gold values). Returns the pairs' keys."""
        keys = []
        for gold_canon, g_code, param in pairing:
            if g_code == p_code:
                continue
            if self._pairs[(g_code, p_code)] is _OMITTED:   # equal keys written otherwise are equal
                self._pairs[(g_code, p_code)] = m.PAIR_EQUAL if gold_canon.key == canon.key else \
                    pair_status(param, gold_canon, canon, self.options)
            keys.append((g_code << 32) | p_code)
        return tuple(keys)
