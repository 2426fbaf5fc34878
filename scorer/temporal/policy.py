"""The interpretive choices of the resolver (week start, bare weekdays, 最近N天, ...).

They are data: defaults come from rules/temporal/policy.toml so that a team can see and change
them in one place; a run overrides any of them with `--policy NAME=VALUE` (the CLI puts the
overrides in $CALLSCORE_POLICY, so worker processes and every command read the same policy).
"""

import dataclasses
import functools
import json
import os

from scorer.frozen import hash_once
from scorer.rules import read_toml

POLICY_ENV = "CALLSCORE_POLICY"
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_UNIT_LISTS = ("sequence_rolling", "window_whole_units")   # policies whose value is a list of units


@functools.lru_cache(maxsize=None)
def _choices() -> dict:
    """The allowed values of each policy whose value is a name, from rules/policy_choices.toml:
    the rules check reads the same table, so a policy file and --policy meet one list."""
    table = read_toml("policy_choices.toml")["temporal/policy.toml"]
    return {name: tuple(values) for name, values in table.items()
            if name not in ("workdays", *_UNIT_LISTS) and all(isinstance(value, str) for value in values)}


@functools.lru_cache(maxsize=None)
def _unit_lists() -> dict:
    """The units each policy that lists units may list, from rules/policy_choices.toml."""
    table = read_toml("policy_choices.toml")["temporal/policy.toml"]
    return {name: tuple(table[name]) for name in _UNIT_LISTS}


@hash_once  # the policy is part of every memo key
@dataclasses.dataclass(frozen=True)
class TemporalPolicy:
    """Hashable (it is part of the memo key); see rules/temporal/policy.toml for each field."""

    week_start: str = "monday"
    weekend_first_day: str = "saturday"
    weekend_length: int = 2
    weekend_start: str = "first_day"
    workdays: tuple = ("monday", "tuesday", "wednesday", "thursday", "friday")
    bare_weekday: str = "upcoming_including_today"
    this_weekday: str = "this_week"
    next_weekday: str = "next_calendar_week"
    bare_month_day: str = "reference_year"
    bare_day_of_month: str = "reference_month"
    holiday_year: str = "upcoming"
    month_end: str = "last_day"
    month_start: str = "first_ten_days"
    year_edge: str = "one_month"
    season: str = "meteorological"
    recent_includes_today: bool = True
    upcoming_includes_today: bool = True
    recent_window: str = "calendar"
    upcoming_window: str = "calendar"
    window_far_edge: str = "instant"
    approximate_window: str = "count"
    reference_unit: str = "instant"
    within_end: str = "window"
    sequence_rolling: tuple = ()
    window_whole_units: tuple = ()
    range_includes_end: bool = True
    clock_range_end: str = "instant"
    clock_granularity: str = "minute"
    clock_single_digit: str = "five_minutes"
    bare_clock: str = "as_written"
    now_granularity: str = "second"
    small_hours: str = "calendar"
    small_hours_end: int = 5
    ordinal_origin: str = "containing_unit"
    offset_unit: str = "whole_unit"
    offset_in_date_field: str = "same_day"
    offset_clock: str = "exact"
    two_digit_year: str = "nearest"
    slash_date_order: str = "month_first"
    open_range: str = "reference"
    after_before: str = "from_start"
    part_of_day: tuple = ()           # ((word, start hour, end hour), ...) over rules/temporal/zh.toml
    timezone: str = "Asia/Shanghai"
    dateparser_fallback: bool = False
    unmarked_month_day: str = "lunar"
    unmarked_date_after_year: str = "gregorian"
    holiday_break: str = "day"
    xiaonian: str = "north"
    year_end_holidays: str = "gregorian_year"
    solar_term_year: str = "gregorian"
    sunset_holidays: str = "civil_day"

    def __post_init__(self):
        for name, allowed in _choices().items():
            if getattr(self, name) not in allowed:
                raise ValueError(f"temporal policy {name}={getattr(self, name)!r}: expected one of {allowed}")
        if not isinstance(self.workdays, tuple):
            object.__setattr__(self, "workdays", tuple(self.workdays))
        if any(day not in WEEKDAYS for day in self.workdays):
            raise ValueError(f"temporal policy workdays={self.workdays!r}: unknown weekday")
        for name, allowed in _unit_lists().items():
            object.__setattr__(self, name, tuple(getattr(self, name)))
            if any(unit not in allowed for unit in getattr(self, name)):
                raise ValueError(f"temporal policy {name}={getattr(self, name)!r}: expected units among {allowed}")
        if not 1 <= int(self.weekend_length) <= 7:
            raise ValueError("temporal policy weekend_length must be 1..7")
        if not 1 <= int(self.small_hours_end) <= 6:
            raise ValueError("temporal policy small_hours_end must be 1..6")
        hours = tuple(sorted((str(w), int(a), int(b)) for w, a, b in self.part_of_day))
        if any(not 0 <= a < b <= 30 for _w, a, b in hours):
            raise ValueError(f"temporal policy part_of_day={hours!r}: hours must satisfy 0 <= start < end <= 30")
        object.__setattr__(self, "part_of_day", hours)

    def pod_hours(self, word: str, default):
        """The (start, end) hours of a part-of-day word under this policy."""
        for name, start, end in self.part_of_day:
            if name == word:
                return start, end
        return default

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

    @classmethod
    def from_strings(cls, pairs, base: "TemporalPolicy | None" = None):
        """`NAME=VALUE` strings as given on the command line (`part_of_day.早上=6-10` sets the
        hours of one word) applied over `base`; a bad name or value raises ValueError naming it."""
        return cls.from_overrides(parse_pairs(pairs, base or default_policy()), base=base)

    def listing(self) -> list:
        """(name, value as written on the command line, allowed values) for `score rules --policies`."""
        rows = []
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            if field.name == "part_of_day":
                value = ",".join(f"{w}={a}-{b}" for w, a, b in value) or "(rules/temporal/zh.toml)"
            elif isinstance(value, bool):
                value = str(value).lower()
            elif isinstance(value, tuple):
                value = ",".join(value) or "(none)"
            allowed = _choices().get(field.name, ("true", "false") if isinstance(getattr(self, field.name), bool)
                                     else _unit_lists().get(field.name, ()))
            rows.append((field.name, str(value), allowed))
        return rows


