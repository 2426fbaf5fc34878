"""Numbers and booleans written any common way: 3, 3.0, "3", "1,000", "１２", "1.5万", "三",
"两", "三百五十", "一千零五", "三点五", "负三", "二〇二六".

The vocabulary (digits, units, signs, boolean words) is data in rules/numbers/zh.toml; the
grammar that combines it is here. Percentages ("5%", "百分之五") are deliberately not numbers:
whether 5% means 5 or 0.05 depends on the parameter, so they stay text and compare as text.
Colloquial elision is read the usual way: 一百二 = 120, 三千五 = 3500, 一万五 = 15000; 万亿 is 10^12.
"""

import functools
import math
import re
from decimal import MAX_EMAX, MAX_PREC, MIN_EMIN, Context, Decimal, InvalidOperation, localcontext

from scorer.normalize.text import fold_text
from scorer.rules import read_toml

_ARABIC = re.compile(r"(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?")
_GROUPED = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?")
_TOKEN = re.compile(r"\d+(?:\.\d+)?|.")


def _vocabulary() -> dict:
    return read_toml("numbers/zh.toml")


def parse_number(value) -> Decimal | None:
    """The value as a Decimal, or None when it is not a number (booleans are not numbers)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return Decimal(value)
    if isinstance(value, float):
        return Decimal(repr(value)) if math.isfinite(value) else None
    if isinstance(value, Decimal):
        return value if value.is_finite() else None
    if not isinstance(value, str):
        return None
    return _parse_text(fold_text(value))


@functools.lru_cache(maxsize=None)
def _not_in_numbers():
    """A character no number holds: not a decimal digit (`\\d`, any script, as the grammar reads
    them), nor a numeral, unit or sign of the vocabulary, nor one of Arabic notation (1,000.5, 1e-3)."""
    vocabulary = _vocabulary()
    signs = vocabulary["signs"]
    words = [*vocabulary["digits"], *vocabulary["small_units"], *vocabulary["large_units"], *signs["negative"],
             *signs["positive"], *signs["decimal_point"], signs["thousands"], ".", "e", "E", "+", "-"]
    return re.compile("[^\\d" + "".join(re.escape(char) for char in sorted(set("".join(words)))) + "]")


def could_be_number(text: str) -> bool:
    """False when a character of the text can be in no number (北京, r12345, 下周二): most text
    values, told apart without the grammar."""
    return _not_in_numbers().search(text) is None


def _parse_text(text: str) -> Decimal | None:
    return _read_number(text) if could_be_number(text) else None


def _read_number(text: str) -> Decimal | None:
    vocabulary = _vocabulary()
    signs = vocabulary["signs"]
    sign = 1
    if text[:1] in signs["negative"]:
        sign, text = -1, text[1:]
    elif text[:1] in signs["positive"]:
        text = text[1:]
    if not text:
        return None
    if _GROUPED.fullmatch(text):
        text = text.replace(signs["thousands"], "")
    if _ARABIC.fullmatch(text):
        try:
            number = Decimal(text)
        except InvalidOperation:
            return None
    else:
        number = _parse_chinese(text, vocabulary)
    if number is None:
        return None
    return number.copy_negate() if sign < 0 else number   # exact: no context, so 1e4000000 cannot overflow


# arithmetic without rounding: Python's default context keeps 28 digits
_EXACT = Context(prec=MAX_PREC, Emax=MAX_EMAX, Emin=MIN_EMIN)


def _parse_chinese(text: str, vocabulary: dict) -> Decimal | None:
    """Integer part by the unit grammar, then an optional 点 and digits read one by one."""
    with localcontext(_EXACT):
        for point in vocabulary["signs"]["decimal_point"]:
            if point in text:
                whole, _, fraction = text.partition(point)
                integer = _parse_integer(whole, vocabulary)
                digits = _digit_sequence(fraction, vocabulary["digits"])
                if integer is None or digits is None:
                    return None
                return integer + Decimal("0." + digits)
        return _parse_integer(text, vocabulary)


def _digit_sequence(text: str, digits: dict) -> str | None:
    """"二〇二六" -> "2026": digits read positionally, no units."""
    if not text:
        return None
    out = []
    for char in text:
        if char in digits:
            out.append(str(digits[char]))
        elif char.isdigit() and char.isascii():
            out.append(char)
        else:
            return None
    return "".join(out)


def _parse_integer(text: str, vocabulary: dict) -> Decimal | None:
    digits, small, large = vocabulary["digits"], vocabulary["small_units"], vocabulary["large_units"]
    if not text:
        return None
    if all(char in digits for char in text):
        sequence = _digit_sequence(text, digits)
        return Decimal(sequence)
    total = Decimal(0)
    section = Decimal(0)
    pending = None          # a digit waiting for its unit
    last_unit = None        # the most recent unit, for elision (三千五)
    last_small = None       # small units must fall within a section (千 > 百 > 十)
    highest_large = None
    after_zero = False      # 零 cancels elision: 一千零五 = 1005
    just_large = None       # the large unit the previous token was, if it was one
    for token in _TOKEN.findall(text):
        previous_large, just_large = just_large, None
        if token in digits or token[0].isdecimal():
            if pending is not None:
                return None
            value = Decimal(digits[token]) if token in digits else Decimal(token)
            if token in digits and value == 0:
                after_zero = True
            else:
                pending = value
        elif token in small:
            unit = small[token]
            if last_small is not None and unit >= last_small:
                return None
            section += (pending if pending is not None else 1) * unit
            pending, last_unit, last_small, after_zero = None, unit, unit, False
        elif token in large:
            unit = large[token]
            amount = section + (pending or 0)
            if amount == 0 and previous_large is not None and previous_large == highest_large < unit:
                total *= unit   # 万亿 = 10^12: a larger unit right after the highest multiplies it
                highest_large = last_unit = just_large = highest_large * unit
                continue
            if amount == 0:
                return None
            if highest_large is None or unit > highest_large:
                total = (total + amount) * unit
                highest_large = unit
            else:
                total += amount * unit
            section, pending, last_unit, last_small, after_zero = Decimal(0), None, unit, None, False
            just_large = unit
        else:
            return None
    if pending is not None:
        scale = last_unit // 10 if last_unit is not None and not after_zero else 1
        section += pending * scale
    return total + section


PLAIN_DIGITS = 1000   # beyond this many digits before or after the point, a number's key is in E notation


def number_key(d: Decimal) -> str:
    """Canonical text of a number: plain notation, no exponent, no trailing zeros ("3", "1500");
    a number written with an exponent too large for that ("1e999999", a megabyte of zeros) in
    normalized E notation ("1E+999999", the same for 10e999998)."""
    if not d:
        return "0"   # 0E-4000000 too: its plain notation would be four million zeros
    if abs(d.adjusted()) > PLAIN_DIGITS:
        return str(d.normalize(_EXACT))
    text = format(d, "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def parse_bool(value) -> bool | None:
    """True/False from true/false, yes/no, 1/0, 是/否, 对/错 ...; None when not a boolean."""
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float, Decimal)):
        return value == 1 if value in (0, 1) else None
    if not isinstance(value, str):
        return None
    words = _vocabulary()["boolean"]
    text = fold_text(value)
    if text in words["true"]:
        return True
    if text in words["false"]:
        return False
    return None
