"""Writes the generated alias tables rules/aliases/cldr_*.tsv and iata_airports.tsv: the names
tool calls give most (languages, currencies, countries and territories, cities, airports) in
Chinese and in English, so that 日本 = Japan and 德国 / France are decided, not left to a judge.

    pip install babel==2.19.0 airportsdata==20260905   # the `names` extra
    python bench/make_names_table.py

Sources: CLDR through babel (Unicode license): the zh and en display names of languages (ISO 639
codes of two or three letters, named in both), currencies (ISO 4217 codes) and territories
(ISO 3166 alpha-2 regions: their codes are left out, since `de` is German and Germany; and the
UN M.49 continents and regions, 非洲 = Africa), and the
exemplar cities of the time zones (Asia/Tokyo: 东京, Tokyo). airportsdata (MIT): the IATA code
and name of each airport; no Chinese names, so it links codes to names, never a city to its
airport.

One row per thing, its Chinese name first (the canonical form), then its English name and its
code, written folded as the loader reads them. The hand-written global tables come first: a row
whose Chinese or English name they list, or whose code the table of its family lists, takes
their canonical form (港元, HKD: 港币; NRT: 东京成田国际机场), and a name or code they give another
thing is left out of the row (la: LA is Los Angeles in cities.tsv, not Latin). A
name two generated rows give different things (Newcastle Airport: two airports; AMD: the
Armenian dram and Ahmedabad's airport) is left out of both, as the places table does, and a
row left with one name is dropped. Deterministic: rows in the sources' code order, families in
a fixed order; tests/rules/test_names_tables.py regenerates them and compares bytes.
"""

import io
import re
import sys
from collections import defaultdict
from importlib import metadata
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from scorer.normalize.aliases import alias_index  # noqa: E402
from scorer.normalize.text import fold_text  # noqa: E402
from scorer.rules import list_files  # noqa: E402

RULES = Path(__file__).resolve().parent.parent / "rules"
PACKAGES = ("babel", "airportsdata")
_LANGUAGE_CODE = re.compile(r"^[a-z]{2,3}$")
_CURRENCY_CODE = re.compile(r"^[A-Z]{3}$")
_REGION_CODE = re.compile(r"^[A-Z]{2,3}$")
_NOT_A_REGION = {"ZZ", "EU", "EZ", "UN", "XA", "XB"}   # unknown, unions and pseudo-regions


def languages():
    from babel import Locale

    zh, en = Locale("zh").languages, Locale("en").languages
    return [([zh[code], en[code]], [code]) for code in sorted(zh) if _LANGUAGE_CODE.match(code) and code in en]


def currencies():
    from babel import Locale

    zh, en = Locale("zh").currencies, Locale("en").currencies
    return [([zh[code], en[code]], [code]) for code in sorted(zh) if _CURRENCY_CODE.match(code) and code in en]


def territories():
    """Names and codes: ISO 3166 alpha-2, and the codes CLDR's territory aliases replace by it
    alone (alpha-3 CHN, UK for GB); then the continents and regions of UN M.49 by name only (002:
    非洲, Africa; nobody writes the number)."""
    from babel import Locale
    from babel.core import get_global

    zh, en = Locale("zh").territories, Locale("en").territories
    replaced = defaultdict(list)
    for old, new in sorted(get_global("territory_aliases").items()):
        if len(new) == 1 and _REGION_CODE.match(old):
            replaced[new[0]].append(old)
    countries = [([zh[code], en[code]], [code] + replaced[code]) for code in sorted(zh)
                 if len(code) == 2 and _REGION_CODE.match(code) and code not in _NOT_A_REGION and code in en]
    return countries + [([zh[code], en[code]], []) for code in sorted(zh) if code.isdigit() and code in en]


def zone_cities():
    from babel.core import get_global
    from babel.dates import get_timezone_location

    return [([get_timezone_location(zone, locale=language, return_city=True) for language in ("zh", "en")], [])
            for zone in sorted(get_global("zone_territories")) if "/" in zone and not zone.startswith("Etc/")]


def airports():
    import airportsdata

    found = airportsdata.load("IATA")
    return [([found[code]["name"]], [code]) for code in sorted(found) if found[code]["name"]]