def parse_pairs(pairs, base: TemporalPolicy) -> dict:
    """Overrides from `NAME=VALUE` strings, typed like the fields of `base`."""
    overrides = {}
    hours = dict((w, (a, b)) for w, a, b in base.part_of_day)
    for pair in pairs:
        name, sep, value = pair.partition("=")
        name, value = name.strip(), value.strip()
        if not sep or not name:
            raise ValueError(f"--policy {pair!r}: expected NAME=VALUE")
        if name.startswith("part_of_day."):
            first, dash, last = value.partition("-")
            if not dash or not first.isdigit() or not last.isdigit():
                raise ValueError(f"--policy {pair!r}: expected hours as START-END, e.g. 6-10")
            hours[name.split(".", 1)[1]] = (int(first), int(last))
            overrides["part_of_day"] = tuple((w, a, b) for w, (a, b) in hours.items())
            continue
        current = getattr(base, name, None)
        if current is None and name not in {f.name for f in dataclasses.fields(base)}:
            raise ValueError(f"--policy {pair!r}: unknown policy {name!r} (see `score rules --policies`)")
        if isinstance(current, bool):
            if value.lower() not in ("true", "false"):
                raise ValueError(f"--policy {pair!r}: expected true or false")
            overrides[name] = value.lower() == "true"
        elif isinstance(current, int):
            if not value.isdigit():
                raise ValueError(f"--policy {pair!r}: expected a whole number")
            overrides[name] = int(value)
        elif isinstance(current, tuple):
            overrides[name] = tuple(part.strip() for part in value.split(",") if part.strip())
        else:
            overrides[name] = value
    return overrides


def _from_rules() -> TemporalPolicy:
    data = dict(read_toml("temporal/policy.toml"))
    for name in ("workdays", *_UNIT_LISTS):
        data[name] = tuple(data.get(name, ()))
    pods = data.pop("part_of_day", {})
    data["part_of_day"] = tuple((word, hours[0], hours[1]) for word, hours in pods.items())
    return dataclasses.replace(TemporalPolicy(), **data)


@functools.lru_cache(maxsize=8)
def _policy(overrides: str) -> TemporalPolicy:
    base = _from_rules()
    if not overrides:
        return base
    return TemporalPolicy.from_overrides(parse_pairs(json.loads(overrides), base), base=base)


_current = {}


def default_policy() -> TemporalPolicy:
    """The policy written in rules/temporal/policy.toml, with the run's --policy overrides
    ($CALLSCORE_POLICY, read once per process: worker processes inherit it)."""
    if "policy" not in _current:
        _current["policy"] = _policy(os.environ.get(POLICY_ENV, ""))
    return _current["policy"]


def use_policy(pairs) -> None:
    """Make `NAME=VALUE` overrides the default for this process and its workers (the rules
    directory's policy.toml is read later, when the policy is first used, so that --rules and
    --policy combine in any order). Raises ValueError on a bad name or value."""
    pairs = list(pairs)
    TemporalPolicy.from_overrides(parse_pairs(pairs, TemporalPolicy()), base=TemporalPolicy())  # validates
    if pairs:
        os.environ[POLICY_ENV] = json.dumps(pairs, ensure_ascii=False)
    else:
        os.environ.pop(POLICY_ENV, None)
    _current.clear()


def for_date_field(policy: "TemporalPolicy | None") -> "TemporalPolicy":
    """The policy a date (day) field is read with: there an offset names the day it lands on
    (一周后 = the day a week from now, as a day is what the field holds), unless
    offset_in_date_field keeps offset_unit's reading. None: the process's current default."""
    return _for_date_field(policy or default_policy())


@functools.lru_cache(maxsize=64)
def _for_date_field(policy: "TemporalPolicy") -> "TemporalPolicy":
    if policy.offset_in_date_field == "same_day" and policy.offset_unit != "same_day":
        return dataclasses.replace(policy, offset_unit="same_day")
    return policy
