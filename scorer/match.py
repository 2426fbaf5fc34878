"""Chooses the matcher implementation (scorer.implementation: $CALLSCORE_IMPL); the matcher
warns once when it falls back to its pure twin. IMPLEMENTATION names the choice for provenance
metadata."""

from scorer import match_py
from scorer.implementation import chosen

(match,), IMPLEMENTATION = chosen("scorer._match_cy", match_py, ["match"],
                                  "callscore: compiled matcher not built; using the pure-Python twin (slower)")

__all__ = ["match", "IMPLEMENTATION"]
