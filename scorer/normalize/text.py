"""Text folding: the canonical form every free-text argument value is compared in.

Steps, in order: Unicode NFKC (full-width -> half-width), case folding, traditional ->
simplified Chinese, punctuation folding (table in rules/text.toml), whitespace folding.
Traditional -> simplified is OpenCC's t2s table (scorer.script, shared with the temporal
resolver); it converts the script, not regional vocabulary (軟體 stays 软体, not 软件).
"""

import functools
import unicodedata

from scorer.implementation import chosen
from scorer.normalize import fold_py
from scorer.rules import read_toml
from scorer.script import to_simplified

# the spaces and trim steps: ext/fold.pyx, or its twin scorer/normalize/fold_py.py ($CALLSCORE_IMPL)
(spaces_and_trim,), IMPLEMENTATION = chosen("scorer.normalize._fold_cy", fold_py, ["spaces_and_trim"])


@functools.lru_cache(maxsize=None)
def _punctuation():
    table = read_toml("text.toml")["punctuation"]
    return str.maketrans(table["replace"]), table["drop_trailing"], tuple(map(tuple, table["wrapping"]))


@functools.lru_cache(maxsize=1 << 16)
def fold_text(s: str) -> str:
    """The folded form of a text value; idempotent: fold_text(fold_text(x)) == fold_text(x).
    Memoized: a value is folded once however many rows and readings hold it.

    Spaces between two Han characters are dropped (Chinese is written without them), other runs
    of whitespace become one space.
    """
    replace, drop_trailing, wrapping = _punctuation()
    text = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", s).casefold())
    return spaces_and_trim(to_simplified(text).translate(replace), drop_trailing, wrapping)
