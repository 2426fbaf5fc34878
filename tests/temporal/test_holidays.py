"""Holiday rules (rules/holidays/holidays.toml) and their reading in text. Expected dates are
public almanac facts (Hong Kong Observatory / PRC calendars, Easter tables, Umm al-Qura, Hebrew
calendar); the Islamic ones follow Umm al-Qura (see docs/temporal.md)."""

import datetime as dt

import pytest

from scorer.temporal import holidays, resolve
from scorer.temporal.policy import TemporalPolicy

D = dt.date


def date_of(name, year, **policy):
    canonical = holidays.holiday_names()[name.lower()]
    return holidays.holiday_date(canonical, year, TemporalPolicy.from_overrides(policy))


# one row per rule kind and more: (name or alias, year, date)
@pytest.mark.parametrize("name, year, expected", [
    # gregorian
    ("元旦", 2024, D(2024, 1, 1)), ("国际劳动妇女节", 2024, D(2024, 3, 8)), ("世界地球日", 2025, D(2025, 4, 22)),
    ("建军节", 2024, D(2024, 8, 1)), ("教师节", 2024, D(2024, 9, 10)), ("光棍节", 2024, D(2024, 11, 11)),
    ("双十二", 2024, D(2024, 12, 12)), ("618", 2024, D(2024, 6, 18)), ("520", 2024, D(2024, 5, 20)),
    # lunar
    ("春节", 2024, D(2024, 2, 10)), ("过年", 2025, D(2025, 1, 29)), ("元宵", 2024, D(2024, 2, 24)),
    ("龙抬头", 2024, D(2024, 3, 11)), ("上巳", 2024, D(2024, 4, 11)), ("端午", 2024, D(2024, 6, 10)),
    ("七夕", 2024, D(2024, 8, 10)), ("中元节", 2024, D(2024, 8, 18)), ("中秋", 2025, D(2025, 10, 6)),
    ("浴佛节", 2024, D(2024, 5, 15)), ("破五", 2024, D(2024, 2, 14)), ("重阳", 2024, D(2024, 10, 11)), ("下元", 2024, D(2024, 11, 15)), ("中秋节", 2019, D(2019, 9, 13)),
    # lunar, at the end of the lunar year: the one before 春节 of the year (policy year_end_holidays)
    ("腊八", 2024, D(2024, 1, 18)), ("小年", 2024, D(2024, 2, 2)), ("除夕", 2024, D(2024, 2, 9)),
    ("大年三十", 2025, D(2025, 1, 28)),
    # solar terms
    ("清明", 2024, D(2024, 4, 4)), ("寒食", 2024, D(2024, 4, 3)), ("冬至", 2024, D(2024, 12, 21)),
    ("芒种", 2021, D(2021, 6, 5)), ("立春", 2025, D(2025, 2, 3)), ("大寒", 2017, D(2017, 1, 20)),
    # Easter and the movable feasts
    ("复活节", 2024, D(2024, 3, 31)), ("耶稣受难日", 2024, D(2024, 3, 29)), ("圣灰星期三", 2024, D(2024, 2, 14)),
    ("东正教复活节", 2024, D(2024, 5, 5)), ("东正教复活节", 2023, D(2023, 4, 16)),
    ("耶稣升天节", 2024, D(2024, 5, 9)), ("圣灵降临节", 2024, D(2024, 5, 19)), ("复活节", 2025, D(2025, 4, 20)),
    # Hijri (Umm al-Qura)
    ("开斋节", 2025, D(2025, 3, 30)), ("古尔邦节", 2025, D(2025, 6, 6)), ("宰牲节", 2024, D(2024, 6, 16)),
    ("伊斯兰新年", 2024, D(2024, 7, 7)),
    # Hebrew
    ("逾越节", 2024, D(2024, 4, 23)), ("犹太新年", 2024, D(2024, 10, 3)), ("赎罪日", 2024, D(2024, 10, 12)),
    ("光明节", 2024, D(2024, 12, 26)),
    # nth weekday (+ offset)
    ("母亲节", 2024, D(2024, 5, 12)), ("父亲节", 2024, D(2024, 6, 16)), ("感恩节", 2019, D(2019, 11, 28)),
    ("感恩节", 2024, D(2024, 11, 28)), ("黑色星期五", 2024, D(2024, 11, 29)), ("母亲节", 2021, D(2021, 5, 9)),
])
def test_holiday_dates(name, year, expected):
    assert date_of(name, year) == expected


