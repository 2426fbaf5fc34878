"""`--compat bfcl`: BFCL's AST-checker rules, each case written from the rule (BFCL's
`ast_checker.py` and handlers' `decode_ast`), then the whole mode against BFCL's published
verdicts on the 16 models of ../shared/peers/bfcl-2024-08 (skipped when absent)."""

import json
from pathlib import Path

import pyarrow as pa
import pytest

from scorer.compat import bfcl
from scorer.errors import InputError
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


def test_prompt_decoders_per_handler():
    assert bfcl.decode("OpenAIHandler", None, "[area(base=1)]") == [{"area": {"base": 1}}]
    with pytest.raises(bfcl.DecodeError):   # the OpenAI handler does not add brackets
        bfcl.decode("OpenAIHandler", None, "area(base=1)")
    assert bfcl.decode("LlamaHandler", None, "\n\n[area(base=1)]") == [{"area": {"base": 1}}]
    assert bfcl.decode("ClaudePromptingHandler", None, " area(base=1)") == [{"area": {"base": 1}}]
    with pytest.raises(bfcl.DecodeError):   # Claude's handler drops one space, not newlines
        bfcl.decode("ClaudePromptingHandler", None, "\n\n[area(base=1)]")
    assert bfcl.decode("MistralHandler", None, "[area\\_x(base=1)]") == [{"area_x": {"base": 1}}]
    with pytest.raises(bfcl.DecodeError):   # Llama's reads no calls inside a code fence
        bfcl.decode("LlamaHandler", None, "```\n[area(base=1)]\n```")
    # a call without keywords decodes to its text: not a call list
    assert bfcl.decode("LlamaHandler", None, "[math.hypot(3, 4)]") == ["math.hypot(3, 4)"]
    assert bfcl.decode("LlamaHandler", None, "[f(a=2*3, b=-1, c=x, d=...)]") == [{"f": {"a": 6, "b": -1, "c": "x", "d": "..."}}]
    with pytest.raises(bfcl.DecodeError, match="pi"):
        bfcl.decode("LlamaHandler", None, "[f(a=2*pi)]")


def test_the_other_2024_08_handlers_decode_as_their_code_does():
    one = [{"area": {"base": 1}}]
    # Nexus: calls separated and ended by `;`; out_of_domain means no call
    assert bfcl.decode("NexusHandler", None, "area(base=1);") == one
    assert bfcl.decode("NexusHandler", None, "area(base=1); area(base=2);") == one + [{"area": {"base": 2}}]
    assert bfcl.decode("NexusHandler", None, "out_of_domain(user_query='x')") == "irrelevant"
    # Nvidia and Arctic: a list of quoted call strings joined into one list
    assert bfcl.decode("NvidiaHandler", None, "['area(base=1)', 'area(base=2)']") == one + [{"area": {"base": 2}}]
    assert bfcl.decode("ArcticHandler", None, "area(base=1)\n") == one
    # Deepseek: the first [...] of the first code fence, prose around it
    assert bfcl.decode("DeepseekHandler", None, "Sure:\n```python\n[area(base=1)]\n```\nDone.") == one
    with pytest.raises(bfcl.DecodeError):   # no fence: nothing between the first two ```
        bfcl.decode("DeepseekHandler", None, "[area(base=1)]")
    # Gemma: from the first [ to the last ], whatever is around
    assert bfcl.decode("GemmaHandler", None, "Call: [area(base=1)] now") == one
    # Databricks: every quoted span unquoted first; the text as written if that fails
    assert bfcl.decode("DatabricksHandler", None, "['area(base=1)']") == one
    assert bfcl.decode("DatabricksHandler", None, "[area(unit='c m', base=1)]") == [{"area": {"unit": "c m", "base": 1}}]
    # Glaive: the JSON after the last <functioncall>, with every ' removed
    assert bfcl.decode("GlaiveHandler", None, 'I will.<functioncall> {"name": "area", "arguments": {"base": 1}}') == one
    # Gemini and Yi read lists whatever the name; OpenAI's reads a list only for an FC name
    assert bfcl.decode("GeminiHandler", [("area", {"base": 1})], None) == one
    assert bfcl.decode("OpenAIHandler", [("area", {"base": 1})], None, fc_named=True) == one
    with pytest.raises(bfcl.DecodeError):   # an FC result that is text
        bfcl.decode("OpenAIHandler", None, "I would call area", fc_named=True)
    # bfcl-eval's default prompt decoder: fences and spaces stripped, a bare call read
    assert bfcl.decode("bfcl-eval prompt", None, "```\narea(base=1)\n```") == one
    # its ast_parse reads every listed call as a call: one without keywords is {name: {}}, not
    # its source text as 2024-08's resolve_ast_by_type returned (so a relevance row fails)
    assert bfcl.decode("bfcl-eval prompt", None, "[get_time(), area(base=1)]") == [{"get_time": {}}] + one
    assert bfcl.decode("bfcl-eval prompt", None, "get_time()") == [{"get_time": {}}]
    assert bfcl.decode("LlamaHandler", None, "[get_time()]") == ["get_time()"]
    newer = "bfcl-eval-2026.3.23"
    assert bfcl.judge("live_irrelevance", [AREA], [], "some-new-model", None, "[get_time()]", version=newer).valid is False
    assert bfcl.judge("live_irrelevance", [AREA], [], "some-new-model", None, "[get_time()]").valid is True


