import json
import sys
import types
from pathlib import Path

import pyarrow as pa
import pytest

from scorer.errors import InputError
from scorer.io.bfcl import (
    convert_accepted, convert_schema, declared_name,
    read_bfcl_gold, read_bfcl_results,
)
from scorer.io.formats import detect_gold, detect_predictions
from scorer.tables import GOLD_FIXED, PREDICTIONS

DATA = Path(__file__).resolve().parents[1] / "data" / "bfcl"
V1, V4 = DATA / "v1", DATA / "v4"
CATEGORIES = ("simple", "multiple_function", "parallel_function", "parallel_multiple_function", "relevance")


def peers_dir():
    return Path(__file__).resolve().parents[2] / ".." / "shared" / "peers"


def v1_gold(category):
    answer = V1 / "possible_answer" / f"gorilla_openfunctions_v1_test_{category}.json"
    return read_bfcl_gold(V1 / f"gorilla_openfunctions_v1_test_{category}.json",
                          answer if answer.exists() else None)


def rows(table):
    return {row["id"]: row for row in table.to_pylist()}


def args(call):
    return json.loads(call["arguments"])


# --- possible answers -> callscore notation -------------------------------------------------

@pytest.mark.parametrize("accepted, expected", [
    ([5], 5),
    (["x", "y"], {"$any": ["x", "y"]}),
    (["units", ""], {"$optional": "units"}),
    (["", 1.0, 2], {"$optional": {"$any": [1.0, 2]}}),
    ([""], {"$optional": ""}),
    ([[1.0, 3.0]], [1.0, 3.0]),                       # a list literal, not alternatives
    ([{"min": [3], "max": [4, ""]}], {"min": 3, "max": {"$optional": 4}}),
])
def test_convert_accepted(accepted, expected):
    assert convert_accepted(accepted) == expected


def test_gold_schema_and_simple_row():
    table = v1_gold("simple")
    assert table.schema.names[:5] == GOLD_FIXED.names
    assert table.schema.names[5:] == ["category", "query", "expect"]
    row = rows(table)["simple_0"]
    assert row["gold_calls"] == [{"name": "calculate_triangle_area",
                                  "arguments": '{"base": 10, "height": 5, "unit": {"$optional": "units"}}'}]
    assert row["category"] == "simple" and row["expect"] == "calls" and row["negative_type"] is None
    assert row["query"].startswith("Find the area of a triangle")
    assert row["reference_time"] is None


def test_tools_use_json_schema_type_names():
    tools = json.loads(rows(v1_gold("simple"))["simple_13"]["tools"])
    parameters = tools[0]["parameters"]
    assert parameters["type"] == "object" and parameters["x-bfcl-type"] == "dict"
    assert parameters["properties"]["interval"] == {
        "type": "array", "items": {"type": "number", "x-bfcl-type": "float"},
        "description": parameters["properties"]["interval"]["description"]}


def test_convert_schema_any_and_tuple():
    spec = {"type": "dict", "properties": {"a": {"type": "any"}, "b": {"type": "tuple", "items": {"type": "float"}}}}
    assert convert_schema(spec) == {
        "type": "object", "x-bfcl-type": "dict", "properties": {
            "a": {"x-bfcl-type": "any"},
            "b": {"type": "array", "x-bfcl-type": "tuple", "items": {"type": "number", "x-bfcl-type": "float"}}}}


def test_nested_object_answer_lists_values_per_key():
    budget = args(rows(v1_gold("multiple_function"))["multiple_function_8"]["gold_calls"][0])["budget"]
    assert budget == {"min": 300000, "max": 400000}


@pytest.mark.parametrize("row_id, name", [("parallel_function_0", "spotify.play"),       # `_1` suffix
                                          ("parallel_function_4", "calculate_bmi")])    # ` 1` suffix
def test_parallel_suffixes_are_stripped(row_id, name):
    calls = rows(v1_gold("parallel_function"))[row_id]["gold_calls"]
    assert [call["name"] for call in calls] == [name, name]


def test_suffix_kept_when_it_is_part_of_a_declared_name():
    assert declared_name("sort_2", {"sort_2", "sort"}) == "sort_2"
    assert declared_name("sort_2", {"sort"}) == "sort"
    assert declared_name("unknown_1", {"sort"}) == "unknown_1"


