"""Each normalization rule of the dispatcher, through a whole verdict: every case is scored
wrong (or differently) without the rule it names."""

import json

import pytest
from helpers import call, verdict, verdicts_for

W, F = "get_weather", "search_flights"


def _tool_verdict(tool_schema, gold_arguments, predicted_arguments):
    gold = [{"id": "x", "gold_calls": [call(tool_schema["name"], **gold_arguments)], "tools": json.dumps([tool_schema])}]
    return verdicts_for(gold, [{"id": "x", "calls": [call(tool_schema["name"], **predicted_arguments)]}])[("m", "x")]


def _schema(**properties):
    return {"name": "t", "parameters": {"type": "object", "properties": properties}}


@pytest.mark.parametrize("predicted", ["2026-03-05", "2026/3/5", "2026年3月5日", "3月5日", "2026-03-05T00:00:00",
                                       "2026-03-05T15:00:00+08:00", "明天", "周四"])
def test_dates_written_any_way_compare_as_the_day(predicted):
    v = verdict([call(F, from_city="北京", to_city="上海", date="2026-03-05")],
                [call(F, from_city="北京", to_city="上海", date=predicted)])
    assert (v["outcome"], v["decided"]) == ("correct", True), v["detail"]


def test_a_datetime_field_compares_to_the_minute():
    schema = _schema(at={"type": "string", "format": "date-time"})
    assert _tool_verdict(schema, {"at": "2026-03-05T15:00:00+08:00"}, {"at": "明天下午3点"})["outcome"] == "correct"
    assert _tool_verdict(schema, {"at": "2026-03-05T15:00:00+08:00"}, {"at": "2026-03-05 15:00"})["outcome"] == "correct"
    late = _tool_verdict(schema, {"at": "2026-03-05T15:00:00+08:00"}, {"at": "2026-03-05T15:30:00+08:00"})
    assert late["subtype"] == "temporal"


def test_a_time_field_reads_chinese_clock_times():
    schema = _schema(at={"type": "string", "format": "time"})
    assert _tool_verdict(schema, {"at": "15:00"}, {"at": "下午3点"})["outcome"] == "correct"
    assert _tool_verdict(schema, {"at": "15:00"}, {"at": "晚上8点"})["subtype"] == "temporal"


def test_number_tolerance_comes_from_the_schema():
    schema = _schema(amount={"type": "number", "x-tolerance": 0.01})
    assert _tool_verdict(schema, {"amount": 3.14}, {"amount": 3.141})["outcome"] == "correct"
    assert _tool_verdict(schema, {"amount": 3.14}, {"amount": 3.2})["subtype"] == "incorrect_value"
    exact = _schema(amount={"type": "number"})
    assert _tool_verdict(exact, {"amount": 3.14}, {"amount": 3.141})["subtype"] == "incorrect_value"


def test_a_null_tolerance_is_no_tolerance():
    schema = _schema(amount={"type": "number", "x-tolerance": None})
    assert _tool_verdict(schema, {"amount": 3.14}, {"amount": 3.14})["outcome"] == "correct"
    assert _tool_verdict(schema, {"amount": 3.14}, {"amount": 3.141})["subtype"] == "incorrect_value"


def test_unordered_arrays_only_when_the_schema_says_so():
    as_set = _schema(tags={"type": "array", "items": {"type": "string"}, "uniqueItems": True})
    assert _tool_verdict(as_set, {"tags": ["a", "b"]}, {"tags": ["b", "a"]})["outcome"] == "correct"
    as_list = _schema(tags={"type": "array", "items": {"type": "string"}})
    assert _tool_verdict(as_list, {"tags": ["a", "b"]}, {"tags": ["b", "a"]})["subtype"] == "incorrect_value"


def test_objects_ignore_key_order_and_normalize_their_leaves():
    schema = _schema(filter={"type": "object"})
    v = _tool_verdict(schema, {"filter": {"city": "北京", "days": 3}}, {"filter": {"days": "三", "city": "北京市"}})
    assert v["outcome"] == "correct"


@pytest.mark.parametrize("gold, predicted", [
    ({"filter": {"city": "北京", "days": 3}}, {"filter": '{"days": 3, "city": "北京"}'}),
    ({"filter": '{"city": "北京", "days": 3}'}, {"filter": {"days": 3, "city": "北京"}}),
])
def test_json_written_in_a_string_compares_as_its_structure(gold, predicted):
    assert _tool_verdict(_schema(filter={}), gold, predicted)["outcome"] == "correct"


@pytest.mark.parametrize("gold, predicted", [("true", "是"), (True, "yes"), (False, "否"), (True, 1)])
def test_booleans(gold, predicted):
    schema = _schema(flag={"type": "boolean"})
    assert _tool_verdict(schema, {"flag": gold}, {"flag": predicted})["outcome"] == "correct"


@pytest.mark.parametrize("predicted", ["三", "3.0", 3.0, "３", "3"])
def test_numbers_in_an_integer_field(predicted):
    assert verdict([call(W, city="北京", days=3)], [call(W, city="北京", days=predicted)])["outcome"] == "correct"


