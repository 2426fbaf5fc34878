"""rules/aliases/cldr_*.tsv and iata_airports.tsv: generated from CLDR (babel) and airportsdata
(regenerated and compared byte for byte when the generator's pinned sources are installed),
written folded, and never giving one name two things."""

import importlib.util
import re
import sys
from importlib import metadata
from pathlib import Path

import pytest

from scorer.normalize.aliases import GENERATED_PREFIXES, alias_index, global_files
from scorer.normalize.text import fold_text
from scorer.rules import list_files, read_tsv, rules_dir

BENCH = Path(__file__).resolve().parents[2] / "bench"
GENERATED = sorted(f for f in global_files() + tuple(list_files("enums", ".tsv"))
                   if f.rsplit("/", 1)[-1].startswith(GENERATED_PREFIXES))


def _generator():
    sys.path.insert(0, str(BENCH))
    try:
        import make_names_table
    finally:
        sys.path.remove(str(BENCH))
    return make_names_table


def test_regenerating_gives_the_committed_files():
    for package in ("babel", "airportsdata"):
        if importlib.util.find_spec(package) is None:
            pytest.skip(f"{package} (the `names` extra) is not installed")
    installed = tuple(metadata.version(package) for package in ("babel", "airportsdata"))
    header = (rules_dir() / GENERATED[0]).read_text(encoding="utf-8").splitlines()[1]
    recorded = re.search(r"babel (\S+), airportsdata (\S+);", header).groups()
    if recorded != installed:
        pytest.skip(f"the tables were made with babel/airportsdata {recorded}, installed {installed}")
    built = _generator().build()
    assert sorted(built) == GENERATED
    for name, text in built.items():
        assert text == (rules_dir() / name).read_text(encoding="utf-8"), name


@pytest.mark.parametrize("relative", GENERATED)
def test_every_name_is_written_folded(relative):
    for row in read_tsv(relative):
        for name in row:
            assert fold_text(name) == name, (relative, name)


def test_the_global_tables_load_together():
    # an alias two canonical forms claim would raise InputError here
    assert len(alias_index(global_files())) > 15000


@pytest.mark.parametrize("name, canonical", [
    ("japan", "日本"), ("germany", "德国"), ("tokyo", "东京"), ("french", "法语"),
    ("swiss franc", "瑞士法郎"), ("港元", "港币"),   # a name the hand-written table lists takes its canonical form
    ("pek", "北京首都国际机场"), ("la", "洛杉矶"),   # LA is Los Angeles in cities.tsv: never Latin (拉丁语)
    ("cn", "中国"), ("jpn", "日本"), ("gb", "英国"), ("zh", "中文"),   # codes no other thing has
])
def test_names_link_to_the_thing(name, canonical):
    assert alias_index(global_files())[name] == canonical


@pytest.mark.parametrize("shared", [
    "newcastle airport", "ncl", "ntl",   # three airports of one name: neither the name nor their codes
    "amd",                               # the Armenian dram and Ahmedabad's airport
    "de", "fr", "uk",                    # German and Germany, French and France, Ukrainian and the UK
    "usa", "chn",                        # the US and an airport, China and Chinook Jargon's code
])
def test_a_name_two_things_share_is_left_out(shared):
    assert shared not in alias_index(global_files())


def test_an_enum_table_keeps_the_codes_the_global_tables_leave_out():
    languages = alias_index(("enums/cldr_languages.tsv",))
    assert languages["fr"] == languages["法语"] == languages["french"]
    assert languages["de"] == languages["德语"]
