"""Grammar gaps closed in issue 10's second round: seconds right after 点, an offset refined by
what follows 的, digit weekdays, sums of durations, a lone mm:ss, lone 廿/卅 days. Expected values
are worked out by hand from the Chinese rules on the calendar of March 2026 (the reference is
Tuesday 2026-03-10 09:30, as in test_families.py)."""

import datetime as dt

import pytest

from scorer.temporal import find_in_text, mark_in_text, resolve
from scorer.rules import read_toml
from scorer.temporal.policy import TemporalPolicy
from tests.temporal.test_families import REF, check


def check_minute(text, start):
    """`text` reads as the one minute starting at `start`."""
    check(text, start, (dt.datetime.fromisoformat(start) + dt.timedelta(minutes=1)).isoformat(" "), "minute")


def check_day(text, start, policy=None):
    """`text` reads as the one day `start`."""
    check(text, start, (dt.date.fromisoformat(start) + dt.timedelta(days=1)).isoformat(), "day", policy=policy)

GAPS = [
    # seconds right after 点: the minute is 0 (四点五十六秒 = 04:00:56, not 04:05:06)
    ("下午4点56秒", "2026-03-10 16:00:56", "2026-03-10 16:00:57", "second"),
    ("四点五十六秒", "2026-03-10 04:00:56", "2026-03-10 04:00:57", "second"),
    ("下午4点5分6秒", "2026-03-10 16:05:06", "2026-03-10 16:05:07", "second"),
    # N units away, refined after 的: the day N units from today
    ("后三天的下午4点", "2026-03-13 16:00", "2026-03-13 16:01", "minute"),
    ("前两天的晚上", "2026-03-08 18:00", "2026-03-09 00:00", "part_of_day"),
    ("上2个月的前一天", "2026-01-09", "2026-01-10", "day"),          # 01-10, the day before
    ("后三天", "2026-03-11", "2026-03-14", "day"),                   # alone: still the three days
    # weekdays written with a digit
    ("周4", "2026-03-12", "2026-03-13", "day"),
    ("星期4", "2026-03-12", "2026-03-13", "day"),
    ("本周4", "2026-03-12", "2026-03-13", "day"),
    ("下周4", "2026-03-19", "2026-03-20", "day"),
    ("周7", "2026-03-15", "2026-03-16", "day"),
    # a sum of durations: coarser parts move the reference, the finest is the offset's unit
    ("1年2个月前", "2025-01-01", "2025-02-01", "month"),             # 2025-01-10, its month
    ("3天5小时后", "2026-03-13 14:30", "2026-03-13 14:31", "minute"),
    ("两小时三十分钟后", "2026-03-10 12:00", "2026-03-10 12:01", "minute"),
    ("一年零三个月后", "2027-06-01", "2027-07-01", "month"),
    ("1年，1月，1周，1天，1小时，1分钟前", "2025-02-02 08:29", "2025-02-02 08:30", "minute"),
    # half days and weeks: hours on, an instant (两天半 = 60 hours)
    ("两天半后", "2026-03-12 21:30", "2026-03-12 21:31", "minute"),
    ("一天半前", "2026-03-08 21:30", "2026-03-08 21:31", "minute"),
    ("一周半后", "2026-03-20 21:30", "2026-03-20 21:31", "minute"),   # 252 hours
    # a lone mm:ss whose first field is no hour: inside the reference hour
    ("35:37", "2026-03-10 09:35:37", "2026-03-10 09:35:38", "second"),
    ("23:37", "2026-03-10 23:37", "2026-03-10 23:38", "minute"),
    # a lone 廿/卅 day: that day of the reference month
    ("廿一", "2026-03-21", "2026-03-22", "day"),
    ("卅", "2026-03-30", "2026-03-31", "day"),
]


@pytest.mark.parametrize("text, start, end, granularity", GAPS)
def test_gaps(text, start, end, granularity):
    check(text, start, end, granularity)


@pytest.mark.parametrize("text", [
    "2天3月前",     # units out of order: no sum
    "5分3小时后",
    "1年1月前",     # 月 without 个 and without a separator is a month name, not a count
    "35:77",        # no such second
    "35:37:12",     # three fields: an hour 35 does not exist
    "初三",          # a lone 初X day stays unread: as likely a school year
    "99999999999小时后",      # past the calendar: not temporal, and no OverflowError
    "1年99999999999秒前",
])
def test_not_read(text):
    assert resolve(text, REF) is None


def test_minute_second_only_alone():
    """A score inside a sentence is not a time: only a value that is nothing but mm:ss is read."""
    assert find_in_text("比分35:37", REF) is None
    assert resolve("明天35:37", REF) is None


def test_lone_day_word_needs_the_day_in_the_month():
    assert resolve("卅", dt.datetime(2026, 2, 10, 9, 30, tzinfo=REF.tzinfo)) is None   # no 30 February


SMALL_HOURS = dt.datetime(2026, 3, 11, 1, 30, tzinfo=REF.tzinfo)   # Wednesday, half past one at night


