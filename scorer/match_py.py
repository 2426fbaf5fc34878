"""Pure-Python twin of the compiled matcher (`ext/match.pyx`): the source of truth for what
matching means. Both take the same flattened arrays and return the same arrays.

Layout (like Arrow's list layout): gold rows -> calls -> arguments -> accepted values, each
level an offsets array into the next; prediction rows -> calls -> arguments -> one value.
Values arrive already normalized: an integer code (equal codes = equal values), an interval
in epoch minutes with a granularity index (-1 = not temporal), and flag bits
(scorer.normalize). Pairs of values that need more than code equality (fuzzy text, numeric
tolerance) were decided before, in Python, and arrive as a sorted lookup table.

Calls are paired one to one by an optimal assignment: as many same-tool pairs as possible,
then as few argument errors as possible; ties go to the lowest gold index, then the lowest
prediction index. Policy (what counts as equal) never lives here.
"""

from typing import NamedTuple

import numpy as np

# Value flag bits (kept equal to scorer.normalize's).
FUZZY, UNRESOLVED, UNKNOWN_PARAM, IS_DEFAULT, RELATIVE, TOLERANCE = 1, 2, 4, 8, 16, 32
PAIR_CHECKED = FUZZY | TOLERANCE
HOUR = 1  # index of "hour" in scorer.vocab.GRANULARITIES
POINT_MINUTES = (1, 60)  # the length of a point at granularity minute (index 0) and hour (1)

# Argument comparison statuses.
EQ, MISSING, EXTRA, DIFF_VALUE, DIFF_TEMPORAL, UNCERTAIN, UNKNOWN_ARG = range(7)
# Pair-table statuses.
PAIR_EQUAL, PAIR_UNCERTAIN, PAIR_DIFFERENT = 0, 1, 2

# Error kinds, outcomes and subtypes (names in scorer.attribute).
(E_MALFORMED, E_NO_CALL, E_WRONG_TOOL, E_PARTIAL_CALLS, E_TEMPORAL, E_MISSING_ARG,
 E_INCORRECT_VALUE, E_UNCERTAIN, E_EXTRA_CALL, E_OVER_RECALL, E_UNKNOWN_ARG) = range(11)
O_CORRECT, O_MISS_RECALL, O_PARAM_ERROR, O_OVER_RECALL = range(4)
(S_NONE, S_NO_CALL, S_WRONG_TOOL, S_PARTIAL_CALLS, S_MALFORMED, S_TEMPORAL, S_MISSING_ARG,
 S_INCORRECT_VALUE, S_NEGATIVE, S_EXTRA_CALL) = range(10)

ROW_MALFORMED = 1
ROW_UNDECIDABLE = 2   # set on output rows whose assignment was too large to solve exactly
MAX_EXACT_CANDIDATES = 12
PAIR_SCORE = 1 << 16  # one more pair always outweighs any number of argument errors


class Gold(NamedTuple):
    row_any_call: np.ndarray    # uint8 per gold row: any call is correct (BFCL live_relevance)
    row_call_off: np.ndarray
    call_tool: np.ndarray
    call_arg_off: np.ndarray
    arg_param: np.ndarray
    arg_optional: np.ndarray
    arg_alt_off: np.ndarray
    val_code: np.ndarray
    val_start: np.ndarray
    val_end: np.ndarray
    val_gran: np.ndarray
    val_flags: np.ndarray


class Predictions(NamedTuple):
    row_gold: np.ndarray       # gold row index of each prediction row
    row_flags: np.ndarray
    row_call_off: np.ndarray
    call_tool: np.ndarray
    call_arg_off: np.ndarray
    arg_param: np.ndarray
    val_code: np.ndarray
    val_start: np.ndarray
    val_end: np.ndarray
    val_gran: np.ndarray
    val_flags: np.ndarray


