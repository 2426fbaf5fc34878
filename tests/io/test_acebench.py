import json
from pathlib import Path

import pyarrow as pa
import pytest

from scorer.errors import InputError
from scorer.io.acebench import read_acebench_gold, reference_time
from scorer.io.formats import detect_gold
from scorer.tables import GOLD_FIXED

DATA = Path(__file__).resolve().parents[1] / "data" / "acebench"
ZH, EN = DATA / "data_zh", DATA / "data_en"


def peers_dir():
    return Path(__file__).resolve().parents[2] / ".." / "shared" / "peers"


def only(table):
    assert table.num_rows >= 1
    return table.to_pylist()


def args(call):
    return json.loads(call["arguments"])


@pytest.mark.parametrize("text, expected", [
    ("今天是2022年08月25日，星期四。", "2022-08-25T00:00:00+08:00"),
    ("今天是2024-07-15 星期一。", "2024-07-15T00:00:00+08:00"),
    ("Today is 2020-08-11, Tuesday.", "2020-08-11T00:00:00+08:00"),
    ("The current time is April 12, 2022, Tuesday。", "2022-04-12T00:00:00+08:00"),
    ("Today is Saturday, September 7, 2024.", "2024-09-07T00:00:00+08:00"),
    ("", None),
    (None, None),
])
def test_reference_time(text, expected):
    assert reference_time(text) == expected


def test_reference_time_without_a_date():
    with pytest.raises(ValueError):
        reference_time("sometime soon")


def test_single_function_row():
    table = read_acebench_gold(ZH / "data_normal_single_turn_single_function.json")
    assert table.schema.names[:5] == GOLD_FIXED.names
    assert table.schema.names[5:] == ["category", "language", "query", "profile", "special_kind", "special_expect",
                                      "expect_mentions"]
    row = only(table)[0]
    assert row["gold_calls"][0]["name"] == "humidity_control_system_config"
    assert args(row["gold_calls"][0])["humidity_settings"] == {"target_humidity": 50, "adjustment_mode": "auto"}
    assert row["language"] == "zh" and row["category"] == "normal_single_turn_single_function"
    assert row["query"].startswith("user: ") and row["negative_type"] is None and row["special_kind"] is None
    assert json.loads(row["tools"])[0]["parameters"]["type"] == "object"


def test_time_becomes_reference_time():
    row = only(read_acebench_gold(EN / "data_normal_multi_turn_user_switch.json"))[0]
    assert row["reference_time"] == "2020-08-11T00:00:00+08:00" and row["language"] == "en"


def test_parallel_calls_drop_repeat_suffix():
    table = read_acebench_gold(EN / "data_normal_single_turn_parallel_function.json")
    by_id = {row["id"]: row for row in table.to_pylist()}
    assert {c["name"] for c in by_id["normal_single_turn_parallel_function_2"]["gold_calls"]} == {
        "market_insight_predict_trends"}  # the answer keys are market_insight_predict_trends_1, _2, ...
    assert len(by_id["normal_single_turn_parallel_function_0"]["gold_calls"]) == 2


def test_alternative_that_omits_an_argument_makes_it_optional():
    by_id = {row["id"]: row for row in read_acebench_gold(ZH / "data_normal_atom_bool.json").to_pylist()}
    arguments = args(by_id["normal_atom_bool_21"]["gold_calls"][0])
    assert arguments["contextual_translation"] == {"$optional": True}
    assert isinstance(arguments["document_text"], str)


def test_alternative_values_become_any():
    call = only(read_acebench_gold(EN / "data_normal_atom_bool.json"))[0]["gold_calls"]
    assert args(call[0]) == {"noise_level": {"$any": ["loud rattling", "loud rattling nosiy"]},
                             "include_diy_solutions": True}


def test_alternative_objects_become_any():
    call = only(read_acebench_gold(ZH / "data_normal_atom_object_deep.json"))[0]["gold_calls"][0]
    assert args(call) == {"document_info": {"$any": [{"doc_id": "DOC12345", "version_history": []},
                                                     {"doc_id": "DOC12345"}]}}


def test_alternatives_differing_in_two_arguments_are_refused(tmp_path):
    (tmp_path / "possible_answer").mkdir()
    (tmp_path / "data_normal_x.json").write_text(json.dumps(
        {"id": "x_0", "question": "user: q", "function": [{"name": "f", "parameters": {}}], "time": ""}) + "\n")
    (tmp_path / "possible_answer" / "data_normal_x.json").write_text(json.dumps(
        {"id": "x_0", "ground_truth": [{"f": {"a": 1, "b": 2}}, {"f": {"a": 3, "b": 4}}]}) + "\n")
    with pytest.raises(InputError, match="several arguments"):
        read_acebench_gold(tmp_path / "data_normal_x.json")


def test_preference_carries_profile():
    row = only(read_acebench_gold(ZH / "data_normal_preference.json"))[0]
    assert "张小凡" in row["profile"] and row["gold_calls"][0]["name"] == "updateProfile"


def test_special_incomplete():
    row = only(read_acebench_gold(EN / "data_special_incomplete.json"))[0]
    assert row["gold_calls"] == [] and row["special_kind"] == "incomplete"
    assert row["negative_type"] == "needs_clarification"
    assert json.loads(row["special_expect"]) == {
        "api": "RealEstateManager_manageProperty",
        "missing": ["propertyDetails", "rentalManagement", "maintenanceScheduling"]}  # spaces stripped
    assert json.loads(row["expect_mentions"]) == ["propertyDetails", "rentalManagement", "maintenanceScheduling"]


