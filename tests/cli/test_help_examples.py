"""Every `--help` example runs as written, from a directory holding the checkout's data/
(the scoring example first: it writes the verdicts.parquet the others read); and `score
--help` opens with the scoring command's own usage and options."""

import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from scorer.cli import DEFAULT_COMMAND, cli

DATA = Path(__file__).resolve().parents[2] / "data"
_EXAMPLE = re.compile(r"^\s*Example: (score .+)$", re.M)


def _examples():
    found = []
    for name, command in [(None, cli), *cli.commands.items()]:
        found += [(name, line) for line in _EXAMPLE.findall(command.help or "")]
    # the scoring command's example writes verdicts.parquet: it runs first
    return sorted(found, key=lambda example: example[0] != DEFAULT_COMMAND)


def test_every_command_has_an_example():
    named = {name for name, _line in _examples()}
    assert named >= {name for name, command in cli.commands.items() if not command.hidden} | {DEFAULT_COMMAND}


def test_every_example_runs_as_written(tmp_path, monkeypatch):
    pytest.importorskip("matplotlib", reason="score plot's example needs the plot extra")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "data").symlink_to(DATA)
    runner = CliRunner()
    for name, line in _examples():
        result = runner.invoke(cli, shlex.split(line)[1:])
        assert result.exit_code == 0, (line, result.output)
        assert "Error:" not in result.output and "Traceback" not in result.output, (line, result.output)
    assert (tmp_path / "verdicts.parquet").is_file() and (tmp_path / "judged.parquet").is_file()
    # the example data has difficulties and temporal errors: all three figures, in three formats each
    assert sorted(path.name for path in (tmp_path / "figures").iterdir()) == sorted(
        f"{stem}.{suffix}" for stem in ("error_profile", "accuracy_by_difficulty", "temporal_slips")
        for suffix in ("png", "svg", "pdf"))


def test_score_help_opens_with_the_scoring_options():
    for args in (["--help"], []):
        text = CliRunner().invoke(cli, args, prog_name="score").output
        assert text.startswith("Usage: score [OPTIONS] PREDICTIONS... GOLD")
        assert text.index("--out") < text.index("Commands:") and "merge-judge" in text
