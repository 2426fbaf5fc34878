"""Calendar conversions behind the holiday rules: the Chinese lunisolar calendar and the 24 solar
terms, Western Easter, the Hijri and the Hebrew calendars, Hindu festivals, and nth-weekday rules.

The Chinese calendar is astronomical (new moons and solar longitudes, Beijing time). lunar-python
(MIT, 6tail/lunar-python) computes it for years 1-9999 but costs ~3 ms per year, so the years
most text mentions (1900-2200) come from two tables it generated (rules/holidays/lunar_months.tsv,
solar_terms.tsv; `python bench/make_lunar_table.py`; tests/temporal/test_calendars.py regenerates
a sample and compares). Years outside the tables are computed on demand and cached.
"""

import datetime as dt
import functools
import math

from scorer.rules import read_tsv
from scorer.temporal.dates import days_in_month

LUNAR_TABLE = "holidays/lunar_months.tsv"
TERMS_TABLE = "holidays/solar_terms.tsv"
# the 24 solar terms in the order they fall in a Gregorian year
SOLAR_TERMS = (
    "小寒", "大寒", "立春", "雨水", "惊蛰", "春分", "清明", "谷雨", "立夏", "小满", "芒种", "夏至",
    "小暑", "大暑", "立秋", "处暑", "白露", "秋分", "寒露", "霜降", "立冬", "小雪", "大雪", "冬至",
)
# lunar-python names the terms that belong to a neighbouring lunar year in pinyin
_PINYIN_TERMS = {"DONG_ZHI": "冬至", "XIAO_HAN": "小寒", "DA_HAN": "大寒", "LI_CHUN": "立春",
                 "YU_SHUI": "雨水", "JING_ZHE": "惊蛰", "DA_XUE": "大雪"}
_ORDINAL_TO_JULIAN_DAY = 1721425   # Julian day number (from noon) of a date = its ordinal + this
YEARS = (1, 9998)                   # lunar years lunar-python computes whose months fit in datetime


# -- the Chinese lunisolar calendar -------------------------------------------------------------

def computed_lunar_year(year: int) -> tuple:
    """(first day of 正月, leap month or 0, days of each month in order, the leap month after its
    namesake), computed with lunar-python."""
    from lunar_python import LunarYear

    months = [m for m in LunarYear.fromYear(year).getMonths() if m.getYear() == year]
    leap = next((-m.getMonth() for m in months if m.getMonth() < 0), 0)
    first = _date_of_julian_day(months[0].getFirstJulianDay())
    return first, leap, tuple(m.getDayCount() for m in months)


def computed_solar_terms(year: int) -> tuple:
    """The dates of the 24 solar terms of a Gregorian year, in SOLAR_TERMS order (lunar-python)."""
    from lunar_python import Lunar

    found = {}
    for name, solar in Lunar.fromYmd(year, 6, 1).getJieQiTable().items():
        date = _date_of_julian_day(solar.getJulianDay())
        if date is not None and date.year == year:
            found[_PINYIN_TERMS.get(name, name)] = date
    return tuple(found[name] for name in SOLAR_TERMS)


def _date_of_julian_day(julian_day: float) -> dt.date | None:
    """The proleptic Gregorian date (as datetime counts) of a Julian day, None before year 1;
    lunar-python's own year-month-day is Julian-calendar before 1582."""
    ordinal = math.floor(julian_day + 0.5) - _ORDINAL_TO_JULIAN_DAY
    return dt.date.fromordinal(ordinal) if ordinal >= 1 else None


@functools.lru_cache(maxsize=None)
def _lunar_table() -> dict:
    """Lunar year -> its table row (cells parsed on first use of the year)."""
    return {int(row[0]): row for row in read_tsv(LUNAR_TABLE)[1:]}


@functools.lru_cache(maxsize=None)
def _terms_table() -> dict:
    return {int(row[0]): row for row in read_tsv(TERMS_TABLE)[1:]}


def table_years() -> tuple[int, int]:
    """First and last year of the generated tables."""
    years = sorted(_lunar_table())
    return years[0], years[-1]


@functools.lru_cache(maxsize=4096)
def lunar_year(year: int) -> tuple | None:
    """The months of a lunar year (see computed_lunar_year), or None outside YEARS."""
    if not YEARS[0] <= year <= YEARS[1]:
        return None
    row = _lunar_table().get(year)
    if row is None:
        return computed_lunar_year(year)
    return dt.date.fromisoformat(row[1]), int(row[2]), tuple(int(days) for days in row[3].split(","))


def lunar_month_span(year: int, month: int, leap: bool = False) -> tuple | None:
    """(first day, day after the last) of a lunar month, or None when the year has no such month."""
    months = lunar_year(year)
    if months is None or not 1 <= month <= 12:
        return None
    first, leap_month, lengths = months
    if leap and leap_month != month:
        return None
    index = month - 1 + (leap_month != 0 and (month > leap_month or (leap and month == leap_month)))
    start = first + dt.timedelta(days=sum(lengths[:index]))
    return start, start + dt.timedelta(days=lengths[index])


