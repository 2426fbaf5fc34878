"""Near-miss names (rules/param_kinds.toml `person`, scorer/normalize/fuzzy.py): two people's
names one edit apart go to a judge, neither equal by the typo rule nor different by a score."""

import pytest
from helpers import string_verdict

from scorer.schema import names_person


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
    v = string_verdict(gold, predicted, "contact")
    assert v["decided"] is False, v


def test_other_names_and_other_texts_are_scored_as_before():
    other = string_verdict("王芳", "李强", "contact")
    assert (other["subtype"], other["decided"]) == ("incorrect_value", True), other
    tea = string_verdict("红茶", "绿茶", "drink")       # not a name: one character, 50 alike, different
    assert (tea["subtype"], tea["decided"]) == ("incorrect_value", True), tea
