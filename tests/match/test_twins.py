"""The compiled matcher and its pure-Python twin agree exactly, on generated cases that reach
every outcome and subtype; the assignment is optimal (checked against brute force)."""

import importlib.util
import itertools
import os
import random
import subprocess
import sys

import numpy as np
import pytest
from helpers import call, gold_table, prediction_table

from helpers import compiled_core
from scorer import match_py
from scorer.encode import Codebook, GoldIndex, PredictionEncoder
from scorer.options import Options

_match_cy, needs_extension = compiled_core("scorer._match_cy", "matcher")

CITIES = ["北京", "上海", "广州", "北京市", "Beijing", "深圳", "北京朝阳区建国路88号", "北京朝阳区建国路"]
# days, a month, a point, and ranges of minutes inside a day and across its end (no points)
DATES = ["2026-03-05", "2026-03-06", "2026年3月5日", "2026-03-05T15:00:00+08:00", "2026-03",
         "2026年3月5日10:00-12:00", "2026-03-05T23:00/2026-03-06T01:00"]


def _random_call(rng, tool=None):
    tool = tool or rng.choice(["get_weather", "search_flights"])
    if tool == "get_weather":
        arguments = {"city": rng.choice(CITIES)}
        if rng.random() < 0.5:
            arguments["days"] = rng.choice([3, "3", "三", 4])
        if rng.random() < 0.2:
            arguments["unit"] = rng.choice(["celsius", "Fahrenheit"])
        if rng.random() < 0.1:
            arguments["colour"] = "blue"
    else:
        arguments = {"from_city": rng.choice(CITIES), "to_city": rng.choice(CITIES)}
        if rng.random() < 0.8:
            arguments["date"] = rng.choice(DATES)
    return call(tool, **arguments)


def _mutate(rng, gold_calls):
    calls = [dict(c, arguments=dict(c["arguments"])) for c in gold_calls]
    for c in calls:
        if c["arguments"] and rng.random() < 0.4:
            key = rng.choice(sorted(c["arguments"]))
            if rng.random() < 0.5:
                del c["arguments"][key]
            else:
                c["arguments"][key] = _random_call(rng, c["name"])["arguments"].get(key, "x")
    if calls and rng.random() < 0.2:
        calls.pop(rng.randrange(len(calls)))
    if rng.random() < 0.2:
        calls.append(_random_call(rng))
    rng.shuffle(calls)
    return calls


def generated_case(seed, rows=300):
    rng = random.Random(seed)
    gold_rows, predictions = [], []
    for index in range(rows):
        n_calls = rng.choice([0, 1, 1, 1, 2, 3, 4])
        gold_calls = [_random_call(rng) for _ in range(n_calls)]
        any_call = not n_calls and rng.random() < 0.3
        gold_rows.append({"id": f"g{index}", "gold_calls": gold_calls, "expect": "any_call" if any_call else None,
                          "negative_type": rng.choice(["no_tool", "other_tool", None]) if not n_calls and not any_call
                          else None})
        for model in ("a", "b"):
            kind = rng.random()
            if kind < 0.05:
                predictions.append({"id": f"g{index}", "model": model, "output": "[get_weather(city='北京'"})
            elif kind < 0.1:
                predictions.append({"id": f"g{index}", "model": model, "output": "好的。"})
            else:
                predictions.append({"id": f"g{index}", "model": model, "calls": _mutate(rng, gold_calls)})
    return gold_table(gold_rows), prediction_table(predictions)


def encode(gold, predictions):
    index = GoldIndex(gold, "gold", Options(), Codebook(), Codebook(), Codebook())
    encoder = PredictionEncoder(index, Options())
    positions = {row.id: i for i, row in enumerate(index.rows)}
    g_rows = [positions[i] for i in predictions["id"].to_pylist()]
    batch = encoder.encode(g_rows, predictions["calls"].to_pylist(), predictions["output"].to_pylist())
    return index, batch