def test_json_decoders_per_handler():
    hermes = '<tool_call>\n{"name": "area", "arguments": {"base": 1}}\n</tool_call>'
    assert bfcl.decode("HermesHandler", None, hermes) == [{"area": {"base": 1}}]
    assert bfcl.decode("HermesHandler", None, hermes, "Java") == [{"area": {"base": "1"}}]  # Python's str()
    with pytest.raises(bfcl.DecodeError):   # single quotes become double: an apostrophe breaks it
        bfcl.decode("HermesHandler", None, hermes.replace('"area"', '"it\'s"'))
    assert bfcl.decode("xLAMHandler", None, '{"tool_calls": [{"name": "area", "arguments": {"base": 1}}]}') == \
        [{"area": {"base": 1}}]
    assert bfcl.decode("xLAMHandler", None, '[{"name": "area", "arguments": {"base": 1}}]') == [{"area": {"base": 1}}]
    assert bfcl.decode("xLAMHandler", None, "not JSON") == "not JSON"   # kept: the wrong output format
    assert bfcl.decode("GraniteHandler", None, '<function_call> {"name": "no_function", "arguments": {}}') == \
        ["No function is called"]
    assert bfcl.decode("GLMHandler", None, 'area\n{"base": 1}') == [{"area": {"base": 1}}]


def test_handlers_from_bfcls_model_lists():
    # handler_map.py of 2024-08, then bfcl-eval's model_config.py; the run's version first
    assert bfcl.handler_of("gpt-4-0125-preview-FC") == "OpenAIHandler"
    assert bfcl.handler_of("gemini-1.5-pro-preview-0514") == "GeminiHandler"
    assert bfcl.handler_of("NousResearch_Hermes-2-Pro-Llama-3-8B") == "HermesHandler"
    assert bfcl.handler_of("meta-llama_Meta-Llama-3-8B-Instruct") == "LlamaHandler"
    assert bfcl.handler_of("yi-large-fc") == "YiHandler"
    assert bfcl.handler_of("Nexusflow-Raven-v2") == "NexusHandler"
    assert bfcl.handler_of("ibm-granite_granite-20b-functioncalling", "2024-08") == "GraniteHandler"
    assert bfcl.handler_of("DeepSeek-V3.2-Exp-FC") == "list"          # a newer FC handler: its list default
    assert bfcl.handler_of("DeepSeek-V3.2-Exp") == "bfcl-eval prompt"
    # a model BFCL does not list: read from its name (2024-08's handlers by family), unless a v3/v4
    # file names a newer run: then a locally served model's, bfcl-eval's defaults
    assert bfcl.handler_of("my-org_Hermes-3-local") == "HermesHandler"
    assert bfcl.handler_of("my-model-FC") == "list"
    assert bfcl.handler_of("some-new-model") == "LlamaHandler"
    newer = "bfcl-eval-2026.3.23"
    assert bfcl.handler_of("my-org_Hermes-3-local", newer) == "bfcl-eval prompt"
    assert bfcl.handler_of("my-model-FC", newer) == "list"
    assert bfcl.handler_of("some-new-model", newer) == "bfcl-eval prompt"


