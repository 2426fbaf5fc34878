"""Every family of the grammar, table-driven. Expected intervals are worked out by hand from the
Chinese rules (and the calendar of March 2026: the 1st is a Sunday, the reference Tuesday the
10th at 09:30), never taken from the resolver or from the public dev cases."""

import datetime as dt
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings, strategies as st

from scorer.temporal import Interval, TemporalPolicy, find_in_text, resolve

SH = ZoneInfo("Asia/Shanghai")
REF = dt.datetime(2026, 3, 10, 9, 30, tzinfo=SH)


def _at(text: str) -> dt.datetime:
    """'2026-03-10', '2026-03-10 09:30' or '2026-03-10 09:30:05' in Shanghai time."""
    return dt.datetime.fromisoformat(text).replace(tzinfo=SH)


def check(text, start, end, granularity=None, policy=None, ref=REF):
    iv = resolve(text, ref, TemporalPolicy.from_strings(policy) if policy else None)
    assert iv is not None, f"{text!r} did not resolve"
    assert (iv.start, iv.end) == (_at(start), _at(end)), (text, iv)
    if granularity:
        assert iv.granularity == granularity, (text, iv.granularity)


TRADITIONAL_AND_CANTONESE = [
    ("後年", "2028-01-01", "2029-01-01", "year"),
    ("這個星期五", "2026-03-13", "2026-03-14", "day"),
    ("上個月底", "2026-02-28", "2026-03-01", "day"),
    ("兩點鐘", "2026-03-10 02:00", "2026-03-10 02:01", "minute"),
    ("下個禮拜三", "2026-03-18", "2026-03-19", "day"),
    ("五分鐘後", "2026-03-10 09:35", "2026-03-10 09:36", "minute"),
    ("聽日", "2026-03-11", "2026-03-12", "day"),
    ("琴日", "2026-03-09", "2026-03-10", "day"),
    ("今朝", "2026-03-10 06:00", "2026-03-10 09:00", "part_of_day"),
    ("聽晚", "2026-03-11 18:00", "2026-03-12 00:00", "part_of_day"),
    ("而家", "2026-03-10 09:30:00", "2026-03-10 09:30:01", "second"),
    ("大後日下晝5點", "2026-03-13 17:00", "2026-03-13 17:01", "minute"),
    ("三點兩個字", "2026-03-10 03:10", "2026-03-10 03:11", "minute"),      # minutes counted in fives
    ("下個拜五", "2026-03-20", "2026-03-21", "day"),
    ("今晚黑八點", "2026-03-10 20:00", "2026-03-10 20:01", "minute"),
    ("聽日朝早", "2026-03-11 06:00", "2026-03-11 09:00", "part_of_day"),
]


# northern colloquial day words (儿化)
COLLOQUIAL_DAYS = [
    ("今儿个", "2026-03-10", "2026-03-11"),
    ("明儿个下午三点", "2026-03-11 15:00", "2026-03-11 15:01"),
    ("后儿", "2026-03-12", "2026-03-13"),
    ("前儿个", "2026-03-08", "2026-03-09"),
]


# reporting years, aliases of parts of day and halves of a year, fillers of approximation
MORE_VOCABULARY = [
    ("本年度", "2026-01-01", "2027-01-01"),
    ("上一年度", "2025-01-01", "2026-01-01"),
    ("2025年全年", "2025-01-01", "2026-01-01"),
    ("黄昏", "2026-03-10 17:00", "2026-03-10 19:00"),         # as 傍晚
    ("傍晚时分", "2026-03-10 17:00", "2026-03-10 19:00"),
    ("正午", "2026-03-10 12:00", "2026-03-10 13:00"),         # as 中午
    ("后半年", "2026-07-01", "2027-01-01"),                   # as 下半年
    ("三点前后", "2026-03-10 03:00", "2026-03-10 03:01"),     # 前后 = around, like 左右
]


@pytest.mark.parametrize("text, start, end", MORE_VOCABULARY)
def test_more_vocabulary(text, start, end):
    check(text, start, end)


@pytest.mark.parametrize("text, start, end", COLLOQUIAL_DAYS)
def test_colloquial_days(text, start, end):
    check(text, start, end)