def test_unqualified_gold_name_means_the_one_declared_dotted_name():
    assert declared_name("find_closest", {"restaurant_search.find_closest"}) == "restaurant_search.find_closest"
    assert declared_name("find_closest_1", {"a.find_closest"}) == "a.find_closest"
    assert declared_name("find_closest", {"a.find_closest", "b.find_closest"}) == "find_closest"  # ambiguous


def test_parameter_written_beside_the_calls_joins_the_call_before_it():
    calls = rows(v1_gold("parallel_multiple_function"))["parallel_multiple_function_179"]["gold_calls"]
    assert [call["name"] for call in calls] == [
        "update_user_info", "soccer.get_last_match", "US_president.in_year", "find_card_in_deck"]
    assert args(calls[3]) == {"rank": "Ace", "suit": "Spades", "deck": {"$optional": []}}


@pytest.mark.parametrize("path", [V1 / "gorilla_openfunctions_v1_test_relevance.json", V4 / "BFCL_v4_irrelevance.json"])
def test_relevance_v1_and_irrelevance_are_negatives(path):
    table = read_bfcl_gold(path)
    assert table.num_rows == 2
    for row in table.to_pylist():
        assert row["gold_calls"] == [] and row["negative_type"] == "no_tool" and row["expect"] == "no_call"


def test_live_relevance_accepts_any_call():
    table = read_bfcl_gold(V4 / "BFCL_v4_live_relevance.json")
    row = table.to_pylist()[0]
    assert row["expect"] == "any_call" and row["gold_calls"] == [] and row["negative_type"] is None
    assert row["category"] == "live_relevance"
    assert "masked woman" in row["query"]   # v4 keeps the user text inside chat turns


def test_v4_answers_are_lists_of_calls():
    table = read_bfcl_gold(V4 / "BFCL_v4_parallel.json", V4 / "possible_answer" / "BFCL_v4_parallel.json")
    calls = rows(table)["parallel_0"]["gold_calls"]
    assert [args(call)["artist"] for call in calls] == ["Taylor Swift", "Maroon 5"]


def test_positive_category_needs_its_answers():
    with pytest.raises(InputError, match="possible_answer"):
        read_bfcl_gold(V1 / "gorilla_openfunctions_v1_test_simple.json")


def _gold_notes(table):
    from scorer.io.bfcl import GOLD_NOTES

    return json.loads((table.schema.metadata or {}).get(GOLD_NOTES, b"[]"))


def test_a_bad_question_row_is_named_and_skipped(tmp_path):
    # a line that is not JSON, a row without `function`, a repeated id: each row is named in
    # the gold notes and left out; the other rows are read
    path = tmp_path / "gorilla_openfunctions_v1_test_relevance.json"
    path.write_text('{"id": "relevance_0", "question": "q", "function": {}}\n{"id": \n'
                    '{"id": "relevance_2", "question": "q"}\n{"id": "relevance_0", "question": "q", "function": {}}\n'
                    '{"id": "relevance_4", "question": "q", "function": {}}\n')
    table = read_bfcl_gold(path)
    assert table.column("id").to_pylist() == ["relevance_0", "relevance_4"]
    notes = _gold_notes(table)
    assert len(notes) == 3
    assert "row 2" in notes[0] and "not valid JSON" in notes[0] and "skipped" in notes[0]
    assert "row 3" in notes[1] and "missing field function" in notes[1]
    assert "duplicate id 'relevance_0'" in notes[2]


def test_a_bad_answer_row_is_named_and_its_question_skipped(tmp_path):
    questions = tmp_path / "gorilla_openfunctions_v1_test_simple.json"
    answers = tmp_path / "possible_answer" / questions.name
    answers.parent.mkdir()
    function = {"name": "f", "parameters": {"type": "dict", "properties": {"a": {"type": "integer"}}}}
    questions.write_text("".join(json.dumps({"id": f"simple_{n}", "question": "q", "function": function}) + "\n"
                                 for n in range(3)))
    answers.write_text('{"id": "simple_0", "ground_truth": {"f": {"a": [1]}}}\n{"id": "simple_1"}\n'
                       '{"id": "simple_2", "ground_truth": {"f": [1]}}\n')
    table = read_bfcl_gold(questions, answers)
    assert table.column("id").to_pylist() == ["simple_0"]
    notes = _gold_notes(table)
    assert "row 2: expected fields id and ground_truth; skipped" in notes[0]
    assert "no possible answer for id 'simple_1'" in notes[1]
    assert "parameters of 'f' must be an object" in notes[2]


