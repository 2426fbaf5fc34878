"""Amounts and quantities inside free text (scorer/normalize/units.py: text_quantity): a text
that is a number and a currency or unit is keyed as one, before the time search; a decimal
number before a currency or unit is never read as a date."""

import datetime as dt

import pytest
from helpers import string_verdict

from scorer import temporal
from scorer.normalize.text import fold_text
from scorer.normalize.units import fold_amounts, text_quantity

REFERENCE = dt.datetime(2026, 3, 4, 10, tzinfo=dt.timezone(dt.timedelta(hours=8)))


@pytest.mark.parametrize("text, key", [
    ("1200.50 HKD", "1200.5 港币"),
    ("HKD 1200.5", "1200.5 港币"),             # the code before the number
    ("1200.5港币", "1200.5 港币"),
    ("1,200.50 HKD", "1200.5 港币"),
    ("300 AUD", "300 澳元"),
    ("300 CAD", "300 加元"),
    ("500块", "500 人民币"),                   # the yuan section of units.toml holds 元: the currency
    ("一百块", "100 人民币"),
    ("5 km", "5 kilometre"),
    ("26°C", "26 celsius"),
    ("2500 g", "2.5 kilogram"),                # a unit another one scales: its text_unit
    ("300毫克", "0.0003 kilogram"),             # 毫克 is not 克
    ("1500 ml", "1.5 litre"),
    ("1.5升", "1.5 litre"),
    ("80公里/小时", "80 kilometre_per_hour"),
    ("百分之五十", "50 percent_points"),
    ("¥500", None),                            # the yen's sign too: no currency in a free text
    ("HKD", None),
    ("G7", None),
    ("北京", None),
])
def test_text_quantity(text, key):
    assert text_quantity(fold_text(text)) == key


@pytest.mark.parametrize("gold, predicted", [
    ("1200.50 HKD", "1200.5 HKD"),
    ("1200.50 HKD", "1200.5港币"),
    ("300 AUD", "300澳元"),
    ("500元", "500块"),
    ("5公里", "5 km"),
    ("2.5 kg", "2500 g"),
    ("1.5 L", "1500 ml"),
    ("1.5 L", "1.5升"),
    ("80 km/h", "80公里/小时"),
    ("报销1200.5港币", "报销1200.50港币"),       # inside a sentence: the trailing zero of an amount
])
def test_one_amount_written_two_ways_is_equal(gold, predicted):
    v = string_verdict(gold, predicted)
    assert (v["outcome"], v["decided"]) == ("correct", True), v


@pytest.mark.parametrize("gold, predicted", [
    ("300 AUD", "300 CAD"),                   # alike as texts: left to a judge before
    ("100 USD", "100 EUR"),
    ("1200.50 HKD", "1200.60 HKD"),
    ("5公里", "6 km"),
    ("2.5 kg", "250 g"),
    ("1.5 L", "150 ml"),
])
def test_another_number_or_unit_is_a_decided_incorrect_value(gold, predicted):
    v = string_verdict(gold, predicted)
    assert (v["outcome"], v["subtype"], v["decided"]) == ("param_error", "incorrect_value", True), v


def test_a_decimal_amount_is_never_a_date():
    assert temporal.mark_in_text("1200.5 HKD", REFERENCE) is None
    assert temporal.mark_in_text("报销1200.5港币", REFERENCE) is None
    assert temporal.mark_in_text("2026.3.5开会", REFERENCE) is not None   # a date with dots stays one


def test_a_chinese_decimal_before_a_unit_is_never_a_clock_time():
    # 三点五 alone is a clock time (3:25 to the grammar); before 公里, 元 or 度 it is 3.5 of them
    for text in ("今天跑了三点五公里", "三点五元一斤", "室温三点五度", "3点5公里"):
        assert temporal.find_in_text(text, REFERENCE) is None or temporal.find_in_text(text, REFERENCE).rule != "zh.clock", text
    assert temporal.find_in_text("三点五分开会", REFERENCE).rule == "zh.clock"   # 分 after it: minutes
    assert temporal.find_in_text("三点五十分开会", REFERENCE).rule == "zh.clock"
    v = string_verdict("1200.5 HKD", "1200.5 HKD")
    assert "<" not in v["normalized_pred"], v


def test_fold_amounts_only_before_a_unit():
    assert fold_amounts("报销1200.50港币") == "报销1200.5港币"
    assert fold_amounts("1200.0 hkd") == "1200 hkd"
    assert fold_amounts("版本1.10") == "版本1.10"       # a version, not an amount
    assert fold_amounts("1200.05港币") == "1200.05港币"


@pytest.mark.parametrize("gold, predicted, outcome, decided", [
    ("$50", "50美元", "correct", False),          # $ is the US dollar's sign, and six others': a judge
    ("¥200", "200元", "correct", False),          # ¥ is the yuan's and the yen's
    ("50 dollars", "50 USD", "correct", False),
    ("$50", "60美元", "param_error", True),       # another number
    ("$50", "50欧元", "param_error", True),       # a currency $ never names
    ("$50", "$50.00", "correct", True),           # one sign, one number
    ("$50", "$60", "param_error", True),
])
def test_an_amount_with_a_sign_several_currencies_share(gold, predicted, outcome, decided):
    v = string_verdict(gold, predicted, param="amount")
    assert (v["outcome"], v["decided"]) == (outcome, decided), v


@pytest.mark.parametrize("gold, predicted, outcome", [
    ("5公里", "5000米", "correct"),        # metres, centimetres and millimetres keyed in kilometres
    ("1米", "100厘米", "correct"),
    ("30cm", "300mm", "correct"),
    ("5米", "5厘米", "param_error"),       # 厘米 is read whole, never as 米
    ("1.5小时", "90分钟", "correct"),      # durations keyed in seconds
    ("2 hours", "120 min", "correct"),
    ("90秒", "1.5分钟", "correct"),
    ("2小时", "3小时", "param_error"),
])
def test_lengths_and_durations_in_two_units_are_one_quantity(gold, predicted, outcome):
    v = string_verdict(gold, predicted, param="amount")
    assert (v["outcome"], v["decided"]) == (outcome, True), v
