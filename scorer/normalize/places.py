"""Chinese administrative places, for place-typed parameters (a city, province, district,
origin, destination ... by the schema or the name: scorer/schema.py).

洛阳 = 洛阳市 = Luoyang = Luòyáng, 河南 = 河南省, and a district only within its city
(洛阳市西工区 = 洛阳西工区): the table rules/places/cn_admin.tsv is generated from a gazetteer
by bench/make_places_table.py. Two different places named in the table are different however
alike their names (张家口 / 张家界). A station or an airport is read as its city, a name and an
ending (rules/places/facilities.toml: 北京 + 南 + 站): it is not its city, and two of one city
whose names or kinds differ are different places (北京南站 / 北京站, 上海虹桥 / 上海浦东).
"""

import functools
import os

from scorer.rules import read_toml, read_tsv
from scorer.script import HAN

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


FACILITIES_FILE = "places/facilities.toml"
DIVISION = "division"   # the kind of a value the gazetteer names whole (北京, 洛阳市西工区)


@functools.lru_cache(maxsize=1 << 14)
def place_parts(folded: str) -> tuple | None:
    """(city, name, kind) of a place written in Han characters after a gazetteer name:
    北京南站 -> (北京, 南, station), 上海虹桥 -> (上海, 虹桥, None), 北京 -> (北京, "", division).
    The city is the shortest gazetteer name the text opens with, taken as long as it names the
    same place (洛阳市西工区: 洛阳市, not the district), so that 上海浦东机场 is in 上海. None
    for other texts."""
    if not folded or HAN.sub("", folded):
        return None
    whole = canonical_place(folded)
    if whole is not None:
        return whole, "", DIVISION
    city, end = None, 0
    for stop in range(2, min(len(folded), _longest_name() + 1)):
        found = canonical_place(folded[:stop])
        if found is not None and city in (None, found):
            city, end = found, stop
    if city is None:
        return None
    name, kind = _ending(folded[end:])
    return city, _without_level(name), kind


@functools.lru_cache(maxsize=None)
def _longest_name() -> int:
    """How far a city may reach into a text: the longest name of the gazetteer."""
    return max(map(len, place_index()))


def different_places(a: str, b: str, place_typed: bool) -> bool:
    """Two folded texts that name different places of the gazetteer's cities, whatever their
    similarity: a city and a station or airport (北京 / 北京站); two stations or airports of
    different cities, of different kinds (上海虹桥站 / 上海虹桥机场), or of one city under names
    that share no character (北京南站 / 北京站, 上海虹桥机场 / 上海浦东机场); and, in a place-typed
    parameter, two places of one city so named (上海虹桥 / 上海浦东). Names sharing a character
    (迪士尼 / 迪斯尼, 浦东 / 浦东新区) may be one place: not decided here."""
    first, second = place_parts(a), place_parts(b)
    if first is None or second is None:
        return False
    kinds = {first[2], second[2]}
    if DIVISION in kinds:
        return len(kinds) == 2 and None not in kinds   # a city is never its station
    if first[2] and second[2]:
        return first[0] != second[0] or first[2] != second[2] or _apart(first[1], second[1])
    return place_typed and first[2] is second[2] is None and first[0] == second[0] and _apart(first[1], second[1])


def same_place(a: str, b: str) -> bool:
    """Two folded texts that name one place of the gazetteer two ways: a station or an airport
    with another ending of its kind (上海虹桥站 / 上海虹桥火车站, 深圳宝安国际机场 / 深圳宝安机场), or a
    district with and without its level suffix (海淀区 / 海淀, 浦东新区 / 浦东) where the bare name is
    no division of its own (朝阳 is a city too: 朝阳 / 朝阳区 is not decided here)."""
    first, second = place_parts(a), place_parts(b)
    if first is not None and first == second and first[2] not in (None, DIVISION):
        return True
    return _suffix_dropped(a, b) or _suffix_dropped(b, a)


def _suffix_dropped(bare: str, suffixed: str) -> bool:
    return (suffixed in _district_names() and canonical_place(bare) is None
            and any(suffixed == bare + suffix for suffix in _words()[1]))


@functools.lru_cache(maxsize=None)
def _district_names() -> frozenset:
    """The gazetteer's divisions below a city as written after it (北京市海淀区 -> 海淀区): the
    table lists a district only with its city, since two cities may have one of that name."""
    names = set()
    for canonical in set(place_index().values()):
        for stop in range(2, len(canonical) - 1):
            if canonical_place(canonical[:stop]) not in (None, canonical):
                names.add(canonical[stop:])
    return frozenset(name for name in names if name.endswith(_words()[1]) and not name.startswith(_words()[1]))


def different_places_in(a: str, b: str, place_typed: bool) -> bool:
    """`different_places` of the texts, or of the places two free texts name where they differ
    (北京南站附近的酒店 / 北京站附近的酒店, 去上海虹桥机场 / 去上海浦东机场): the texts cut at the same
    place of the words they share before and after, so what is left of each names a place.
    Only stations and airports decide inside a text (a district may be written with or without
    its city: not read into a text here)."""
    if different_places(a, b, place_typed):
        return True
    shared_head = len(os.path.commonprefix([a, b]))
    shared_tail = min(len(os.path.commonprefix([a[::-1], b[::-1]])), len(a) - shared_head, len(b) - shared_head)
    endings = _facility_endings()
    for tail in range(shared_tail + 1):
        if not (a[:len(a) - tail].endswith(endings) and b[:len(b) - tail].endswith(endings)):
            continue   # a cut names a station or an airport only if it ends as one
        for head in range(shared_head + 1):
            first, second = a[head:len(a) - tail], b[head:len(b) - tail]
            if (first, second) != (a, b) and _facilities_apart(first, second):
                return True
    return False


@functools.lru_cache(maxsize=None)
def _facility_endings() -> tuple:
    return tuple(ending for ending, _kind in _words()[0])


def _facilities_apart(first: str, second: str) -> bool:
    found = place_parts(first), place_parts(second)
    return None not in found and found[0][2] not in (None, DIVISION) and found[1][2] not in (None, DIVISION) \
        and different_places(first, second, False)


def _apart(first: str, second: str) -> bool:
    """Two names that share no character (one may be empty: 北京站 beside 北京南站)."""
    return first != second and not set(first) & set(second)


@functools.lru_cache(maxsize=None)
def _words() -> tuple:
    table = read_toml(FACILITIES_FILE)
    endings = sorted(((ending, kind) for kind, listed in table["facilities"].items() for ending in listed),
                     key=lambda item: -len(item[0]))
    return tuple(endings), tuple(table["division_suffixes"])


def _ending(rest: str) -> tuple:
    """(name, kind) of what follows the city: 南站 -> (南, station), 虹桥 -> (虹桥, None)."""
    for ending, kind in _words()[0]:
        if rest.endswith(ending):
            return rest[:-len(ending)], kind
    return rest, None


def _without_level(name: str) -> str:
    for suffix in _words()[1]:
        if name.endswith(suffix) and len(name) > len(suffix):
            return name[:-len(suffix)]
    return name
