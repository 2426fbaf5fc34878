"""Every outcome and subtype, each from a minimal case, and the documented precedence."""

import json

import pytest
from helpers import call, verdict

W = "get_weather"
F = "search_flights"


def test_correct_with_alias_and_numeral():
    v = verdict([call(W, city="北京", days=3)], [call(W, city="北京市", days="三")])
    assert (v["outcome"], v["subtype"], v["decided"]) == ("correct", None, True)
    assert v["errors"] == []


@pytest.mark.parametrize("predicted, output, subtype", [
    ([], None, "no_call"),
    (None, "I cannot help with that.", "no_call"),
    ([call(F, from_city="北京", to_city="上海", date="2026-03-05")], None, "wrong_tool"),
    (None, "<tool_call>{\"name\": \"get_weather\", \"arguments\": {\"city\": </tool_call>", "malformed"),
])
def test_miss_recall_single_call(predicted, output, subtype):
    v = verdict([call(W, city="北京")], predicted, output)
    assert (v["outcome"], v["subtype"]) == ("miss_recall", subtype)
    assert v["detail"]


def test_partial_calls():
    v = verdict([call(W, city="北京"), call(W, city="上海")], [call(W, city="上海")])
    assert (v["outcome"], v["subtype"]) == ("miss_recall", "partial_calls")
    assert [e["kind"] for e in v["errors"]] == ["partial_calls"]
    assert "get_weather" in v["detail"]


def test_param_error_subtypes_and_precedence():
    temporal = verdict([call(F, from_city="北京", to_city="上海", date="2026-03-05")],
                       [call(F, from_city="北京", to_city="广州", date="2026-03-06")])
    assert (temporal["outcome"], temporal["subtype"], temporal["argument"]) == ("param_error", "temporal", "date")
    kinds = sorted(e["kind"] for e in temporal["errors"])
    assert kinds == ["incorrect_value", "temporal"]  # every error listed, not only the first

    missing = verdict([call(F, from_city="北京", to_city="上海", date="2026-03-05")],
                      [call(F, from_city="北京", date="2026-03-05")])
    assert (missing["subtype"], missing["argument"]) == ("missing_arg", "to_city")

    wrong = verdict([call(W, city="北京", days=3)], [call(W, city="北京", days=4)])
    assert (wrong["subtype"], wrong["argument"]) == ("incorrect_value", "days")
    assert "gold 3, predicted 4" in wrong["detail"]


def test_extra_argument_counts_as_incorrect_value_unless_default():
    extra = verdict([call(W, city="北京")], [call(W, city="北京", days=5)])
    assert (extra["outcome"], extra["subtype"], extra["argument"]) == ("param_error", "incorrect_value", "days")
    default = verdict([call(W, city="北京")], [call(W, city="北京", unit="celsius")])
    assert default["outcome"] == "correct"


def test_unknown_argument_is_undecided():
    v = verdict([call(W, city="北京")], [call(W, city="北京", colour="blue")])
    assert v["decided"] is False
    assert "schema does not define" in v["uncertain_reason"]
    # tentatively an incorrect value (the tool would reject it), for the judge to confirm
    assert (v["outcome"], v["subtype"], v["argument"]) == ("param_error", "incorrect_value", "colour")
    # a definite error elsewhere decides the row
    both = verdict([call(W, city="北京")], [call(W, city="上海", colour="blue")])
    assert (both["outcome"], both["argument"], both["decided"]) == ("param_error", "city", True)


@pytest.mark.parametrize("negative_type", ["no_tool", "other_tool", "beyond_capability", None])
def test_over_recall_takes_negative_type(negative_type):
    v = verdict([], [call(W, city="北京")], negative_type=negative_type)
    assert (v["outcome"], v["subtype"]) == ("over_recall", negative_type or "unspecified")
    assert v["positive"] is False


def test_negative_without_call_is_correct():
    assert verdict([], None, "今天天气不错，不需要查询。", negative_type="no_tool")["outcome"] == "correct"


