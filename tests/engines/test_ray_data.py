"""Ray Data gives the local verdicts row for row (after sorting by model, id) and the same
summary: on the example data (`score --engine ray`) and on a generated 200k-row file
(`score_dataset`, missing predictions included). One local Ray, in a child process
(ray_session.py says why): more CPUs than actors, no dashboard, a small object store."""

import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

pytest.importorskip("ray", reason="the [ray] extra is not installed (pip install -e '.[ray]')")

from scorer import Gold  # noqa: E402
from scorer.cli import cli  # noqa: E402
from scorer.engines.ray_data import score_dataset, worker_environment  # noqa: E402

EXAMPLES = Path(__file__).resolve().parents[2] / "data" / "examples"
PREDICTIONS, GOLD = EXAMPLES / "predictions.parquet", EXAMPLES / "gold.parquet"


def test_ray_equals_the_local_run_on_the_examples_and_200k_rows(tmp_path):
    done = subprocess.run([sys.executable, str(Path(__file__).with_name("ray_session.py")), str(tmp_path)],
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-4000:]
    passed = [line[len("passed: "):] for line in done.stdout.splitlines() if line.startswith("passed: ")]
    assert passed == ["engine_ray_writes_a_directory_and_the_same_summary", "rows_200k_equal_the_local_run"], \
        done.stdout[-2000:]   # only the session's own lines: Ray's raylet may warn on stdout under load


def test_engine_ray_refuses_what_it_cannot_do():
    result = CliRunner().invoke(cli, [str(PREDICTIONS), str(GOLD), "--engine", "ray"])
    assert result.exit_code == 2 and "--out DIRECTORY" in result.output


def test_actors_get_the_process_settings(monkeypatch):
    monkeypatch.setenv("CALLSCORE_POLICY", "bare_weekday=nearest")
    monkeypatch.delenv("CALLSCORE_RULES", raising=False)
    assert worker_environment()["env_vars"]["CALLSCORE_POLICY"] == "bare_weekday=nearest"
    assert "CALLSCORE_RULES" not in worker_environment()["env_vars"]


def test_duplicate_policies_that_need_one_process_are_refused():
    with pytest.raises(ValueError, match="on_duplicate='first'"):
        score_dataset(None, Gold.from_file(GOLD, on_duplicate="first"))
