"""parse_output and parse_calls_value: one case per format and per rule of the heuristic."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer.parse import EMPTY, Parsed, canonical_json, parse_calls_value, parse_output
from scorer.parse_bulk import parse_outputs


def calls(*pairs):
    """Expected calls from (name, arguments dict) pairs."""
    return tuple((name, canonical_json(arguments)) for name, arguments in pairs)


READ = [
    # OpenAI tool_calls list, arguments as a JSON string and as an object
    ('[{"id": "call_1", "type": "function", "function": {"name": "get_weather", '
     '"arguments": "{\\"city\\": \\"北京\\", \\"days\\": 3}"}}]',
     calls(("get_weather", {"city": "北京", "days": 3}))),
    ('[{"id": "c", "type": "function", "function": {"name": "f", "arguments": {"x": [1, {"y": null}]}}}]',
     calls(("f", {"x": [1, {"y": None}]}))),
    # an assistant message holding tool_calls
    ('{"role": "assistant", "content": null, "tool_calls": [{"id": "a", "type": "function", '
     '"function": {"name": "f", "arguments": "{}"}}, {"id": "b", "type": "function", '
     '"function": {"name": "g", "arguments": "{\\"b\\": true}"}}]}',
     calls(("f", {}), ("g", {"b": True}))),
    # a message whose tool_calls are empty: its content text is read
    ('{"role": "assistant", "tool_calls": [], "content": "<tool_call>{\\"name\\": \\"f\\", '
     '\\"arguments\\": {\\"a\\": 1}}</tool_call>"}', calls(("f", {"a": 1}))),
    # a legacy function_call message
    ('{"role": "assistant", "function_call": {"name": "f", "arguments": "{\\"a\\": 2}"}}',
     calls(("f", {"a": 2}))),
    # xLAM
    ('\n{"tool_calls": [{"name": "spotify.play", "arguments": {"artist": "Taylor Swift", "duration": 20}}, '
     '{"name": "spotify.play", "arguments": {"artist": "Maroon 5", "duration": 15}}]}',
     calls(("spotify.play", {"artist": "Taylor Swift", "duration": 20}),
           ("spotify.play", {"artist": "Maroon 5", "duration": 15}))),
    # plain list and single object; the argument-key aliases
    ('[{"name": "f", "arguments": {"a": 1.5}}]', calls(("f", {"a": 1.5}))),
    ('{"name": "f", "parameters": {"a": "x"}}', calls(("f", {"a": "x"}))),
    ('[{"name": "f", "params": {"a": 1}}, {"name": "g", "args": {"b": 2}}]',
     calls(("f", {"a": 1}), ("g", {"b": 2}))),
    ('[{"type": "tool_use", "id": "t", "name": "f", "input": {"a": 1}}]', calls(("f", {"a": 1}))),
    ('[{"function": "integral", "parameters": {"a": 1}}]', calls(("integral", {"a": 1}))),
    ('[{"func": "sum", "params": {"n": [3, 5]}}]', calls(("sum", {"n": [3, 5]}))),
    # a call without arguments, and one with an empty arguments string
    ('[{"type": "function", "function": {"name": "now"}}]', calls(("now", {}))),
    ('[{"name": "now", "arguments": ""}]', calls(("now", {}))),
    # several JSON values in a row (Llama 3.1)
    ('{"name": "f", "parameters": {"a": 1}}; {"name": "g", "parameters": {"b": 2}}',
     calls(("f", {"a": 1}), ("g", {"b": 2}))),
    # a JSON list followed by prose
    ('[{"name": "f", "arguments": {"a": 1}}]\nI called f for you.', calls(("f", {"a": 1}))),
    # Python-literal dicts
    ("[{'name': 'b.get', 'parameters': {'p': 'L', 'on': True}}]", calls(("b.get", {"p": "L", "on": True}))),
    # Hermes / Qwen blocks, one and several, closing tag missing at the end
    ('<tool_call>\n{"arguments": {"a": 1}, "name": "f"}\n</tool_call>', calls(("f", {"a": 1}))),
    ('<tool_call>\n{"name": "f", "arguments": {"a": 1}}\n</tool_call>\n'
     '<tool_call>\n{"name": "g", "arguments": {}}\n</tool_call>\n', calls(("f", {"a": 1}), ("g", {}))),
    ('I will look it up.\n<tool_call>\n{"name": "f", "arguments": {"a": 1}}', calls(("f", {"a": 1}))),
    # granite
    ('<function_call> {"name": "f", "arguments": {"a": 1}} <function_call> {"name": "g", "arguments": {"b": 2}}',
     calls(("f", {"a": 1}), ("g", {"b": 2}))),
    # Python-call syntax
    ("[get_weather(city='北京', days=3)]", calls(("get_weather", {"city": "北京", "days": 3}))),
    ("f(a=1)", calls(("f", {"a": 1}))),
    ("f()", calls(("f", {}))),
    ("[f(a=1), g(b=2)]", calls(("f", {"a": 1}), ("g", {"b": 2}))),
    ("f(a=1), g(b=2)", calls(("f", {"a": 1}), ("g", {"b": 2}))),
    ("f(a=1)\ng(b=2)", calls(("f", {"a": 1}), ("g", {"b": 2}))),
    ("math.factorial(n=5)", calls(("math.factorial", {"n": 5}))),
    ("[f(x=[1, (2, 3)], y={'k': None}, z=-4, w=+2.5, t=True, n=None)]",
     calls(("f", {"x": [1, [2, 3]], "y": {"k": None}, "z": -4, "w": 2.5, "t": True, "n": None}))),
    ("[f(a=true, b=false, c=null)]", calls(("f", {"a": True, "b": False, "c": None}))),
    # a bare identifier stands for its name (BFCL's reading)
    ("[train(data=my_data)]", calls(("train", {"data": "my_data"}))),
    ("f(big=123456789012345678901234567890)", calls(("f", {"big": 123456789012345678901234567890}))),
    # a call list missing only its closing bracket
    ("[f(a=1), g(b=[])", calls(("f", {"a": 1}), ("g", {"b": []}))),
    # markdown code fences, with and without a language, unclosed
    ("```python\n[f(a=1)]\n```", calls(("f", {"a": 1}))),
    ("```\n[f(a=1)]\n```", calls(("f", {"a": 1}))),
    ("```[f(a=1)]```", calls(("f", {"a": 1}))),
    ('```json\n[\n  {\n    "name": "gcd",\n    "arguments": {"a": 96}\n  }\n]\n```', calls(("gcd", {"a": 96}))),
    ("Here you go:\n```python\n[f(a=1)]", calls(("f", {"a": 1}))),
    # markdown-escaped underscores
    ("[get\\_weather(city\\_name='x')]", calls(("get_weather", {"city_name": "x"}))),
    ("get\\_weather(city\\_name='x')", calls(("get_weather", {"city_name": "x"}))),
    # special tokens
    ("<|start_header_id|>retrieve(topic='x')", calls(("retrieve", {"topic": "x"}))),
    ('<|python_tag|>{"name": "f", "parameters": {"a": 1}}', calls(("f", {"a": 1}))),
    ('[TOOL_CALLS] [{"name": "f", "arguments": {"a": 1}}]', calls(("f", {"a": 1}))),
    # prose before and after the call
    ("Based on the question:\n\n[f(a=1), g(b=[1, 2])]\n\nNote: (f) was used first.",
     calls(("f", {"a": 1}), ("g", {"b": [1, 2]}))),
    ("retrieve(topic='gw')\nUser 0: The provided function (sadly) cannot do that.", calls(("retrieve", {"topic": "gw"}))),
]


@pytest.mark.parametrize("text, expected", READ)
def test_reads_calls(text, expected):
    assert parse_output(text) == Parsed(expected, None)


NO_CALL = [
    None, "", "   \n", "I think (maybe) you should ask again.", "Paris(France) is nice.",
    "None of the provided functions can be used (sorry).", "[]", "\n[]", "[None]", "[1, 2]",
    '{"answer": 42}', '{"name": "Alice"}', '"The provided functions are insufficient."',
    "[see the docs](https://example.com/f(x))",
    # example code in a prose answer is not an attempt, fenced or not
    "You can do it yourself:\n```python\nimport math\nprint(math.sqrt(2))\n```",
    'Try this:\n```python\nx = compute()\n```\nand then\n```python\nprint("done", x)\n```',
    'Then you could write\nprint("hello")\nin a file.',
    # a role/message object without calls
    '{"role": "assistant", "content": "No tool fits.", "tool_calls": null}',
]


@pytest.mark.parametrize("text", NO_CALL)
def test_no_call_is_an_empty_prediction(text):
    assert parse_output(text) == EMPTY


MALFORMED = [
    ('<tool_call>\n{"name": "f", "arguments": {"a": 1}\n</tool_call>', "tool_call block 1: invalid JSON"),
    ("<tool_call>\n</tool_call>", "tool_call block 1: empty"),
    ("<tool_call>I would call f.</tool_call>", "tool_call block 1: not a call"),
    ('<tool_call>{"name": "f", "arguments": {}}</tool_call><tool_call>{"name": "g", "arguments": {</tool_call>',
     "tool_call block 2"),
    ("<function_call> {name: f}", "function_call block 1"),
    ("[f(a=1", "invalid call syntax"),
    ("f('x')", "call 1 (f): positional arguments"),
    ("calculate_height({'v': 5, 'g': 9.8})", "positional arguments"),
    ("[f({'a': 1})]", "positional arguments"),
    ("```python\nf({'a': 1})\n```", "positional arguments"),
    ("[f(**opts)]", "**-unpacked"),
    ("[f(a=g(b=1))]", "argument a is not a literal"),
    ("[f(a={1, 2})]", "argument a is a set"),
    ("[f(a=b'x')]", "argument a is not a JSON value"),
    ("[f(a=...)]", "argument a is not a JSON value"),
    ("[f(a=1e999)]", "argument a is not a JSON value"),
    ("[f(a={1: 2})]", "dict key that is not a text"),
    ("[f(a=1), 3]", "call 2: not a function call"),
    ("[f(a=1)][0](b=2)", "the called thing is not a name"),
    ('[{"arguments": {"a": 1}}]', "call 1: missing name"),
    ('[{"name": "f", "arguments": {}}, {"arguments": {"a": 1}}]', "call 2: missing name"),
    ('[{"name": 3, "arguments": {}}]', "call 1: name is not a text"),
    ('[{"name": "f", "arguments": "[1, 2]"}]', "call 1: arguments is not a JSON object"),
    ('[{"name": "f", "arguments": "{\\"a\\": "}]', "call 1: arguments is not a JSON object"),
    ('[{"name": "f", "arguments": 7}]', "call 1: arguments is not a JSON object"),
    ('[{"name": "f", "arguments": "\\"{\\\\\\"a\\\\\\": 1}\\""}]', "arguments is not a JSON object"),
    ('{"tool_calls": "f(a=1)"}', "tool_calls is not a list"),
    ('[{"name": "f", "arguments": {"a": 1}', "invalid JSON"),
    ('{"name": "f", "arguments": {"a": NaN}}', "not a literal (NaN)"),
    ('{"name": "f", "arguments": "{\\"a\\": Infinity}"}', "call 1: arguments hold a non-finite number"),
    ("```python\n[f(a=1), g(\n```", "invalid call syntax"),
    ("Sure, here it is:\n[f(a=1), g(b=", "invalid call syntax"),
]


@pytest.mark.parametrize("text, reason", MALFORMED)
def test_attempts_that_do_not_read_are_malformed(text, reason):
    result = parse_output(text)
    assert result.calls == ()
    assert result.malformed is not None and reason in result.malformed
    assert "\n" not in result.malformed


def test_reason_is_one_short_line():
    result = parse_output("[f(a=x" + ", b=1" * 200 + ")]\n\nmore")
    assert result.malformed is not None
    assert "\n" not in result.malformed and len(result.malformed) <= 200


def test_deep_nesting_is_malformed_not_an_exception():
    deep = "[f(a=" + "[" * 5000 + "]" * 5000 + ")]"
    assert parse_output(deep).malformed is not None
    deep_json = '[{"name": "f", "arguments": ' + '{"a": ' * 3000 + "1" + "}" * 3000 + "}]"
    assert parse_output(deep_json).malformed is not None


@pytest.mark.parametrize("text", ["[f(a='\ud800')]", "好的 get_weather(city='北京\udc00')", '[{"name": "f\ud83d", "arguments": {}}]'])
def test_a_lone_surrogate_is_malformed_not_an_exception(text):
    # Python's parser raised UnicodeEncodeError on the first two (the run isolated the row as a scoring error)
    assert parse_output(text).malformed == "output holds a lone surrogate code point: not Unicode text"


@pytest.mark.parametrize("text, reason", [
    ('[{"name": "get_weather", "arguments": {"city": "\\ud83d"}}]', "call 1: arguments hold"),
    ('<tool_call>{"name": "f", "arguments": {"a": ["\\udc00"]}}</tool_call>', "tool_call block 1: call 1: arguments hold"),
    ('get_weather(city="\\ud83d")', "call 1 (get_weather): arguments hold"),
    ('{"tool_calls": [{"type": "function", "function": {"name": "f", "arguments": "{\\"a\\": \\"\\\\ud800\\"}"}}]}',
     "call 1: arguments hold"),
    ('[{"name": "f\\ud83d", "arguments": {}}]', "a called name holds"),
    ("['concert.search(location=\"L\\ud83dos Angeles\")']", "quoted call 'concert.search(location=\"L\\ud83dos"),
])
def test_an_escaped_lone_surrogate_is_malformed_not_a_scoring_error(text, reason):
    """A text of ASCII whose JSON or Python escapes decode to a lone surrogate: its calls could not
    be read back (orjson refuses such a text), so the row was a scoring_error; it is malformed,
    with the reason, in the careful and the bulk parser alike. A quoted call (BFCL's shape) whose
    quoting string's escape made one raised UnicodeEncodeError in Python's parser."""
    assert "\\u" in text and text.isascii()
    for parsed in (parse_output(text), parse_outputs([text])[0]):
        assert parsed.calls == () and parsed.malformed.startswith(reason)
        assert parsed.malformed.endswith("lone surrogate code point: not Unicode text") and parsed.malformed.isascii()


@pytest.mark.parametrize("text, reason", [
    ('[{"name": "f", "arguments": {"x": 1e400}}]', "value is not a JSON value (float inf)"),   # was {"x": null}
    ('<tool_call>{"name": "f", "arguments": {"x": -1e400}}</tool_call>', "tool_call block 1: value is not a JSON value"),
    ('[{"name": "f", "arguments": "{\\"x\\": 1e400}"}]', "call 1: arguments hold a non-finite number"),
    ('[{"name": "f", "arguments": "{\\"x\\": 1e400, \\"id\\": 123456789012345678901234}"}]',
     "call 1: arguments hold a non-finite number"),   # read by the standard library (digits past 64 bits)
    ("f(x=1e400)", "call 1 (f): argument x is not a JSON value (float inf)"),
])
def test_a_number_past_the_float_range_is_malformed_like_infinity(text, reason):
    """1e400 is infinity as a double: orjson refuses it, and the standard library read it as inf,
    which the arguments' JSON then wrote as null (a wrong value) or could not write at all (a
    row's scoring_error). It is malformed, as NaN and Infinity are; 1e300 still reads."""
    for parsed in (parse_output(text), parse_outputs([text])[0]):
        assert parsed.calls == () and parsed.malformed.startswith(reason)
    assert parse_output('[{"name": "f", "arguments": {"x": 1e300}}]').calls == (("f", '{"x":1e+300}'),)
    assert parse_calls_value([{"name": "f", "arguments": '{"x": 1e400}'}]).malformed == \
        "call 1: arguments hold a non-finite number"


def test_non_text_output_is_malformed():
    assert parse_output(3).malformed == "output is a int, not a text"


def test_canonical_arguments_ignore_key_order_and_keep_unicode():
    first = parse_output('[{"name": "f", "arguments": {"b": "北京", "a": 1}}]')
    second = parse_output("[f(a=1, b='北京')]")
    assert first == second
    assert first.calls[0][1] == '{"a":1,"b":"北京"}'


def test_numbers_keep_their_type():
    result = parse_output("[f(a=3, b=3.0)]")
    assert json.loads(result.calls[0][1]) == {"a": 3, "b": 3.0}
    assert result.calls[0][1] == '{"a":3,"b":3.0}'


# ---------------------------------------------------------------- parse_calls_value


def test_calls_value_as_json_string():
    text = '[{"name": "f", "arguments": {"a": 1}}, {"name": "g", "arguments": "{\\"b\\": [2]}"}]'
    assert parse_calls_value(text) == Parsed(calls(("f", {"a": 1}), ("g", {"b": [2]})), None)


def test_calls_value_as_list_of_structs():
    value = [{"name": "f", "arguments": '{"a": 1}'}, {"name": "g", "arguments": None}]
    assert parse_calls_value(value) == Parsed(calls(("f", {"a": 1}), ("g", {})), None)


@pytest.mark.parametrize("value", [None, [], "[]"])
def test_calls_value_empty(value):
    assert parse_calls_value(value) == EMPTY


@pytest.mark.parametrize("value, reason", [
    ([{"name": "f", "arguments": "{}"}, {"name": "g", "arguments": "x"}], "call 2: arguments is not a JSON object"),
    ([{"arguments": "{}"}], "call 1: missing name"),
    (["f(a=1)"], "call 1: not a call object"),
    ("[{", "calls is not valid JSON"),
    ('{"name": "f"}', "calls is an object, not a list of calls"),
    (7, "calls is a int, not a list of calls"),
])
def test_calls_value_bad_shapes(value, reason):
    result = parse_calls_value(value)
    assert result.calls == () and reason in result.malformed


# ---------------------------------------------------------------- totality

FRAGMENTS = st.sampled_from([
    "[", "]", "{", "}", "(", ")", "f(", "a=", "1", "'x'", '"name"', ":", ",", "<tool_call>",
    "</tool_call>", "<function_call>", "```", "\n", "\\_", "get", ".", "tool_calls", " ", "=",
    "true", "None", "[TOOL_CALLS]", "<|python_tag|>", '"arguments"', "**", "...",
])


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.one_of(st.text(max_size=60), st.lists(FRAGMENTS, max_size=30).map("".join)))
def test_parse_output_never_raises(text):
    result = parse_output(text)
    assert isinstance(result, Parsed)
    assert result.malformed is None or (result.calls == () and "\n" not in result.malformed)
    for name, arguments in result.calls:
        assert isinstance(name, str) and isinstance(json.loads(arguments), dict)


