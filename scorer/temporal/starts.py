"""Chooses the temporal start scan's implementation (scorer.implementation: $CALLSCORE_IMPL)."""

from scorer.implementation import chosen
from scorer.temporal import starts_py
from scorer.temporal.starts_py import inside_word

(reading_starts,), IMPLEMENTATION = chosen("scorer.temporal._starts_cy", starts_py, ["reading_starts"])

__all__ = ["reading_starts", "inside_word", "IMPLEMENTATION"]
