"""An optional argument that gold writes at the schema's default means the same as leaving it
out (scorer/schema.py: omissible): the call without it is correct, as a call that writes the
default where gold leaves it out already is."""

import json

import pytest
from helpers import call, verdict, verdicts_for

from scorer.schema import omissible, parse_tools

W = "get_weather"   # helpers.WEATHER_TOOL: unit enum, default celsius; only city required
HOTEL = {"name": "book_hotel", "parameters": {"type": "object", "properties": {
    "city": {"type": "string"}, "rooms": {"type": "integer", "default": 1},
    "breakfast": {"type": "boolean", "default": False}, "guests": {"type": "integer"}},
    "required": ["city"]}}
HOTEL_ROOMS_REQUIRED = {**HOTEL, "parameters": {**HOTEL["parameters"], "required": ["city", "rooms"]}}


def _hotel(gold_arguments, predicted_arguments, tool=HOTEL):
    rows = [{"id": "x", "gold_calls": [call("book_hotel", **gold_arguments)], "tools": json.dumps([tool])}]
    return verdicts_for(rows, [{"id": "x", "calls": [call("book_hotel", **predicted_arguments)]}])[("m", "x")]


@pytest.mark.parametrize("unit", ["celsius", "Celsius"])
def test_an_enum_at_its_default_may_be_left_out(unit):
    v = verdict([call(W, city="北京", unit=unit)], [call(W, city="北京")])
    assert (v["outcome"], v["decided"]) == ("correct", True), v


@pytest.mark.parametrize("gold", [{"rooms": 1}, {"rooms": "1"}, {"breakfast": False}, {"rooms": 1, "breakfast": False}])
def test_numbers_and_booleans_at_their_default_may_be_left_out(gold):
    v = _hotel({"city": "上海", **gold}, {"city": "上海"})
    assert (v["outcome"], v["decided"]) == ("correct", True), v


@pytest.mark.parametrize("gold, tool", [
    ({"rooms": 2}, HOTEL),                      # not the default
    ({"breakfast": True}, HOTEL),
    ({"guests": 1}, HOTEL),                     # no default in the schema
    ({"rooms": 1}, HOTEL_ROOMS_REQUIRED),       # required, though at its default
])
def test_anything_else_left_out_stays_a_missing_argument(gold, tool):
    v = _hotel({"city": "上海", **gold}, {"city": "上海"}, tool)
    assert (v["outcome"], v["subtype"]) == ("param_error", "missing_arg"), v


def test_another_value_given_is_still_compared():
    v = verdict([call(W, city="北京", unit="celsius")], [call(W, city="北京", unit="fahrenheit")])
    assert (v["outcome"], v["subtype"]) == ("param_error", "incorrect_value"), v


def test_omissible():
    tool = parse_tools(json.dumps([HOTEL_ROOMS_REQUIRED]))["book_hotel"]
    assert [omissible(tool, name) for name in ("rooms", "breakfast", "guests", "undeclared")] == [
        False, True, False, False]
    assert omissible(None, "rooms") is False


def test_an_empty_value_where_gold_is_at_the_default_is_left_out():
    """`""` for a parameter the gold may leave out is read as left out (BFCL's habit), and a
    parameter at its default may be left out."""
    v = verdict([call(W, city="北京", unit="celsius")], [call(W, city="北京", unit="")])
    assert (v["outcome"], v["decided"]) == ("correct", True), v


@pytest.mark.parametrize("description, kind, default", [
    ("Number of diners (default: 2)", "integer", "2"),              # rules/described_defaults.toml
    ("The time display format: '12h' or '24h'. Default is '24h'.", "text", '"24h"'),
    ("Page size (defaults to 20)", "integer", "20"),
    ("Include archived items (default false)", "boolean", "false"),
    ("温度单位，默认为摄氏度", "text", '"摄氏度"'),
    ("每页条数，默认值：10", "integer", "10"),
    ("默认情况下返回全部", "text", None),                            # states no value
    ("the default city of the user", "text", None),
    ("Number of diners (default: two)", "integer", None),            # not a number for an integer
])
def test_a_default_stated_in_the_description(description, kind, default):
    from scorer.schema import described_default

    assert described_default(description, kind) == default


def test_gold_at_a_default_stated_in_prose_may_be_left_out():
    tool = {"name": "reserve", "parameters": {"type": "object", "properties": {
        "restaurant": {"type": "string"}, "party_size": {"type": "integer", "description": "Number of diners (default: 2)"}},
        "required": ["restaurant"]}}
    rows = [{"id": "x", "gold_calls": [call("reserve", restaurant="外婆家", party_size=2)], "tools": json.dumps([tool])},
            {"id": "y", "gold_calls": [call("reserve", restaurant="外婆家", party_size=4)], "tools": json.dumps([tool])}]
    found = verdicts_for(rows, [{"id": row, "calls": [call("reserve", restaurant="外婆家")]} for row in ("x", "y")])
    assert (found[("m", "x")]["outcome"], found[("m", "x")]["decided"]) == ("correct", True)
    assert found[("m", "y")]["subtype"] == "missing_arg"