class Matched(NamedTuple):
    outcome: np.ndarray        # int8 per row
    subtype: np.ndarray        # int8 per row
    decided: np.ndarray        # uint8 per row
    row_flags: np.ndarray      # uint8 per row (ROW_UNDECIDABLE)
    err_off: np.ndarray        # int64, rows + 1
    err_kind: np.ndarray       # int8 per error
    err_gcall: np.ndarray      # int32: gold call index within the row, or -1
    err_pcall: np.ndarray      # int32: predicted call index within the row, or -1
    err_garg: np.ndarray       # int64: global gold argument index, or -1
    err_parg: np.ndarray       # int64: global predicted argument index, or -1


def temporal_equal(g_start, g_end, g_gran, p_start, p_end, p_gran) -> bool:
    """Identical intervals, or a point-like prediction inside a coarser gold: one minute or one
    hour (a clock time, 五点多), wholly inside. A range of minutes (10:00-12:00, 现在到下周) is
    no point: inside 上午 it is a part of the gold, reaching past 本周 it is not in it."""
    if g_start == p_start and g_end == p_end:
        return True
    return p_gran <= HOUR and g_gran > p_gran and p_end - p_start <= POINT_MINUTES[p_gran] \
        and g_start <= p_start and p_end <= g_end


def _pair_status(pair_keys, pair_status, g_code, p_code) -> int:
    key = (int(g_code) << 32) | int(p_code)
    at = int(np.searchsorted(pair_keys, np.uint64(key)))
    if at < len(pair_keys) and int(pair_keys[at]) == key:
        return int(pair_status[at])
    return PAIR_DIFFERENT


def compare_value(gold, g_arg, pred, p_arg, pair_keys, pair_status, strict_relative) -> int:
    """Status of one predicted value against a gold argument's accepted values."""
    any_temporal = uncertain = False
    p_code, p_flags, p_gran = pred.val_code[p_arg], pred.val_flags[p_arg], pred.val_gran[p_arg]
    for alt in range(gold.arg_alt_off[g_arg], gold.arg_alt_off[g_arg + 1]):
        g_gran = gold.val_gran[alt]
        if g_gran >= 0:
            any_temporal = True
            if strict_relative and p_flags & RELATIVE:
                continue
        if gold.val_code[alt] == p_code:
            return EQ
        if g_gran >= 0 and p_gran >= 0 and temporal_equal(
                gold.val_start[alt], gold.val_end[alt], g_gran,
                pred.val_start[p_arg], pred.val_end[p_arg], p_gran):
            return EQ
        if gold.val_flags[alt] & PAIR_CHECKED and p_flags & PAIR_CHECKED:
            status = _pair_status(pair_keys, pair_status, gold.val_code[alt], p_code)
            if status == PAIR_EQUAL:
                return EQ
            uncertain = uncertain or status == PAIR_UNCERTAIN
    if any_temporal:
        return UNCERTAIN if p_flags & UNRESOLVED and not strict_relative else DIFF_TEMPORAL
    return UNCERTAIN if uncertain else DIFF_VALUE


def compare_call(gold, g_call, pred, p_call, pair_keys, pair_status, strict_relative):
    """Statuses of a same-tool pair: [(status, gold arg, pred arg)] for every non-equal
    argument, gold arguments first in order, then extra predicted arguments in order."""
    found = []
    p_first, p_last = pred.call_arg_off[p_call], pred.call_arg_off[p_call + 1]
    used = set()
    for g_arg in range(gold.call_arg_off[g_call], gold.call_arg_off[g_call + 1]):
        p_arg = -1
        for candidate in range(p_first, p_last):
            if pred.arg_param[candidate] == gold.arg_param[g_arg]:
                p_arg = candidate
                break
        if p_arg < 0:
            if not gold.arg_optional[g_arg]:
                found.append((MISSING, g_arg, -1))
            continue
        used.add(p_arg)
        status = compare_value(gold, g_arg, pred, p_arg, pair_keys, pair_status, strict_relative)
        if status != EQ:
            found.append((status, g_arg, p_arg))
    for p_arg in range(p_first, p_last):
        if p_arg in used or pred.val_flags[p_arg] & IS_DEFAULT:
            continue
        found.append((UNKNOWN_ARG if pred.val_flags[p_arg] & UNKNOWN_PARAM else EXTRA, -1, p_arg))
    return found


