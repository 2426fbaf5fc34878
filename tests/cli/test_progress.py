"""The progress line: shown on a terminal once a run passes two seconds, never otherwise."""

import io

from scorer import progress as progress_module
from scorer.progress import Progress


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


def test_progress_appears_after_two_seconds_with_rate_and_eta(monkeypatch):
    clock = Clock()
    monkeypatch.setattr(progress_module.time, "monotonic", clock)
    stream = io.StringIO()
    with Progress(enabled=True, total=1000, stream=stream) as progress:
        progress.advance(100)
        assert stream.getvalue() == ""          # under two seconds: silent
        clock.now += 2.5
        progress.advance(400)
    text = stream.getvalue()
    assert "500/1,000 rows" in text and "200 rows/s" in text and "ETA 2 s" in text
    assert text.endswith("\n")


def test_progress_disabled_writes_nothing(monkeypatch):
    clock = Clock()
    monkeypatch.setattr(progress_module.time, "monotonic", clock)
    stream = io.StringIO()
    with Progress(enabled=False, total=10, stream=stream) as progress:
        clock.now += 10
        progress.advance(5)
    assert stream.getvalue() == ""