def test_every_definition_dates_and_every_alias_is_unique():
    seen = {}
    for canonical, entry in holidays.definitions().items():
        assert holidays.holiday_date(canonical, 2024) is not None, canonical
        for name in (canonical, *entry.get("aliases", ())):
            assert seen.setdefault(name.lower(), canonical) == canonical, name


def test_holiday_period():
    assert holidays.holiday_period("国庆节") == (0, 7) and holidays.holiday_period("劳动节") == (0, 5)
    assert holidays.holiday_period("春节") == (-1, 8)   # from 除夕 to 初七
    assert holidays.holiday_period("中秋节") is None


def test_holiday_days_until_a_date_of_its_calendar():
    assert holidays.holiday_days("斋月", D(2025, 3, 1)) == 29
    assert holidays.holiday_days("开斋节", D(2025, 3, 30)) == 1


def test_hijri_holiday_twice_in_one_gregorian_year():
    canonical = holidays.holiday_names()["开斋节"]
    assert holidays.holiday_dates(canonical, 2000) == (D(2000, 1, 8), D(2000, 12, 27))


@pytest.mark.parametrize("name, year, policy, expected", [
    ("小年", 2024, {"xiaonian": "south"}, D(2024, 2, 3)),
    ("除夕", 2023, {"year_end_holidays": "lunar_year"}, D(2024, 2, 9)),
    ("腊八", 2023, {"year_end_holidays": "lunar_year"}, D(2024, 1, 18)),
    ("大寒", 2017, {"solar_term_year": "spring_start"}, D(2018, 1, 20)),
    ("小寒", 2023, {"solar_term_year": "spring_start"}, D(2024, 1, 6)),
    ("立春", 2023, {"solar_term_year": "spring_start"}, D(2023, 2, 4)),
])
def test_holiday_policies(name, year, policy, expected):
    assert date_of(name, year, **policy) == expected


def test_unknown_rule_kind_is_an_error(monkeypatch):
    monkeypatch.setattr(holidays, "definitions", lambda: {"x": {"rule": "martian"}})
    holidays._dates.cache_clear()
    with pytest.raises(ValueError, match="martian"):
        holidays.holiday_dates("x", 2024)
    holidays._dates.cache_clear()


# -- reading them in text -------------------------------------------------------------------------

def read(text, ref, **policy):
    reference = dt.datetime.fromisoformat(ref)
    interval = resolve(text, reference, TemporalPolicy.from_overrides(policy) if policy else None)
    if interval is None:
        return None
    return interval.start.replace(tzinfo=None).isoformat(), interval.end.replace(tzinfo=None).isoformat()


def days(first, last_exclusive):
    return f"{first}T00:00:00", f"{last_exclusive}T00:00:00"