# --- results ---------------------------------------------------------------------------------

def write_lines(path, objects):
    path.write_text("".join(json.dumps(item) + "\n" for item in objects))
    return path


@pytest.fixture
def result_file(tmp_path):
    return write_lines(tmp_path / "gorilla_openfunctions_v1_test_simple_result.json", [
        {"id": "simple_0", "result": [{"calculate_triangle_area": "{\"base\": 10, \"height\": 5}"}]},
        {"id": "simple_1", "result": [{"math_factorial": {"number": 5}}]},
        {"id": "simple_2", "result": "[math.hypot(x=4, y=5)]"},
        {"id": "simple_3", "result": ["Let me compute.", {"math_factorial": "{\"number\": 3}"}]},
        {"id": "simple_4", "result": [{"f": "{\"a\": "}]},
        {"id": "simple_5", "result": []},
        {"result": ["only prose"]},
        {"id": "simple_7", "result": [{"f": "[1, 2]"}]},
    ])


def test_results_to_predictions(result_file):
    table = read_bfcl_results(result_file, "m")
    assert table.schema == PREDICTIONS
    got = rows(table)
    assert got["simple_0"]["calls"] == [{"name": "calculate_triangle_area", "arguments": '{"base": 10, "height": 5}'}]
    assert got["simple_1"]["calls"] == [{"name": "math_factorial", "arguments": '{"number": 5}'}]
    assert got["simple_2"]["calls"] is None and got["simple_2"]["output"] == "[math.hypot(x=4, y=5)]"
    assert got["simple_3"]["calls"][0]["name"] == "math_factorial" and got["simple_3"]["output"] == "Let me compute."
    assert got["simple_4"]["calls"] is None and "not valid JSON" in got["simple_4"]["malformed"]
    assert got["simple_5"]["calls"] == [] and got["simple_5"]["malformed"] is None
    assert got["simple_6"]["output"] == "only prose" and got["simple_6"]["calls"] is None  # id from position
    assert "not a JSON object" in got["simple_7"]["malformed"]
    assert set(table.column("model").to_pylist()) == {"m"}


def test_renamed_dots_map_back_to_declared_names(result_file, monkeypatch):
    parse = types.ModuleType("scorer.parse")
    parse.parse_output = lambda text: types.SimpleNamespace(
        calls=(("math_hypot", '{"x":4,"y":5}'),), malformed=None)
    monkeypatch.setitem(sys.modules, "scorer.parse", parse)
    question = V1 / "gorilla_openfunctions_v1_test_simple.json"  # simple_0, simple_1 (math.factorial), simple_13
    got = rows(read_bfcl_results(result_file, "m", question_path=question, renamed_dots=True))
    assert got["simple_1"]["calls"][0]["name"] == "math.factorial"
    assert got["simple_0"]["calls"][0]["name"] == "calculate_triangle_area"
    plain = rows(read_bfcl_results(result_file, "m"))
    assert plain["simple_1"]["calls"][0]["name"] == "math_factorial"


def test_renamed_dots_parse_text_results(tmp_path, monkeypatch):
    parse = types.ModuleType("scorer.parse")
    parse.parse_output = lambda text: types.SimpleNamespace(
        calls=(("math_factorial", '{"number":5}'),), malformed=None)
    monkeypatch.setitem(sys.modules, "scorer.parse", parse)
    result = write_lines(tmp_path / "gorilla_openfunctions_v1_test_simple_result.json", [
        {"id": "simple_0", "result": "x"}, {"id": "simple_1", "result": "<tool_call>..."}])
    got = rows(read_bfcl_results(result, "m", question_path=V1 / "gorilla_openfunctions_v1_test_simple.json",
                                 renamed_dots=True))
    assert got["simple_1"]["calls"] == [{"name": "math.factorial", "arguments": '{"number":5}'}]
    assert got["simple_1"]["output"] == "<tool_call>..."