@pytest.mark.parametrize("text, start, end, granularity", TRADITIONAL_AND_CANTONESE)
def test_traditional_script_and_cantonese(text, start, end, granularity):
    check(text, start, end, granularity)


COMPOSITION = [
    ("前年本月五号", "2024-03-05", "2024-03-06"),
    ("上个月的今天", "2026-02-10", "2026-02-11"),
    ("三周后的周二", "2026-03-31", "2026-04-01"),            # the week of 03-31, its Tuesday
    ("下个月第二个周五下午", "2026-04-10 12:00", "2026-04-10 18:00"),  # Fridays of April: 3, 10
    ("明年国庆节前三天", "2027-09-28", "2027-10-01"),
    ("2021年5月3号,星期一", "2021-05-03", "2021-05-04"),     # the weekday names the date
    ("周三，三月五号", "2026-03-05", "2026-03-06"),
    ("這個月的最後一天", "2026-03-31", "2026-04-01"),
    ("下周三早上", "2026-03-18 06:00", "2026-03-18 09:00"),
    ("明天下午七八点", "2026-03-11 19:00", "2026-03-11 21:00"),      # seven or eight: two hours
    ("周末下午", "2026-03-14 12:00", "2026-03-15 18:00"),   # Saturday afternoon to Sunday afternoon
    ("下周的今天", "2026-03-17", "2026-03-18"),
    ("明年的今天", "2027-03-10", "2027-03-11"),
    ("3月5日当天", "2026-03-05", "2026-03-06"),
    ("明天一整天", "2026-03-11", "2026-03-12"),
    ("今明两天", "2026-03-10", "2026-03-12"),
    ("明后天", "2026-03-11", "2026-03-13"),
]


@pytest.mark.parametrize("text, start, end", COMPOSITION)
def test_composition(text, start, end):
    check(text, start, end)


WINDOWS_AND_OFFSETS = [
    ("上三个月", "2025-12-01", "2026-03-01", "month"),
    ("后2年", "2027-01-01", "2029-01-01", "year"),
    ("前3周", "2026-02-16", "2026-03-09", "week"),          # the three weeks before the week of Mon 03-09
    ("近五年", "2021-03-11", "2026-03-11", "day"),          # five years ending with today
    ("未来四天", "2026-03-10", "2026-03-14", "day"),
    ("过去36小时", "2026-03-08 21:30", "2026-03-10 09:30", "hour"),
    ("还剩15分钟", "2026-03-10 09:30", "2026-03-10 09:45", "minute"),
    ("上一个钟头", "2026-03-10 08:00", "2026-03-10 09:00", "hour"),
    ("半小时后", "2026-03-10 10:00", "2026-03-10 10:01", "minute"),
    ("5秒钟后", "2026-03-10 09:30:05", "2026-03-10 09:30:06", "second"),
    ("一分半钟后", "2026-03-10 09:31:30", "2026-03-10 09:31:31", "second"),   # 分半钟: a minute and a half
    ("3天前", "2026-03-07", "2026-03-08", "day"),
    ("两周后", "2026-03-23", "2026-03-30", "week"),         # the calendar week holding 03-24
    ("10个月前", "2025-05-01", "2025-06-01", "month"),
    ("8年前", "2018-01-01", "2019-01-01", "year"),
    ("一年半后", "2027-09-01", "2027-10-01", "month"),      # 18 months on: September 2027
    ("上上个周五", "2026-02-27", "2026-02-28", "day"),
    ("下下个月", "2026-05-01", "2026-06-01", "month"),
    ("下3个星期一", "2026-03-30", "2026-03-31", "day"),
    ("再过8小时", "2026-03-10 17:30", "2026-03-10 17:31", "minute"),
    ("半个月后", "2026-03-25", "2026-03-26", "day"),                       # 15 days
    ("3个工作日后", "2026-03-13", "2026-03-14", "day"),                     # Wed, Thu, Fri
    ("3个工作日内", "2026-03-10", "2026-03-14", "day"),
    ("5个工作日前", "2026-03-03", "2026-03-04", "day"),                     # Mon 9, Fri 6, ..., Tue 3
    ("下个工作日", "2026-03-11", "2026-03-12", "day"),                      # the workday after today
    ("上一个工作日", "2026-03-09", "2026-03-10", "day"),
]


