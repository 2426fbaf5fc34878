"""Write tests/data/temporal_zh.jsonl: the temporal resolver's expected intervals.

The expectations are computed here independently of scorer/temporal (plain loops over days,
month arithmetic written out, lunar dates from the `lunardate` package rather than our
table, 清明 from the solar-term formula) or written by hand (HAND below). Run from the repo
root: `python tests/data/make_temporal_cases.py`.
"""

import datetime as dt
import json
from pathlib import Path

from lunardate import LunarDate

TZ = dt.timezone(dt.timedelta(hours=8))
D = dt.timedelta(days=1)
# reference times chosen for edges: Sunday, Monday, 31st, month/quarter/year ends, leap days
REFERENCES = [
    dt.datetime(2026, 3, 10, 9, 30), dt.datetime(2026, 3, 15, 20, 0), dt.datetime(2026, 3, 16, 8, 0),
    dt.datetime(2026, 1, 31, 12, 0), dt.datetime(2025, 12, 31, 23, 0), dt.datetime(2024, 2, 28, 10, 0),
    dt.datetime(2024, 2, 29, 10, 0), dt.datetime(2026, 2, 28, 7, 15), dt.datetime(2025, 6, 30, 18, 0),
    dt.datetime(2027, 1, 1, 0, 5), dt.datetime(2026, 12, 28, 14, 0), dt.datetime(2025, 10, 1, 9, 0),
]
CN_DIGITS = "零一二三四五六七八九"
WEEKDAY_CHARS = "一二三四五六日"


def cn(n: int) -> str:
    """A small Chinese numeral, written independently of scorer.temporal.numerals."""
    if n < 10:
        return CN_DIGITS[n]
    tens, ones = divmod(n, 10)
    return ("" if tens == 1 else CN_DIGITS[tens]) + "十" + (CN_DIGITS[ones] if ones else "")


def iso(moment: dt.datetime) -> str:
    return moment.replace(tzinfo=TZ).isoformat()


def case(text, ref, family, start=None, end=None, granularity=None, **extra):
    expected = None if start is None else {"start": iso(start), "end": iso(end), "granularity": granularity}
    return {"text": text, "reference_time": iso(ref), "family": family, "expected": expected, **extra}


def day(d: dt.date):
    start = dt.datetime(d.year, d.month, d.day)
    return start, start + D, "day"


def month(y, m):
    ny, nm = (y + 1, 1) if m == 12 else (y, m + 1)
    return dt.datetime(y, m, 1), dt.datetime(ny, nm, 1), "month"


def months_from(y, m, k):
    total = y * 12 + (m - 1) + k
    return total // 12, total % 12 + 1


def monday_of(d: dt.date) -> dt.date:
    while d.weekday() != 0:
        d -= D
    return d