def _assign(costs, n_gold, candidates):
    """Optimal one-to-one assignment by dynamic programming over the used-candidate mask.
    Returns, per gold call, the predicted call index or -1."""
    memo = {}

    def best(i, mask):
        if i == n_gold:
            return 0
        key = (i, mask)
        if key not in memo:
            value = best(i + 1, mask)
            for bit, p_call in enumerate(candidates):
                cost = costs.get((i, p_call))
                if cost is not None and not mask >> bit & 1:
                    value = max(value, PAIR_SCORE - cost + best(i + 1, mask | 1 << bit))
            memo[key] = value
        return memo[key]

    chosen, mask = [], 0
    for i in range(n_gold):
        target = best(i, mask)
        pick = -1
        for bit, p_call in enumerate(candidates):
            cost = costs.get((i, p_call))
            if cost is not None and not mask >> bit & 1 and PAIR_SCORE - cost + best(i + 1, mask | 1 << bit) == target:
                pick = bit
                break
        if pick >= 0:
            mask |= 1 << pick
            chosen.append(candidates[pick])
        else:
            chosen.append(-1)
    return chosen


def _assign_greedy(costs, n_gold, candidates):
    """For rows too large for the exact search: each gold call in order takes the cheapest
    free candidate. The row is then marked undecided."""
    taken, chosen = set(), []
    for i in range(n_gold):
        pick, pick_cost = -1, None
        for p_call in candidates:
            cost = costs.get((i, p_call))
            if cost is not None and p_call not in taken and (pick_cost is None or cost < pick_cost):
                pick, pick_cost = p_call, cost
        if pick >= 0:
            taken.add(pick)
        chosen.append(pick)
    return chosen


