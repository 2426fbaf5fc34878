"""Place-typed parameters compare Chinese administrative names through the gazetteer table."""

import json

import pytest
from helpers import call, verdicts_for


def _verdict(name, spec, gold, predicted):
    tool = {"name": "t", "parameters": {"type": "object", "properties": {name: spec}}}
    rows = [{"id": "x", "gold_calls": [call("t", **{name: gold})], "tools": json.dumps([tool])}]
    return verdicts_for(rows, [{"id": "x", "calls": [call("t", **{name: predicted})]}])[("m", "x")]


STRING = {"type": "string"}


@pytest.mark.parametrize("name, spec, gold, predicted", [
    ("city", STRING, "洛阳", "洛阳市"),
    ("city", STRING, "洛阳", "Luoyang"),
    ("city", STRING, "洛阳市", "Luòyáng"),
    ("province", STRING, "河南", "河南省"),
    ("province", STRING, "河南省", "Henan Province"),
    ("departure_city", STRING, "昆山", "昆山市"),
    ("location", STRING, "洛阳市西工区", "洛阳西工区"),
    ("destination", STRING, "广西", "广西壮族自治区"),
    ("to", {"type": "string", "description": "目的地城市"}, "西安", "Xi'an"),
    ("origin", STRING, "北京", "北京市"),
    ("province", STRING, "内蒙古", "Inner Mongolia"),     # official English names that are not pinyin
    ("province", STRING, "陕西省", "Shaanxi"),
    ("region", STRING, "西藏自治区", "Tibet Autonomous Region"),
])
def test_place_names_with_or_without_suffix_and_in_pinyin(name, spec, gold, predicted):
    v = _verdict(name, spec, gold, predicted)
    assert (v["outcome"], v["decided"]) == ("correct", True), v


@pytest.mark.parametrize("gold, predicted", [
    ("张家口", "张家界"), ("苏州", "宿州"), ("洛阳市西工区", "洛阳市老城区"), ("洛阳", "洛阳市西工区"),
])
def test_two_known_places_differ_however_alike(gold, predicted):
    v = _verdict("city", STRING, gold, predicted)
    assert (v["outcome"], v["subtype"], v["decided"]) == ("param_error", "incorrect_value", True), v


def test_a_station_is_not_its_city_nor_decided_equal():
    city = _verdict("city", STRING, "南昌", "南昌市")   # the place rule is at work on this parameter
    assert (city["outcome"], city["decided"]) == ("correct", True), city
    v = _verdict("city", STRING, "南昌", "南昌站")
    assert not (v["outcome"] == "correct" and v["decided"]), v


def test_not_a_place_parameter_keeps_text_rules():
    v = _verdict("title", STRING, "河南", "河南省")   # a title: not compared as a place, so a judge decides
    assert v["decided"] is False, v
