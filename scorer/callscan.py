"""Chooses the output scanners' implementation, as scorer/match.py chooses the matcher's
(CALLSCORE_IMPL=cython requires the compiled scanner, =python forces the pure twin, unset tries
the compiled one and falls back to the twin; the matcher's chooser warns when it does)."""

import os

from scorer import callscan_py
from scorer.callscan_py import LONG_DIGITS, NOT_PYTHON, NOT_READ

if os.environ.get("CALLSCORE_IMPL", "") == "python":
    scan_calls, has_long_digits, IMPLEMENTATION = callscan_py.scan_calls, callscan_py.has_long_digits, "python"
else:
    try:
        from scorer._callscan_cy import has_long_digits, scan_calls
        IMPLEMENTATION = "cython"
    except ImportError:
        if os.environ.get("CALLSCORE_IMPL", "") == "cython":
            raise
        scan_calls, has_long_digits, IMPLEMENTATION = callscan_py.scan_calls, callscan_py.has_long_digits, "python"

__all__ = ["scan_calls", "has_long_digits", "IMPLEMENTATION", "LONG_DIGITS", "NOT_READ", "NOT_PYTHON"]
