"""Holidays and calendars: holidays by name (rules/holidays/; policies holiday_year,
holiday_break) and lunar dates (农历三月初三, 腊月廿三, 大年初十; policy unmarked_month_day).
"""

import dataclasses
import datetime as dt

from scorer.temporal import calendars, holidays
from scorer.temporal.dates import DAY, midnight
from scorer.temporal.grammar.core import Span, _day_span, _step, _year_of
from scorer.temporal.grammar.days import _day_of_month, _month
from scorer.temporal.numerals import zh_int


def _holiday(st, ctx, canonical, period, rule):
    """A holiday (or its statutory break) in the year read so far, else the next one not yet
    over (policy holiday_year) counting from the anchor's year."""
    statutory = holidays.holiday_period(canonical)
    period = period or (statutory is not None and ctx.policy.holiday_break == "statutory_break")
    year, implicit = _year_of(st, ctx)
    if year is None or (period and statutory is None):
        return None

    def span(date):
        if period:
            start_days, length = statutory
            return Span(midnight(date) + start_days * DAY, midnight(date) + (start_days + length) * DAY, "day")
        return Span(midnight(date), midnight(date) + holidays.holiday_days(canonical, date, ctx.policy) * DAY, "day")

    upcoming = implicit and ctx.policy.holiday_year == "upcoming"
    spans = [span(date) for y in ((year, year + 1) if upcoming else (year,))
             for date in holidays.holiday_dates(canonical, y, ctx.policy)]
    if upcoming:
        spans = [found for found in spans if found.end > midnight(ctx.anchor.date())]
    return _step(st, ctx, spans[0], rule, relative=implicit) if spans else None


# a holiday name ending in a numeral must not run on into a number, a date or an amount: 二月二日 is
# not 龙抬头 (二月二), 十一万 not 国庆 (十一), 520元 and 520.5 not 5月20日; 元旦10点 stays a holiday
_NOT_AFTER_HOLIDAY = (r"(?![a-z])(?!(?<=[\d零〇一二三四五六七八九十])"
                      r"[\d.%零〇一二三四五六七八九十百千万亿日号號元块])")


def h_holiday(names):
    def apply(m, st, ctx):
        return _holiday(st, ctx, names[m.group("name")], bool(m.group("period")), "holiday")
    return apply


# month and day numerals of lunar dates; alternatives in the order they must be tried
_LUNAR_FIRST_DAYS = "初(?:十|[一二三四五六七八九])"


_PLAIN_LUNAR_DAY = rf"{_LUNAR_FIRST_DAYS}|廿[一二三四五六七八九]?|卅|二十[一二三四五六七八九]?|三十|十[一二三四五六七八九]?"


_LUNAR_DAY = rf"初\s*\d{{1,2}}|{_PLAIN_LUNAR_DAY}|[一二三四五六七八九]|[12]\d|3[01]|0?[1-9]"


_PLAIN_MONTH = "十[一二]|[一二三四五六七八九十]"


_LUNAR_MONTH = rf"{_PLAIN_MONTH}|1[0-2]|0?[1-9]"


def _lunar_day(text: str | None) -> int | None:
    """初五 -> 5, 廿 -> 20, 廿三 -> 23, 卅 -> 30, 十五 / 15 -> 15; None when absent."""
    if text is None:
        return None
    text = text.replace(" ", "")
    if text[0] == "初":
        return zh_int(text[1:])
    return zh_int(text)   # 廿三, 卅: the numeral reader knows them


def _lunar_day_from(anchor: dt.date, day: int, roll: bool) -> dt.date | None:
    """That day of the lunar month `anchor` is in; with `roll`, of the next lunar month when it
    would come before the anchor."""
    month = calendars.lunar_month_of(anchor)
    date = month and calendars.lunar_to_solar(*month[:2], day, month[2])
    if roll and date is not None and date < anchor:
        month = calendars.lunar_month_of(calendars.lunar_month_span(*month[:2], month[2])[1])
        date = month and calendars.lunar_to_solar(*month[:2], day, month[2])
    return date


