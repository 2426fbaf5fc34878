"""The Python-call scanner (compiled and pure twin) reads what the careful parser reads through
`ast`, and refuses what it is not sure of: expected values written from Python's literal rules,
then the compiled twin, the pure twin and the careful parser compared on the bench's output
formats, the example predictions, hand-written edge cases and hypothesis-generated texts."""

import importlib.util
import json
import random
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorer import callscan_py
from helpers import compiled_core
from scorer.callscan_py import NOT_PYTHON, NOT_READ
from scorer.parse import Parsed, line_starts, parse_output
from scorer.parse_bulk import parse_outputs, read_regular

_callscan_cy, NEEDS_COMPILED = compiled_core("scorer._callscan_cy", "scanner")

ROOT = Path(__file__).resolve().parents[2]
SCANNERS = [pytest.param(callscan_py.scan_calls, id="python"),
            pytest.param(_callscan_cy.scan_calls if _callscan_cy else None, id="cython", marks=NEEDS_COMPILED)]


def same(left, right) -> bool:
    """Equal with types kept apart (1, 1.0 and True are equal to ==, not here)."""
    return repr(left) == repr(right)


def agree(texts):
    """Every scanner gives the same answer as the pure twin, and the bulk reader reads each
    text it takes as the careful parser does; returns how many the bulk reader took."""
    taken = 0
    for text in texts:
        if _callscan_cy is not None:
            assert same(_callscan_cy.scan_calls(text), callscan_py.scan_calls(text)), text
        fast = read_regular(text)
        if fast is not None:
            taken += 1
            assert fast == parse_output(text), text
    return taken


# ---------------------------------------------------------------- read, with values from the rules

READ = [
    ("[get_weather(city=\"北京\", date='2026-03-10'), book(n=3)]",
     [("get_weather", {"city": "北京", "date": "2026-03-10"}), ("book", {"n": 3})]),
    ("f()", [("f", {})]),
    ("[f(),]", [("f", {})]),
    ("[\n  math.factorial(n=5),\n  g( a = 1 , )\n]", [("math.factorial", {"n": 5}), ("g", {"a": 1})]),
    ("[f(a=-1.5e3, b=1., c=0, d=-0.0, e=2E-2, f=00.5)]",
     [("f", {"a": -1500.0, "b": 1.0, "c": 0, "d": -0.0, "e": 0.02, "f": 0.5})]),
    ("[f(a=True, b=false, c=None, d=null, e=my_data)]",
     [("f", {"a": True, "b": False, "c": None, "d": None, "e": "my_data"})]),
    ("[f(a=[1, (2,), (3), (), {'k': [None]}], b={'x': {'y': ('z', 'w')}})]",
     [("f", {"a": [1, [2], 3, [], {"k": [None]}], "b": {"x": {"y": ["z", "w"]}}})]),
    (r"""[f(a='it\'s', b="say \"hi\"", c='\\', d='\n\t\r', e='\x41\u4e2d\U0001F600', f='\d\_', g="'", h='"')]""",
     [("f", {"a": "it's", "b": 'say "hi"', "c": "\\", "d": "\n\t\r", "e": "A中😀", "f": "\\d\\_", "g": "'",
             "h": '"'})]),
    ("[f(a='北京\u3000市', b='\U0001F600', c='x')]", [("f", {"a": "北京\u3000市", "b": "😀", "c": "x"})]),
    ("[f(a={'k': 1, 'k': 2}, b=1, b=2)]", [("f", {"a": {"k": 2}, "b": 2})]),   # Python's ast keeps the last
    ("[f(a=12345678901234567890123)]", [("f", {"a": 12345678901234567890123})]),
]


@pytest.mark.parametrize("scan", SCANNERS)
@pytest.mark.parametrize("text, calls", READ)
def test_the_scanner_reads_literals_as_python_does(scan, text, calls):
    assert same(scan(text), calls)


