"""A number written with its unit, in a numeric parameter whose unit is known: `1.75%` in a
rate field is 0.0175 (and 1.75 in a percent-points field), `26℃` in a temperature field is 26,
`3公里` in a km field is 3. Units and the fields they apply to are data in rules/units.toml;
a unit other than the field's is not stripped, so a wrong magnitude stays wrong."""

from decimal import Decimal

from scorer.normalize.numbers import parse_number
from scorer.normalize.text import fold_text
from scorer.rules import read_toml


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
