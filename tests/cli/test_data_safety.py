"""A run never destroys an input, checks its outputs before reading anything, writes through
partial files of its own, cleans up when stopped, and writes a valid file for 0 rows."""

import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from scorer import pipeline
from scorer.cli import cli
from scorer.options import Options
from scorer.write import VerdictWriter

EXAMPLES = Path(__file__).resolve().parents[2] / "data" / "examples"


@pytest.fixture
def inputs(tmp_path):
    for name in ("predictions.parquet", "gold.parquet"):
        shutil.copy(EXAMPLES / name, tmp_path / name)
    return tmp_path / "predictions.parquet", tmp_path / "gold.parquet"


def _run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


@pytest.mark.parametrize("option", ["-o", "--summary", "--undecided"])
def test_an_output_naming_an_input_is_refused_and_the_input_kept(inputs, option):
    predictions, gold = inputs
    before = predictions.read_bytes(), gold.read_bytes()
    for target in (predictions, gold):
        result = _run(predictions, gold, option, target, "-q")
        assert result.exit_code == 2, result.output
        assert "names an input file" in result.output
    assert (predictions.read_bytes(), gold.read_bytes()) == before


@pytest.mark.parametrize("option", ["-o", "--dialogues", "--summary"])
def test_score_dialogue_refuses_an_output_naming_an_input(tmp_path, option):
    predictions, gold = tmp_path / "p.jsonl", tmp_path / "g.jsonl"
    shutil.copy(EXAMPLES / "dialogue_predictions.jsonl", predictions)
    shutil.copy(EXAMPLES / "dialogue_gold.jsonl", gold)
    before = predictions.read_bytes(), gold.read_bytes()
    for target in (predictions, gold):
        result = _run("dialogue", predictions, gold, option, target, "-q")
        assert result.exit_code == 2 and "names an input file" in result.output, result.output
    assert (predictions.read_bytes(), gold.read_bytes()) == before


def test_score_dialogue_caps_jobs_at_the_cores(tmp_path):
    result = _run("dialogue", EXAMPLES / "dialogue_predictions.jsonl", EXAMPLES / "dialogue_gold.jsonl", "-j", 4096)
    assert result.exit_code == 0, result.output
    assert f"--jobs 4096 capped to the {os.cpu_count() or 1} core(s)" in result.output


def test_an_output_reaching_an_input_through_a_link_is_refused(inputs, tmp_path):
    predictions, gold = inputs
    before = predictions.read_bytes()
    link = tmp_path / "verdicts.parquet"
    link.symlink_to(predictions)
    result = _run(predictions, gold, "-o", link, "-q")
    assert result.exit_code == 2 and "names an input file" in result.output
    assert predictions.read_bytes() == before


def test_a_missing_output_directory_is_refused_before_reading(tmp_path, inputs):
    _predictions, gold = inputs
    unreadable = tmp_path / "corrupt.parquet"
    unreadable.write_bytes(b"not parquet at all")  # would fail if it were read first
    result = _run(unreadable, gold, "-o", tmp_path / "no" / "such" / "v.parquet")
    assert result.exit_code == 2
    assert "does not exist" in result.output and "Traceback" not in result.output


def test_a_bad_summary_extension_is_refused_before_any_verdict_is_written(inputs, tmp_path):
    predictions, gold = inputs
    out = tmp_path / "v.parquet"
    result = _run(predictions, gold, "-o", out, "--summary", tmp_path / "s.xlsx", "-q")
    assert result.exit_code == 2 and "--summary" in result.output
    assert not out.exists()


def test_a_bad_verdict_extension_is_refused(inputs, tmp_path):
    predictions, gold = inputs
    result = _run(predictions, gold, "-o", tmp_path / "v.csv", "-q")
    assert result.exit_code == 2 and "unknown extension '.csv'" in result.output


def test_two_writers_of_one_file_do_not_collide_and_the_last_wins(tmp_path):
    path = tmp_path / "v.parquet"
    first, second = VerdictWriter(path, {}), VerdictWriter(path, {})
    assert first.temporary != second.temporary
    first.write(pa.record_batch({"x": [1]}))
    second.write(pa.record_batch({"x": [2]}))
    first.close()
    second.close()
    assert pq.read_table(path).column("x").to_pylist() == [2]
    assert [p.name for p in tmp_path.iterdir()] == ["v.parquet"]


def test_workers_are_forked_before_the_writer_thread_starts(inputs, tmp_path, monkeypatch):
    """Forking while another thread holds a lock can deadlock the child."""
    threads_at_fork = []
    real_get_context = pipeline.multiprocessing.get_context

    def recording_context(method):
        context = real_get_context(method)

        class Recording:
            def Pool(self, *args, **kwargs):  # noqa: N802 - the name multiprocessing uses
                threads_at_fork.append(sorted(t.name for t in threading.enumerate()))
                return context.Pool(*args, **kwargs)
        return Recording()

    monkeypatch.setattr(pipeline.multiprocessing, "get_context", recording_context)
    predictions, gold = inputs
    pipeline.score_files(predictions, gold, Options(jobs=2), out=tmp_path / "v.parquet")
    assert threads_at_fork and all("callscore-writer" not in names for names in threads_at_fork)
    assert pq.read_table(tmp_path / "v.parquet").num_rows > 0


