"""Chinese administrative places, for place-typed parameters (a city, province, district,
origin, destination ... by the schema or the name: scorer/schema.py).

洛阳 = 洛阳市 = Luoyang = Luòyáng, 河南 = 河南省, and a district only within its city
(洛阳市西工区 = 洛阳西工区): the table rules/places/cn_admin.tsv is generated from a gazetteer
by bench/make_places_table.py. Two different places named in the table are different however
alike their names (张家口 / 张家界); a station or an airport is not its city (南昌站 is not in the
table, so it is compared as text).
"""

import functools

from scorer.rules import read_tsv

PLACES_FILE = "places/cn_admin.tsv"
PLACE_RULE = "place"


@functools.lru_cache(maxsize=None)
def place_index() -> dict:
    """name -> canonical name. The generated table is written already folded and with no name
    in two rows (tests/rules/test_places_table.py checks both), so it is read as is: folding its
    15,000 names on every start would cost half a second."""
    return {name: row[0] for row in read_tsv(PLACES_FILE) for name in row}


def canonical_place(folded: str) -> str | None:
    """The canonical name of the division a folded value names, or None."""
    return place_index().get(folded)
