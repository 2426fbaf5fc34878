"""Identifiers by the parameter's kind (rules/param_kinds.toml `identifiers`,
scorer/normalize/identifiers.py): equal when their letters and digits are, never fuzzy."""

import json

import pytest
from helpers import call, string_verdict, verdicts_for

from scorer.normalize.identifiers import identifier_key
from scorer.schema import identifier_kind, parse_tools


@pytest.mark.parametrize("name, description, kind", [
    ("phone", "", "phone"),
    ("phone_number", "", "phone"),
    ("mobileNumber", "", "phone"),
    ("联系电话", "", "phone"),
    ("target", "对方的手机号码", "phone"),            # the description alone
    ("id_card_number", "", "code"),
    ("身份证号", "", "code"),
    ("flight_no", "", "code"),
    ("车次", "", "code"),
    ("order_id", "", "code"),
    ("postcode", "", "code"),
    ("zip_code", "", "code"),
    ("phone_brand", "", None),                      # the head word is brand
    ("number_of_phones", "", None),                 # a count: the head word is number, nothing before it
    ("user_id", "", None),                          # no qualifier
    ("country_code", "", None),
    ("license_plate", "", "code"),
    ("verification_code", "", "code"),
    ("target", "短信验证码", "code"),
    ("python_version", "", "version"),
    ("new_password", "", "secret"),
    ("支付密码", "", "secret"),
    ("city", "", None),
])
def test_identifier_kind_from_description_then_name(name, description, kind):
    assert identifier_kind(name, description) == kind


def test_a_declared_float_is_no_identifier():
    tools = parse_tools(json.dumps([{"name": "t", "parameters": {"type": "object", "properties": {
        "phone": {"type": "number"}, "order_id": {"type": "integer"}, "postcode": {"type": "string"}}}}]))
    assert (tools["t"].params["phone"].identifier, tools["t"].params["order_id"].identifier,
            tools["t"].params["postcode"].identifier) == (None, "code", "code")


@pytest.mark.parametrize("value, kind, key", [
    ("150-1111-2222", "phone", "15011112222"),
    ("+86 150 1111 2222", "phone", "15011112222"),
    ("0086 15011112222", "phone", "15011112222"),
    ("8615011112222", "phone", "15011112222"),
    (15011112222, "phone", "15011112222"),
    ("+1 415 555 0100", "phone", "4155550100"),      # a North American number: its code too
    ("001 415 555 0100", "phone", "4155550100"),
    ("1 415 555 0100", "phone", "14155550100"),      # a bare 1 is no code
    ("+852 9123 4567", "phone", "91234567"),         # a Hong Kong mobile
    ("京A·12345", "code", "京a12345"),                # a plate: its province and a middle dot
    ("3.10", "version", "3.10"),                      # a version keeps its dots
    ("abc-123", "secret", "abc-123"),                 # a secret is as written
    ("Abc 123", "secret", "Abc 123"),
    ("(010) 6528-1234", "phone", "01065281234"),
    ("(+86) 135 1234 5678", "phone", "13512345678"),   # the country code in brackets
    ("1+1", "code", None),                            # a sign inside is no formatting
    ("+8615011112222", "code", "8615011112222"),     # the country code is a phone's rule only
    ("CA 1234", "code", "ca1234"),
    ("110105 19491231 002X", "code", "11010519491231002x"),
    ("最近的订单", "code", None),                     # not shaped like an identifier
    ("ORDER", "code", None),                          # no digit
    ("1200.50", "code", None),                        # a dot is no formatting
    (True, "code", None),
    (12345.0, "code", "12345"),                       # an integral float, as numbers compare
    (12345.5, "code", None),
])
def test_identifier_key(value, kind, key):
    assert identifier_key(value, kind) == key


