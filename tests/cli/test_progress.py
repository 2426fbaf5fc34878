"""The progress display: from the start on a terminal (rows read, rows/s, and a bar with the
ETA when the total is known), nothing when disabled; the pipeline reports rows as it reads them."""

import io
from pathlib import Path

from scorer import pipeline
from scorer.options import Options
from scorer.progress import Progress

EXAMPLES = Path(__file__).resolve().parents[2] / "data" / "examples"


def test_progress_shows_from_the_start_with_rate_and_eta():
    stream = io.StringIO()
    with Progress(enabled=True, total=1000, stream=stream) as progress:
        assert "0/1000" in stream.getvalue()          # before the first batch is read
        progress.advance(500)
    text = stream.getvalue()
    assert "500/1000" in text and "rows/s" in text
    assert "<" in text.rsplit("500/1000", 1)[1]          # elapsed<remaining: the ETA


def test_progress_without_a_total_counts_rows_and_rate():
    stream = io.StringIO()
    with Progress(enabled=True, total=None, stream=stream) as progress:
        progress.advance(1234)
    text = stream.getvalue()
    assert "1234 rows" in text and "rows/s" in text


def test_progress_disabled_writes_nothing():
    stream = io.StringIO()
    with Progress(enabled=False, total=10, stream=stream) as progress:
        progress.advance(5)
    assert stream.getvalue() == ""


def test_rows_are_reported_as_they_are_read():
    seen = []
    pipeline.score_files(EXAMPLES / "predictions.parquet", EXAMPLES / "gold.parquet",
                                  Options(batch_size=100), progress=seen.append)
    assert seen[0] == 100 and sum(seen) == pipeline.count_rows(EXAMPLES / "predictions.parquet")
