"""BFCL's own list of models (bfcl_models.toml, written by bench/make_bfcl_models.py from
BFCL's source): what BFCL decided per model, looked up the way BFCL looks it up.

BFCL names a result folder after the model with `/` written `_` and reads the name back with
every `_` as `/` (`meetkai_functionary-small-v3.2-FC` is `meetkai/functionary-small-v3.2-FC`).
Versions are asked newest first unless the run's own version is known: where two versions
list a model they agree on its renamed dots, not always on its handler.
"""

import functools
import sys
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10: the same parser, as the tomli package
    import tomli as tomllib

_TABLE = Path(__file__).with_name("bfcl_models.toml")


@functools.lru_cache(maxsize=1)
def versions() -> dict:
    """{BFCL version: {model: {handler, underscore_to_dot[, fc]}}}, newest first."""
    with open(_TABLE, "rb") as handle:
        return tomllib.load(handle)


@functools.lru_cache(maxsize=1024)
def listed(model: str, run: str | None = None):
    """(version, settings) of BFCL version `run` if it lists `model`, else of the newest that
    does, or None. A model's handler can change between versions (granite's did)."""
    name = model.replace("_", "/")
    tables = versions()
    for version in ([run] if run in tables else []) + list(tables):
        if name in tables[version]:
            return version, tables[version][name]
    return None


_RUN_PREFIX = "bfcl-eval-"   # bfcl-eval's runs are named after its release: bfcl-eval-2026.3.23


def releases() -> list:
    """The BFCL versions reproduced, newest first, as a user names them (`--compat bfcl@2024-08`)."""
    return [run.removeprefix(_RUN_PREFIX) for run in versions()]


def run_of(release: str) -> str:
    """The run a user-named version is (`2026.3.23` -> `bfcl-eval-2026.3.23`)."""
    for run in versions():
        if run.removeprefix(_RUN_PREFIX) == release:
            return run
    raise ValueError(f"BFCL version {release!r} is not reproduced; these are: {', '.join(releases())}")


def latest() -> str:
    return next(iter(versions()))


def underscore_to_dot(model: str, run: str | None = None):
    """Whether BFCL (version `run` first) sent `model` the function names with `.` as `_`; None
    when BFCL does not list it."""
    found = listed(model, run)
    return None if found is None else found[1]["underscore_to_dot"]