@pytest.mark.parametrize("text, policy, start, end", [
    ("明天", [], "2026-03-12", "2026-03-13"),                                  # calendar: the next date
    ("明天", ["small_hours=same_day"], "2026-03-11", "2026-03-12"),            # the day not yet slept through
    ("明早", ["small_hours=same_day"], "2026-03-11 06:00", "2026-03-11 09:00"),
    ("明天下午3点", ["small_hours=same_day"], "2026-03-11 15:00", "2026-03-11 15:01"),
    ("今天", ["small_hours=same_day"], "2026-03-11", "2026-03-12"),            # only the speaker's tomorrow moves
    ("后天", ["small_hours=same_day"], "2026-03-13", "2026-03-14"),
    ("明天", ["small_hours=same_day", "small_hours_end=1"], "2026-03-12", "2026-03-13"),   # 01:30 is past the cutoff
])
def test_small_hours(text, policy, start, end):
    check(text, start, end, policy=policy, ref=SMALL_HOURS)


def test_small_hours_do_not_include_midnight_itself():
    check("明天", "2026-03-11", "2026-03-12", policy=["small_hours=same_day"],
          ref=dt.datetime(2026, 3, 10, 0, 0, tzinfo=REF.tzinfo))


@pytest.mark.parametrize("text, policy, start, end", [
    ("第三天", [], "2026-03-03", "2026-03-04"),                                 # the 3rd of this month
    ("第三天", ["ordinal_origin=reference"], "2026-03-12", "2026-03-13"),       # today is day 1
    ("第三天上午", ["ordinal_origin=reference"], "2026-03-12 06:00", "2026-03-12 12:00"),
    ("第七年", ["ordinal_origin=reference"], "2032-01-01", "2033-01-01"),
    ("第2个月", ["ordinal_origin=reference"], "2026-04-01", "2026-05-01"),
    ("上世纪八十年代第三年", [], "1982-01-01", "1983-01-01"),                    # a year inside a decade
    ("最后一天", ["ordinal_origin=reference"], "2026-03-31", "2026-04-01"),     # 最后 stays inside the month
])
def test_relative_ordinals(text, policy, start, end):
    check(text, start, end, policy=policy)


def test_a_year_ordinal_has_no_container_by_default():
    assert resolve("第七年", REF) is None


@pytest.mark.parametrize("text, ref, start, end", [
    ("下午三点", "2026-03-10 15:15", "2026-03-11 15:00", "2026-03-11 15:01"),   # already past: tomorrow
    ("下午三点", "2026-03-10 14:00", "2026-03-10 15:00", "2026-03-10 15:01"),
    ("明天下午三点", "2026-03-10 16:00", "2026-03-11 15:00", "2026-03-11 15:01"),  # a day written stays
])
def test_upcoming_clock_with_a_part_of_day(text, ref, start, end):
    reference = dt.datetime.fromisoformat(ref).replace(tzinfo=REF.tzinfo)
    check(text, start, end, policy=["bare_clock=upcoming"], ref=reference)


@pytest.mark.parametrize("text, start, end", [
    ("年中", "2026-06-01", "2026-08-01"),               # June and July
    ("2025年年中", "2025-06-01", "2025-08-01"),
    ("2025H1", "2025-01-01", "2025-07-01"),
    ("2025年H2", "2025-07-01", "2026-01-01"),
    ("H1", "2026-01-01", "2026-07-01"),
    ("3月中", "2026-03-11", "2026-03-21"),               # 中 after a month: the 11th to the 20th, as 中旬
    ("2025年中", "2025-06-01", "2025-08-01"),
    ("一季度中", "2026-02-01", "2026-03-01"),            # the quarter's middle month
    # more vocabulary: the following month, Cantonese 今个 (this), 上/下半个月
    ("次月", "2026-04-01", "2026-05-01"),
    ("次月5号", "2026-04-05", "2026-04-06"),
    ("今個星期六", "2026-03-14", "2026-03-15"),
    ("今个月", "2026-03-01", "2026-04-01"),
    ("下半个月", "2026-03-16", "2026-04-01"),
    # before a part of day: before it begins (noon is 12:00)
    ("中午前", "2026-03-10 09:30", "2026-03-10 12:00"),
    ("下午之前", "2026-03-10 09:30", "2026-03-10 12:00"),
    ("晚上前", "2026-03-10 09:30", "2026-03-10 18:00"),
    # 截至X: by X, as X以前
    ("截至3月15日", "2026-03-10 09:30", "2026-03-16"),
    ("截止到明天中午", "2026-03-10 09:30", "2026-03-11 12:00"),
])
def test_year_halves_before_noon_and_by(text, start, end):
    check(text, start, end)


@pytest.mark.parametrize("text", ["截至昨天", "截至明天到后天", "2025h3"])
def test_by_and_halves_not_read(text):
    assert resolve(text, REF) is None


def test_by_follows_the_open_range_policy():
    from scorer.temporal import TemporalPolicy
    assert resolve("截至3月15日", REF, TemporalPolicy.from_strings(["open_range=none"])) is None


