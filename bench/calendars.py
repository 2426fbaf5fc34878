"""Why the Chinese calendar comes from generated tables: the cost of one lunar year and one set of
solar terms from lunar-python, from the tables, and from lunardate, measured in the same run.

Run from the repo root: `python bench/calendars.py`. Prints microseconds per year (first use,
caches cleared; best of a few passes, the machine being shared) and the one-off cost of loading
the tables.
"""

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scorer.temporal import calendars  # noqa: E402

YEARS = range(1950, 2050)


def per_year(function, repeats=5) -> float:
    """Best of `repeats` passes over YEARS, the calendars' caches cleared before each pass."""
    best = float("inf")
    for _ in range(repeats):
        calendars.lunar_year.cache_clear()
        calendars._solar_terms.cache_clear()
        start = time.perf_counter()
        for year in YEARS:
            function(year)
        best = min(best, time.perf_counter() - start)
    return best / len(YEARS) * 1e6


def main():
    import lunardate

    start = time.perf_counter()
    calendars.table_years()
    calendars.solar_term(2000, "清明")
    load = (time.perf_counter() - start) * 1e3
    table = per_year(lambda y: (calendars.lunar_to_solar(y, 8, 15), calendars.solar_term(y, "清明")))
    computed = per_year(lambda y: (calendars.computed_lunar_year(y), calendars.computed_solar_terms(y)), 2)
    months_only = per_year(calendars.computed_lunar_year, 2)
    other = per_year(lambda y: lunardate.LunarDate(y, 8, 15).to_solar_date())
    print(f"tables: loaded once in {load:.1f} ms; years {calendars.table_years()}")
    print(f"per year, first use (µs): tables {table:.1f} | lunar-python months {months_only:.0f}, "
          f"months + terms {computed:.0f} | lunardate one date {other:.1f} (no solar terms, 1900-2099 only)")
    print(f"lunar-python / tables: {computed / table:.0f}x")


if __name__ == "__main__":
    main()