def test_extra_call_after_all_required_calls():
    v = verdict([call(W, city="北京")], [call(W, city="北京"), call(F, from_city="北京", to_city="上海",
                                                                    date="2026-03-05")])
    assert (v["outcome"], v["subtype"]) == ("over_recall", "extra_call")


def test_miss_recall_outranks_param_error():
    v = verdict([call(W, city="北京"), call(F, from_city="北京", to_city="上海", date="2026-03-05")],
                [call(W, city="天津")])
    assert (v["outcome"], v["subtype"]) == ("miss_recall", "partial_calls")
    assert {e["kind"] for e in v["errors"]} == {"partial_calls", "incorrect_value"}


def test_any_alternatives_and_optional_arguments():
    gold = [call(W, city={"$any": ["北京", "天津"]}, days={"$optional": 3})]
    assert verdict(gold, [call(W, city="天津")])["outcome"] == "correct"
    assert verdict(gold, [call(W, city="北京", days=3)])["outcome"] == "correct"
    wrong = verdict(gold, [call(W, city="北京", days=5)])
    assert (wrong["subtype"], wrong["argument"]) == ("incorrect_value", "days")
    missing = verdict([call(W, city={"$any": ["北京", "天津"]})], [call(W)])
    assert missing["subtype"] == "missing_arg"


def test_fuzzy_band_is_undecided_and_thresholds_are_options():
    gold = [call(W, city="北京朝阳区建国路88号")]
    near = verdict(gold, [call(W, city="北京朝阳区建国路88号院")])
    assert near["outcome"] == "correct"           # ratio >= 90
    band = verdict(gold, [call(W, city="北京建国路88号")])             # ratio 84, same street number
    assert band["decided"] is False and "similarity 84, between 60 and 90" in band["uncertain_reason"]
    strict = verdict(gold, [call(W, city="北京建国路88号")], fuzzy_low=95, fuzzy_high=99)
    assert (strict["outcome"], strict["decided"]) == ("param_error", True)


def test_enum_compares_case_insensitively_and_through_scoped_aliases():
    assert verdict([call(W, city="北京", unit="celsius")], [call(W, city="北京", unit="Celsius")])["outcome"] == "correct"
    from scorer.normalize import Context, canonical
    from scorer.schema import Param
    economy = canonical(Param(kind="enum"), "经济舱", Context(None, "search_flights", "cabin_class"))
    assert economy.key == canonical(Param(kind="enum"), "economy", Context(None, "search_flights", "cabin_class")).key


RANGE_TOOL = "list_events"


def _range_verdict(predicted_end, **options):
    gold = [call(RANGE_TOOL, start_date="2026-03-10", end_date="2026-03-12")]
    return verdict(gold, [call(RANGE_TOOL, start_date="2026-03-10", end_date=predicted_end)], **options)


def test_range_end_in_the_other_convention_is_a_named_temporal_error_by_default():
    v = _range_verdict("2026-03-13")
    assert (v["outcome"], v["subtype"], v["argument"]) == ("param_error", "temporal", "end_date")
    assert "slip: inclusive_exclusive_end" in v["detail"]


def test_range_end_convention_from_an_option_accepts_the_other_convention():
    assert _range_verdict("2026-03-13", range_end="inclusive")["outcome"] == "correct"
    assert _range_verdict("2026-03-11", range_end="exclusive")["outcome"] == "correct"
    # a day further is still wrong, and a start date is never shifted
    assert _range_verdict("2026-03-14", range_end="inclusive")["subtype"] == "temporal"
    wrong_start = verdict([call(RANGE_TOOL, start_date="2026-03-10", end_date="2026-03-12")],
                          [call(RANGE_TOOL, start_date="2026-03-11", end_date="2026-03-12")], range_end="inclusive")
    assert wrong_start["argument"] == "start_date"