def test_special_error_param():
    row = only(read_acebench_gold(ZH / "data_special_error_param.json"))[0]
    assert row["special_kind"] == "error_param" and row["gold_calls"] == []
    assert json.loads(row["special_expect"]) == {"wrong_values": {"time_range": ["10点到16点"]}}
    assert json.loads(row["expect_mentions"]) == ["10点到16点"] and row["negative_type"] == "needs_clarification"
    assert row["reference_time"] == "2026-09-21T00:00:00+08:00"


def test_special_irrelevant_is_a_no_tool_negative():
    row = only(read_acebench_gold(ZH / "data_special_irrelevant.json"))[0]
    assert row["negative_type"] == "no_tool" and row["special_kind"] == "irrelevant"
    assert "limitations of the function" in json.loads(row["special_expect"])["reply"]
    assert row["expect_mentions"] is None


def test_special_rows_scored_by_what_the_reply_names():
    """incomplete: a call is over recall; a reply naming every missing parameter is correct;
    one that asks in other words is left to a judge, tentatively not correct; one that names
    none and asks nothing, or no reply at all, is decided not correct."""
    from scorer.pipeline import score_tables

    table = read_acebench_gold(EN / "data_special_incomplete.json")
    gold = table.slice(0, 1)
    row_id = gold.column("id")[0].as_py()
    replies = {
        "asks": "Missing necessary parameters (propertyDetails, rentalManagement, maintenanceScheduling).",
        "vague": "Could you tell me more about the property?",
        "calls": '[RealEstateManager_manageProperty(propertyDetails="x")]',
        "silent": "",
        "chatty": "I have managed the property for you.",
    }
    predictions = pa.table({"id": [row_id] * 5, "model": list(replies), "calls": pa.nulls(5, pa.string()),
                            "output": list(replies.values())})
    verdicts = {v["model"]: v for v in score_tables(predictions, gold).verdicts.to_pylist()}
    assert (verdicts["asks"]["outcome"], verdicts["asks"]["decided"]) == ("correct", True)
    assert (verdicts["vague"]["outcome"], verdicts["vague"]["decided"]) == ("over_recall", False)
    assert verdicts["vague"]["uncertain_reason"] == (
        "the reply does not name propertyDetails, rentalManagement, maintenanceScheduling")
    for name in ("silent", "chatty"):
        assert (verdicts[name]["outcome"], verdicts[name]["subtype"], verdicts[name]["decided"]) == (
            "over_recall", "needs_clarification", True), verdicts[name]
        assert verdicts[name]["tool"] is None and "propertyDetails" in verdicts[name]["detail"]
    assert (verdicts["calls"]["outcome"], verdicts["calls"]["subtype"]) == ("over_recall", "needs_clarification")


def test_agent_subset_is_refused():
    with pytest.raises(InputError, match="agent"):
        read_acebench_gold(ZH / "data_agent_multi_step.json")


def test_missing_answer_is_an_input_error(tmp_path):
    (tmp_path / "possible_answer").mkdir()
    (tmp_path / "data_normal_x.json").write_text(json.dumps(
        {"id": "x_0", "question": "user: q", "function": [], "time": ""}) + "\n")
    (tmp_path / "possible_answer" / "data_normal_x.json").write_text(json.dumps({"id": "other", "ground_truth": {}}) + "\n")
    with pytest.raises(InputError, match="x_0"):
        read_acebench_gold(tmp_path / "data_normal_x.json")


def test_unreadable_time_names_row_and_field(tmp_path):
    (tmp_path / "possible_answer").mkdir()
    (tmp_path / "data_normal_x.json").write_text(json.dumps(
        {"id": "x_0", "question": "user: q", "function": [], "time": "someday"}) + "\n")
    (tmp_path / "possible_answer" / "data_normal_x.json").write_text(json.dumps({"id": "x_0", "ground_truth": {}}) + "\n")
    with pytest.raises(InputError) as caught:
        read_acebench_gold(tmp_path / "data_normal_x.json")
    assert caught.value.row == 1 and caught.value.field == "time"


def test_detected_as_acebench():
    assert detect_gold(ZH / "data_normal_preference.json") == "acebench"   # `profile`
    assert detect_gold(EN / "data_special_incomplete.json") == "acebench"  # `time`


@pytest.mark.parametrize("language, rows", [("zh", 967), ("en", 973)])
def test_shared_data_load(language, rows):
    root = peers_dir() / "acebench" / f"data_{language}"
    if not root.is_dir():
        pytest.skip("../shared/peers/acebench is absent")
    total = 0
    for path in sorted(root.glob("data_*.json")):
        if path.name.startswith("data_agent"):
            continue
        table = read_acebench_gold(path)
        total += table.num_rows
        for row in table.to_pylist():
            declared = {tool["name"] for tool in json.loads(row["tools"])}
            assert all(call["name"] in declared for call in row["gold_calls"]), row["id"]
            assert bool(row["gold_calls"]) != path.name.startswith("data_special"), row["id"]
    assert total == rows  # the published counts minus the 50 agent rows
