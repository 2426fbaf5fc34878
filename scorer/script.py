"""Traditional -> simplified Chinese, one converter for the whole scorer (text folding and every
temporal path: resolve, scoring, lint, free-text search).

OpenCC's `t2s` table through the `opencc` package: maintained (zhconv, used before, has had no
release since 2021), phrase-aware, and faster (1.16 vs 3.98 us per text, identical output on the
2,256 non-ASCII texts of the temporal benchmark; docs/temporal.md). `t2s` converts the script
only; Taiwan or Hong Kong vocabulary (軟體) is left as written: that changes the word, not the script.
"""

import functools
import re

import opencc

# Han characters, one definition for the whole scorer: the CJK Unified Ideographs block, Extension A
# and Extensions B-F (U+20000-U+2EBEF). Not the Yijing hexagram symbols between A and the main block.
HAN_SPANS = ((0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0x20000, 0x2EBEF))   # first and last code point
HAN_RANGES = "".join(f"{chr(first)}-{chr(last)}" for first, last in HAN_SPANS)   # as a regex class body
HAN = re.compile(f"[{HAN_RANGES}]")


@functools.lru_cache(maxsize=None)
def _t2s():
    return opencc.OpenCC("t2s")


def to_simplified(text: str) -> str:
    """`text` in simplified characters; ASCII text is returned as is without a table lookup.
    Converted until it no longer changes: t2s maps a few characters to a variant it maps again
    (薴 -> 苧 -> 苎), and folding must be idempotent."""
    return text if text.isascii() else _converted(text)


@functools.lru_cache(maxsize=1 << 16)
def _converted(text: str) -> str:
    """Memoized: a value's text folding and its temporal reading each ask for the same text."""
    converted = _t2s().convert(text)
    for _ in range(3):   # bounded, in case a table ever maps two characters to each other
        if converted == text:
            break
        text, converted = converted, _t2s().convert(converted)
    return converted