REFUSED = [
    ("[f(a='''x''')]", NOT_READ), ("[f(a='x' 'y')]", NOT_READ), ("[f(a=u'x')]", NOT_READ),
    (r"[f(a='\101')]", NOT_READ), (r"[f(a='\N{BULLET}')]", NOT_READ), (r"[f(a='\ud800')]", NOT_READ),
    ("[f(a='\ud800')]", NOT_READ), ("[f(a='x\ny')]", NOT_READ), ("[f(a=1_000)]", NOT_READ), ("[f(a=01)]", NOT_READ),
    ("[f(a=00)]", NOT_READ), ("[f(a=0x10)]", NOT_READ), ("[f(a=1j)]", NOT_READ), ("[f(a=1e999)]", NOT_READ),
    ("[f(a=+1)]", NOT_READ), ("[f(a=- 1)]", NOT_READ), ("[f(a=.5)]", NOT_READ), ("[f(a=1+2)]", NOT_READ),
    ("[f(1)]", NOT_READ), ("[f(**k)]", NOT_READ), ("[f(a={1, 2})]", NOT_READ), ("[f(a={b: 1})]", NOT_READ),
    ("[f(a=g(b=1))]", NOT_READ), ("[f(a=x.y)]", NOT_READ), ("[f(a=x[0])]", NOT_READ), ("[f(a=not)]", NOT_READ),
    ("[f(城市='x')]", NOT_READ), ("[f(a=北京)]", NOT_READ), ("[f(a=1)  # note]", NOT_READ), ("[f(a=1)\r\n]", NOT_READ),
    ("[f (a=1)]", NOT_READ), ("[f(a=1) g(b=2)]", NOT_READ), ("[f(a=1)", NOT_READ), ("[f(a=1", NOT_READ),
    ("f(a=1), g(b=2)", NOT_READ), ("f(a=1) and text", NOT_READ), ("[]", NOT_READ), ('[{"name": "f"}]', NOT_READ),
    ("[None(a=1)]", NOT_READ), ("[f(class=1)]", NOT_READ), ("[f(a=1,,)]", NOT_READ), ("[,f(a=1)]", NOT_READ),
    ("[f(a=" + "[" * 120 + "]" * 120 + ")]", NOT_READ), ("[f(a='\x00')]", NOT_READ),
    (r"[get\_weather(city='x')]", NOT_PYTHON), (r"[f(city\_name='x')]", NOT_PYTHON), (r"[f(a=b\_c)]", NOT_PYTHON),
    (r"[f(a='\0', b=c\_d)]", NOT_READ),
]


@pytest.mark.parametrize("scan", SCANNERS)
@pytest.mark.parametrize("text, code", REFUSED)
def test_the_scanner_refuses_what_it_is_not_sure_of(scan, text, code):
    assert same(scan(text), code)


# ---------------------------------------------------------------- the bulk reader against the careful parser

WRAPPED = [
    "好的，我来查询：\n[get_weather(city='北京')]", "Sure!\n\nget_weather(city='北京', days=3)",
    "I will call print(x) now\n[f(a=1)]", "print('hi')\n[f(a=1)]", "[f(a=1)]\nThat is all.",
    "```python\n[get_weather(city='北京')]\n```", "```\nget_weather(city='北京')\n```\n稍等。",
    "```python\n[f(a=1)]\n```\n```json\n[{\"name\": \"g\", \"arguments\": {}}]\n```",
    "```python\n[f(a=1)]\n```\n```python\nprint(x)\n```", "```python\nimport os\n```\n[f(a=1)]",
    "<tool_call>\n[f(a=1)]\n</tool_call>", "<|python_tag|>[f(a=1)]", "[TOOL_CALLS] [f(a=1)]",
    "[TOOL_CALLS] f(a=1)\n[g(b=2)]", "[f(a='<|im_end|>')]", "[f(a='<tool_call>')]", "[f(a='```')]",
    r"[basketball.player_stats.get(player\_name='LeBron', stats\_fields=['points\_per\_game'])]",
    r"[f\_g(a=1)]" + "\n[h(b=2)]", r"Text: get\_x(a=1)", "[f(a=1),\n" + r" g\_x(b=2)]",
    r"```python" + "\n" + r"[get\_weather(city='x')]" + "\n```", "get_weather\n{\"city\": \"北京\"}",
    "[no_function()]", "[f(a=1), no_tool()]", "[f(a=1)]" + " [" * 300 + " ]" * 300,
    "[f(a='" + "[" * 600 + "')]", "[f(a=1)][0]", "[f(a=1)", "[f(a=1, b=2", "[f(a=1),]\n\nextra", "f(a)",
]


def test_wrapped_python_calls_read_as_the_careful_parser_reads_them():
    assert agree([text for text, _calls in READ] + [text for text, _code in REFUSED] + WRAPPED) >= len(READ) + 10


