"""Rows with nothing to explain (correct, decided, no error, no reply read) take their verdict
columns from per-gold-row values and the matcher's codes; every other row is explained one by
one. Both ways must give the same columns: explaining every row changes nothing."""

from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest

from scorer import pipeline
from scorer.attribute import Attributor
from scorer.options import Options

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("directory", [ROOT / "data" / "examples", ROOT / "tests" / "data" / "generated"],
                         ids=["examples", "generated"])
def test_plain_rows_read_as_if_explained(tmp_path, monkeypatch, directory):
    plain_rows = []
    original = Attributor.plain

    def counted(self, g_rows, matched):
        found = original(self, g_rows, matched)
        plain_rows.append(int(found.sum()))
        return found

    monkeypatch.setattr(Attributor, "plain", counted)
    pipeline.score_files(directory / "predictions.parquet", directory / "gold.parquet", Options(), out=tmp_path / "a.parquet")
    assert sum(plain_rows) > 100   # the shortcut is taken, on most correct rows

    monkeypatch.setattr(Attributor, "plain", lambda self, g_rows, matched: np.zeros(len(g_rows), bool))
    pipeline.score_files(directory / "predictions.parquet", directory / "gold.parquet", Options(), out=tmp_path / "b.parquet")
    shortcut, explained = pq.read_table(tmp_path / "a.parquet"), pq.read_table(tmp_path / "b.parquet")
    assert shortcut.num_rows > 0
    assert shortcut.equals(explained, check_metadata=True)
