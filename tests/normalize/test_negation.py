"""Negation and antonyms (rules/negation.toml, scorer/normalize/negation.py): texts that differ
by a negator or an antonym are decided different; where the character negates nothing (非常,
无锡, 不丹, 未来) the pair is scored as before."""

import pytest
from helpers import string_verdict

from scorer.normalize.negation import OPPOSITE, SAME, negation_relation



@pytest.mark.parametrize("gold, predicted", [
    ("不加冰", "加冰"),
    ("不含税", "含税"),
    ("非会员价", "会员价"),
    ("有线鼠标", "无线鼠标"),
    ("今晚不加班", "今晚加班"),
    ("加冰", "去冰"),
    ("含税价", "无税价"),
    ("没有加糖", "加糖"),
    ("别放香菜", "放香菜"),
    ("请勿打扰模式", "请打扰模式"),
    ("周末未完成的工作", "周末完成的工作"),
    ("non-slip mat", "slip mat"),
    ("without ice", "with ice"),
    ("未付款", "已付款"),                     # 已 / 未
    ("没人在家放门口", "有人在家放门口"),         # 没 / 有
    ("unpaid", "paid"),                       # a negating prefix
    ("nonrefundable fare", "refundable fare"),
])
def test_a_negator_or_an_antonym_is_a_decided_incorrect_value(gold, predicted):
    v = string_verdict(gold, predicted)
    assert (v["outcome"], v["subtype"], v["decided"]) == ("param_error", "incorrect_value", True), v


def test_two_ways_of_saying_one_thing_are_equal():
    v = string_verdict("去冰", "不加冰")
    assert (v["outcome"], v["decided"]) == ("correct", True), v


# Where the character is part of another word the rule says nothing: these pairs are between
# the similarity bands (ratios 75-89), so they stay with a judge, as before the rule.
@pytest.mark.parametrize("gold, predicted", [
    ("非常好吃的蛋糕", "好吃的蛋糕"),
    ("无锡博物馆", "锡博物馆"),
    ("不丹大使馆", "丹大使馆"),
    ("未来科技馆", "科技馆"),
])
def test_words_where_the_character_negates_nothing_stay_as_before(gold, predicted):
    v = string_verdict(gold, predicted)
    assert v["decided"] is False, v


@pytest.mark.parametrize("a, b, relation", [
    ("不加冰", "加冰", OPPOSITE),
    ("加冰", "不加冰", OPPOSITE),            # either side may hold the negator
    ("无线耳机", "有线耳机", OPPOSITE),
    ("不要辣", "要辣", OPPOSITE),
    ("no ice", "ice", OPPOSITE),
    ("去冰", "不加冰", SAME),
    ("无糖", "不含糖", SAME),
    ("无糖", "不加糖", SAME),                # none of it = none added
    ("未付款", "已付款", OPPOSITE),           # not yet / already
    ("免费停车", "收费停车", OPPOSITE),
    ("不", "", None),                        # nothing in common
    ("不辣", "微辣", None),                   # 微 is no antonym of 不
    ("无锡", "锡", None),
    ("加拿大", "去拿大", None),
    ("不丹", "丹", None),
    ("别克汽车", "克汽车", None),              # a brand
    ("今天不加班", "明天加班", None),          # more than the negator differs
    ("unlimited data", "limited data", OPPOSITE),
    ("union station", "station", None),       # the rest of union is no word of the other side
    ("un café", "café", None),                # un is a prefix only inside a word
    ("unix", "ix", None),                     # the rest too short to be read as a word
])
def test_negation_relation(a, b, relation):
    assert negation_relation(a, b) == relation
