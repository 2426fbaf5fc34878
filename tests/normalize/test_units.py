"""Numbers with their units in a numeric parameter compare by quantity, where the field says
its unit; a unit the field does not name, or a wrong magnitude, stays wrong."""

import json

import pytest
from helpers import call, verdicts_for

from scorer.rules import read_toml
from scorer.normalize.text import fold_text


def _verdict(name, spec, gold, predicted):
    tool = {"name": "t", "parameters": {"type": "object", "properties": {name: spec}}}
    rows = [{"id": "x", "gold_calls": [call("t", **{name: gold})], "tools": json.dumps([tool])}]
    return verdicts_for(rows, [{"id": "x", "calls": [call("t", **{name: predicted})]}])[("m", "x")]


NUMBER = {"type": "number"}


@pytest.mark.parametrize("name, description, gold, predicted", [
    ("interest_rate", "年利率", 0.0175, "1.75%"),
    ("rate", "The annual interest rate", 0.0175, "1.75%"),
    ("growth", "增长率，小数", 0.05, "百分之五"),
    ("discount_percent", "", 15, "15%"),                         # percent points by the name
    ("rate", "Interest rate in percent", 1.75, "1.75%"),          # percent points by the description
    ("temperature", "", 26, "26℃"),
    ("target", "目标温度", 26, "26度"),
    ("target", "Target temperature", 26, "26°C"),
    ("distance_km", "", 3, "3公里"),
    ("distance", "距离（公里）", 3, "3km"),
    ("weight_kg", "重量（公斤）", 2.5, "2.5kg"),
    ("budget", "预算（元）", 15000, "1.5万元"),
    ("amount", "", 15000, "1.5万"),
])
def test_a_number_with_its_unit_is_the_quantity(name, description, gold, predicted):
    v = _verdict(name, {**NUMBER, "description": description}, gold, predicted)
    assert (v["outcome"], v["decided"]) == ("correct", True), v


@pytest.mark.parametrize("name, description, gold, predicted", [
    ("interest_rate", "年利率", 0.0175, "1.75"),       # a wrong magnitude stays wrong
    ("interest_rate", "年利率", 1.75, "1.75%"),
    ("rate", "Interest rate in percent", 0.0175, "1.75%"),
    ("distance_km", "", 3, "3米"),                    # not the field's unit
    ("distance_km", "", 3, "3000米"),
    ("temperature", "", 26, "26°F"),
    ("weight_kg", "", 2.5, "2.5斤"),
    ("budget", "预算（元）", 15000, "1.5千元"),
    ("count", "", 3, "3%"),                           # the field names no unit
])
def test_a_wrong_unit_or_magnitude_stays_wrong(name, description, gold, predicted):
    v = _verdict(name, {**NUMBER, "description": description}, gold, predicted)
    assert (v["outcome"], v["subtype"], v["decided"]) == ("param_error", "incorrect_value", True), v


def test_unit_symbols_are_written_folded():
    """quantity() compares symbols with the folded value: a symbol folding would change is dead."""
    for unit, spec in read_toml("units.toml").items():
        for symbol in spec["symbols"] + spec["prefixes"]:
            assert fold_text(symbol) == symbol, (unit, symbol)


@pytest.mark.parametrize("name, description, unit", [
    ("interest_rate", "", "percent_fraction"), ("discount_percent", "", "percent_points"),
    ("max_temperature", "", "celsius"), ("distance_km", "", "kilometre"), ("weight_kg", "", "kilogram"),
    ("fee", "运费（元）", "yuan"), ("目标温度", "", "celsius"),
    # the same words in another meaning
    ("rate_limit", "requests per second", None), ("temp_dir_count", "", None), ("km_marker_id", "", None),
    ("percentile", "", None), ("temperature_unit_code", "", None), ("ratio_id", "", None),
])
def test_a_field_unit_from_the_head_word_or_the_description(name, description, unit):
    from scorer.schema import field_unit
    assert field_unit(name, description) == unit
