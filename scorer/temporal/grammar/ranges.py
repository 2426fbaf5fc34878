"""Ranges: 从X到Y (policies range_includes_end, clock_range_end), a number taking the unit written
after it (2001-2003年), 3/10-3/12, 5-8日, open ranges X以前 / X以来 / 截至X (policy open_range).
"""

import dataclasses
import functools

from scorer.rules import read_toml
from scorer.temporal.dates import DAY, OutOfCalendar
from scorer.temporal.grammar.clock import _clock
from scorer.temporal.grammar.core import _HOUR, GRANULARITY_INDEX, Context, Span, State, _finish, _step
from scorer.temporal.grammar.days import _day_of_month, _month
from scorer.temporal.grammar.matching import _candidates
from scorer.temporal.grammar.years import _year_span, two_digit_year
from scorer.temporal.numerals import zh_int


def h_bare_number(m, st, ctx):
    """A number with no unit before a range connector takes the unit written after it:
    2001-2003年, 2019年1-5月, 9~12点半, 1985到89年9月."""
    value, unit = zh_int(m.group("n")), m.group("unit")
    if value is None:
        return None
    if unit == "年":
        if st.span is not None:
            return None
        year = value if len(m.group("n")) == 4 else two_digit_year(value, ctx.anchor.year, ctx.policy)
        span = _year_span(year) if year is not None else None
        return span and _step(st, ctx, span, "zh.year")
    if unit in ("月",):
        return _month(st, ctx, value, "zh.month")
    if unit in ("日", "号"):
        return _day_of_month(st, ctx, value, "zh.day")
    return _clock(st, ctx, value, 0, "zh.clock", hour_only=True)


def h_month_day_range(m, st, ctx):
    """3/10-3/12, 3.10-3.12: two month.day dates joined by a dash, as notices write a range (a
    lone 3.10 stays a number); the right side takes its year from the left and rolls over
    (12.30-1.2)."""
    if st.span is not None:
        return None
    if m.group("sep") == "." and m.group("m1") != m.group("m2") and min(len(m.group("d1")), len(m.group("d2"))) < 2:
        return None  # 1.5-2.5 is as likely two decimals: with dots, one month or two-digit days only
    left = _month(st, ctx, int(m.group("m1")), "zh.month")
    left = left and _finish(_day_of_month(left, ctx, int(m.group("d1")), "zh.day") or State(), ctx)
    if left is None:
        return None
    side = dataclasses.replace(ctx, anchor=left.span.start, anchor_pod=None, left=left)
    right = _month(State(), side, int(m.group("m2")), "zh.month")
    right = right and _finish(_day_of_month(right, side, int(m.group("d2")), "zh.day") or State(), side)
    return right and _join(left, right, ctx)


def h_day_range(m, st, ctx):
    return _day_of_month(st, ctx, zh_int(m.group(1)), "zh.day_range", zh_int(m.group(2)))


def h_open_range(before_words):
    """X以前 / X之前 / X前 and X起 / X以来 / X至今: an open range, closed at the reference instant
    under policy open_range = reference (年底前 = [now, end of the year)); not resolved under none."""
    def apply(m, st, ctx):
        if st.span is not None and ctx.left is not None and m.group(0) in before_words:
            return st if ctx.after_left is None else _before_right_side(st)
        if st.span is not None and ctx.left is None and m.group(0) not in before_words \
                and m.end() < len(m.string) \
                and any(token.kind == "connector" for token, _match in _candidates(m.string, m.end())):
            return st  # 从明天开始到后天: 开始 / 起 only mark the left side of a range
        if st.span is None or ctx.policy.open_range == "none" or ctx.left is not None:
            return None
        if m.group(0) in before_words:
            return _open_before(st, ctx, "open_range")
        return _open_after(st, ctx)
    return apply


def _before_right_side(st):
    """Y之前 after X之后: the range ends where Y begins when Y is a day or coarser (2005年之后2011年之前:
    before 2011); a clock time Y is the end instant already. (从X到Y之前 ends with Y, as 2020至2025年前
    runs through 2025.)"""
    if GRANULARITY_INDEX[st.span.granularity] <= GRANULARITY_INDEX["hour"]:
        return st
    return dataclasses.replace(st, span=Span(st.span.start, st.span.start, st.span.granularity),
                               rules=st.rules + ("zh.before",))


def range_left(state: State, left: State, ctx: Context) -> State:
    """The left side a range joins: after X以后 / X之后, X's end (明天以后: from the day after), except in
    X之后Y之前 under policy after_before = from_start, where the range starts with X as written
    (2005年之后2011年之前 = 2005 to 2010, as 90后 counts from 1990)."""
    if ctx.after_left is not None and state.rules[-1:] == ("zh.before",) and ctx.policy.after_before == "from_start":
        return ctx.after_left
    return left