@pytest.mark.parametrize("text, expected", [
    ("一年中最热的时候", None),      # 年中 inside a sentence needs a year before it
    ("H1N1流感", None),
    ("今年中国经济", ("2026-01-01", "2027-01-01")),
    ("2025H1营收", ("2025-01-01", "2025-07-01")),
    ("3月中国出口", ("2026-03-01", "2026-04-01")),     # March, then 中国
])
def test_year_parts_in_free_text(text, expected):
    iv = find_in_text(text, REF)
    got = iv and (iv.start.strftime("%Y-%m-%d"), iv.end.strftime("%Y-%m-%d"))
    assert got == expected


# the reference as a whole unit (policy reference_unit): "now" is that minute, hour or day, so a
# window counted from now runs through it at its near end and from its far side at the other
SECONDS_IN = dt.datetime(2026, 3, 10, 9, 30, 20, tzinfo=REF.tzinfo)


@pytest.mark.parametrize("text, policy, start, end", [
    ("半小时内", [], "2026-03-10 09:30:20", "2026-03-10 10:00:20"),                     # the instant
    ("半小时内", ["reference_unit=minute"], "2026-03-10 09:30", "2026-03-10 10:01"),     # [09:30, 09:31) + 30 min
    ("过去5分钟", ["reference_unit=minute"], "2026-03-10 09:25", "2026-03-10 09:31"),
    ("过去两小时", ["reference_unit=hour"], "2026-03-10 07:00", "2026-03-10 10:00"),
    ("过去三天", ["recent_window=instant", "reference_unit=day"], "2026-03-07", "2026-03-11"),
    ("近两年", ["recent_window=instant", "reference_unit=month"], "2024-03-01", "2026-04-01"),
    ("未来两天", ["upcoming_window=instant", "reference_unit=day"], "2026-03-10", "2026-03-13"),
    ("过去三天", ["reference_unit=day"], "2026-03-08", "2026-03-11"),  # calendar windows are whole days already
])
def test_reference_unit(text, policy, start, end):
    check(text, start, end, policy=policy, ref=SECONDS_IN)


@pytest.mark.parametrize("text, policy, start, end", [
    ("近三个月", ["recent_window=instant"], "2025-12-10 09:30", "2026-03-10 09:30"),
    ("近三个月", ["recent_window=instant", "window_far_edge=midnight"], "2025-12-10", "2026-03-10 09:30"),
    ("过去一年", ["recent_window=instant", "window_far_edge=midnight"], "2025-03-10", "2026-03-10 09:30"),
    ("未来两个月", ["upcoming_window=instant", "window_far_edge=midnight"], "2026-03-10 09:30", "2026-05-10"),
    ("近两周", ["recent_window=instant", "window_far_edge=midnight"], "2026-02-24 09:30", "2026-03-10 09:30"),
    ("近三个月", ["window_far_edge=midnight"], "2025-12-11", "2026-03-11"),    # calendar windows: no change
])
def test_window_far_edge(text, policy, start, end):
    check(text, start, end, policy=policy)


@pytest.mark.parametrize("text, policy, start, end", [
    ("三个多月以来", [], "2025-12-11", "2026-03-11"),                            # count: as 三个月以来
    ("三个多月以来", ["approximate_window=unit_start"], "2025-12-01", "2026-03-11"),
    ("三个多月以来", ["approximate_window=unit_start", "recent_window=instant"], "2025-12-01", "2026-03-10 09:30"),
    ("近3年多", ["approximate_window=unit_start"], "2023-01-01", "2026-03-11"),
    ("两个多月内", ["approximate_window=unit_start"], "2026-03-10", "2026-06-01"),   # forward: to the end of May
    ("三个月以来", ["approximate_window=unit_start"], "2025-12-11", "2026-03-11"),   # an exact count is kept
])
def test_approximate_window(text, policy, start, end):
    check(text, start, end, policy=policy)


@pytest.mark.parametrize("text, start", [
    ("十点过五分", "2026-03-10 10:05"),        # 过: minutes past the hour
    ("八点过一刻", "2026-03-10 08:15"),
    ("下午三点过半", "2026-03-10 15:30"),
    ("差一刻八点", "2026-03-10 07:45"),        # a quarter to eight
    ("八点差一刻", "2026-03-10 07:45"),
    ("差三刻九点", "2026-03-10 08:15"),
])
def test_clock_past_and_quarters_to(text, start):
    check_minute(text, start)


@pytest.mark.parametrize("text", ["十点过", "三点过后"])
def test_past_needs_minutes(text):
    assert resolve(text, REF) is None


@pytest.mark.parametrize("text, start, end", [
    ("2026年3月10日(周二)", "2026-03-10", "2026-03-11"),     # a weekday in brackets names the same day
    ("3月10日（星期二）", "2026-03-10", "2026-03-11"),        # full-width brackets
    ("2026-03-10(周二)", "2026-03-10", "2026-03-11"),
    ("周四(3月12日)", "2026-03-12", "2026-03-13"),
    ("3月12日(周四)下午3点", "2026-03-12 15:00", "2026-03-12 15:01"),
    ("2026-03-12 周四", "2026-03-12", "2026-03-13"),         # a space, where " 周" also starts a (failed) offset
    ("2026/3/12 星期四", "2026-03-12", "2026-03-13"),
])
def test_weekday_after_a_date(text, start, end):
    check(text, start, end)


