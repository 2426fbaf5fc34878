"""Attribute: the matcher's codes -> verdict columns (outcome, subtype, detail, errors, ...).

The precedence itself (miss_recall > param_error > over_recall/extra_call; temporal >
missing_arg > incorrect_value) is decided in the matcher, identically in both twins; this
module names the codes and writes the one readable line a person needs to see why.
"""

import functools
from dataclasses import dataclass
from datetime import datetime, timedelta

import numpy as np
import pyarrow as pa

from scorer import match_py as m
from scorer import vocab
from scorer.normalize.fuzzy import uncertain_cause
from scorer.normalize.replies import asks, unnamed
from scorer.normalize import NO_REFERENCE_RULE, RELATIVE, UNRESOLVED
from scorer.parse import canonical_json
from scorer.schema import range_role
from scorer.tables import ERROR, VERDICTS_SCORED

OUTCOME_NAMES = (vocab.CORRECT, vocab.MISS_RECALL, vocab.PARAM_ERROR, vocab.OVER_RECALL)
SUBTYPE_NAMES = (None, vocab.NO_CALL, vocab.WRONG_TOOL, vocab.PARTIAL_CALLS, vocab.MALFORMED,
                 vocab.TEMPORAL, vocab.MISSING_ARG, vocab.INCORRECT_VALUE, None, vocab.EXTRA_CALL)
ERROR_NAMES = (vocab.MALFORMED, vocab.NO_CALL, vocab.WRONG_TOOL, vocab.PARTIAL_CALLS, vocab.TEMPORAL,
               vocab.MISSING_ARG, vocab.INCORRECT_VALUE, "uncertain", vocab.EXTRA_CALL, vocab.OVER_RECALL,
               "unknown_argument")
_PRIMARY_ERROR = {  # which error explains each subtype
    m.S_NO_CALL: (m.E_NO_CALL,), m.S_WRONG_TOOL: (m.E_WRONG_TOOL,), m.S_PARTIAL_CALLS: (m.E_PARTIAL_CALLS,),
    m.S_MALFORMED: (m.E_MALFORMED,), m.S_TEMPORAL: (m.E_TEMPORAL,), m.S_MISSING_ARG: (m.E_MISSING_ARG,),
    m.S_INCORRECT_VALUE: (m.E_INCORRECT_VALUE, m.E_UNKNOWN_ARG), m.S_NEGATIVE: (m.E_OVER_RECALL, m.E_MALFORMED),
    m.S_EXTRA_CALL: (m.E_EXTRA_CALL,), m.S_NONE: (m.E_UNCERTAIN,),
}


def _show(value) -> str:
    return value if isinstance(value, str) else canonical_json(value)


@dataclass
class GoldColumns:
    """What a verdict takes from its gold row alone, one entry per gold row (the last two per
    gold argument), as Python values: read per row, numpy scalars are slow."""

    positive: pa.Array          # bool: the row expects a call
    normalized: pa.Array        # its canonical JSON
    first_tool: list            # the tool of its first call, or None
    negative_name: list         # the subtype of an over_recall on it
    reply_matters: np.ndarray   # bool: its verdict reads the reply text
    arg_name: list              # per flattened gold argument: its parameter
    alt_off: list               # per flattened gold argument: where its values start in gold.values