def systematic():
    cases = []
    for ref in REFERENCES:
        today = ref.date()
        for word, k in [("今天", 0), ("明天", 1), ("后天", 2), ("大后天", 3), ("昨天", -1), ("前天", -2),
                        ("大前天", -3), ("今日", 0), ("明日", 1)]:
            cases.append(case(word, ref, "relative_day", *day(today + k * D)))
        for n in (1, 3, 10, 30):
            cases.append(case(f"{n}天后", ref, "relative_day", *day(today + n * D)))
            cases.append(case(f"{cn(n)}天前", ref, "relative_day", *day(today - n * D)))
        monday = monday_of(today)
        for i, ch in enumerate(WEEKDAY_CHARS):
            cases.append(case(f"下周{ch}", ref, "week", *day(monday + (7 + i) * D)))
            cases.append(case(f"本周{ch}", ref, "week", *day(monday + i * D)))
            cases.append(case(f"上周{ch}", ref, "week", *day(monday + (i - 7) * D)))
            target = today
            while target.weekday() != i:
                target += D
            cases.append(case(f"周{ch}", ref, "week", *day(target)))
            cases.append(case(f"星期{ch}", ref, "week", *day(target)))
        week_start = dt.datetime(monday.year, monday.month, monday.day)
        cases.append(case("下周", ref, "week", week_start + 7 * D, week_start + 14 * D, "week"))
        cases.append(case("这周", ref, "week", week_start, week_start + 7 * D, "week"))
        cases.append(case("上上周", ref, "week", week_start - 14 * D, week_start - 7 * D, "week"))
        cases.append(case("下周末", ref, "week", week_start + 12 * D, week_start + 14 * D, "day"))
        for word, k in [("本月", 0), ("下个月", 1), ("上个月", -1), ("下下个月", 2)]:
            cases.append(case(word, ref, "month", *month(*months_from(ref.year, ref.month, k))))
        for word, k in [("今年", 0), ("明年", 1), ("去年", -1), ("前年", -2), ("后年", 2)]:
            y = ref.year + k
            cases.append(case(word, ref, "month", dt.datetime(y, 1, 1), dt.datetime(y + 1, 1, 1), "year"))
        for q in range(1, 5):
            start = dt.datetime(ref.year, 3 * q - 2, 1)
            end = month(ref.year, 3 * q)[1]
            cases.append(case(f"第{cn(q)}季度", ref, "month", start, end, "quarter"))
            cases.append(case(f"Q{q}", ref, "month", start, end, "quarter"))
        for h in (1, 3, 5, 11):
            cases.append(case(f"下午{cn(h)}点", ref, "time", *point(today, h + 12, 0)))
            cases.append(case(f"上午{h}点", ref, "time", *point(today, h, 0)))
        for h in (7, 9):
            cases.append(case(f"晚上{cn(h)}点半", ref, "time", *point(today, h + 12, 30)))
            cases.append(case(f"晚上{h + 12}点半", ref, "time", *point(today, h + 12, 30)))
        cases.append(case("明天下午三点", ref, "time", *point(today + D, 15, 0)))
        cases.append(case("下周二上午十点", ref, "time", *point(monday + 8 * D, 10, 0)))
        for n in (3, 7, 30):
            start = dt.datetime(today.year, today.month, today.day)
            cases.append(case(f"未来{cn(n)}天", ref, "range", start, start + n * D, "day"))
            cases.append(case(f"最近{n}天", ref, "range", start + D - n * D, start + D, "day"))
        for h in (1, 3, 24):
            moment = ref + dt.timedelta(hours=h)
            start = moment.replace(minute=0)
            cases.append(case(f"{h}小时后", ref, "range", start, start + dt.timedelta(hours=1), "hour",
                              policy={"offset_clock": "whole_unit"}))
    return cases


def point(d: dt.date, hour: int, minute: int):
    start = dt.datetime(d.year, d.month, d.day, hour, minute)
    return start, start + dt.timedelta(minutes=1), "minute"


def qingming_day(year: int) -> int:
    """清明 in 2001-2099 by the solar-term formula [Y*0.2422 + 4.81] - [Y/4] (Y = year % 100)."""
    y = year % 100
    return int(y * 0.2422 + 4.81) - y // 4


def holidays_cases():
    cases = []
    ref = dt.datetime(2026, 3, 10, 9, 30)
    lunar = {"春节": (1, 1, 0), "元宵节": (1, 15, 0), "端午节": (5, 5, 0), "七夕": (7, 7, 0),
             "中秋节": (8, 15, 0), "重阳节": (9, 9, 0), "除夕": (1, 1, -1)}
    for year in (1990, 1995, 2000, 2008, 2012, 2019, 2020, 2023, 2024, 2025, 2026, 2030, 2050, 2077, 2099):
        for name, (m, d, shift) in lunar.items():
            solar = LunarDate(year, m, d).to_solar_date() + shift * D
            cases.append(case(f"{year}年{name}", ref, "holiday", *day(solar)))
    for year in range(2001, 2100, 7):
        cases.append(case(f"{year}年清明", ref, "holiday", *day(dt.date(year, 4, qingming_day(year)))))
    for year in (2024, 2025, 2026, 2027):
        for name, (m, d) in {"元旦": (1, 1), "情人节": (2, 14), "劳动节": (5, 1), "国庆节": (10, 1),
                             "圣诞节": (12, 25)}.items():
            cases.append(case(f"{year}年{name}", ref, "holiday", *day(dt.date(year, m, d))))
        start = dt.datetime(year, 10, 1)
        cases.append(case(f"{year}年国庆假期", ref, "holiday", start, start + 7 * D, "day"))
        start = dt.datetime(year, 5, 1)
        cases.append(case(f"{year}年五一假期", ref, "holiday", start, start + 5 * D, "day"))
    return cases


