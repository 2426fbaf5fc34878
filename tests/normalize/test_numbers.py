"""parse_number / number_key / parse_bool: each written form and each grammar rule."""

from decimal import Decimal

import pytest

from scorer.normalize.numbers import number_key, parse_bool, parse_number


@pytest.mark.parametrize("value, expected", [
    (3, "3"), (3.0, "3"), ("3", "3"), ("3.0", "3"), ("3.50", "3.5"),
    ("1,000", "1000"), ("12,345.6", "12345.6"),    # grouping separators
    ("１２", "12"),                                 # full width (NFKC)
    ("-3", "-3"), ("+3", "3"), ("负三", "-3"),
    ("1e3", "1000"),
    ("1.5万", "15000"), ("1.5千", "1500"), ("3亿", "300000000"), ("3千万", "30000000"),
    ("三", "3"), ("两", "2"), ("兩", "2"), ("俩", "2"), ("零", "0"),
    ("十", "10"), ("十二", "12"), ("二十", "20"), ("三百五十", "350"),
    ("一千零五", "1005"), ("一万零五百", "10500"), ("一亿二千万", "120000000"), ("十万", "100000"),
    ("一百二", "120"), ("三千五", "3500"), ("一万五", "15000"),   # colloquial elision
    ("二〇二六", "2026"), ("一二三", "123"),                       # digit by digit
    ("三点五", "3.5"), ("三点一四", "3.14"),
    ("叁佰", "300"),                                              # financial numerals
    ("1万2千", "12000"),
])
def test_numbers(value, expected):
    parsed = parse_number(value)
    assert parsed is not None, value
    assert number_key(parsed) == expected


@pytest.mark.parametrize("value", [
    "三星", "abc", "", "万", "十百", "百分之五", "5%", "1,00", "3点", "nan", "inf",
    True, False, None, float("nan"), float("inf"), [3],
])
def test_not_numbers(value):
    assert parse_number(value) is None


def test_number_key_has_no_exponent_or_negative_zero():
    assert number_key(Decimal("1.50E+4")) == "15000"
    assert number_key(Decimal("-0.0")) == "0"
    assert number_key(Decimal("0.000")) == "0"


def test_every_digit_of_a_long_number_counts():
    """A number is read exactly, not rounded to the 28 digits of Python's default decimal context:
    two 32-digit numbers differ, and the text and the JSON integer of one are one number."""
    first, second = "12345678901234567890123456789012", "12345678901234567890123456789013"
    assert number_key(parse_number(first)) == first != number_key(parse_number(second))
    assert number_key(parse_number(int(first))) == first
    assert number_key(parse_number("-" + first)) == "-" + first


@pytest.mark.parametrize("written, expected", [
    ("一万亿", "1000000000000"), ("十万亿", "10000000000000"), ("3万亿", "3000000000000"),   # 万亿 = 10^12
    ("一万亿零三", "1000000000003"), ("三万亿五千万", "3000050000000"), ("一万亿三千亿", "1300000000000"),
    ("三万五千亿", "3500000000000"),                        # read as before: 亿 after 三万五千
])
def test_a_larger_unit_right_after_the_highest_multiplies_it(written, expected):
    """万亿 is how Chinese writes a trillion; it read as no number (亿 found nothing to multiply)."""
    assert number_key(parse_number(written)) == expected


@pytest.mark.parametrize("written", ["万亿", "一亿亿", "一万万", "五亿万亿"])
def test_stacked_units_without_a_number_or_out_of_order_are_not_numbers(written):
    assert parse_number(written) is None


def test_chinese_digits_after_the_point_are_all_kept():
    pi = "三点一四一五九二六五三五八九七九三二三八四六二六四三三八三二七九五零二八八四一九七"
    assert number_key(parse_number(pi)) == "3.141592653589793238462643383279502884197"   # 40 digits, not 28


def test_an_exponent_past_plain_notation_is_read_without_overflow():
    """1e4000000 overflowed the decimal context (a row's scoring_error) and 1e999999 made a key of
    a million digits: past 1000 digits a key is in normalized E notation, one per number."""
    assert number_key(parse_number("1e4000000")) == "1E+4000000" == number_key(parse_number("10e3999999"))
    assert number_key(parse_number("-1e4000000")) == "-1E+4000000"
    assert number_key(parse_number("1e-4000000")) == "1E-4000000"
    assert number_key(parse_number("1e1000")) == "1" + "0" * 1000      # 1000 digits after the first: plain
    assert number_key(parse_number("0e4000000")) == "0" == number_key(parse_number("-0e-4000000"))


@pytest.mark.parametrize("value, expected", [
    (True, True), (False, False), (1, True), (0, False), (1.0, True),
    ("true", True), ("TRUE", True), ("yes", True), ("1", True), ("是", True), ("对", True), ("開", True),
    ("false", False), ("No", False), ("0", False), ("否", False), ("错", False), ("關閉", False),
])
def test_booleans(value, expected):
    assert parse_bool(value) is expected


@pytest.mark.parametrize("value", [2, "maybe", "", None, "三"])
def test_not_booleans(value):
    assert parse_bool(value) is None


@pytest.mark.parametrize("value, expected", [("٣", Decimal(3)), ("३५", Decimal(35)), ("፩", None), ("三፩", None)])
def test_digits_of_other_scripts_are_read_when_they_are_decimal_digits(value, expected):
    """Arabic-Indic and Devanagari digits are decimal digits; Ethiopic ፩ is a digit character
    but no decimal one (it once raised InvalidOperation and made the row a scoring error)."""
    assert parse_number(value) == expected


def test_the_character_check_before_the_grammar_turns_away_no_number():
    """`could_be_number` turns a text away without the grammar: over texts mixing numerals,
    units, signs, digits of several scripts, letters and Han, the grammar finds no number in
    any text it turns away, and finds the numbers it lets through."""
    import random

    from scorer.normalize.numbers import _read_number, could_be_number

    rnd = random.Random(3)
    pieces = list("0123456789.,e+- 负正点零〇一二两三四五六七八九十百千万亿壹贰拾佰仟北京市rxE٣३፩²") + ["1,000", "1.5", "三百五十"]
    turned_away = let_through = 0
    for _ in range(20000):
        text = "".join(rnd.choice(pieces) for _ in range(rnd.randint(1, 8)))
        if could_be_number(text):
            let_through += _read_number(text) is not None
        else:
            turned_away += 1
            assert _read_number(text) is None, text
    assert turned_away > 1000 and let_through > 100