class Attributor:
    """Builds verdict rows for one encoded batch."""

    def __init__(self, gold, options):
        self.gold, self.options = gold, options
        self._gold_values, self._carried_arrays, self._gold_arguments = None, {}, {}

    def _gold_columns(self) -> GoldColumns:
        if self._gold_values is None:
            rows = self.gold.rows
            self._gold_values = GoldColumns(
                pa.array([bool(row.calls) or row.any_call for row in rows], pa.bool_()),
                pa.array([row.normalized for row in rows], pa.string()),
                [_first_tool(row) for row in rows],
                [row.negative_type or vocab.UNSPECIFIED for row in rows],
                np.array([row.reply_matters for row in rows], bool),
                [self.gold.params_book.names[code] for code in self.gold.arrays.arg_param.tolist()],
                self.gold.arrays.arg_alt_off.tolist())
        return self._gold_values

    def _carried(self, name) -> pa.Array:
        """A carried gold column, converted once, taken by gold row."""
        if name not in self._carried_arrays:
            self._carried_arrays[name] = pa.array(self.gold.carried[name], type=self.gold.carried_types[name])
        return self._carried_arrays[name]

    def _error_record(self, kind, g_call, p_call, g_arg, p_arg, gold_row, row_calls, encoded):
        argument = gold_text = pred_text = None
        if g_arg >= 0:
            argument, gold_text = self._gold_argument(g_arg)
        if p_arg >= 0:
            argument, raw, _canon = encoded.values[p_arg]
            pred_text = _show(raw)
        if kind in (m.E_PARTIAL_CALLS,) and g_call >= 0:
            gold_text = gold_row.calls[g_call][0]
        if kind in (m.E_EXTRA_CALL, m.E_WRONG_TOOL, m.E_OVER_RECALL) and p_call >= 0:
            pred_text = row_calls[p_call][0]
        return {"call": int(g_call if g_call >= 0 else p_call), "argument": argument,
                "kind": ERROR_NAMES[kind], "gold": gold_text, "predicted": pred_text}

    def _gold_argument(self, g_arg: int) -> tuple:
        """(parameter, its values as written, ` | ` between alternatives) of a flattened gold
        argument, spelt once: many rows err on one gold argument."""
        found = self._gold_arguments.get(g_arg)
        if found is None:
            gold = self._gold_columns()
            shown = [_show(self.gold.values[alt][0]) for alt in range(gold.alt_off[g_arg], gold.alt_off[g_arg + 1])]
            found = self._gold_arguments[g_arg] = (gold.arg_name[g_arg], " | ".join(shown))
        return found

    def _detail(self, subtype, record, gold_row, row_calls, malformed, g_arg, p_arg, encoded):
        if subtype == m.S_MALFORMED or (subtype == m.S_NEGATIVE and malformed and not row_calls):
            return f"unreadable output: {malformed}"
        if subtype in _CALL_SUBTYPES:
            return _call_detail(subtype, record, gold_row, row_calls)
        argument = record["argument"]
        if record["kind"] == vocab.MISSING_ARG:
            return f"{argument}: missing (gold {record['gold']})"
        if g_arg < 0 and p_arg >= 0:
            if record["kind"] == "unknown_argument":
                return f"{argument}: not defined by the tool's schema (predicted {record['predicted']})"
            return f"{argument}: not in the gold call (predicted {record['predicted']})"
        line = f"{argument}: gold {record['gold']}, predicted {record['predicted']}"
        pred_canon = encoded.values[p_arg][2]
        gold_canon = self.gold.values[self._gold_columns().alt_off[g_arg]][1]
        if record["kind"] == vocab.TEMPORAL:
            return line + self._temporal_reason(gold_row, gold_canon, pred_canon, g_arg)
        if record["kind"] == "uncertain":
            if pred_canon.flags & UNRESOLVED:
                return line + " (the predicted value did not resolve to a time)"
            return line + f" ({uncertain_cause(gold_canon, pred_canon, self.options)})"
        if gold_canon.key != pred_canon.key and gold_canon.key[2:] != str(record["gold"]):
            line += f" (normalized {gold_canon.key[2:]} vs {pred_canon.key[2:]})"
        return line

    def _temporal_reason(self, gold_row, gold_canon, pred_canon, g_arg):
        if self.options.temporal_format == "strict" and pred_canon.flags & RELATIVE:
            return " (unresolved: a relative expression where a resolved date is expected)"
        if pred_canon.rule == "temporal.invalid_date":
            return " (invalid_date: the predicted day does not exist)"
        if pred_canon.interval[2] < 0 or gold_canon.interval[2] < 0:
            return " (the predicted value is not a time)"
        zone = gold_row.reference_time.tzinfo if gold_row.reference_time else self.gold.timezone
        argument = self._gold_columns().arg_name[g_arg]
        return _interval_comparison(gold_canon.interval, pred_canon.interval, zone, argument)

    @staticmethod
    def rule_of(row, first_error_parg, encoded):
        """The rule a verdict names: that of the value its error is about, else the row's."""
        if first_error_parg >= 0:
            return encoded.values[first_error_parg][2].rule
        return encoded.rules[row]

    def batch(self, g_rows, encoded, matched, outputs) -> pa.RecordBatch:
        """The scored verdict columns (VERDICTS_SCORED) of an encoded, matched batch. A row the
        matcher found correct, decided and without errors, whose gold does not read the reply
        (most rows), has nothing to explain: its columns come from per-gold-row values and the
        codes; only the others are explained one by one."""
        g_list = np.asarray(g_rows, np.int64).tolist()
        n = len(g_list)
        gold = self._gold_columns()
        outcomes, subtypes = matched.outcome.tolist(), matched.subtype.tolist()
        decided = matched.decided.astype(bool).tolist()
        tool = [gold.first_tool[g_row] for g_row in g_list]
        plain = self.plain(g_list, matched)
        rule = list(encoded.rules)
        argument, detail, uncertain = [None] * n, [None] * n, [None] * n
        records_of = {}   # row -> error records; the rest have none
        errors = list(zip(matched.err_kind.tolist(), matched.err_gcall.tolist(), matched.err_pcall.tolist(),
                          matched.err_garg.tolist(), matched.err_parg.tolist()))
        err_off = matched.err_off.tolist()
        for row in np.flatnonzero(~plain).tolist():
            (outcomes[row], subtypes[row], argument[row], tool[row], detail[row], records_of[row], rule[row],
             decided[row], uncertain[row]) = self._explained(
                row, g_list[row], outcomes[row], subtypes[row], decided[row], errors[err_off[row]:err_off[row + 1]],
                int(matched.row_flags[row]), encoded, outputs)
        subtype_names = [gold.negative_name[g_row] if subtype == m.S_NEGATIVE else SUBTYPE_NAMES[subtype]
                         for subtype, g_row in zip(subtypes, g_list)]
        columns = {
            "outcome": pa.array([OUTCOME_NAMES[outcome] for outcome in outcomes], pa.string()),
            "subtype": pa.array(subtype_names, pa.string()), "argument": pa.array(argument, pa.string()),
            "tool": pa.array(tool, pa.string()), "detail": pa.array(detail, pa.string()),
            "errors": _errors_column(n, records_of),
            "normalized_pred": pa.array(encoded.normalized, pa.string()),
            "rule": pa.array(rule, pa.string()), "decided": pa.array(decided, pa.bool_()),
            "uncertain_reason": pa.array(uncertain, pa.string()),
            "missing_prediction": pa.array(np.zeros(n, bool)),
        }
        return pa.RecordBatch.from_arrays([columns[name] for name in VERDICTS_SCORED.names], schema=VERDICTS_SCORED)

    def gold_columns(self, g_rows: pa.Array, carried_names) -> dict:
        """The verdict columns that only the gold row decides (VERDICT_GOLD_COLUMNS, then the
        carried ones), by name, for rows of these gold rows."""
        gold = self._gold_columns()
        return {"positive": gold.positive.take(g_rows), "normalized_gold": gold.normalized.take(g_rows),
                **{name: self._carried(name).take(g_rows) for name in carried_names}}

    def plain(self, g_rows: list, matched) -> np.ndarray:
        """Per row: nothing to explain (correct, decided, no error, the reply not read)."""
        err_off = matched.err_off
        plain = (matched.outcome == m.O_CORRECT) & matched.decided.astype(bool) & (err_off[1:] == err_off[:-1])
        return plain & ~self._gold_columns().reply_matters[np.asarray(g_rows, np.int64)]

    def _explained(self, row, g_row, outcome, subtype, decided, errors, row_flags, encoded, outputs):
        """(outcome, subtype, argument, tool, detail, error records, rule, decided, uncertain reason)
        of a row with something to explain: errors, a reply to read, or no decision. `errors`:
        the matcher's (kind, gold call, predicted call, gold argument, predicted argument)."""
        gold_row = self.gold.rows[g_row]
        row_calls, malformed = encoded.calls[row], encoded.malformed[row]
        records = [self._error_record(*error, gold_row, row_calls, encoded) for error in errors]
        # the error that explains the verdict: the one of its subtype, or what left it undecided
        wanted = _PRIMARY_ERROR[subtype] if decided or outcome != m.O_CORRECT else _PRIMARY_ERROR[m.S_NONE]
        primary = next((i for i, error in enumerate(errors) if error[0] in wanted), None)
        if primary is None and not decided:
            primary = next((i for i, error in enumerate(errors) if error[0] == m.E_UNCERTAIN), None)
        record = records[primary] if primary is not None else None
        g_arg, p_arg = errors[primary][3:] if primary is not None else (-1, -1)
        uncertain = None if decided else self._uncertain_reason(errors, records, encoded, row_flags)
        if gold_row.reference_time is None and self._needs_reference(errors, encoded):
            decided, uncertain = False, vocab.NO_REFERENCE_TIME  # a relative time, and no moment to resolve it
        if outcome == m.O_CORRECT and gold_row.reply_matters:
            reply = outputs[row]
            missing = unnamed(gold_row.mentions, reply)
            if missing or not gold_row.mentions:  # no call, as it should be, but does the reply ask?
                outcome, subtype = m.O_OVER_RECALL, m.S_NEGATIVE
                decided = not reply or not asks(reply) and len(missing) == len(gold_row.mentions)
                record = {"call": -1, "argument": None, "kind": vocab.OVER_RECALL,
                          "gold": ", ".join(gold_row.mentions) or None, "predicted": None}
                records.append(record)
                uncertain = None if decided else (
                    f"the reply does not name {', '.join(missing)}" if missing else "the reply asks; is it the right question?")
                records += [{"call": -1, "argument": name, "kind": "uncertain", "gold": name, "predicted": None}
                            for name in missing]
        detail = None
        if record is not None and record["kind"] == vocab.OVER_RECALL and record["call"] < 0:
            detail = _unasked_detail(gold_row, outputs[row], decided)
        elif record is not None:
            shown_subtype = subtype if record["kind"] != "uncertain" else m.S_NONE
            detail = readable_detail(self._detail(shown_subtype, record, gold_row, row_calls, malformed, g_arg,
                                                  p_arg, encoded))
        return (outcome, subtype, record["argument"] if record else None, self._tool(record, gold_row), detail,
                records, self.rule_of(row, p_arg, encoded), decided, uncertain)

    @staticmethod
    def _tool(record, gold_row):
        """The tool a verdict is about: the predicted one for a call that should not be there,
        the gold call's for an argument or a missing call, else the first gold call's."""
        if record is not None and record["kind"] in (vocab.EXTRA_CALL, vocab.WRONG_TOOL, vocab.OVER_RECALL):
            return record["predicted"]
        if record is not None and 0 <= record["call"] < len(gold_row.calls):
            return gold_row.calls[record["call"]][0]
        return _first_tool(gold_row)

    def _needs_reference(self, errors, encoded) -> bool:
        """Whether an error involves a relative time (gold or predicted) that could not be
        resolved because the row has no reference time."""
        offsets = self._gold_columns().alt_off
        for _kind, _g, _p, g_arg, p_arg in errors:
            if p_arg >= 0 and encoded.values[p_arg][2].rule == NO_REFERENCE_RULE:
                return True
            if g_arg >= 0 and any(self.gold.values[alt][1].rule == NO_REFERENCE_RULE
                                  for alt in range(offsets[g_arg], offsets[g_arg + 1])):
                return True
        return False

    def _uncertain_reason(self, errors, records, encoded, row_flags):
        """Why the rules left a row undecided, from the first error they could not settle."""
        if row_flags & m.ROW_UNDECIDABLE:
            return "too many calls to pair exactly"
        for (kind, _g, _p, g_arg, p_arg), record in zip(errors, records):
            if kind == m.E_UNKNOWN_ARG:
                return f"unknown argument {record['argument']}: the tool's schema does not define it"
            if kind == m.E_UNCERTAIN:
                pred_canon = encoded.values[p_arg][2]
                if pred_canon.flags & UNRESOLVED:
                    return f"temporal value {record['predicted']!r} did not resolve"
                gold_canon = self.gold.values[self._gold_columns().alt_off[g_arg]][1]
                return f"free-text argument {record['argument']}: {uncertain_cause(gold_canon, pred_canon, self.options)}"
        return None

