"""`bfcl_valid` against bfcl-eval 2026.3.23's own multi-turn checker, imported directly, on
trajectories generated from its gold answers (in the decoded form its checker takes: per turn,
per step, a list of call texts)."""

import copy
import itertools
import sys
from pathlib import Path

import pytest

from scorer import bfcl_multi_turn
from scorer.compat.bfcl_eval_decoders import PROMPT

REASON = bfcl_multi_turn.missing_reason()
pytestmark = pytest.mark.skipif(REASON is not None, reason=REASON or "")
_RUNS = itertools.count()
BENCH = Path(__file__).resolve().parents[2] / "bench"


def bfcl_own(entry, decoded):
    """BFCL's checker on one trajectory -> (valid, error_type). Its simulators live in module
    globals named after the model, so every run gets a name of its own."""
    from bfcl_eval.eval_checker.multi_turn_eval.multi_turn_checker import multi_turn_checker

    verdict = multi_turn_checker(decoded, entry["gold_turns"], copy.deepcopy(entry), entry["id"].rsplit("_", 1)[0],
                                 f"callscore_test_{next(_RUNS)}")
    return verdict["valid"], verdict.get("error_type")


def ours(entry, decoded):
    methods = bfcl_multi_turn.Environment(entry).methods
    verdict = bfcl_multi_turn.bfcl_verdict(entry, [[bfcl_multi_turn.read_step(step, methods, PROMPT) for step in turn]
                                                   for turn in decoded])
    return verdict["valid"], verdict["error_type"]


def entries(category):
    return bfcl_multi_turn.load_entries(bfcl_multi_turn.question_file(category))


def read_only_call(entry, earlier_turns):
    """bench/parity_v4.py's read-only call after the earlier gold turns, as a call text."""
    sys.path.insert(0, str(BENCH))
    try:
        import parity_v4
    finally:
        sys.path.remove(str(BENCH))
    methods = bfcl_multi_turn.Environment(entry).methods
    earlier = [[call for text in turn for call in bfcl_multi_turn.read_calls(text, methods)[0]] for turn in earlier_turns]
    found = parity_v4.read_only_call(entry, earlier)
    assert found, f"no read-only call for {entry['id']}"
    return f"{found[0]}()"


def as_decoded(gold_turns):
    return [[list(turn)] if turn else [] for turn in gold_turns]


@pytest.mark.parametrize("category", ["miss_func", "miss_param"])
def test_a_read_only_call_on_an_empty_gold_turn_is_valid_as_in_bfcl(category):
    # every entry of these categories has one turn whose gold is empty (the function or the
    # parameter the user asks for is missing); BFCL's checker skips such a turn
    checked = 0
    for entry in entries(category):
        empty = next(turn for turn, calls in enumerate(entry["gold_turns"]) if not calls)
        decoded = as_decoded(entry["gold_turns"])
        decoded[empty] = [[read_only_call(entry, entry["gold_turns"][:empty])]]
        assert ours(entry, decoded) == bfcl_own(entry, decoded) == (True, None), entry["id"]
        checked += 1
    assert checked == 200


def _variants(entry):
    """Perturbations of the gold trajectory: (name, decoded trajectory)."""
    gold = entry["gold_turns"]
    calling = [turn for turn, calls in enumerate(gold) if calls]
    first, last = calling[0], calling[-1]
    yield "gold", as_decoded(gold)
    dropped = as_decoded(gold)
    dropped[last] = [gold[last][:-1]] if len(gold[last]) > 1 else []
    yield "last call dropped", dropped
    repeated = as_decoded(gold)
    repeated[first] = [list(gold[first]), list(gold[first])]
    yield "first turn made twice", repeated
    reversed_turn = as_decoded(gold)
    reversed_turn[first] = [list(reversed(gold[first]))]
    yield "first turn's calls reversed", reversed_turn
    split = as_decoded(gold)
    split[first] = [[call] for call in gold[first]]
    yield "one step per call", split
    unknown = as_decoded(gold)
    unknown[last] = [[*gold[last], "no_such_function(x=1)"]]
    yield "an unknown function called", unknown
    for turn, calls in enumerate(gold):
        if not calls and turn + 1 < len(gold):
            early = as_decoded(gold)
            early[turn] = [list(gold[turn + 1])]   # the next turn's calls made before the user asks
            yield "next turn's calls on the empty gold turn", early


@pytest.mark.parametrize("category", bfcl_multi_turn.CATEGORIES)
def test_perturbed_trajectories_agree_with_bfcls_checker(category):
    seen = set()
    for entry in entries(category)[:25]:
        for name, decoded in _variants(entry):
            verdict = ours(entry, decoded)
            assert verdict == bfcl_own(entry, decoded), (entry["id"], name)
            seen.add((name, verdict[0]))
    # the variants reach both verdicts
    assert {valid for _name, valid in seen} == {True, False}