def lunar_to_solar(year: int, month: int, day: int, leap: bool = False) -> dt.date | None:
    """The Gregorian date of a lunar date; day 0 is read as the month's last day (除夕 = 腊月
    last day, 29 or 30). None when the date does not exist."""
    span = lunar_month_span(year, month, leap)
    if span is None:
        return None
    length = (span[1] - span[0]).days
    if day == 0:
        day = length
    return span[0] + dt.timedelta(days=day - 1) if 1 <= day <= length else None


def lunar_month_of(date: dt.date) -> tuple | None:
    """(lunar year, month, leap) of the lunar month that contains a Gregorian date."""
    this_year = lunar_year(date.year)
    year = date.year if this_year and date >= this_year[0] else date.year - 1
    months = lunar_year(year)
    if months is None:
        return None
    first, leap_month, lengths = months
    offset = (date - first).days
    for index, length in enumerate(lengths):
        if offset < length:
            after_leap = leap_month != 0 and index >= leap_month
            return year, index + 1 - after_leap, after_leap and index == leap_month
        offset -= length
    return None


@functools.lru_cache(maxsize=4096)
def _solar_terms(year: int) -> tuple | None:
    if not YEARS[0] <= year <= YEARS[1]:
        return None
    row = _terms_table().get(year)
    if row is None:
        return computed_solar_terms(year)
    return tuple(dt.date(year, *map(int, cell.split("-"))) for cell in row[1:])


def solar_term(year: int, name: str) -> dt.date | None:
    """The date (Beijing time) of a solar term in a Gregorian year."""
    terms = _solar_terms(year)
    return terms and terms[SOLAR_TERMS.index(name)]


# -- other calendars ----------------------------------------------------------------------------

def easter(year: int, church: str = "western") -> dt.date:
    """Easter Sunday: western (Gregorian computus) or orthodox (Julian computus), as a Gregorian date."""
    from convertdate.holidays import easter as _easter

    return dt.date(*_easter(year, church))


def hindu_date(year: int, festival: str) -> dt.date | None:
    """The date of a Hindu festival (holi, diwali_india, pongal, ...: the holidays package's Hindu
    calendar, vacanza/holidays, MIT, whose maintained tables observances depend on), or None for a
    year its tables do not hold."""
    from holidays.calendars.hindu import _HinduLunisolar

    return getattr(_HinduLunisolar(), f"{festival}_date")(year)[0]


def _dates_in(year: int, converted) -> tuple:
    return tuple(sorted(date for date in converted if date is not None and date.year == year))


def hijri_dates(year: int, month: int, day: int) -> tuple:
    """Every date in a Gregorian year with this Hijri month and day. The Umm al-Qura calendar
    (hijridate, 1343-1500 AH = 1924-2077) where it exists, the arithmetic (tabular) Islamic
    calendar of convertdate elsewhere: observance that waits for a moon sighting may be a day later."""
    from convertdate import islamic
    from hijridate import Hijri

    def convert(hijri_year):
        if 1343 <= hijri_year <= 1500:
            try:
                return Hijri(hijri_year, month, day).to_gregorian().datetuple()
            except ValueError:     # day 30 of a 29-day month
                return None
        return islamic.to_gregorian(hijri_year, month, day)

    first = (year - 622) * 33 // 32
    return _dates_in(year, (_safe_date(convert(y)) for y in range(first - 1, first + 3)))


def hebrew_dates(year: int, month: int, day: int) -> tuple:
    """Every date in a Gregorian year with this Hebrew month and day (convertdate; months count
    from Nisan = 1, Tishri = 7; Adar = 12 means Adar II in a leap year, where Purim falls). A
    Hebrew day starts at the sunset before: the date is the civil day it mostly covers."""
    from convertdate import hebrew

    def convert(hebrew_year):
        real_month = 13 if month == 12 and hebrew.leap(hebrew_year) else month
        return hebrew.to_gregorian(hebrew_year, real_month, day)

    return _dates_in(year, (_safe_date(convert(y)) for y in (year + 3760, year + 3761)))


def _safe_date(parts) -> dt.date | None:
    try:
        return dt.date(*parts) if parts else None
    except ValueError:
        return None


def nth_weekday(year: int, month: int, nth: int, weekday: int) -> dt.date | None:
    """The nth (1-5, or -1 for the last) `weekday` (0 = Monday) of a month."""
    if nth > 0:
        first = dt.date(year, month, 1)
        date = first + dt.timedelta(days=(weekday - first.weekday()) % 7 + 7 * (nth - 1))
        return date if date.month == month else None
    last = dt.date(year, month, days_in_month(year, month))
    return last - dt.timedelta(days=(last.weekday() - weekday) % 7)
