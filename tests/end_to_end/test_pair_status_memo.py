"""A pair of values whose keys differ is decided once (free text by similarity, numbers within a
tolerance) and remembered by the pair's codes. Two values of one key can still differ in what
that decision reads: the text as written before a place or alias rule replaced it, and the
tolerance of the gold's parameter. Each must get its own verdict, whatever was scored before it
in the process: otherwise verdicts change with the row order, the batch size and --jobs."""

import json

import pytest

from helpers import call, verdicts_for

GOLD = [{"id": "x", "gold_calls": [call("get_weather", city="天安门")]}]


@pytest.mark.parametrize("order", [("Chengdu", "成都市"), ("成都市", "Chengdu")])
def test_one_place_written_two_ways_gets_two_verdicts_in_either_order(order):
    # both read as the city 成都; against 天安门 (not a place the tables name):
    # Chengdu is Latin script against Han, which no alias links: a judge decides;
    # 成都市 shares no character with 天安门: a different value
    verdicts = verdicts_for(GOLD, [{"id": "x", "model": name, "calls": [call("get_weather", city=name)]}
                                   for name in order])
    latin, han = verdicts[("Chengdu", "x")], verdicts[("成都市", "x")]
    assert latin["decided"] is False and latin["uncertain_reason"].endswith("Latin and Han script, and no alias links them")
    assert (han["outcome"], han["subtype"], han["decided"]) == ("param_error", "incorrect_value", True)
    assert han["detail"] == "city: gold 天安门, predicted 成都市"


def test_equal_places_written_otherwise_stay_equal():
    gold = [{"id": "x", "gold_calls": [call("get_weather", city="北京")]}]
    verdicts = verdicts_for(gold, [{"id": "x", "model": name, "calls": [call("get_weather", city=name)]}
                                   for name in ("北京", "Beijing", "北京市", "Peking")])
    assert {model: (row["outcome"], row["decided"]) for (model, _id), row in verdicts.items()} == \
        dict.fromkeys(("北京", "Beijing", "北京市", "Peking"), ("correct", True))


def _amount_tool(name, tolerance):
    return {"name": name, "parameters": {"type": "object", "properties": {
        "amount": {"type": "number", "x-tolerance": tolerance}}, "required": ["amount"]}}


@pytest.mark.parametrize("first", ["wide", "narrow"])
def test_one_number_pair_under_two_tolerances_gets_two_verdicts(first):
    tools = json.dumps([_amount_tool("pay_wide", 2), _amount_tool("pay_narrow", 0.5)])
    gold = [{"id": kind, "tools": tools, "gold_calls": [call(f"pay_{kind}", amount=100)]} for kind in ("wide", "narrow")]
    order = [first, "narrow" if first == "wide" else "wide"]
    verdicts = verdicts_for(gold, [{"id": kind, "calls": [call(f"pay_{kind}", amount=101)]} for kind in order])
    assert verdicts[("m", "wide")]["outcome"] == "correct"           # |101 - 100| <= 2
    narrow = verdicts[("m", "narrow")]                                 # |101 - 100| > 0.5
    assert (narrow["outcome"], narrow["subtype"]) == ("param_error", "incorrect_value")


@pytest.mark.parametrize("first", ["passenger_name", "note"])
def test_one_text_pair_in_a_name_and_in_a_free_text_gets_two_verdicts(first):
    # Jon Smith / John Smith: in a person's-name parameter a judge decides (the same person misspelt
    # or another); in a free text one added letter is a typo: equal. The pair's codes must tell the
    # two parameters apart, or whichever is scored first decides both
    gold = [{"id": name, "gold_calls": [call("book", **{name: "John Smith"})]} for name in ("passenger_name", "note")]
    order = [first, "note" if first == "passenger_name" else "passenger_name"]
    verdicts = verdicts_for(gold, [{"id": name, "calls": [call("book", **{name: "Jon Smith"})]} for name in order])
    assert verdicts[("m", "passenger_name")]["decided"] is False
    assert (verdicts[("m", "note")]["outcome"], verdicts[("m", "note")]["decided"]) == ("correct", True)