# approximate counts: N多 is "more than N", so the target lies between N and N+1 units away (N and
# N+10 when 多 or 几 follows a round numeral: 十多天 = 10 to 19 days). Under offset_unit=whole_unit (the
# default, as 3个月前 = the month holding the target) the span between the two targets widens to whole
# units; days stay days; a window keeps N.
APPROXIMATE_COUNTS = [
    ("三个多月前", "2025-11-01", "2026-01-01", "month"),    # targets 11-10 .. 12-10: November and December
    ("3年多前", "2022-01-01", "2024-01-01", "year"),       # 2022-03-10 .. 2023-03-10
    ("十个多月后", "2027-01-01", "2027-03-01", "month"),    # 2027-01-10 .. 2027-02-10
    ("十多天前", "2026-02-18", "2026-02-28", "day"),        # 20 to 10 days back
    ("二十多年后", "2046-01-01", "2057-01-01", "year"),     # 2046-03-10 .. 2056-03-10
    ("一个多星期后", "2026-03-16", "2026-03-30", "week"),   # 03-17 .. 03-24: the weeks of Mondays 16th and 23rd
    ("两个多小时后", "2026-03-10 11:30", "2026-03-10 12:30", "minute"),
    ("十多分钟前", "2026-03-10 09:10", "2026-03-10 09:20", "minute"),
    ("三个多月以来", "2025-12-11", "2026-03-11", "day"),    # as 三个月以来
    ("二十几年前", "1996-01-01", "2007-01-01", "year"),     # 几 after a round numeral: 20 to 30 years back
    ("十几分钟后", "2026-03-10 09:40", "2026-03-10 09:50", "minute"),
    ("几十年后", "2046-01-01", "2117-01-01", "year"),       # 几 before 十: some tens, 20 to 90 years on
    ("几十分钟前", "2026-03-10 08:00", "2026-03-10 09:10", "minute"),  # 90 to 20 minutes back
]


@pytest.mark.parametrize("text, start, end, granularity", APPROXIMATE_COUNTS)
def test_approximate_counts(text, start, end, granularity):
    check(text, start, end, granularity)


@pytest.mark.parametrize("text, start, end", [
    ("三个多月前", "2025-11-10", "2025-12-10"),   # the days between the two targets
    ("3年多前", "2022-03-10", "2023-03-10"),
    ("二十几年前", "1996-03-10", "2006-03-10"),
])
def test_approximate_counts_to_the_day(text, start, end):
    check(text, start, end, "day", policy=["offset_unit=same_day"])


@pytest.mark.parametrize("text", ["几天前", "几十", "几千年前", "几十半年后"])
def test_a_few_is_no_count(text):
    assert resolve(text, REF) is None


def test_a_few_tens_is_not_found_as_ten():
    """The free-text search must not read the 十年之后 inside 几十年之后 as ten years on."""
    iv = find_in_text("他说几十年之后再看", REF)
    assert iv is not None and (iv.start, iv.end) == (_at("2046-01-01"), _at("2117-01-01"))


@pytest.mark.parametrize("text", ["多天前", "多个月以来", "半多天后", "三几天前"])
def test_more_without_a_number_is_no_count(text):
    assert resolve(text, REF) is None


def test_next_workday_said_on_a_friday_is_monday():
    friday = dt.datetime(2026, 3, 13, 9, 30, tzinfo=SH)
    check("下个工作日", "2026-03-16", "2026-03-17", ref=friday)


@pytest.mark.parametrize("text, start, end, granularity", WINDOWS_AND_OFFSETS)
def test_windows_and_offsets(text, start, end, granularity):
    check(text, start, end, granularity)