_CALL_SUBTYPES = (m.S_NO_CALL, m.S_WRONG_TOOL, m.S_PARTIAL_CALLS, m.S_NEGATIVE, m.S_EXTRA_CALL)


def _call_detail(subtype, record, gold_row, row_calls) -> str:
    """The detail of a verdict about calls (not arguments): which tools each side called."""
    gold_tools = ", ".join(name for name, _a in gold_row.calls) or "none"
    pred_tools = ", ".join(tool for tool, _a in row_calls) or "none"
    if subtype == m.S_NO_CALL:
        return "no call made; any call was expected" if gold_row.any_call else f"no call made; gold calls {gold_tools}"
    if subtype == m.S_WRONG_TOOL:
        return f"called {pred_tools}; gold calls {gold_tools}"
    if subtype == m.S_PARTIAL_CALLS:
        return f"missing call to {record['gold']}; gold calls {gold_tools}, predicted {pred_tools}"
    if subtype == m.S_NEGATIVE:
        return f"called {pred_tools} on a request that needs no call ({gold_row.negative_type or vocab.UNSPECIFIED})"
    return f"extra call to {record['predicted']} beyond the gold calls {gold_tools}"


def _first_tool(gold_row):
    return gold_row.calls[0][0] if gold_row.calls else None


def _errors_column(rows: int, records_of: dict) -> pa.Array:
    """The `errors` list column: each row's records (`records_of`, by ascending row), else []."""
    counts = np.zeros(rows + 1, np.int32)
    for row, records in records_of.items():
        counts[row + 1] = len(records)
    flat = pa.array([record for records in records_of.values() for record in records], ERROR)
    return pa.ListArray.from_arrays(pa.array(np.cumsum(counts, dtype=np.int32)), flat, type=pa.list_(ERROR))


