"""Enum members named in another language or other words: linked by a table = that member,
another member = decided wrong, no member and no table = left to a judge (never decided wrong).
Expected values written from rules/enums/*.tsv and CLDR's language names by hand."""

import json

import pytest
from helpers import call, verdicts_for


def _verdict(enum, gold, predicted, name="t", parameter="choice"):
    tool = {"name": name, "parameters": {"type": "object", "properties": {parameter: {"type": "string", "enum": enum}}}}
    rows = [{"id": "x", "gold_calls": [call(name, **{parameter: gold})], "tools": json.dumps([tool])}]
    found = verdicts_for(rows, [{"id": "x", "calls": [call(name, **{parameter: predicted})]}])[("m", "x")]
    return found["outcome"], found["subtype"], found["decided"]


CABINS = ["economy", "premium_economy", "business", "first"]
CORRECT = ("correct", None, True)
WRONG = ("param_error", "incorrect_value", True)


@pytest.mark.parametrize("gold, predicted", [
    ("first", "头等舱"), ("business", "商务舱"), ("business", "公务舱"), ("economy", "经济舱"),
    ("premium_economy", "超级经济舱"), ("premium_economy", "Premium Economy"), ("first", "First Class"),
])
def test_a_cabin_named_in_chinese_or_in_words_is_the_member(gold, predicted):
    assert _verdict(CABINS, gold, predicted) == CORRECT


@pytest.mark.parametrize("gold, predicted", [("first", "商务舱"), ("economy", "头等舱"), ("business", "first")])
def test_a_word_for_another_member_is_decided_wrong(gold, predicted):
    assert _verdict(CABINS, gold, predicted) == WRONG


@pytest.mark.parametrize("predicted", ["头等", "豪华舱", "vip", "中文"])
def test_a_value_no_table_links_to_a_member_is_left_to_a_judge(predicted):
    assert _verdict(CABINS, "first", predicted)[2] is False


def test_a_word_of_two_tables_takes_the_member_the_enum_has():
    # `first` is an airline cabin (头等舱) and a train seat class (一等座); the enum says which
    seats = ["second", "first", "business"]
    assert _verdict(seats, "first", "一等座") == CORRECT
    assert _verdict(seats, "business", "商务座") == CORRECT
    assert _verdict(seats, "second", "一等座") == WRONG
    assert _verdict(["single", "double", "twin", "suite"], "twin", "双床房") == CORRECT
    assert _verdict(["single", "double", "twin", "suite"], "double", "双床房") == WRONG
    assert _verdict(["economy", "comfort", "luxury"], "comfort", "舒适型") == CORRECT


@pytest.mark.parametrize("gold, predicted", [("zh", "中文"), ("fr", "法语"), ("en", "English"), ("ja", "日语"),
                                             ("zh", "Chinese")])
def test_a_language_code_named_in_chinese_or_english_is_the_member(gold, predicted):
    assert _verdict(["zh", "en", "fr", "ja"], gold, predicted, parameter="language") == CORRECT


def test_a_language_named_as_another_member_is_wrong():
    assert _verdict(["zh", "en", "fr", "ja"], "fr", "德语", parameter="language")[2] is False   # no member: judge
    assert _verdict(["zh", "en", "fr", "ja"], "fr", "中文", parameter="language") == WRONG


def test_members_themselves_still_compare_by_case_and_decide_apart():
    assert _verdict(CABINS, "first", "FIRST") == CORRECT
    assert _verdict(CABINS, "first", "economy") == WRONG


def test_codes_the_global_tables_leave_out_are_read_in_an_enum():
    # fr is French and France, AMD the Armenian dram and an airport: left out of rules/aliases/,
    # read from rules/enums/ where the schema says the value is one of its members
    assert _verdict(["zh", "fr", "de"], "fr", "French", parameter="language") == CORRECT
    assert _verdict(["CNY", "AMD", "USD"], "AMD", "亚美尼亚德拉姆", parameter="currency") == CORRECT
    assert _verdict(["CNY", "AMD", "USD"], "AMD", "美元", parameter="currency") == WRONG


def test_an_empty_value_is_decided_wrong_not_left_to_a_judge():
    assert _verdict(CABINS, "first", "") == WRONG


def test_a_language_tag_is_its_language_where_one_member_has_it():
    tags = ["zh-CN", "en-US", "ja-JP"]
    assert _verdict(tags, "zh-CN", "中文", parameter="language") == CORRECT
    assert _verdict(tags, "zh-CN", "zh", parameter="language") == CORRECT
    assert _verdict(tags, "ja-JP", "英语", parameter="language") == WRONG
    # two members of one language: 中文 names neither of them
    assert _verdict(["zh-CN", "zh-TW", "en-US"], "zh-TW", "中文", parameter="language")[2] is False
    assert _verdict(["zh-CN", "zh-TW", "en-US"], "zh-TW", "zh-CN", parameter="language") == WRONG


@pytest.mark.parametrize("enum, gold, predicted, expected", [
    (["zh", "en", "ko", "ja"], "ko", "韩文", CORRECT),      # 韩文 is the written 韩语
    (["zh", "en", "ko", "ja"], "ja", "日文", CORRECT),
    (["zh", "en", "ko", "ja"], "zh", "英文", WRONG),        # 英文 is en
])
def test_a_written_language_x_wen_is_the_language_x_yu(enum, gold, predicted, expected):
    assert _verdict(enum, gold, predicted, parameter="language") == expected


@pytest.mark.parametrize("enum, gold, predicted, expected", [
    (["sedan", "suv", "mpv"], "sedan", "轿车", CORRECT),
    (["sedan", "suv", "mpv"], "mpv", "轿车", WRONG),
    (["asc", "desc"], "desc", "降序", CORRECT),
    (["asc", "desc"], "asc", "从大到小", WRONG),
    (["celsius", "fahrenheit"], "celsius", "摄氏度", CORRECT),
    (["celsius", "fahrenheit"], "celsius", "华氏度", WRONG),
    (["metric", "imperial"], "metric", "公制", CORRECT),
])
def test_car_classes_sort_orders_and_measures_named_in_chinese(enum, gold, predicted, expected):
    assert _verdict(enum, gold, predicted) == expected


@pytest.mark.parametrize("enum, gold, predicted, verdict", [
    (["male", "female"], "female", "女", CORRECT),                                  # rules/enums/gender.tsv
    (["male", "female"], "female", "男性", WRONG),
    (["low", "medium", "high"], "high", "高优先级", CORRECT),                       # priority.tsv
    (["low", "medium", "high"], "low", "高", WRONG),
    (["driving", "walking", "transit", "cycling"], "transit", "公交", CORRECT),     # travel_mode.tsv
    (["driving", "walking", "transit", "cycling"], "cycling", "骑车", CORRECT),     # the member is a word of the row
    (["driving", "walking", "transit", "cycling"], "walking", "开车", WRONG),
    (["asc", "desc"], "desc", "从高到低", CORRECT),                                 # order.tsv
    (["asc", "desc"], "asc", "由高到低", WRONG),
])
def test_gender_priority_travel_mode_and_sort_words_are_their_members(enum, gold, predicted, verdict):
    assert _verdict(enum, gold, predicted) == verdict


def test_a_word_of_a_class_table_for_an_enum_without_that_class_is_left_to_a_judge():
    assert _verdict(["urgent", "normal"], "urgent", "高")[2] is False   # 高 is `high`, which the enum lacks
