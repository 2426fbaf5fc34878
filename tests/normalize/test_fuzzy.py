"""The fuzzy-equality policy (scorer/normalize/fuzzy.py), through whole verdicts: identifiers
are never fuzzy, scripts that cannot be compared go to a judge, natural text keeps its bands."""

import json

import pytest
from helpers import call, verdicts_for

TOOL = {"name": "t", "parameters": {"type": "object", "properties": {
    "value": {"type": "string"}}}}


def _verdict(gold, predicted):
    rows = [{"id": "x", "gold_calls": [call("t", value=gold)], "tools": json.dumps([TOOL])}]
    return verdicts_for(rows, [{"id": "x", "calls": [call("t", value=predicted)]}])[("m", "x")]


# Each pair differs in one digit or code character; all are near-equal by ratio (>= 60),
# most above 90, so today's ratio bands call them equal or undecided.
@pytest.mark.parametrize("gold, predicted", [
    ("YT8837465521", "YT8837465522"),            # tracking number
    ("SF1234567890", "SF1234567891"),
    ("订单号20260304001", "订单号20260304002"),    # order number inside text
    ("CA1501", "CA1502"),                         # flight number
    ("G1025", "G1026"),                           # train number
    ("13800138000", "13800138001"),               # phone number
    ("192.168.1.10", "192.168.1.11"),             # IP
    ("192.168.1.1", "192.168.11"),                # a dot is not formatting
    ("user-4711", "user-4712"),                   # id
    ("北京朝阳区建国路88号", "北京朝阳区建国路89号"),  # street number in an address
    ("1600 Amphitheatre Parkway", "1601 Amphitheatre Parkway"),
    ("转账500元给张三", "转账600元给张三"),          # amount inside text
    ("YT8837465521", "YU8837465521"),             # a code letter
])
def test_identifiers_differ_on_any_digit_or_code_character(gold, predicted):
    v = _verdict(gold, predicted)
    assert (v["outcome"], v["subtype"], v["decided"]) == ("param_error", "incorrect_value", True), v


@pytest.mark.parametrize("gold, predicted", [
    ("ORD-2026-0304", "ORD20260304"),              # hyphens in a code are formatting
    ("北京朝阳区建国路88号", "北京朝阳区建国路88号院"),  # same street number, a typo-level difference
    ("Kowloon Tong Station", "Kowlon Tong Station"),  # a typo in natural text, same word count
])
def test_same_codes_and_typo_level_text_stay_equal(gold, predicted):
    v = _verdict(gold, predicted)
    assert (v["outcome"], v["decided"]) == ("correct", True), v


def test_a_number_written_on_one_side_only_goes_to_a_judge():
    v = _verdict("建国路88号", "建国路八十八号")
    assert v["decided"] is False, v
    assert "in words on one side, in digits on the other" in v["uncertain_reason"] and "similarity" not in v["detail"]


@pytest.mark.parametrize("gold, predicted", [("莫文蔚", "Karen Mok"), ("阿黛尔", "Adele"),
                                             ("Jay Chou", "周杰伦"), ("泰勒·斯威夫特", "Taylor Swift")])
def test_cross_script_names_without_an_alias_go_to_a_judge(gold, predicted):
    v = _verdict(gold, predicted)
    assert v["decided"] is False, v   # ratio 0 would have decided them different
    # the reason is the script, not a similarity band the pair is not in
    assert "Latin and Han script" in v["uncertain_reason"] and "Latin and Han script" in v["detail"], v
    assert "similarity" not in v["detail"]


def test_near_text_more_than_a_typo_apart_says_so():
    v = _verdict("Kowloon Tong Station", "Kowloon Tong Station A")   # ratio 95, a word added
    assert v["decided"] is False and "more than a typo apart" in v["uncertain_reason"], v


def test_cross_script_names_with_an_alias_are_equal():
    assert _verdict("北京", "Beijing")["outcome"] == "correct"   # rules/aliases/cities.tsv


def test_cross_script_with_different_numbers_still_differ():
    v = _verdict("3号线", "Line 4")
    assert (v["subtype"], v["decided"]) == ("incorrect_value", True)


def test_mixed_script_text_is_compared_by_ratio():
    v = _verdict("iPhone手机壳", "华为手机壳子套装")
    assert v["decided"] is True and v["outcome"] == "param_error"


def test_a_number_dropped_from_one_side_differs():
    v = _verdict("北京朝阳区建国路88号", "北京朝阳区建国路")
    assert (v["subtype"], v["decided"]) == ("incorrect_value", True)


def test_an_algebraic_coefficient_is_not_a_code():
    # same digits, same letters: `3x` is no identifier, so similarity decides (ratio 91, one word)
    assert _verdict("3x**2", "3*x**2")["outcome"] == "correct"
    assert _verdict("3x**2", "4*x**2")["subtype"] == "incorrect_value"


def test_texts_are_compared_as_written_not_as_their_alias():
    # `Berlin` is 柏林 by rules/aliases/cities.tsv; against `Berlin, Germany` both are Latin text,
    # and by ratio (57) below the low threshold: different, not a cross-script pair for a judge
    v = _verdict("Berlin, Germany", "Berlin")
    assert (v["subtype"], v["decided"]) == ("incorrect_value", True), v


def test_two_names_the_tables_know_apart_differ():
    # PEK is an airport (rules/aliases/airports.tsv), 北京 a city: cross-script, but both known
    v = _verdict("北京", "PEK")
    assert (v["subtype"], v["decided"]) == ("incorrect_value", True), v


@pytest.mark.parametrize("gold, predicted", [("John Smith", "Joan Smith"), ("James Plensa", "Jaume Plensa"),
                                             ("Mark Twain", "Mary Twain")])
def test_near_equal_short_names_go_to_a_judge(gold, predicted):
    assert _verdict(gold, predicted)["decided"] is False


@pytest.mark.parametrize("gold, predicted", [("house price", "house prices"), ("3x**2 + 2x", "3*x**2 + 2*x"),
                                             ("distance in kilometers", "distance in kilometres")])
def test_a_letter_added_dropped_or_swapped_is_a_typo(gold, predicted):
    v = _verdict(gold, predicted)
    assert (v["outcome"], v["decided"]) == ("correct", True), v