def test_a_question_file_is_read_again_when_it_changes(tmp_path):
    """Question files are read once per version (a directory of results reads each one per
    model): a file rewritten between two reads declares its new names."""
    question = write_lines(tmp_path / "gorilla_openfunctions_v1_test_simple.json", [
        {"id": "simple_0", "function": [{"name": "math.factorial", "parameters": {"type": "dict", "properties": {}}}]}])
    result = write_lines(tmp_path / "gorilla_openfunctions_v1_test_simple_result.json", [
        {"id": "simple_0", "result": [{"math_factorial": "{}"}]}])
    first = rows(read_bfcl_results(result, "m", question_path=question, renamed_dots=True))
    assert first["simple_0"]["calls"][0]["name"] == "math.factorial"
    write_lines(question, [{"id": "simple_0", "function": [
        {"name": "math.factorials", "parameters": {"type": "dict", "properties": {}}}]}])   # another size
    again = rows(read_bfcl_results(result, "m", question_path=question, renamed_dots=True))
    assert again["simple_0"]["calls"][0]["name"] == "math_factorial"   # no longer a declared name's spelling


def test_renamed_dots_needs_questions(result_file):
    with pytest.raises(InputError, match="question_path"):
        read_bfcl_results(result_file, "m", renamed_dots=True)


def test_a_bad_result_row_is_that_rows_malformed_verdict(tmp_path):
    # one row without `result`, one line that is not JSON, one that is not an object: each is
    # its own row's malformed verdict (the id from the line's position, as BFCL pairs rows);
    # the rows around them are read
    path = tmp_path / "gorilla_openfunctions_v1_test_simple_result.json"
    path.write_text('{"id": "simple_0", "output": 1}\n{"id": "simple_1", "result": [\n[1]\n'
                    '{"id": "simple_3", "result": "[f(a=1)]"}\n')
    got = rows(read_bfcl_results(path, "m"))
    assert got["simple_0"]["malformed"] == "line 1: missing field result"
    assert got["simple_1"]["malformed"].startswith("line 2: not valid JSON")
    assert got["simple_2"]["malformed"] == "line 3: expected a JSON object"
    assert got["simple_3"]["output"] == "[f(a=1)]" and got["simple_3"]["malformed"] is None


# --- format detection ------------------------------------------------------------------------

def test_detect_formats(tmp_path, result_file):
    assert detect_gold(V1 / "gorilla_openfunctions_v1_test_simple.json") == "bfcl"
    assert detect_gold(V4 / "BFCL_v4_live_relevance.json") == "bfcl"
    native = write_lines(tmp_path / "gold.jsonl", [{"id": "1", "gold_calls": []}])
    assert detect_gold(native) == "callscore"
    assert detect_predictions(result_file) == "bfcl"
    assert detect_predictions(write_lines(tmp_path / "p.jsonl", [{"id": "1", "output": "hi"}])) == "callscore"
    with pytest.raises(InputError):
        detect_gold(write_lines(tmp_path / "odd.jsonl", [{"key": "1", "text": "?"}]))
    with pytest.raises(InputError):
        detect_predictions(write_lines(tmp_path / "odd2.jsonl", [{"key": "1"}]))
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n")
    with pytest.raises(InputError):
        detect_gold(empty)


# --- the shared leaderboard files ------------------------------------------------------------

@pytest.fixture
def leaderboard():
    root = peers_dir() / "bfcl-2024-08"
    if not root.is_dir():
        pytest.skip("../shared/peers/bfcl-2024-08 is absent")
    return root


def leaderboard_gold(root, category):
    answer = root / "data" / "possible_answer" / f"gorilla_openfunctions_v1_test_{category}.json"
    return read_bfcl_gold(root / "data" / f"gorilla_openfunctions_v1_test_{category}.json",
                          answer if answer.exists() else None)


def test_leaderboard_gold_loads_with_declared_names(leaderboard):
    sizes = {}
    for category in CATEGORIES:
        table = leaderboard_gold(leaderboard, category)
        sizes[category] = table.num_rows
        undeclared = [(row["id"], call["name"]) for row in table.to_pylist() for call in row["gold_calls"]
                      if call["name"] not in {tool["name"] for tool in json.loads(row["tools"])}]
        # simple_363's `find_closest` is read as the declared `restaurant_search.find_closest`
        assert undeclared == []
    assert sizes == {"simple": 400, "multiple_function": 200, "parallel_function": 200,
                     "parallel_multiple_function": 200, "relevance": 240}


def test_all_leaderboard_results_load(leaderboard):
    gold_ids = {category: leaderboard_gold(leaderboard, category).column("id").to_pylist() for category in CATEGORIES}
    models = sorted(path.name for path in (leaderboard / "result").iterdir())
    assert len(models) == 16
    for model in models:
        total = 0
        for category in CATEGORIES:
            table = read_bfcl_results(
                leaderboard / "result" / model / f"gorilla_openfunctions_v1_test_{category}_result.json", model)
            assert table.column("id").to_pylist() == gold_ids[category]
            total += table.num_rows
        assert total == 1240, model