def test_relevance_rows_valid_without_a_decoded_call():
    verdict = lambda output: bfcl.judge("relevance", [AREA], [], "some-model", None, output).valid  # noqa: E731
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


def test_the_mode_and_its_version_are_selected_by_an_option():
    # a fenced call from a model neither BFCL version lists, on a gold file whose name tells no
    # version: callscore reads it; BFCL 2024-08 gives such a model Llama's handler, which only
    # removes newlines, so its decoder fails; the latest (bfcl-eval 2026.3.23, the default) strips
    # the fence before reading, as its default prompt decoder does
    predictions, gold = _tables("```\n[area(base=1)]\n```")
    assert score_tables(predictions, gold).verdicts["outcome"].to_pylist() == ["correct"]
    old = score_tables(predictions, gold, Options(compat="bfcl@2024-08")).verdicts.to_pylist()[0]
    assert (old["outcome"], old["subtype"], old["rule"]) == ("miss_recall", "malformed", "bfcl.ast_decoder:decoder_failed")
    for compat in ("bfcl", "bfcl@2026.3.23"):
        latest = score_tables(predictions, gold, Options(compat=compat)).verdicts.to_pylist()[0]
        assert (latest["outcome"], latest["rule"]) == ("correct", "bfcl.valid")
    with pytest.raises(InputError, match="2026.3.23, 2024-08"):   # a version not reproduced names those that are
        score_tables(predictions, gold, Options(compat="bfcl@1999"))


def test_same_prediction_from_two_families_judged_per_family():
    one, gold = _tables("area(base=1)", model="gpt-4-0125-preview")   # 2024-08's OpenAI handler: no brackets added
    other, _ = _tables("area(base=1)", model="some-model")
    verdicts = score_tables(pa.concat_tables([one, other]), gold, Options(compat="bfcl")).verdicts
    assert verdicts["outcome"].to_pylist() == ["miss_recall", "correct"]


CATEGORIES = ("simple", "multiple_function", "parallel_function", "parallel_multiple_function", "relevance",
              "java", "javascript")


def test_agreement_with_published_verdicts_on_all_rows(peers_dir):
    """All 22,240 rows, no exclusion, all models in one run with no option but --compat bfcl:
    the renamed dots come from BFCL's own model list; a row absent from a score file was
    judged valid."""
    from scorer.io.bfcl import read_bfcl_gold, read_bfcl_results, read_json_lines

    root = peers_dir / "bfcl-2024-08"
    data = root / "data"
    gold = pa.concat_tables([read_bfcl_gold(data / f"gorilla_openfunctions_v1_test_{c}.json",
                                            data / "possible_answer" / f"gorilla_openfunctions_v1_test_{c}.json"
                                            if c != "relevance" else None) for c in CATEGORIES],
                            promote_options="default")
    tables, failed = [], set()
    for model in sorted(path.name for path in (root / "result").iterdir()):
        for c in CATEGORIES:
            tables.append(read_bfcl_results(root / "result" / model / f"gorilla_openfunctions_v1_test_{c}_result.json",
                                            model, data / f"gorilla_openfunctions_v1_test_{c}.json", renamed_dots=None))
            failed |= {(model, f"{c}_{int(entry['id']) - 1}") for number, entry in
                       read_json_lines(root / "score" / model / f"{c}_score.json") if number > 1}
    verdicts = score_tables(pa.concat_tables(tables), gold, Options(compat="bfcl")).verdicts
    agree = sum((outcome == "correct") == (key not in failed) for key, outcome in zip(
        zip(verdicts["model"].to_pylist(), verdicts["id"].to_pylist()), verdicts["outcome"].to_pylist()))
    assert verdicts.num_rows == 22240
    assert agree / verdicts.num_rows >= 0.999


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
    for compat, outcome in (("callscore", "correct"), ("bfcl@2024-08", "miss_recall"), ("bfcl", "correct")):
        result = CliRunner().invoke(cli, [str(tmp_path / "p.parquet"), str(tmp_path / "g.parquet"), "-o", str(out),
                                          "--compat", compat, "-q", "-j", "1"])
        assert result.exit_code == 0, result.output
        assert json.loads(out.read_text().splitlines()[0])["outcome"] == outcome