@pytest.mark.parametrize("text, ref, expected", [
    # lunar dates with a year (the lunar year)
    ("农历2019年三月初三", "2024-01-01", days("2019-04-07", "2019-04-08")),
    ("2020年农历腊月廿三", "2024-01-01", days("2021-02-04", "2021-02-05")),
    ("二〇一二年农历正月十五", "2024-01-01", days("2012-02-06", "2012-02-07")),
    ("农历二〇二一年六月", "2024-01-01", days("2021-07-10", "2021-08-08")),
    ("1991年农历8月23号", "2024-01-01", days("1991-09-30", "1991-10-01")),
    ("2012年正月初8", "2024-01-01", days("2012-01-30", "2012-01-31")),
    ("农历二〇二四年腊月廿九", "2020-01-01", days("2025-01-28", "2025-01-29")),   # 除夕 before 春节 2025
    ("农历1644年三月十九", "2024-01-01", days("1644-04-25", "1644-04-26")),       # the Chongzhen emperor's death
    ("农历腊月", "2024-01-01", days("2024-12-31", "2025-01-29")),
    # without a year: the lunar year numbered as the reference year
    ("五月初五", "2024-01-01", days("2024-06-10", "2024-06-11")),
    ("八月十五", "2025-01-01", days("2025-10-06", "2025-10-07")),
    ("腊月", "2024-06-01", days("2024-12-31", "2025-01-29")),
    ("腊月廿三", "2024-06-01", days("2025-01-22", "2025-01-23")),
    ("冬月初一", "2024-06-01", days("2024-12-01", "2024-12-02")),
    ("农历十月", "2022-06-01", days("2022-10-25", "2022-11-24")),
    ("大年初十", "2024-03-01", days("2024-02-19", "2024-02-20")),
    ("闰四月", "2020-01-01", days("2020-05-23", "2020-06-21")),
    ("2023年闰二月", "2020-01-01", days("2023-03-22", "2023-04-20")),
    ("去年五月初五", "2021-01-01", days("2020-06-25", "2020-06-26")),
    ("明年腊月", "2021-01-01", days("2022-12-23", "2023-01-22")),
    # holidays with a year, relative years and the lunar marker
    ("2019年中秋节", "2024-01-01", days("2019-09-13", "2019-09-14")),
    ("明年端午", "2024-07-01", days("2025-05-31", "2025-06-01")),
    ("去年感恩节", "2025-03-01", days("2024-11-28", "2024-11-29")),
    ("2024年复活节", "2020-01-01", days("2024-03-31", "2024-04-01")),
    ("农历元宵", "2024-01-01", days("2024-02-24", "2024-02-25")),
    ("2024年冬至", "2020-01-01", days("2024-12-21", "2024-12-22")),
    # no year: the next one not yet over (policy holiday_year), a Hijri holiday's second in the year
    ("中秋节", "2024-09-18", days("2025-10-06", "2025-10-07")),
    ("开斋节", "2000-06-01", days("2000-12-27", "2000-12-28")),
    ("母亲节", "2024-05-12", days("2024-05-12", "2024-05-13")),
    # a holiday lasting until a date of its calendar: Ramadan (Umm al-Qura 1446: 03-01 to 03-29)
    ("2025年斋月", "2024-01-01", days("2025-03-01", "2025-03-30")),
    ("2024年斋月", "2020-01-01", days("2024-03-11", "2024-04-10")),
    # statutory break
    ("国庆假期", "2024-01-01", days("2024-10-01", "2024-10-08")),
    ("国庆节", "2024-01-01", days("2024-10-01", "2024-10-02")),
    # 春节's break runs from 除夕 (2024-02-09) for 8 days; said during it, it is that break still
    ("2024年春节假期", "2020-01-01", days("2024-02-09", "2024-02-17")),
    ("2024年旧历新年", "2020-01-01", days("2024-02-10", "2024-02-11")),
    ("过年期间", "2024-02-12", days("2024-02-09", "2024-02-17")),
    # composition with clock times and ranges
    ("除夕晚上8点", "2024-01-01", ("2024-02-09T20:00:00", "2024-02-09T20:01:00")),
    ("春节到元宵节", "2024-01-01", days("2024-02-10", "2024-02-25")),
    # a lone lunar day ends a range in the left side's lunar month, or the next one
    ("正月初一到初五", "2024-01-01", days("2024-02-10", "2024-02-15")),
    ("腊月廿八到初六", "2024-01-01", days("2025-01-27", "2025-02-04")),
    ("2020年闰四月初一到初十", "2024-01-01", days("2020-05-23", "2020-06-02")),
    # not lunar: Gregorian dates keep their reading
    # a digit month with a Chinese-numeral day and no 日 is as 八月十五 (policy unmarked_month_day): 中秋 2025
    ("8月十五", "2025-01-01", days("2025-10-06", "2025-10-07")),
    ("3月初五", "2025-01-01", days("2025-04-02", "2025-04-03")),      # 三月初五: 三月 of 2025 began on 03-29
    ("五月五日", "2024-01-01", days("2024-05-05", "2024-05-06")),
    ("2024年二月二十九号", "2024-01-01", days("2024-02-29", "2024-03-01")),
])
def test_reading(text, ref, expected):
    assert read(text, ref) == expected