ORDINALS_AND_PARTS = [
    ("第3周", "2026-03-16", "2026-03-23", "week"),          # weeks beginning in March: 2, 9, 16
    ("2026年第2季度", "2026-04-01", "2026-07-01", None),
    ("五月第二个星期日", "2026-05-10", "2026-05-11", "day"),  # Sundays of May: 3, 10
    ("每月最后一个周五", "2026-03-27", "2026-03-28", "day"),  # Fridays of March: 6, 13, 20, 27
    ("最后2个月", "2026-11-01", "2027-01-01", "month"),
    ("今年前五个月", "2026-01-01", "2026-06-01", "month"),
    ("上月最后五天", "2026-02-24", "2026-03-01", "day"),
    ("第8个月", "2026-08-01", "2026-09-01", "month"),
    ("2027年第一个礼拜", "2027-01-04", "2027-01-11", "week"),  # 2027-01-04 is its first Monday
    ("下半月", "2026-03-16", "2026-04-01", "day"),
    ("上半月", "2026-03-01", "2026-03-16", "day"),
    ("上半周", "2026-03-09", "2026-03-12", "day"),           # Monday to Wednesday
    ("下周下半周", "2026-03-19", "2026-03-23", "day"),       # Thursday to Sunday of next week
    ("月初", "2026-03-01", "2026-03-11", "day"),
    ("月中", "2026-03-11", "2026-03-21", "day"),
    ("月底", "2026-03-31", "2026-04-01", "day"),
    ("年初", "2026-01-01", "2026-02-01", "month"),
    ("年底", "2026-12-01", "2027-01-01", "month"),
    ("季末", "2026-03-01", "2026-04-01", "month"),
    ("去年四季度初", "2025-10-01", "2025-11-01", "month"),
    ("首季度", "2026-01-01", "2026-04-01", None),
]


@pytest.mark.parametrize("text, start, end, granularity", ORDINALS_AND_PARTS)
def test_ordinals_and_parts(text, start, end, granularity):
    check(text, start, end, granularity)


YEARS = [
    ("两千零九年", "2009-01-01", "2010-01-01"),
    ("二零一一年", "2011-01-01", "2012-01-01"),
    ("一九九八年", "1998-01-01", "1999-01-01"),
    ("九八年", "1998-01-01", "1999-01-01"),          # nearest to 2026: 1998, not 2098
    ("03年", "2003-01-01", "2004-01-01"),
    ("'03", "2003-01-01", "2004-01-01"),
    ("1644年3月19日", "1644-03-19", "1644-03-20"),
    ("1066-10-14", "1066-10-14", "1066-10-15"),
    ("五十年代", "1950-01-01", "1960-01-01"),
    ("1990年代", "1990-01-01", "2000-01-01"),               # a decade written in full
    ("2010年代初", "2010-01-01", "2013-01-01"),
    ("上世纪六十年代", "1960-01-01", "1970-01-01"),
    ("18世纪", "1700-01-01", "1800-01-01"),
    ("二十世纪九十年代末", "1997-01-01", "2000-01-01"),
    ("2001-2003年", "2001-01-01", "2004-01-01"),
    ("2019到2021年", "2019-01-01", "2022-01-01"),
    ("2019年1-5月", "2019-01-01", "2019-06-01"),
]


@pytest.mark.parametrize("text, start, end", YEARS)
def test_years(text, start, end):
    check(text, start, end)


def test_two_digit_years_follow_their_policy():
    check("九八年", "1998-01-01", "1999-01-01", policy=["two_digit_year=past"])
    check("30年", "2030-01-01", "2031-01-01")                              # nearest: 2030
    check("30年", "1930-01-01", "1931-01-01", policy=["two_digit_year=past"])
    assert resolve("30年", REF, TemporalPolicy.from_strings(["two_digit_year=off"])) is None