@pytest.mark.parametrize("text, calls", [
    ("好的：\n[get_weather(city='北京', days=3)]", (("get_weather", '{"city":"北京","days":3}'),)),
    ("```python\nget_weather(city='北京')\n```", (("get_weather", '{"city":"北京"}'),)),
    (r"[get\_weather(city\_name='a\_b')]", (("get_weather", '{"city_name":"a_b"}'),)),
    ("[f(a=1), no_function()]", (("f", '{"a":1}'),)),
    ("[f(a=1)]\n\n", (("f", '{"a":1}'),)),
    ("I'm sorry, I can't do that (yet).\nAsk me about the weather in 北京.", ()),
    ("Use get\\_weather for that:\nget\\_weather(city='x')", (("get_weather", '{"city":"x"}'),)),
    ('<function_call> {"name": "f", "arguments": {"a": 1}} <function_call> {"name": "g", "arguments": {}}</function_call>',
     (("f", '{"a":1}'), ("g", "{}"))),
])
def test_python_shapes_are_taken_by_the_fast_path(text, calls):
    assert read_regular(text) == Parsed(calls, None) == parse_output(text)


def load_module(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def bench_outputs(count=3000, seed=5):
    """Raw outputs as the throughput bench writes them (every realistic style and its
    malformed ones), from the example gold calls."""
    throughput = load_module("throughput_bench", ROOT / "bench" / "throughput.py")
    examples = throughput.load_examples_builder()
    gold = [json.loads(line) for line in (ROOT / "data" / "examples" / "gold.jsonl").read_text("utf-8").splitlines()]
    calls = [[{"name": c["name"], "arguments": {k: v.get("$optional", v) if isinstance(v, dict) else v
                                                 for k, v in c["arguments"].items()}} for c in row["gold_calls"]]
             for row in gold if row["gold_calls"]]
    rng = random.Random(seed)
    outputs = []
    for _ in range(count):
        chosen = rng.choice(calls)
        outputs.append(throughput.realistic_render(examples, chosen, rng) if rng.random() < 0.7
                       else examples.render(chosen, rng, "python"))
        if rng.random() < 0.1:
            outputs.append(examples.malformed_output(chosen, rng))
    return outputs


def test_the_bench_formats_and_example_outputs_read_as_the_careful_parser_reads_them():
    outputs = bench_outputs()
    examples = [row.get("output") for row in map(json.loads, (ROOT / "data" / "examples" / "predictions.jsonl")
                                                 .read_text("utf-8").splitlines())]
    texts = outputs + [text for text in examples if isinstance(text, str)]
    python_style = [text for text in outputs if text.startswith("[") and not text.startswith("[{")
                    and not parse_output(text).malformed]
    assert len(python_style) > 500
    assert agree(python_style) == len(python_style)   # the bench's readable Python-call outputs all take the fast path
    agree(texts)
    assert parse_outputs(texts) == [parse_output(text) for text in texts]


def test_bfcl_text_results_read_as_the_careful_parser_reads_them(peers_dir):
    texts = []
    for path in sorted((peers_dir / "bfcl-2024-08" / "result").glob("*/*.json")):
        for line in path.read_text("utf-8").splitlines():
            result = json.loads(line).get("result")
            if isinstance(result, str):
                texts.append(result)
    assert agree(texts) > len(texts) // 4


# ---------------------------------------------------------------- generated

KEYS = st.sampled_from(["city", "date", "a", "b_2", "_x", "match", "type"])
TEXTS = st.text(st.characters(blacklist_categories=("Cs",)), max_size=12) | st.sampled_from(
    ["北京", "it's", 'say "hi"', "a\\_b", "\\", "\n", "\t", "'\"", "```", "<tool_call>", "\\d", "\u2028", "\x00"])
NUMBERS = st.integers(-10 ** 25, 10 ** 25) | st.floats(allow_nan=False, allow_infinity=False)
LITERALS = st.recursive(
    TEXTS | NUMBERS | st.sampled_from([True, False, None]),
    lambda inner: st.lists(inner, max_size=3) | st.tuples(inner, inner) | st.dictionaries(TEXTS, inner, max_size=3),
    max_leaves=8)


def python_source(value, rng) -> str:
    """A literal as a model might write it: repr, or JSON spelling, with varied blanks."""
    space = rng.choice(["", " ", "\n  "])
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=rng.random() < 0.5) if rng.random() < 0.3 else repr(value)
    if isinstance(value, bool) or value is None:
        return rng.choice([repr(value), json.dumps(value)])
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, tuple):
        return "(" + ("," + space).join(python_source(item, rng) for item in value) + ("," if len(value) == 1 else "") + ")"
    if isinstance(value, list):
        return "[" + space + ("," + space).join(python_source(item, rng) for item in value) + rng.choice(["", ","]) * bool(value) + "]"
    return "{" + ", ".join(f"{python_source(k, rng)}:{space}{python_source(v, rng)}" for k, v in value.items()) + "}"


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(["f", "get_weather", "a.b.c", "no_function", "x9"]),
                          st.dictionaries(KEYS, LITERALS, max_size=3)), min_size=1, max_size=3),
       st.integers(0, 2 ** 32), st.sampled_from(["", "好的：\n", "```python\n", "Sure. "]))