# --- `""` and `[]` for a parameter the gold may leave out ------------------------------------

@pytest.mark.parametrize("given, outcome", [
    ("", "correct"),                      # an empty text for an optional parameter: left out
    ([], "correct"),                      # an empty list too
    ("fahrenheit", "param_error"),        # a value that is given must still be right
])
def test_empty_value_for_optional_parameter_is_left_out(given, outcome):
    from helpers import call, verdicts_for

    gold = [{"id": "r", "gold_calls": [call("get_weather", city="北京", unit={"$optional": "celsius"})]}]
    verdict = verdicts_for(gold, [{"id": "r", "calls": [call("get_weather", city="北京", unit=given)]}])[("m", "r")]
    assert verdict["outcome"] == outcome


def test_empty_value_for_required_parameter_stays_wrong():
    from helpers import call, verdicts_for

    # fahrenheit, not the schema's default celsius: gold at the default may be left out (issue 29)
    gold = [{"id": "r", "gold_calls": [call("get_weather", city="北京", unit="fahrenheit")]}]
    verdict = verdicts_for(gold, [{"id": "r", "calls": [call("get_weather", city="北京", unit="")]}])[("m", "r")]
    assert verdict["outcome"] == "param_error"


def test_undotted_names_in_text_results_are_caught_without_renamed_dots(tmp_path):
    question = V1 / "gorilla_openfunctions_v1_test_simple.json"   # simple_1 declares math.factorial
    result = write_lines(tmp_path / "gorilla_openfunctions_v1_test_simple_result.json", [
        {"id": "simple_0", "result": "[calculate_triangle_area(base=10, height=5)]"},
        {"id": "simple_1", "result": "[math_factorial(number=5)]"}])
    with pytest.raises(InputError, match="id simple_1 calls math_factorial .*--renamed-dots"):
        read_bfcl_results(result, "m", question_path=question)


def test_dotted_names_written_with_dots_need_no_option(tmp_path):
    question = V1 / "gorilla_openfunctions_v1_test_simple.json"
    result = write_lines(tmp_path / "gorilla_openfunctions_v1_test_simple_result.json", [
        {"id": "simple_1", "result": [{"math.factorial": '{"number": 5}'}]},
        {"id": "simple_0", "result": "[math.factorial(number=5)]"}])
    got = rows(read_bfcl_results(result, "m", question_path=question))
    assert got["simple_1"]["calls"][0]["name"] == "math.factorial"


def test_a_model_that_mostly_writes_the_dots_keeps_its_one_slip(tmp_path):
    # a prompt-mode model calling math_factorial once among dotted calls made a mistake that
    # BFCL counts as such: the file is read, not stopped
    question = V1 / "gorilla_openfunctions_v1_test_simple.json"
    result = write_lines(tmp_path / "gorilla_openfunctions_v1_test_simple_result.json", [
        {"id": "simple_1", "result": "[math_factorial(number=5)]"},
        {"id": "simple_1", "result": "[math.factorial(number=5)]"},
        {"id": "simple_1", "result": [{"math.factorial": '{"number": 5}'}]}])
    table = read_bfcl_results(result, "m", question_path=question)
    assert table.column("output").to_pylist()[0] == "[math_factorial(number=5)]"


# --- a possible answer that lists no value -------------------------------------------------

def _record_call(**given):
    arguments = {"outofscope": ["what is the weather like"], **given}
    return {"name": "record", "arguments": json.dumps(arguments)}


EMPTY_LISTS = {name: [] for name in ("acc_routing_start", "atm_finder_start", "faq_link_accounts_start",
                                     "get_balance_start", "get_transactions_start")}


