# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Compiled twin of scorer/match_py.py: same inputs, same outputs, same tie-breaking.
The docstrings, and the meaning of every constant, live in match_py.py."""

import numpy as np
cimport numpy as cnp
from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint64_t
from libcpp.vector cimport vector

from scorer import match_py as _twin

cnp.import_array()

cdef enum:
    FUZZY = 1
    UNRESOLVED = 2
    UNKNOWN_PARAM = 4
    IS_DEFAULT = 8
    RELATIVE = 16
    TOLERANCE = 32
    PAIR_CHECKED = 33
    HOUR = 1
    EQ = 0
    MISSING = 1
    EXTRA = 2
    DIFF_VALUE = 3
    DIFF_TEMPORAL = 4
    UNCERTAIN = 5
    UNKNOWN_ARG = 6
    PAIR_EQUAL = 0
    PAIR_UNCERTAIN = 1
    PAIR_DIFFERENT = 2
    E_MALFORMED = 0
    E_NO_CALL = 1
    E_WRONG_TOOL = 2
    E_PARTIAL_CALLS = 3
    E_TEMPORAL = 4
    E_MISSING_ARG = 5
    E_INCORRECT_VALUE = 6
    E_UNCERTAIN = 7
    E_EXTRA_CALL = 8
    E_OVER_RECALL = 9
    E_UNKNOWN_ARG = 10
    O_CORRECT = 0
    O_MISS_RECALL = 1
    O_PARAM_ERROR = 2
    O_OVER_RECALL = 3
    S_NONE = 0
    S_NO_CALL = 1
    S_WRONG_TOOL = 2
    S_PARTIAL_CALLS = 3
    S_MALFORMED = 4
    S_TEMPORAL = 5
    S_MISSING_ARG = 6
    S_INCORRECT_VALUE = 7
    S_NEGATIVE = 8
    S_EXTRA_CALL = 9
    ROW_MALFORMED = 1
    ROW_UNDECIDABLE = 2
    MAX_EXACT_CANDIDATES = 12
    PAIR_SCORE = 65536

assert (MAX_EXACT_CANDIDATES, PAIR_SCORE, E_UNKNOWN_ARG, S_EXTRA_CALL, UNKNOWN_ARG) == (
    _twin.MAX_EXACT_CANDIDATES, _twin.PAIR_SCORE, _twin.E_UNKNOWN_ARG, _twin.S_EXTRA_CALL, _twin.UNKNOWN_ARG)


cdef struct ArgError:
    int8_t status
    int64_t g_arg
    int64_t p_arg


cdef struct Arrays:
    const int64_t* g_call_arg_off
    const int32_t* g_arg_param
    const uint8_t* g_arg_optional
    const int64_t* g_arg_alt_off
    const int64_t* g_val_code
    const int64_t* g_val_start
    const int64_t* g_val_end
    const int8_t* g_val_gran
    const int32_t* g_val_flags
    const int64_t* p_call_arg_off
    const int32_t* p_arg_param
    const int64_t* p_val_code
    const int64_t* p_val_start
    const int64_t* p_val_end
    const int8_t* p_val_gran
    const int32_t* p_val_flags
    const uint64_t* pair_keys
    const int8_t* pair_status
    Py_ssize_t n_pairs
    bint strict_relative


cdef inline bint temporal_equal_c(int64_t gs, int64_t ge, int8_t gg, int64_t ps, int64_t pe, int8_t pg) nogil:
    if gs == ps and ge == pe:
        return True
    return pg <= HOUR and gg > pg and pe - ps <= (60 if pg == HOUR else 1) and gs <= ps and pe <= ge


cdef inline int pair_status_c(const Arrays* a, int64_t g_code, int64_t p_code) nogil:
    cdef uint64_t key = ((<uint64_t>g_code) << 32) | <uint64_t>p_code
    cdef Py_ssize_t lo = 0, hi = a.n_pairs, mid
    while lo < hi:
        mid = (lo + hi) >> 1
        if a.pair_keys[mid] < key:
            lo = mid + 1
        else:
            hi = mid
    if lo < a.n_pairs and a.pair_keys[lo] == key:
        return a.pair_status[lo]
    return PAIR_DIFFERENT


cdef int compare_value_c(const Arrays* a, int64_t g_arg, int64_t p_arg) nogil:
    cdef bint any_temporal = False, uncertain = False
    cdef int64_t p_code = a.p_val_code[p_arg], alt
    cdef int32_t p_flags = a.p_val_flags[p_arg]
    cdef int8_t p_gran = a.p_val_gran[p_arg], g_gran
    cdef int status
    for alt in range(a.g_arg_alt_off[g_arg], a.g_arg_alt_off[g_arg + 1]):
        g_gran = a.g_val_gran[alt]
        if g_gran >= 0:
            any_temporal = True
            if a.strict_relative and p_flags & RELATIVE:
                continue
        if a.g_val_code[alt] == p_code:
            return EQ
        if g_gran >= 0 and p_gran >= 0 and temporal_equal_c(
                a.g_val_start[alt], a.g_val_end[alt], g_gran,
                a.p_val_start[p_arg], a.p_val_end[p_arg], p_gran):
            return EQ
        if a.g_val_flags[alt] & PAIR_CHECKED and p_flags & PAIR_CHECKED:
            status = pair_status_c(a, a.g_val_code[alt], p_code)
            if status == PAIR_EQUAL:
                return EQ
            uncertain = uncertain or status == PAIR_UNCERTAIN
    if any_temporal:
        return UNCERTAIN if (p_flags & UNRESOLVED and not a.strict_relative) else DIFF_TEMPORAL
    return UNCERTAIN if uncertain else DIFF_VALUE


cdef void compare_call_c(const Arrays* a, int64_t g_call, int64_t p_call, vector[ArgError]* found) nogil:
    """Appends the non-equal statuses of a same-tool pair, in the twin's order."""
    cdef int64_t p_first = a.p_call_arg_off[p_call], p_last = a.p_call_arg_off[p_call + 1]
    cdef int64_t g_arg, p_arg, candidate
    cdef vector[uint8_t] used
    cdef ArgError err
    cdef int status
    used.resize(p_last - p_first, 0)
    found.clear()
    for g_arg in range(a.g_call_arg_off[g_call], a.g_call_arg_off[g_call + 1]):
        p_arg = -1
        for candidate in range(p_first, p_last):
            if a.p_arg_param[candidate] == a.g_arg_param[g_arg]:
                p_arg = candidate
                break
        if p_arg < 0:
            if not a.g_arg_optional[g_arg]:
                err.status = MISSING
                err.g_arg = g_arg
                err.p_arg = -1
                found.push_back(err)
            continue
        used[p_arg - p_first] = 1
        status = compare_value_c(a, g_arg, p_arg)
        if status != EQ:
            err.status = status
            err.g_arg = g_arg
            err.p_arg = p_arg
            found.push_back(err)
    for p_arg in range(p_first, p_last):
        if used[p_arg - p_first] or a.p_val_flags[p_arg] & IS_DEFAULT:
            continue
        err.status = UNKNOWN_ARG if a.p_val_flags[p_arg] & UNKNOWN_PARAM else EXTRA
        err.g_arg = -1
        err.p_arg = p_arg
        found.push_back(err)


