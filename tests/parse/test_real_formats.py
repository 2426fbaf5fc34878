"""Output formats seen in published BFCL results that the parser once failed to read (issue 12),
each written from the format's rule; and the values that once recursed without end."""

import pytest

from scorer.parse import Parsed, is_call, parse_output

F = ("f", '{"a":1}')
G = ("g", '{"b":2}')


@pytest.mark.parametrize("text, calls", [
    # a list of quoted call strings, Python or JSON quoting, one or several
    ("['calculate_area(base=10, height=5)']", (("calculate_area", '{"base":10,"height":5}'),)),
    ('["f(a=1)", "g(b=2)"]', (F, G)),
    # GLM: the tool name alone on a line, its JSON arguments below
    ('f\n{"a": 1}', (F,)),
    ('math.factorial\n{"n": 5}', (("math.factorial", '{"n":5}'),)),
    # chat-template tokens before, between and after JSON calls
    ('<|im_start|>{"name": "f", "arguments": {"a": 1}}\n<|im_start|>{"name": "g", "arguments": {"b": 2}}', (F, G)),
    ('<|im_start|>{"name": "f", "arguments": {"a": 1}}<|im_end|><|im_start|>{"name": "g", "arguments": {"b": 2}}<|im_end|>',
     (F, G)),
    # an empty block beside valid ones: the valid ones count
    ('<tool_call></tool_call>\n<tool_call>{"name": "f", "arguments": {"a": 1}}</tool_call>', (F,)),
    ('<tool_call>{"name": "f", "arguments": {"a": 1}}</tool_call><tool_call>\n</tool_call>', (F,)),
])
def test_reads_formats_real_models_write(text, calls):
    assert parse_output(text) == Parsed(calls, None)


@pytest.mark.parametrize("text", [
    # an explicit refusal sentinel is no call, not a call to a tool named no_function
    '<function_call> {"name": "no_function", "arguments": {}}',
    '[{"name": "no_function", "arguments": {}}]',
    '{"tool_calls": [{"type": "function", "function": {"name": "no_function", "arguments": "{}"}}]}',
    # a tool schema echoed back is not a call
    "[{'name': 'prime_factorize', 'description': 'Prime factors.', 'parameters': "
    "{'type': 'dict', 'properties': {'number': {'type': 'integer'}}, 'required': ['number']}}]",
    '{"type": "function", "function": {"name": "f", "description": "d", "parameters": '
    '{"type": "object", "properties": {"a": {"type": "integer"}}}}}',
    # the same sentinel in Python-call syntax and in GLM's format
    "[no_function()]",
    "no_function\n{}",
    # a list of plain strings is data, and a chat role over JSON is no tool name
    '["apple", "banana"]',
    'assistant\n{"city": "Beijing"}',
])
def test_sentinels_and_echoed_schemas_are_no_call(text):
    assert parse_output(text) == Parsed((), None)


def test_a_sentinel_beside_a_call_leaves_the_call():
    text = '[{"name": "no_function", "arguments": {}}, {"name": "f", "arguments": {"a": 1}}]'
    assert parse_output(text) == Parsed((F,), None)


def test_is_call_keeps_calls_with_schema_like_argument_names():
    # a call whose arguments happen to be called `type` and `properties` is still a call:
    # an echoed schema also has a `description` beside its `parameters`
    assert is_call({"name": "set", "parameters": {"type": "object", "properties": {}}})
    assert not is_call({"name": "set", "description": "d", "parameters": {"type": "object", "properties": {}}})
    assert not is_call({"name": " No_Function "})


def test_quoted_call_that_does_not_read_is_malformed():
    # the reason names the string that did not read and why, so a reader can find it in the row
    reason = parse_output("['f(a=1']").malformed
    assert reason is not None and "'f(a=1'" in reason and "invalid call syntax" in reason


@pytest.mark.parametrize("value", [" [1, 2]", "\n{\"a\": 1}", "  [[[1]]]"])
def test_json_text_with_leading_whitespace_is_compared_as_its_structure(value):
    from scorer.normalize import Context, canonical
    from scorer.schema import Param

    context = Context(None, "t", "p", None)
    assert canonical(Param(kind="text"), value, context).key == canonical(Param(kind="text"), value.strip(), context).key


@pytest.mark.parametrize("depth, readable", [(150, True), (201, False), (500, False), (3000, False)])
def test_arguments_nested_too_deeply_are_malformed(depth, readable):
    # found by the fuzzer: past 254 levels orjson cannot write the arguments back
    text = '{"name": "f", "arguments": ' + '{"a": ' * depth + "1" + "}" * depth + "}"
    parsed = parse_output(text)
    assert (parsed.malformed is None) == readable and bool(parsed.calls) == readable
