"""What every family shares: the interval read so far (Span, State), the context it is read in,
the token record, and the lookups of the year, month or day a partial expression belongs to;
`_finish` turns a reading into a value (the 'upcoming' policies, a named time zone).
"""

import dataclasses
import datetime as dt
import re

from scorer.temporal.dates import DAY, midnight, month_span, shift_month, valid_date
from scorer.temporal.policy import TemporalPolicy
from scorer.vocab import GRANULARITIES


# "second" is finer than every granularity the matcher knows; to_minutes() reports it as minute
GRANULARITY_INDEX = {"second": -1, **{name: index for index, name in enumerate(GRANULARITIES)}}


_SECOND = dt.timedelta(seconds=1)


_MINUTE = dt.timedelta(minutes=1)


_HOUR = dt.timedelta(hours=1)


@dataclasses.dataclass(frozen=True)
class Span:
    """An interval in naive local wall-clock time, end exclusive."""

    start: dt.datetime
    end: dt.datetime
    granularity: str


@dataclasses.dataclass(frozen=True)
class State:
    """What has been read so far. `implicit` names the component taken from the anchor
    ('year' for 3月5日, 'month' for 5号) so the 'upcoming' policies can move it forward."""

    span: Span | None = None
    pod: dict | None = None
    relative: bool = False
    implicit: str | None = None
    rules: tuple = ()
    zone: object = None       # a time zone named in the text (北京时间, 9am PST): the clock is read there


@dataclasses.dataclass(frozen=True)
class Context:
    ref: dt.datetime              # reference time, naive local, truncated to the minute
    anchor: dt.datetime           # ref, or the start of a range's left side
    anchor_pod: dict | None
    policy: TemporalPolicy
    tzinfo: dt.tzinfo
    left: "State | None" = None   # on the right side of a range: what the left side read
    after_left: "State | None" = None   # ... and, after X之后 / X以后, X as written (not moved to its end)


@dataclasses.dataclass(frozen=True)
class Token:
    name: str
    regex: re.Pattern
    apply: object                 # (match, State, Context) -> State | None
    kind: str = "token"           # token | filler | connector | opener


def _alt(words, compounds: dict | None = None) -> str:
    """A regex alternation of literal words, longest first so the longest wins; a word with
    `compounds` does not match where one of them follows it, beginning a longer word (六点起床:
    get up at six, not since six)."""
    compounds = compounds or {}
    return "|".join(re.escape(word) + (f"(?!{_alt(compounds[word])})" if word in compounds else "")
                    for word in sorted(words, key=lambda w: (-len(w), w)))


def _prefix_alt(words) -> str:
    """The alternation `_alt` makes of literal words, as a tree of shared prefixes (上(?:个|一)?): the
    same words, tried longest first, without testing each of a long list (reign titles, holiday names)
    at every place it may start. For use inside a group."""
    branches = {}
    for word in sorted(set(words)):
        branches.setdefault(word[0], []).append(word[1:])
    parts = []
    for first, rests in branches.items():
        longer = [rest for rest in rests if rest]
        tail = f"(?:{_prefix_alt(longer)})" if longer else ""
        parts.append(re.escape(first) + (tail + "?" if longer and "" in rests else tail))
    return "|".join(parts)


def _step(st: State, ctx: Context, span: Span, rule: str, relative=False, pod=None, implicit=None):
    return State(span, pod, st.relative or relative, implicit or st.implicit, st.rules + (rule,), st.zone)


def _day_span(day: dt.date) -> Span:
    start = midnight(day)
    return Span(start, start + DAY, "day")


def _single(st: State, granularity: str) -> bool:
    return st.span is not None and st.span.granularity == granularity


def _year_of(st: State, ctx: Context):
    if st.span is None:
        return ctx.anchor.year, True
    if _single(st, "year"):
        return st.span.start.year, False
    return None, False


def _month_of(st: State, ctx: Context):
    if st.span is None:
        return ctx.anchor.year, ctx.anchor.month, True
    if _single(st, "month") and st.span.end == month_span(st.span.start.year, st.span.start.month)[1]:
        return st.span.start.year, st.span.start.month, False
    return None, None, False


def _day_of(st: State, ctx: Context):
    """The day a part of day or a clock time refines, and the part of day in force."""
    if st.span is None:
        return ctx.anchor.date(), ctx.anchor_pod, True
    if _single(st, "day") and st.span.end - st.span.start == DAY:
        return st.span.start.date(), None, False
    if _single(st, "part_of_day"):
        return st.span.start.date(), st.pod, False
    return None, None, False


_DIGIT_BY_DIGIT = re.compile("[零〇一两二三四五六七八九]{2,}")


def _finish(st: State, ctx: Context) -> State | None:
    """The reading so far as a value: the 'upcoming' policies applied, then a clock read in a
    named time zone moved into the row's zone."""
    st = _upcoming(st, ctx)
    if st is None or st.zone is None:
        return st
    zone, span = st.zone, st.span

    def moved(moment):
        return moment.replace(tzinfo=zone).astimezone(ctx.tzinfo).replace(tzinfo=None)
    return dataclasses.replace(st, span=Span(moved(span.start), moved(span.end), span.granularity), zone=None)


def _upcoming(st: State, ctx: Context) -> State | None:
    """Apply the 'upcoming' policies to a component taken from the anchor."""
    span = st.span
    if span is None:
        return None
    if not ((st.implicit == "year" and ctx.policy.bare_month_day == "upcoming")
            or (st.implicit == "month" and ctx.policy.bare_day_of_month == "upcoming")):
        return st
    today = midnight(ctx.anchor.date())
    if span.end > today:
        return st
    if st.implicit == "year" and ctx.policy.bare_month_day == "upcoming":
        try:
            span = Span(span.start.replace(year=span.start.year + 1),
                        span.end.replace(year=span.end.year + 1), span.granularity)
        except ValueError:
            return None
    elif st.implicit == "month" and ctx.policy.bare_day_of_month == "upcoming":
        moved = valid_date(*shift_month(span.start.year, span.start.month, 1), span.start.day)
        if moved is None:
            return None
        span = Span(midnight(moved) + (span.start - midnight(span.start.date())),
                    midnight(moved) + (span.end - midnight(span.start.date())), span.granularity)
    return State(span, st.pod, st.relative, st.implicit, st.rules, st.zone)