DETAIL_ENDS = 250  # characters kept at each end of a longer detail


def readable_detail(text: str) -> str:
    """`detail` is a line to read: past 2 * DETAIL_ENDS characters its middle is cut, keeping
    the argument's name and the explanation at the end (normalized values, a slip); the whole
    value stays in the row's `errors`. A 10 MB argument wrote 3.5 M characters here."""
    if len(text) <= 2 * DETAIL_ENDS:
        return text
    cut = len(text) - 2 * DETAIL_ENDS
    return f"{text[:DETAIL_ENDS]} …[{cut:,} characters cut]… {text[-DETAIL_ENDS:]}"


def _unasked_detail(gold_row, reply, decided) -> str:
    """Why a reply on a row that needs clarification is not (or not surely) right."""
    wanted = f"; it should ask about {', '.join(gold_row.mentions)}" if gold_row.mentions else ""
    if not reply:
        return "no call and no reply" + wanted
    if decided:
        return "the reply names none of what is missing or wrong and asks nothing" + wanted
    return "the reply asks, in other words than expected" + wanted


@functools.lru_cache(maxsize=16384)
def _interval_comparison(gold_interval, pred_interval, zone, argument) -> str:
    """` (gold vs predicted; slip: how they differ)`, once per distinct pair of intervals: the
    same wrong day is written by many models on the same request."""
    from scorer import temporal

    text = f" ({describe_interval(gold_interval, zone)} vs {describe_interval(pred_interval, zone)}"
    gold_iv, pred_iv = _as_interval(gold_interval, zone), _as_interval(pred_interval, zone)
    slip = temporal.slip(gold_iv, pred_iv)
    if slip == "off_by_one_day" and range_role(argument) == "end" and gold_iv.granularity == "day":
        slip = "inclusive_exclusive_end; the tool's end convention is not declared " \
               "(x-inclusive-end in its schema, or --range-end)"
    return text + (f"; slip: {slip}" if slip else "") + ")"


