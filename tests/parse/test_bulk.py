"""The bulk parser's fast path reads every output it accepts exactly as the careful parser
does, on a seeded corpus of the regular shapes and of near misses built to trip it; and it
accepts the regular shapes, so the equality is not met by refusing everything."""

import json
import random

import pyarrow as pa
import pytest

from scorer.parse import Parsed, parse_calls_value, parse_output
from scorer.parse_bulk import parse_call_lists, parse_outputs, read_regular
from scorer.tables import CALLS

NAMES = ["get_weather", "search_flights", "math.factorial", "get\\_weather", "查询天气", "f", "tool_9"]
KEYS = ["city", "date", "days", "query", "unit", "start_time", "a", "城市"]
STRINGS = ["北京", "明天", "2026-03-12", "下午两点半", "</tool_call>", "```", "a\\_b", "say \"hi\"", "", " ",
           "\u00a0x", "line\nbreak", "{\"name\": \"f\"}", "<tool_call>", "[f(a=1)]"]


def value(rng, depth=0):
    roll = rng.random()
    if roll < 0.35 or depth > 2:
        return rng.choice(STRINGS)
    if roll < 0.5:
        return rng.choice([0, 3, -7, 12345678901234567890123, 2 ** 63, 1.5, -0.0, 1e-7, 3.141592653589793])
    if roll < 0.6:
        return rng.choice([True, False, None])
    if roll < 0.8:
        return [value(rng, depth + 1) for _ in range(rng.randrange(3))]
    return {rng.choice(KEYS): value(rng, depth + 1) for _ in range(rng.randrange(3))}


def call(rng):
    arguments = {rng.choice(KEYS): value(rng) for _ in range(rng.randrange(4))}
    return {"name": rng.choice(NAMES), "arguments": arguments}


def dumps(rng, data):
    return json.dumps(data, ensure_ascii=rng.random() < 0.3, indent=rng.choice([None, None, 2]))


PROSE = ["好的，我来帮你查询。\n", "Sure! ", "", "I can't help with that.\n", "<|python_tag|>", "[TOOL_CALLS] "]
AFTER = ["", "\n\n请稍等。", " Let me know.", "\n```", "\n</tool_call>"]


def body(rng, calls):
    """A block or fence body: usually one call object, sometimes a near miss."""
    roll = rng.random()
    first = calls[0]
    if roll < 0.6:
        return dumps(rng, first)
    near_misses = [
        dumps(rng, first)[:-2],                                         # truncated
        dumps(rng, first) + dumps(rng, first),                          # two values, no separator
        dumps(rng, first) + "; " + dumps(rng, first),                   # two values, separated
        dumps(rng, first) + " and more text",                           # trailing text
        dumps(rng, first).replace('"name"', "'name'"),                  # single quotes (Python literal)
        dumps(rng, first).replace('"name"', "name", 1),                 # unquoted key
        dumps(rng, first).replace('"name"', '"\\u006eame"', 1),         # escaped key
        json.dumps({"name": first["name"], "arguments": {}}).replace('"name"', '"\\u006eame"').replace(
            '"arguments"', '"\\u0061rguments"'),                     # every call key escaped: no call key seen
        dumps(rng, {"answer": 3}),                                      # data, not a call
        dumps(rng, {"name": "Alice"}),                                  # a name without arguments
        dumps(rng, [first, call(rng)]),                                 # a list in a block
        dumps(rng, {"name": first["name"], "arguments": json.dumps(first["arguments"])}),  # string arguments
        dumps(rng, {"name": first["name"], "arguments": "[1, 2]"}),     # arguments not an object
        dumps(rng, {"name": 3, "arguments": {}}),                       # name not a text
        dumps(rng, {"tool_calls": [], "content": "<tool_call>" + dumps(rng, first) + "</tool_call>"}),
        dumps(rng, {"tool_calls": [{"type": "function", "function": {"name": first["name"],
                                                                      "arguments": "{}"}}]}),
        '{"name": "f", "arguments": {"x": NaN}}',                        # not JSON
        '{"name": "f", "arguments": {"x": 1e400}}',                      # infinity when read as a double
        '{"name": "f", "arguments": {"x": "\\ud800"}}',                  # a lone surrogate
        '{"name": "f", "arguments": {"x": ' + "[" * 300 + "]" * 300 + "}}",  # deep
        '{"name": "f", "arguments": {"x": ' + "[" * 1000 + "]" * 1000 + "}}",  # too deep to write back
        "get_weather(city='北京')",                                       # Python syntax in a block
        "",                                                               # empty
        "   \n  ",                                                        # blank
    ]
    return rng.choice(near_misses)


