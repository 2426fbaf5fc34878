"""The spaces and trim steps of text folding give the same strings in their compiled
(ext/fold.pyx) and pure (scorer/normalize/fold_py.py) twins. Expected strings are written
from the rules: whitespace runs -> one space, a space between two Han characters dropped,
then spaces, the trailing marks of rules/text.toml and whole-value wrappers removed until
none is left."""

import random
import sys

import pytest

from helpers import compiled_core
from scorer.normalize.fold_py import spaces_and_trim as pure
from scorer.normalize.text import _punctuation

core, NEEDS_COMPILED = compiled_core("scorer.normalize._fold_cy", "fold")
compiled = core and core.spaces_and_trim
TWINS = [pytest.param(pure, id="python"), pytest.param(compiled, id="cython", marks=NEEDS_COMPILED)]
DROP, WRAPPING = "。.!?", (('"', '"'), ("'", "'"), ("《", "》"), ("〈", "〉"))   # rules/text.toml's, written out


def test_the_rules_table_is_the_one_written_here():
    _replace, drop, wrapping = _punctuation()
    assert (drop, wrapping) == (DROP, WRAPPING)


@pytest.mark.parametrize("fold", TWINS)
@pytest.mark.parametrize("text, expected", [
    ("new \t\n york", "new york"),          # a whitespace run is one space
    ("北京 朝阳区", "北京朝阳区"),             # no space between two Han characters
    ("北京 \u3000 朝阳", "北京朝阳"),          # a run between Han: one space, then dropped
    ("北京 a 朝阳", "北京 a 朝阳"),            # a space beside a Latin letter stays
    ("㐀 \U00020000", "㐀\U00020000"),         # Extension A and B are Han too
    ("〇 一", "〇 一"),                       # 〇 (U+3007) is not in the Han blocks
    ("  你好。 ", "你好"),                     # spaces and a trailing mark
    ('"你好"。', "你好"),                      # the mark, then the wrapper
    ("《晴天》!", "晴天"),
    ('"\'x\'"', "x"),                         # wrappers inside wrappers, pass after pass
    ("。。好", "。。好"),                      # marks are dropped only at the end
    ('""', ""),                               # a wrapper around nothing
    ('"', '"'),                               # one character is no wrapper
    ("\x1c a \x1f", "a"),                     # what Python counts as whitespace (str.isspace)
])
def test_the_rules(fold, text, expected):
    assert fold(text, DROP, WRAPPING) == expected


@pytest.mark.parametrize("fold", TWINS)
@pytest.mark.parametrize("text, wrapping, expected", [
    ("abab", (("ab", "ab"),), ""),            # a wrapper longer than half the text: Python's slice, empty
    ("abcab", (("ab", "ab"),), "c"),
    ("xax", (("x", ""),), ""),                # an empty closing slices text[1:-0]: empty
    ("ax", (("", "x"),), "a"),                # an empty opening: the closing goes, then "a" is too short
])
def test_unusual_wrappers_slice_as_python_does(fold, text, wrapping, expected):
    assert fold(text, "", wrapping) == expected


def _texts(count=20_000, seed=11):
    rng = random.Random(seed)
    spaces = [chr(c) for c in range(sys.maxunicode + 1) if chr(c).isspace()]
    alphabet = spaces + list("中文字〇。.!?\"'《》〈〉ab1-") + ["\u3400", "\u4dbf", "\u4e00", "\u9fff", "\U00020000",
                                                           "\U0002ebef", "\U0002ebf0", "\ud800", "\U0001f600"]
    return ["".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 14))) for _ in range(count)]


@NEEDS_COMPILED
def test_the_twins_agree_on_random_texts():
    for wrapping in (WRAPPING, (("ab", "b"), ("", "'")), ()):
        for text in _texts():
            assert compiled(text, DROP, wrapping) == pure(text, DROP, wrapping), (text, wrapping)


@NEEDS_COMPILED
def test_the_twins_agree_on_every_code_point():
    """Each code point between two Han characters and at both ends: whitespace, Han and trim
    decisions are made per character."""
    for code in range(sys.maxunicode + 1):
        char = chr(code)
        for text in ("中" + char + " 文", char + " x" + char):
            assert compiled(text, DROP, WRAPPING) == pure(text, DROP, WRAPPING), hex(code)
