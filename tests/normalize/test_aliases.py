"""canonical_alias: one case per alias family, scoped tables, whole-value matching, conflicts."""

import pytest

from scorer.errors import InputError
from scorer.normalize.aliases import alias_index, canonical_alias
from scorer.normalize.text import fold_text


def lookup(value, tool=None, parameter=None):
    return canonical_alias(fold_text(value), tool, parameter)


@pytest.mark.parametrize("alias, canonical", [
    ("北京市", "北京"), ("Beijing", "北京"), ("PEKING", "北京"), ("京", "北京"),      # cities.tsv
    ("Xi'an", "西安"), ("New York City", "纽约"),
    ("CNY", "人民币"), ("rmb", "人民币"), ("元", "人民币"), ("US$", "美元"),          # currencies.tsv
    ("SF Express", "顺丰"), ("顺丰速运", "顺丰"), ("SF", "顺丰"),                     # express.tsv
    ("上海证券交易所", "上交所"), ("SSE", "上交所"),                                 # stock_markets.tsv
    ("首都机场", "北京首都国际机场"), ("PEK", "北京首都国际机场"),                     # airports.tsv
    ("北京南", "北京南站"),                                                         # stations.tsv
    ("北京首都國際機場", "北京首都国际机场"),     # lookup key is the folded alias
])
def test_global_aliases(alias, canonical):
    assert lookup(alias) == canonical   # canonical forms are written folded, as the lookup returns them


def test_canonical_maps_to_itself():
    assert lookup("北京") == "北京"


@pytest.mark.parametrize("value", [
    "北京",   # a city is not an airport: must stay 北京, never PEK's canonical
    "南京南",
])
def test_city_is_not_airport_or_station(value):
    assert lookup(value) not in ("北京首都国际机场", "北京南站")


def test_whole_value_only():
    assert lookup("北京市朝阳区") is None
    assert lookup("南京") == "南京"       # contains 京 but is not Beijing


def test_unknown_value():
    assert lookup("火星") is None


def test_scoped_table_applies_only_to_its_parameter():
    assert lookup("经济舱", "search_flights", "cabin_class") == "economy"
    assert lookup("经济舱", "search_trains", "seat_type") is None
    assert lookup("经济舱") is None
    assert lookup("二等", "search_trains", "seat_type") == "二等座"


def test_scoped_lookup_falls_back_to_global():
    assert lookup("北京市", "search_flights", "cabin_class") == "北京"


def test_alias_under_two_canonicals_is_an_error(tmp_path):
    (tmp_path / "aliases").mkdir()
    (tmp_path / "aliases" / "clash.tsv").write_text(
        "# version: 1\n# source: test\n# purpose: test\n顺丰\tSF\n旧金山\tsf\n", encoding="utf-8")
    with pytest.raises(InputError, match="'sf'"):
        alias_index(("aliases/clash.tsv",), str(tmp_path))