CLOCK = [
    ("08:12:47", "2026-03-10 08:12:47", "2026-03-10 08:12:48", "second"),
    ("下午两点二十分五秒", "2026-03-10 14:20:05", "2026-03-10 14:20:06", "second"),
    ("两点一刻", "2026-03-10 02:15", "2026-03-10 02:16", "minute"),
    ("两点三刻", "2026-03-10 02:45", "2026-03-10 02:46", "minute"),
    ("差十分五点", "2026-03-10 04:50", "2026-03-10 04:51", "minute"),
    ("两点半", "2026-03-10 02:30", "2026-03-10 02:31", "minute"),
    ("9:40p", "2026-03-10 21:40", "2026-03-10 21:41", "minute"),
    ("6点30pm", "2026-03-10 18:30", "2026-03-10 18:31", "minute"),
    ("早7点", "2026-03-10 07:00", "2026-03-10 07:01", "minute"),
    ("大约六点左右", "2026-03-10 06:00", "2026-03-10 06:01", "minute"),
    ("下午5点多", "2026-03-10 17:00", "2026-03-10 18:00", "hour"),
    ("七到八点", "2026-03-10 07:00", "2026-03-10 08:00", None),
    ("晚上10点到凌晨2点", "2026-03-10 22:00", "2026-03-11 02:00", None),   # overnight
    ("3点-5点pm", "2026-03-10 15:00", "2026-03-10 17:00", None),           # the pm holds for both sides
    ("6pm-8点", "2026-03-10 18:00", "2026-03-10 20:00", None),
    ("晚上十二点", "2026-03-11 00:00", "2026-03-11 00:01", "minute"),     # midnight, not noon
    ("凌晨十二点", "2026-03-10 00:00", "2026-03-10 00:01", "minute"),
    ("明早", "2026-03-11 06:00", "2026-03-11 09:00", "part_of_day"),
    ("前天晚上", "2026-03-08 18:00", "2026-03-09 00:00", "part_of_day"),
    ("今夜", "2026-03-10 21:00", "2026-03-11 00:00", "part_of_day"),
    ("傍晚", "2026-03-10 17:00", "2026-03-10 19:00", "part_of_day"),
    ("深夜", "2026-03-10 22:00", "2026-03-11 00:00", "part_of_day"),
    ("午时三刻", "2026-03-10 11:45", "2026-03-10 11:46", "minute"),
    ("北京时间下午3点", "2026-03-10 15:00", "2026-03-10 15:01", "minute"),
    ("东京时间下午3点", "2026-03-10 14:00", "2026-03-10 14:01", "minute"),    # UTC+9 is an hour ahead
    ("下午3点 utc+0", "2026-03-10 23:00", "2026-03-10 23:01", "minute"),
    ("9am PST", "2026-03-11 01:00", "2026-03-11 01:01", "minute"),         # 17:00 UTC
]


@pytest.mark.parametrize("text, start, end, granularity", CLOCK)
def test_clock(text, start, end, granularity):
    check(text, start, end, granularity)


SEASONS = [
    ("春天", "2026-03-01", "2026-06-01"),
    ("今年夏季", "2026-06-01", "2026-09-01"),
    ("2021年秋", "2021-09-01", "2021-12-01"),
    ("去年冬天", "2025-12-01", "2026-03-01"),          # winter runs into the next year
]


@pytest.mark.parametrize("text, start, end", SEASONS)
def test_seasons(text, start, end):
    check(text, start, end, "month")


def test_one_character_season_only_after_a_year():
    assert resolve("春", REF) is None and find_in_text("青春不散场", REF) is None


RANGES_AND_LAYOUT = [
    ("4月7号，8号，9号", "2026-04-07", "2026-04-10"),       # a list of consecutive days is their span
    ("20日、21日", "2026-03-20", "2026-03-22"),
    ("从3月5日到3月8日", "2026-03-05", "2026-03-09"),
    ("3月5日至8日", "2026-03-05", "2026-03-09"),
    ("周三和周五之间", "2026-03-11", "2026-03-14"),
    ("下午3点以后5点以前", "2026-03-10 15:00", "2026-03-10 17:00"),
    ("3月5日之后3月8日之前", "2026-03-05", "2026-03-08"),      # from X, before Y (policy after_before: test_ranges.py)
    ("12月30日到1月2日", "2026-12-30", "2027-01-03"),
    ("２０２６年３月１０日", "2026-03-10", "2026-03-11"),       # full-width digits
    ("2026 年 3 月 10 日", "2026-03-10", "2026-03-11"),        # spaces inside
    ("晚 上 8:00", "2026-03-10 20:00", "2026-03-10 20:01"),
    ("2027年以前", "2026-03-10 09:30", "2028-01-01"),           # [now, end of 2027)
    ("十点前", "2026-03-10 09:30", "2026-03-10 10:00"),         # by ten o'clock
    ("月底前", "2026-03-10 09:30", "2026-04-01"),               # through the month's last day
    ("从去年9月起", "2025-09-01", "2026-03-10 09:30"),          # [September 2025, now)
    ("昨天至今天", "2026-03-09", "2026-03-11"),
    ("9月10号到12号", "2026-09-10", "2026-09-13"),
]


@pytest.mark.parametrize("text, start, end", RANGES_AND_LAYOUT)
def test_ranges_and_layout(text, start, end):
    check(text, start, end)


