"""The memo keys of normalization: parameters and contexts hashed once, tool schemas read once."""

import dataclasses
import pickle
from datetime import datetime, timezone

import orjson

from scorer.normalize import FUZZY, UNKNOWN_PARAM, Canon, Context
from scorer.schema import Param, param_for, parse_tools

CITY_TOOL = {"name": "get_weather", "parameters": {"type": "object", "properties": {
    "city": {"type": "string", "description": "城市名"}, "days": {"type": "integer"}}}}


def test_a_pickled_param_does_not_carry_its_remembered_hash():
    param = Param(kind="text", properties=(("a", Param(kind="number")),))
    remembered = hash(param)
    state = param.__getstate__()
    assert "_hash" not in state          # string hashes differ between processes
    copy = pickle.loads(pickle.dumps(param))
    assert copy == param and hash(copy) == remembered and "_hash" not in pickle.dumps(param).decode("latin-1")


def test_a_context_hashes_like_an_equal_context():
    moment = datetime(2026, 3, 10, 9, 30, tzinfo=timezone.utc)
    first, second = Context(moment, "t", "p"), Context(moment, "t", "p")
    assert hash(first) == hash(second) and first == second
    assert {first: 1}[second] == 1


def test_a_tool_offered_on_many_rows_is_read_once():
    other = {"name": "book", "parameters": {"type": "object", "properties": {"when": {"type": "string"}}}}
    one = parse_tools(orjson.dumps([CITY_TOOL]).decode())
    two = parse_tools(orjson.dumps([other, CITY_TOOL]).decode())
    assert one["get_weather"] is two["get_weather"]
    assert one["get_weather"].params["days"].kind == "integer"


def test_tools_given_as_objects_read_as_from_text():
    assert parse_tools([CITY_TOOL]) == parse_tools(orjson.dumps([CITY_TOOL]).decode())


def test_a_bad_schema_after_a_good_one_is_still_an_error():
    import pytest

    parse_tools(orjson.dumps([CITY_TOOL]).decode())
    broken = {"name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"enum": "北京"}}}}
    with pytest.raises(ValueError, match="enum is str"):
        parse_tools(orjson.dumps([broken]).decode())


def test_a_refined_kind_is_one_object_per_parameter_and_kind():
    tools = parse_tools([{"name": "book", "parameters": {"type": "object", "properties": {
        "start_date": {"type": "string"}, "note": {}}}}])
    first, _known = param_for(tools, "book", "start_date", "2026-03-05")
    second, _known = param_for(tools, "book", "start_date", "2026-04-01")
    assert first.kind == "date" and first is second
    undeclared, known = param_for(tools, "book", "departure_city", "北京")
    assert not known and undeclared.place and undeclared is param_for(tools, "book", "departure_city", "上海")[0]


def test_description_words_are_found_whole_as_before_one_pattern_per_kind():
    from scorer.schema import _described, field_unit

    assert _described("when the record was updated") is None      # `date` inside a word is no date
    assert _described("The date of travel") == "date"
    assert _described("a date-time, ISO 8601") == "datetime"       # date and date-time: the later kind
    assert _described("出发城市") == "place"
    assert _described("the city and the date") is None              # two kinds: says nothing
    assert field_unit("growth", "interest rate in percent") == "percent_points"   # the first unit that says so
    assert field_unit("interest_rate", "") == field_unit("x", "the interest rate") == "percent_fraction"
    assert field_unit("x", "the separate fee") is None              # `rate` inside a word
    assert field_unit("年增长率", "") == "percent_fraction"          # a Chinese name by its ending


def test_a_policy_sent_to_another_process_hashes_as_that_process_computes_it():
    import os
    import subprocess
    import sys

    from scorer.temporal.policy import TemporalPolicy

    policy = TemporalPolicy.from_overrides({"week_start": "sunday"})
    check = ("import pickle, sys; from scorer.temporal.policy import TemporalPolicy; "
             "sent = pickle.loads(sys.stdin.buffer.read()); "
             "here = TemporalPolicy.from_overrides({'week_start': 'sunday'}); "
             "print(sent == here and hash(sent) == hash(here) and {here: 1}.get(sent) == 1)")
    for seed in ("1", "2"):   # string hashes differ between processes with other seeds
        run = subprocess.run([sys.executable, "-c", check], input=pickle.dumps(policy), capture_output=True,
                             env={**os.environ, "PYTHONHASHSEED": seed})
        assert run.stdout.decode().strip() == "True", run.stderr.decode()


def test_a_flag_added_to_a_canon_keeps_every_other_field():
    """Canon.flagged stands in for dataclasses.replace on a hot path: a field added to Canon and
    not passed on there would be lost silently on predicted values of undefined arguments."""
    values = {"key": "s:x", "interval": (1, 2, 3), "flags": FUZZY, "rule": "alias", "number": 1.5, "written": "x"}
    assert set(values) == {field.name for field in dataclasses.fields(Canon)}   # a new field needs a value here
    canon = Canon(**values)
    assert canon.flagged(UNKNOWN_PARAM) == dataclasses.replace(canon, flags=FUZZY | UNKNOWN_PARAM)


def test_values_equal_in_python_keep_their_own_readings_in_one_batch():
    """1, True, 1.0 and "1" are one dict key in Python; the encoder's value memo keeps them
    apart (a text keys itself, other values by their JSON): in a free-text
    parameter True reads as the text "true", the others as the number 1."""
    from helpers import call, verdicts_for

    gold = [{"id": "q1", "gold_calls": [call("get_weather", city="北京")]}]
    written = {"int": 1, "bool": True, "float": 1.0, "text": "1", "int-again": 1, "bool-again": True}
    predictions = [{"id": "q1", "model": model, "calls": [call("get_weather", city=value)]}
                   for model, value in written.items()]
    shown = {model: orjson.loads(row["normalized_pred"])[0]["arguments"]["city"]
             for (model, _id), row in verdicts_for(gold, predictions).items()}
    assert shown == {"int": "n:1", "bool": "s:true", "float": "n:1", "text": "n:1", "int-again": "n:1",
                     "bool-again": "s:true"}
