"""A scoring run does not import pandas (pyarrow would, only to ask whether values are pandas
objects), gives the same verdict file as a run in a process that imported pandas first, and
leaves pandas importable afterwards. In child processes: pytest's own may have imported pandas."""

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pandas")

EXAMPLES = Path(__file__).resolve().parents[2] / "data" / "examples"

_SCORE = """
import sys
{before}
from scorer.cli import main
sys.argv = ["score", {predictions!r}, {gold!r}, "-q", "-o", {out!r}]
try:
    main()
except SystemExit as stop:
    assert not stop.code, stop.code
print("pandas imported:", "pandas" in sys.modules)
"""


def _score(tmp_path, name, before=""):
    out = tmp_path / f"{name}.parquet"
    code = _SCORE.format(before=before, predictions=str(EXAMPLES / "predictions.parquet"),
                         gold=str(EXAMPLES / "gold.parquet"), out=str(out))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return done.stdout.strip(), out.read_bytes()


def test_scoring_imports_no_pandas_and_verdicts_do_not_change(tmp_path):
    said, verdicts = _score(tmp_path, "without")
    assert said == "pandas imported: False"
    said_with, verdicts_with = _score(tmp_path, "with", before="import pandas")
    assert said_with == "pandas imported: True"
    assert verdicts == verdicts_with


def test_pandas_is_refused_inside_the_block_only():
    code = """
import sys
from scorer.without_pandas import without_pandas
with without_pandas():
    import pyarrow as pa
    pa.array([1, 2])
    try:
        import pandas
    except ModuleNotFoundError:
        print("refused")
import pandas
print(type(pa.table({"a": [1]}).to_pandas()).__name__)
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["refused", "DataFrame"]