def test_open_ranges_follow_their_policy():
    none = TemporalPolicy.from_strings(["open_range=none"])
    assert resolve("2027年以前", REF, none) is None
    assert resolve("2025年以前", REF) is None        # already over: no interval between now and then


POLICIES = [
    ("三点", ["clock_granularity=hour"], "2026-03-10 03:00", "2026-03-10 04:00"),
    ("三点", ["bare_clock=upcoming"], "2026-03-10 15:00", "2026-03-10 15:01"),       # 03:00 is past at 09:30
    ("现在", ["now_granularity=minute"], "2026-03-10 09:30", "2026-03-10 09:31"),
    ("周二", ["bare_weekday=upcoming_excluding_today"], "2026-03-17", "2026-03-18"),
    ("周六", ["bare_weekday=nearest"], "2026-03-07", "2026-03-08"),                   # three days back
    ("周日", ["bare_weekday=nearest"], "2026-03-08", "2026-03-09"),                   # two days back
    ("这周一", ["this_weekday=upcoming"], "2026-03-16", "2026-03-17"),
    ("下周三", ["next_weekday=upcoming_excluding_today"], "2026-03-11", "2026-03-12"),
    ("周末", ["weekend_start=friday_evening"], "2026-03-13 18:00", "2026-03-16"),
    ("最近三天", ["recent_window=same_day_back"], "2026-03-07", "2026-03-11"),
    ("最近两个月", ["recent_window=same_day_back"], "2026-01-01", "2026-03-11"),
    ("近30天", ["recent_window=instant"], "2026-02-08 09:30", "2026-03-10 09:30"),
    ("未来7天", ["upcoming_window=instant"], "2026-03-10 09:30", "2026-03-17 09:30"),
    ("最近7天", ["recent_includes_today=false"], "2026-03-03", "2026-03-10"),
    ("下午1点到3点", ["clock_range_end=inclusive"], "2026-03-10 13:00", "2026-03-10 15:01"),
    ("2周后", ["offset_unit=same_day"], "2026-03-24", "2026-03-25"),
    ("2小时后", ["offset_clock=whole_unit"], "2026-03-10 11:00", "2026-03-10 12:00"),
    ("3小时前", ["offset_clock=unit_span"], "2026-03-10 05:30", "2026-03-10 06:30"),     # the hour that ended then
    ("2小时后", ["offset_clock=unit_span"], "2026-03-10 11:30", "2026-03-10 12:30"),     # the hour that starts then
    ("十分钟前", ["offset_clock=unit_span"], "2026-03-10 09:19", "2026-03-10 09:20"),
    ("一刻钟后", ["offset_clock=unit_span"], "2026-03-10 09:45", "2026-03-10 10:00"),    # the unit spoken is 刻
    ("半小时前", ["offset_clock=unit_span"], "2026-03-10 08:30", "2026-03-10 09:00"),    # under one unit: itself
    ("一分半钟后", ["offset_clock=unit_span"], "2026-03-10 09:31:30", "2026-03-10 09:32:30"),
    ("10天内", ["within_end=through_last_day"], "2026-03-10", "2026-03-21"),             # through 3月20日
    ("3个月内", ["within_end=through_last_day"], "2026-03-10", "2026-06-11"),            # through 6月10日
    ("10天内", ["within_end=through_last_day", "upcoming_window=instant"], "2026-03-10 09:30", "2026-03-21"),
    ("月底", ["month_end=last_ten_days"], "2026-03-21", "2026-04-01"),
    ("月底", ["month_end=from_25th"], "2026-03-25", "2026-04-01"),
    ("二月底", ["month_end=from_25th"], "2026-02-25", "2026-03-01"),                # February has 28 days in 2026
    ("月初", ["month_start=first_five_days"], "2026-03-01", "2026-03-06"),
    ("4月初", ["month_start=first_five_days"], "2026-04-01", "2026-04-06"),
    ("年底", ["year_edge=two_months"], "2026-11-01", "2027-01-01"),
    ("明年初", ["year_edge=two_months"], "2027-01-01", "2027-03-01"),
    ("去年年末", ["year_edge=two_months"], "2025-11-01", "2026-01-01"),
    ("春天", ["season=solar_terms"], "2026-02-04", "2026-05-05"),                   # 立春 to 立夏 2026
    ("2025年冬季", ["season=solar_terms"], "2025-11-07", "2026-02-04"),            # 立冬 to the next 立春
    ("早上", ["part_of_day.早上=6-10"], "2026-03-10 06:00", "2026-03-10 10:00"),
    ("早间", ["part_of_day.早上=7-8"], "2026-03-10 07:00", "2026-03-10 08:00"),       # an alias follows its word
]