cdef int64_t best_c(int64_t i, int64_t mask, int64_t n_gold, int64_t n_cand,
                    const int64_t* costs, const int64_t* cand, int64_t n_pred, int64_t* memo) nogil:
    if i == n_gold:
        return 0
    cdef int64_t slot = i * (1 << n_cand) + mask
    if memo[slot] >= 0:
        return memo[slot]
    cdef int64_t value = best_c(i + 1, mask, n_gold, n_cand, costs, cand, n_pred, memo)
    cdef int64_t bit, cost, option
    for bit in range(n_cand):
        cost = costs[i * n_pred + cand[bit]]
        if cost >= 0 and not (mask >> bit) & 1:
            option = PAIR_SCORE - cost + best_c(i + 1, mask | (1 << bit), n_gold, n_cand, costs, cand, n_pred, memo)
            if option > value:
                value = option
    memo[slot] = value
    return value


def match(gold, pred, pair_keys, pair_status, strict_relative=False):
    cdef const uint8_t[::1] g_row_any_call = gold.row_any_call
    cdef const int64_t[::1] g_row_call_off = gold.row_call_off
    cdef const int32_t[::1] g_call_tool = gold.call_tool
    cdef const int64_t[::1] g_call_arg_off = gold.call_arg_off
    cdef const int32_t[::1] g_arg_param = gold.arg_param
    cdef const uint8_t[::1] g_arg_optional = gold.arg_optional
    cdef const int64_t[::1] g_arg_alt_off = gold.arg_alt_off
    cdef const int64_t[::1] g_val_code = gold.val_code
    cdef const int64_t[::1] g_val_start = gold.val_start
    cdef const int64_t[::1] g_val_end = gold.val_end
    cdef const int8_t[::1] g_val_gran = gold.val_gran
    cdef const int32_t[::1] g_val_flags = gold.val_flags
    cdef const int64_t[::1] p_row_gold = pred.row_gold
    cdef const uint8_t[::1] p_row_flags = pred.row_flags
    cdef const int64_t[::1] p_row_call_off = pred.row_call_off
    cdef const int32_t[::1] p_call_tool = pred.call_tool
    cdef const int64_t[::1] p_call_arg_off = pred.call_arg_off
    cdef const int32_t[::1] p_arg_param = pred.arg_param
    cdef const int64_t[::1] p_val_code = pred.val_code
    cdef const int64_t[::1] p_val_start = pred.val_start
    cdef const int64_t[::1] p_val_end = pred.val_end
    cdef const int8_t[::1] p_val_gran = pred.val_gran
    cdef const int32_t[::1] p_val_flags = pred.val_flags
    cdef const uint64_t[::1] keys = np.ascontiguousarray(pair_keys, dtype=np.uint64)
    cdef const int8_t[::1] statuses = np.ascontiguousarray(pair_status, dtype=np.int8)
    cdef Py_ssize_t n_rows = p_row_gold.shape[0]

    cdef Arrays a
    cdef uint64_t empty_key = 0
    cdef int8_t empty_status = 0
    a.g_call_arg_off = &g_call_arg_off[0] if g_call_arg_off.shape[0] else NULL
    a.g_arg_param = &g_arg_param[0] if g_arg_param.shape[0] else NULL
    a.g_arg_optional = &g_arg_optional[0] if g_arg_optional.shape[0] else NULL
    a.g_arg_alt_off = &g_arg_alt_off[0] if g_arg_alt_off.shape[0] else NULL
    a.g_val_code = &g_val_code[0] if g_val_code.shape[0] else NULL
    a.g_val_start = &g_val_start[0] if g_val_start.shape[0] else NULL
    a.g_val_end = &g_val_end[0] if g_val_end.shape[0] else NULL
    a.g_val_gran = &g_val_gran[0] if g_val_gran.shape[0] else NULL
    a.g_val_flags = &g_val_flags[0] if g_val_flags.shape[0] else NULL
    a.p_call_arg_off = &p_call_arg_off[0] if p_call_arg_off.shape[0] else NULL
    a.p_arg_param = &p_arg_param[0] if p_arg_param.shape[0] else NULL
    a.p_val_code = &p_val_code[0] if p_val_code.shape[0] else NULL
    a.p_val_start = &p_val_start[0] if p_val_start.shape[0] else NULL
    a.p_val_end = &p_val_end[0] if p_val_end.shape[0] else NULL
    a.p_val_gran = &p_val_gran[0] if p_val_gran.shape[0] else NULL
    a.p_val_flags = &p_val_flags[0] if p_val_flags.shape[0] else NULL
    a.pair_keys = &keys[0] if keys.shape[0] else &empty_key
    a.pair_status = &statuses[0] if statuses.shape[0] else &empty_status
    a.n_pairs = keys.shape[0]
    a.strict_relative = strict_relative

    outcome_arr = np.zeros(n_rows, np.int8)
    subtype_arr = np.zeros(n_rows, np.int8)
    decided_arr = np.ones(n_rows, np.uint8)
    flags_arr = np.zeros(n_rows, np.uint8)
    err_off_arr = np.zeros(n_rows + 1, np.int64)
    cdef int8_t[::1] outcome = outcome_arr
    cdef int8_t[::1] subtype = subtype_arr
    cdef uint8_t[::1] decided = decided_arr
    cdef uint8_t[::1] row_flags = flags_arr
    cdef int64_t[::1] err_off = err_off_arr

    cdef vector[int8_t] e_kind
    cdef vector[int32_t] e_gcall, e_pcall
    cdef vector[int64_t] e_garg, e_parg
    cdef vector[ArgError] found
    cdef vector[int64_t] costs, cand, memo, chosen
    cdef vector[uint8_t] taken
    cdef vector[int32_t] gold_tools
    cdef Py_ssize_t row
    cdef int64_t g_row, g_first, g_last, p_first, p_last, n_gold, n_pred, i, p, bit, n_cand
    cdef int64_t mask, target, pick, pick_cost, cost, n_matched, t
    cdef int worst, kind
    cdef bint malformed, in_gold, extras, any_uncertain, unknown_arg
    cdef size_t k
    cdef int arg_kind[7]
    arg_kind[MISSING] = E_MISSING_ARG
    arg_kind[EXTRA] = E_INCORRECT_VALUE
    arg_kind[DIFF_VALUE] = E_INCORRECT_VALUE
    arg_kind[DIFF_TEMPORAL] = E_TEMPORAL
    arg_kind[UNCERTAIN] = E_UNCERTAIN
    arg_kind[UNKNOWN_ARG] = E_UNKNOWN_ARG

    with nogil:
        for row in range(n_rows):
            g_row = p_row_gold[row]
            g_first = g_row_call_off[g_row]
            g_last = g_row_call_off[g_row + 1]
            p_first = p_row_call_off[row]
            p_last = p_row_call_off[row + 1]
            n_gold = g_last - g_first
            n_pred = p_last - p_first
            malformed = p_row_flags[row] & ROW_MALFORMED
            any_uncertain = False
            if malformed:
                e_kind.push_back(E_MALFORMED); e_gcall.push_back(-1); e_pcall.push_back(-1)
                e_garg.push_back(-1); e_parg.push_back(-1)
            if n_gold == 0 and g_row_any_call[g_row]:
                if malformed:
                    outcome[row] = O_MISS_RECALL; subtype[row] = S_MALFORMED
                elif n_pred == 0:
                    e_kind.push_back(E_NO_CALL); e_gcall.push_back(-1); e_pcall.push_back(-1)
                    e_garg.push_back(-1); e_parg.push_back(-1)
                    outcome[row] = O_MISS_RECALL; subtype[row] = S_NO_CALL
                err_off[row + 1] = e_kind.size()
                continue
            if n_gold == 0:
                for p in range(n_pred):
                    e_kind.push_back(E_OVER_RECALL); e_gcall.push_back(-1); e_pcall.push_back(p)
                    e_garg.push_back(-1); e_parg.push_back(-1)
                if n_pred or malformed:
                    outcome[row] = O_OVER_RECALL
                    subtype[row] = S_NEGATIVE
                err_off[row + 1] = e_kind.size()
                continue
            gold_tools.clear()
            for i in range(n_gold):
                gold_tools.push_back(g_call_tool[g_first + i])
            costs.assign(n_gold * n_pred, -1)
            cand.clear()
            for p in range(n_pred):
                in_gold = False
                for i in range(n_gold):
                    if gold_tools[i] == p_call_tool[p_first + p]:
                        in_gold = True
                        compare_call_c(&a, g_first + i, p_first + p, &found)
                        costs[i * n_pred + p] = found.size()
                if in_gold:
                    cand.push_back(p)
            n_cand = cand.size()
            chosen.assign(n_gold, -1)
            if n_cand > MAX_EXACT_CANDIDATES:
                taken.assign(n_pred, 0)
                for i in range(n_gold):
                    pick = -1
                    pick_cost = -1
                    for bit in range(n_cand):
                        p = cand[bit]
                        cost = costs[i * n_pred + p]
                        if cost >= 0 and not taken[p] and (pick < 0 or cost < pick_cost):
                            pick = p
                            pick_cost = cost
                    if pick >= 0:
                        taken[pick] = 1
                    chosen[i] = pick
                row_flags[row] |= ROW_UNDECIDABLE
            elif n_cand > 0:
                memo.assign((n_gold + 1) * (1 << n_cand), -1)
                mask = 0
                for i in range(n_gold):
                    target = best_c(i, mask, n_gold, n_cand, costs.data(), cand.data(), n_pred, memo.data())
                    for bit in range(n_cand):
                        cost = costs[i * n_pred + cand[bit]]
                        if cost >= 0 and not (mask >> bit) & 1 and PAIR_SCORE - cost + best_c(
                                i + 1, mask | (1 << bit), n_gold, n_cand, costs.data(), cand.data(), n_pred, memo.data()) == target:
                            mask |= 1 << bit
                            chosen[i] = cand[bit]
                            break
            if n_pred == 0 and not malformed:
                e_kind.push_back(E_NO_CALL); e_gcall.push_back(-1); e_pcall.push_back(-1)
                e_garg.push_back(-1); e_parg.push_back(-1)
            worst = -1
            unknown_arg = False
            taken.assign(n_pred, 0)
            n_matched = 0
            for i in range(n_gold):
                p = chosen[i]
                if p < 0:
                    e_kind.push_back(E_PARTIAL_CALLS); e_gcall.push_back(i); e_pcall.push_back(-1)
                    e_garg.push_back(-1); e_parg.push_back(-1)
                    continue
                taken[p] = 1
                n_matched += 1
                compare_call_c(&a, g_first + i, p_first + p, &found)
                for k in range(found.size()):
                    kind = arg_kind[found[k].status]
                    e_kind.push_back(kind); e_gcall.push_back(i); e_pcall.push_back(p)
                    e_garg.push_back(found[k].g_arg); e_parg.push_back(found[k].p_arg)
                    if kind == E_UNCERTAIN:
                        any_uncertain = True
                    elif kind == E_UNKNOWN_ARG:
                        unknown_arg = True
                    elif worst < 0 or kind < worst:
                        worst = kind
            extras = False
            for p in range(n_pred):
                if not taken[p]:
                    in_gold = False
                    for t in range(n_gold):
                        if gold_tools[t] == p_call_tool[p_first + p]:
                            in_gold = True
                    e_kind.push_back(E_EXTRA_CALL if in_gold else E_WRONG_TOOL)
                    e_gcall.push_back(-1); e_pcall.push_back(p); e_garg.push_back(-1); e_parg.push_back(-1)
                    extras = True
            if malformed:
                outcome[row] = O_MISS_RECALL; subtype[row] = S_MALFORMED
            elif n_pred == 0:
                outcome[row] = O_MISS_RECALL; subtype[row] = S_NO_CALL
            elif n_matched == 0:
                outcome[row] = O_MISS_RECALL; subtype[row] = S_WRONG_TOOL
            elif n_matched < n_gold:
                outcome[row] = O_MISS_RECALL; subtype[row] = S_PARTIAL_CALLS
            elif worst >= 0:
                outcome[row] = O_PARAM_ERROR
                if worst == E_TEMPORAL:
                    subtype[row] = S_TEMPORAL
                elif worst == E_MISSING_ARG:
                    subtype[row] = S_MISSING_ARG
                else:
                    subtype[row] = S_INCORRECT_VALUE
            elif unknown_arg:
                outcome[row] = O_PARAM_ERROR; subtype[row] = S_INCORRECT_VALUE
                decided[row] = 0
            elif extras:
                outcome[row] = O_OVER_RECALL; subtype[row] = S_EXTRA_CALL
            if (outcome[row] == O_CORRECT or outcome[row] == O_OVER_RECALL) and any_uncertain:
                decided[row] = 0
            if row_flags[row] & ROW_UNDECIDABLE:
                decided[row] = 0
            err_off[row + 1] = e_kind.size()

    n_err = e_kind.size()
    return _twin.Matched(
        outcome_arr, subtype_arr, decided_arr, flags_arr, err_off_arr,
        np.asarray(<int8_t[:n_err]> e_kind.data()).copy() if n_err else np.zeros(0, np.int8),
        np.asarray(<int32_t[:n_err]> e_gcall.data()).copy() if n_err else np.zeros(0, np.int32),
        np.asarray(<int32_t[:n_err]> e_pcall.data()).copy() if n_err else np.zeros(0, np.int32),
        np.asarray(<int64_t[:n_err]> e_garg.data()).copy() if n_err else np.zeros(0, np.int64),
        np.asarray(<int64_t[:n_err]> e_parg.data()).copy() if n_err else np.zeros(0, np.int64),
    )


match.__doc__ = _twin.match.__doc__