@pytest.mark.parametrize("text, start", [
    ("晚上十二点半", "2026-03-11 00:30"),      # twelve at night is midnight, so half past is in the next day
    ("今晚12点半", "2026-03-11 00:30"),
    ("深夜十二点十五分", "2026-03-11 00:15"),
    ("中午十二点半", "2026-03-10 12:30"),
])
def test_minutes_after_midnight_twelve(text, start):
    check_minute(text, start)


@pytest.mark.parametrize("text", ["24点30分", "下午24点30分"])
def test_hour_24_takes_no_minutes(text):
    assert resolve(text, REF) is None


@pytest.mark.parametrize("text, start, end", [
    ("上晝", "2026-03-10 06:00", "2026-03-10 12:00"),     # Cantonese 上昼: the morning, as 上午
    ("出年", "2027-01-01", "2028-01-01"),                 # next year
    ("舊年", "2025-01-01", "2026-01-01"),                 # last year
    ("呢個禮拜", "2026-03-09", "2026-03-16"),             # 呢个 = 这个
    ("呢個月", "2026-03-01", "2026-04-01"),
    ("出年三月", "2027-03-01", "2027-04-01"),
])
def test_more_cantonese(text, start, end):
    check(text, start, end)


@pytest.mark.parametrize("text", ["公司推出年度报告", "支出年报", "旧年代的歌"])
def test_cantonese_years_are_not_found_inside_words(text):
    # 出年 / 旧年 alone are read only as a whole value: in a sentence they sit inside 推出年度, 旧年代
    assert find_in_text(text, REF) is None


@pytest.mark.parametrize("text", ["依家", "宜家", "眼下", "当下", "此时此刻"])
def test_more_words_for_now(text):
    # Cantonese 依家 / 宜家 (as 而家) and Mandarin 眼下 / 当下: the moment of the request
    check(text, "2026-03-10 09:30:00", "2026-03-10 09:30:01", "second")


def test_ikea_in_a_sentence_is_not_now():
    # 宜家 is also IKEA's Chinese name: in free text it is read only with more time words after it
    assert find_in_text("北京宜家的营业时间", REF) is None
    assert mark_in_text("我依家喺屋企", REF) is not None


@pytest.mark.parametrize("text, policy, start", [
    ("下个月的第一个工作日", [], "2026-04-01"),     # April 1st 2026 is a Wednesday
    ("本周最后一个工作日", [], "2026-03-13"),       # Friday of the week of Monday 9th
    ("第三个工作日", [], "2026-03-04"),             # March 2026 starts on a Sunday: 2nd, 3rd, 4th
    ("今年最后一个工作日", [], "2026-12-31"),       # a Thursday
    ("本周最后一个工作日", ["workdays=monday,tuesday,wednesday,thursday,friday,saturday"], "2026-03-14"),
    ("第三个工作日", ["ordinal_origin=reference"], "2026-03-04"),  # workdays always count inside a container
])
def test_nth_workday(text, policy, start):
    check_day(text, start, policy)


@pytest.mark.parametrize("text, start, end", [
    ("元旦前一周", "2026-12-25", "2027-01-01"),     # the seven days before 2027-01-01
    ("春节后一周", "2027-02-07", "2027-02-14"),     # 春节 2027 is February 6th; 2026's (February 17th) is past
    ("国庆节后两周", "2026-10-02", "2026-10-16"),
])
def test_weeks_beside_a_day(text, start, end):
    check(text, start, end, "day")


@pytest.mark.parametrize("text, start", [
    ("12-Feb-2021", "2021-02-12"),     # day-month-year with hyphens, as ACEBench's English data writes it
    ("1-jan-2020", "2020-01-01"),
])
def test_english_day_month_year_with_hyphens(text, start):
    check_day(text, start)


def test_english_impossible_day_is_not_a_date():
    assert resolve("31-Feb-2021", REF) is None


@pytest.mark.parametrize("text, start", [
    ("midnight", "2026-03-11 00:00"),           # the midnight that ends the day, as 晚上十二点
    ("tomorrow midnight", "2026-03-12 00:00"),
])
def test_english_midnight(text, start):
    check_minute(text, start)


@pytest.mark.parametrize("text, start, end", [
    ("9点到5点", "2026-03-10 09:00", "2026-03-10 17:00"),      # nine to five: a twelve-hour clock, not 20 hours
    ("11点到1点", "2026-03-10 11:00", "2026-03-10 13:00"),
    ("十二点到两点", "2026-03-10 12:00", "2026-03-10 14:00"),
    ("23点到1点", "2026-03-10 23:00", "2026-03-11 01:00"),     # 13:00 would end before 23:00: the next day
    ("晚上10点到2点", "2026-03-10 22:00", "2026-03-11 02:00"),  # the evening leaves the afternoon out
    ("11:00-1:00", "2026-03-10 11:00", "2026-03-11 01:00"),    # colon times are a 24-hour clock
])
def test_bare_hour_ranges_on_a_twelve_hour_clock(text, start, end):
    check(text, start, end, "minute")


@pytest.mark.parametrize("text, start, end", [
    ("3月5日和3月8日之间", "2026-03-05", "2026-03-09"),
    ("3点和5点之间", "2026-03-10 03:00", "2026-03-10 05:00"),
])
def test_and_makes_a_range_only_with_between(text, start, end):
    check(text, start, end)