@pytest.mark.parametrize("text, policy, start, end", POLICIES)
def test_policies(text, policy, start, end):
    check(text, start, end, policy=policy)


def test_the_defaults_differ_from_each_alternative():
    """Each alternative above must change something, or its test proves nothing."""
    for text, policy, start, end in POLICIES:
        default = resolve(text, REF)
        assert default is None or (default.start, default.end) != (_at(start), _at(end)), (text, policy)


@pytest.mark.parametrize("text, policy", [
    ("3天后", "offset_clock=unit_span"),            # days keep offset_unit
    ("未来10天", "within_end=through_last_day"),    # 未来 is not 内: upcoming_window alone
    ("半小时内", "within_end=through_last_day"),    # clock units: the window ends at its instant
    ("最近10天", "within_end=through_last_day"),
])
def test_policies_leave_other_readings_alone(text, policy):
    changed = resolve(text, REF, TemporalPolicy.from_strings([policy]))
    assert changed is not None and changed == resolve(text, REF), (text, policy)


def test_policies_stop_at_the_end_of_the_calendar():
    """A window or a unit span that would end after 9999-12-31 is not temporal, not an OverflowError."""
    days_left = (dt.date(9999, 12, 31) - REF.date()).days
    within = TemporalPolicy.from_strings(["within_end=through_last_day"])
    assert resolve(f"{days_left - 1}天内", REF, within).end == _at("9999-12-31")
    assert resolve(f"{days_left}天内", REF, within) is None      # through 9999-12-31 would end in year 10000
    minutes_left = int((_at("9999-12-31 23:58") - REF).total_seconds()) // 60
    span = TemporalPolicy.from_strings(["offset_clock=unit_span"])
    assert resolve(f"{minutes_left}分钟后", REF, span).end == _at("9999-12-31 23:59")
    assert resolve(f"{minutes_left + 1}分钟后", REF, span) is None  # the minute from 23:59 ends in year 10000


def test_the_last_month_and_quarter_of_the_calendar_are_not_temporal():
    """December 9999 ends in year 10000, which Python's calendar does not hold: like the year 9999,
    it is no interval (it raised ValueError before, a row's scoring_error); November still reads."""
    assert resolve("9999-12", REF) is None and resolve("q4 9999", REF) is None
    assert resolve("9999-11", REF).end == _at("9999-12-01")
    assert resolve("q3 9999", REF).end == _at("9999-10-01")


def test_a_range_that_ends_past_the_calendar_is_not_temporal():
    """23:30 to 00:00 on 9999-12-31 ends in the year 10000 (the right side moves to the next day):
    OverflowError in the range's join before, a row's scoring_error; now no interval as a whole,
    and the date-time alone inside a free text. The same range a year earlier reads."""
    assert resolve("9999-12.31t23:30-00:00", REF) is None
    assert find_in_text("会议9999-12-31 23:30-00:00", REF).start == _at("9999-12-31 23:30")
    assert resolve("2026-12-31 23:30-00:00", REF).end == _at("2027-01-01")


def test_readings_past_the_first_year_are_not_temporal():
    """There is no year 0 (q1 0000 and Feb 0000 raised ValueError), and a weekend looked for before the year 1
    (去年至周末 said in the year 2: the range's end is anchored at its start, 0001-01-01) raised
    OverflowError; both are no interval, as every reading that leaves the calendar."""
    assert resolve("q1 0000", REF) is None and resolve("q1 0999", REF).start == _at("0999-01-01")
    assert resolve("Feb 0000", REF) is None and find_in_text("会议 Feb 0000", REF) is None
    early = dt.datetime(2, 1, 1, tzinfo=SH)
    assert resolve("去年至周末", early) is None and find_in_text("去年至周末", early) is not None   # 去年 alone


