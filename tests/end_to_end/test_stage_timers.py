"""CALLSCORE_TIMINGS=1: `score` prints where its CPU time went, stage by stage, the workers'
share included, and writes the same bytes as without the timers."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from scorer.timings import DESCRIBED, STAGES, Timings

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "data" / "examples"


class Clock:
    """A clock that moves only when told to."""

    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def test_a_stage_inside_another_is_taken_out_of_its_figure():
    clock = Clock()
    timings = Timings(clock)

    def normalize():
        clock.now += 3.0

    def encode():
        clock.now += 1.0
        timed_normalize()
        clock.now += 1.0

    timed_normalize = timings.timed("normalize", normalize)
    timings.timed("encode", encode)()
    assert timings.spent["normalize"] == 3.0
    assert timings.spent["encode"] == 2.0   # 5 seconds in all, 3 of them normalizing


def test_reading_is_timed_per_item_and_workers_figures_are_added():
    clock = Clock()
    timings = Timings(clock)

    def batches():
        for _ in range(3):
            clock.now += 0.5
            yield "batch"

    assert list(timings.iterated("read", batches())) == ["batch"] * 3
    assert timings.spent["read"] == 1.5
    worker = Timings(clock)
    worker.spent["match"] = 2.0
    timings.add(worker.take())
    assert worker.spent["match"] == 0.0   # a worker starts again after each task
    assert timings.spent["match"] == 2.0 and timings.workers == 2.0
    clock.now = 4.0   # the main process: 1.5 s read, 2.5 s outside the stages
    lines = timings.report()
    assert "workers included" in lines[0]
    assert lines[-2].split()[-2:] == ["2.50", "41.7%"]   # other: 2.5 of 6 (4 in the main process, 2 in a worker)
    assert lines[-1].split()[-1] == "6.00"


def _score(tmp_path, name, jobs, timings):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    env.pop("CALLSCORE_TIMINGS", None)
    if timings:
        env["CALLSCORE_TIMINGS"] = "1"
    out = tmp_path / f"{name}.parquet"
    done = subprocess.run([sys.executable, "-m", "scorer", str(EXAMPLES / "predictions.parquet"),
                           str(EXAMPLES / "gold.parquet"), "-o", str(out), "-q", "--jobs", str(jobs)],
                          cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    return out.read_bytes(), done.stderr


@pytest.mark.parametrize("jobs", [1, 2])
def test_the_cli_prints_every_stage_and_writes_the_same_bytes(tmp_path, jobs):
    timed, stderr = _score(tmp_path, "timed", jobs, True)
    plain, quiet = _score(tmp_path, "plain", jobs, False)
    assert timed == plain
    assert "stage timers" not in quiet
    lines = stderr[stderr.index("stage timers"):].splitlines()
    for stage in STAGES:
        assert any(line.strip().startswith(DESCRIBED[stage]) for line in lines), stage
    if jobs > 1:   # the workers' parse, normalize, match and attribute reached the main process
        assert "workers included" in lines[0]
    shown = [float(line.rsplit(None, 2)[-2]) for line in lines[1:-1]]
    assert abs(sum(shown) - float(lines[-1].split()[-1])) < 0.01 * len(shown)
