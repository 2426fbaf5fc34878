"""read_provider_dump and detect_provider on small dumps shaped like each provider's responses."""

import json
from pathlib import Path

import pytest

from scorer.errors import InputError
from scorer.io.providers import PROVIDERS, detect_provider, read_provider_dump
from scorer.tables import PREDICTIONS

OUTPUTS = Path(__file__).resolve().parents[1] / "data" / "outputs"


def rows(name, provider=None):
    table = read_provider_dump(OUTPUTS / name, provider)
    assert table.schema.equals(PREDICTIONS)
    return {row["id"]: row for row in table.to_pylist()}


def call(name, **arguments):
    return {"name": name, "arguments": json.dumps(arguments, ensure_ascii=False, sort_keys=True,
                                                  separators=(",", ":"))}


def test_openai_chat_completions():
    read = rows("openai_chat.jsonl")
    assert list(read) == ["weather-1", "weather-2", "chat-3", "broken-4", "qwen-5"]
    assert read["weather-1"]["calls"] == [call("get_weather", city="北京", date="2026-03-10")]
    assert read["weather-1"]["model"] == "gpt-4o"  # the wrapper's model wins
    assert read["weather-2"]["calls"] == [call("get_weather", city="上海"), call("get_weather", city="广州")]
    prose = read["chat-3"]
    assert prose["calls"] == [] and prose["malformed"] is None and prose["output"].startswith("北京今天晴")
    broken = read["broken-4"]
    assert broken["calls"] is None and broken["malformed"] == "call 1: arguments is not a JSON object"


def test_qwen_tool_call_text_in_chat_content_is_parsed():
    qwen = rows("openai_chat.jsonl")["qwen-5"]
    assert qwen["calls"] == [call("get_weather", city="杭州")]
    assert "<tool_call>" in qwen["output"]


def test_openai_batch_output_uses_custom_id_and_reports_failed_requests():
    read = rows("openai_batch.jsonl")
    assert list(read) == ["stock-1", "stock-2", "stock-3"]
    assert read["stock-1"]["calls"] == [call("get_stock_price", symbol="600519", market="SSE")]
    assert read["stock-1"]["model"] == "gpt-4o-mini-2024-07-18"
    assert read["stock-2"]["malformed"] == ("provider error: status 400: "
                                           "Invalid 'messages[1].content': string too long.")
    assert read["stock-3"]["calls"] is None
    assert read["stock-3"]["malformed"].startswith("provider error: This request could not be executed")


def test_openai_responses_api():
    read = rows("openai_responses.json")
    assert read["express-1"]["calls"] == [call("track_package", carrier="顺丰", tracking_number="SF1234567890"),
                                         call("track_package", carrier="中通", tracking_number="ZT998877")]
    assert read["express-2"]["calls"] == [] and read["express-2"]["output"] == "请提供快递单号，我才能帮您查询。"
    assert read["express-3"]["malformed"] == "call 1: arguments is not a JSON object"


def test_anthropic_messages_and_batch_results():
    read = rows("anthropic.jsonl")
    first = read["flight-1"]
    assert first["calls"] == [call("search_flights", origin="PEK", destination="SHA", date="2026-03-11",
                                   cabin="economy")]
    assert first["output"] == "我来帮您查询航班。"
    assert read["flight-2"]["calls"] == [call("search_flights", origin="PEK", destination="CAN"),
                                        call("get_weather", city="广州")]
    assert read["flight-3"]["calls"] == []
    assert read["flight-4"]["calls"] == [call("search_flights", origin="SZX", destination="CTU")]
    assert read["flight-4"]["model"] == "claude-sonnet-4-20250514"
    assert read["flight-5"]["calls"] is None and read["flight-5"]["malformed"] == "provider error: Overloaded"


def test_gemini_function_call_parts():
    read = rows("gemini.json")
    assert read["currency-1"]["calls"] == [call("convert_currency", amount=100, **{"from": "USD", "to": "CNY"})]
    assert read["currency-1"]["model"] == "gemini-2.0-flash"
    assert [c["name"] for c in read["currency-2"]["calls"]] == ["convert_currency", "get_exchange_rate"]
    assert read["currency-3"]["calls"] == [] and read["currency-3"]["output"].startswith("汇率")
    assert read["currency-4"]["malformed"] == "response has no candidates (blocked: SAFETY)"
    assert read["currency-5"]["malformed"].startswith("finishReason MALFORMED_FUNCTION_CALL")


def test_gemini_python_sdk_snake_case_parts(tmp_path):
    record = {"id": "g-1", "response": {"candidates": [{"content": {"role": "model", "parts": [
        {"text": "thinking it over", "thought": True},
        {"function_call": {"name": "get_time", "args": {"timezone": "UTC"}}}]}}]}}
    path = tmp_path / "sdk.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    (row,) = read_provider_dump(path).to_pylist()
    assert row["calls"] == [call("get_time", timezone="UTC")] and row["output"] is None


def test_raw_text_records():
    read = rows("qwen_text.jsonl")
    assert read["music-1"]["calls"] == [call("play_song", song="稻香", artist="周杰伦")]
    assert read["music-2"]["calls"] == [call("play_song", song="晴天"), call("set_volume", level=30)]
    assert read["music-3"]["calls"] == [] and read["music-3"]["malformed"] is None
    assert read["music-4"]["calls"] is None
    assert read["music-4"]["malformed"].startswith("tool_call block 1: invalid JSON")
    assert read["music-5"]["calls"] == [call("play_song", song="夜曲")]  # text under "response"


def test_bare_response_takes_its_id_from_metadata_not_from_the_provider_id():
    (row,) = read_provider_dump(OUTPUTS / "bare_chat.json").to_pylist()
    assert row["id"] == "time-1"
    assert row["calls"] == [call("get_time", timezone="Asia/Shanghai")]


