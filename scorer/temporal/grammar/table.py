"""The token table: every token's pattern, built from the vocabulary in rules/temporal/ and
rules/holidays/, beside the handler that reads it (the handlers live in their families' modules).
"""

import functools
import re

from scorer.rules import read_toml
from scorer.temporal import holidays
from scorer.temporal.grammar.clock import (
    h_clock, h_clock_before, h_clock_colon, h_clock_pair, h_day_with_part, h_now, h_part_of_day,
    h_zone, part_of_day_table,
)
from scorer.temporal.grammar.core import Token, _alt, _prefix_alt
from scorer.temporal.grammar.days import (
    h_bare_day, h_day, h_day_list, h_day_relative, h_month, h_month_part, h_month_relative,
    h_part_suffix, h_same_day, h_slash_date,
)
from scorer.temporal.grammar.english import (
    h_en_clock, h_en_last_night, h_en_month, h_en_month_day, h_en_noon, h_en_offset,
    h_en_part_of_day, h_en_quarter, h_en_relative_day, h_en_relative_unit, h_en_weekday, h_en_window,
)
from scorer.temporal.grammar.festivals import (
    _LUNAR_DAY, _LUNAR_FIRST_DAYS, _LUNAR_MONTH, _NOT_AFTER_HOLIDAY, _PLAIN_LUNAR_DAY, h_holiday,
    h_lunar_date,
)
from scorer.temporal.grammar.ordinals import h_ordinal
from scorer.temporal.grammar.ranges import h_bare_number, h_by, h_day_range, h_month_day_range, h_open_range
from scorer.temporal.grammar.traditional import h_double_hour
from scorer.temporal.grammar.weeks import _bare_weekend, h_week, h_week_part, h_weekday, h_weekend, h_workdays
from scorer.temporal.grammar.whole_dates import h_iso, h_iso_month, h_iso_week, h_slash_date_year
from scorer.temporal.grammar.windows import h_compound_offset, h_offset, h_sequence, h_span_pair, h_window
from scorer.temporal.grammar.years import (
    era_offsets, h_bare_year, h_decade, h_era_year, h_quarter, h_quarter_part, h_quarter_relative, h_season,
    h_year, h_year_part, h_year_relative, h_year_two_digits,
)
from scorer.temporal.numerals import numeral_class


def _noop(m, st, ctx):
    return st


class _Groups:
    """A match whose named groups are partly replaced (tokens with alternative spellings of one
    group hand their handler a single name)."""

    def __init__(self, match, **groups):
        self._match, self._groups, self.string = match, groups, match.string

    def group(self, name=0):
        return self._groups[name] if name in self._groups else self._match.group(name)

    def end(self, *args):
        return self._match.end(*args)