def test_range_end_convention_from_the_schema():
    from helpers import verdicts_for
    import json
    tool = {"name": RANGE_TOOL, "parameters": {"type": "object", "properties": {
        "start_date": {"type": "string", "format": "date"},
        "end_date": {"type": "string", "format": "date", "x-inclusive-end": False}}}}
    gold = [{"id": "r", "gold_calls": [call(RANGE_TOOL, start_date="2026-03-10", end_date="2026-03-13")],
             "tools": json.dumps([tool])}]
    got = verdicts_for(gold, [{"id": "r", "calls": [call(RANGE_TOOL, start_date="2026-03-10", end_date="2026-03-12")]}])
    assert got[("m", "r")]["outcome"] == "correct"


@pytest.mark.parametrize("predicted, output, expected", [
    ([call(W, city="北京")], None, ("correct", None)),
    ([call(F, from_city="a", to_city="b", date="2026-03-05"), call(W, city="x")], None, ("correct", None)),
    ([], None, ("miss_recall", "no_call")),
    (None, "[get_weather(city='北京'", ("miss_recall", "malformed")),
])
def test_any_call_rows_accept_any_call(predicted, output, expected):
    """BFCL's live_relevance: the request is relevant to the tools; any call is right."""
    from helpers import verdicts_for
    gold = [{"id": "x", "gold_calls": [], "expect": "any_call"}]
    pred = {"id": "x", "calls": predicted} if output is None else {"id": "x", "output": output}
    v = verdicts_for(gold, [pred])[("m", "x")]
    assert (v["outcome"], v["subtype"], v["positive"]) == (*expected, True)


def test_expect_values_are_checked():
    from helpers import gold_table, prediction_table
    from scorer.errors import InputError
    from scorer.pipeline import score_tables
    with pytest.raises(InputError, match="field expect"):
        score_tables(prediction_table([]), gold_table([{"id": "x", "gold_calls": [], "expect": "maybe"}]))


def _clarify(reply, mentions=("日期",), calls=None, expect=None):
    from helpers import gold_table, prediction_table

    from scorer.options import Options
    from scorer.pipeline import score_tables
    row = {"id": "x", "gold_calls": [], "negative_type": "needs_clarification"}
    if mentions is not None:
        row["expect_mentions"] = json.dumps(list(mentions), ensure_ascii=False)
    if expect is not None:
        row["expect"] = expect
    prediction = {"id": "x", "calls": calls} if reply is None else {"id": "x", "output": reply}
    return score_tables(prediction_table([prediction]), gold_table([row]), Options()).verdicts.to_pylist()[0]


@pytest.mark.parametrize("reply, mentions, outcome, decided", [
    ("请问您想查询哪一天的天气？需要提供日期。", ("日期",), "correct", True),      # names it
    ("", ("日期",), "over_recall", True),                                          # empty reply
    (None, ("日期",), "over_recall", True),                                        # no call, no reply at all
    ("北京明天晴，气温12度。", ("日期",), "over_recall", True),                       # answers, asks nothing
    ("您想查哪天的？", ("日期",), "over_recall", False),                            # asks in other words
    ("Which day do you mean", ("date",), "over_recall", False),                    # asks without a question mark
    ("好的，已为您查询。", None, "over_recall", True),                               # no mentions listed: must ask
    ("您想查哪天的？", None, "over_recall", False),
])
def test_a_row_that_must_ask(reply, mentions, outcome, decided):
    v = _clarify(reply, mentions, calls=[] if reply is None else None)
    assert (v["outcome"], v["decided"]) == (outcome, decided), v
    if outcome != "correct":
        assert v["subtype"] == "needs_clarification" and v["detail"]


@pytest.mark.parametrize("reply", [None, "", "好的。"])
def test_expect_no_call_checks_only_that_no_call_is_made(reply):
    # BFCL's multi-turn miss_param turns: the turn is right when no call is made, whatever the reply
    v = _clarify(reply, None, calls=[] if reply is None else None, expect="no_call")
    assert (v["outcome"], v["decided"]) == ("correct", True), v
    called = _clarify(None, None, calls=[{"name": "get_weather", "arguments": "{}"}], expect="no_call")
    assert called["outcome"] == "over_recall", called
