"""Names in two scripts: linked by a generated table (CLDR's country, city, language and currency
names, airportsdata's airports) = equal, linked to another thing = decided different, linked by
nothing (brands, people) = left to a judge. Expected values written from the CLDR names by hand."""

import json

import pytest
from helpers import call, verdicts_for


def _verdict(parameter, gold, predicted):
    tool = {"name": "t", "parameters": {"type": "object", "properties": {parameter: {"type": "string"}}}}
    rows = [{"id": "x", "gold_calls": [call("t", **{parameter: gold})], "tools": json.dumps([tool])}]
    found = verdicts_for(rows, [{"id": "x", "calls": [call("t", **{parameter: predicted})]}])[("m", "x")]
    return found["subtype"], found["decided"]


@pytest.mark.parametrize("parameter, gold, predicted", [
    ("country", "日本", "Japan"), ("country", "德国", "Germany"), ("country", "美国", "United States"),
    ("city", "东京", "Tokyo"), ("city", "纽约", "New York"), ("city", "巴黎", "Paris"),
    ("language", "法语", "French"), ("language", "西班牙语", "Spanish"),
    ("currency", "瑞士法郎", "Swiss Franc"), ("currency", "泰铢", "THB"),
    ("airport", "NRT", "Narita International Airport"),
    ("region", "非洲", "Africa"), ("region", "东南亚", "Southeast Asia"),   # UN M.49 regions by name
])
def test_a_name_and_its_other_script_linked_by_a_table_are_equal(parameter, gold, predicted):
    assert _verdict(parameter, gold, predicted) == (None, True)


@pytest.mark.parametrize("parameter, gold, predicted", [
    ("country", "德国", "France"), ("country", "韩国", "Japan"), ("city", "巴黎", "London"),
    ("city", "纽约", "Los Angeles"), ("language", "法语", "German"), ("currency", "泰铢", "Swiss Franc"),
    ("airport", "HND", "Narita International Airport"),
    ("region", "欧洲", "Asia"), ("region", "北美洲", "South America"),
])
def test_a_latin_name_linked_to_another_han_name_is_decided_different(parameter, gold, predicted):
    assert _verdict(parameter, gold, predicted) == ("incorrect_value", True)


@pytest.mark.parametrize("parameter, gold, predicted", [
    ("brand", "小米", "Oppo"), ("brand", "华为", "Huawei"), ("artist", "周杰伦", "Jay Chou"),
    ("country", "日本国", "Japan"),   # 日本国 is no name the tables list
])
def test_names_no_table_links_stay_with_the_judge(parameter, gold, predicted):
    assert _verdict(parameter, gold, predicted)[1] is False


@pytest.mark.parametrize("gold, predicted", [("英国", "UK"), ("美国", "USA"), ("中国", "CHN"), ("德国", "DE")])
def test_a_code_two_things_share_is_never_decided_against_a_name(gold, predicted):
    # UK is the United Kingdom and Ukrainian's code, USA a country and an airport: no table links them
    assert _verdict("country", gold, predicted)[1] is False


def test_a_country_code_no_other_thing_has_is_the_country():
    assert _verdict("country", "日本", "JPN") == (None, True)
    assert _verdict("country", "中国", "CN") == (None, True)
