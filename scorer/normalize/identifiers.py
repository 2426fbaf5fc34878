"""An identifier (a phone, ID-card or bank-card number, a postcode, a flight, train or order
number, a licence plate) is its letters and digits: `CA 1234` = `CA1234`, `150-1111-2222` =
`15011112222`, `京A·12345` = `京A12345`, and a country code before a national number of its
country is formatting too (`+86 150 1111 2222`, `+1 415 555 0132`). A version keeps its dots
(3.10 is not 3.1); a secret (a password, a token) is exactly what was written. Which
parameters hold identifiers, the country codes and what each kind keeps are data in
rules/param_kinds.toml (scorer/schema.py: identifier_kind). Only a value shaped like an
identifier (ASCII letters and digits, at least one digit, separated by spaces, hyphens, middle
dots or brackets, after at most one Han character: a plate's province) is keyed so:
`最近的订单` in an order parameter stays a text."""

import functools
import re

from scorer.normalize.text import fold_text
from scorer.rules import read_toml

IDENTIFIER_RULE = "identifier"
_FORMATTING = " \\-()·"   # a plus sign is kept: it marks a country code


def identifier_key(value, kind: str) -> str | None:
    """The letters and digits of an identifier-shaped value (an integer, or an integral float,
    counts: a phone number written as a JSON number), without a country code the kind drops, or None when the value is
    not shaped like an identifier; a secret's value as written."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)   # 12345.0 for an integer order number, as numbers compare
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        return None
    exact, shape, formatting, countries = _kind_rules(kind)
    if exact:
        return str(value)
    text = fold_text(str(value))
    if not shape.fullmatch(text) or not any(char.isdigit() for char in text):
        return None
    compact = formatting.sub("", text)
    for codes, national in countries:
        for code in codes:
            if compact.startswith(code) and national.fullmatch(compact[len(code):]):
                return compact[len(code):]
    return compact.lstrip("+")


@functools.lru_cache(maxsize=None)
def _kind_rules(kind: str) -> tuple:
    """(exact, shape, formatting pattern, ((country codes, national number pattern), ...)) of a
    kind of identifier: the shape joins letters and digits by the formatting and the kept characters."""
    spec = read_toml("param_kinds.toml")["identifiers"][kind]
    kept = re.escape("".join(spec.get("kept", ())))
    separators = f"[{_FORMATTING}{kept}]+"
    shape = re.compile(rf"[+(]*[\u4e00-\u9fff]?[0-9a-z]+(?:{separators}[0-9a-z]+)*\)?")   # (+86) 135 ...
    formatting = re.compile(f"[{_FORMATTING}]")
    countries = tuple((tuple(country["codes"]), re.compile(country["national_number"]))
                      for country in spec.get("countries", ()))
    return bool(spec.get("exact")), shape, formatting, countries
