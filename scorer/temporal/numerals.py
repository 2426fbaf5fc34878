"""Chinese and Arabic numerals as used in dates and times (三月五日, 十一点, 二〇二六年).

Private to the temporal resolver: a small converter is enough for numbers up to 9999.
"""

DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4,
          "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
UNITS = {"十": 10, "百": 100, "千": 1000}
# a regex character class matching one numeral character
NUMERAL_CLASS = "[0-9零〇一二两三四五六七八九十百千]"


def zh_int(text: str) -> int | None:
    """The value of a numeral string, or None when it is not a well-formed number.

    Digit-by-digit forms (二〇二六) read as positional digits; forms with 十/百/千 read as
    Chinese numbers (二十一, 十一, 一百零五)."""
    if not text:
        return None
    if text.isascii():
        return int(text) if text.isdigit() else None
    if all(ch in DIGITS for ch in text):
        if len(text) == 1:
            return DIGITS[text]
        return int("".join(str(DIGITS[ch]) for ch in text))
    total, digit, last_unit = 0, None, 10_000
    for ch in text:
        if ch in DIGITS:
            if digit:  # two non-zero digits in a row (三四) is not a number here
                return None
            digit = DIGITS[ch]
        elif ch in UNITS:
            unit = UNITS[ch]
            if unit >= last_unit:
                return None
            total += (1 if digit is None else digit) * unit
            digit, last_unit = None, unit
        else:
            return None
    return total + (digit or 0)