@pytest.mark.parametrize("param, spec, gold, predicted", [
    ("phone", {}, "15011112222", "150-1111-2222"),
    ("phone", {}, "15011112222", "150 1111 2222"),
    ("phone", {}, "15011112222", "+86 150 1111 2222"),
    ("phone", {}, 15011112222, "0086-150-1111-2222"),
    ("target", {"description": "对方的手机号码"}, "13912345678", "139 1234 5678"),
    ("id_card_number", {}, "11010519491231002X", "110105-19491231-002x"),
    ("card_number", {}, "6222021234567890", "6222 0212 3456 7890"),
    ("postcode", {}, "100080", "100 080"),
    ("flight_number", {}, "CA1234", "CA 1234"),
    ("train_no", {}, "G7", "G 7"),
    ("order_id", {}, "ORD-2026-0304-17", "ORD2026030417"),
    ("contact", {"description": "Customer phone number"}, "4155550132", "+1 415 555 0132"),
    ("license_plate", {}, "京A12345", "京A·12345"),
    ("verification_code", {}, "482913", "482 913"),
])
def test_identifiers_equal_by_letters_and_digits(param, spec, gold, predicted):
    v = string_verdict(gold, predicted, param, **spec)
    assert (v["outcome"], v["decided"], v["rule"]) == ("correct", True, "identifier"), v


@pytest.mark.parametrize("param, gold, predicted", [
    ("phone", "15011112222", "150-1111-2223"),
    ("phone", "15011112222", "+86 150 1111 2223"),
    ("phone", "15011112222", "+1 150 1111 2222"),     # another country code is another number
    ("flight_number", "CA1234", "MU 1234"),
    ("train_no", "G7", "D 7"),                        # alike as texts, another train
    ("train_no", "G7", "G71"),
    ("order_id", "A-1029-3384", "A 1029 3385"),
    ("python_version", "3.10", "3.1"),               # equal as numbers, another version
    ("new_password", "abc-123", "abc123"),           # a hyphen is a character of a password
    ("new_password", "Abc123", "abc123"),
])
def test_a_different_letter_or_digit_stays_a_decided_incorrect_value(param, gold, predicted):
    v = string_verdict(gold, predicted, param)
    assert (v["outcome"], v["subtype"], v["decided"]) == ("param_error", "incorrect_value", True), v


def test_an_identifier_against_a_text_is_compared_as_texts_are():
    v = string_verdict("CA1234", "国航CA1234", "flight_number")
    assert (v["outcome"], v["decided"]) == ("correct", False), v


def test_an_integer_identifier_meets_its_float_and_its_text():
    tool = {"name": "t", "parameters": {"type": "object", "properties": {"order_id": {"type": "integer"}}}}
    rows = [{"id": "x", "gold_calls": [call("t", order_id=12345)], "tools": json.dumps([tool])},
            {"id": "y", "gold_calls": [call("t", order_id=12345)], "tools": json.dumps([tool])}]
    found = verdicts_for(rows, [{"id": "x", "calls": [call("t", order_id=12345.0)]},
                                {"id": "y", "calls": [call("t", order_id="12345")]}])
    assert [(found[("m", key)]["outcome"], found[("m", key)]["decided"]) for key in "xy"] == [("correct", True)] * 2


def test_undeclared_parameter_is_an_identifier_by_its_name():
    rows = [{"id": "x", "gold_calls": [call("notify", phone="15011112222")], "tools": None}]
    v = verdicts_for(rows, [{"id": "x", "calls": [call("notify", phone="+86 150-1111-2222")]}])[("m", "x")]
    assert (v["outcome"], v["decided"]) == ("correct", True), v


def test_identifiers_are_never_fuzzy_whatever_the_bands():
    """G7 / D7 are 50 alike: below the default lower band, but two identifiers differ by rule,
    not by a score, so a lower band does not send them to a judge."""
    v = string_verdict("G7", "D7", "train_no", options={"fuzzy_low": 40.0})
    assert (v["subtype"], v["decided"]) == ("incorrect_value", True), v
