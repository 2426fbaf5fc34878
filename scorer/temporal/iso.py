"""Chooses the whole-ISO-value reader's implementation (scorer.implementation: $CALLSCORE_IMPL)."""

from scorer.implementation import chosen
from scorer.temporal import iso_py

(iso_fields,), IMPLEMENTATION = chosen("scorer.temporal._iso_cy", iso_py, ["iso_fields"])

__all__ = ["iso_fields", "IMPLEMENTATION"]
