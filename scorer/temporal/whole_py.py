"""Dates written whole, read without the scanner: the pure-Python twin of ext/whole.pyx, and the
definition of what the fast paths read, on the resolver's normalized text (lower case, ASCII
digits). The scanner reads each of them with the same handlers, after trying every token that
may start at each place: about 14 µs for a new ISO date-time, 50-55 µs for a new 2026年3月10日,
75-80 µs with a clock time after it.

An ISO 8601 date or date-time is read by the grammar's `iso` token alone (the first token in its
table, so the one the scanner takes when it reaches the end of the text). The common shapes:

    2026-03-10   2026/3/10   2026.03.10
    then, optionally, `t`, spaces or `-`, and a clock time:
    14:30   14:30:05   14:30:05.250   with seconds: z, +08, -0500, +08:00 (after spaces too)
                                     without:      z, +0800, +08:00 (after spaces too)

A Chinese date is a year, a month and a day: 2026年3月10日, 2026年03月10号 (four-digit year, one or
two digits for the month and the day), read by the year, month and day tokens in turn; then,
optionally, after one space or none, a clock time 14:30 or 14:30:05, read by the clock_colon
token (the first in the table to read it to the end).

Anything else (a compact 20260310, tabs, 14点30分 or am/pm after a Chinese date, Chinese numerals,
digits of other scripts) is not read here and goes to the scanner. These functions only take the
text apart; `scorer.temporal.grammar.iso_reading` and `zh_date_reading`, the handlers' own code,
decide whether the day and time exist and what they name, so a fast path and the scanner cannot
disagree about a value both read (tests/temporal/test_whole.py holds them equal, and the twins).
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


_ZH_DATE = re.compile(r"([0-9]{4})年([0-9]{1,2})月([0-9]{1,2})[日号](?: ?([0-9]{1,2}):([0-9]{2})(?::([0-9]{2}))?)?")


def zh_date_fields(text: str) -> tuple | None:
    """(year, month, day, hour, minute, second) of a text that is a Chinese date as above, else
    None; hour and minute None without a clock time, second None when not written."""
    found = _ZH_DATE.fullmatch(text)
    return None if found is None else tuple(None if part is None else int(part) for part in found.groups())


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
