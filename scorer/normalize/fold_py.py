"""The last steps of text folding, after NFKC, case folding, simplified script and punctuation:
spaces and the trim. Pure-Python twin of ext/fold.pyx; scorer/normalize/text.py chooses between
them. This module is the definition; the compiled core gives the same strings."""

import re

from scorer.script import HAN_RANGES

_SPACES = re.compile(r"\s+")
_SPACE_BETWEEN_HAN = re.compile(f"(?<=[{HAN_RANGES}]) (?=[{HAN_RANGES}])")


def spaces_and_trim(text: str, drop_trailing: str, wrapping) -> str:
    """Runs of whitespace become one space, a space between two Han characters is dropped
    (Chinese is written without them), then `_trim`."""
    text = _SPACES.sub(" ", text)
    text = _SPACE_BETWEEN_HAN.sub("", text)
    return _trim(text, drop_trailing, wrapping)


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
