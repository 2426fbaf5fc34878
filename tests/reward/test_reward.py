"""Reward functions on hand-written cases. Expected values follow the definitions in
scorer/reward.py's docstring, worked out by hand for each case: gold get_weather(city=北京,
date=2026-03-05) asked on Wednesday 2026-03-04, so 明天 names the gold date and 北京市 is an
alias of 北京."""

import json

import pyarrow as pa
import pytest

from scorer import Gold
from scorer.reward import completion_text, make_reward
from helpers import FLIGHT_TOOL, REFERENCE, WEATHER_TOOL

SEARCH_TOOL = {"name": "search_web", "parameters": {"type": "object", "properties": {
    "query": {"type": "string"}}, "required": ["query"]}}
TOOLS = json.dumps([WEATHER_TOOL, FLIGHT_TOOL, SEARCH_TOOL])
WEATHER = [{"name": "get_weather", "arguments": {"city": "北京", "date": "2026-03-05"}}]
CASES = {  # completion -> (binary, fractional, f1), by hand from the definitions
    'get_weather(city="北京市", date="明天")': (1, 1, 1),                      # alias + relative date
    'get_weather(city="上海", date="明天")': (0, (1 + 1 + 0.5) / 3, (1 + 1 + 0.5) / 3),  # one wrong value of 2
    'get_weather(date="明天")': (0, (1 + 0.5 + 0.5) / 3, (1 + 2 / 3 + 2 / 3) / 3),  # city missing: 1 of 2 given
    'get_weather(city="北京", date="2026-03-05", days=3)':                     # one extra argument
        (0, (1 + 2 / 3 + 2 / 3) / 3, (1 + 0.8 + 0.8) / 3),
    'search_flights(from_city="北京", to_city="上海", date="明天")': (0, 0, 0),  # wrong tool
    "明天北京晴，不用查。": (0, 0, 0),                                          # no call
}


def columns(count, gold=WEATHER):
    return {"gold_calls": [json.dumps(gold, ensure_ascii=False)] * count, "tools": [TOOLS] * count,
            "reference_time": [REFERENCE] * count}


@pytest.mark.parametrize("mode", ["binary", "fractional", "f1"])
def test_trl_modes_on_hand_written_cases(mode):
    reward = make_reward(mode)
    completions = list(CASES)
    got = reward(["prompt"] * len(completions), completions, **columns(len(completions)))
    index = ["binary", "fractional", "f1"].index(mode)
    assert got == pytest.approx([expected[index] for expected in CASES.values()])


def test_components_are_logged():
    reward = make_reward("fractional")
    reward(None, ['get_weather(city="上海", date="明天")', "{not json"], **columns(2))
    logged = reward.reward.last_components
    assert logged["calls"] == [1.0, 0.0] and logged["arguments"] == [1.0, 0.0] and logged["values"] == [0.5, 0.0]
    assert logged["correct"] == [0.0, 0.0]
    assert logged["format"][0] == 1.0


def test_format_component_counts_malformed_output():
    reward = make_reward("binary", weights={"correct": 1, "format": 1})
    got = reward(None, ['get_weather(city="上海", date="明天")', '{"name": "get_weather", "arguments": 5}'],
                 **columns(2))
    assert got == [0.5, 0.0]   # right format, wrong value / unreadable arguments


def test_two_calls_expected_one_given():
    gold = WEATHER + [{"name": "get_weather", "arguments": {"city": "上海", "date": "2026-03-05"}}]
    reward = make_reward("fractional")
    got = reward(None, ['get_weather(city="上海", date="明天")'], **columns(1, gold))
    # calls 1/2; arguments and values 2 of 4 gold arguments
    assert got == pytest.approx([(0.5 + 0.5 + 0.5) / 3])


def test_no_call_needed():
    reward = make_reward("fractional")
    got = reward(None, ["这个我帮不了你。", 'get_weather(city="北京")'], **columns(2, []))
    assert got == [1.0, 0.0]


def test_chat_messages_and_tool_calls():
    message = [{"role": "user", "content": "明天北京天气"},
               {"role": "assistant", "content": None, "tool_calls": [{"type": "function", "function": {
                   "name": "get_weather", "arguments": json.dumps({"city": "北京市", "date": "明天"})}}]}]
    text = [{"role": "assistant", "content": [{"type": "text", "text": 'get_weather(city="上海", date="明天")'}]}]
    assert completion_text(text) == (None, 'get_weather(city="上海", date="明天")')
    got = make_reward("binary")(None, [message, text], **columns(2))
    assert got == [1.0, 0.0]


