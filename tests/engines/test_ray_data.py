"""Ray Data gives the local verdicts row for row (after sorting by model, id) and the same
summary: on the example data (`score --engine ray`) and on a generated 200k-row file
(`score_dataset`, missing predictions included). One local Ray, in a child process
(ray_session.py says why): more CPUs than actors, no dashboard, a small object store."""

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

pytest.importorskip("ray", reason="the [ray] extra is not installed (pip install -e '.[ray]')")

from scorer import Gold  # noqa: E402
from scorer.cli import cli  # noqa: E402
from scorer.engines.ray_data import actor_cpus, score_dataset, worker_environment  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "data" / "examples"
PREDICTIONS, GOLD = EXAMPLES / "predictions.parquet", EXAMPLES / "gold.parquet"


def test_ray_equals_the_local_run_on_the_examples_and_200k_rows(tmp_path):
    done = subprocess.run([sys.executable, str(Path(__file__).with_name("ray_session.py")), str(tmp_path)],
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-4000:]
    passed = [line[len("passed: "):] for line in done.stdout.splitlines() if line.startswith("passed: ")]
    assert passed == ["engine_ray_writes_a_directory_and_the_same_summary", "rows_200k_equal_the_local_run",
                      "one_file_is_split_into_blocks_of_the_batch_size", "a_failed_run_leaves_no_output_directory",
                      "notes_on_the_gold_are_the_local_runs"], \
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


def readme_ray_command() -> list[str]:
    """The `score ... --engine ray` line of README's Ray Data section, as a reader pastes it."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text[text.index("### Ray Data"):]
    return next(shlex.split(line) for line in section.splitlines() if line.startswith("score ") and "--engine ray" in line)


def test_readme_ray_command_completes_on_two_cpus(tmp_path):
    """README's command as written, from a directory holding the examples, on a local Ray of
    two CPUs (CI's cores; forced here so the test does not depend on the machine): -j 2 actors
    and the read task all run, within a time limit. Then the same with -q prints no INFO line."""
    command = readme_ray_command()
    assert command[:2] == ["score", "data/examples/predictions.parquet"] and "-j" in command
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "examples").symlink_to(EXAMPLES)
    env = {key: value for key, value in os.environ.items() if key != "RAY_ADDRESS"}
    env["RAY_OVERRIDE_RESOURCES"] = json.dumps({"CPU": 2})
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [env.get("PYTHONPATH")])])

    def run(args):
        return subprocess.run([sys.executable, "-m", "scorer", *args], cwd=tmp_path, env=env, capture_output=True,
                              text=True, timeout=600)
    done = run(command[1:])
    assert done.returncode == 0, done.stderr[-4000:]
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert sum(row["n"] for row in summary if row["group"] == "all") == 480   # 160 gold rows x 3 models
    assert len(list((tmp_path / "verdicts_dir").glob("*.parquet"))) >= 2      # verdicts + missing predictions
    quiet = run([*[arg.replace("verdicts_dir", "quiet_dir") for arg in command[1:]], "-q"])
    assert quiet.returncode == 0, quiet.stderr[-4000:]
    assert " INFO " not in quiet.stdout + quiet.stderr, quiet.stderr[-4000:]


def test_actors_leave_a_cpu_to_the_dataset_tasks():
    assert actor_cpus(2, 2.0) == 0.5    # README's -j 2 on two CPUs: the read task keeps one
    assert actor_cpus(1, 2.0) == 1.0
    assert actor_cpus(2, 8.0) == 1.0    # enough CPUs: one each
    assert actor_cpus(3, 1.0) == 0.0    # one CPU: the tasks take it, the actors share it
