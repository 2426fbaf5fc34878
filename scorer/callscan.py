"""Chooses the Python-call scanner's implementation, as scorer/match.py chooses the matcher's
(CALLSCORE_IMPL=cython requires the compiled scanner, =python forces the pure twin, unset tries
the compiled one and falls back to the twin; the matcher's chooser warns when it does)."""

import os

from scorer import callscan_py
from scorer.callscan_py import NOT_PYTHON, NOT_READ

if os.environ.get("CALLSCORE_IMPL", "") == "python":
    scan_calls, IMPLEMENTATION = callscan_py.scan_calls, "python"
else:
    try:
        from scorer._callscan_cy import scan_calls
        IMPLEMENTATION = "cython"
    except ImportError:
        if os.environ.get("CALLSCORE_IMPL", "") == "cython":
            raise
        scan_calls, IMPLEMENTATION = callscan_py.scan_calls, "python"

__all__ = ["scan_calls", "IMPLEMENTATION", "NOT_READ", "NOT_PYTHON"]
