"""The calendar conversions: generated tables against lunar-python (drift) and lunardate (an
independent implementation), and every calendar against dates from public almanacs."""

import datetime as dt

import pytest

from scorer.rules import read_tsv
from scorer.temporal import calendars

D = dt.date


def test_tables_cover_1900_to_2200():
    assert calendars.table_years() == (1900, 2200)


@pytest.mark.parametrize("year", [1900, 1933, 1978, 2020, 2023, 2057, 2100, 2200])
def test_tables_match_a_fresh_lunar_python_computation(year):
    pytest.importorskip("lunar_python")
    rows = {int(row[0]): row for row in read_tsv(calendars.LUNAR_TABLE)[1:]}
    first, leap, lengths = calendars.computed_lunar_year(year)
    assert rows[year] == (str(year), first.isoformat(), str(leap), ",".join(map(str, lengths)))
    terms = {int(row[0]): row[1:] for row in read_tsv(calendars.TERMS_TABLE)[1:]}
    assert terms[year] == tuple(d.strftime("%m-%d") for d in calendars.computed_solar_terms(year))


def test_terms_table_columns_are_the_24_terms_in_order():
    assert read_tsv(calendars.TERMS_TABLE)[0][1:] == calendars.SOLAR_TERMS


# lunar-python computes new moons astronomically; lunardate uses an older table. They disagree on
# the first day of four months, each beginning with a new moon close to midnight Beijing time;
# we keep lunar-python (docs/temporal.md, "Calendars and holidays").
MONTH_START_DISAGREEMENTS = {(1933, 6): D(1933, 7, 22), (1954, 11): D(1954, 11, 26),
                             (1978, 8): D(1978, 9, 2), (2057, 9): D(2057, 9, 28)}


def test_every_lunar_month_start_agrees_with_lunardate():
    lunardate = pytest.importorskip("lunardate")
    checked = 0
    for year in range(1900, 2100):      # lunardate covers lunar years 1900-2099
        leap_month = calendars.lunar_year(year)[1]
        for month in range(1, 13):
            for leap in (False, True) if month == leap_month else (False,):
                theirs = lunardate.LunarDate(year, month, 1, leap).to_solar_date()
                ours = calendars.lunar_to_solar(year, month, 1, leap)
                if (year, month) in MONTH_START_DISAGREEMENTS and not leap:
                    assert theirs == MONTH_START_DISAGREEMENTS[year, month]
                    assert abs((ours - theirs).days) == 1
                else:
                    assert ours == theirs, (year, month, leap)
                checked += 1
    assert checked == 200 * 12 + sum(1 for y in range(1900, 2100) if calendars.lunar_year(y)[1])


@pytest.mark.parametrize("year, month, day, leap, expected", [
    (2024, 1, 1, False, D(2024, 2, 10)),      # 春节 2024
    (2025, 8, 15, False, D(2025, 10, 6)),     # 中秋 2025
    (2020, 4, 1, True, D(2020, 5, 23)),       # 闰四月初一 2020
    (2023, 2, 1, True, D(2023, 3, 22)),       # 闰二月初一 2023
    (2019, 3, 3, False, D(2019, 4, 7)),       # 上巳 2019
    (2024, 12, 0, False, D(2025, 1, 28)),     # last day of 腊月 2024 = 除夕 before 春节 2025
    (2023, 12, 0, False, D(2024, 2, 9)),      # 腊月 2023 has 30 days: 大年三十
])
def test_lunar_dates(year, month, day, leap, expected):
    assert calendars.lunar_to_solar(year, month, day, leap) == expected


def test_impossible_lunar_dates_are_none():
    assert calendars.lunar_to_solar(2024, 4, 1, leap=True) is None     # 2024 has no leap month
    assert calendars.lunar_to_solar(2024, 12, 30) is None              # 腊月 2024 has 29 days
    assert calendars.lunar_to_solar(2024, 13, 1) is None
    assert calendars.lunar_year(0) is None and calendars.lunar_year(10000) is None


def test_lunar_month_of_a_date():
    assert calendars.lunar_month_of(D(2024, 2, 9)) == (2023, 12, False)     # 除夕
    assert calendars.lunar_month_of(D(2024, 2, 10)) == (2024, 1, False)     # 春节
    assert calendars.lunar_month_of(D(2020, 6, 20)) == (2020, 4, True)      # last day of 闰四月
    assert calendars.lunar_month_of(D(2020, 6, 21)) == (2020, 5, False)


def test_lunar_month_span_is_the_whole_month():
    assert calendars.lunar_month_span(2022, 10) == (D(2022, 10, 25), D(2022, 11, 24))
    assert calendars.lunar_month_span(2020, 4, leap=True) == (D(2020, 5, 23), D(2020, 6, 21))