@pytest.mark.parametrize("text", ["3月5日和3月8日", "周一和周三", "3点与5点"])
def test_and_without_between_is_two_values(text):
    assert resolve(text, REF) is None


@pytest.mark.parametrize("text", ["末一6天", "半工作日以内", "1.5个工作日内", "5工作日多前"])
def test_found_by_the_fuzzer_not_read_and_no_crash(text):
    # 末 before a numeral that is no count raised TypeError; part of a workday, or a workday
    # count with 多, raised KeyError (the free-text search may still find 工作日 alone in them)
    assert resolve(text, REF) is None
    find_in_text(text, REF)


@pytest.mark.parametrize("text, start", [
    ("1.5小时后", "2026-03-10 11:00"),        # as 一个半小时后
    ("0.5小时前", "2026-03-10 09:00"),
    ("1.25小时后", "2026-03-10 10:45"),
    ("2.5天后", "2026-03-12 21:30"),          # 60 hours on, as 两天半后
])
def test_decimal_counts(text, start):
    check_minute(text, start)


@pytest.mark.parametrize("text", ["1.5多小时后", "1.5个半小时后"])
def test_a_decimal_count_takes_no_more_or_half(text):
    assert resolve(text, REF) is None


def test_the_digits_after_a_decimal_point_start_no_reading():
    # in 大约1.5多小时后 the 5 belongs to 1.5: it is not 5多小时后 (5 to 6 hours on)
    assert find_in_text("大约1.5多小时后", REF) is None


@pytest.mark.parametrize("year", [1, 9999])
def test_nothing_is_read_against_a_reference_at_the_calendars_end(year):
    # the fuzzer found 上星期, 本季度, midnight ... overflowing Python's dates against such references
    ref = dt.datetime(year, 6, 1, 12, 0, tzinfo=REF.tzinfo)
    for text in ("上星期", "本季度六至", "midnight", "明天", "2026-03-10"):
        assert resolve(text, ref) is None and find_in_text(text, ref) is None


def test_a_year_of_room_is_enough():
    check("明天", "0002-06-02", "0002-06-03", ref=dt.datetime(2, 6, 1, 12, 0, tzinfo=REF.tzinfo))


@pytest.mark.parametrize("text, start, end", [
    # two neighbouring digits are "two or three", never a number read digit by digit (23)
    ("两三天后", "2026-03-12", "2026-03-13"),              # between 2 and 3 days on (days between the targets)
    ("两三个月前", "2025-12-01", "2026-02-01"),            # months holding the targets 12-10 and 01-10
    ("两三年前", "2023-01-01", "2025-01-01"),
    ("三五天后", "2026-03-13", "2026-03-15"),              # the idiom 三五: three to five
    ("一两个月后", "2026-04-01", "2026-06-01"),
    ("两三点", "2026-03-10 02:00", "2026-03-10 04:00"),    # two or three o'clock, as 七八点
    ("下午两三点", "2026-03-10 14:00", "2026-03-10 16:00"),
    ("一两点", "2026-03-10 01:00", "2026-03-10 03:00"),
])
def test_two_neighbouring_digits_are_an_approximate_count(text, start, end):
    check(text, start, end)


@pytest.mark.parametrize("text, start", [("二三年", "2023-01-01"), ("九八年", "1998-01-01")])
def test_digit_by_digit_years_stay_years(text, start):
    check(text, start, f"{int(start[:4]) + 1}-01-01", "year")


@pytest.mark.parametrize("text", ["两三个半小时后", "两三个多月前", "二四点"])
def test_a_pair_takes_no_half_or_more_and_is_no_hour(text):
    assert resolve(text, REF) is None


@pytest.mark.parametrize("text, start, end", [
    ("周六周日", "2026-03-14", "2026-03-16"),          # listed weekdays that follow each other: their span
    ("周六、周日", "2026-03-14", "2026-03-16"),
    ("周一、周二、周三", "2026-03-16", "2026-03-19"),  # the upcoming Monday (today is Tuesday) and the two after it
    ("下周六周日", "2026-03-21", "2026-03-23"),
    ("周日周一", "2026-03-15", "2026-03-17"),          # across the week's end
])
def test_listed_weekdays_in_a_row(text, start, end):
    check(text, start, end, "day")


@pytest.mark.parametrize("text", ["周一周三", "周五、周日"])
def test_listed_weekdays_with_a_gap_are_no_interval(text):
    assert resolve(text, REF) is None


@pytest.mark.parametrize("text, start", [("三点半钟", "2026-03-10 03:30"), ("下午三点半钟", "2026-03-10 15:30")])
def test_half_past_with_zhong(text, start):
    check_minute(text, start)


@pytest.mark.parametrize("text", ["三点水", "五点钟方向", "八点档"])
def test_clock_lookalikes_in_free_text(text):
    # a radical (三点水), a direction (五点钟方向), a television slot (八点档): no time is meant
    assert find_in_text(text, REF) is None


