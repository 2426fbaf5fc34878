"""`--compat bfcl`: BFCL's AST-checker rules, each case written from the rule (BFCL's
`ast_checker.py` and handlers' `decode_ast`), then the whole mode against BFCL's published
verdicts on the 16 models of ../shared/peers/bfcl-2024-08 (skipped when absent)."""

import json

import pyarrow as pa
import pytest

from scorer.compat import bfcl
from scorer.options import Options
from scorer.pipeline import score_tables

AREA = {"name": "area", "parameters": {"type": "dict", "required": ["base"], "properties": {
    "base": {"type": "integer"}, "unit": {"type": "string"}, "scale": {"type": "float"},
    "sizes": {"type": "array", "items": {"type": "float"}},
    "shape": {"type": "dict", "properties": {"kind": {"type": "string"}}},
    "corners": {"type": "array", "items": {"type": "dict"}},
    "point": {"type": "tuple", "items": {"type": "integer"}}}}}


def valid(predicted: dict, answer: dict, category="simple", functions=(AREA,)) -> bool:
    try:
        bfcl.check(category, list(functions), [predicted], [{"area": answer}])
    except bfcl.Invalid:
        return False
    return True


def test_strings_compare_after_bfcl_standardization():
    assert valid({"area": {"base": 1, "unit": "Square-Meters."}}, {"base": [1], "unit": ["square meters"]})
    assert valid({"area": {"base": 1, "unit": "x^3"}}, {"base": [1], "unit": ["x**3"]})
    assert not valid({"area": {"base": 1, "unit": "meters"}}, {"base": [1], "unit": ["metres"]})


def test_int_for_float_accepted_but_not_inside_arrays():
    assert valid({"area": {"base": 1, "scale": 2}}, {"base": [1], "scale": [2.0]})
    assert not valid({"area": {"base": 1, "sizes": [1, 3]}}, {"base": [1], "sizes": [[1.0, 3.0]]})
    assert valid({"area": {"base": 1, "sizes": [1.0, 3.0]}}, {"base": [1], "sizes": [[1.0, 3.0]]})


def test_types_are_strict():
    assert not valid({"area": {"base": "1"}}, {"base": [1]})
    assert not valid({"area": {"base": True}}, {"base": [1]})  # type(True) is bool, not int


def test_a_value_of_the_answers_own_type_is_a_variable():
    # the possible answer holds a string for an integer parameter: a variable name
    assert valid({"area": {"base": "n"}}, {"base": ["n"]})


def test_optional_parameters_and_empty_values():
    answer = {"base": [1], "unit": ["", "cm"], "sizes": [""], "corners": [""]}
    assert valid({"area": {"base": 1}}, answer)
    assert not valid({"area": {"base": 1}}, {"base": [1], "unit": ["cm"]})  # left out, no "" among accepted
    # BFCL walks "" as an empty sequence: [] is accepted for an optional array
    assert valid({"area": {"base": 1, "sizes": []}}, answer)
    assert valid({"area": {"base": 1, "corners": []}}, answer)
    assert not valid({"area": {"base": 1, "sizes": [2.0]}}, answer)


def test_parameters_required_declared_and_in_the_answer():
    assert not valid({"area": {"unit": "cm"}}, {"base": [""], "unit": ["cm"]})  # required by the schema
    assert not valid({"area": {"base": 1, "scale": 1.0}}, {"base": [1]})       # not in the answer
    assert not valid({"area": {"base": 1, "colour": "red"}}, {"base": [1], "colour": ["red"]})  # not declared


def test_dicts_key_by_key_and_lists_of_dicts_in_order():
    answer = {"base": [1], "shape": [{"kind": ["square", "quadrate"]}]}
    assert valid({"area": {"base": 1, "shape": {"kind": "Quadrate"}}}, answer)
    assert not valid({"area": {"base": 1, "shape": {"kind": "square", "extra": 1}}}, answer)
    corners = {"base": [1], "corners": [[{"x": [1]}, {"x": [2]}]]}
    assert valid({"area": {"base": 1, "corners": [{"x": 1}, {"x": 2}]}}, corners)
    assert not valid({"area": {"base": 1, "corners": [{"x": 2}, {"x": 1}]}}, corners)


