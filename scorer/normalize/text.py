"""Text folding: the canonical form every free-text argument value is compared in.

Steps, in order: Unicode NFKC (full-width -> half-width), case folding, traditional ->
simplified Chinese, punctuation folding (table in rules/text.toml), whitespace folding.
Traditional -> simplified is OpenCC's t2s table (scorer.script, shared with the temporal
resolver); it converts the script, not regional vocabulary (軟體 stays 软体, not 软件).
"""

import functools
import re
import unicodedata

from scorer.rules import read_toml
from scorer.script import HAN_RANGES, to_simplified

_SPACES = re.compile(r"\s+")
_SPACE_BETWEEN_HAN = re.compile(f"(?<=[{HAN_RANGES}]) (?=[{HAN_RANGES}])")


@functools.lru_cache(maxsize=None)
def _punctuation():
    table = read_toml("text.toml")["punctuation"]
    return str.maketrans(table["replace"]), table["drop_trailing"], table["wrapping"]


def _trim(text: str, drop_trailing: str, wrapping) -> str:
    """Strip spaces, sentence-final marks and whole-value wrappers until none is left, so that
    `"你好。"` and `你好` meet and a second pass finds nothing more to remove."""
    while True:
        before = text
        text = text.strip().rstrip(drop_trailing).strip()
        for opening, closing in wrapping:
            if len(text) >= 2 and text.startswith(opening) and text.endswith(closing):
                text = text[len(opening):-len(closing)]
        if text == before:
            return text


@functools.lru_cache(maxsize=1 << 16)
def fold_text(s: str) -> str:
    """The folded form of a text value; idempotent: fold_text(fold_text(x)) == fold_text(x).
    Memoized: a value is folded once however many rows and readings hold it.

    Spaces between two Han characters are dropped (Chinese is written without them), other runs
    of whitespace become one space.
    """
    replace, drop_trailing, wrapping = _punctuation()
    text = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", s).casefold())
    text = to_simplified(text).translate(replace)
    text = _SPACES.sub(" ", text)
    text = _SPACE_BETWEEN_HAN.sub("", text)
    return _trim(text, drop_trailing, wrapping)