@pytest.mark.parametrize("text, start, end", [
    ("2026-03-10/2026-03-12", "2026-03-10", "2026-03-13"),                     # ISO 8601 interval, end day included
    ("2026-03-10T09:00/2026-03-10T11:30", "2026-03-10 09:00", "2026-03-10 11:30"),
    ("2026-W11", "2026-03-09", "2026-03-16"),                                  # ISO week 11: Monday 9th to Sunday 15th
    ("2026-W01", "2025-12-29", "2026-01-05"),                                  # the week holding the year's first Thursday
])
def test_iso_intervals_and_weeks(text, start, end):
    check(text, start, end)


def test_iso_week_ignores_week_start():
    check("2026-W11", "2026-03-09", "2026-03-16", policy=["week_start=sunday"])


@pytest.mark.parametrize("text", ["2026-W54", "2026/03/10/2026/03/12"])
def test_no_such_iso_week_or_interval(text):
    assert resolve(text, REF) is None


@pytest.mark.parametrize("text, start, end", [
    ("倒数第三天", "2026-03-29", "2026-03-30"),            # March 31, 30, 29
    ("倒数第二个工作日", "2026-03-30", "2026-03-31"),      # workdays end Monday 30th, Tuesday 31st
    ("本月倒数第二个周五", "2026-03-20", "2026-03-21"),    # Fridays 6, 13, 20, 27
    ("今年倒数第二个月", "2026-11-01", "2026-12-01"),
])
def test_counted_from_the_end(text, start, end):
    check(text, start, end)


def test_mo_with_a_count_is_the_last_units_and_alone_is_no_time():
    check("末三天", "2026-03-29", "2026-04-01", "day")          # as 最后三天: the last three days
    assert find_in_text("世界末日", REF) is None                # doomsday, not the month's last day


@pytest.mark.parametrize("text, start, end", [
    ("第11周", "2026-03-16", "2026-03-23"),   # no month holds 11 weeks: the 11th week beginning in 2026 (as 今年第11周)
    ("第40天", "2026-02-09", "2026-02-10"),   # the 40th day of the year
    ("第3周", "2026-03-16", "2026-03-23"),    # a month holds a 3rd week: this month's, as before
])
def test_an_ordinal_past_the_month_counts_in_the_year(text, start, end):
    check(text, start, end)


@pytest.mark.parametrize("text, start", [
    ("美东时间下午3点", "2026-03-11 03:00"),    # 15:00 in New York (EDT since March 8th, UTC-4) is 03:00 in Shanghai
    ("太平洋时间9点", "2026-03-11 00:00"),      # 09:00 PDT (UTC-7)
    ("东八区时间10点", "2026-03-10 10:00"),
    ("悉尼时间上午9点", "2026-03-10 06:00"),    # 09:00 AEDT (UTC+11)
])
def test_more_zone_words(text, start):
    check_minute(text, start)


@pytest.mark.parametrize("text, start, end", [
    ("3/10-3/12", "2026-03-10", "2026-03-13"),     # month/day to month/day, the end day included
    ("3.10-3.12", "2026-03-10", "2026-03-13"),     # as notices write it
    ("3.5-3.8", "2026-03-05", "2026-03-09"),
    ("12/30-1/2", "2026-12-30", "2027-01-03"),     # the right side rolls into the next year
])
def test_month_day_ranges(text, start, end):
    check(text, start, end, "day")


@pytest.mark.parametrize("text", ["1.5-2.5", "12.30-1.2", "3/10-3.12", "13.1-13.5"])
def test_month_day_ranges_not_read(text):
    # dots across months with a one-digit day are as likely decimals; the two sides must match
    assert resolve(text, REF) is None


@pytest.mark.parametrize("text, start, end", [
    ("到月底", "2026-03-10 09:30", "2026-04-01"),          # 到 X with nothing before it: by X, as 截至X
    ("到年底为止", "2026-03-10 09:30", "2027-01-01"),
    ("下周五截止", "2026-03-20", "2026-03-21"),            # X截止: the deadline day itself
    ("此后三天", "2026-03-10", "2026-03-13"),              # as 今后三天
])
def test_by_words_before_and_after(text, start, end):
    check(text, start, end)


def test_a_dangling_connector_is_still_no_reading():
    assert resolve("明天到", REF) is None


@pytest.mark.parametrize("text, start, end", [
    ("民国38年", "1949-01-01", "1950-01-01"),            # the Republic's year 1 is 1912
    ("民國一百一十五年", "2026-01-01", "2027-01-01"),     # Taiwan's calendar, traditional script
    ("民国115年3月", "2026-03-01", "2026-04-01"),
    ("公元1949年10月1日", "1949-10-01", "1949-10-02"),   # the common era written out
])
def test_era_years(text, start, end):
    check(text, start, end)


@pytest.mark.parametrize("text", ["公元前221年", "民国0年"])
def test_era_years_outside_the_calendar(text):
    assert resolve(text, REF) is None


@pytest.mark.parametrize("text, start, end", [
    ("双休日", "2026-03-14", "2026-03-16"),            # the two days off: the weekend of the reference's week
    ("周六日", "2026-03-14", "2026-03-16"),            # Saturday and Sunday said in one word
    ("星期六日", "2026-03-14", "2026-03-16"),
])
def test_more_words_for_the_weekend(text, start, end):
    check(text, start, end, "day")