# --- renamed dots per model, as BFCL's own model list says -------------------------------------

def test_bfcl_model_list_is_read_as_bfcl_reads_it():
    from scorer.compat import bfcl_models

    # constant.py of 2024-08 lists "meetkai/functionary-small-v3.2-FC" in UNDERSCORE_TO_DOT; the
    # result folder writes `/` as `_`, and BFCL reads every `_` back as `/`
    assert bfcl_models.underscore_to_dot("meetkai_functionary-small-v3.2-FC") is True
    assert bfcl_models.underscore_to_dot("gpt-4-0125-preview-FC") is True
    assert bfcl_models.underscore_to_dot("gpt-4-0125-preview") is False     # in handler_map, not in the list
    assert bfcl_models.underscore_to_dot("DeepSeek-V3.2-Exp-FC") is True      # bfcl-eval's model_config.py
    assert bfcl_models.underscore_to_dot("DeepSeek-V3.2-Exp") is False
    assert bfcl_models.underscore_to_dot("my-local-model") is None
    assert bfcl_models.listed("gorilla-openfunctions-v2")[1]["handler"] == "GorillaHandler"


V1_SIMPLE = Path(__file__).resolve().parents[1] / "data" / "bfcl" / "v1" / "gorilla_openfunctions_v1_test_simple.json"


def _undotted_result(tmp_path, model):
    """simple_1 declares math.factorial; the result calls it math_factorial (an FC API's names)."""
    folder = tmp_path / "result" / model
    folder.mkdir(parents=True)
    result = folder / "gorilla_openfunctions_v1_test_simple_result.json"
    result.write_text("".join(json.dumps(row) + "\n" for row in (
        {"id": "simple_0", "result": [{"calculate_triangle_area": '{"base": 10, "height": 5}'}]},
        {"id": "simple_1", "result": [{"math_factorial": '{"number": 5}'}]})))
    return result


@pytest.mark.parametrize("model, renamed, outcome, noted", [
    ("gpt-4-0125-preview-FC", False, "correct", False),      # BFCL renamed the dots for it
    ("gpt-4-0125-preview", False, "miss_recall", False),     # BFCL compared the names as written
    ("my-local-model", False, "miss_recall", True),          # not listed: as written, with a note
    ("my-local-model", True, "correct", False),              # --renamed-dots overrides
])
def test_compat_takes_bfcls_renamed_dots_per_model(tmp_path, model, renamed, outcome, noted):
    from scorer.pipeline import score_files

    result, out = _undotted_result(tmp_path, model), tmp_path / "v.jsonl"
    run = score_files(result, V1_SIMPLE, Options(compat="bfcl", renamed_dots=renamed), out=out, renamed_dots=renamed)
    notes = [note for note in run.notes() if "not in BFCL's model list" in note]
    assert len(notes) == noted
    if noted:
        assert "id simple_1 calls math_factorial for math.factorial" in notes[0]
    verdicts = {row["id"]: row for row in map(json.loads, out.read_text().splitlines())}
    assert verdicts["simple_1"]["outcome"] == outcome
    assert verdicts["simple_0"]["outcome"] == "correct"


def test_the_model_list_is_what_its_generator_writes_from_bfcls_source(peers_dir, tmp_path):
    import importlib.util
    import runpy

    if importlib.util.find_spec("bfcl_eval") is None:
        pytest.skip("bfcl-eval is not installed")
    root = Path(__file__).resolve().parents[2]
    maker = runpy.run_path(str(root / "bench" / "make_bfcl_models.py"))
    written = tmp_path / "bfcl_models.toml"
    maker["write"](*maker["tables"](peers_dir / "bfcl-2024-08" / "bfcl-source", *maker["installed_bfcl_eval"]()), written)
    assert written.read_bytes() == (root / "scorer" / "compat" / "bfcl_models.toml").read_bytes()