@functools.lru_cache(maxsize=None)
def tokens() -> tuple:
    """Every token, compiled once. Order breaks ties between equally long matches."""
    numeral_char = numeral_class()
    numeral = numeral_char + "+"  # a minute ends where its numeral does: 4点56秒 is 16:00:56, not 4:05:06
    zh = read_toml("temporal/zh.toml")
    en = read_toml("temporal/en.toml")
    words = zh["words"]
    units = zh["unit"]
    unit_alt = _alt(units)
    after, before = words["after"], words["before"]
    needs_measure = frozenset(words["needs_measure_word"])
    week_word = "(?:周|星期|礼拜|拜)"  # 拜一: Cantonese
    weekday_alt = _alt(zh["weekday"])
    pods = part_of_day_table(zh["part_of_day"])
    connector = r"\s*(?:[-~～到至—]|——)\s*"
    ampm = r"(?:\s*(?P<ampm>am|pm|a\.m\.|p\.m\.|a|p)(?![a-z]))?"
    ordinal_units = _alt(zh["ordinal_unit"])
    holiday_names = holidays.holiday_names()
    month_edges = {"end": frozenset(zh["month_end_words"]), "start": frozenset(zh["month_start_words"])}
    lunar = read_toml("holidays/lunar_words.toml")
    lunar_marker = _alt(lunar["markers"])
    named_months = _alt(lunar["named_months"])
    en_pods = en["part_of_day"]
    en_units = en["unit"]
    en_unit_alt = _alt(en_units)
    en_num = r"\d+|" + _alt(en["number"])
    en_rel_alt = _alt(en["relative_word"])
    en_weekday_alt = _alt(en["weekday"])
    en_month_alt = _alt(en["month"])
    end = r"(?![a-z])"

    def tok(name, pattern, apply, kind="token"):
        return Token(name, re.compile(pattern), apply, kind)

    amount = rf"(?P<few>几(?=[十百]))?(?P<n>\d+\.\d+|{numeral})?\s*(?P<more>多|几)?(?P<measure>个)?(?P<more_after_measure>多)?(?P<half>半)?(?P<measure_after_half>个)?\s*"
    return (
        tok("iso", r"(?P<y>\d{4})(?:[-/.](?P<mo>\d{1,2})[-/.](?P<d>\d{1,2})|(?P<mo2>\d{2})(?P<d2>\d{2})(?![\d:])"
            r"|\s(?P<mo3>\d{1,2})\s(?P<d3>\d{1,2})(?![\d:]))"
            r"(?:(?:t|\s+|-|(?<=\d\d[-/.]\d\d))(?P<h>\d{1,2}):(?P<mi>\d{2})"
            # an offset after seconds (+08:00, +0800, Postgres's +08, -05:00); without seconds only
            # z or a + offset: 2026-03-10 10:00-12:00 is a range of hours, not 10:00 at UTC-12
            r"(?:(?::(?P<s>\d{2})(?:\.\d+)?)(?P<tz>z|\s*[+-]\d{2}(?::?\d{2})?(?![\d./:-]))?"
            r"|(?P<tz_minute>z|\s*\+\d{2}:?\d{2}(?![\d./:-])))?)?(?!\d)", h_iso),
        tok("iso_month", r"(\d{4})[-/.](\d{1,2})(?![\d/.]|-\d{1,2}(?!\d))", h_iso_month),
        tok("iso_week", r"(\d{4})-?w(\d{2})(?![\d-])", h_iso_week),
        tok("clock_colon", r"(?P<h>\d{1,2}):(?P<mi>\d{2})(?::(?P<s>\d{2})(?:\.\d+)?)?(?!\d)(?:\s*[点时])?" + ampm, h_clock_colon),
        tok("now", _alt(words["now"] + en["words"]["now"]) + end, h_now),
        tok("year", r"(\d{4}|[零〇一二三四五六七八九]{3,4}|[两二一]千[零〇一二三四五六七八九十]*)\s*年度?(?!代|级|龄)", h_year),
        tok("era_year", rf"(?P<era>{_prefix_alt(era_offsets())})\s*(?P<n>元|\d{{1,4}}|{numeral})\s*年(?!代|级|龄)",
            h_era_year(era_offsets())),
        tok("year_two_digits", r"(?:'|’)(?P<y>\d{2})(?!\d)|(?P<y2>\d{2}|[零〇一二三四五六七八九]{2})\s*年(?!代|级|龄)",
            lambda m, st, ctx: h_year_two_digits(_Groups(m, y=m.group("y") or m.group("y2")), st, ctx)),
        tok("bare_number", rf"(?P<n>{numeral})(?={connector}{numeral}\s*(?P<unit>年|月|日|号|点|时))", h_bare_number),
        tok("bare_year", r"\d{4}(?![\d年])", h_bare_year),
        tok("decade", rf"(?:(?P<last_century>上个?世纪)|(?P<this_century>本世纪|这个世纪)|(?P<century>{numeral})\s*世纪)?"
            rf"(?:(?P<decade>{numeral})\s*年代)?(?P<part>{_alt(zh['decade_part']['decade'])})?",
            h_decade(zh["decade_part"])),
        tok("relative_year", _alt(zh["relative_year"]), h_year_relative(zh["relative_year"])),
        tok("year_part", rf"(?<![a-z])(?:{_alt(zh['year_part'])})(?![a-z\d])",
            h_year_part(zh["year_part"], frozenset(words["year_part_needs_year"]))),
        tok("season", _alt([word for season in zh["season"].values() for word in season["words"]]), h_season(zh["season"])),
        tok("quarter", r"(?:第\s*)?([1-4一二三四首])\s*季度|q\s*([1-4])(?![\d])(?:\s*季度)?", h_quarter),
        tok("relative_quarter", _alt(zh["relative_quarter"]), h_quarter_relative(zh["relative_quarter"])),
        tok("relative_month", _alt(zh["relative_month"]), h_month_relative(zh["relative_month"])),
        tok("month", rf"({numeral})\s*月份?", h_month),
        tok("month_part", _alt(zh["month_part"]), h_month_part(zh["month_part"], month_edges)),
        tok("part_suffix", _alt(w for w in zh["part_suffix"]["month"] if w != "中")
            + r"|中(?=$|[\s,，、的前后以之左到至~～-])",
            h_part_suffix(zh["part_suffix"]["month"], zh["part_suffix"]["year"], month_edges)),
        tok("day", rf"({numeral})\s*(?:日|号|號)", h_day),
        tok("day_list", rf"(?:\s*[，,、]\s*{numeral}\s*(?:日|号|號))+", h_day_list),
        tok("day_range", rf"({numeral})\s*(?:[-~～到至]|——)\s*({numeral})\s*(?:日|号|號)", h_day_range),
        tok("same_day", _alt(words["same_day"]), h_same_day),
        tok("relative_day", _alt(zh["relative_day"]),
            h_day_relative(zh["relative_day"], "zh.relative_day", frozenset(words["anchored_days"]))),
        tok("bare_day", r"(\d{1,2})(?![\d.:日号点时分秒年月])", h_bare_day),
        tok("day_with_part", _alt(zh["day_with_part"]), h_day_with_part(zh["day_with_part"], pods)),
        tok("offset", rf"(?:(?P<pre>{_alt(words['after_prefix'])})\s*)?{amount}(?P<unit>{unit_alt})(?P<half_after>半钟?|多)?"
            rf"(?P<dir>{_alt(after + before)})?",
            h_offset(units, frozenset(after), needs_measure)),
        tok("compound_offset", rf"(?P<parts>(?:\s*[，,、和又零]?\s*{numeral}\s*个?\s*(?:{unit_alt})){{2,}})"
            rf"\s*(?P<dir>{_alt(after + before)})", h_compound_offset(units, frozenset(after))),
        tok("recent", rf"(?:{_alt(words['recent'])})\s*{amount}(?P<unit>{unit_alt})(?P<half_after>半钟?|多)?",
            h_window(units, needs_measure, False, "zh.recent")),
        tok("since", rf"{amount}(?P<unit>{unit_alt})(?P<half_after>半钟?|多)?(?:{_alt(words['since'])})",
            h_window(units, needs_measure, False, "zh.since")),
        tok("upcoming", rf"(?:{_alt(words['upcoming'])})\s*{amount}(?P<unit>{unit_alt})",
            h_window(units, needs_measure, True, "zh.upcoming")),
        tok("within", rf"{amount}(?P<unit>{unit_alt})(?P<half_after>半钟?|多)?(?:{_alt(words['within'])})",
            h_window(units, needs_measure, True, "zh.within")),
        tok("month_day_range", r"(?<![\d./·-])(?P<m1>\d{1,2})(?P<sep>[./])(?P<d1>\d{1,2})\s*(?:[-~～]|至|到)\s*"
            r"(?P<m2>\d{1,2})(?P=sep)(?P<d2>\d{1,2})(?![\d./])", h_month_day_range),
        tok("slash_date_year", r"(?<![\d\-/.·])(?:(?P<a>\d{1,2})/(?P<b>\d{1,2})/(?P<y>\d{4}|\d{2})(?![\d/])"
            r"|(?P<day>\d{1,2})\.(?P<month>\d{1,2})\.(?P<dotted_year>\d{4})(?!\d|\.\d))", h_slash_date_year),
        tok("slash_date", r"(?<![\d\-/.·])(?:(?P<mo>\d{1,2})[/·](?P<d>\d{1,2})(?![\d/·])|(?P<mo2>\d{2})-(?P<d2>\d{2})(?![\d\-.:]))"
            r"\s*(?:号|日)?", h_slash_date),
        tok("sequence", rf"(?P<dir>上|下|前|后|最后|末(?={numeral_char}))\s*(?P<n>{numeral})?\s*(?P<measure>个)?\s*(?P<unit>{unit_alt})"
            r"(?!\s*(?:前|后|以|之|内|[一二三四五六日天1-7]))", h_sequence(units)),
        tok("ordinal", rf"(?:第\s*(?P<n>{numeral})|(?P<first>首)|(?P<last>最后|倒数第|末(?=月))\s*(?P<n2>{numeral})?)\s*个?\s*"
            rf"(?P<unit>{ordinal_units})(?:\s*(?P<weekday>{weekday_alt})|(?<=[周期拜])(?P<weekend>末))?",
            lambda m, st, ctx: h_ordinal(zh["ordinal_unit"], zh["weekday"])(
                _Groups(m, n=m.group("n") or m.group("n2"),
                        weekday=m.group("weekday") if m.group("unit") in ("周", "星期", "礼拜") else None), st, ctx)),
        tok("week", rf"(?:(?P<prefix>{_alt(zh['week_prefix'])})|(?P<dir>[上下])\s*(?P<n>{numeral})\s*个)\s*{week_word}"
            rf"(?:\s*{week_word})?(?:\s*(?P<day>{weekday_alt})|(?P<weekend>末)|(?P<workdays>的?工作日))?",
            h_week(zh["week_prefix"], zh["weekday"])),
        tok("weekday", rf"{week_word}\s*({weekday_alt})", h_weekday(zh["weekday"])),
        tok("weekend", _alt(words["weekend"]), h_weekend),
        tok("workdays", r"工作日", h_workdays),
        tok("part_of_day", _alt(pods), h_part_of_day(pods, "zh.part_of_day")),
        tok("clock", rf"(?<!第)(?P<hour>{numeral})\s*(?:点|时(?!{_alt(words['shi_compounds'])}))钟?\s*(?:(?:过|(?P<mark>{_alt(words['clock_marks'])}))\s*(?=半|{numeral_char}))?(?:(?P<half>半)(?:钟(?!头))?|(?P<quarters>[一二三四1-4])\s*刻钟?|整|正"
            rf"|(?P<minute>{numeral})(?!{numeral_char})\s*(?:(?P<fen>分)钟?|(?!\s*秒|\s*个字))|(?P<five_minutes>{numeral})\s*个字)?"
            rf"(?:\s*(?P<second>{numeral})\s*秒钟?|(?<=分)\s*(?P<second_alone>\d{{1,2}})(?!\d))?"
            rf"(?P<more>多钟?)?" + ampm, h_clock),
        tok("clock_pair", r"(?P<a>[一两二三四五六七八九十])(?P<b>[两二三四五六七八九十])\s*[点时]钟?(?!\s*[半一二三四五六七八九十0-9])",
            h_clock_pair),
        tok("span_pair", _alt(zh["span_pair"]), h_span_pair(zh["span_pair"])),
        tok("clock_before", rf"差\s*(?:(?P<minus>{numeral})\s*分钟?|(?P<quarters>[一三1-3])\s*刻钟?)\s*(?P<hour>{numeral})\s*[点时]"
            rf"|(?P<hour2>{numeral})\s*[点时]\s*差\s*(?:(?P<minus2>{numeral})\s*分钟?|(?P<quarters2>[一三1-3])\s*刻钟?)",
            h_clock_before),
        tok("double_hour", rf"(?P<name>{_alt(zh['double_hour'])})\s*时(?:\s*(?P<quarters>[一二三四1-4])\s*刻)?",
            h_double_hour(zh["double_hour"])),
        tok("quarter_part", r"季度?(?P<part>初|末|底)", h_quarter_part),
        tok("week_part", _alt(zh["week_part"]), h_week_part(zh["week_part"])),
        tok("zone", rf"(?:utc|gmt)\s*(?P<sign>[+-])\s*(?P<h>\d{{1,2}})(?::?(?P<mi>\d{{2}}))?|(?P<name>{_alt(zh['zone'])})(?![a-z])",
            h_zone(zh["zone"])),
        tok("by", _alt(words["by"]), h_by),
        tok("open_range", rf"(?:{_alt(words['open_before'] + words['open_after'], words['open_word_compounds'])})"
            r"(?![天日晚早])" + end,
            h_open_range(frozenset(words["open_before"]))),
        tok("holiday", rf"(?<![\d.第])(?:{lunar_marker})?\s*(?P<name>{_prefix_alt(holiday_names)})"
            rf"(?P<period>{_alt(holidays.period_suffixes())})?{_NOT_AFTER_HOLIDAY}", h_holiday(holiday_names)),
        tok("lunar_date", rf"(?:(?:(?:{lunar_marker})\s*(?:(?P<year>\d{{4}}|[零〇一二三四五六七八九]{{4}})\s*年\s*)?"
            rf"(?P<leap>闰)?|(?P<leap_only>闰))(?P<month>{named_months}|{_LUNAR_MONTH})\s*月"
            rf"(?:\s*(?P<day>{_LUNAR_DAY})\s*[日号號]?)?"
            rf"|(?:{lunar_marker})\s*(?P<marked_day>{_PLAIN_LUNAR_DAY})(?!\s*月)"
            rf"|(?P<named>{named_months})月(?:\s*(?P<named_day>{_LUNAR_DAY})\s*[日号號]?)?"
            rf"|大年(?P<danian_day>{_LUNAR_FIRST_DAYS})"
            rf"|(?P<plain_month>{_LUNAR_MONTH})月(?P<plain_day>{_PLAIN_LUNAR_DAY})(?!\s*[日号號])"
            rf"|(?P<bare_day>{_LUNAR_FIRST_DAYS}|廿[一二三四五六七八九]?|卅))"
            r"(?![\d零〇一二三四五六七八九十])", h_lunar_date(lunar["named_months"])),
        tok("en.relative_day", rf"(?:{_alt(en['relative_day'])}){end}",
            h_en_relative_day(en["relative_day"], en_pods)),
        tok("en.relative_unit", rf"({en_rel_alt})\s+(week|weekend|month|year|quarter){end}",
            h_en_relative_unit(en["relative_word"])),
        tok("en.weekday", rf"(?:({en_rel_alt})\s+)?({en_weekday_alt})\.?{end}",
            h_en_weekday(en["relative_word"], en["weekday"])),
        tok("en.weekend", rf"(?:the\s+)?weekend{end}", lambda m, st, ctx: _bare_weekend(st, ctx, "en.weekend")),
        tok("en.offset_in", rf"in\s+(?P<n>{en_num})\s+(?P<unit>{en_unit_alt})s?(?P<dir>){end}",
            h_en_offset(en["number"], en_units)),
        tok("en.offset", rf"(?P<n>{en_num})\s+(?P<unit>{en_unit_alt})s?\s+(?P<dir>ago|later|from now|hence){end}",
            h_en_offset(en["number"], en_units)),
        tok("en.recent", rf"(?:the\s+)?(?:last|past|previous)\s+(?P<n>{en_num})\s+(?P<unit>{en_unit_alt})s?{end}",
            h_en_window(en["number"], en_units, False)),
        tok("en.upcoming", rf"(?:the\s+)?(?:next|coming)\s+(?P<n>{en_num})\s+(?P<unit>{en_unit_alt})s?{end}",
            h_en_window(en["number"], en_units, True)),
        tok("en.quarter", r"q(?P<q>[1-4])(?:\s*,?\s*(?P<y>\d{4}))?(?![\da-z])"
            rf"|(?P<y2>\d{{4}})\s*-?\s*q(?P<q2>[1-4]){end}"
            rf"|(?P<ord>{_alt(en['words']['quarter_ordinals'])})\s+quarter(?:\s+of)?(?:\s+(?P<y3>\d{{4}}))?{end}",
            h_en_quarter(en["words"]["quarter_ordinals"])),
        tok("en.month_day", rf"(?P<m1>{en_month_alt})\.?\s+(?P<d1>\d{{1,2}})(?:st|nd|rd|th)?(?!\d)"
            rf"(?:\s*,?\s*(?P<y1>\d{{4}}))?{end}"
            rf"|(?P<d2>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<m2>{en_month_alt})\.?"
            rf"(?:\s*,?\s*(?P<y2>\d{{4}}))?{end}"
            rf"|(?P<d3>\d{{1,2}})-(?P<m3>{en_month_alt})-(?P<y3>\d{{4}}){end}",  # 12-Feb-2021
            h_en_month_day(en["month"])),
        tok("en.month", rf"({en_month_alt})\.?(?:\s*,?\s*(\d{{4}}))?{end}", h_en_month(en["month"])),
        tok("en.clock", r"(\d{1,2})(?::(\d{2}))?\s*(am|pm|a\.m\.|p\.m\.)" + end, h_en_clock),
        tok("en.noon", r"(?:noon|midnight)" + end, h_en_noon),
        tok("en.last_night", r"last\s+night" + end, h_en_last_night(en_pods)),
        tok("en.part_of_day", rf"(this\s+)?({_alt(en_pods)}){end}", h_en_part_of_day(en_pods)),
        tok("opener", _alt(words["range_openers"]) + "|" + rf"(?:{_alt(en['words']['range_openers'])}){end}",
            _noop, "opener"),
        tok("iso_interval", r"/(?=\d{4}-\d{2})", _noop, "connector"),   # 2026-03-10/2026-03-12 (ISO 8601)
        tok("connector", _alt(words["range_connectors"] + words["after_connectors"]) + "|" + rf"(?:{_alt(en['words']['range_connectors'])}){end}",
            _noop, "connector"),
        tok("filler", _alt(words["fillers"]) + "|" + rf"(?:{_alt(w for w in en['words']['fillers'] if w.strip())}){end}"
            + r"|(?<=[年月日号])间|\s+", _noop, "filler"),   # 2003年间, 2012年与2014年间 (not 房间)
    )


@functools.lru_cache(maxsize=None)
def lookalikes():
    """(regex of what may not follow a span in free text, spans that are idioms when alone, regex
    of what may not follow a holiday name)."""
    zh = read_toml("temporal/zh.toml")["lookalike"]
    en = read_toml("temporal/en.toml")["lookalike"]
    return (re.compile(_alt(zh["after"])), frozenset(zh["lone_spans"]) | frozenset(en["lone_spans"]),
            re.compile(_alt(zh["after_holiday"])))
