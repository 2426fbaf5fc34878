"""The command group: default action, options before arguments, help everywhere."""

import json

from click.testing import CliRunner

from scorer.cli import cli


def _files(tmp_path):
    gold = tmp_path / "g.jsonl"
    gold.write_text(json.dumps({"id": "a", "gold_calls": [{"name": "f", "arguments": {"x": 1}}]}) + "\n")
    preds = tmp_path / "p.jsonl"
    preds.write_text(json.dumps({"id": "a", "model": "m", "calls": [{"name": "f", "arguments": {"x": "1"}}]}) + "\n")
    return preds, gold


def test_default_command_scores(tmp_path):
    preds, gold = _files(tmp_path)
    result = CliRunner().invoke(cli, [str(preds), str(gold)])
    assert result.exit_code == 0, result.output
    assert "100.0" in result.output.splitlines()[2]


def test_options_before_arguments(tmp_path):
    preds, gold = _files(tmp_path)
    out = tmp_path / "v.jsonl"
    result = CliRunner().invoke(cli, ["--out", str(out), "-q", str(preds), str(gold)])
    assert result.exit_code == 0, result.output
    assert json.loads(out.read_text())["outcome"] == "correct"


def test_every_command_has_help():
    runner = CliRunner()
    top = runner.invoke(cli, ["--help"])
    assert top.exit_code == 0 and "score PREDICTIONS GOLD" in top.output
    for name, command in cli.commands.items():
        result = runner.invoke(cli, [name, "--help"])
        assert result.exit_code == 0, name
        assert command.help, f"{name} has no help text"
