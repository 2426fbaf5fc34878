"""Chooses the start scan's implementation, as scorer/match.py chooses the matcher's
(CALLSCORE_IMPL=cython requires the compiled scan, =python forces the pure twin, unset tries
the compiled one and falls back to the twin)."""

import os

from scorer.temporal import starts_py
from scorer.temporal.starts_py import inside_word

if os.environ.get("CALLSCORE_IMPL", "") == "python":
    reading_starts, IMPLEMENTATION = starts_py.reading_starts, "python"
else:
    try:
        from scorer.temporal._starts_cy import reading_starts
        IMPLEMENTATION = "cython"
    except ImportError:
        if os.environ.get("CALLSCORE_IMPL", "") == "cython":
            raise
        reading_starts, IMPLEMENTATION = starts_py.reading_starts, "python"

__all__ = ["reading_starts", "inside_word", "IMPLEMENTATION"]
