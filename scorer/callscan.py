"""Chooses the output scanners' implementation (scorer.implementation: $CALLSCORE_IMPL)."""

from scorer import callscan_py
from scorer.callscan_py import LONG_DIGITS, NOT_PYTHON, NOT_READ
from scorer.implementation import chosen

(scan_calls, has_long_digits), IMPLEMENTATION = chosen("scorer._callscan_cy", callscan_py,
                                                       ["scan_calls", "has_long_digits"])

__all__ = ["scan_calls", "has_long_digits", "IMPLEMENTATION", "LONG_DIGITS", "NOT_READ", "NOT_PYTHON"]