def absolute_cases():
    cases = []
    ref = dt.datetime(2026, 3, 10, 9, 30)
    for y, m, d in [(2026, 3, 10), (2025, 12, 31), (2024, 2, 29), (2000, 1, 1), (2099, 7, 4), (2026, 11, 11)]:
        date = dt.date(y, m, d)
        for text in (f"{y}年{m}月{d}日", f"{y}-{m:02d}-{d:02d}", f"{y}/{m}/{d}", f"{y}.{m}.{d}",
                     f"{y}年{cn(m)}月{cn(d)}号"):
            cases.append(case(text, ref, "absolute", *day(date)))
        cases.append(case(f"{y}年{m}月", ref, "absolute", *month(y, m)))
        cases.append(case(f"{y}-{m:02d}-{d:02d}T08:45:00+08:00", ref, "absolute", *point(date, 8, 45)))
        cases.append(case(f"{y}年", ref, "absolute", dt.datetime(y, 1, 1), dt.datetime(y + 1, 1, 1), "year"))
    for m, d in [(3, 5), (12, 31), (1, 1), (7, 15)]:
        cases.append(case(f"{m}月{d}日", ref, "absolute", *day(dt.date(2026, m, d))))
        cases.append(case(f"{cn(m)}月{cn(d)}日", ref, "absolute", *day(dt.date(2026, m, d))))
        cases.append(case(f"{m}月{d}号", ref, "absolute", *day(dt.date(2026, m, d))))
    return cases


def H(text, ref, family, start=None, end=None, granularity=None, **extra):
    """A hand-written case: times as 'YYYY-MM-DD HH:MM' strings in +08:00."""
    parse = lambda s: dt.datetime.strptime(s, "%Y-%m-%d %H:%M") if " " in s else dt.datetime.strptime(s, "%Y-%m-%d")
    return case(text, parse(ref), family, start and parse(start), end and parse(end), granularity, **extra)