@pytest.mark.parametrize("text, ref, policy, expected", [
    ("国庆节", "2024-01-01", {"holiday_break": "statutory_break"}, days("2024-10-01", "2024-10-08")),
    ("中秋节", "2024-01-01", {"holiday_break": "statutory_break"}, days("2024-09-17", "2024-09-18")),
    ("春节", "2024-01-01", {"holiday_break": "statutory_break"}, days("2024-02-09", "2024-02-17")),
    ("八月十五", "2025-01-01", {"unmarked_month_day": "gregorian"}, days("2025-08-15", "2025-08-16")),
    ("八月十五", "2025-01-01", {"unmarked_month_day": "lunar_day_words"}, None),
    ("五月初五", "2024-01-01", {"unmarked_month_day": "lunar_day_words"}, days("2024-06-10", "2024-06-11")),
    ("8月十五", "2025-01-01", {"unmarked_month_day": "gregorian"}, days("2025-08-15", "2025-08-16")),
    ("农历八月十五", "2025-01-01", {"unmarked_month_day": "gregorian"}, days("2025-10-06", "2025-10-07")),
    ("2023年大年三十", "2021-01-01", {"year_end_holidays": "lunar_year"}, days("2024-02-09", "2024-02-10")),
    ("2017年大寒", "2021-01-01", {"solar_term_year": "spring_start"}, days("2018-01-20", "2018-01-21")),
    ("小年", "2024-01-01", {"xiaonian": "south"}, days("2024-02-03", "2024-02-04")),
    ("腊月初十", "2024-06-01", {"bare_month_day": "upcoming"}, days("2025-01-09", "2025-01-10")),
    ("正月初十", "2024-06-01", {"bare_month_day": "upcoming"}, days("2025-02-07", "2025-02-08")),
])
def test_reading_under_policies(text, ref, policy, expected):
    assert read(text, ref, **policy) == expected


@pytest.mark.parametrize("text", ["闰三月", "农历十三月", "腊月三十", "大年十五", "农历2024年闰四月",
                                  "初五"])     # a lone 初X day only ends a range (廿三 alone: test_gaps.py)
def test_dates_that_do_not_exist(text):
    assert read(text, "2024-06-01") is None


@pytest.mark.parametrize("text, expected", [
    ("二月二日", days("2024-02-02", "2024-02-03")),      # a Gregorian date, not 龙抬头 (二月二)
    ("三月三日", days("2024-03-03", "2024-03-04")),      # not 上巳 (三月三)
    ("二月二", days("2024-03-11", "2024-03-12")),        # 龙抬头
    ("元旦10点", ("2024-01-01T10:00:00", "2024-01-01T10:01:00")),
    ("十一万", None), ("520元", None), ("520.5", None), ("1618", None),
])
def test_numeral_names_do_not_run_into_numbers(text, expected):
    assert read(text, "2024-01-01") == expected


def test_amounts_in_free_text_are_not_holidays():
    from scorer.temporal import find_in_text
    assert find_in_text("给他转账520元", dt.datetime(2024, 1, 1)) is None
    assert find_in_text("编号1618的房间", dt.datetime(2024, 1, 1)) is None
    found = find_in_text("今年618买什么", dt.datetime(2024, 1, 1))
    assert (found.start.month, found.start.day) == (6, 18)


def test_any_holiday_in_any_year_dates_without_error():
    hypothesis = pytest.importorskip("hypothesis")
    st = hypothesis.strategies
    policies = [TemporalPolicy.from_overrides(p) for p in (
        {}, {"year_end_holidays": "lunar_year", "solar_term_year": "spring_start", "xiaonian": "south"})]

    @hypothesis.settings(max_examples=150, deadline=None, derandomize=True)
    @hypothesis.given(st.sampled_from(sorted(holidays.definitions())), st.integers(1, 9999), st.sampled_from(policies))
    def check(canonical, year, policy):
        for date in holidays.holiday_dates(canonical, year, policy):
            assert year - 1 <= date.year <= year + 1
            assert holidays.holiday_days(canonical, date, policy) >= 1

    check()