_SLOW_RUN = """
import sys, time
from scorer import pipeline
from scorer.cli import main
score_distinct = pipeline.Scorer.score_distinct
def slow(self, firsts, g_rows):
    time.sleep(0.3)
    return score_distinct(self, firsts, g_rows)
pipeline.Scorer.score_distinct = slow
sys.argv = ["score", *sys.argv[1:]]
main()
"""


def _default_signals():
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _children(pid):
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


@pytest.mark.skipif(not Path("/proc").is_dir() or sys.platform == "win32", reason="needs /proc and signals")
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_stopped_run_stops_its_workers_and_removes_its_partial_files(inputs, tmp_path, signum):
    predictions, gold = inputs
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    process = subprocess.Popen([sys.executable, "-c", _SLOW_RUN, str(predictions), str(gold), "--batch-size", "8",
                                "-j", "2", "-q", "-o", str(out_dir / "v.parquet"),
                                "--undecided", str(out_dir / "u.jsonl")], stderr=subprocess.PIPE,
                               preexec_fn=_default_signals)  # a background CI job ignores SIGINT
    deadline = time.monotonic() + 60
    workers = []
    while time.monotonic() < deadline and (len(workers) < 2 or len(list(out_dir.iterdir())) < 2):
        workers = _children(process.pid)
        time.sleep(0.1)
    assert len(workers) >= 2 and any(p.name.endswith(".partial") for p in out_dir.iterdir())
    process.send_signal(signum)
    _out, err = process.communicate(timeout=60)
    assert process.returncode == 128 + signum, err.decode()  # 143 for SIGTERM, 130 for Ctrl-C
    assert b"Aborted!" not in err
    assert list(out_dir.iterdir()) == []
    time.sleep(0.5)
    assert [pid for pid in workers if Path(f"/proc/{pid}").exists() and
            (Path(f"/proc/{pid}") / "stat").read_text().split(") ", 1)[1][0] != "Z"] == []


def test_zero_prediction_rows_write_an_empty_file_with_the_verdict_schema(inputs, tmp_path):
    predictions, gold = inputs
    empty = tmp_path / "empty.parquet"
    pq.write_table(pq.read_table(predictions).slice(0, 0), empty)
    full_out, empty_out = tmp_path / "full.parquet", tmp_path / "none.parquet"
    assert _run(predictions, gold, "-o", full_out, "-q").exit_code == 0
    result = _run(empty, gold, "-o", empty_out)
    assert result.exit_code == 0, result.output
    assert "no rows" in result.output
    written = pq.read_table(empty_out)
    assert written.num_rows == 0
    assert written.schema.equals(pq.read_table(full_out).schema, check_metadata=True)
    jsonl = tmp_path / "none.jsonl"
    assert _run(empty, gold, "-o", jsonl, "-q").exit_code == 0
    assert jsonl.exists() and jsonl.read_bytes() == b""


@pytest.mark.parametrize("args", [["--fuzzy-high", "150"], ["--fuzzy-low", "-1"], ["--fuzzy-high", "50"]])
def test_fuzzy_thresholds_outside_the_scale_or_crossed_are_usage_errors(inputs, args):
    predictions, gold = inputs
    result = _run(predictions, gold, *args, "-q")
    assert result.exit_code == 2, result.output
    assert "fuzzy" in result.output


def test_jobs_above_the_core_count_are_capped_with_a_note(inputs, tmp_path):
    predictions, gold = inputs
    many = (os.cpu_count() or 1) + 5
    result = _run(predictions, gold, "--jobs", many, "-o", tmp_path / "v.parquet")
    assert result.exit_code == 0, result.output
    assert f"--jobs {many} capped to the {os.cpu_count()} core(s)" in result.output
    baseline = tmp_path / "one.parquet"
    assert _run(predictions, gold, "--jobs", 1, "-o", baseline, "-q").exit_code == 0
    assert baseline.read_bytes() == (tmp_path / "v.parquet").read_bytes()


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_a_worker_forked_with_the_sigterm_handler_dies_instead_of_unwinding():
    """A pool worker forked before it set its own handler must not raise SystemExit: in the
    moment after fork that would unwind into the caller's code (a second pytest, a second CLI)."""
    from scorer.cli import stopped_by_sigterm

    with stopped_by_sigterm():
        handler = signal.getsignal(signal.SIGTERM)
        pid = os.fork()
        if pid == 0:
            try:
                handler(signal.SIGTERM, None)
            finally:
                os._exit(3)   # reached only if the handler returned or raised
    _pid, status = os.waitpid(pid, 0)
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGTERM
