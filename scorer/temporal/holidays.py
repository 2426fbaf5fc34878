"""Holiday dates: fixed ones from rules/holidays/fixed.toml, lunar ones and 清明 from the
generated table rules/holidays/lunar_1990_2100.tsv (a real lunar conversion, see docs)."""

import datetime as dt
import functools

from scorer.rules import read_toml, read_tsv

LUNAR_TABLE = "holidays/lunar_1990_2100.tsv"


@functools.lru_cache(maxsize=None)
def holiday_names() -> dict:
    """Every name and alias (lower case) -> canonical holiday name."""
    data = read_toml("holidays/fixed.toml")
    names = {}
    for group in ("fixed", "lunar"):
        for canonical, entry in data[group].items():
            for name in (canonical, *entry.get("aliases", ())):
                names[name.lower()] = canonical
    return names


@functools.lru_cache(maxsize=None)
def period_suffixes() -> tuple:
    return tuple(read_toml("holidays/fixed.toml")["period"]["suffixes"])


@functools.lru_cache(maxsize=None)
def _lunar_rows() -> dict:
    rows = read_tsv(LUNAR_TABLE)
    header, body = rows[0], rows[1:]
    return {int(row[0]): dict(zip(header[1:], row[1:])) for row in body}


def lunar_years() -> tuple[int, int]:
    years = sorted(_lunar_rows())
    return years[0], years[-1]


def holiday_date(canonical: str, year: int) -> dt.date | None:
    """The Gregorian date of a holiday in a Gregorian year, or None outside the table."""
    data = read_toml("holidays/fixed.toml")
    if canonical in data["fixed"]:
        month, day = (int(part) for part in data["fixed"][canonical]["date"].split("-"))
        return dt.date(year, month, day)
    row = _lunar_rows().get(year)
    if row is None:
        return None
    month, day = (int(part) for part in row[data["lunar"][canonical]["column"]].split("-"))
    return dt.date(year, month, day)


def holiday_period_days(canonical: str) -> int | None:
    """Length in days of the holiday's statutory period, or None when it has none."""
    entry = read_toml("holidays/fixed.toml")["fixed"].get(canonical, {})
    return entry.get("period_days")
