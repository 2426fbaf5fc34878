"""Gold rows that repeat a question's gold under new ids (BFCL's perturbed set, rollouts of one
prompt) are encoded once per distinct content, and each keeps its own id; a row that differs in
anything but its id (here its reference time) is encoded on its own."""

import pytest

from helpers import REFERENCE, call, verdicts_for
from scorer.encode import GoldIndex

WEATHER = [call("get_weather", city="北京", date="2026-03-05")]


@pytest.fixture
def encoded(monkeypatch):
    """The ids of the gold rows the index encodes."""
    seen = []
    original = GoldIndex._row

    def counting(self, row, columns, default_time):
        seen.append(columns["id"][row])
        return original(self, row, columns, default_time)

    monkeypatch.setattr(GoldIndex, "_row", counting)
    return seen


def test_repeated_gold_is_encoded_once_and_each_row_keeps_its_id(encoded):
    gold = [{"id": "a", "gold_calls": WEATHER}, {"id": "b", "gold_calls": WEATHER},
            {"id": "c", "gold_calls": [call("get_weather", city="上海")]}]
    verdicts = verdicts_for(gold, [{"id": "a", "calls": [call("get_weather", city="Beijing", date="明天")]},
                                   {"id": "b", "calls": [call("get_weather", city="上海", date="2026-03-05")]},
                                   {"id": "c", "calls": [call("get_weather", city="上海")]}])
    assert encoded == ["a", "c"]
    assert verdicts[("m", "a")]["outcome"] == "correct"     # 明天 of 2026-03-04 is 03-05, Beijing is 北京
    assert (verdicts[("m", "b")]["outcome"], verdicts[("m", "b")]["argument"]) == ("param_error", "city")
    assert verdicts[("m", "c")]["outcome"] == "correct"
    assert verdicts[("m", "a")]["normalized_gold"] == verdicts[("m", "b")]["normalized_gold"]


def test_the_same_calls_under_another_reference_time_are_encoded_apart(encoded):
    relative = [call("get_weather", city="北京", date="明天")]
    gold = [{"id": "a", "gold_calls": relative},
            {"id": "b", "gold_calls": relative, "reference_time": "2026-03-05T10:00:00+08:00"}]
    predicted = [call("get_weather", city="北京", date="2026-03-05")]
    verdicts = verdicts_for(gold, [{"id": "a", "calls": predicted}, {"id": "b", "calls": predicted}])
    assert encoded == ["a", "b"]
    assert REFERENCE.startswith("2026-03-04")
    assert verdicts[("m", "a")]["outcome"] == "correct"     # 明天 of 03-04
    assert verdicts[("m", "b")]["subtype"] == "temporal"    # 明天 of 03-05 is 03-06