@pytest.mark.parametrize("text, policy, start, end", [
    ("月头", [], "2026-03-01", "2026-03-11"),           # spoken 月初: the first ten days
    ("月尾", [], "2026-03-31", "2026-04-01"),           # spoken 月底: the last day under month_end=last_day
    ("下个月月尾", [], "2026-04-30", "2026-05-01"),
    ("明年年头", [], "2027-01-01", "2027-02-01"),       # spoken 年初: January
    ("年尾", [], "2026-12-01", "2027-01-01"),
    ("年尾", ["year_edge=two_months"], "2026-11-01", "2027-01-01"),
])
def test_spoken_edges_of_months_and_years(text, policy, start, end):
    check(text, start, end, policy=policy)


@pytest.mark.parametrize("text", ["这年头谁还用现金", "三个年头过去了"])
def test_nian_tou_in_a_sentence_needs_a_year(text):
    assert find_in_text(text, REF) is None


@pytest.mark.parametrize("text, policy, start, end", [
    # X以后 / X之后 with nothing after it: from when X ends (a day or coarser) to now, as X之后Y之前 reads X
    ("3月1日以后", [], "2026-03-02", "2026-03-10 09:30"),
    ("2025年之后", [], "2026-01-01", "2026-03-10 09:30"),
    ("七点以后", [], "2026-03-10 07:00", "2026-03-10 09:30"),   # a clock time: from itself
    ("3月1日起", [], "2026-03-01", "2026-03-10 09:30"),         # 起 counts X itself
])
def test_open_range_after_a_past_time(text, policy, start, end):
    check(text, start, end, "second", policy=policy)


@pytest.mark.parametrize("text, policy", [
    ("明天以后", []),                         # still ahead: an interval cannot hold the open end
    ("3月1日以后", ["open_range=none"]),
])
def test_open_range_after_is_not_read(text, policy):
    assert resolve(text, REF, TemporalPolicy.from_strings(policy) if policy else None) is None


def test_open_range_after_in_a_sentence():
    assert find_in_text("查询2025年以后的订单", REF).start.date() == dt.date(2026, 1, 1)
    # an offset keeps its reading: 三天之后 is the day three days on, not an open range
    assert find_in_text("三天之后再说", REF).start.date() == dt.date(2026, 3, 13)


@pytest.mark.parametrize("text, start, end", [
    ("从明天开始到后天", "2026-03-11", "2026-03-13"),   # X still ahead: 开始 marks the left side only
    ("明天起至后天", "2026-03-11", "2026-03-13"),
    ("从今天开始到月底", "2026-03-10", "2026-04-01"),
])
def test_start_word_before_a_range_connector(text, start, end):
    check(text, start, end, "day")


@pytest.mark.parametrize("text, start", [
    ("早上六点起床", "2026-03-10 06:00"),      # 起床 = get up: the clock time, not "since six"
    ("八点起飞", "2026-03-10 08:00"),          # 起飞 = take off
    ("九点起来", "2026-03-10 09:00"),
    ("八点前往机场", "2026-03-10 08:00"),      # 前往 = leave for: not "by eight"
])
def test_open_range_words_that_begin_a_longer_word(text, start):
    found = find_in_text(text, REF)
    assert found.start == dt.datetime.fromisoformat(start).replace(tzinfo=REF.tzinfo)
    assert found.end - found.start == dt.timedelta(minutes=1)


@pytest.mark.parametrize("text, end", [
    ("3月1日起实施", "2026-03-10 09:30"),      # 起 before a verb that is no compound with it: since March 1
    ("十点前到达", "2026-03-10 10:00"),        # by ten
])
def test_open_range_words_still_read(text, end):
    assert find_in_text(text, REF).end == dt.datetime.fromisoformat(end).replace(tzinfo=REF.tzinfo)


@pytest.mark.parametrize("text", [
    "第一时间通知我", "一时间不知道说什么", "第三点建议",   # an ordinal or 时间, not one o'clock or three
    "一天到晚都在忙",                                      # all day long, not "by this evening"
    "白天鹅宾馆", "今日头条的新闻", "明日之星",             # names
    "第十一届运动会",                                      # an ordinal, not 十一 (国庆)
    "1号航站楼", "3号窗口办理",                            # places numbered like days
])
def test_more_lookalikes_in_free_text(text):
    assert find_in_text(text, REF) is None


def test_shi_as_the_hour_is_still_read():
    check_minute("三时一刻", "2026-03-10 03:15")
    check_minute("下午三时", "2026-03-10 15:00")


@pytest.mark.parametrize("text, start", [
    ("七一", "2026-07-01"),            # 建党节
    ("八一", "2026-08-01"),            # 建军节
    ("315", "2026-03-15"),             # 消费者权益日, as 520 and 618 are days of their own
    ("圣诞夜", "2026-12-24"),          # 平安夜
    ("跨年夜", "2026-12-31"),
    ("中国人民解放军建军节", "2026-08-01"),   # official names
    ("中国共产党成立纪念日", "2026-07-01"),
    ("中国青年节", "2026-05-04"),
    ("中华人民共和国国庆节", "2026-10-01"),
])
def test_more_holiday_names(text, start):
    check_day(text, start)


