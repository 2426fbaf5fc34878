"""Chooses the implementation of the readers of dates written whole (scorer.implementation:
$CALLSCORE_IMPL)."""

from scorer.implementation import chosen
from scorer.temporal import whole_py

(iso_fields, zh_date_fields), IMPLEMENTATION = chosen("scorer.temporal._whole_cy", whole_py,
                                                      ["iso_fields", "zh_date_fields"])

__all__ = ["iso_fields", "zh_date_fields", "IMPLEMENTATION"]