def test_tuples_read_as_lists_only_for_tuple_parameters():
    assert valid({"area": {"base": 1, "point": (1, 2)}}, {"base": [1], "point": [[1, 2]]})


def test_renamed_dots_compare_with_underscores():
    dotted = dict(AREA, name="geo.area")
    answer = [{"geo.area": {"base": [1]}}]
    bfcl.check("simple", [dotted], [{"geo_area": {"base": 1}}], answer, renamed_dots=True)
    with pytest.raises(bfcl.Invalid):
        bfcl.check("simple", [dotted], [{"geo_area": {"base": 1}}], answer)


def test_parallel_calls_match_greedily_in_any_order():
    answers = [{"area": {"base": [1]}}, {"area": {"base": [2]}}]
    bfcl.check("parallel_function", [AREA], [{"area": {"base": 2}}, {"area": {"base": 1}}], answers)
    with pytest.raises(bfcl.Invalid, match="wrong number"):
        bfcl.check("parallel_function", [AREA], [{"area": {"base": 2}}], answers)


def test_prompt_decoders_per_family():
    assert bfcl.decode("openai", None, "[area(base=1)]") == [{"area": {"base": 1}}]
    with pytest.raises(bfcl.DecodeError):   # the OpenAI handler does not add brackets
        bfcl.decode("openai", None, "area(base=1)")
    assert bfcl.decode("oss", None, "\n\n[area(base=1)]") == [{"area": {"base": 1}}]
    assert bfcl.decode("claude", None, " area(base=1)") == [{"area": {"base": 1}}]
    with pytest.raises(bfcl.DecodeError):   # Claude's handler drops one space, not newlines
        bfcl.decode("claude", None, "\n\n[area(base=1)]")
    assert bfcl.decode("mistral", None, "[area\\_x(base=1)]") == [{"area_x": {"base": 1}}]
    with pytest.raises(bfcl.DecodeError):   # no family reads calls inside a code fence
        bfcl.decode("oss", None, "```\n[area(base=1)]\n```")
    # a call without keywords decodes to its text: not a call list
    assert bfcl.decode("oss", None, "[math.hypot(3, 4)]") == ["math.hypot(3, 4)"]
    assert bfcl.decode("oss", None, "[f(a=2*3, b=-1, c=x, d=...)]") == [{"f": {"a": 6, "b": -1, "c": "x", "d": "..."}}]
    with pytest.raises(bfcl.DecodeError, match="pi"):
        bfcl.decode("oss", None, "[f(a=2*pi)]")


def test_json_decoders_per_family():
    hermes = '<tool_call>\n{"name": "area", "arguments": {"base": 1}}\n</tool_call>'
    assert bfcl.decode("hermes", None, hermes) == [{"area": {"base": 1}}]
    with pytest.raises(bfcl.DecodeError):   # single quotes become double: an apostrophe breaks it
        bfcl.decode("hermes", None, hermes.replace('"area"', '"it\'s"'))
    assert bfcl.decode("xlam", None, '{"tool_calls": [{"name": "area", "arguments": {"base": 1}}]}') == \
        [{"area": {"base": 1}}]
    assert bfcl.decode("granite", None, '<function_call> {"name": "no_function", "arguments": {}}') == \
        ["No function is called"]
    assert bfcl.decode("glm", None, 'area\n{"base": 1}') == [{"area": {"base": 1}}]
    with pytest.raises(bfcl.DecodeError):   # an FC model's text result
        bfcl.decode("fc", [("area", {"base": 1})], "I would call area")


