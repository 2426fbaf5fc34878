"""Integers past 64 bits (order numbers, IDs written as JSON numbers) stay exact from input to
verdict: orjson alone would read them as floats, and two of them one apart would compare equal."""

import json

import pytest
from click.testing import CliRunner

from scorer.cli import cli
from scorer.parse import dump_json, load_json

BIG = 2 ** 70 + 1
TOOLS = json.dumps([{"name": "track", "parameters": {"type": "object",
                                                     "properties": {"order": {"type": "integer"}}}}])


def test_load_json_keeps_long_integers_and_reports_orjson_errors():
    assert load_json('{"order": %d}' % BIG) == {"order": BIG}
    assert load_json(b'[%d]' % BIG) == [BIG]
    assert dump_json([BIG]) == "[%d]" % BIG
    with pytest.raises(ValueError):
        load_json('{"order": %d, NaN}' % BIG)


@pytest.mark.parametrize("nested", [True, False])  # arguments as objects (line reader) or as text
@pytest.mark.parametrize("predicted, outcome", [(BIG, "correct"), (BIG + 1, "param_error")])
def test_integers_one_apart_past_64_bits_differ(tmp_path, nested, predicted, outcome):
    gold, predictions, out = tmp_path / "g.jsonl", tmp_path / "p.jsonl", tmp_path / "v.jsonl"
    gold.write_text('{"id": "1", "gold_calls": [{"name": "track", "arguments": {"order": %d}}], "tools": %s}\n'
                    % (BIG, json.dumps(TOOLS)))
    arguments = '{"order": %d}' % predicted
    predictions.write_text('{"id": "1", "model": "m", "calls": [{"name": "track", "arguments": %s}]}\n'
                           % (arguments if nested else json.dumps(arguments)))
    result = CliRunner().invoke(cli, [str(predictions), str(gold), "-o", str(out), "-q"])
    assert result.exit_code == 0, result.output
    assert json.loads(out.read_text())["outcome"] == outcome


def test_an_undecided_call_with_a_long_integer_reaches_the_judge_file_exactly(tmp_path):
    gold, predictions, undecided = tmp_path / "g.jsonl", tmp_path / "p.jsonl", tmp_path / "u.jsonl"
    gold.write_text(json.dumps({"id": "1", "gold_calls": [{"name": "track", "arguments": {"order": 7}}],
                                "tools": TOOLS}) + "\n")
    predictions.write_text(json.dumps({"id": "1", "model": "m", "output": "[track(order=7, serial=%d)]" % BIG}) + "\n")
    result = CliRunner().invoke(cli, [str(predictions), str(gold), "-q", "--undecided", str(undecided)])
    assert result.exit_code == 0, result.output
    record = json.loads(undecided.read_text())
    assert record["predicted_calls"] == [{"name": "track", "arguments": {"order": 7, "serial": BIG}}]


def test_lint_scores_a_gold_with_a_long_integer_against_itself_as_correct(tmp_path):
    gold = tmp_path / "g.jsonl"
    gold.write_text('{"id": "1", "gold_calls": [{"name": "track", "arguments": {"order": %d}}], "tools": %s}\n'
                    % (BIG, json.dumps(TOOLS)))
    result = CliRunner().invoke(cli, ["lint", str(gold)])
    assert result.exit_code == 0, result.output
    assert "1/1 correct" in result.output