@pytest.mark.parametrize("pair", ["week_start", "bare_weekday=sometimes", "part_of_day.早上=10", "nope=1",
                                  "recent_includes_today=maybe", "part_of_day.早上=10-6"])
def test_bad_policy_strings_are_errors(pair):
    with pytest.raises(ValueError):
        TemporalPolicy.from_strings([pair])


NOT_TEMPORAL = ["北京", "三星", "快一点", "0日内", "第0周", "13月", "2月30日", "24点30分", "上0个月", "前2026年",
                "2021-09-31", "2021-30-01", "1234-5678", "1000-5000元", "2021-Present", "BK-2021-5678",
                "4月7号，9号", "3月30号，31号，32号", "1995年代"]   # a list with a gap, a day past the month


@pytest.mark.parametrize("text", NOT_TEMPORAL)
def test_not_temporal(text):
    assert resolve(text, REF) is None


def test_free_text_finds_traditional_and_composed_expressions():
    found = find_in_text("我們下個月第二個週五下午開會", REF)
    assert (found.start, found.end) == (_at("2026-04-10 12:00"), _at("2026-04-10 18:00"))
    assert find_in_text("我明天要打游戏", REF).start == _at("2026-03-11")
    assert find_in_text("加3/4杯面粉", REF) is None           # a fraction before a measure word
    assert find_in_text("编号0100-08-01", REF) is None        # not a date inside a code


_WORDS = ["今天", "明天", "后天", "昨天", "下周", "上周", "周三", "星期五", "下个月", "去年", "3月", "五号",
          "下午", "晚上", "凌晨", "三点", "半", "一刻", "15:30", "到", "至", "之前", "以后", "前", "后", "第二个",
          "最后", "天", "周", "月", "年", "季度", "近", "未来", "过去", "3", "十", "零", "两", "个", "的", "，",
          "2026年", "农历", "国庆节", "世纪", "年代", "上", "下", "这", "内", "秒", "分钟", "小时", "pm", "北京时间",
          "冬季", "春", "多", "几", "11号", "、", "工作日", "第一个", "过", "差", "和", "之间", "出年", "呢个", "(", ")",
          "1.5", "末", "晚上十二点", "midnight", "12-feb-2021", "几十", "以来", "以内"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_WORDS), min_size=1, max_size=6), st.integers(0, 2000), st.integers(0, 86399))
def test_composed_texts_never_raise_and_give_nonempty_intervals(words, day, second):
    """Property: any composition of temporal words, against any reference, resolves without an
    exception to None or an interval with start < end (a crash inside the grammar is a bug)."""
    ref = dt.datetime(2024, 1, 1, tzinfo=SH) + dt.timedelta(days=day, seconds=second)
    text = "".join(words)
    for function in (resolve, find_in_text):
        result = function(text, ref)
        assert result is None or (isinstance(result, Interval) and result.start < result.end), (text, result)


_POLICIES = [TemporalPolicy.from_strings(pairs) for pairs in (
    ["reference_unit=minute", "recent_window=instant", "upcoming_window=instant", "window_far_edge=midnight"],
    ["approximate_window=unit_start", "reference_unit=year", "within_end=through_last_day", "offset_clock=unit_span"],
    ["offset_unit=same_day", "clock_granularity=hour", "bare_clock=upcoming", "ordinal_origin=reference"])]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_WORDS), min_size=1, max_size=6), st.sampled_from(_POLICIES),
       st.sampled_from([dt.datetime(1, 1, 1, tzinfo=dt.timezone.utc), dt.datetime(2, 1, 1, tzinfo=dt.timezone.utc),
                        dt.datetime(9997, 12, 31, 23, 59, tzinfo=SH), dt.datetime(9999, 12, 31, 12, tzinfo=SH), REF]))
def test_composed_texts_under_other_policies_and_far_references(words, policy, ref):
    """The same property under non-default policies and against references near the calendar's ends."""
    text = "".join(words)
    for function in (resolve, find_in_text):
        result = function(text, ref, policy)
        assert result is None or (isinstance(result, Interval) and result.start < result.end), (text, result)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=30))
def test_random_texts_never_raise_and_give_nonempty_intervals(text):
    for function in (resolve, find_in_text):
        result = function(text, REF)
        assert result is None or result.start < result.end