@pytest.mark.parametrize("text", ["房间520", "我住618", "打315投诉", "八一中学"])
def test_numbers_named_like_days_are_no_days_in_a_sentence(text):
    assert find_in_text(text, REF) is None


def test_a_numbered_day_with_more_is_found():
    assert find_in_text("520情人节送什么", REF).start.date() == dt.date(2026, 5, 20)


@pytest.mark.parametrize("text, policy, start", [
    ("06/01/2023", [], "2023-06-01"),                             # month first, as English writes it
    ("06/01/2023", ["slash_date_order=day_first"], "2023-01-06"),
    ("25/12/2025", [], "2025-12-25"),                             # 25 can only be the day
    ("12/25/2025", ["slash_date_order=day_first"], "2025-12-25"),
])
def test_dates_with_the_year_last(text, policy, start):
    check_day(text, start, policy)


@pytest.mark.parametrize("text, policy, start", [
    # the reference (2026-03-10) is in 正月 of lunar 2026, which began on 2026-02-17 (春节)
    ("农历十五", [], "2026-03-03"),                                  # 正月十五, 元宵
    ("阴历廿三", [], "2026-03-11"),
    ("农历初一", [], "2026-02-17"),
    ("农历十五", ["bare_day_of_month=upcoming"], "2026-04-02"),     # 二月十五: 二月 begins 2026-03-19
])
def test_lunar_day_without_a_month(text, policy, start):
    check_day(text, start, policy)


def test_the_last_month_of_a_year_as_mo_yue():
    check("2006年末月", "2006-12-01", "2007-01-01", "month")    # 末月 = the last month, as 首月 is the first


@pytest.mark.parametrize("text, start", [
    ("去年同一天", "2025-03-10"),        # as 去年的今天
    ("明年的这一天", "2027-03-10"),
    ("上个月的这一天", "2026-02-10"),
    ("下周的这天", "2026-03-17"),        # the reference's weekday (Tuesday) in that week
])
def test_the_same_day_in_another_unit(text, start):
    check_day(text, start)


@pytest.mark.parametrize("text", ["这一天", "同一天"])
def test_the_same_day_alone_names_a_day_said_elsewhere(text):
    assert resolve(text, REF) is None


@pytest.mark.parametrize("text, policy, start, end", [
    # the weekend whose Saturday is the month's n-th: March 2026's Saturdays are the 7th .. 28th
    ("第一个周末", [], "2026-03-07", "2026-03-09"),
    ("本月最后一个周末", [], "2026-03-28", "2026-03-30"),
    ("下个月第一个周末", [], "2026-04-04", "2026-04-06"),       # April 4th 2026 is a Saturday
    ("第一个周末", ["weekend_start=friday_evening"], "2026-03-06 18:00", "2026-03-09"),
])
def test_nth_weekend_of_a_month(text, policy, start, end):
    check(text, start, end, "day", policy=policy)


@pytest.mark.parametrize("text, start, end", [
    # a time range after a date: not 10:00 at UTC-12 (an offset with a minus needs seconds before it)
    ("2026-03-10 10:00-12:00", "2026-03-10 10:00", "2026-03-10 12:00"),
    ("2026-03-10T10:00-11:30", "2026-03-10 10:00", "2026-03-10 11:30"),
])
def test_a_clock_range_after_a_date_is_no_offset(text, start, end):
    check(text, start, end, "minute")


@pytest.mark.parametrize("text, start", [
    # offsets moved into the row's zone (UTC+8): with a space before them, and Postgres's hours only
    ("2026-03-10 10:00:00 +08:00", "2026-03-10 10:00"),
    ("2026-03-10 10:00:00 -05:00", "2026-03-10 23:00"),          # 15:00 UTC
    ("2026-03-10 10:00:00+08", "2026-03-10 10:00"),
    ("2026-03-10T10:00:00.123+05:30", "2026-03-10 12:30"),        # 04:30 UTC
])
def test_utc_offsets_as_software_writes_them(text, start):
    check_minute(text, start)


def test_a_clock_time_with_fractions_of_a_second():
    check("10:00:05.250", "2026-03-10 10:00:05", "2026-03-10 10:00:06", "second")   # the second it falls in


@pytest.mark.parametrize("word, follower", [(word, follower) for word, followers in
                                            read_toml("temporal/zh.toml")["words"]["open_word_compounds"].items()
                                            for follower in followers])
def test_every_listed_compound_keeps_the_clock_time(word, follower):
    # 八点起飞, 八点前往 ...: each listed word after 起 / 前 makes a compound, so the reading stays 08:00
    found = find_in_text(f"八点{word}{follower}", REF)
    assert (found.start.hour, found.start.minute, found.end - found.start) == (8, 0, dt.timedelta(minutes=1))


@pytest.mark.parametrize("follower", read_toml("temporal/zh.toml")["words"]["shi_compounds"])
def test_every_listed_shi_compound_is_no_hour(follower):
    assert find_in_text(f"第三时{follower}", REF) is None and find_in_text(f"三时{follower}", REF) is None


@pytest.mark.parametrize("place", ["航站楼", "站台", "窗口", "柜台", "座"])
def test_a_numbered_place_is_no_day(place):
    assert find_in_text(f"去5号{place}", REF) is None
