"""A number written with its unit, in a numeric parameter whose unit is known: `1.75%` in a
rate field is 0.0175 (and 1.75 in a percent-points field), `26℃` in a temperature field is 26,
`3公里` in a km field is 3. Units and the fields they apply to are data in rules/units.toml;
a unit other than the field's is not stripped, so a wrong magnitude stays wrong."""

import functools
import re
from decimal import Decimal

from scorer.normalize.numbers import number_key, parse_number
from scorer.normalize.text import fold_text
from scorer.rules import read_toml, read_tsv


def quantity(value, unit: str | None) -> Decimal | None:
    """The number a text writes in `unit` (a section of rules/units.toml), scaled to the
    field's unit, or None when the text is not a number followed (or preceded) by that unit."""
    if unit is None or not isinstance(value, str):
        return None
    spec = read_toml("units.toml")[unit]
    text = fold_text(value)
    for symbol in sorted(spec["symbols"], key=len, reverse=True):
        if text.endswith(symbol) and len(text) > len(symbol):
            number = parse_number(text[:-len(symbol)].strip())
            if number is not None:
                return number * Decimal(spec["scale"])
    for prefix in spec["prefixes"]:
        if text.startswith(prefix) and len(text) > len(prefix):
            number = parse_number(text[len(prefix):].strip())
            if number is not None:
                return number * Decimal(spec["scale"])
    return None


QUANTITY_RULE = "quantity"


def text_quantity(folded: str) -> str | None:
    """`<number> <unit>` for a folded free text that is a number and a currency or unit written
    after it or before it (`1200.50 hkd`, `hkd 1200.5`, `1200.5港币`, `5公里`), or None. The unit
    is named by its canonical currency or its section of rules/units.toml, so that two ways of
    writing one amount share a key and another number or another code is another key."""
    words, units = _text_units()
    if folded.endswith(words):
        word = next(word for word in units if folded.endswith(word))
        number = parse_number(folded[:-len(word)].strip()) if len(folded) > len(word) else None
        if number is not None:
            return _quantity_key(number, units[word])
    if folded.startswith(words):
        word = next(word for word in units if folded.startswith(word))
        if len(word) == 1 and word.isascii() and word.isalpha():
            return None   # G7, L5: a letter before a number is a code, not grams or litres
        number = parse_number(folded[len(word):].strip()) if len(folded) > len(word) else None
        if number is not None:
            return _quantity_key(number, units[word])
    return None


def _quantity_key(number: Decimal, unit: tuple) -> str:
    """`<number> <unit>` of a number written in a (unit name, scale to it)."""
    name, scale = unit
    return f"{number_key(number * scale)} {name}"


SIGNS_FILE = "currency_signs.toml"


@functools.lru_cache(maxsize=None)
def _signs() -> tuple:
    """((folded sign, currencies it may name), ...), longest sign first (rules/currency_signs.toml)."""
    signs = {fold_text(sign): frozenset(names) for sign, names in read_toml(SIGNS_FILE)["signs"].items()}
    return tuple(sorted(signs.items(), key=lambda item: -len(item[0])))


def signed_amount(folded: str) -> tuple | None:
    """(number key, the currencies its sign may name) of a folded text that is a number and a
    sign several currencies share ($50, 50 dollars, ¥200), or None."""
    for sign, currencies in _signs():
        for rest in (folded[len(sign):] if folded.startswith(sign) else None,
                     folded[:-len(sign)] if folded.endswith(sign) else None):
            number = parse_number(rest.strip()) if rest else None
            if number is not None:
                return number_key(number), currencies
    return None


def fold_amounts(text: str) -> str:
    """A decimal amount inside a text without its trailing zeros (报销1200.50港币 -> 报销1200.5港币):
    only before a currency or unit, where the zeros say nothing (a version 1.10 is not 1.1)."""
    return _trailing_zeros().sub(lambda found: found[1] + ("." + found[2] if found[2] else ""), text)


def unit_follows(text: str, position: int) -> bool:
    """Whether a currency or unit starts at `position` of a folded text (after one space at most)."""
    return _unit_after().match(text, position) is not None


@functools.lru_cache(maxsize=None)
def _text_units() -> tuple:
    """(every word as a tuple for str.endswith, {folded word: (unit, scale)} longest word first):
    the currencies' names (canonical: the table's first) and the symbols of rules/units.toml,
    a section with a text_unit scaled to it."""
    currencies = {}
    for row in read_tsv("aliases/currencies.tsv"):
        for name in row:
            currencies.setdefault(fold_text(name), (fold_text(row[0]), Decimal(1)))
    units = dict(currencies)
    for section, spec in read_toml("units.toml").items():
        words = [word for word in (*spec["symbols"], *spec["prefixes"]) if word not in spec.get("not_in_text", ())]
        named = (spec.get("text_unit", section), Decimal(spec.get("text_scale", "1")))
        named = next((currencies[word] for word in words if word in currencies), named)
        for word in words:
            units.setdefault(word, named)
    units = dict(sorted(units.items(), key=lambda item: (-len(item[0]), item[0])))
    return tuple(units), units


@functools.lru_cache(maxsize=None)
def _unit_after():
    return re.compile(r"\s?(?:" + "|".join(map(re.escape, _text_units()[1])) + ")")


@functools.lru_cache(maxsize=None)
def _trailing_zeros():
    return re.compile(r"(\d)\.(\d*?)0+(?=" + _unit_after().pattern + ")")
