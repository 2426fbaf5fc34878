"""Every command that writes (merge-judge, table, plot, resolve, the summaries of score and
dialogue) refuses an output that names one of its inputs, links followed; writes through a
partial file renamed into place, so that a failed write leaves the old file or nothing; and
says in one line, exit 2, when the output's directory is missing or cannot be written."""

import errno
import importlib.util
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from scorer.cli import cli

EXAMPLES = Path(__file__).resolve().parents[2] / "data" / "examples"
READ_ONLY = Path("/sys")  # no file can be created there, not even by root (who passes every access check)

# score plot needs the plot extra, which the suites of the other Pythons do not install
NEEDS_MATPLOTLIB = pytest.mark.skipif(importlib.util.find_spec("matplotlib") is None,
                                      reason="matplotlib (the plot extra) is not installed")


def _run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


@pytest.fixture(scope="module")
def scored(tmp_path_factory):
    """The example's verdicts and judge answers, in a directory of their own."""
    directory = tmp_path_factory.mktemp("scored")
    result = _run(EXAMPLES / "predictions.parquet", EXAMPLES / "gold.parquet", "-o", directory / "v.parquet", "-q")
    assert result.exit_code == 0, result.output
    shutil.copy(EXAMPLES / "judge_answers.jsonl", directory / "judge.jsonl")
    (directory / "cases.jsonl").write_text('{"text": "周六", "reference_time": "2026-03-10T09:30:00+08:00"}\n',
                                           encoding="utf-8")
    return directory


@pytest.fixture
def inputs(scored, tmp_path):
    for path in scored.iterdir():
        shutil.copy(path, tmp_path / path.name)
    return tmp_path


def _commands(directory: Path, output: Path) -> dict:
    """Each writing command with `output` as its output file."""
    verdicts, judge = directory / "v.parquet", directory / "judge.jsonl"
    return {
        "merge-judge": ["merge-judge", verdicts, judge, "-o", output],
        "table": ["table", verdicts, "-o", output],
        "resolve": ["resolve", "--file", directory / "cases.jsonl", "--out", output],
        "score --summary": [EXAMPLES / "predictions.parquet", EXAMPLES / "gold.parquet", "--summary", output, "-q"],
        "dialogue --summary": ["dialogue", EXAMPLES / "dialogue_predictions.jsonl", EXAMPLES / "dialogue_gold.jsonl",
                               "--summary", output, "-q"],
    }


def _snapshot(directory: Path) -> dict:
    return {path.name: path.read_bytes() for path in directory.iterdir()}


@pytest.mark.parametrize("command, target", [("merge-judge", "v.parquet"), ("merge-judge", "judge.jsonl"),
                                             ("table", "v.parquet"), ("resolve", "cases.jsonl")])
def test_an_output_naming_an_input_is_refused(inputs, command, target):
    before = _snapshot(inputs)
    result = _run(*_commands(inputs, inputs / target)[command])
    assert result.exit_code == 2, result.output
    assert "names an input file" in result.output
    assert _snapshot(inputs) == before


@pytest.mark.parametrize("command", ["merge-judge", "table"])
def test_an_output_linked_to_an_input_is_refused(inputs, command):
    link = inputs / ("linked.parquet" if command == "merge-judge" else "linked.md")
    link.symlink_to(inputs / "v.parquet")
    before = (inputs / "v.parquet").read_bytes()
    result = _run(*_commands(inputs, link)[command])
    assert result.exit_code == 2 and "names an input file" in result.output, result.output
    assert (inputs / "v.parquet").read_bytes() == before


@NEEDS_MATPLOTLIB
def test_plot_refuses_a_figure_that_is_a_link_to_its_input(inputs):
    figures = inputs / "figures"
    figures.mkdir()
    (figures / "error_profile.png").symlink_to(inputs / "v.parquet")
    before = (inputs / "v.parquet").read_bytes()
    result = _run("plot", inputs / "v.parquet", "-o", figures)
    assert result.exit_code == 2 and "names an input file" in result.output, result.output
    assert (inputs / "v.parquet").read_bytes() == before


@pytest.mark.parametrize("command", ["merge-judge", "table", "resolve", "score --summary", "dialogue --summary"])
def test_a_failed_write_leaves_the_old_file_and_no_partial_one(inputs, monkeypatch, command):
    suffix = {"merge-judge": ".parquet", "table": ".md", "resolve": ".jsonl"}.get(command, ".json")
    out = inputs / "out" / f"result{suffix}"
    out.parent.mkdir()
    out.write_bytes(b"the previous result")

    def disk_full(_source, _destination):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    monkeypatch.setattr(os, "replace", disk_full)
    result = _run(*_commands(inputs, out)[command])
    assert result.exit_code == 2, result.output
    assert f"{out}: cannot write it (No space left on device)" in result.output
    assert _snapshot(out.parent) == {out.name: b"the previous result"}


@NEEDS_MATPLOTLIB
def test_plot_writes_every_figure_through_a_partial_file(inputs, monkeypatch):
    figures = inputs / "figures"
    renamed = []
    real_replace = os.replace

    def recording(source, destination):
        renamed.append((Path(source).name, Path(destination).name))
        real_replace(source, destination)
    monkeypatch.setattr(os, "replace", recording)
    result = _run("plot", inputs / "v.parquet", "-o", figures)
    assert result.exit_code == 0, result.output
    written = sorted(path.name for path in figures.iterdir())
    assert "error_profile.png" in written and "accuracy_by_difficulty.svg" in written
    assert sorted(destination for _source, destination in renamed) == written
    assert all(source.startswith(f".{destination}.") and source.endswith(".partial")
               for source, destination in renamed)


@pytest.mark.parametrize("command, option", [("merge-judge", "-o/--output"), ("table", "-o/--output"),
                                             ("resolve", "--out")])
def test_an_output_in_a_missing_directory_is_one_line_exit_2(inputs, command, option):
    out = inputs / "no" / "such" / "result.jsonl"
    result = _run(*_commands(inputs, out)[command])
    assert result.exit_code == 2, result.output
    assert result.output.splitlines() == [f"Error: {out}: {option}: directory {str(out.parent)!r} does not exist"]


@pytest.mark.skipif(not READ_ONLY.is_dir(), reason="needs a directory where nothing can be created")
@pytest.mark.parametrize("command", ["merge-judge", "table", pytest.param("plot", marks=NEEDS_MATPLOTLIB)])
def test_an_output_in_a_read_only_directory_is_one_line_exit_2(inputs, command):
    if command == "plot":
        out = READ_ONLY / "figures"
        args = ["plot", inputs / "v.parquet", "-o", out]
    else:
        out = READ_ONLY / "result.parquet"
        args = _commands(inputs, out)[command]
    result = _run(*args)
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"Error: {out}"), result.output
    assert "cannot" in lines[0] or "not writable" in lines[0]
