"""No single row can end a run (issue 12): every row of the example benchmark, and generated
rows, scored against raw outputs from a fuzzer (random bytes, truncated JSON, deep nesting,
huge strings, odd Unicode) give exactly one verdict per row and no exception; and a row whose
scoring raises becomes an undecided malformed verdict naming the exception, counted in the
run notes, while the other rows are scored as usual."""

import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorer import vocab
from scorer.options import Options
from scorer.pipeline import SCORING_ERROR, score_tables

EXAMPLES = Path(__file__).resolve().parents[2] / "data" / "examples"
GOLD = pq.read_table(EXAMPLES / "gold.parquet")
GOLD_CALLS = [json.dumps(calls, ensure_ascii=False) for calls in GOLD.column("gold_calls").to_pylist()]
ODD_UNICODE = "\u200b\u202e\ufeff\u0301\U0001f600\u4e2d\uff10\u00a0\u2028\u3000"


def _truncated(text: str, cut: int) -> str:
    return text[: cut % (len(text) + 1)]


def outputs():
    """Raw model outputs a scorer must survive."""
    calls_text = st.sampled_from(GOLD_CALLS)
    return st.one_of(
        st.binary(max_size=300).map(lambda raw: raw.decode("latin-1")),                       # random bytes
        st.tuples(calls_text, st.integers(0, 10_000)).map(lambda pair: _truncated(*pair)),    # truncated JSON
        st.tuples(st.sampled_from("[{("), st.integers(1, 3000)).map(lambda pair: pair[0] * pair[1]),  # deep nesting
        st.integers(1, 3000).map(lambda depth: '{"name": "f", "arguments": ' + '{"a": ' * depth + "1" + "}" * depth + "}"),
        st.integers(10_000, 100_000).map(lambda size: '[f(a="' + "x" * size + '")]'),          # huge strings
        st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=200),          # any text
        st.text(alphabet=ODD_UNICODE + "[]{}()\"':=,<>|", max_size=200),                      # odd Unicode
        st.tuples(calls_text, st.sampled_from(["<tool_call>", "```\n", "<|im_start|>", "[TOOL_CALLS]"]))
        .map(lambda pair: pair[1] + pair[0]),
        st.tuples(calls_text, st.sampled_from(['"  [1, 2]"', '" {\\"a\\": 1}"', "1e999", "-0", '"\\ud800"']))
        .map(lambda pair: pair[0].replace('"北京"', pair[1])),
    )


def _predictions(texts, column="output") -> pa.Table:
    ids = GOLD.column("id").to_pylist()
    n = len(texts)
    return pa.table({"id": pa.array((ids * (n // len(ids) + 1))[:n], pa.string()),
                     "model": pa.array(["fuzz"] * n, pa.string()),
                     "calls": pa.array(texts if column == "calls" else [None] * n, pa.string()),
                     "output": pa.array(texts if column == "output" else [None] * n, pa.string())})


def _one_verdict_per_row(predictions: pa.Table, options=Options()):
    result = score_tables(predictions, GOLD, options)
    assert result.scoring_errors == 0, result.first_scoring_error   # no row raised, not even caught
    verdicts = result.verdicts
    scored = verdicts.filter(pa.compute.invert(verdicts["missing_prediction"]))
    assert scored["id"].to_pylist() == predictions["id"].to_pylist()
    for outcome, subtype in zip(scored["outcome"].to_pylist(), scored["subtype"].to_pylist()):
        assert outcome in vocab.OUTCOMES and (subtype is None or subtype in vocab.SUBTYPES[outcome])
    return scored


@settings(max_examples=4, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(st.lists(outputs(), min_size=len(GOLD_CALLS), max_size=len(GOLD_CALLS)))
def test_every_example_row_survives_fuzzed_outputs(texts):
    _one_verdict_per_row(_predictions(texts))


@settings(max_examples=3, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(st.lists(outputs(), min_size=40, max_size=40))
def test_fuzzed_calls_column_and_bfcl_mode(texts):
    _one_verdict_per_row(_predictions(texts, column="calls"))
    _one_verdict_per_row(_predictions(texts), Options(compat="bfcl"))


def test_every_cut_of_every_gold_answer():
    """Generated rows: each example gold answer as an output, cut at every eighth character."""
    texts = [calls[:cut] for calls in GOLD_CALLS for cut in range(0, len(calls), 8)]
    _one_verdict_per_row(_predictions(texts))


def test_a_row_whose_scoring_raises_is_undecided_and_named(monkeypatch):
    from scorer import encode

    original = encode.PredictionEncoder._call

    def fragile(self, g_row, tool, arguments_json):
        if "boom" in arguments_json:
            raise RuntimeError("boom in a value")
        return original(self, g_row, tool, arguments_json)

    monkeypatch.setattr(encode.PredictionEncoder, "_call", fragile)
    texts = GOLD_CALLS[:10]
    texts[3] = texts[3].replace('"arguments": {', '"arguments": {"x": "boom", ', 1) if '"arguments": {' in texts[3] else \
        '[{"name": "get_weather", "arguments": {"city": "boom"}}]'
    result = score_tables(_predictions(texts, column="calls"), GOLD)
    scored = result.verdicts.filter(pa.compute.invert(result.verdicts["missing_prediction"])).to_pylist()
    assert len(scored) == 10
    failed = [row for row in scored if row["rule"] == SCORING_ERROR]
    assert [row["id"] for row in failed] == [scored[3]["id"]]
    assert failed[0]["decided"] is False and failed[0]["subtype"] in (vocab.MALFORMED, None) or \
        failed[0]["outcome"] == vocab.OVER_RECALL
    assert "RuntimeError: boom in a value" in failed[0]["uncertain_reason"]
    assert "RuntimeError: boom in a value" in failed[0]["detail"]
    texts[3] = GOLD_CALLS[3]
    usual = score_tables(_predictions(texts, column="calls"), GOLD).verdicts.to_pylist()
    assert [(row["outcome"], row["subtype"]) for row in scored[:3] + scored[4:]] == \
        [(row["outcome"], row["subtype"]) for row in usual[:3] + usual[4:10]]   # the others are scored as usual
    assert result.scoring_errors == 1
    assert any("1 row(s) raised an error" in note and "RuntimeError" in note for note in result.notes())


@pytest.mark.parametrize("jobs", [2])
def test_a_raising_row_in_a_worker_process(monkeypatch, jobs):
    from scorer import parse

    def fragile(text):
        raise ValueError("parser defect")

    monkeypatch.setattr("scorer.parse_bulk.parse_output", fragile)  # the careful parser behind the bulk reader
    n = len(GOLD_CALLS)
    # "{x": not JSON, so the bulk reader's fast path leaves it to the careful parser (it reads plain prose itself)
    result = score_tables(_predictions(["{x"] * n), GOLD, Options(jobs=jobs))
    assert result.verdicts["rule"].to_pylist() == [SCORING_ERROR] * n
    assert result.scoring_errors == n
    assert parse.parse_output("{x").malformed is None   # the real parser is untouched