# ---------------------------------------------------------------- real BFCL outputs


AST_CATEGORIES = ("simple", "multiple_function", "parallel_function", "parallel_multiple_function")


def test_bfcl_valid_text_results_read_as_calls(peers_dir):
    """Every text result BFCL's AST checker judged valid reads as calls (expressions such as
    `data['x']` or `12*2` pass their source text)."""
    root = peers_dir / "bfcl-2024-08"
    if not root.is_dir():
        pytest.skip("../shared/peers/bfcl-2024-08 is absent")
    checked, unread = 0, []
    for model_dir in sorted((root / "result").iterdir()):
        for category in AST_CATEGORIES:
            score_lines = (root / "score" / model_dir.name / f"{category}_score.json").read_text().splitlines()
            failed = {json.loads(line)["id"] for line in score_lines[1:]}  # 1-based positions
            result_file = model_dir / f"gorilla_openfunctions_v1_test_{category}_result.json"
            for position, line in enumerate(result_file.read_text().splitlines(), 1):
                result = json.loads(line)["result"]
                if isinstance(result, str) and position not in failed:
                    checked += 1
                    parsed = parse_output(result)
                    if parsed.malformed is None and parsed.calls:
                        continue
                    unread.append((model_dir.name, category, position, parsed.malformed))
    assert checked > 5000
    assert unread == []


