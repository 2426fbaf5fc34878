"""Near-miss names (rules/param_kinds.toml `person`, scorer/normalize/fuzzy.py): two people's
names one edit apart go to a judge, neither equal by the typo rule nor different by a score."""

import json

import pytest
from helpers import call, verdicts_for

from scorer.schema import names_person


def _verdict(param, gold, predicted, description=None):
    spec = {"type": "string", **({"description": description} if description else {})}
    tool = {"name": "t", "parameters": {"type": "object", "properties": {param: spec}}}
    rows = [{"id": "x", "gold_calls": [call("t", **{param: gold})], "tools": json.dumps([tool])}]
    return verdicts_for(rows, [{"id": "x", "calls": [call("t", **{param: predicted})]}])[("m", "x")]


@pytest.mark.parametrize("name, description, person", [
    ("contact", "", True),
    ("name", "", True),
    ("passenger_name", "", True),
    ("artist", "", True),
    ("联系人", "", True),
    ("who", "联系人姓名", True),
    ("city_name", "", False),
    ("song_name", "", False),
    ("title", "", False),
])
def test_names_person(name, description, person):
    assert names_person(name, description) is person


@pytest.mark.parametrize("gold, predicted", [
    ("王芳", "王芳芳"),
    ("张伟", "张玮"),          # 50 alike: decided different by the lower band before
    ("王菲", "王非"),
    ("John Smith", "Jon Smith"),   # a letter dropped: equal by the typo rule before
])
def test_names_one_edit_apart_go_to_a_judge(gold, predicted):
    v = _verdict("contact", gold, predicted)
    assert v["decided"] is False, v


def test_other_names_and_other_texts_are_scored_as_before():
    assert (_verdict("contact", "王芳", "李强")["subtype"], _verdict("contact", "王芳", "李强")["decided"]) == (
        "incorrect_value", True)
    tea = _verdict("drink", "红茶", "绿茶")       # not a name: one character, 50 alike, different
    assert (tea["subtype"], tea["decided"]) == ("incorrect_value", True), tea