def test_model_families_from_names():
    assert bfcl.family_of("gpt-4-0125-preview-FC") == "fc"
    assert bfcl.family_of("gemini-1.5-pro-preview-0514") == "fc"
    assert bfcl.family_of("gpt-4-0125-preview") == "openai"
    assert bfcl.family_of("NousResearch_Hermes-2-Pro-Llama-3-8B") == "hermes"
    assert bfcl.family_of("meta-llama_Meta-Llama-3-8B-Instruct") == "oss"
    assert bfcl.family_of("yi-large-fc") == "fc"
    assert bfcl.family_of("claude-3-opus-20240229") == "claude"
    assert bfcl.family_of("open-mixtral-8x7b") == "mistral"
    assert bfcl.family_of("some-new-model") == "oss"


def test_relevance_rows_valid_without_a_decoded_call():
    verdict = lambda output: bfcl.judge("relevance", [AREA], [], "oss", None, output).valid  # noqa: E731
    assert verdict("I cannot help with that.")
    assert verdict("[]")
    assert not verdict("[area(base=1)]")


def test_gold_notation_back_to_accepted_values():
    assert bfcl.accepted_values({"$optional": {"$any": ["a", "b"]}}) == ["a", "b", ""]
    assert bfcl.accepted_values({"$optional": ""}) == [""]
    assert bfcl.accepted_values([1, 2]) == [[1, 2]]
    assert bfcl.accepted_values({"k": {"$any": [1, 2]}}) == [{"k": [1, 2]}]


def _tables(output, calls=None, model="some-model"):
    gold = pa.table({"id": ["r"], "gold_calls": [[{"name": "area", "arguments": json.dumps({"base": 1, "unit": {"$optional": "cm"}})}]],
                     "reference_time": [None], "tools": [json.dumps([AREA])], "negative_type": [None]},
                    schema=pa.schema([("id", pa.string()), ("gold_calls", pa.list_(pa.struct([("name", pa.string()), ("arguments", pa.string())]))),
                                      ("reference_time", pa.string()), ("tools", pa.string()), ("negative_type", pa.string())]))
    predictions = pa.table({"id": ["r"], "model": [model], "calls": [calls], "output": [output], "malformed": [None]},
                           schema=pa.schema([("id", pa.string()), ("model", pa.string()), ("calls", gold.schema.field("gold_calls").type),
                                             ("output", pa.string()), ("malformed", pa.string())]))
    return predictions, gold


def test_the_mode_is_selected_by_an_option():
    # a fenced call: callscore reads it, BFCL's decoder does not
    predictions, gold = _tables("```\n[area(base=1)]\n```")
    assert score_tables(predictions, gold).verdicts["outcome"].to_pylist() == ["correct"]
    bfcl_row = score_tables(predictions, gold, Options(compat="bfcl")).verdicts.to_pylist()[0]
    assert (bfcl_row["outcome"], bfcl_row["subtype"], bfcl_row["rule"]) == \
        ("miss_recall", "malformed", "bfcl.ast_decoder:decoder_failed")


def test_same_prediction_from_two_families_judged_per_family():
    one, gold = _tables("area(base=1)", model="gpt-4")
    other, _ = _tables("area(base=1)", model="some-model")
    verdicts = score_tables(pa.concat_tables([one, other]), gold, Options(compat="bfcl")).verdicts
    assert verdicts["outcome"].to_pylist() == ["miss_recall", "correct"]


RENAMED_DOTS = ("-FC", "gemini", "Hermes", "granite")  # the README's "dot->_" column, by name
CATEGORIES = ("simple", "multiple_function", "parallel_function", "parallel_multiple_function", "relevance")