def test_generated_call_lists_read_as_the_careful_parser_reads_them(calls, seed, before):
    rng = random.Random(seed)
    text = before + "[" + ", ".join(f"{name}(" + ", ".join(f"{key}={python_source(value, rng)}"
                                                       for key, value in arguments.items()) + ")"
                                    for name, arguments in calls) + "]"
    agree([text])


def test_an_escaped_text_whose_unescaped_form_starts_no_call_is_left_to_the_careful_parser():
    # `f(True\_)` does not parse; unescaped, `f(True_)` starts no call (no keyword), so the
    # careful parser keeps the first, malformed reading: the bulk reader must not say "empty"
    assert agree(["f(True\\_)"]) == 0
    assert parse_output("f(True\\_)").malformed


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(list("[](){}'\",=:.-_ \n\\abfnNtux01e9+#北") + ["f(", "a=", "\\_", "True", "'''"]),
               max_size=30).map("".join))
def test_generated_near_misses_read_as_the_careful_parser_reads_them(noise):
    agree(["[f(a=" + noise, "f(" + noise + ")", "[f(a=1, b=" + noise + ")]", noise])


# ---------------------------------------------------------------- the twins' faces

@pytest.mark.skipif(_callscan_cy is None, reason="compiled scanner not built")
def test_compiled_docstring_is_the_twins():
    assert _callscan_cy.scan_calls.__doc__ == callscan_py.scan_calls.__doc__


# ---------------------------------------------------------------- long digit runs (scorer.parse.load_json)

@pytest.mark.parametrize("scan", [pytest.param(callscan_py.has_long_digits, id="python"),
                                  pytest.param(_callscan_cy.has_long_digits if _callscan_cy else None, id="cython",
                                               marks=SCANNERS[1].marks)])
@pytest.mark.parametrize("text, found", [
    ("1" * 19, False), ("1" * 20, True), ("x" + "1" * 19 + "x" + "1" * 19, False), ('{"a": 123456789012345678901}', True),
    ("\u0663" * 20, True), ("\uff11" * 20, True), ("1" * 10 + "\u0663" * 10, True), ("\u00b2" * 20, False),  # ² is no Nd digit
    ("", False), ("1" * 19 + "\ud800" + "1", False),
])
def test_long_digit_runs_are_found_as_the_regex_finds_them(scan, text, found):
    assert scan(text) is found


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["1", "0", "9", "\u0663", "\uff11", "\u00b2", "a", " ", "北", "1" * 7]), max_size=40)
       .map("".join))
def test_the_digit_run_twins_agree(text):
    if _callscan_cy is not None:
        assert _callscan_cy.has_long_digits(text) is callscan_py.has_long_digits(text)


# ---------------------------------------------------------------- line starts (the careful parser's line scan)

LINE_START_REGEX = re.compile(r"(?:^|\n)[^\S\n]*")   # what scorer.parse.line_starts replaces


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(["\n", " ", "\t", "\r", "\u3000", "\x85", "\u2028", "\x0b", "a", "北", "[f(a=1)]"]),
                max_size=30).map("".join))
def test_line_starts_are_where_the_regex_finds_them(text):
    assert list(line_starts(text)) == [(match.start() == 0, match.end()) for match in LINE_START_REGEX.finditer(text)]