def _open_before(st, ctx, rule):
    """X以前 / 截至X: from now to X (十点前: by 10:00; 中午前: by 12:00, before noon begins; 月底前:
    through the month's last day); None when X is already over."""
    fine = st.span.granularity == "part_of_day" or (GRANULARITY_INDEX[st.span.granularity] <= GRANULARITY_INDEX["hour"]
                                                    and ctx.policy.clock_range_end == "instant")
    end = st.span.start if fine else st.span.end
    span = Span(ctx.ref, end, "second") if end > ctx.ref else None
    return span and State(span, None, True, None, st.rules + (rule,))


def h_by(m, st, ctx):
    """截至 / 截止到 / 直到 before X: marks the reading, closed as X以前 when X is read (policy open_range)."""
    if st.span is not None or st.rules or ctx.left is not None or ctx.policy.open_range == "none":
        return None
    return dataclasses.replace(st, rules=("zh.by",))


def _join(left: State, right: State, ctx: Context) -> State | None:
    """从X到Y: from the start of X to the end of Y (Y included when it is a day or coarser and the
    policy says so; a clock time Y is the end instant)."""
    if right.span.end <= left.span.start and right.implicit == "year":
        try:  # 12月30日到1月2日: the right side's year rolls over
            right = dataclasses.replace(right, span=Span(
                right.span.start.replace(year=right.span.start.year + 1),
                right.span.end.replace(year=right.span.end.year + 1), right.span.granularity))
        except ValueError:
            return None
    fine = GRANULARITY_INDEX[right.span.granularity] <= GRANULARITY_INDEX["hour"]
    if fine and (right.pod or {}).get("meridiem") == "pm" and left.pod is None \
            and left.span.start + 12 * _HOUR <= right.span.start and left.span.start.hour < 12:
        # 3点-5点pm: the pm written on the right holds for the left side too
        left = dataclasses.replace(left, span=Span(left.span.start + 12 * _HOUR, left.span.end + 12 * _HOUR,
                                                   left.span.granularity))
    if fine and right.implicit == "day" and right.span.start <= left.span.start and left.pod is None \
            and right.pod is None and right.rules[-1:] == ("zh.clock",) and right.span.start.hour < 12 \
            and right.span.start + 12 * _HOUR > left.span.start:
        # 9点到5点, 11点到1点: a bare hour said on a twelve-hour clock, the afternoon after the left side
        right = dataclasses.replace(right, span=Span(right.span.start + 12 * _HOUR, right.span.end + 12 * _HOUR,
                                                     right.span.granularity))
    if fine and right.implicit == "day" and right.span.start <= left.span.start:
        # 晚上10点到凌晨2点: a clock time earlier than the left side is on the next day
        right = dataclasses.replace(right, span=Span(right.span.start + DAY, right.span.end + DAY,
                                                     right.span.granularity))
    if fine:
        inclusive = ctx.policy.clock_range_end == "inclusive" and right.span.granularity in ("minute", "second")
        end = right.span.end if inclusive and "now" not in right.rules \
            else right.span.start
    else:
        end = right.span.end if ctx.policy.range_includes_end else right.span.start
    if end <= left.span.start:
        return None
    granularity = min(left.span.granularity, right.span.granularity, key=GRANULARITY_INDEX.get)
    return State(Span(left.span.start, end, granularity), None, left.relative or right.relative,
                 None, left.rules + ("range",) + right.rules)


@functools.lru_cache(maxsize=None)
def _after_words() -> frozenset:
    return frozenset(read_toml("temporal/zh.toml")["words"]["after_connectors"])


_BETWEEN_CONNECTORS = frozenset(("和", "与"))
_BETWEEN_CLOSERS = ("之间", "间")   # X和Y之间, 2012年与2014年间


def _result(state: State, left: State | None, ctx: Context) -> State | None:
    """The reading so far as a value (`_finish`), joined to the left side of a range; None where
    that leaves the calendar (9999-12-31t23:30-00:00: a range that ends on the next day, as a
    handler's arithmetic past year 9999 gives no reading in `_first_reading`)."""
    try:
        return _completed(state, left, ctx)
    except (OutOfCalendar, OverflowError):
        return None


def _completed(state: State, left: State | None, ctx: Context) -> State | None:
    side = _finish(state, ctx)
    if side is None:
        return None
    if left is not None and left.rules[:1] == ("zh.by",):
        return None  # 截至X到Y: no reading
    if side.rules[:1] == ("zh.by",):  # 截至X: by X
        return None if left is not None or "open_range" in side.rules else _open_before(side, ctx, "open_range")
    return side if left is None else _join(left, side, ctx)


def _open_after(left: State, ctx: Context) -> State | None:
    """From `left` to now, under policy open_range = reference: X起 / X以来 (from X's start), and
    X以后 / X之后 with nothing after them (`left` then starts when a day or coarser X ends);
    None when that is still ahead."""
    if ctx.policy.open_range == "none" or left.span.start >= ctx.ref:
        return None
    return State(Span(left.span.start, ctx.ref, "second"), None, True, None, left.rules + ("open_range",))