@needs_extension
@pytest.mark.parametrize("seed", range(4))
def test_compiled_and_pure_matchers_agree(seed):
    index, batch = encode(*generated_case(seed))
    pure = match_py.match(index.arrays, batch.arrays, batch.pair_keys, batch.pair_status)
    compiled = _match_cy.match(index.arrays, batch.arrays, batch.pair_keys, batch.pair_status)
    for name in match_py.Matched._fields:
        assert np.array_equal(getattr(pure, name), getattr(compiled, name)), name
    reached = {(int(o), int(s)) for o, s in zip(pure.outcome, pure.subtype)}
    assert len(reached) >= 8  # the generator reaches most outcome/subtype pairs


@needs_extension
def test_strict_relative_mode_agrees():
    index, batch = encode(*generated_case(7, rows=100))
    pure = match_py.match(index.arrays, batch.arrays, batch.pair_keys, batch.pair_status, True)
    compiled = _match_cy.match(index.arrays, batch.arrays, batch.pair_keys, batch.pair_status, True)
    assert all(np.array_equal(getattr(pure, n), getattr(compiled, n)) for n in match_py.Matched._fields)


@needs_extension
def test_compiled_docstring_is_the_twins():
    assert _match_cy.match.__doc__ == match_py.match.__doc__


def _brute_force_cost(costs, n_gold, n_pred):
    best = None
    for chosen in itertools.product(range(-1, n_pred), repeat=n_gold):
        picked = [p for p in chosen if p >= 0]
        if len(picked) != len(set(picked)) or any(p >= 0 and (i, p) not in costs for i, p in enumerate(chosen)):
            continue
        score = sum(match_py.PAIR_SCORE - costs[(i, p)] for i, p in enumerate(chosen) if p >= 0)
        best = score if best is None else max(best, score)
    return best


@pytest.mark.parametrize("seed", range(200))
def test_assignment_is_optimal(seed):
    rng = random.Random(seed)
    n_gold, n_pred = rng.randint(1, 4), rng.randint(0, 5)
    costs = {(i, p): rng.randint(0, 3) for i in range(n_gold) for p in range(n_pred) if rng.random() < 0.7}
    chosen = match_py._assign(costs, n_gold, list(range(n_pred)))
    got = sum(match_py.PAIR_SCORE - costs[(i, p)] for i, p in enumerate(chosen) if p >= 0)
    assert got == _brute_force_cost(costs, n_gold, n_pred)


def test_reordered_and_repeated_calls_pair_optimally():
    from helpers import verdict
    gold = [call("get_weather", city="北京", days=3), call("get_weather", city="北京", days=5),
            call("get_weather", city="上海", days=3)]
    shuffled = [gold[2], gold[1], gold[0]]
    assert verdict(gold, shuffled)["outcome"] == "correct"
    # a greedy first-fit would pair gold 0 with the first 北京 call and blame the wrong one
    v = verdict(gold, [call("get_weather", city="北京", days=5), call("get_weather", city="上海", days=3),
                       call("get_weather", city="北京", days=4)])
    assert (v["subtype"], v["argument"]) == ("incorrect_value", "days")
    assert [e["gold"] for e in v["errors"]] == ["3"]


@pytest.mark.parametrize("module, extension", [("scorer.match", "scorer._match_cy"),
                                               ("scorer.callscan", "scorer._callscan_cy"),
                                               ("scorer.temporal.starts", "scorer.temporal._starts_cy"),
                                               ("scorer.normalize.text", "scorer.normalize._fold_cy"),
                                               ("scorer.temporal.whole", "scorer.temporal._whole_cy")])
@pytest.mark.parametrize("choice", ["python", "cython"])
def test_implementation_choice_in_a_fresh_process(module, extension, choice):
    """$CALLSCORE_IMPL picks the pure twin or the compiled core of the matcher, the scanners, the fold and
    the readers of dates written whole."""
    if choice == "cython" and importlib.util.find_spec(extension) is None:
        pytest.skip(f"{extension} not built")
    env = dict(os.environ, CALLSCORE_IMPL=choice)
    out = subprocess.run([sys.executable, "-c", f"from {module} import IMPLEMENTATION; print(IMPLEMENTATION)"],
                         capture_output=True, text=True, env=env, check=True)
    assert out.stdout.strip() == choice
