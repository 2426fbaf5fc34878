"""Two checks on temporal values that sit before the temporal grammar (scorer/temporal/):

- `impossible_date`: a value naming a day that does not exist (2月31日, 6月31日, 2027-02-29,
  2026-13-01) is a wrong date, decided, not a value the grammar failed to read;
- `resolve_absolute`: a row without a reference time still compares values that do not need
  one (2026-03-05, 2026-03-05T16:45, and in a time field 16:45 or 下午4点), so that a wrong day
  or clock time is a temporal error, not an unreadable text compared letter by letter.
"""

import re
from dataclasses import replace
from datetime import datetime

from scorer.normalize.numbers import parse_number
from scorer.temporal.dates import days_in_month

_NUMBER = r"[0-9〇零一二两三四五六七八九十]{1,4}"
_YEAR_MONTH_DAY = re.compile(r"(?<!\d)(\d{4})\s*(?:[-/.]|年)\s*(\d{1,2})\s*(?:[-/.]|月)\s*(\d{1,2})(?!\d)")
_MONTH_DAY = re.compile(rf"(?<![0-9年/\-.])({_NUMBER})\s*月\s*({_NUMBER})\s*[日号]")
_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september",
           "october", "november", "december")
_ENGLISH = re.compile(rf"\b({'|'.join(_MONTHS)})\s+(\d{{1,2}})(?:st|nd|rd|th)?\b(?:,?\s*(\d{{4}}))?", re.I)
_LETTERS = re.compile(r"[a-z]{3}", re.I)
LEAP_YEAR = 2000   # a month and day without a year exist when they exist in some year

# A date written whole (ISO 8601, 2026/3/5, 2026年3月5日), alone or with a clock time: read the
# same against any reference time in one zone (tests/normalize/test_reference_memo.py checks
# it against the resolver)
_WRITTEN_WHOLE = re.compile(r"\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})?)?"
                            r"|\d{4}(?:/\d{1,2}/\d{1,2}|年\d{1,2}月\d{1,2}[日号])(?: ?\d{1,2}:\d{2}(?::\d{2})?)?")

# Only values that do not depend on it are resolved against this placeholder: a value that
# takes any part from the reference time (明天, 3月5日 without a year) stays unresolved. Naive,
# so that it is read in the temporal policy's timezone, like a reference time without offset.
PLACEHOLDER_REFERENCE = datetime(2000, 1, 3)


def impossible_date(text: str) -> bool:
    """True when the text names a year-month-day, a month and day, or an English month and day
    that no calendar has."""
    for match in _YEAR_MONTH_DAY.finditer(text):
        if not _exists(int(match.group(1)), int(match.group(2)), int(match.group(3))):
            return True
    if "月" in text:
        for match in _MONTH_DAY.finditer(text):
            month, day = parse_number(match.group(1)), parse_number(match.group(2))
            if month is not None and day is not None and not _exists(LEAP_YEAR, int(month), int(day)):
                return True
    if _LETTERS.search(text) is None:   # no month name (the shortest, May, has three letters)
        return False
    for match in _ENGLISH.finditer(text):
        year = int(match.group(3)) if match.group(3) else LEAP_YEAR
        if not _exists(year, _MONTHS.index(match.group(1).lower()) + 1, int(match.group(2))):
            return True
    return False


def written_absolutely(text: str) -> bool:
    """Whether a temporal value is a whole date (year, month and day: 2026-03-05T15:00:00+08:00,
    2026/3/5, 2026年3月5日 15:00), whose reading takes only the time zone from the reference time."""
    return _WRITTEN_WHOLE.fullmatch(text) is not None


def _exists(year: int, month: int, day: int) -> bool:
    return 1 <= month <= 12 and 1 <= day <= days_in_month(year, month)


def resolve_absolute(text: str, kind: str, policy):
    """The interval of a value that needs no reference time, or None. In a time field a clock
    time is taken on the placeholder day, so two clock times compare by their time of day."""
    from scorer import temporal

    interval = temporal.resolve(text, PLACEHOLDER_REFERENCE, policy)
    if interval is None:
        return None
    if not interval.relative:
        return interval
    if kind == "time" and temporal.GRANULARITY_INDEX[interval.granularity] <= temporal.GRANULARITY_INDEX["hour"]:
        return replace(temporal.time_of_day(interval, PLACEHOLDER_REFERENCE), relative=False)
    return None