OPENAI_NEAR_MISSES = [
    lambda item: item["function"].update(name=" no_function "),                           # a refusal sentinel: dropped
    lambda item: item["function"].update(name="  "),                                      # blank name: malformed
    lambda item: item["function"].update(name=3),                                         # name not a text
    lambda item: item["function"].update(name="\ud800x"),                                 # a lone surrogate: no UTF-8
    lambda item: item["function"].update(arguments={"city": "北京"}),                       # arguments an object
    lambda item: item["function"].update(arguments=""),                                   # empty arguments text
    lambda item: item["function"].update(arguments="[1, 2]"),                             # not an object
    lambda item: item["function"].update(arguments="{bad"),                               # not JSON
    lambda item: item["function"].update(arguments='{"x": NaN}'),                         # not JSON either
    lambda item: item["function"].update(arguments='{"n": 123456789012345678901234}'),    # past 64 bits
    lambda item: item["function"].update(arguments='{"x": "\\ud800"}'),                   # an escaped lone surrogate
    lambda item: item["function"].update(arguments='{"x": ' + "[" * 300 + "]" * 300 + "}"),  # deep
    lambda item: item["function"].update(description="echoed schema", parameters={"type": "object"}),
    lambda item: item.update(index=0),                                                    # a key OpenAI streams add
    lambda item: item.update(id=None, type=None),                                         # null id and type
    lambda item: item.pop("id"),                                                          # no id
    lambda item: item.update(type=3),                                                     # type not a text
    lambda item: item.pop("function"),                                                    # no function
]


def openai_output(rng, calls) -> str:
    """OpenAI's tool calls as a list or in a message, exact or with near misses."""
    items = [{"id": f"call_{rng.randrange(10 ** 6)}", "type": "function",
              "function": {"name": c["name"], "arguments": json.dumps(c["arguments"], ensure_ascii=rng.random() < 0.5)}}
             for c in calls]
    for item in items:
        if rng.random() < 0.25:
            rng.choice(OPENAI_NEAR_MISSES)(item)
    roll = rng.random()
    if roll < 0.45:
        data = items
    elif roll < 0.85:
        data = {"role": "assistant", "content": rng.choice([None, "", "好的"]), "tool_calls": items}
    else:
        data = rng.choice([{"role": "assistant", "content": "<tool_call>" + dumps(rng, calls[0]) + "</tool_call>",
                            "tool_calls": rng.choice([[], None])},
                           {"tool_calls": items, "usage": {"tokens": rng.choice([12, 1e300, 2 ** 70])}},
                           {"tool_calls": items, "extra": "[" * 600 + "]" * 600},           # too deep to read
                           {"tool_calls": "not a list"}, []])
    text = dumps(rng, data)
    if rng.random() < 0.05 and isinstance(data, dict):   # the key twice: the last one counts
        text = text[:-1] + ', "tool_calls": ' + dumps(rng, items[:1]) + "}"
    return rng.choice(["", " ", "\n"]) + text + rng.choice(["", "\n", " and more"])


def output(rng) -> str:
    calls = [call(rng) for _ in range(rng.randrange(1, 4))]
    shape = rng.randrange(10)
    if shape == 9:
        return openai_output(rng, calls)
    if shape == 0:   # <tool_call> blocks, closing tag sometimes missing
        blocks = "".join(f"<tool_call>{rng.choice(['', chr(10)])}{body(rng, [c])}{rng.choice(['', chr(10)])}"
                         + ("</tool_call>" if rng.random() < 0.9 else "") + rng.choice(["\n", "", " "])
                         for c in calls)
        return rng.choice(PROSE) + blocks + rng.choice(AFTER)
    if shape == 1:   # one fence, maybe with prose around
        lang = rng.choice(["json", "", "python", "tool_code"])
        fence = f"```{lang}\n{dumps(rng, calls) if rng.random() < 0.5 else body(rng, calls)}\n```"
        return rng.choice(PROSE) + fence + rng.choice(AFTER[:3])
    if shape == 2:   # several fences, or an unclosed one
        fences = "\n\n".join(f"```json\n{body(rng, [c])}\n```" for c in calls)
        return fences[:-3] if rng.random() < 0.2 else fences
    if shape == 3:   # fences around something else
        return rng.choice(["```\nprint('hi')\n```", "```json\n```", "Use ```code``` here", "``` ```",
                           "```json\n[1, 2]\n```\nthen get_weather(city='x')", "```python\n[f(a=1)]\n```"])
    if shape == 4:   # JSON first: the careful parser's own first step
        return rng.choice(PROSE[4:] + [""]) + dumps(rng, rng.choice([calls, {"tool_calls": calls}, calls[0]]))
    if shape == 5:   # Python-call syntax
        return "[" + ", ".join(f"{c['name']}(" + ", ".join(f"{k}={v!r}" for k, v in c["arguments"].items()) + ")"
                               for c in calls) + "]"
    if shape == 6:   # function_call tag, or both tags
        tag = f"<function_call>{dumps(rng, calls[0])}"
        return rng.choice([tag, tag + f"<tool_call>{dumps(rng, calls[0])}</tool_call>",
                           f"<function_call>```json\n{dumps(rng, calls[0])}\n```\n<function_call>{dumps(rng, calls[-1])}"])
    if shape == 7:   # prose only, or prose mentioning tags
        return rng.choice(["抱歉，我无法完成。", "The <tool_call> tag is used for calls.", "use ``` fences", "  ",
                           "<tool_call></tool_call>", "<tool_call>\n</tool_call>", "```"])
    return rng.choice(PROSE) + "<tool_call>" + body(rng, calls) + "</tool_call>" + rng.choice(AFTER)