def test_unreadable_records_become_malformed_rows_and_the_rest_go_on():
    read = rows("mixed.jsonl")
    assert list(read) == ["mix-1", "mix-2", "mixed.jsonl#3", "mix-4", "mix-5"]
    assert read["mix-1"]["calls"] == [call("get_time")]
    assert read["mix-2"]["calls"] == [call("get_time", timezone="UTC")]
    assert read["mixed.jsonl#3"]["malformed"] == "record has no id"
    assert read["mixed.jsonl#3"]["calls"] is None
    assert read["mix-4"]["malformed"] == "not a response of a known provider"
    assert read["mix-5"]["malformed"] == "choice has no message"


def test_records_of_odd_shapes_do_not_raise(tmp_path):
    records = [
        {"id": "o-1", "response": {"candidates": [{"content": "not an object"}]}},
        {"id": "o-2", "response": {"choices": []}},
        {"id": "o-3", "response": {"type": "message", "content": "text, not blocks"}},
        {"id": "o-4", "response": [1, 2]},
        7,
    ]
    path = tmp_path / "odd.jsonl"
    path.write_text("\n".join(json.dumps(record) for record in records) + "\n", encoding="utf-8")
    read = {row["id"]: row for row in read_provider_dump(path).to_pylist()}
    assert read["o-1"]["malformed"].startswith("unexpected shape for a gemini response")
    assert read["o-2"]["malformed"] == "response has no choices"
    assert read["o-3"]["malformed"] == "message has no content blocks"
    assert read["o-4"]["malformed"] == "not a response of a known provider"
    assert read["odd.jsonl#5"]["malformed"].startswith("record has no id")
    assert all(row["calls"] is None for row in read.values())


def test_forced_provider_that_does_not_fit_is_malformed():
    read = rows("gemini.json", provider="anthropic")
    assert read["currency-1"]["malformed"] == "message has no content blocks"


def test_forced_text_provider_reads_the_text_field():
    read = rows("qwen_text.jsonl", provider="text")
    assert read["music-1"]["calls"] == [call("play_song", song="稻香", artist="周杰伦")]


def test_unknown_provider_name_is_an_input_error():
    with pytest.raises(InputError, match="unknown provider 'claude'"):
        read_provider_dump(OUTPUTS / "anthropic.jsonl", provider="claude")


@pytest.mark.parametrize("name, row", [("not_json.jsonl", 2), ("not_json.json", 4)])
def test_a_file_that_is_not_json_names_the_file_and_line(name, row):
    with pytest.raises(InputError) as caught:
        read_provider_dump(OUTPUTS / name)
    assert caught.value.row == row and caught.value.path.endswith(name)
    assert "not valid JSON" in str(caught.value)


def test_json_lines_in_a_json_file_are_read_as_lines(tmp_path):
    path = tmp_path / "results.json"
    path.write_text('{"id": "a", "output": "f(x=1)"}\n{"id": "b", "output": "no call here"}\n',
                    encoding="utf-8")
    read = {row["id"]: row for row in read_provider_dump(path).to_pylist()}
    assert read["a"]["calls"] == [call("f", x=1)] and read["b"]["calls"] == []


def test_missing_and_empty_files(tmp_path):
    with pytest.raises(InputError, match="cannot read the file"):
        read_provider_dump(tmp_path / "absent.jsonl")
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n", encoding="utf-8")
    assert read_provider_dump(empty).num_rows == 0


@pytest.mark.parametrize("name, expected", [
    ("openai_chat.jsonl", "openai_chat"), ("openai_batch.jsonl", "openai_chat"),
    ("openai_responses.json", "openai_responses"), ("anthropic.jsonl", "anthropic"),
    ("gemini.json", "gemini"), ("qwen_text.jsonl", "text"), ("bare_chat.json", "openai_chat"),
])
def test_detect_provider_on_the_first_record(name, expected):
    text = (OUTPUTS / name).read_text(encoding="utf-8")
    first = json.loads(text.splitlines()[0]) if name.endswith(".jsonl") else json.loads(text)
    first = first[0] if isinstance(first, list) else first
    assert detect_provider(first) == expected
    assert expected in PROVIDERS


def test_detect_provider_on_bare_shapes():
    assert detect_provider({"role": "assistant", "content": None, "tool_calls": []}) == "openai_chat"
    assert detect_provider({"type": "message", "role": "assistant", "content": []}) == "anthropic"
    assert detect_provider({"object": "response", "output": []}) == "openai_responses"
    assert detect_provider({"promptFeedback": {"blockReason": "SAFETY"}}) == "gemini"
    assert detect_provider({"status": "ok"}) is None
    assert detect_provider([1, 2]) is None


def test_a_response_saved_as_json_text_is_decoded_but_raw_json_output_is_parsed(tmp_path):
    completion = {"choices": [{"message": {"role": "assistant", "content": None, "tool_calls": [
        {"id": "c", "type": "function", "function": {"name": "f", "arguments": "{\"a\": 1}"}}]}}]}
    records = [{"id": "s-1", "response": json.dumps(completion)},
               {"id": "s-2", "response": '{"tool_calls": [{"name": "g", "arguments": {"b": 2}}]}'}]
    path = tmp_path / "strings.jsonl"
    path.write_text("\n".join(json.dumps(record) for record in records), encoding="utf-8")
    read = {row["id"]: row for row in read_provider_dump(path).to_pylist()}
    assert read["s-1"]["calls"] == [call("f", a=1)] and read["s-1"]["output"] is None
    assert read["s-2"]["calls"] == [call("g", b=2)]  # xLAM text, read by parse_output