def test_agreement_with_published_verdicts_on_all_rows(peers_dir):
    """All 19,840 rows, no exclusion; a row absent from a score file was judged valid."""
    from scorer.io.bfcl import read_bfcl_gold, read_bfcl_results, read_json_lines

    root = peers_dir / "bfcl-2024-08"
    data = root / "data"
    gold = pa.concat_tables([read_bfcl_gold(data / f"gorilla_openfunctions_v1_test_{c}.json",
                                            data / "possible_answer" / f"gorilla_openfunctions_v1_test_{c}.json"
                                            if c != "relevance" else None) for c in CATEGORIES],
                            promote_options="default")
    agree = total = 0
    for renamed in (False, True):  # two runs: the option holds for all models of a run
        tables, failed = [], set()
        for model in sorted(path.name for path in (root / "result").iterdir()):
            if any(mark in model for mark in RENAMED_DOTS) != renamed:
                continue
            for c in CATEGORIES:
                tables.append(read_bfcl_results(root / "result" / model / f"gorilla_openfunctions_v1_test_{c}_result.json",
                                                model, data / f"gorilla_openfunctions_v1_test_{c}.json", renamed_dots=renamed))
                failed |= {(model, f"{c}_{int(entry['id']) - 1}") for number, entry in
                           read_json_lines(root / "score" / model / f"{c}_score.json") if number > 1}
        verdicts = score_tables(pa.concat_tables(tables), gold, Options(compat="bfcl", renamed_dots=renamed)).verdicts
        for key, outcome in zip(zip(verdicts["model"].to_pylist(), verdicts["id"].to_pylist()),
                                verdicts["outcome"].to_pylist()):
            agree += (outcome == "correct") == (key not in failed)
            total += 1
    assert total == 19840
    assert agree / total >= 0.995


@pytest.mark.parametrize("error_type, cause, decoded, subtype", [
    ("ast_decoder:decoder_failed", None, 0, ("miss_recall", "malformed")),
    ("ast_decoder:decoder_wrong_output_format", None, 0, ("miss_recall", "malformed")),
    ("simple_function_checker:wrong_count", None, 0, ("miss_recall", "no_call")),
    ("parallel_function_checker_no_order:wrong_count", None, 1, ("miss_recall", "partial_calls")),
    ("parallel_function_checker_no_order:wrong_count", None, 3, ("over_recall", "extra_call")),
    ("simple_function_checker:wrong_func_name", None, 1, ("miss_recall", "wrong_tool")),
    ("simple_function_checker:missing_required", None, 1, ("param_error", "missing_arg")),
    ("simple_function_checker:missing_optional", None, 1, ("param_error", "missing_arg")),
    ("parallel_function_checker_no_order:cannot_find_match", "simple_function_checker:missing_required", 2,
     ("param_error", "missing_arg")),
    ("value_error:string", None, 1, ("param_error", "incorrect_value")),
    ("type_error:nested", None, 1, ("param_error", "incorrect_value")),
    ("relevance_error:decoder_success", None, 1, ("over_recall", "no_tool")),
])
def test_bfcl_error_types_map_onto_callscore_subtypes(error_type, cause, decoded, subtype):
    from scorer.compat.verdicts import subtype_of

    verdict = bfcl.Verdict(False, error_type, "message", cause, decoded)
    assert subtype_of(verdict, 2, "no_tool") == subtype


def test_cli_compat_option(tmp_path):
    import pyarrow.parquet as pq
    from click.testing import CliRunner

    from scorer.cli import cli

    predictions, gold = _tables("```\n[area(base=1)]\n```")
    pq.write_table(predictions, tmp_path / "p.parquet")
    pq.write_table(gold, tmp_path / "g.parquet")
    out = tmp_path / "v.jsonl"
    for compat, outcome in (("callscore", "correct"), ("bfcl", "miss_recall")):
        result = CliRunner().invoke(cli, [str(tmp_path / "p.parquet"), str(tmp_path / "g.parquet"), "-o", str(out),
                                          "--compat", compat, "-q", "-j", "1"])
        assert result.exit_code == 0, result.output
        assert json.loads(out.read_text().splitlines()[0])["outcome"] == outcome
