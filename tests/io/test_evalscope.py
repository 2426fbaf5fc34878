"""EvalScope's run files (--pred-format evalscope): callscore's verdict beside EvalScope's own
score per sample, on fixtures written in the layout of evalscope 1.14.1's writers
(tests/data/evalscope/ATTRIBUTION.md)."""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from scorer import bfcl_multi_turn
from scorer.cli import cli
from scorer.io.formats import detect_predictions, read_predictions
from scorer.load import Unreadable

DATA = Path(__file__).resolve().parents[1] / "data"
RUN = DATA / "evalscope"
REVIEWS = RUN / "reviews" / "qwen-plus"


def verdicts(tmp_path, predictions, gold, *options):
    out = tmp_path / "verdicts.jsonl"
    result = CliRunner().invoke(cli, [str(predictions), str(gold), "-o", str(out), "--keep", "evalscope_score",
                                      "--keep", "evalscope_status", "--keep", "evalscope_error_type", *options])
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    return [(r["id"], r["outcome"], r["subtype"], r["evalscope_score"], r["evalscope_status"], r["evalscope_error_type"])
            for r in rows if not r["missing_prediction"]], result.output


@pytest.mark.parametrize("path", [REVIEWS / "bfcl_v4_simple_python.jsonl",
                                  RUN / "predictions" / "qwen-plus" / "acebench_normal_atom_bool.jsonl"])
def test_review_and_prediction_files_are_detected(path):
    assert detect_predictions(path) == "evalscope"


def test_acebench_a_bare_call_evalscope_scored_zero(tmp_path):
    # EvalScope's ACEBench parser wants a bracketed list, so the right call scored 0
    rows, _ = verdicts(tmp_path, REVIEWS / "acebench_normal_atom_bool.jsonl",
                       DATA / "acebench" / "data_en" / "data_normal_atom_bool.json")
    assert rows == [("normal_atom_bool_11", "correct", None, 0.0, "success", "wrong_output_format")]


def test_a_predictions_file_has_no_evalscope_score(tmp_path):
    rows, _ = verdicts(tmp_path, RUN / "predictions" / "qwen-plus" / "acebench_normal_atom_bool.jsonl",
                       DATA / "acebench" / "data_en" / "data_normal_atom_bool.json")
    assert rows == [("normal_atom_bool_11", "correct", None, None, None, None)]


def test_bfcl_v4_results_and_samples_evalscope_left_out(tmp_path):
    review = REVIEWS / "bfcl_v4_simple_python.jsonl"
    gold = DATA / "bfcl" / "v4" / "BFCL_v4_simple_python.json"
    rows, output = verdicts(tmp_path, review, gold, "--renamed-dots")
    assert rows == [("simple_python_0", "correct", None, 1.0, "success", None),
                    ("simple_python_1", "correct", None, 1.0, "success", None),
                    # a sample EvalScope failed to score is out of its average (no score); callscore scores it
                    ("simple_python_1", "correct", None, None, "parse_error", None)]
    assert "prediction line 4 unreadable, skipped: no record id" in output
    # the run sent math.factorial as math_factorial (EvalScope's underscore_to_dot): without
    # --renamed-dots the name is another tool's
    plain, _ = verdicts(tmp_path, review, gold)
    assert plain[1][:3] == ("simple_python_1", "miss_recall", "wrong_tool")


def test_bfcl_v3_generation_is_one_turn_of_items(tmp_path):
    rows, _ = verdicts(tmp_path, REVIEWS / "bfcl_v3_simple.jsonl",
                       DATA / "bfcl" / "v1" / "gorilla_openfunctions_v1_test_simple.json")
    # an FC call with decoded arguments; a fenced call BFCL's prompt decoder cannot read
    assert rows == [("simple_0", "correct", None, 1.0, "success", None),
                    ("simple_1", "correct", None, 0.0, "success", "ast_decoder:decoder_failed")]


def test_multi_turn_samples_are_named_and_skipped_by_score():
    unreadable = Unreadable()
    table = read_predictions(REVIEWS / "bfcl_v3_multi_turn_base.jsonl", "evalscope", unreadable=unreadable)
    assert table.num_rows == 0
    assert unreadable.lines == [(1, "a BFCL multi-turn sample (score dialogue reads it)"),
                                (2, "a BFCL multi-turn sample (score dialogue reads it)")]


@pytest.mark.skipif(bfcl_multi_turn.missing_reason() is not None, reason=bfcl_multi_turn.missing_reason() or "")
def test_multi_turn_samples_get_bfcls_verdict_beside_evalscopes(tmp_path):
    out = tmp_path / "dialogues.jsonl"
    result = CliRunner().invoke(cli, ["dialogue", str(REVIEWS / "bfcl_v3_multi_turn_base.jsonl"),
                                      str(bfcl_multi_turn.question_file("base")), "--dialogues", str(out)])
    assert result.exit_code == 0, result.output
    rows = {r["id"]: r for r in map(json.loads, out.read_text().splitlines())}
    keys = ("outcome", "bfcl_valid", "bfcl_error_type", "bfcl_error_turn", "evalscope_score", "evalscope_error_type")
    assert [rows["multi_turn_base_0"][k] for k in keys] == ["correct", True, None, None, 1.0, None]
    # turn 2 answered by a question only: EvalScope executes the text as a call and fails on the
    # state; BFCL finds the turn empty
    assert [rows["multi_turn_base_1"][k] for k in keys] == [
        "miss_recall", False, "multi_turn:empty_turn_model_response", 2, 0.0, "multi_turn:instance_state_mismatch"]
    assert rows["multi_turn_base_2"]["evalscope_score"] is None   # not in the run