def _as_interval(interval, timezone):
    """The temporal package's Interval for (start minute, end minute, granularity index)."""
    from scorer.temporal import Interval

    start, end, granularity = interval
    return Interval(datetime.fromtimestamp(start * 60, timezone), datetime.fromtimestamp(end * 60, timezone),
                    vocab.GRANULARITIES[granularity], "", False)


def describe_interval(interval, timezone) -> str:
    """A readable form of (start minute, end minute, granularity index): the day, month or
    year it names, a minute, or `start..end` (end exclusive) for anything else."""
    start_minute, end_minute, granularity = interval
    start = datetime.fromtimestamp(start_minute * 60, timezone)
    end = datetime.fromtimestamp(end_minute * 60, timezone)
    name = vocab.GRANULARITIES[granularity]
    single = {"minute": "%Y-%m-%d %H:%M", "hour": "%Y-%m-%d %H:00", "day": "%Y-%m-%d",
              "month": "%Y-%m", "year": "%Y"}.get(name)
    if single and _one_unit(start, end, name):
        return start.strftime(single)
    fmt = "%Y-%m-%d" if start.hour == start.minute == end.hour == end.minute == 0 else "%Y-%m-%d %H:%M"
    return f"{start.strftime(fmt)}..{end.strftime(fmt)} ({name})"


def _one_unit(start, end, name) -> bool:
    if name == "minute":
        return end - start == timedelta(minutes=1)
    if name == "hour":
        return end - start == timedelta(hours=1)
    if name == "day":
        return end - start == timedelta(days=1)
    if name == "month":
        return (end.year * 12 + end.month) - (start.year * 12 + start.month) == 1 and start.day == end.day == 1
    return end.year - start.year == 1 and (start.month, start.day, end.month, end.day) == (1, 1, 1, 1)