def corpus(size=12000, seed=11):
    rng = random.Random(seed)
    return [output(rng) for _ in range(size)]


def test_the_fast_path_reads_what_the_careful_parser_reads():
    texts = corpus()
    accepted = 0
    for text in texts:
        fast = read_regular(text)
        if fast is not None:
            accepted += 1
            assert fast == parse_output(text), text
    # the regular shapes (most of shapes 0, 1, 2, 8 and 9) are taken by the fast path
    assert accepted > len(texts) // 8


def test_a_column_parses_as_each_text_alone():
    texts = corpus(3000, seed=12) + [None, "", "  "] + corpus(50, seed=12)   # repeats, nulls, blanks
    assert parse_outputs(texts) == [parse_output(text) for text in texts]


@pytest.mark.parametrize("text, calls", [
    ('<tool_call>{"name": "f", "arguments": {"a": 1}}</tool_call>\n<tool_call>{"name": "g", "arguments": {}}',
     (("f", '{"a":1}'), ("g", "{}"))),
    ('好的：\n```json\n[{"name": "f", "arguments": {"a": "北京"}}]\n```\n稍等。', (("f", '{"a":"北京"}'),)),
    ('[{"id": "call_1", "type": "function", "function": {"name": "f", "arguments": "{\\"b\\": 2, \\"a\\": 1}"}}]',
     (("f", '{"a":1,"b":2}'),)),
    ('{"role": "assistant", "content": null, "tool_calls": [{"id": "c", "type": "function", "function": '
     '{"name": "get\\\\_x", "arguments": "{}"}}, {"id": "d", "type": "function", "function": '
     '{"name": "no_function", "arguments": "{}"}}]}', (("get_x", "{}"),)),
])
def test_regular_shapes_are_taken_by_the_fast_path(text, calls):
    assert read_regular(text) == Parsed(calls, None) == parse_output(text)


CALL_NAMES = NAMES + [None, "", "  ", " no_function ", "None"]
ARGUMENT_TEXTS = [None, "", " ", "{}", '{"city": "北京"}', '{"b": 1, "a": [1, {"c": null}]}', "[1, 2]", "{bad", '{"x": NaN}',
                  '{"n": 123456789012345678901234}', '{"x": "\\ud800"}', '{"x": ' + "[" * 300 + "]" * 300 + "}", "3"]


def call_lists(size=3000, seed=13) -> pa.Array:
    """A `calls` column in callscore's own type: null rows, empty lists, null calls, and calls
    with every kind of name and arguments text, regular or not."""
    rng = random.Random(seed)
    rows = []
    for _ in range(size):
        roll = rng.random()
        if roll < 0.1:
            rows.append(None)
        else:
            rows.append([None if rng.random() < 0.03 else
                         {"name": rng.choice(CALL_NAMES if rng.random() < 0.3 else NAMES),
                          "arguments": rng.choice(ARGUMENT_TEXTS) if rng.random() < 0.4
                          else json.dumps(call(rng)["arguments"], ensure_ascii=rng.random() < 0.5)}
                         for _ in range(rng.randrange(4))])
    return pa.array(rows, CALLS)


@pytest.mark.parametrize("start", [0, 7])
def test_typed_call_lists_read_as_their_values_do(start, monkeypatch):
    from scorer import parse_bulk

    column = call_lists().slice(start)   # a slice: offsets that do not start at 0
    expected = [None if value is None else parse_calls_value(value) for value in column.to_pylist()]
    handed = []
    monkeypatch.setattr(parse_bulk, "parse_calls_value", lambda value: handed.append(value) or parse_calls_value(value))
    assert parse_call_lists(column) == expected
    # the regular rows are read from the columns: only the others go to the careful reader
    assert 0 < len(handed) < len(column) // 3
    assert all(result.malformed for result, value in zip(expected, column.to_pylist()) if value in handed)
