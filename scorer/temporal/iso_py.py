"""A date or date-time written whole in ISO 8601 form, read without the scanner: the pure-Python
twin of ext/iso.pyx, and the definition of what the fast path reads.

The grammar reads such a value with its `iso` token alone (the first token in its table, so the
one the scanner takes when it reaches the end of the text). Finding that out costs the scanner
about 14 µs per new date-time: candidates, states, memo entries. Here the common shapes are
read in one pass, on the resolver's normalized text (lower case, ASCII digits):

    2026-03-10   2026/3/10   2026.03.10
    then, optionally, `t`, spaces or `-`, and a clock time:
    14:30   14:30:05   14:30:05.250   with seconds: z, +08, -0500, +08:00 (after spaces too)
                                     without:      z, +0800, +08:00 (after spaces too)

Anything else (a compact 20260310, tabs, digits of other scripts) is not read here and goes to
the scanner. `iso_fields` only takes the text apart; `scorer.temporal.grammar.iso_reading`, which
the `iso` token's handler calls too, decides whether the day and time exist and what span they
name, so the two paths cannot disagree about a value both read (tests/temporal/test_iso.py holds
them equal, and the twins equal).
"""

import re

_WHOLE = re.compile(r"([0-9]{4})[-/.]([0-9]{1,2})[-/.]([0-9]{1,2})"
                    r"(?:(?:t| +|-)([0-9]{1,2}):([0-9]{2})"
                    r"(?::([0-9]{2})(?:\.[0-9]+)?(z| *[+-][0-9]{2}(?::?[0-9]{2})?)?"
                    r"|(z| *\+[0-9]{2}:?[0-9]{2}))?)?")


def iso_fields(text: str) -> tuple | None:
    """(year, month, day, hour, minute, second, offset) of a text that is one of the shapes
    above, else None; hour None for a date alone, offset in minutes east of UTC or None."""
    found = _WHOLE.fullmatch(text)
    if found is None:
        return None
    year, month, day, hour, minute, second, offset, offset_without_seconds = found.groups()
    if hour is None:
        return int(year), int(month), int(day), None, 0, 0, None
    return (int(year), int(month), int(day), int(hour), int(minute), int(second or 0),
            offset_minutes(offset or offset_without_seconds))


def offset_minutes(written: str | None) -> int | None:
    """Minutes east of UTC of an offset as written after a time (`z`, `+08`, `-0500`, ` +08:00`),
    None when none is written."""
    written = (written or "").strip()
    if not written:
        return None
    if written.lower() == "z":
        return 0
    digits = written[1:].replace(":", "")
    minutes = 60 * int(digits[:2]) + int(digits[2:] or 0)
    return minutes if written[0] == "+" else -minutes
