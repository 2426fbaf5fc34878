"""Chooses the matcher implementation in one visible place (rapidfuzz's habit).

CALLSCORE_IMPL=cython requires the compiled core, =python forces the pure twin; unset tries
the compiled core and falls back to the twin with one warning. IMPLEMENTATION names the
choice for provenance metadata.
"""

import os
import warnings

from scorer import match_py

_choice = os.environ.get("CALLSCORE_IMPL", "")
if _choice not in ("", "cython", "python"):
    raise ImportError(f"CALLSCORE_IMPL must be 'cython' or 'python', not {_choice!r}")

if _choice == "python":
    match, IMPLEMENTATION = match_py.match, "python"
else:
    try:
        from scorer._match_cy import match
        IMPLEMENTATION = "cython"
    except ImportError:
        if _choice == "cython":
            raise
        warnings.warn("callscore: compiled matcher not built; using the pure-Python twin (slower)",
                      RuntimeWarning, stacklevel=2)
        match, IMPLEMENTATION = match_py.match, "python"

__all__ = ["match", "IMPLEMENTATION"]