# Tue 2026-03-10 09:30 unless said otherwise
R = "2026-03-10 09:30"
HAND = [
    H("下个月", "2026-01-31 12:00", "month", "2026-02-01", "2026-03-01", "month"),
    H("下个月31号", "2026-01-31 12:00", "month"),
    H("下个月30号", "2026-01-31 12:00", "month"),
    H("下个月28号", "2026-01-31 12:00", "month", "2026-02-28", "2026-03-01", "day"),
    H("一个月后", "2026-01-31 12:00", "relative_day", "2026-02-28", "2026-03-01", "day", policy={"offset_unit": "same_day"}),
    H("1个月后", "2024-01-31 12:00", "relative_day", "2024-02-29", "2024-03-01", "day", policy={"offset_unit": "same_day"}),
    H("一年后", "2024-02-29 10:00", "relative_day", "2025-02-28", "2025-03-01", "day", policy={"offset_unit": "same_day"}),
    H("2月29日", "2024-02-01 10:00", "absolute", "2024-02-29", "2024-03-01", "day"),
    H("2月29日", "2026-02-01 10:00", "absolute"),
    H("明天", "2025-12-31 23:00", "relative_day", "2026-01-01", "2026-01-02", "day"),
    H("明天", "2024-02-28 10:00", "relative_day", "2024-02-29", "2024-03-01", "day"),
    H("后天", "2024-02-28 10:00", "relative_day", "2024-03-01", "2024-03-02", "day"),
    H("下个月", "2025-12-31 23:00", "month", "2026-01-01", "2026-02-01", "month"),
    H("下周一", "2026-03-15 20:00", "week", "2026-03-16", "2026-03-17", "day"),
    H("周日", "2026-03-15 20:00", "week", "2026-03-15", "2026-03-16", "day"),
    H("本周日", "2026-03-15 20:00", "week", "2026-03-15", "2026-03-16", "day"),
    H("周末", "2026-03-15 20:00", "week", "2026-03-14", "2026-03-16", "day"),
    H("这周末", "2026-03-15 20:00", "week", "2026-03-14", "2026-03-16", "day"),
    H("周末", R, "week", "2026-03-14", "2026-03-16", "day"),
    H("工作日", R, "week", "2026-03-09", "2026-03-14", "day"),
    H("下周工作日", R, "week", "2026-03-16", "2026-03-21", "day"),
    H("下下周三", R, "week", "2026-03-25", "2026-03-26", "day"),
    H("上上周五", R, "week", "2026-02-27", "2026-02-28", "day"),
    H("礼拜天", R, "week", "2026-03-15", "2026-03-16", "day"),
    H("下个星期五", R, "week", "2026-03-20", "2026-03-21", "day"),
    H("周二", R, "week", "2026-03-10", "2026-03-11", "day"),
    H("周二", R, "policy", "2026-03-17", "2026-03-18", "day", policy={"bare_weekday": "upcoming_excluding_today"}),
    H("周一", R, "policy", "2026-03-09", "2026-03-10", "day", policy={"bare_weekday": "this_week"}),
    H("下周", R, "policy", "2026-03-15", "2026-03-22", "week", policy={"week_start": "sunday"}),
    H("最近7天", R, "policy", "2026-03-03", "2026-03-10", "day", policy={"recent_includes_today": False}),
    H("未来3天", R, "policy", "2026-03-11", "2026-03-14", "day", policy={"upcoming_includes_today": False}),
    H("3月5日", R, "policy", "2027-03-05", "2027-03-06", "day", policy={"bare_month_day": "upcoming"}),
    H("5号", R, "policy", "2026-04-05", "2026-04-06", "day", policy={"bare_day_of_month": "upcoming"}),
    H("春节", R, "policy", "2026-02-17", "2026-02-18", "day", policy={"holiday_year": "reference_year"}),
    H("5号", R, "month", "2026-03-05", "2026-03-06", "day"),
    H("15号", R, "month", "2026-03-15", "2026-03-16", "day"),
    H("月底", R, "month", "2026-03-31", "2026-04-01", "day"),
    H("月底", R, "policy", "2026-03-21", "2026-04-01", "day", policy={"month_end": "last_ten_days"}),
    H("月初", R, "month", "2026-03-01", "2026-03-11", "day"),
    H("本月底", R, "month", "2026-03-31", "2026-04-01", "day"),
    H("本月底", R, "policy", "2026-03-21", "2026-04-01", "day", policy={"month_end": "last_ten_days"}),
    H("下个月初", R, "month", "2026-04-01", "2026-04-11", "day"),
    H("2月底", R, "month", "2026-02-28", "2026-03-01", "day"),
    H("2月底", "2024-01-05 10:00", "month", "2024-02-29", "2024-03-01", "day"),
    H("中旬", R, "month", "2026-03-11", "2026-03-21", "day"),
    H("下旬", R, "month", "2026-03-21", "2026-04-01", "day"),
    H("上旬", R, "month", "2026-03-01", "2026-03-11", "day"),
    H("3月份", R, "month", "2026-03-01", "2026-04-01", "month"),
    H("十二月", R, "month", "2026-12-01", "2027-01-01", "month"),
    H("明年3月", R, "month", "2027-03-01", "2027-04-01", "month"),
    H("上半年", R, "month", "2026-01-01", "2026-07-01", "month"),
    H("下半年", R, "month", "2026-07-01", "2027-01-01", "month"),
    H("年初", R, "month", "2026-01-01", "2026-02-01", "month"),
    H("年底", R, "month", "2026-12-01", "2027-01-01", "month"),
    H("明年底", R, "month", "2027-12-01", "2028-01-01", "month"),
    H("明年第二季度", R, "month", "2027-04-01", "2027-07-01", "quarter"),
    H("2025年Q4", R, "month", "2025-10-01", "2026-01-01", "quarter"),
    H("本季度", R, "month", "2026-01-01", "2026-04-01", "quarter"),
    H("下个季度", "2025-12-31 23:00", "month", "2026-01-01", "2026-04-01", "quarter"),
    H("上季度", R, "month", "2025-10-01", "2026-01-01", "quarter"),
    H("三月五日", R, "absolute", "2026-03-05", "2026-03-06", "day"),
    H("3月5号", R, "absolute", "2026-03-05", "2026-03-06", "day"),
    H("2026年三月", R, "absolute", "2026-03-01", "2026-04-01", "month"),
    H("二〇二六年三月十日", R, "absolute", "2026-03-10", "2026-03-11", "day"),
    H("二零二五年十二月三十一日", R, "absolute", "2025-12-31", "2026-01-01", "day"),
    H("２０２６年３月１０日", R, "absolute", "2026-03-10", "2026-03-11", "day"),
    H("2026-03-10 15:00", R, "absolute", "2026-03-10 15:00", "2026-03-10 15:01", "minute"),
    H("2026-03-10T07:00:00Z", R, "absolute", "2026-03-10 15:00", "2026-03-10 15:01", "minute"),
    H("2026-03-10T15:00:00.000+09:00", R, "absolute", "2026-03-10 14:00", "2026-03-10 14:01", "minute"),
    H("2026-03", R, "absolute", "2026-03-01", "2026-04-01", "month"),
    H("2026-02-30", R, "absolute"),
    H("2026-13-01", R, "absolute"),
    H("2023年", R, "absolute", "2023-01-01", "2024-01-01", "year"),
    H("2026", R, "absolute", "2026-01-01", "2027-01-01", "year"),
    H("下午三点", R, "time", "2026-03-10 15:00", "2026-03-10 15:01", "minute"),
    H("晚上8点半", R, "time", "2026-03-10 20:30", "2026-03-10 20:31", "minute"),
    H("三点一刻", R, "time", "2026-03-10 03:15", "2026-03-10 03:16", "minute"),
    H("下午三点三刻", R, "time", "2026-03-10 15:45", "2026-03-10 15:46", "minute"),
    H("凌晨两点", R, "time", "2026-03-10 02:00", "2026-03-10 02:01", "minute"),
    H("凌晨12点", R, "time", "2026-03-10 00:00", "2026-03-10 00:01", "minute"),
    H("中午12点", R, "time", "2026-03-10 12:00", "2026-03-10 12:01", "minute"),
    H("中午1点", R, "time", "2026-03-10 13:00", "2026-03-10 13:01", "minute"),
    H("下午12点", R, "time", "2026-03-10 12:00", "2026-03-10 12:01", "minute"),
    H("15点30分", R, "time", "2026-03-10 15:30", "2026-03-10 15:31", "minute"),
    H("15:30", R, "time", "2026-03-10 15:30", "2026-03-10 15:31", "minute"),
    H("十点零五分", R, "time", "2026-03-10 10:05", "2026-03-10 10:06", "minute"),
    H("八点整", R, "time", "2026-03-10 08:00", "2026-03-10 08:01", "minute"),
    H("十一点", R, "time", "2026-03-10 11:00", "2026-03-10 11:01", "minute"),
    H("24点", R, "time", "2026-03-11 00:00", "2026-03-11 00:01", "minute"),
    H("25点", R, "time"),
    H("傍晚", R, "time", "2026-03-10 17:00", "2026-03-10 19:00", "part_of_day"),
    H("早上", R, "time", "2026-03-10 06:00", "2026-03-10 09:00", "part_of_day"),
    H("上午", R, "time", "2026-03-10 06:00", "2026-03-10 12:00", "part_of_day"),
    H("下午", R, "time", "2026-03-10 12:00", "2026-03-10 18:00", "part_of_day"),
    H("晚上", R, "time", "2026-03-10 18:00", "2026-03-11 00:00", "part_of_day"),
    H("夜里", R, "time", "2026-03-10 21:00", "2026-03-11 00:00", "part_of_day"),
    H("今晚", R, "time", "2026-03-10 18:00", "2026-03-11 00:00", "part_of_day"),
    H("明早", R, "time", "2026-03-11 06:00", "2026-03-11 09:00", "part_of_day"),
    H("明天晚上", R, "time", "2026-03-11 18:00", "2026-03-12 00:00", "part_of_day"),
    H("明天晚上九点", R, "time", "2026-03-11 21:00", "2026-03-11 21:01", "minute"),
    H("后天早上7点", R, "time", "2026-03-12 07:00", "2026-03-12 07:01", "minute"),
    H("3月5日下午3点", R, "time", "2026-03-05 15:00", "2026-03-05 15:01", "minute"),
    H("2026年3月12日 14:30", R, "time", "2026-03-12 14:30", "2026-03-12 14:31", "minute"),
    H("下周五晚上7点半", R, "time", "2026-03-20 19:30", "2026-03-20 19:31", "minute"),
    H("现在", R, "time", "2026-03-10 09:30", "2026-03-10 09:31", "minute", policy={"now_granularity": "minute"}),
    H("从明天到后天", R, "range", "2026-03-11", "2026-03-13", "day"),
    H("明天到下周五", R, "range", "2026-03-11", "2026-03-21", "day"),
    H("3月5日至8日", R, "range", "2026-03-05", "2026-03-09", "day"),
    H("3月5日-3月8日", R, "range", "2026-03-05", "2026-03-09", "day"),
    H("3-5号", R, "range", "2026-03-03", "2026-03-06", "day"),
    H("10到15号", R, "range", "2026-03-10", "2026-03-16", "day"),
    H("从3月28日到4月2日", R, "range", "2026-03-28", "2026-04-03", "day"),
    H("12月30日到1月2日", R, "range", "2026-12-30", "2027-01-03", "day"),
    H("2026-03-01至2026-03-05", R, "range", "2026-03-01", "2026-03-06", "day"),
    H("下午两点到四点", R, "range", "2026-03-10 14:00", "2026-03-10 16:00", "minute"),
    H("上午9点到下午5点", R, "range", "2026-03-10 09:00", "2026-03-10 17:00", "minute"),
    H("周一到周三", R, "range", "2026-03-16", "2026-03-19", "day"),
    H("本周一到周三", R, "range", "2026-03-09", "2026-03-12", "day"),
    H("后天到明天", R, "range"),
    H("明天到", R, "range"),
    H("未来一周", R, "range", "2026-03-10", "2026-03-17", "day"),
    H("接下来7天", R, "range", "2026-03-10", "2026-03-17", "day"),
    H("3天内", R, "range", "2026-03-10", "2026-03-13", "day"),
    H("最近一周", R, "range", "2026-03-04", "2026-03-11", "day"),
    H("近一周", R, "range", "2026-03-04", "2026-03-11", "day"),
    H("过去两周", R, "range", "2026-02-25", "2026-03-11", "day"),
    H("最近3个月", R, "range", "2025-12-11", "2026-03-11", "day"),
    H("过去一年", R, "range", "2025-03-11", "2026-03-11", "day"),
    H("最近24小时", R, "range", "2026-03-09 09:30", "2026-03-10 09:30", "hour"),
    H("3小时后", R, "range", "2026-03-10 12:00", "2026-03-10 13:00", "hour", policy={"offset_clock": "whole_unit"}),
    H("半小时后", R, "range", "2026-03-10 10:00", "2026-03-10 10:01", "minute"),
    H("两个半小时后", R, "range", "2026-03-10 12:00", "2026-03-10 12:01", "minute"),
    H("30分钟后", R, "range", "2026-03-10 10:00", "2026-03-10 10:01", "minute"),
    H("两周后", R, "relative_day", "2026-03-24", "2026-03-25", "day", policy={"offset_unit": "same_day"}),
    H("三个星期以后", R, "relative_day", "2026-03-31", "2026-04-01", "day", policy={"offset_unit": "same_day"}),
    H("10天以后", R, "relative_day", "2026-03-20", "2026-03-21", "day"),
    H("3月后", R, "relative_day"),
    H("春节", R, "holiday", "2027-02-06", "2027-02-07", "day"),
    H("春节", "2026-01-10 10:00", "holiday", "2026-02-17", "2026-02-18", "day"),
    H("春节", "2026-02-17 10:00", "holiday", "2026-02-17", "2026-02-18", "day"),
    H("除夕", "2026-01-10 10:00", "holiday", "2026-02-16", "2026-02-17", "day"),
    H("中秋节", R, "holiday", "2026-09-25", "2026-09-26", "day"),
    H("中秋", "2025-08-01 10:00", "holiday", "2025-10-06", "2025-10-07", "day"),
    H("明年春节", R, "holiday", "2027-02-06", "2027-02-07", "day"),
    H("去年中秋节", R, "holiday", "2025-10-06", "2025-10-07", "day"),
    H("2024年春节", R, "holiday", "2024-02-10", "2024-02-11", "day"),
    H("2025年春节", R, "holiday", "2025-01-29", "2025-01-30", "day"),
    H("2026年春节", R, "holiday", "2026-02-17", "2026-02-18", "day"),
    H("2100年春节", R, "holiday", "2100-02-09", "2100-02-10", "day"),
    H("2100年中秋节", R, "holiday", "2100-09-18", "2100-09-19", "day"),
    H("1989年春节", R, "holiday", "1989-02-06", "1989-02-07", "day"),
    H("清明节", R, "holiday", "2026-04-05", "2026-04-06", "day"),
    H("2024年清明", R, "holiday", "2024-04-04", "2024-04-05", "day"),
    H("国庆假期", R, "holiday", "2026-10-01", "2026-10-08", "day"),
    H("十一假期", R, "holiday", "2026-10-01", "2026-10-08", "day"),
    H("五一假期", R, "holiday", "2026-05-01", "2026-05-06", "day"),
    H("五一", R, "holiday", "2026-05-01", "2026-05-02", "day"),
    H("十一", R, "holiday", "2026-10-01", "2026-10-02", "day"),
    H("元旦", R, "holiday", "2027-01-01", "2027-01-02", "day"),
    H("元旦", "2025-12-31 23:00", "holiday", "2026-01-01", "2026-01-02", "day"),
    H("圣诞节", R, "holiday", "2026-12-25", "2026-12-26", "day"),
    H("情人节", "2026-02-01 10:00", "holiday", "2026-02-14", "2026-02-15", "day"),
    H("中秋假期", R, "holiday"),
    H("三星", R, "lookalike"),
    H("一周年纪念", R, "lookalike"),
    H("五一广场", R, "lookalike"),
    H("十一路", R, "lookalike"),
    H("一点", R, "time", "2026-03-10 01:00", "2026-03-10 01:01", "minute"),
    H("北京", R, "lookalike"),
    H("张三", R, "lookalike"),
    H("周杰伦", R, "lookalike"),
    H("星期天餐厅", R, "lookalike"),
    H("三号线", R, "lookalike"),
    H("七天酒店", R, "lookalike"),
    H("", R, "lookalike"),
    H("年", R, "lookalike"),
    H("123456", R, "lookalike"),
    H("tomorrow", R, "en", "2026-03-11", "2026-03-12", "day"),
    H("today", R, "en", "2026-03-10", "2026-03-11", "day"),
    H("yesterday", R, "en", "2026-03-09", "2026-03-10", "day"),
    H("the day after tomorrow", R, "en", "2026-03-12", "2026-03-13", "day"),
    H("next Tuesday", R, "en", "2026-03-17", "2026-03-18", "day"),
    H("next Monday", "2026-03-15 20:00", "en", "2026-03-16", "2026-03-17", "day"),
    H("this Friday", R, "en", "2026-03-13", "2026-03-14", "day"),
    H("last Friday", R, "en", "2026-03-06", "2026-03-07", "day"),
    H("Friday", R, "en", "2026-03-13", "2026-03-14", "day"),
    H("last month", R, "en", "2026-02-01", "2026-03-01", "month"),
    H("next month", "2025-12-31 23:00", "en", "2026-01-01", "2026-02-01", "month"),
    H("next week", R, "en", "2026-03-16", "2026-03-23", "week"),
    H("next year", R, "en", "2027-01-01", "2028-01-01", "year"),
    H("in 3 days", R, "en", "2026-03-13", "2026-03-14", "day"),
    H("in two weeks", R, "en", "2026-03-24", "2026-03-25", "day"),
    H("3 days ago", R, "en", "2026-03-07", "2026-03-08", "day"),
    H("in 2 hours", R, "en", "2026-03-10 11:00", "2026-03-10 12:00", "hour", policy={"offset_clock": "whole_unit"}),
    H("this weekend", R, "en", "2026-03-14", "2026-03-16", "day"),
    H("next weekend", R, "en", "2026-03-21", "2026-03-23", "day"),
    H("Q1 2026", R, "en", "2026-01-01", "2026-04-01", "quarter"),
    H("2026 Q3", R, "en", "2026-07-01", "2026-10-01", "quarter"),
    H("the second quarter of 2025", R, "en", "2025-04-01", "2025-07-01", "quarter"),
    H("March 10, 2026", R, "en", "2026-03-10", "2026-03-11", "day"),
    H("10 March 2026", R, "en", "2026-03-10", "2026-03-11", "day"),
    H("Dec 25", R, "en", "2026-12-25", "2026-12-26", "day"),
    H("March 2026", R, "en", "2026-03-01", "2026-04-01", "month"),
    H("tomorrow at 3pm", R, "en", "2026-03-11 15:00", "2026-03-11 15:01", "minute"),
    H("next Tuesday 10:30 am", R, "en", "2026-03-17 10:30", "2026-03-17 10:31", "minute"),
    H("tomorrow morning", R, "en", "2026-03-11 06:00", "2026-03-11 12:00", "part_of_day"),
    H("tonight", R, "en", "2026-03-10 18:00", "2026-03-11 00:00", "part_of_day"),
    H("the last 7 days", R, "en", "2026-03-04", "2026-03-11", "day"),
    H("next 3 days", R, "en", "2026-03-10", "2026-03-13", "day"),
    H("from Monday to Friday", R, "en", "2026-03-16", "2026-03-21", "day"),
    H("Christmas", R, "en", "2026-12-25", "2026-12-26", "day"),
    H("3/10/2026", R, "en", "2026-03-10", "2026-03-11", "day", policy={"dateparser_fallback": True}),
    H("Beijing", R, "lookalike"),
    H("Samsung Galaxy", R, "lookalike"),
]


def main():
    rows = systematic() + holidays_cases() + absolute_cases() + HAND
    out = Path(__file__).resolve().parent / "temporal_zh.jsonl"
    with open(out, "w", encoding="utf-8") as handle:
        for row in rows:
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")
    print(f"{len(rows)} cases -> {out}")


if __name__ == "__main__":
    main()