@pytest.mark.parametrize("year", [1, 1000, 1644, 1800, 1899, 2201, 2500, 9998])
def test_years_outside_the_tables_are_computed(year):
    pytest.importorskip("lunar_python")
    first, leap, lengths = calendars.lunar_year(year)
    assert len(lengths) == (13 if leap else 12) and set(lengths) <= {29, 30}
    assert 353 <= sum(lengths) <= 385
    next_first = calendars.lunar_year(year + 1)[0] if year < 9998 else None
    assert next_first is None or (next_first - first).days == sum(lengths)
    # dates are proleptic Gregorian, as datetime counts (lunar-python's own are Julian before 1582):
    # the Gregorian year keeps the solstice on December 21-22 for millennia around our era
    assert calendars.solar_term(year, "冬至").month == 12
    if year <= 5000:
        assert calendars.solar_term(year, "冬至").day in (21, 22)
        assert calendars.solar_term(year, "立春").day in (3, 4, 5)


@pytest.mark.parametrize("year, term, expected", [
    (2024, "立春", D(2024, 2, 4)), (2025, "立春", D(2025, 2, 3)), (2024, "清明", D(2024, 4, 4)),
    (2026, "清明", D(2026, 4, 5)), (2021, "芒种", D(2021, 6, 5)), (2024, "夏至", D(2024, 6, 21)),
    (2024, "冬至", D(2024, 12, 21)), (2023, "大寒", D(2023, 1, 20)), (2024, "小寒", D(2024, 1, 6)),
])
def test_solar_terms(year, term, expected):
    assert calendars.solar_term(year, term) == expected


def test_solar_terms_fall_in_their_months_every_year():
    for year in range(1900, 2201):
        terms = [calendars.solar_term(year, name) for name in calendars.SOLAR_TERMS]
        assert [d.month for d in terms] == [m for m in range(1, 13) for _ in (0, 1)], year


@pytest.mark.parametrize("year, expected", [
    (2024, D(2024, 3, 31)), (2025, D(2025, 4, 20)), (2019, D(2019, 4, 21)), (2000, D(2000, 4, 23)),
    (1818, D(1818, 3, 22)), (2038, D(2038, 4, 25)),   # the earliest and the latest possible
])
def test_easter(year, expected):
    assert calendars.easter(year) == expected


def test_orthodox_easter():
    assert calendars.easter(2024, "orthodox") == D(2024, 5, 5)
    assert calendars.easter(2025, "orthodox") == D(2025, 4, 20)     # the same Sunday as the western one


def test_hijri_dates_umm_al_qura_and_twice_in_a_year():
    assert calendars.hijri_dates(2025, 10, 1) == (D(2025, 3, 30),)      # Eid al-Fitr 1446
    assert calendars.hijri_dates(2024, 10, 1) == (D(2024, 4, 10),)
    assert calendars.hijri_dates(2024, 12, 10) == (D(2024, 6, 16),)     # Eid al-Adha 1445
    assert calendars.hijri_dates(2000, 10, 1) == (D(2000, 1, 8), D(2000, 12, 27))
    assert calendars.hijri_dates(2100, 10, 1)          # tabular calendar beyond Umm al-Qura


@pytest.mark.parametrize("year, month, day, expected", [
    (2024, 7, 1, D(2024, 10, 3)), (2025, 7, 1, D(2025, 9, 23)),     # Rosh Hashanah
    (2024, 1, 15, D(2024, 4, 23)), (2025, 1, 15, D(2025, 4, 13)),   # Passover
    (2024, 7, 10, D(2024, 10, 12)),                                   # Yom Kippur
    (2024, 9, 25, D(2024, 12, 26)), (2025, 9, 25, D(2025, 12, 15)),  # Hanukkah
    (2024, 12, 14, D(2024, 3, 24)), (2025, 12, 14, D(2025, 3, 14)),  # Purim (Adar II in 5784)
])
def test_hebrew_dates(year, month, day, expected):
    assert calendars.hebrew_dates(year, month, day) == (expected,)


@pytest.mark.parametrize("year, month, nth, weekday, expected", [
    (2024, 5, 2, 6, D(2024, 5, 12)), (2025, 5, 2, 6, D(2025, 5, 11)), (2024, 11, 4, 3, D(2024, 11, 28)),
    (2025, 11, 4, 3, D(2025, 11, 27)), (2024, 5, -1, 0, D(2024, 5, 27)), (2024, 12, -1, 1, D(2024, 12, 31)),
])
def test_nth_weekday(year, month, nth, weekday, expected):
    assert calendars.nth_weekday(year, month, nth, weekday) == expected


def test_no_fifth_weekday_is_none():
    assert calendars.nth_weekday(2024, 2, 5, 0) is None
