"""Numerals in dates and times (三月五日, 十一点, 二〇二六年): the vocabulary of
rules/numbers/zh.toml, read through scorer.normalize.numbers (one grammar of Chinese numbers
for the whole scorer), limited here to whole non-negative numbers. Read lazily, so a rules
directory chosen at run time (--rules) is the one used."""

import functools

from scorer.normalize.numbers import parse_number
from scorer.rules import read_toml


@functools.lru_cache(maxsize=None)
def numeral_chars() -> frozenset:
    """Every character that can be part of a numeral in a date or time."""
    vocabulary = read_toml("numbers/zh.toml")
    return frozenset("0123456789") | frozenset(vocabulary["digits"]) | frozenset(vocabulary["small_units"]) \
        | frozenset(_TENS)


def numeral_class() -> str:
    """A regex character class matching one numeral character."""
    return "[" + "".join(sorted(numeral_chars())) + "]"


# 廿 (twenty) and 卅 (thirty), written in dates (廿六日, 卅日); 仨 (three of), as 俩 is two
_TENS = {"廿": "二十", "卅": "三十", "仨": "三"}


@functools.lru_cache(maxsize=8192)
def zh_int(text: str) -> int | None:
    """The value of a numeral string (二十一, 二〇二六, 廿六, 15), or None when it is not a whole
    non-negative number."""
    if text and text[0] in _TENS:
        text = _TENS[text[0]] + text[1:]
    value = parse_number(text) if text else None
    if value is None or value < 0 or value != value.to_integral_value():
        return None
    return int(value)
