"""Where a temporal reading may start in a normalized text: the character scan that the
free-text search runs before reading, and that `may_hold_time` runs on every free-text value.
Pure-Python twin of ext/starts.pyx; scorer/temporal/starts.py chooses between them."""


def inside_word(norm: str, pos: int, numerals) -> bool:
    """Whether `pos` continues the word before it, so that no reading starts there: a numeral
    after a numeral, a digit after `digit.`, or an ASCII letter or digit after one."""
    if pos == 0:
        return False
    before, here = norm[pos - 1], norm[pos]
    if before in numerals and here in numerals:
        return True
    if before == "." and here.isdigit() and pos >= 2 and norm[pos - 2].isdigit():
        return True  # the 5 of 1.5个工作日内 belongs to the number
    return before.isascii() and before.isalnum() and here.isascii() and here.isalnum()


def reading_starts(norm: str, first, numerals, tokens_at, first_only: bool = False) -> list:
    """Positions where a reading may start, in order: a character some token can start with
    (`first`; None: any), not a space, not inside a word, where `tokens_at(norm, pos)` finds a
    token. With `first_only`, the first such position alone (or none)."""
    found = []
    for pos, char in enumerate(norm):
        if (first is None or char in first) and not char.isspace() and not inside_word(norm, pos, numerals) \
                and tokens_at(norm, pos):
            found.append(pos)
            if first_only:
                break
    return found
