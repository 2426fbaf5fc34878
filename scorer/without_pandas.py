"""A scoring run that never imports pandas. pyarrow imports it on its first conversion of a
Python value (`pa.array`, `pa.scalar`, even while importing `pyarrow.dataset` to read a parquet
file) only to ask whether that value is a pandas object: about 0.15-0.2 CPU-seconds of every
run, serial in the main process before any worker starts, and never used by callscore. A
process that has not imported pandas holds no pandas object, so for the run the import is
refused (pyarrow then takes pandas as absent); the refusal is withdrawn afterwards, and pyarrow
imports pandas again when a later call needs it (`to_pandas`)."""

import contextlib
import sys


class _RefusePandas:
    """A meta-path finder that refuses the pandas package (a `None` in sys.modules would not
    do: compiled modules such as pyarrow's read sys.modules directly and get the None)."""

    @staticmethod
    def find_spec(name, path=None, target=None):
        if name == "pandas" or name.startswith("pandas."):
            raise ModuleNotFoundError("pandas is not imported while callscore scores", name=name)
        return None


@contextlib.contextmanager
def without_pandas():
    """Refuse `import pandas` inside the block, unless it was imported before (then pandas
    objects may be about, and pyarrow must know them)."""
    if "pandas" in sys.modules:
        yield
        return
    finder = _RefusePandas()
    sys.meta_path.insert(0, finder)
    try:
        yield
    finally:
        sys.meta_path.remove(finder)