def _bare_lunar_day(st, ctx, day):
    """初五 / 廿三 alone on the right of a range (正月初一到初五, 腊月廿八到初六): that day of the lunar
    month the left side starts in, or of the next one when it would come before the left side.
    Alone 初三 is not read (as likely a school year); a lone 廿/卅 day is a day of the month."""
    if st.span is not None or ctx.anchor == ctx.ref:
        return None
    date = _lunar_day_from(ctx.anchor.date(), day, roll=True)
    return date and _step(st, ctx, _day_span(date), "zh.lunar_day")


def _marked_lunar_day(st, ctx, day):
    """农历十五 / 阴历初一, a lunar day with no month: that day of the lunar month the reference is
    in, or (policy bare_day_of_month = upcoming) of the next one once it is over."""
    if st.span is not None:
        return None
    date = _lunar_day_from(ctx.anchor.date(), day, roll=ctx.policy.bare_day_of_month == "upcoming")
    return date and _step(st, ctx, _day_span(date), "zh.lunar_day", relative=True)


_WRITTEN_YEAR_RULES = ("zh.year", "zh.year_two_digits", "zh.era_year")


def _after_written_year(st, day_text, policy) -> bool:
    """一九九八年八月十五: a month and day after a year written as a number, the day no lunar word
    (初, 廿, 卅), are Gregorian under policy unmarked_date_after_year = gregorian (as a date with its
    year is written: the mid-autumn day says 农历); else read as unmarked_month_day says."""
    return policy.unmarked_date_after_year == "gregorian" and bool(st.rules) and st.rules[-1] in _WRITTEN_YEAR_RULES \
        and day_text[0] not in "初廿卅"


def h_lunar_date(months):
    """农历2019年三月初三, 腊月廿三, 闰四月, 大年初十, a month and a Chinese-numeral day without 日/号
    (五月初五, 8月十五) read per policy unmarked_month_day, and a lone lunar day ending a range. The year is
    the lunar year."""
    def apply(m, st, ctx):
        if m.group("bare_day"):
            day = _lunar_day(m.group("bare_day"))
            if st.span is None and ctx.anchor == ctx.ref and m.group(0) == m.string and day > 20:
                # a lone 廿一 / 卅 (days a calendar writes that way): that day of the reference month
                return _day_of_month(st, ctx, day, "zh.day")
            return _bare_lunar_day(st, ctx, day)
        if m.group("marked_day"):
            return _marked_lunar_day(st, ctx, _lunar_day(m.group("marked_day")))
        month_text = m.group("month") or m.group("named") or m.group("plain_month")
        month = 1 if m.group("danian_day") else months.get(month_text) or zh_int(month_text)
        day = _lunar_day(m.group("day") or m.group("named_day") or m.group("danian_day") or m.group("plain_day"))
        if m.group("plain_month"):
            policy = ctx.policy.unmarked_month_day
            if _after_written_year(st, m.group("plain_day"), ctx.policy):
                policy = "gregorian"
            if policy == "gregorian":
                state = _month(st, ctx, month, "zh.month")
                return state and _day_of_month(dataclasses.replace(state, rules=st.rules), ctx, day, "zh.day")
            if policy == "lunar_day_words" and m.group("plain_day")[0] not in "初廿卅":
                return None
        leap = bool(m.group("leap") or m.group("leap_only"))
        if m.group("year"):
            if st.span is not None:
                return None
            year, implicit = zh_int(m.group("year")), False
        else:
            year, implicit = _year_of(st, ctx)
        if year is None:
            return None

        def span_in(lunar_year):
            if day is None:
                bounds = calendars.lunar_month_span(lunar_year, month, leap)
                return bounds and Span(midnight(bounds[0]), midnight(bounds[1]), "day")
            date = calendars.lunar_to_solar(lunar_year, month, day, leap) if day else None
            return date and _day_span(date)

        span = span_in(year)
        if span and implicit and ctx.policy.bare_month_day == "upcoming" and span.end <= midnight(ctx.anchor.date()):
            span = span_in(year + 1)
        return span and _step(st, ctx, span, "zh.lunar_date", relative=implicit)
    return apply