@pytest.mark.parametrize("undecided, binary, fractional", [
    ("tentative", 1.0, 1.0), (0.0, 0.0, 2 / 3), (0.5, 0.5, (1 + 1 + 0.5) / 3)])
def test_undecided_policy(undecided, binary, fractional):
    """"best pizza around town" vs "best pizza in town": similarity 85, same word count, in the
    default fuzzy band (60-90): undecided; the tentative verdict is correct."""
    gold = [{"name": "search_web", "arguments": {"query": "best pizza in town"}}]
    completion = ['search_web(query="best pizza around town")']
    assert make_reward("binary", undecided=undecided)(None, completion, **columns(1, gold)) == [binary]
    assert make_reward("fractional", undecided=undecided)(None, completion, **columns(1, gold)) == \
        pytest.approx([fractional])


def test_gold_lists_and_column_names():
    reward = make_reward("binary", gold_column="answer", reference_time_column="asked_at")
    got = reward(None, ['get_weather(city="北京市", date="明天")'], answer=[WEATHER], tools=[TOOLS],
                 asked_at=[REFERENCE])
    assert got == [1.0]
    with pytest.raises(KeyError, match="answer"):
        reward(None, ["x"], gold_calls=[WEATHER])


def test_gold_set_by_id():
    table = pa.table({"id": ["a", "b"], "gold_calls": [json.dumps(WEATHER, ensure_ascii=False), "[]"],
                      "tools": [TOOLS, TOOLS], "reference_time": [REFERENCE, REFERENCE]})
    reward = make_reward("binary", gold=Gold.from_table(table))
    assert reward(None, ['get_weather(city="北京市", date="明天")', "好的"] * 2, id=["a", "b", "b", "a"]) == \
        [1.0, 1.0, 0.0, 0.0]


def test_verl_signature():
    compute_score = make_reward("fractional", trainer="verl")
    got = compute_score("tool_use", 'get_weather(city="上海", date="明天")', json.dumps(WEATHER, ensure_ascii=False),
                        {"tools": TOOLS, "reference_time": REFERENCE})
    assert got["score"] == pytest.approx((1 + 1 + 0.5) / 3) and got["values"] == 0.5 and got["correct"] == 0.0


def test_openrlhf_signature():
    reward_func = make_reward("binary", trainer="openrlhf")
    labels = [{"gold_calls": WEATHER, "tools": TOOLS, "reference_time": REFERENCE}] * 2
    got = reward_func(['Q: 明天北京天气?\nA: get_weather(city="北京市", date="明天")', 'Q: x\nA: 好'],
                      ["Q: 明天北京天气?\nA: ", "Q: x\nA: "], labels)
    assert list(got["rewards"]) == [1.0, 0.0] and list(got["scores"]) == [1.0, 0.0]
    assert list(got["extra_logs"]["format"]) == [1.0, 1.0]


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError, match="mode"):
        make_reward("partial")
    with pytest.raises(ValueError, match="weights"):
        make_reward(weights={"style": 1})
    with pytest.raises(ValueError, match="undecided"):
        make_reward(undecided="judge")
    with pytest.raises(ValueError, match="trainer"):
        make_reward(trainer="ppo")


def test_gold_in_the_batch_is_mapped_row_by_row():
    # two distinct gold rows interleaved: each completion is scored against its own row
    reward = make_reward("binary")
    gold = [json.dumps(WEATHER, ensure_ascii=False), "[]", "[]", json.dumps(WEATHER, ensure_ascii=False)]
    completions = ['get_weather(city="北京市", date="明天")', "好的", 'get_weather(city="北京", date="明天")', "好的"]
    got = reward(None, completions, gold_calls=gold, tools=[TOOLS] * 4, reference_time=[REFERENCE] * 4)
    assert got == [1.0, 1.0, 0.0, 0.0]


def test_an_id_not_in_the_gold_set_is_named():
    table = pa.table({"id": ["a"], "gold_calls": [json.dumps(WEATHER, ensure_ascii=False)],
                      "tools": [TOOLS], "reference_time": [REFERENCE]})
    reward = make_reward("binary", gold=Gold.from_table(table))
    with pytest.raises(KeyError, match="ids not in gold: zz"):
        reward(None, ["好的"], id=["zz"])
