"""Holidays and calendars (scorer/temporal/grammar/festivals.py, rules/holidays/holidays.toml): a
Gregorian date that looks lunar, and holidays of the world's calendars by their Chinese names. Dates
worked out from the calendars: 中秋 (八月十五) 1998 fell on October 5, 端午 (五月初五) 2020 on June 25,
中秋 2026 falls on September 25; the others beside each case."""

import datetime as dt

import pytest

from scorer.temporal import resolve
from tests.temporal.test_families import REF, check

LOOKS_LUNAR = [
    ("一九九八年八月十五", [], "1998-08-15", "1998-08-16"),          # a year written: Gregorian
    ("98年八月十五", [], "1998-08-15", "1998-08-16"),
    ("一九九八年八月十五", ["unmarked_date_after_year=unmarked_month_day"], "1998-10-05", "1998-10-06"),
    ("2020年五月初五", [], "2020-06-25", "2020-06-26"),               # 初五 is a lunar day word
    ("八月十五", [], "2026-09-25", "2026-09-26"),                     # no year: unmarked_month_day (lunar)
    ("今年八月十五", [], "2026-09-25", "2026-09-26"),                 # 今年 is no year written as a number
]


@pytest.mark.parametrize("text, policy, start, end", LOOKS_LUNAR)
def test_gregorian_dates_that_look_lunar(text, policy, start, end):
    check(text, start, end, "day", policy=policy)


WORLD_HOLIDAYS = [
    # Hindu festivals: Holi the day after the Phalguna full moon (3 March 2026), Diwali, Pongal and its days
    ("2026年洒红节", [], "2026-03-04"),
    ("2026年霍利节", [], "2026-03-04"),
    ("2025年排灯节", [], "2025-10-20"),
    ("2026年万灯节", [], "2026-11-08"),
    ("2026年庞格尔节", [], "2026-01-14"),
    ("2026年博吉节", [], "2026-01-13"),
    ("2026年马杜庞格尔", [], "2026-01-15"),
    ("2026年丰收节", [], "2026-09-23"),            # 中国农民丰收节: 秋分
    # Christian movable feasts: Western Easter 5 April 2026, Orthodox Easter 12 April 2026
    ("2026年圣周六", [], "2026-04-04"),
    ("2026年拉撒路周六", [], "2026-04-04"),
    ("2027年拉撒路周六", [], "2027-04-24"),         # Orthodox Easter 2 May 2027
    ("2026年圣灰星期三", [], "2026-02-18"),
    # Islamic: Ramadan 1447 began 18 February 2026 (Umm al-Qura), its 27th night
    ("2026年盖德尔夜", [], "2026-03-16"),
    # Jewish: Lag BaOmer 18 Iyar (the 33rd day of the Omer from 3 April 2026); Yom Kippur 10 Tishri 5786
    ("2026年篝火节", [], "2026-05-05"),
    ("2026年拉格巴奥默节", [], "2026-05-05"),
    ("2025年赎罪日", [], "2025-10-02"),
    ("2025年赎罪日", ["sunset_holidays=eve"], "2025-10-01"),   # it begins at sunset on 1 October
]


@pytest.mark.parametrize("text, policy, day", WORLD_HOLIDAYS)
def test_holidays_of_the_worlds_calendars_by_their_chinese_names(text, policy, day):
    check(text, day, _next_day(day), "day", policy=policy)


def _next_day(day: str) -> str:
    return (dt.date.fromisoformat(day) + dt.timedelta(days=1)).isoformat()


def test_a_hindu_festival_outside_the_tables_is_not_dated():
    """The holidays package's Hindu tables are what dates these festivals: no table, no date."""
    assert resolve("2040年洒红节", REF) is None


def test_the_prefix_tree_of_names_matches_as_the_plain_alternation():
    """Holiday names and reign titles are matched through a tree of shared prefixes, for speed: on
    every name, cut short and run on into more text, it must match what the longest-first
    alternation matches (建中 / 建中靖国, 大中 / 大中祥符, 圣诞 / 圣诞节 / 圣诞夜)."""
    import re

    from scorer.temporal.grammar.core import _alt, _prefix_alt
    from scorer.temporal.grammar.years import era_offsets
    from scorer.temporal.holidays import holiday_names

    for names in (list(holiday_names()), list(era_offsets())):
        tree, plain = re.compile(f"(?:{_prefix_alt(names)})"), re.compile(f"(?:{_alt(names)})")
        texts = [text for name in names for text in (name, name + "节日", name[:-1], name + name)]
        assert len(texts) > 400
        for text in texts:
            found, expected = tree.match(text), plain.match(text)
            assert (found and found.group(0)) == (expected and expected.group(0)), text
