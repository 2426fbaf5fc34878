"""fold_text: each step has a case that only that step makes equal, plus idempotence."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer.normalize.text import fold_text


@pytest.mark.parametrize("variant, plain", [
    ("１２", "12"),                          # NFKC: full-width digits
    ("ＳＦ１２３", "sf123"),                  # NFKC + case folding
    ("Beijing", "beijing"),                  # case folding
    ("STRASSE", "straße"),                   # full case folding, not lower(): ß -> ss
    ("乾隆", "乾隆"),                          # traditional -> simplified keeps a proper name
    ("北京首都國際機場", "北京首都国际机场"),      # traditional -> simplified
    ("  new   york ", "new york"),           # whitespace collapse and strip
    ("北京 朝阳区", "北京朝阳区"),               # no space between Han characters
    ("今天天气怎么样。", "今天天气怎么样"),        # trailing full stop dropped
    ("真的吗？！", "真的吗"),                    # trailing marks (full width via NFKC) dropped
    ("《晴天》", "晴天"),                       # book-title marks around a whole value
    ("「晴天」", "晴天"),                       # corner quotes -> '"' -> unwrapped
    ("“七里香”", "七里香"),                     # curly quotes unwrapped
    ("周杰伦—晴天", "周杰伦-晴天"),               # dashes unified
    ("迈克尔・杰克逊", "迈克尔·杰克逊"),           # middle dots unified
    ("北京、上海", "北京,上海"),                 # ideographic comma
])
def test_variant_folds_like_plain(variant, plain):
    assert fold_text(variant) == fold_text(plain)


def test_casefold_is_full_folding():
    assert fold_text("STRASSE") == "strasse" == fold_text("straße")


def test_inner_punctuation_is_kept():
    assert fold_text("3.5") == "3.5"
    assert fold_text("u.s. dollar") == "u.s. dollar"


def test_distinct_values_stay_distinct():
    assert fold_text("北京") != fold_text("南京")
    assert fold_text("new york") != fold_text("newyork")


_ALPHABET = st.sampled_from(
    list("abcXYZ 019,.!?。！？，、“”「」『』《》〈〉—–-・·　\t\n\"'")
    + list("北京乾隆後天髮發臺灣國際機場麵裡著干幹於週雲餘係繫ＡＢ１２ßǰﬁ…")
)


@settings(max_examples=400, deadline=None)
@given(st.one_of(st.text(), st.text(alphabet=_ALPHABET)))
def test_idempotent(value):
    once = fold_text(value)
    assert fold_text(once) == once


def test_spaces_between_han_go_for_every_han_block():
    # U+20BB7 (Extension B) is a Han character as much as 野; ䷀ (U+4DC0, a Yijing hexagram
    # symbol between Extension A and the main block) is not.
    assert fold_text("\U00020bb7 野家") == "\U00020bb7野家"
    assert fold_text("䷀ 野") == "䷀ 野"


def test_traditional_characters_that_t2s_maps_twice_fold_in_one_step():
    assert fold_text("薴麻") == fold_text(fold_text("薴麻")) == "苎麻"   # t2s: 薴 -> 苧 -> 苎
