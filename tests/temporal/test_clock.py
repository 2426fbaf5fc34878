"""The clock (scorer/temporal/grammar/clock.py): Cantonese minutes counted in 字 (five-minute marks),
Cantonese week words, and time-zone abbreviations (rules/temporal/zh.toml [zone]) resolved into the
run's zone (Asia/Shanghai, UTC+8). Expected times worked out by hand (reference 2026-03-10 09:30)."""

import pytest

from tests.temporal.test_families import check

CANTONESE = [
    ("五點四", [], "2026-03-10 05:20", "2026-03-10 05:21"),        # four 字
    ("五點踏二", [], "2026-03-10 05:10", "2026-03-10 05:11"),      # reaching the second 字
    ("五點搭二", [], "2026-03-10 05:10", "2026-03-10 05:11"),
    ("五點搭半", [], "2026-03-10 05:30", "2026-03-10 05:31"),
    ("三點二", [], "2026-03-10 03:10", "2026-03-10 03:11"),
    ("五点四分", [], "2026-03-10 05:04", "2026-03-10 05:05"),      # 分 written: minutes
    ("五点零四", [], "2026-03-10 05:04", "2026-03-10 05:05"),
    ("五点四十", [], "2026-03-10 05:40", "2026-03-10 05:41"),      # two digits: minutes
    ("五點四", ["clock_single_digit=minutes"], "2026-03-10 05:04", "2026-03-10 05:05"),
    ("今星期五", [], "2026-03-13", "2026-03-14"),                  # this week's Friday
    ("这一个礼拜", [], "2026-03-09", "2026-03-16"),                # this week, from Monday
]


@pytest.mark.parametrize("text, policy, start, end", CANTONESE)
def test_cantonese_clock_and_week_words(text, policy, start, end):
    check(text, start, end, policy=policy)


ZONES = [
    ("3pm CEST", "2026-03-10 21:00", "2026-03-10 21:01"),      # 15:00 at UTC+2 = 13:00 UTC
    ("下午4点CET", "2026-03-10 23:00", "2026-03-10 23:01"),     # 16:00 at UTC+1 = 15:00 UTC
    ("11am AEST", "2026-03-10 09:00", "2026-03-10 09:01"),     # 11:00 at UTC+10 = 01:00 UTC
    ("10:30 ACST", "2026-03-10 09:00", "2026-03-10 09:01"),    # UTC+9:30
    ("晚上8点 NZDT", "2026-03-10 15:00", "2026-03-10 15:01"),   # 20:00 at UTC+13 = 07:00 UTC
]


@pytest.mark.parametrize("text, start, end", ZONES)
def test_zone_abbreviations_with_a_clock(text, start, end):
    check(text, start, end, "minute")