@pytest.mark.parametrize("compat", [None, "bfcl"])
@pytest.mark.parametrize("given, outcome, subtype", [
    # BFCL's checker: a value given for `acc_routing_start: []` is among no accepted value
    # (the type check finds no answer to match) ...
    (EMPTY_LISTS, "param_error", "incorrect_value"),
    # ... and the parameter left out is required (and not marked optional with "")
    ({}, "param_error", "missing_arg"),
])
def test_a_parameter_with_no_accepted_value_makes_every_answer_wrong(compat, given, outcome, subtype):
    from scorer.options import Options
    from scorer.pipeline import Scorer, score_tables

    gold = read_bfcl_gold(V4 / "BFCL_v4_live_simple.json", V4 / "possible_answer" / "BFCL_v4_live_simple.json")
    assert gold.num_rows == 2  # the file is read whole; the row is reported
    notes = Scorer(gold, "gold", Options()).result.notes()
    assert len(notes) == 1 and "(id live_simple_112-68-0): no accepted value for record.acc_routing_start, " \
                                "record.atm_finder_start" in notes[0]
    predictions = pa.table({"id": ["live_simple_112-68-0"], "model": ["m"], "calls": [[_record_call(**given)]],
                            "output": [None], "malformed": [None]}, schema=PREDICTIONS)
    verdict = score_tables(predictions, gold, Options(compat=compat)).verdicts.to_pylist()
    verdict = next(row for row in verdict if row["id"] == "live_simple_112-68-0")
    assert (verdict["outcome"], verdict["subtype"], verdict["decided"]) == (outcome, subtype, True)


@pytest.mark.parametrize("compat, outcome, subtype", [
    (None, "correct", None),                    # callscore: deck is find_card_in_deck's, 4 calls are right
    ("bfcl", "miss_recall", "partial_calls"),   # BFCL counts the 5 entries of its answer as 5 calls
])
def test_bfcl_counts_every_entry_of_its_answer_as_a_call(compat, outcome, subtype):
    from scorer.options import Options
    from scorer.pipeline import score_tables

    gold = v1_gold("parallel_multiple_function")
    assert gold.column("bfcl_answer_calls").to_pylist() == [None, 5]   # rows 3 and 179
    calls = [("update_user_info", {"user_id": 12345, "update_info": {"name": "John Doe", "email": "johndoe@example.com"}}),
             ("soccer.get_last_match", {"team_name": "Man U", "include_stats": True}),
             ("US_president.in_year", {"year": 1980, "full_name": True}),
             ("find_card_in_deck", {"rank": "Ace", "suit": "Spades"})]
    predictions = pa.table({"id": ["parallel_multiple_function_179"], "model": ["m"],
                            "calls": [[{"name": name, "arguments": json.dumps(arguments)} for name, arguments in calls]],
                            "output": [None], "malformed": [None]}, schema=PREDICTIONS)
    verdicts = score_tables(predictions, gold, Options(compat=compat)).verdicts.to_pylist()
    verdict = next(row for row in verdicts if row["id"] == "parallel_multiple_function_179")
    assert (verdict["outcome"], verdict["subtype"]) == (outcome, subtype)


# --- bfcl-eval's layout: result/<model>/<group>/BFCL_v4_<category>_result.json ---------------

@pytest.mark.parametrize("model, outcome", [
    ("DeepSeek-V3.2-Exp-FC", "correct"),      # bfcl-eval's model_config.py: underscore_to_dot=True
    ("my-vllm-model-FC", "miss_recall"),       # not listed: math_factorial is not math.factorial
])
def test_v4_result_folders_name_the_model(tmp_path, model, outcome):
    from scorer.io.bfcl import model_of_result
    from scorer.options import Options
    from scorer.pipeline import score_files

    folder = tmp_path / "result" / model / "non_live"
    folder.mkdir(parents=True)
    write_lines(folder / "BFCL_v4_simple_python_result.json", [
        {"id": "simple_python_0", "result": [{"calculate_triangle_area": '{"base": 10, "height": 5}'}]},
        {"id": "simple_python_1", "result": [{"math_factorial": '{"number": 5}'}]}])
    assert model_of_result(folder / "BFCL_v4_simple_python_result.json") == model
    assert model_of_result(tmp_path / "result" / model / "agentic" / "memory" / "kv" / "x_result.json") == model
    out = tmp_path / "v.jsonl"
    run = score_files(tmp_path / "result", V4 / "BFCL_v4_simple_python.json", Options(compat="bfcl"), out=out)
    verdicts = {row["id"]: row for row in map(json.loads, out.read_text().splitlines())}
    assert {row["model"] for row in verdicts.values()} == {model}
    assert verdicts["simple_python_0"]["outcome"] == "correct"
    assert verdicts["simple_python_1"]["outcome"] == outcome
    assert any("not in BFCL's model list" in note for note in run.notes()) == (outcome != "correct")
