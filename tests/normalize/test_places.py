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


@pytest.mark.parametrize("name, gold, predicted", [
    ("location", "杭州东站", "杭州站"),           # two stations of one city: 东 and no name
    ("location", "南京南站", "南京站"),
    ("departure_station", "成都东站", "成都南站"),  # any parameter: both end as stations
    ("location", "成都东", "成都南"),              # railway shorthand, in a place-typed parameter
    ("location", "上海虹桥机场", "上海浦东机场"),   # two airports of one city
    ("airport", "上海虹桥站", "上海虹桥机场"),      # a station and an airport of one name
    ("location", "上海虹桥", "上海浦东"),
    ("destination", "上海徐汇", "上海浦东"),        # two districts written without suffix
    ("note", "杭州", "杭州东站"),                   # a city is never its station
    ("location", "杭州东站", "南京东站"),           # stations of two cities
])
def test_places_of_one_city_that_are_different_places_are_decided(name, gold, predicted):
    v = _verdict(name, STRING, gold, predicted)
    assert (v["subtype"], v["decided"]) == ("incorrect_value", True), v


@pytest.mark.parametrize("name, gold, predicted", [
    ("location", "上海浦东", "上海浦东新区"),       # one name with and without its level suffix
    ("location", "上海迪士尼", "上海迪斯尼"),       # names sharing characters may be one place
    ("location", "东方明珠", "上海东方明珠"),       # 东方 is a city of Hainan, and a word
    ("note", "上海徐汇", "上海徐家汇"),
])
def test_places_the_rules_cannot_tell_apart_are_not_decided_different(name, gold, predicted):
    v = _verdict(name, STRING, gold, predicted)
    assert not v["decided"], v


@pytest.mark.parametrize("gold, predicted", [
    ("北京南站附近的酒店", "北京站附近的酒店"),     # one added character, but another station
    ("去上海虹桥机场", "去上海浦东机场"),           # words shared before the places
    ("广州南站到深圳北站", "广州南站到深圳站"),     # the second place differs
])
def test_different_stations_inside_a_free_text_are_decided(gold, predicted):
    v = _verdict("query", STRING, gold, predicted)
    assert (v["subtype"], v["decided"]) == ("incorrect_value", True), v


@pytest.mark.parametrize("gold, predicted", [
    ("北京站附近的酒店", "北京火车站附近的酒店"),   # one station, two ways to write it
    ("北京西站附近美食", "北京西站附近的美食"),     # the same station, the rest reworded
])
def test_one_station_inside_a_free_text_is_not_decided_different(gold, predicted):
    v = _verdict("query", STRING, gold, predicted)
    assert v["subtype"] != "incorrect_value", v


@pytest.mark.parametrize("name, gold, predicted", [
    ("to_station", "上海虹桥站", "上海虹桥火车站"),        # one station, two endings of its kind
    ("pickup", "深圳宝安国际机场", "深圳宝安机场"),        # one airport
    ("station", "广州白云机场", "广州白云国际机场"),
    ("district", "海淀区", "海淀"),                        # a district with and without its suffix
    ("district", "浦东新区", "浦东"),
])
def test_one_place_named_two_ways_is_equal(name, gold, predicted):
    v = _verdict(name, STRING, gold, predicted)
    assert (v["outcome"], v["decided"]) == ("correct", True), v


def test_a_bare_name_that_is_a_division_of_its_own_is_not_its_district():
    from scorer.normalize.places import same_place

    assert not same_place("朝阳", "朝阳区")    # 朝阳 is a city of Liaoning, 朝阳区 a district of Beijing
    assert not same_place("北京南站", "北京站")


def test_one_city_with_or_without_suffix_before_a_station():
    from scorer.normalize.places import place_parts

    assert place_parts("洛阳市西工区") == ("洛阳市西工区", "", "division")
    assert place_parts("北京南火车站") == place_parts("北京市南站") == ("北京", "南", "station")
    assert place_parts("上海浦东国际机场") == ("上海", "浦东", "airport")
    assert place_parts("上海浦东新区机场") == ("上海", "浦东", "airport")   # the name without 新区
    assert place_parts("beijing south") is None
