"""An identifier (a phone, ID-card or bank-card number, a postcode, a flight, train or order
number) is its letters and digits: `CA 1234` = `CA1234`, `150-1111-2222` = `15011112222`, and a
phone number's country code before a Chinese mobile number is formatting too
(`+86 150 1111 2222`). Which parameters hold identifiers, and the country codes, are data in
rules/param_kinds.toml (scorer/schema.py: identifier_kind). Only a value shaped like an
identifier (ASCII letters and digits, at least one digit, separated by spaces, hyphens or
brackets) is keyed so: `最近的订单` in an order parameter stays a text."""

import functools
import re

from scorer.normalize.text import fold_text
from scorer.rules import read_toml

IDENTIFIER_RULE = "identifier"
_SHAPE = re.compile(r"[+(]*[0-9a-z]+(?:[ \-()]+[0-9a-z]+)*\)?")   # (+86) 135 ...: a sign and brackets before
_FORMATTING = re.compile(r"[ \-()]")   # a plus sign is kept: it marks a country code


def identifier_key(value, kind: str) -> str | None:
    """The letters and digits of an identifier-shaped value (an integer, or an integral float,
    counts: a phone number written as a JSON number), without a country code the kind drops, or None when the value is
    not shaped like an identifier."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)   # 12345.0 for an integer order number, as numbers compare
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        return None
    text = fold_text(str(value))
    if not _SHAPE.fullmatch(text) or not any(char.isdigit() for char in text):
        return None
    compact = _FORMATTING.sub("", text)
    country_codes, national = _country_codes(kind)
    for code in country_codes:
        if compact.startswith(code) and national.fullmatch(compact[len(code):]):
            return compact[len(code):]
    return compact.lstrip("+")


@functools.lru_cache(maxsize=None)
def _country_codes(kind: str) -> tuple:
    """(country codes, pattern of the national number after one) for a kind of identifier."""
    spec = read_toml("param_kinds.toml")["identifiers"][kind]
    return tuple(spec.get("country_codes", ())), re.compile(spec.get("national_number", "(?!)"))