def test_expressions_in_python_calls_pass_their_source_text():
    parsed = parse_output("[f(a=data['x'], b=12*2, c=25/1, d=2*pi, e=-3)]")
    assert parsed.malformed is None
    # constant arithmetic passes its value (BFCL's decoder evaluates it); other expressions their text
    assert json.loads(parsed.calls[0][1]) == {"a": "data['x']", "b": 24, "c": 25.0, "d": "2 * pi", "e": -3}
    assert json.loads(parse_output("[f(a=10**100000)]").calls[0][1]) == {"a": "10 ** 100000"}  # too large: its text
    # outside a Python call (JSON), nothing is read as an expression
    assert parse_output('[{"name": "f", "arguments": {"a": {1, 2}}}]').malformed


def test_an_arguments_text_met_again_reads_alike_and_its_fault_names_each_call():
    """Arguments texts are read once per distinct text (outputs that differ only in call ids
    repeat them); a text that does not read is named by the number of the call holding it."""
    good, bad = '"{\\"city\\": \\"北京\\", \\"days\\": 3}"', '"[1, 2]"'
    for call_id in ("call_1", "call_2"):
        text = f'[{{"id": "{call_id}", "type": "function", "function": {{"name": "f", "arguments": {good}}}}}]'
        assert parse_output(text) == Parsed(calls(("f", {"city": "北京", "days": 3})), None)
    assert parse_output(f'[{{"name": "f", "arguments": {bad}}}]').malformed == "call 1: arguments is not a JSON object"
    second = parse_output(f'[{{"name": "f", "arguments": {{}}}}, {{"name": "f", "arguments": {bad}}}]')
    assert second.malformed == "call 2: arguments is not a JSON object"
