"""BFCL's java and javascript categories: arguments written as source text are read by the
declared type (scorer/io/bfcl_values.py), so `"true"` for a boolean, `"50L"` for a long or an
`Arrays.asList(...)` for an ArrayList compare with the typed possible answer. Cases written
from the Java/JavaScript literal rules; the small question/answer/result files imitate BFCL's
file formats (no BFCL data copied)."""

import json

import pytest

from scorer.io.bfcl import read_bfcl_gold, read_bfcl_results
from scorer.io.bfcl_values import split_top_level, typed_value
from scorer.pipeline import score_tables


@pytest.mark.parametrize("text, declared, value", [
    ("true", "boolean", True), ("false", "Boolean", False),
    ("50", "integer", 50), ("50L", "long", 50), ("50", "long", 50), ("12n", "Bigint", 12),
    ("1.5f", "float", 1.5), ("2.0", "double", 2.0),
    ('"SELECT * FROM t"', "String", "SELECT * FROM t"), ("'x'", "char", "x"), ("plain", "String", "plain"),
    ('new ArrayList<>(Arrays.asList("a", "b"))', "ArrayList", ["a", "b"]),
    ("Arrays.asList(1, 2)", "List", [1, 2]),
    ("new int[]{1, 2, 3}", "Array", [1, 2, 3]),
    ('new ArrayList<String>() {{ add("x"); add("y"); }}', "ArrayList", ["x", "y"]),
    ("new ArrayList<>()", "ArrayList", []),
    ('new HashMap<String, Object>() {{ put("limit", 50); put("schema", "public"); }}', "HashMap",
     {"limit": 50, "schema": "public"}),
    ('Map.of("a", 1, "b", true)', "HashMap", {"a": 1, "b": True}),
    ("new HashMap<>()", "HashMap", {}),
    ("{limit: 50, 'schema': 'public'}", "dict", {"limit": 50, "schema": "public"}),
    ("[1, [2, 3], 'a, b']", "array", [1, [2, 3], "a, b"]),
    ("new Array(1, 2)", "array", [1, 2]),
    ("mapController", "any", "mapController"),   # `any` stays the text (a variable's name)
    ("maybe", "boolean", "maybe"),               # not the declared type: stays text, compares as wrong
    ("5.5", "integer", "5.5"),
])
def test_source_text_read_by_declared_type(text, declared, value):
    assert typed_value(text, declared) == value


def test_split_respects_quotes_and_brackets():
    assert split_top_level('"a, b", [1, 2], {k: (3, 4)}') == ['"a, b"', "[1, 2]", "{k: (3, 4)}"]


def _write(path, rows):
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return path


def test_java_category_end_to_end(tmp_path):
    function = {"name": "Analyzer.propose", "parameters": {"type": "dict", "required": ["object", "useShortName", "params"],
                "properties": {"object": {"type": "any"}, "useShortName": {"type": "boolean"},
                               "params": {"type": "HashMap"}, "limit": {"type": "long"}}}}
    question = _write(tmp_path / "gorilla_openfunctions_v1_test_java.json",
                      [{"id": "java_0", "question": "q", "function": function}])
    (tmp_path / "possible_answer").mkdir()
    answer = _write(tmp_path / "possible_answer" / "gorilla_openfunctions_v1_test_java.json",
                    [{"id": "java_0", "ground_truth": {"Analyzer.propose": {
                        "object": ["Customers"], "useShortName": [True], "params": [{"limit": [50], "schema": ["public"]}],
                        "limit": [10, ""]}}}])
    arguments = {"object": "Customers", "useShortName": "true", "limit": "10L",
                 "params": 'new HashMap<String, Object>() {{ put("limit", 50); put("schema", "public"); }}'}
    wrong = dict(arguments, useShortName="false")
    result = _write(tmp_path / "gorilla_openfunctions_v1_test_java_result.json",
                    [{"id": "java_0", "result": [{"Analyzer.propose": json.dumps(arguments)}]}])
    (tmp_path / "wrong").mkdir()
    result_wrong = _write(tmp_path / "wrong" / "gorilla_openfunctions_v1_test_java_result.json",
                          [{"id": "java_0", "result": [{"Analyzer.propose": json.dumps(wrong)}]}])
    gold = read_bfcl_gold(question, answer)
    tools = json.loads(gold.column("tools")[0].as_py())
    assert tools[0]["parameters"]["properties"]["params"]["type"] == "object"
    assert tools[0]["parameters"]["properties"]["useShortName"]["type"] == "boolean"
    right = score_tables(read_bfcl_results(result, "m", question), gold).verdicts.to_pylist()[0]
    assert (right["outcome"], right["decided"]) == ("correct", True)
    off = score_tables(read_bfcl_results(result_wrong, "m", question), gold).verdicts.to_pylist()[0]
    assert (off["outcome"], off["subtype"], off["argument"]) == ("param_error", "incorrect_value", "useShortName")
