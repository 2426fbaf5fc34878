"""The public functions around resolve(): comparison, slips, coarsening, free text, policy."""

import dataclasses
import datetime as dt
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings, strategies as st

from scorer.temporal import (
    TemporalPolicy, coarsen, default_policy, find_in_text, resolve, slip,
    temporal_equal, time_of_day, to_minutes,
)
from scorer.temporal.numerals import zh_int

SH = ZoneInfo("Asia/Shanghai")
REF = dt.datetime(2026, 3, 10, 9, 30, tzinfo=SH)   # a Tuesday


def iv(text, ref=REF):
    result = resolve(text, ref)
    assert result is not None, text
    return result


def test_equal_forms_of_one_day():
    days = [to_minutes(iv(text)) for text in ("2026-03-17", "下周二", "2026年3月17日", "next Tuesday", "3月17日")]
    assert all(temporal_equal(days[0], other) for other in days)


def test_point_inside_coarser_gold_is_equal_but_not_the_reverse():
    day, moment = to_minutes(iv("2026-03-10")), to_minutes(iv("2026-03-10T15:00"))
    assert temporal_equal(day, moment)
    assert not temporal_equal(moment, day)
    month, day_in_it = to_minutes(iv("2026年3月")), to_minutes(iv("2026-03-10"))
    assert not temporal_equal(month, day_in_it)
    assert not temporal_equal(day, to_minutes(iv("2026-03-11T15:00")))


def test_a_range_of_minutes_is_no_point():
    # only one minute or one hour counts as a point inside a coarser gold: a range is a part of it,
    # or reaches past it
    morning, week = to_minutes(iv("今天上午")), to_minutes(iv("本周"))
    assert temporal_equal(morning, to_minutes(iv("今天10:00")))
    assert temporal_equal(morning, to_minutes(iv("今天10点多")))          # the hour 10:00-11:00
    assert not temporal_equal(morning, to_minutes(iv("今天10:00-12:00")))
    assert not temporal_equal(week, to_minutes(iv("现在到下周")))         # starts inside, ends past it
    assert not temporal_equal(to_minutes(iv("今天")), to_minutes(iv("今晚23:00到明天凌晨1点")))


def test_to_minutes_is_utc_epoch_minutes():
    start, end, granularity = to_minutes(iv("1970-01-01T08:01:00+08:00"))
    assert (start, end, granularity) == (1, 2, 0)


@pytest.mark.parametrize("gold, pred, expected", [
    ("2026-03-10", "2026-03-11", "off_by_one_day"),
    ("下周二", "2026-03-10", "off_by_one_week"),
    ("2026-03-10", "2025-03-10", "off_by_one_year"),
    ("2026-03-10", "2026-03-13", "wrong_weekday"),
    ("2026年3月", "2026-03-10", "whole_vs_part"),
    ("2026-03-10T15:00:00+08:00", "2026-03-10T15:00:00Z", "timezone_shift"),
    ("3月5日至8日", "2026-03-05至2026-03-09", "inclusive_exclusive_end"),
    ("2026-03-10", "2026-07-22", None),
    ("2026-03-10", "2026-03-10T08:00", None),
])
def test_slip(gold, pred, expected):
    assert slip(iv(gold), iv(pred)) == expected


def test_wrong_weekday_needs_the_same_week():
    assert slip(iv("2026-03-10"), iv("2026-03-19")) is None  # another week, not one week off


def test_coarsen_truncates_to_the_day_and_keeps_coarser_values():
    day = coarsen(iv("明天下午三点"), "day")
    assert (day.start, day.end, day.granularity) == (
        dt.datetime(2026, 3, 11, tzinfo=SH), dt.datetime(2026, 3, 12, tzinfo=SH), "day")
    assert coarsen(iv("下个月"), "day") == iv("下个月")
    two_days = coarsen(iv("明天晚上十点到后天凌晨两点"), "day") if resolve("明天晚上十点到后天凌晨两点", REF) else None
    assert two_days is not None and (two_days.end - two_days.start).days == 2
    week = coarsen(iv("2026-03-12"), "week")
    assert week.start == dt.datetime(2026, 3, 9, tzinfo=SH) and week.granularity == "week"
    quarter = coarsen(iv("2026-11-30"), "quarter")
    assert (quarter.start.month, quarter.end.year, quarter.end.month) == (10, 2027, 1)
    with pytest.raises(ValueError):
        coarsen(iv("明天"), "part_of_day")


def test_time_of_day_moves_onto_the_reference_day():
    moved = time_of_day(iv("2025-01-01T15:30:00+08:00"), REF)
    assert moved.start == dt.datetime(2026, 3, 10, 15, 30, tzinfo=SH)
    assert moved.end - moved.start == dt.timedelta(minutes=1)