# aliases/ file -> (the rows' source, what they list, the hand-written table whose codes are these codes)
FAMILIES = {
    "cldr_languages.tsv": (languages, "CLDR language names (zh, en) and ISO 639 codes", None),
    "cldr_currencies.tsv": (currencies, "CLDR currency names (zh, en) and ISO 4217 codes", "currencies.tsv"),
    "cldr_territories.tsv": (territories, "CLDR country and territory names (zh, en) and codes", None),
    "cldr_zone_cities.tsv": (zone_cities, "CLDR exemplar cities of the time zones (zh, en)", None),
    "iata_airports.tsv": (airports, "airport names and IATA codes (airportsdata; English only)", "airports.tsv"),
}
# the families also written to enums/, each alone: an enum of language codes reads `fr` as French,
# which the global tables leave out (it is France too)
ENUM_FAMILIES = ("cldr_languages.tsv", "cldr_currencies.tsv")
_AGAINST_ALL = "names the hand-written tables give another thing, or two things share, are left out"
_AGAINST_ITS_OWN = "names two of its rows share are left out (the global tables are not consulted)"


def hand_written() -> dict:
    """folded name -> canonical over the hand-written global alias tables (the generated ones
    are not read: they are what is being made)."""
    return alias_index(tuple(f for f in list_files("aliases", ".tsv") if f.rsplit("/", 1)[-1] not in FAMILIES))


def build() -> dict:
    """path under rules/ -> text of each generated table."""
    hand = hand_written()
    rows = {name: _rows(source, hand, coded) for name, (source, _about, coded) in FAMILIES.items()}
    tables = {f"aliases/{name}": text for name, text in _tables(rows, _AGAINST_ALL).items()}
    for name in ENUM_FAMILIES:
        tables[f"enums/{name}"] = _tables({name: _rows(FAMILIES[name][0], {}, None)}, _AGAINST_ITS_OWN)[name]
    return tables


def _rows(source, hand: dict, coded) -> list:
    """[[canonical, names...]] of one family: a row whose name the hand-written tables list takes
    their canonical form, or whose code the family's own table lists (LA is Los Angeles, not
    Latin); names they give another thing are left out."""
    codes = alias_index((f"aliases/{coded}",)) if coded else {}
    found = []
    for names, own_codes in source():
        names = [folded for folded in map(fold_text, names) if folded]
        own_codes = [fold_text(code) for code in own_codes]
        listed = {hand[n] for n in names if n in hand} | {codes[code] for code in own_codes if code in codes}
        canonical = listed.pop() if len(listed) == 1 else names[0]
        names = dict.fromkeys(names + own_codes)
        found.append([canonical] + [n for n in names if n != canonical and hand.get(n, canonical) == canonical])
    return found


def _tables(rows: dict, left_out: str) -> dict:
    """file -> text, names that two things claim left out (a row whose own name is, dropped)."""
    claimed = defaultdict(list)   # name -> (family, canonical) of each row giving it
    for name, family in rows.items():
        for row in family:
            for n in row:
                claimed[n].append((name, row[0]))
    tables = {}
    for name, family in rows.items():
        kept = []
        for canonical, *names in family:
            if _one_thing(claimed[canonical]):
                names = [n for n in names if _one_thing(claimed[n])]
                if names:
                    kept.append("\t".join([canonical] + names))
        tables[name] = _header(FAMILIES[name][1], left_out) + "\n".join(kept) + "\n"
    return tables


def _one_thing(claims: list) -> bool:
    """A name every row giving it gives one canonical form, from one row per family: two rows of
    one family are two things (three airports called Newcastle Airport), while a country and
    a city of one name in both languages (巴拿马, Panama) read the same either way."""
    families = {family for family, _canonical in claims}
    return len({canonical for _family, canonical in claims}) == 1 and len(families) == len(claims)


def _header(about: str, left_out: str) -> str:
    versions = ", ".join(f"{package} {metadata.version(package)}" for package in PACKAGES)
    return ("# version: 1\n"
            f"# source: generated by bench/make_names_table.py from {versions}; do not edit by hand\n"
            f"# purpose: {about}: canonical (the Chinese name) <TAB> names of the same thing, folded;\n"
            f"#   {left_out}\n")


def main() -> int:
    for name, text in build().items():
        with io.open(RULES / name, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
        print(f"{RULES / name}: {text.count(chr(10)) - 4} rows")
    return 0


if __name__ == "__main__":
    sys.exit(main())
