"""BFCL's java and javascript categories under --compat bfcl: the type converters and the call
readers, each case written from BFCL's rule (eval_checker/java_type_converter.py,
js_type_converter.py, model_handler/java_parser.py, js_parser.py of 2024-08), then whole rows."""

import pytest

from scorer.compat import bfcl, bfcl_source
from scorer.compat.bfcl_source import js_value, java_value


@pytest.mark.parametrize("text, type_name, item_type, expected", [
    ("50", "integer", None, 50),
    ("50L", "long", None, 50),
    ("50", "long", None, "50"),                 # a long needs its L: the text stays text
    ("1.5f", "float", None, 1.5),
    ("1.5", "float", None, "1.5"),              # a float needs its f
    ("1.5", "double", None, 1.5),
    ("1e3", "double", None, 1000.0),
    ("true", "boolean", None, True),
    ("True", "boolean", None, "True"),
    ("'a'", "char", None, "'a'"),               # BFCL's char pattern cannot match: never converted
    ('"x"', "String", None, '"x"'),             # a String is taken as written
    ('new ArrayList<>(Arrays.asList("a", "b"))', "ArrayList", "String", ["a", "b"]),
    ("new ArrayList<Integer>(Arrays.asList(1, 2))", "ArrayList", "integer", [1, 2]),
    ("new ArrayList<Long>() {{ add(1L); add(2); }}", "ArrayList", "long", [1, "2"]),
    ("new ArrayList<>()", "ArrayList", "String", []),
    ("Arrays.asList(1, 2)", "ArrayList", "integer", "Arrays.asList(1, 2)"),   # only inside new ArrayList<>(...)
    ('new String[]{"a", "b"}', "Array", "String", ['"a"', '"b"']),          # items of an Array keep their quotes
    ("new int[]{1, 2}", "Array", "integer", [1, 2]),
    ('new HashMap<String, Object>() {{ put("k", 1); put("s", "v"); }}', "HashMap", None, {"k": 1, "s": "v"}),
    ("new HashMap<>()", "HashMap", None, {}),
    ('Map.of("k", 1)', "HashMap", None, 'Map.of("k", 1)'),
])
def test_java_values_read_by_declared_type(text, type_name, item_type, expected):
    assert java_value(text, type_name, item_type) == expected


def test_java_types_bfcl_does_not_convert():
    with pytest.raises(bfcl_source.Unconvertible):
        java_value("new HashSet<>()", "Set")
    with pytest.raises(bfcl_source.Unconvertible):
        java_value("x", "Map")


@pytest.mark.parametrize("text, type_name, item_type, expected", [
    ("'x'", "String", None, "x"),
    ('"x"', "String", None, "x"),
    ("x", "String", None, "x"),
    ("50", "integer", None, 50),
    ("50n", "Bigint", None, 50),
    ("50", "Bigint", None, "50"),
    ("1.5", "float", None, 1.5),
    ("1e3", "float", None, "1e3"),              # no exponent in BFCL's JavaScript float
    ("true", "Boolean", None, True),
    ("[1, 2]", "array", "integer", [1, 2]),
    ("new Array('a', 'b')", "array", "String", ["a", "b"]),
    ("[[1, 2], [3, 4]]", "array", None, [[1, 2], [3, 4]]),
    ("{a: 1, 'b': 'x'}", "dict", None, {"a": 1, "b": "x"}),
    ("{a: [1, 2], b: true}", "dict", None, {"a": [1, 2], "b": True}),
    ("{a: {b: 1}}", "dict", None, {"a": "{b: 1"}),   # the object is cut at its first }
    ("{}", "dict", None, {}),
    ("data", "dict", None, "data"),
])
def test_javascript_values_read_by_declared_type(text, type_name, item_type, expected):
    assert js_value(text, type_name, item_type) == expected


JAVA_FUNCTION = {"name": "Store.put", "parameters": {"type": "object", "required": ["key", "limit"], "properties": {
    "key": {"type": "string", "x-bfcl-type": "String"}, "limit": {"type": "integer", "x-bfcl-type": "long"},
    "tags": {"type": "array", "x-bfcl-type": "ArrayList", "items": {"type": "string", "x-bfcl-type": "String"}}}}}
JAVA_ANSWER = [{"Store.put": {"key": ["k1"], "limit": [50], "tags": [["a", "b"], ""]}}]


@pytest.mark.parametrize("arguments, error_type", [
    ({"key": "k1", "limit": "50L"}, None),
    ({"key": "k1", "limit": "50L", "tags": 'new ArrayList<>(Arrays.asList("a", "b"))'}, None),
    ({"key": "k1", "limit": "50"}, "type_error:simple"),     # "50" stays text where a long is declared
    ({"key": "k1", "limit": 50}, "type_error:java"),          # not source text at all
    ({"key": "K1", "limit": "50L"}, None),                     # strings still compare standardized
    ({"key": "k2", "limit": "50L"}, "value_error:string"),
])
def test_java_rows_checked_after_conversion(arguments, error_type):
    verdict = bfcl.judge("java", [JAVA_FUNCTION], JAVA_ANSWER, "gpt-4-0125-preview-FC",
                         [("Store.put", arguments)], None, renamed_dots=False)
    assert verdict.valid == (error_type is None) and verdict.error_type == error_type


def test_java_and_javascript_call_texts_read_by_their_grammar():
    pytest.importorskip("tree_sitter_java")
    pytest.importorskip("tree_sitter_javascript")
    assert bfcl_source.java_calls('Store.put(key="k1", tags=new ArrayList<>(Arrays.asList("a", "b")), n=3)') == \
        [{"Store.put": {"key": "k1", "tags": 'new ArrayList<>(Arrays.asList("a", "b"))', "n": "3"}}]
    assert bfcl_source.java_calls("int x = 1;") == {}              # no call: not a call list
    with pytest.raises(bfcl_source.SourceError):
        bfcl_source.java_calls('Store.put(key="k1"')
    assert bfcl_source.js_calls("put(key='k1', flag=true)") == [{"put": {"key": "k1", "flag": "true"}}]
    assert bfcl_source.js_calls("put(key='k1'), put(key='k2')") is None   # only a call that is a statement
    text = '[Store.put(key="k1", limit="50L")]'   # gpt-4's prompt mode: Java calls inside Python's brackets
    assert bfcl.judge("java", [JAVA_FUNCTION], JAVA_ANSWER, "gpt-4-0125-preview", None, text).valid
    assert bfcl.judge("java", [JAVA_FUNCTION], JAVA_ANSWER, "gpt-4-0125-preview", None, "[Store.put(key=)]").error_type \
        == "ast_decoder:decoder_failed"


def test_without_tree_sitter_prompt_rows_are_left_undecided(monkeypatch):
    monkeypatch.setattr(bfcl_source, "_PARSERS", {"Java": None})
    verdict = bfcl.judge("java", [JAVA_FUNCTION], JAVA_ANSWER, "gpt-4-0125-preview", None, '[Store.put(key="k1")]')
    assert verdict.valid is None and "bfcl-java" in verdict.message
    # a function-calling result needs no grammar
    assert bfcl.judge("java", [JAVA_FUNCTION], JAVA_ANSWER, "gpt-4-0125-preview-FC",
                      [("Store.put", {"key": "k1", "limit": "50L"})], None).valid
