"""read_gold / read_predictions: format detection, dispatch and refusal of unclear inputs."""

import json
from pathlib import Path

import pytest

from scorer.errors import InputError
from scorer.load import Unreadable
from scorer.io.formats import detect_gold, detect_predictions, read_gold, read_predictions
from scorer.tables import GOLD_FIXED, PREDICTIONS

DATA = Path(__file__).resolve().parents[1] / "data"
ROOT = DATA.parent.parent
BFCL_SIMPLE = DATA / "bfcl" / "v1" / "gorilla_openfunctions_v1_test_simple.json"
BFCL_V4 = DATA / "bfcl" / "v4" / "BFCL_v4_simple_python.json"
ACE_EN = DATA / "acebench" / "data_en" / "data_normal_atom_bool.json"
OUTPUTS = DATA / "outputs"


def write_lines(path, records):
    path.write_text("".join(json.dumps(record, ensure_ascii=False) + "\n" for record in records), encoding="utf-8")
    return path


# --- gold -------------------------------------------------------------------------------------

@pytest.mark.parametrize("path, fmt", [
    (ROOT / "data" / "examples" / "gold.jsonl", "callscore"),
    (ROOT / "data" / "examples" / "gold.parquet", "callscore"),
    (BFCL_SIMPLE, "bfcl"), (BFCL_V4, "bfcl"),
    (ACE_EN, "acebench"), (DATA / "acebench" / "data_zh" / "data_normal_preference.json", "acebench"),
])
def test_gold_format_detected(path, fmt):
    assert detect_gold(path) == fmt


def test_bfcl_gold_finds_its_possible_answer_beside_it():
    table = read_gold(BFCL_SIMPLE)
    assert table.schema.names[:5] == GOLD_FIXED.names
    first = table.to_pylist()[0]
    assert first["id"] == "simple_0" and first["gold_calls"][0]["name"] == "calculate_triangle_area"


def test_bfcl_gold_answers_given_explicitly(tmp_path):
    question = tmp_path / "gorilla_openfunctions_v1_test_simple.json"
    question.write_bytes(BFCL_SIMPLE.read_bytes())
    with pytest.raises(InputError, match="no possible-answer file"):
        read_gold(question)
    answers = BFCL_SIMPLE.parent / "possible_answer" / BFCL_SIMPLE.name
    assert read_gold(question, "bfcl", answers=answers).num_rows == read_gold(BFCL_SIMPLE).num_rows


def test_bfcl_relevance_needs_no_answers():
    table = read_gold(DATA / "bfcl" / "v1" / "gorilla_openfunctions_v1_test_relevance.json")
    assert set(table.column("negative_type").to_pylist()) == {"no_tool"}


def test_acebench_gold_carries_its_columns():
    table = read_gold(ACE_EN, "acebench")
    assert {"language", "profile", "special_kind"} <= set(table.column_names)
    assert set(table.column("language").to_pylist()) == {"en"}


def test_callscore_gold_goes_through_the_loader():
    table = read_gold(ROOT / "data" / "examples" / "gold.jsonl")
    assert {"id", "gold_calls"} <= set(table.column_names)


def test_answer_file_given_as_gold_is_explained():
    with pytest.raises(InputError, match="answer file"):
        read_gold(BFCL_SIMPLE.parent / "possible_answer" / BFCL_SIMPLE.name)


def test_unknown_gold_shape_asks_for_the_format(tmp_path):
    path = write_lines(tmp_path / "gold.jsonl", [{"key": "1", "prompt": "hi"}])
    with pytest.raises(InputError, match="--gold-format") as error:
        read_gold(path)
    assert str(path) in str(error.value)


def test_a_row_with_an_id_but_no_gold_calls_is_callscore_missing_a_column(tmp_path):
    path = write_lines(tmp_path / "gold.jsonl", [{"id": "1", "prompt": "hi"}])
    with pytest.raises(InputError, match="field gold_calls: missing column"):
        read_gold(path)


def test_ambiguous_gold_asks_for_the_format(tmp_path):
    path = write_lines(tmp_path / "gold.jsonl", [{"id": "1", "gold_calls": [], "question": "q", "function": []}])
    with pytest.raises(InputError, match="could be callscore or bfcl.*--gold-format"):
        read_gold(path)
    assert read_gold(path, "callscore").num_rows == 1


@pytest.mark.parametrize("content, message", [
    ("", "empty file"), ("{not json\n", "not valid JSON"), ("[]", "empty JSON array"), ("[1, 2]\n", "JSON objects"),
])
def test_malformed_gold_files(tmp_path, content, message):
    path = tmp_path / "gold.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(InputError, match=message):
        read_gold(path)


def test_bad_format_names_and_missing_files(tmp_path):
    with pytest.raises(InputError, match="unknown gold format 'openai'"):
        read_gold(BFCL_SIMPLE, "openai")
    with pytest.raises(InputError, match="unknown prediction format"):
        read_predictions(BFCL_SIMPLE, "bfcl-v9")
    with pytest.raises(InputError, match="no such file"):
        read_gold(tmp_path / "absent.jsonl")
    with pytest.raises(InputError, match="not a callscore one"):
        read_gold(ROOT / "data" / "examples" / "gold.jsonl", answers=BFCL_SIMPLE)


# --- predictions ------------------------------------------------------------------------------

@pytest.mark.parametrize("name, fmt", [
    ("anthropic.jsonl", "provider"), ("gemini.json", "provider"), ("openai_responses.json", "provider"),
    ("openai_chat.jsonl", "provider"), ("qwen_text.jsonl", "callscore"),
])
def test_prediction_format_detected(name, fmt):
    assert detect_predictions(OUTPUTS / name) == fmt


