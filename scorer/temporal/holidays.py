"""Holiday dates from their definitions in rules/holidays/holidays.toml: each holiday names a rule
kind (gregorian, lunar, solar_term, easter, hijri, hebrew, weekday) that calendars.py computes.

"The holiday of year Y" is the occurrence dated in Gregorian year Y, with two documented
policies: 腊月 holidays (腊八, 小年, 除夕) and the January solar terms (小寒, 大寒) may instead
belong to the lunar / solar-term year Y (policies year_end_holidays, solar_term_year).
"""

import datetime as dt
import functools

from scorer.rules import read_toml
from scorer.temporal import calendars
from scorer.temporal.policy import WEEKDAYS, TemporalPolicy, default_policy

HOLIDAYS = "holidays/holidays.toml"
_DAY = dt.timedelta(days=1)
# solar terms that fall before 立春, i.e. at the end of the previous solar-term year
_TERMS_BEFORE_SPRING = frozenset(calendars.SOLAR_TERMS[:calendars.SOLAR_TERMS.index("立春")])


@functools.lru_cache(maxsize=None)
def definitions() -> dict:
    """Canonical name -> definition; every solar term is a holiday of its own unless defined."""
    defined = dict(read_toml(HOLIDAYS)["holiday"])
    named = holiday_aliases(defined)
    for term in calendars.SOLAR_TERMS:
        if term not in named:
            defined[term] = {"rule": "solar_term", "term": term}
    return defined


def holiday_aliases(defined: dict) -> dict:
    """Every name and alias (lower case) -> canonical name, for some definitions."""
    names = {}
    for canonical, entry in defined.items():
        for name in (canonical, *entry.get("aliases", ())):
            names[name.lower()] = canonical
    return names


@functools.lru_cache(maxsize=None)
def holiday_names() -> dict:
    """Every name and alias (lower case) -> canonical holiday name."""
    return holiday_aliases(definitions())


@functools.lru_cache(maxsize=None)
def period_suffixes() -> tuple:
    return tuple(read_toml(HOLIDAYS)["period"]["suffixes"])


def holiday_period(canonical: str) -> tuple[int, int] | None:
    """The holiday's statutory break as (days from the holiday's date to its first day, length in
    days), or None when it has none: 春节's break starts on 除夕, the day before."""
    entry = definitions().get(canonical, {})
    return (entry.get("period_start_days", 0), entry["period_days"]) if "period_days" in entry else None


def holiday_date(canonical: str, year: int, policy: TemporalPolicy | None = None) -> dt.date | None:
    """The Gregorian date of a holiday in year `year` (the first, for a Hijri holiday that falls
    twice in one Gregorian year), or None when the calendars cannot date it."""
    dates = holiday_dates(canonical, year, policy)
    return dates[0] if dates else None


def holiday_dates(canonical: str, year: int, policy: TemporalPolicy | None = None) -> tuple:
    """Every date of the holiday of year `year`, in order (one, except Hijri holidays which
    can fall twice in a Gregorian year)."""
    policy = policy or default_policy()
    if not 1 <= year <= 9999:
        return ()
    return _dates(canonical, year, _calendar_choices(policy))


def holiday_days(canonical: str, start: dt.date, policy: TemporalPolicy | None = None) -> int:
    """How many days the holiday itself lasts from `start`: 1, or up to (not including) its `until`
    date in the same calendar (斋月 = the whole of Ramadan, up to 开斋节)."""
    entry = definitions()[canonical]
    if "until" not in entry:
        return 1
    policy = policy or default_policy()
    end = dict(entry, date=entry["until"], offset_days=0)
    ends = [date for year in (start.year, start.year + 1)
            for date in _rule_dates(canonical, end, year, _calendar_choices(policy)) if date > start]
    return (ends[0] - start).days if ends else 1     # no end date past the calendars' last year


def _calendar_choices(policy: TemporalPolicy) -> tuple:
    """The policies holiday dates depend on, as one memo key."""
    return policy.xiaonian, policy.year_end_holidays, policy.solar_term_year, policy.sunset_holidays


@functools.lru_cache(maxsize=8192)
def _dates(canonical, year, choices) -> tuple:
    return _rule_dates(canonical, definitions()[canonical], year, choices)


def _rule_dates(canonical, entry, year, choices) -> tuple:
    xiaonian, year_end_holidays, solar_term_year, sunset_holidays = choices
    rule = entry["rule"]
    if rule == "gregorian":
        month, day = _month_day(entry["date"])
        dates = (dt.date(year, month, day),)
    elif rule == "lunar":
        text = entry["date_by_policy"][xiaonian] if entry.get("policy") == "xiaonian" else entry["date"]
        month, day = _month_day(text)
        lunar_year = year - 1 if entry.get("year_end") and year_end_holidays == "gregorian_year" else year
        dates = (calendars.lunar_to_solar(lunar_year, month, day),)
    elif rule == "solar_term":
        term = entry["term"]
        shift = term in _TERMS_BEFORE_SPRING and solar_term_year == "spring_start"
        dates = (calendars.solar_term(year + shift, term) if year + shift <= 9999 else None,)
    elif rule == "easter":
        dates = (calendars.easter(year, entry.get("church", "western")),)
    elif rule == "hijri":
        dates = calendars.hijri_dates(year, *_month_day(entry["date"]))
    elif rule == "hebrew":
        dates = calendars.hebrew_dates(year, *_month_day(entry["date"]))
        if sunset_holidays == "eve":   # the civil day on whose evening the Hebrew day begins
            later = calendars.hebrew_dates(year + 1, *_month_day(entry["date"])) if year < 9999 else ()
            dates = tuple(date - _DAY for date in dates + later if (date - _DAY).year == year)
    elif rule == "hindu":
        dates = (calendars.hindu_date(year, entry["festival"]),)
    elif rule == "weekday":
        dates = (calendars.nth_weekday(year, entry["month"], entry["nth"], WEEKDAYS.index(entry["weekday"])),)
    else:
        raise ValueError(f"{HOLIDAYS}: holiday {canonical!r} has unknown rule {rule!r}")
    offset = dt.timedelta(days=entry.get("offset_days", 0))
    return tuple(date + offset for date in dates if date is not None)


def _month_day(text: str) -> tuple[int, int]:
    month, day = text.split("-")
    return int(month), int(day)