def match(gold: Gold, pred: Predictions, pair_keys, pair_status, strict_relative=False) -> Matched:
    """Match every prediction row against its gold row; see the module docstring."""
    n_rows = len(pred.row_gold)
    outcome = np.zeros(n_rows, np.int8)
    subtype = np.zeros(n_rows, np.int8)
    decided = np.ones(n_rows, np.uint8)
    row_flags = np.zeros(n_rows, np.uint8)
    err_off = np.zeros(n_rows + 1, np.int64)
    errors = []
    arg_error_kind = {MISSING: E_MISSING_ARG, EXTRA: E_INCORRECT_VALUE, DIFF_VALUE: E_INCORRECT_VALUE,
                      DIFF_TEMPORAL: E_TEMPORAL, UNCERTAIN: E_UNCERTAIN, UNKNOWN_ARG: E_UNKNOWN_ARG}
    for row in range(n_rows):
        g_row = pred.row_gold[row]
        g_first, g_last = gold.row_call_off[g_row], gold.row_call_off[g_row + 1]
        p_first, p_last = pred.row_call_off[row], pred.row_call_off[row + 1]
        n_gold, n_pred = g_last - g_first, p_last - p_first
        malformed = pred.row_flags[row] & ROW_MALFORMED
        row_errors = []
        if malformed:
            row_errors.append((E_MALFORMED, -1, -1, -1, -1))
        if n_gold == 0 and gold.row_any_call[g_row]:
            if malformed:
                outcome[row], subtype[row] = O_MISS_RECALL, S_MALFORMED
            elif n_pred == 0:
                row_errors.append((E_NO_CALL, -1, -1, -1, -1))
                outcome[row], subtype[row] = O_MISS_RECALL, S_NO_CALL
        elif n_gold == 0:
            for p in range(n_pred):
                row_errors.append((E_OVER_RECALL, -1, p, -1, -1))
            if n_pred or malformed:
                outcome[row], subtype[row] = O_OVER_RECALL, S_NEGATIVE
        else:
            gold_tools = {gold.call_tool[g_first + i] for i in range(n_gold)}
            costs = {}
            candidates = []
            for p in range(n_pred):
                if pred.call_tool[p_first + p] in gold_tools:
                    candidates.append(p)
                    for i in range(n_gold):
                        if gold.call_tool[g_first + i] == pred.call_tool[p_first + p]:
                            costs[(i, p)] = len(compare_call(gold, g_first + i, pred, p_first + p,
                                                             pair_keys, pair_status, strict_relative))
            if len(candidates) > MAX_EXACT_CANDIDATES:
                chosen = _assign_greedy(costs, n_gold, candidates)
                row_flags[row] |= ROW_UNDECIDABLE
            else:
                chosen = _assign(costs, n_gold, candidates)
            if n_pred == 0 and not malformed:
                row_errors.append((E_NO_CALL, -1, -1, -1, -1))
            worst = None          # the highest-precedence definite argument error
            unknown_arg = False   # an argument the schema does not define: likely wrong, not certain
            for i, p in enumerate(chosen):
                if p < 0:
                    row_errors.append((E_PARTIAL_CALLS, i, -1, -1, -1))
                    continue
                for status, g_arg, p_arg in compare_call(gold, g_first + i, pred, p_first + p,
                                                         pair_keys, pair_status, strict_relative):
                    kind = arg_error_kind[status]
                    row_errors.append((kind, i, p, g_arg, p_arg))
                    if kind == E_UNKNOWN_ARG:
                        unknown_arg = True
                    elif kind != E_UNCERTAIN and (worst is None or kind < worst):
                        worst = kind
            matched = {p for p in chosen if p >= 0}
            extras = False
            for p in range(n_pred):
                if p not in matched:
                    in_gold = pred.call_tool[p_first + p] in gold_tools
                    row_errors.append((E_EXTRA_CALL if in_gold else E_WRONG_TOOL, -1, p, -1, -1))
                    extras = True
            n_matched = len(matched)
            if malformed:
                outcome[row], subtype[row] = O_MISS_RECALL, S_MALFORMED
            elif n_pred == 0:
                outcome[row], subtype[row] = O_MISS_RECALL, S_NO_CALL
            elif n_matched == 0:
                outcome[row], subtype[row] = O_MISS_RECALL, S_WRONG_TOOL
            elif n_matched < n_gold:
                outcome[row], subtype[row] = O_MISS_RECALL, S_PARTIAL_CALLS
            elif worst is not None:
                outcome[row] = O_PARAM_ERROR
                subtype[row] = {E_TEMPORAL: S_TEMPORAL, E_MISSING_ARG: S_MISSING_ARG}.get(worst, S_INCORRECT_VALUE)
            elif unknown_arg:  # tentatively an incorrect value, left to a judge
                outcome[row], subtype[row] = O_PARAM_ERROR, S_INCORRECT_VALUE
                decided[row] = 0
            elif extras:
                outcome[row], subtype[row] = O_OVER_RECALL, S_EXTRA_CALL
            if outcome[row] in (O_CORRECT, O_OVER_RECALL) and any(e[0] == E_UNCERTAIN for e in row_errors):
                decided[row] = 0
            if row_flags[row] & ROW_UNDECIDABLE:
                decided[row] = 0
        errors.extend(row_errors)
        err_off[row + 1] = len(errors)
    columns = list(zip(*errors)) if errors else [(), (), (), (), ()]
    return Matched(
        outcome, subtype, decided, row_flags, err_off,
        np.array(columns[0], np.int8), np.array(columns[1], np.int32), np.array(columns[2], np.int32),
        np.array(columns[3], np.int64), np.array(columns[4], np.int64),
    )