@pytest.mark.parametrize("name, fmt", [
    ("anthropic.jsonl", "anthropic"), ("gemini.json", "gemini"), ("openai_responses.json", "responses"),
    ("openai_chat.jsonl", "openai"), ("qwen_text.jsonl", "qwen"),
])
def test_provider_dumps_read_with_named_and_detected_format(name, fmt):
    named = read_predictions(OUTPUTS / name, fmt)
    assert named.schema.equals(PREDICTIONS) and named.num_rows > 0
    assert any(calls for calls in named.column("calls").to_pylist())
    if fmt != "qwen":
        assert named.equals(read_predictions(OUTPUTS / name))


def test_bfcl_result_rows_take_the_model_from_the_directory(tmp_path):
    folder = tmp_path / "gpt-x"
    folder.mkdir()
    path = write_lines(folder / "gorilla_openfunctions_v1_test_simple_result.json", [
        {"id": "simple_0", "result": [{"calculate_triangle_area": '{"base": 10, "height": 5}'}]},
        {"id": "simple_1", "result": "I cannot help."}])
    table = read_predictions(path)
    assert table.column("model").to_pylist() == ["gpt-x", "gpt-x"]
    assert table.column("calls").to_pylist()[0] == [{"name": "calculate_triangle_area",
                                                     "arguments": '{"base": 10, "height": 5}'}]
    assert read_predictions(path, "bfcl", model="named").column("model").to_pylist() == ["named", "named"]


def test_bfcl_renamed_dots_use_the_gold_question_file(tmp_path):
    path = write_lines(tmp_path / "gorilla_openfunctions_v1_test_simple_result.json", [
        {"id": "simple_1", "result": [{"math_factorial": '{"number": 5}'}]}])
    with pytest.raises(InputError, match="id simple_1 calls math_factorial where the question declares "
                                         "math.factorial.*--renamed-dots"):
        read_predictions(path, "bfcl", model="m", gold_path=BFCL_SIMPLE)   # never a silent wrong_tool
    renamed = read_predictions(path, "bfcl", model="m", gold_path=BFCL_SIMPLE, renamed_dots=True)
    assert renamed.column("calls").to_pylist()[0][0]["name"] == "math.factorial"
    with pytest.raises(InputError, match="renamed_dots needs question_path"):
        read_predictions(path, "bfcl", model="m", renamed_dots=True)


def test_callscore_predictions_default_model(tmp_path):
    path = write_lines(tmp_path / "pred.jsonl", [{"id": "1", "calls": []}, {"id": "2", "model": "a", "calls": []}])
    assert read_predictions(path).column("model").to_pylist() == ["model", "a"]
    assert read_predictions(path, model="b").column("model").to_pylist() == ["b", "a"]


def test_provider_dump_model_fills_only_unnamed_records(tmp_path):
    path = write_lines(tmp_path / "dump.jsonl", [
        {"id": "1", "response": {"type": "message", "content": [{"type": "text", "text": "hi"}], "stop_reason": "end_turn"}},
        {"id": "2", "model": "claude", "response": {"type": "message", "content": [], "stop_reason": "end_turn"}}])
    assert read_predictions(path, model="mine").column("model").to_pylist() == ["mine", "claude"]


def test_ambiguous_predictions_ask_for_the_format(tmp_path):
    path = write_lines(tmp_path / "pred.jsonl", [{"id": "1", "calls": [], "result": []}])
    with pytest.raises(InputError, match="could be callscore or bfcl.*--pred-format"):
        read_predictions(path)


def test_unknown_prediction_shape_asks_for_the_format(tmp_path):
    path = write_lines(tmp_path / "pred.jsonl", [{"id": "1", "answer": "x"}])
    with pytest.raises(InputError, match="not a predictions format.*--pred-format"):
        read_predictions(path)


def test_broken_json_line_is_an_input_error(tmp_path):
    path = tmp_path / "pred.jsonl"
    path.write_text('{"id": "1", "result": []}\n{"id": "2", "result": [\n', encoding="utf-8")
    with pytest.raises(InputError, match="not valid JSON"):
        read_predictions(path, "anthropic")


@pytest.mark.parametrize("fmt", ["auto", "bfcl"])
def test_broken_bfcl_result_line_is_that_rows_malformed_verdict(tmp_path, fmt):
    path = tmp_path / "pred.jsonl"
    path.write_text('{"id": "1", "result": []}\n{"id": "2", "result": [\n', encoding="utf-8")
    malformed = read_predictions(path, fmt).to_pydict()["malformed"]
    assert malformed[0] is None and malformed[1].startswith("line 2: not valid JSON")


def test_callscore_loader_keeps_a_broken_line_with_an_id_as_malformed(tmp_path):
    path = tmp_path / "pred.jsonl"
    path.write_text('{"id": "1", "calls": []}\n{"id": "2", "calls": [\n{"calls": [\n', encoding="utf-8")
    unreadable = Unreadable()
    table = read_predictions(path, "callscore", unreadable=unreadable)
    assert table.column("id").to_pylist() == ["1", "2"]
    assert table.column("malformed").to_pylist()[0] is None
    assert table.column("malformed").to_pylist()[1].startswith("line 2: not valid JSON")
    assert [number for number, _ in unreadable.lines] == [3]
    assert unreadable.malformed == [(2, "2")]


def test_bfcl_result_that_is_neither_list_nor_text_is_malformed(tmp_path):
    path = write_lines(tmp_path / "r_result.json", [{"id": "simple_0", "result": 3},
                                                    {"id": "simple_1", "result": [{"f": "{not json"}]}])
    malformed = read_predictions(path, "bfcl", model="m").column("malformed").to_pylist()
    assert malformed[0] == "result is a int, not a list or a text"
    assert malformed[1].startswith("arguments of call 0 (f) are not valid JSON")
