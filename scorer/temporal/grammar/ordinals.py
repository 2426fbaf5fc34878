"""The n-th unit inside another: 第N周, 五月第二个星期日, 最后一个周五, 第三天 (policy
ordinal_origin), 第一个周末, 下个月的第一个工作日.
"""

from scorer.temporal.dates import DAY, midnight, week_first_day
from scorer.temporal.grammar.core import GRANULARITY_INDEX, Span, _day_span, _step
from scorer.temporal.grammar.units import _add, _unit_span, unit_floor
from scorer.temporal.grammar.weeks import _weekend_from
from scorer.temporal.numerals import zh_int
from scorer.temporal.policy import WEEKDAYS


def _nth_week(container: Span, n: int, ctx) -> Span | None:
    """The n-th calendar week that begins inside `container` (第N周 of a month or a year); n < 0
    counts from the end."""
    start = WEEKDAYS.index(ctx.policy.week_start)
    first = week_first_day(container.start.date(), start)
    if midnight(first) < container.start:
        first += 7 * DAY
    weeks = []
    day = first
    while midnight(day) < container.end:
        weeks.append(day)
        day += 7 * DAY
    if not weeks or abs(n) > len(weeks) or n == 0:
        return None
    chosen = midnight(weeks[n - 1 if n > 0 else n])
    return Span(chosen, chosen + 7 * DAY, "week")


def _nth_weekday(container: Span, n: int, weekday: int) -> Span | None:
    """The n-th `weekday` inside `container` (五月第二个星期日); n < 0 counts from the end."""
    days = []
    day = container.start.date()
    while midnight(day) < container.end:
        if day.weekday() == weekday:
            days.append(day)
        day += DAY
    if n == 0 or abs(n) > len(days):
        return None
    return _day_span(days[n - 1 if n > 0 else n])


def _nth_workday(container: Span, n: int, ctx) -> Span | None:
    """下个月的第一个工作日, 本周最后一个工作日: the n-th (from the end when negative) day of the
    container that is a workday under policy workdays."""
    workdays = {WEEKDAYS.index(name) for name in ctx.policy.workdays}
    first, last = container.start.date(), (container.end - DAY).date()
    days = [first + offset * DAY for offset in range((last - first).days + 1)]
    chosen = [day for day in days if day.weekday() in workdays]
    index = n - 1 if n > 0 else n
    return _day_span(chosen[index]) if -len(chosen) <= index < len(chosen) else None


def h_ordinal(units, weekdays):
    """第N周, 第二个星期日, 最后一个周五, 第一天, 最后一天, 第8个月, 首月: the n-th unit inside
    what was read (a year, a quarter, a month, a week), or inside the current one."""
    def apply(m, st, ctx):
        if m.group("first"):
            n = 1
        elif m.group("last"):
            count = zh_int(m.group("n")) if m.group("n") else 1
            n = -count if count else None  # 末一6天: no count
        else:
            n = zh_int(m.group("n"))
        if not n:
            return None
        unit = units[m.group("unit")][0]
        weekday = m.group("weekday")
        if m.group("weekend"):
            return _nth_weekend(st, ctx, n)
        container = st.span
        if container is None and n > 0 and weekday is None and unit != "workday" \
                and ctx.policy.ordinal_origin == "reference":
            # 第三天 counted from today (day 1): the day after tomorrow
            piece = _add(unit_floor(ctx.ref, unit, ctx.policy), unit, n - 1)
            return _step(st, ctx, _unit_span(piece, unit, ctx), "zh.ordinal", relative=True)
        if container is None and unit == "year":
            return None  # 第七年: no year contains years
        if container is None:
            container = _unit_span(ctx.ref, "month" if unit in ("day", "week", "workday") else "year", ctx)
            if weekday is not None or unit == "week":
                container = _unit_span(ctx.ref, "month", ctx)
            if unit == "day" and m.group("unit") in ("周", "星期", "礼拜"):
                return None
        if GRANULARITY_INDEX[container.granularity] < GRANULARITY_INDEX["day"]:
            return None
        span = _nth(container, n, unit, weekdays[weekday] if weekday is not None else None, ctx)
        if span is None and st.span is None and container.granularity == "month" and weekday is None:
            # 第11周, 第40天: more than a month holds, so the n-th of the year
            span = _nth(_unit_span(ctx.ref, "year", ctx), n, unit, None, ctx)
        return span and _step(st, ctx, span, "zh.ordinal", relative=st.span is None)
    return apply


def _nth_weekend(st, ctx, n):
    """第一个周末, 最后一个周末: the weekend whose first day (policy weekend_first_day) is that
    day's n-th in the month read before, or in the reference's month."""
    container = st.span or _unit_span(ctx.ref, "month", ctx)
    if GRANULARITY_INDEX[container.granularity] < GRANULARITY_INDEX["day"]:
        return None
    first = _nth_weekday(container, n, WEEKDAYS.index(ctx.policy.weekend_first_day))
    return first and _step(st, ctx, _weekend_from(first.start.date(), ctx), "zh.ordinal", relative=st.span is None)


def _nth(container: Span, n: int, unit: str, weekday, ctx) -> Span | None:
    """The n-th unit (from the end when negative) inside `container`, a weekday's n-th when given."""
    if weekday is not None:
        return _nth_weekday(container, n, weekday)
    if unit == "workday":
        return _nth_workday(container, n, ctx)
    if unit == "week":
        return _nth_week(container, n, ctx)
    piece = _add(container.start, unit, n - 1) if n > 0 else _add(container.end, unit, n)
    span = Span(piece, _add(piece, unit, 1), "month" if unit == "quarter" else unit)
    return None if span.start < container.start or span.end > container.end else span