@pytest.mark.parametrize("text, start", [
    ("明天北京的天气", dt.datetime(2026, 3, 11)),
    ("帮我订下周二上午十点的会议室", dt.datetime(2026, 3, 17, 10)),
    ("查一下3月5日至8日的航班", dt.datetime(2026, 3, 5)),
    ("国庆节去哪玩", dt.datetime(2026, 10, 1)),
    ("what is the weather tomorrow in Beijing", dt.datetime(2026, 3, 11)),
    ("明天天气怎么样", dt.datetime(2026, 3, 11)),
])
def test_find_in_text(text, start):
    found = find_in_text(text, REF)
    assert found is not None and found.start == start.replace(tzinfo=SH)


@pytest.mark.parametrize("text", ["五一广场怎么走", "三星手机多少钱", "一周年纪念日快乐", "十一路公交", "便宜一点",
                                  "坐三号线", "may I help you", "住七天酒店", "一日游", "二十一点游戏",
                                  "她的前儿媳"])
def test_find_in_text_ignores_lookalikes(text):
    assert find_in_text(text, REF) is None


@pytest.mark.parametrize("text", ["清明上河图在哪个博物馆", "七夕快乐", "祝你中秋快乐", "端午安康", "圣诞快乐呀",
                                  "中秋月饼多少钱一盒", "2026年春节特辑"])
def test_find_in_text_ignores_holiday_lookalikes(text):
    """A holiday name in a greeting or a title is not a date (rules/temporal/zh.toml after_holiday)."""
    assert find_in_text(text, REF) is None


@pytest.mark.parametrize(("text", "start"), [("七夕那天去哪玩", dt.datetime(2026, 8, 19)),
                                             ("清明节放假吗", dt.datetime(2026, 4, 5)),
                                             ("快乐的圣诞节在12月", dt.datetime(2026, 12, 25))])
def test_find_in_text_keeps_holidays_used_as_dates(text, start):
    found = find_in_text(text, REF)
    assert found is not None and found.start == start.replace(tzinfo=SH)


def test_naive_reference_uses_policy_timezone():
    naive = resolve("明天", dt.datetime(2026, 3, 10, 23, 30))
    assert naive.start == dt.datetime(2026, 3, 11, tzinfo=SH)
    # the row's timezone is the reference's: 20:00 UTC is already the 11th in Shanghai, but not in UTC
    utc = resolve("明天", dt.datetime(2026, 3, 10, 20, 0, tzinfo=dt.timezone.utc))
    assert utc.start == dt.datetime(2026, 3, 11, tzinfo=dt.timezone.utc)


def test_relative_flag():
    assert iv("下周二").relative and iv("3月17日").relative
    assert not iv("2026-03-17").relative and not iv("2026年3月17日").relative


def test_dateparser_is_asked_only_when_the_policy_says_so_and_its_answers_are_guarded():
    on = TemporalPolicy.from_overrides({"dateparser_fallback": True})
    assert resolve("2023年", REF, on).start.year == 2023          # our rule, not dateparser's year 4049
    assert resolve("2026-13-01", REF, on) is None                 # not read as a day-month swap
    assert resolve("2026-13-01T10:00", REF, on) is None           # nor with a time after a `t`
    assert resolve("March the 10th", REF, on).rule == "dateparser"
    assert resolve("March the 10th", REF) is None                 # off by default


def test_policy_defaults_come_from_the_file_and_reject_unknown_values():
    policy = default_policy()
    assert policy.week_start == "monday" and policy.recent_includes_today is True
    with pytest.raises(ValueError):
        TemporalPolicy.from_overrides({"week_begins": "sunday"})
    with pytest.raises(ValueError):
        TemporalPolicy.from_overrides({"bare_weekday": "sometime"})
    replaced = dataclasses.replace(policy, weekend_first_day="friday", weekend_length=3)
    weekend = resolve("周末", REF, replaced)
    assert (weekend.start.day, weekend.end.day) == (13, 16)


@pytest.mark.parametrize("text, value", [
    ("十", 10), ("十一", 11), ("二十", 20), ("二十三", 23), ("两", 2), ("一百零五", 105),
    ("二〇二六", 2026), ("二零二五", 2025), ("05", 5), ("十十", None), ("三x", None), ("", None),
])
def test_zh_int(text, value):
    assert zh_int(text) == value


def test_memoized():
    first = resolve("下周五晚上7点半", REF)
    assert resolve("下周五晚上7点半", REF + dt.timedelta(microseconds=20)) is first
    assert resolve("现在", REF + dt.timedelta(seconds=20)).start == REF + dt.timedelta(seconds=20)



@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="明天后昨前下上本这周星期一二三四五六七日天月年号点分半上午下午晚早今去从到至国庆节春 0123456789:-/.的北京nextfridaypmat",
               max_size=24))
def test_the_start_finder_stops_wherever_a_token_matches(text):
    """The free-text search tries only positions holding a character some token can start
    with; it may skip only positions where no token matches at all, or a time inside a text
    would be missed."""
    from scorer.temporal.grammar import start_chars, tokens

    for pos in range(len(text)):
        if any(match and match.end() > pos for match in (token.regex.match(text, pos) for token in tokens())):
            assert text[pos] in start_chars()
