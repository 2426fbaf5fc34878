"""A parameter's kind: the schema first, then its description, then its name's head word.
Every name-pattern rule is tried on names that hold its word in another meaning."""

import json

import pytest
from helpers import call, verdicts_for

from scorer.schema import infer_kind, name_kind, param_for, parse_tools, range_role


def _tools(**properties):
    return parse_tools([{"name": "t", "parameters": {"type": "object", "properties": properties}}])


@pytest.mark.parametrize("name, kind", [
    # the word in its temporal meaning
    ("date", "date"), ("start_date", "date"), ("dateOfBirth", "date"), ("date_of_birth", "date"),
    ("deadline", "date"), ("departure_time", "datetime"), ("startTime", "datetime"), ("timestamp", "datetime"),
    ("date_range", "date"), ("time-window", "datetime"), ("出发时间", "datetime"), ("入住日期", "date"),
    # the same words in another meaning
    ("departure_city", "text"), ("arrivalCity", "text"), ("arrival_airport", "text"), ("start_location", "text"),
    ("end_point", "text"), ("endpoint", "text"), ("date_format", "text"), ("time_zone", "text"),
    ("timezone", "text"), ("time_limit_seconds", "text"), ("days", "text"), ("day_count", "text"),
    ("update_mode", "text"), ("birthday_message", "text"), ("出发城市", "text"), ("start_index", "text"),
])
def test_kind_from_the_head_word_of_a_name(name, kind):
    assert infer_kind(name, "南昌") == kind


@pytest.mark.parametrize("name, value, kind", [
    ("departure", "明天上午9点", "datetime"), ("start", "2026-03-05 10:00", "datetime"), ("end", "下周五", "datetime"),
    ("departure", "南昌", "text"), ("arrival", "Shanghai Hongqiao", "text"), ("start", "北京", "text"),
])
def test_a_bare_ambiguous_word_is_a_time_only_with_a_time_like_value(name, value, kind):
    assert infer_kind(name, value) == kind


@pytest.mark.parametrize("name, place", [
    ("city", True), ("departure_city", True), ("originCity", True), ("destination", True), ("province", True),
    ("出发城市", True), ("location", True),
    ("city_code", False), ("location_id", False), ("origin_currency", False), ("destination_type", False),
    ("province_count", False), ("placeholder", False),
])
def test_place_from_the_head_word_of_a_name(name, place):
    assert (name_kind(name) == "place") is place


def test_a_declared_string_is_not_a_date_because_of_its_name():
    tools = _tools(departure_city={"type": "string"}, arrival_city={"type": "string"})
    for name in ("departure_city", "arrival_city"):
        param, _known = param_for(tools, "t", name, "南昌")
        assert (param.kind, param.place) == ("text", True)


def test_the_description_is_read_before_the_name():
    tools = _tools(departure={"type": "string", "description": "出发城市"},
                   start={"type": "string", "description": "The starting location of the trip"},
                   when={"type": "string", "description": "出发日期"},
                   note={"type": "string", "description": "Reminder text; may mention a date and a city"})
    assert param_for(tools, "t", "departure", "明天")[0].kind == "text"     # the name alone said a time
    assert param_for(tools, "t", "start", "10 Downing St")[0].place
    assert param_for(tools, "t", "when", "明天")[0].kind == "date"          # the name alone said nothing
    assert param_for(tools, "t", "note", "明天")[0].kind == "text"          # the description names both


@pytest.mark.parametrize("name, role", [
    ("start_date", "start"), ("end_time", "end"), ("from", "start"), ("until", "end"), ("to_date", "end"),
    ("endDate", "end"),
    ("end_city", None), ("start_location", None), ("from_station", None), ("to_city", None),
    ("from_currency", None), ("end_point", None),
])
def test_range_role_only_for_times(name, role):
    assert range_role(name) == role


def test_station_against_city_in_a_departure_city_is_not_temporal():
    tool = {"name": "t", "parameters": {"type": "object", "properties": {"departure_city": {"type": "string"}}}}
    rows = [{"id": "x", "gold_calls": [call("t", departure_city="南昌")], "tools": json.dumps([tool])}]
    v = verdicts_for(rows, [{"id": "x", "calls": [call("t", departure_city="南昌站")]}])[("m", "x")]
    assert not v["rule"].startswith("temporal"), v
    assert (v["subtype"], v["decided"]) == ("incorrect_value", True)   # a city is never its station


def test_a_declared_string_stays_a_string_whatever_its_gold_value():
    tools = _tools(code={"type": "string"}, level={"type": "string", "description": "等级"})
    assert param_for(tools, "t", "code", 42)[0].kind == "text"
    assert param_for(tools, "t", "level", 3)[0].kind == "text"
    assert param_for(tools, "t", "code", "2026-03-05")[0].kind == "date"   # an ISO date in a bare string