def test_enum_case_and_full_width_text():
    assert verdict([call(W, city="北京", unit="celsius")], [call(W, city="北京", unit="CELSIUS")])["outcome"] == "correct"
    assert verdict([call(W, city="Beijing")], [call(W, city="ＢＥＩＪＩＮＧ")])["outcome"] == "correct"


def test_traditional_chinese_folds_to_simplified():
    assert verdict([call(W, city="广州")], [call(W, city="廣州")])["outcome"] == "correct"


@pytest.mark.parametrize("name, value, kind", [
    ("date", "x", "date"), ("start_date", "x", "date"), ("day", "x", "date"), ("days", "三", "text"),
    ("departure_time", "x", "datetime"), ("city", "2026-03-05", "date"), ("city", "北京", "text"),
])
def test_kind_inferred_from_name_and_gold_value(name, value, kind):
    from scorer.schema import infer_kind
    assert infer_kind(name, value) == kind


def test_a_time_inside_a_free_text_is_resolved():
    schema = _schema(query={"type": "string"})
    # the reference time of helpers.gold_table is Wednesday 2026-03-04
    assert _tool_verdict(schema, {"query": "查明天北京的天气"}, {"query": "查3月5日北京的天气"})["outcome"] == "correct"
    assert _tool_verdict(schema, {"query": "下周二的会议"}, {"query": "2026-03-10的会议"})["outcome"] == "correct"
    other_day = _tool_verdict(schema, {"query": "查明天北京的天气"}, {"query": "查后天北京的天气"})
    assert (other_day["outcome"], other_day["decided"]) == ("param_error", True)
    other_city = _tool_verdict(schema, {"query": "查明天北京的天气"}, {"query": "查3月5日上海的天气"})
    assert not (other_city["outcome"] == "correct" and other_city["decided"])  # the time does not hide the city


def test_names_that_look_temporal_stay_text():
    schema = _schema(song={"type": "string"})
    assert _tool_verdict(schema, {"song": "五一广场"}, {"song": "五一广场"})["outcome"] == "correct"
    assert _tool_verdict(schema, {"song": "五一广场"}, {"song": "5月1日"})["subtype"] == "incorrect_value"


def test_a_range_object_compares_as_one_interval():
    schema = _schema(period={"type": "object"})
    gold = {"period": {"start": "2026-03-10", "end": "2026-03-12"}}
    assert _tool_verdict(schema, gold, {"period": {"from": "下周二", "to": "3月12日"}})["outcome"] == "correct"
    assert _tool_verdict(schema, gold, {"period": {"end": "2026-03-12", "start": "2026-03-10T00:00"}})["outcome"] == "correct"
    slip = _tool_verdict(schema, gold, {"period": {"start": "2026-03-10", "end": "2026-03-13"}})
    assert (slip["outcome"], slip["subtype"]) == ("param_error", "temporal")
    assert "2026-03-10..2026-03-13" in slip["detail"] and "2026-03-10..2026-03-14" in slip["detail"]
    assert "slip: inclusive_exclusive_end" in slip["detail"]


# The reference is 2026-03-04 (tests/helpers.py): 一周后 is 2026-03-11, 一个月后 2026-04-04.
@pytest.mark.parametrize("predicted, gold", [("一周后", "2026-03-11"), ("一个月后", "2026-04-04"),
                                             ("两周后", "2026-03-18")])
def test_an_offset_in_a_date_field_names_the_day_it_lands_on(predicted, gold):
    v = verdict([call(F, from_city="北京", to_city="上海", date=gold)],
                [call(F, from_city="北京", to_city="上海", date=predicted)])
    assert (v["outcome"], v["decided"]) == ("correct", True), v["detail"]


def test_an_offset_in_a_date_field_can_keep_the_whole_unit_reading():
    from scorer.temporal.policy import use_policy

    use_policy(["offset_in_date_field=offset_unit"])
    try:
        v = verdict([call(F, from_city="北京", to_city="上海", date="2026-03-11")],
                    [call(F, from_city="北京", to_city="上海", date="一周后")])
    finally:
        use_policy([])   # the policy is process-wide; later tests must see the defaults
    assert (v["outcome"], v["subtype"]) == ("param_error", "temporal"), v["detail"]   # the week of 03-09..03-15


def test_a_week_named_in_a_date_field_is_still_a_week():
    v = verdict([call(F, from_city="北京", to_city="上海", date="2026-03-11")],
                [call(F, from_city="北京", to_city="上海", date="下周")])
    assert (v["outcome"], v["subtype"]) == ("param_error", "temporal"), v["detail"]


def test_the_date_field_policy_follows_the_process_policy_when_none_is_given():
    from scorer.temporal import for_date_field
    from scorer.temporal.policy import use_policy

    assert for_date_field(None).offset_unit == "same_day"          # read (and cached) with the defaults
    use_policy(["offset_in_date_field=offset_unit"])
    try:
        assert for_date_field(None).offset_unit == "whole_unit"    # not the first default, remembered
    finally:
        use_policy([])
