"""Which implementation runs, chosen in one place for every compiled core in ext/ (rapidfuzz's
habit): $CALLSCORE_IMPL=cython requires the compiled core, =python forces the pure-Python twin,
unset tries the compiled core and falls back to the twin (identical results, slower)."""

import importlib
import os
import warnings


def chosen(compiled: str, twin, names, fallback_warning: str | None = None) -> tuple:
    """(the functions `names` of the module `compiled`, or of the pure twin module `twin`;
    "cython" or "python"). `fallback_warning` is given once when the compiled core is missing."""
    choice = os.environ.get("CALLSCORE_IMPL", "")
    if choice not in ("", "cython", "python"):
        raise ImportError(f"CALLSCORE_IMPL must be 'cython' or 'python', not {choice!r}")
    if choice != "python":
        try:
            module = importlib.import_module(compiled)
            return tuple(getattr(module, name) for name in names), "cython"
        except ImportError:
            if choice == "cython":
                raise
            if fallback_warning:
                warnings.warn(fallback_warning, RuntimeWarning, stacklevel=3)
    return tuple(getattr(twin, name) for name in names), "python"
