"""dateparser for what the rules do not recognize, with guards.

dateparser is slow to import and to run, resolves few Chinese expressions and sometimes
returns absurd years (`2023年` -> year 4049 or 1), so: it is imported lazily, called only for
values that contain a digit or an English date word, restricted to en/zh, and its answer is
rejected when the year is outside 1900-2100 or differs from a year written in the text. The
granularity comes from its `period`, refined to minute when the text shows a clock time.
"""

import datetime as dt
import functools
import re

from scorer.rules import read_toml
from scorer.temporal.dates import DAY, midnight, month_span
from scorer.temporal.grammar import Span

_YEAR = re.compile(r"(?<!\d)(19\d\d|20\d\d|2100)(?!\d)")
# year-first numeric dates are ours to read: when our ISO rule rejects one (2026-13-01),
# dateparser would guess a day-month swap instead
# (not `\b`: between the day and the `t` of an ISO date-time there is no word boundary)
_YEAR_FIRST = re.compile(r"\d{4}[-/.]\d{1,2}[-/.]\d{1,2}(?!\d).*")
_CLOCK = re.compile(r"\d{1,2}:\d{2}|\d\s*(?:am|pm|a\.m\.|p\.m\.)|[点點时]", re.IGNORECASE)


@functools.lru_cache(maxsize=None)
def _english_words() -> re.Pattern:
    en = read_toml("temporal/en.toml")
    words = set(en["month"]) | set(en["weekday"]) | set(en["relative_day"]) | set(en["unit"]) \
        | {"week", "weekend", "month", "year", "ago", "next", "last", "noon", "midnight"}
    return re.compile(r"\b(?:" + "|".join(sorted(map(re.escape, words), key=len, reverse=True)) + r")s?\b",
                      re.IGNORECASE)


def worth_asking(text: str) -> bool:
    """Whether dateparser could plausibly read the text (keeps it away from names and prose)."""
    if _YEAR_FIRST.fullmatch(text):
        return False
    return len(text) <= 64 and (any(ch.isdigit() for ch in text) or bool(_english_words().search(text)))


def parse(text: str, reference: dt.datetime, tzinfo: dt.tzinfo) -> Span | None:
    """dateparser's reading of `text` as a naive local Span, or None when absent or implausible."""
    from dateparser.date import DateDataParser  # slow import: only when the rules gave up

    settings = {"RELATIVE_BASE": reference, "PREFER_DAY_OF_MONTH": "first",
                "RETURN_AS_TIMEZONE_AWARE": False}
    zone = getattr(tzinfo, "key", None)
    if zone:
        settings["TIMEZONE"] = zone
        settings["TO_TIMEZONE"] = zone
    try:
        data = DateDataParser(languages=["en", "zh"], settings=settings).get_date_data(text)
    except Exception:  # dateparser raises assorted errors on odd input; never propagate them
        return None
    value = data.date_obj
    if value is None:
        return None
    if value.tzinfo is not None:
        value = value.astimezone(tzinfo).replace(tzinfo=None)
    written_years = {int(year) for year in _YEAR.findall(text)}
    if not 1900 <= value.year <= 2100 or (written_years and value.year not in written_years):
        return None
    period = data.period or "day"
    if period in ("time", "day") and _CLOCK.search(text):
        start = value.replace(second=0, microsecond=0)
        return Span(start, start + dt.timedelta(minutes=1), "minute")
    if period == "month":
        return Span(*month_span(value.year, value.month), "month")
    if period == "year":
        return Span(dt.datetime(value.year, 1, 1), dt.datetime(value.year + 1, 1, 1), "year")
    start = midnight(value.date())
    return Span(start, start + DAY, "day")
