"""The interpretive choices of the resolver (week start, bare weekdays, 最近N天, ...).

They are data: defaults come from rules/temporal/policy.toml so that a team can see and change
them in one place, and a caller can override any of them per run.
"""

import dataclasses
import functools

from scorer.rules import read_toml

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_CHOICES = {
    "week_start": ("monday", "sunday"),
    "weekend_first_day": WEEKDAYS,
    "bare_weekday": ("upcoming_including_today", "upcoming_excluding_today", "this_week"),
    "next_weekday": ("next_calendar_week", "upcoming_excluding_today"),
    "bare_month_day": ("reference_year", "upcoming"),
    "bare_day_of_month": ("reference_month", "upcoming"),
    "holiday_year": ("upcoming", "reference_year"),
    "month_end": ("last_day", "last_ten_days"),
    # calendars and holidays (rules/holidays/, docs/temporal.md "Calendars and holidays")
    "unmarked_month_day": ("lunar", "lunar_day_words", "gregorian"),
    "holiday_break": ("day", "statutory_break"),
    "xiaonian": ("north", "south"),
    "year_end_holidays": ("gregorian_year", "lunar_year"),
    "solar_term_year": ("gregorian", "spring_start"),
}


@dataclasses.dataclass(frozen=True)
class TemporalPolicy:
    """Hashable (it is part of the memo key); see rules/temporal/policy.toml for each field."""

    week_start: str = "monday"
    weekend_first_day: str = "saturday"
    weekend_length: int = 2
    workdays: tuple = ("monday", "tuesday", "wednesday", "thursday", "friday")
    bare_weekday: str = "upcoming_including_today"
    next_weekday: str = "next_calendar_week"
    bare_month_day: str = "reference_year"
    bare_day_of_month: str = "reference_month"
    holiday_year: str = "upcoming"
    month_end: str = "last_day"
    recent_includes_today: bool = True
    upcoming_includes_today: bool = True
    range_includes_end: bool = True
    timezone: str = "Asia/Shanghai"
    dateparser_fallback: bool = True
    unmarked_month_day: str = "lunar"
    holiday_break: str = "day"
    xiaonian: str = "north"
    year_end_holidays: str = "gregorian_year"
    solar_term_year: str = "gregorian"

    def __post_init__(self):
        for name, allowed in _CHOICES.items():
            if getattr(self, name) not in allowed:
                raise ValueError(f"temporal policy {name}={getattr(self, name)!r}: expected one of {allowed}")
        if not isinstance(self.workdays, tuple):
            object.__setattr__(self, "workdays", tuple(self.workdays))
        if any(day not in WEEKDAYS for day in self.workdays):
            raise ValueError(f"temporal policy workdays={self.workdays!r}: unknown weekday")
        if not 1 <= int(self.weekend_length) <= 7:
            raise ValueError("temporal policy weekend_length must be 1..7")

    @classmethod
    def from_overrides(cls, overrides: dict | None = None, base: "TemporalPolicy | None" = None):
        """The default policy (or `base`) with some fields replaced; unknown keys are an error."""
        base = base or default_policy()
        overrides = dict(overrides or {})
        known = {field.name for field in dataclasses.fields(cls)}
        unknown = sorted(set(overrides) - known)
        if unknown:
            raise ValueError(f"unknown temporal policy option(s): {', '.join(unknown)}")
        return dataclasses.replace(base, **overrides)


@functools.lru_cache(maxsize=None)
def default_policy() -> TemporalPolicy:
    """The policy written in rules/temporal/policy.toml."""
    data = dict(read_toml("temporal/policy.toml"))
    data["workdays"] = tuple(data.get("workdays", ()))
    return TemporalPolicy.from_overrides(data, base=TemporalPolicy())
