"""When two folded texts whose keys differ are still equal, different, or for a judge to decide.

Enum values are never scored by similarity: two members (or values a table links to members:
商务舱 = business) differ; a value that is no member and that no table links to one is left to
a judge (normalize/enums.py). For texts, the policy, in order (each step a reason a similarity
score cannot be trusted):
0. Two values that alias or place tables both list, under different canonical names, are
   different things (张家口 / 张家界; the airport PEK / the city 北京), however alike.
   Two places of the gazetteer's cities that its names and the endings of station and airport
   names tell apart are different (北京南站 / 北京站, 北京 / 北京站; in a place-typed parameter
   also 上海虹桥 / 上海浦东: normalize/places.py), and so are two free texts whose words differ
   where they name two such stations or airports (北京南站附近的酒店 / 北京站附近的酒店). One station
   or airport with two endings of its kind (上海虹桥站 / 上海虹桥火车站) and a district with and
   without its level suffix (海淀区 / 海淀) are one place: equal.
1. Texts naming different times differ, however alike (the times were resolved in them).
2. Identifiers are never fuzzy: the digit runs and the codes of a text (`code_tokens`:
   tracking and flight numbers, phone numbers, IPs, street numbers, amounts) must agree
   exactly, or the texts differ. `YT8837465521` vs `YT8837465522` is one edit, ratio 92, and
   a different parcel. Hyphens and spaces inside a number are only formatting
   (`138-0013-8000` = `13800138000`); dots and colons are not (`192.168.1.1`).
   When only one side has a code token, the texts differ, unless the other side writes a
   number in words (建国路八十八号, "eighty-eight"): then a judge decides.
   In a parameter that holds identifiers (scorer/normalize/identifiers.py) the formatting is
   already gone from the key, so two identifiers whose keys differ are different (G7 / D7); so are
   two quantities (a text that is a number and a unit, normalize/units.py: 300 AUD / 300 CAD).
   An amount's trailing zeros inside a text are no digits (报销1200.50港币 = 报销1200.5港币). An
   amount written with a sign several currencies share ($50, ¥200: rules/currency_signs.toml)
   against the same number in one of them (50美元, 200元) is for a judge, else different.
3. Texts that differ only by a negator or an antonym (不加冰 / 加冰, 有线 / 无线) differ, however
   alike; two that differ only by two ways of saying one thing (去冰 / 不加冰) are equal
   (normalize/negation.py, words in rules/negation.toml).
4. A Han-script text against a Latin-script one (莫文蔚 / Karen Mok) cannot be compared
   character by character: equal only through an alias rule (their keys would then be
   equal; 日本 / Japan by the tables generated from CLDR), different when the tables link
   both to different things (德国 / France: step 0), otherwise a judge decides, never
   "different" by a score. Texts are compared as written: an alias that turned `Berlin` into
   柏林 does not make `Berlin, Germany` cross-script.
5. Two people's names (by the parameter: schema.names_person) one edit apart (王芳 / 王芳芳,
   Jon / John Smith) go to a judge: neither a typo nor another person without knowing who is meant.
6. Natural-language text: rapidfuzz's normalized Indel ratio. At or above `fuzzy_high` it is
   equal when what differs is only typos (`typo_only`: as many words, one edit in each
   differing word: `Kowloon Tong` / `Kowlon Tong`, `house price` / `house prices`, `88号院` /
   `88号`): with every digit and code equal, that is a slip of the keyboard, not another value.
   A word added or dropped, two edits in a word (Jaume / James), or a changed letter in a
   short word (John / Joan: another person as often as a spelling) goes to a judge. Below
   `fuzzy_low` different; between, a judge decides.
"""

import functools
import re

from rapidfuzz import fuzz
from rapidfuzz.distance import OSA

from scorer import match_py as m
from scorer.normalize import FUZZY, PERSON, TOLERANCE, Canon
from scorer.normalize.identifiers import IDENTIFIER_RULE
from scorer.normalize.negation import OPPOSITE, negation_relation
from scorer.normalize.units import QUANTITY_RULE, fold_amounts, signed_amount
from scorer.normalize.enums import NOT_MEMBER_RULE
from scorer.normalize.places import different_places_in, same_place
from scorer.script import HAN

TYPO_MIN_LENGTH = 6
EXACT_RULES = frozenset((IDENTIFIER_RULE, QUANTITY_RULE))   # keys that leave nothing to a similarity score
TIME_MARK = re.compile(r"<-?\d+/-?\d+/\d+>")  # a time resolved inside a free text (temporal.mark_in_text)
_FORMATTING = re.compile(r"(?<=\d)[- ](?=\d)|(?<=[0-9a-z])-(?=[0-9a-z])")
_ALNUM = re.compile(r"[0-9a-z]+")
_DIGITS = re.compile(r"\d+")
_NUMBER_WORDS = re.compile(r"[〇零一二两三四五六七八九十百千万亿]|\b(?:zero|one|two|three|four|five|six|seven|"
                           r"eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|sixty|seventy|eighty|"
                           r"ninety|hundred|thousand|million)\b")
_LATIN = re.compile(r"[a-z\u00c0-\u024f]")


def pair_status(param, gold: Canon, pred: Canon, options) -> int:
    """m.PAIR_EQUAL / PAIR_UNCERTAIN / PAIR_DIFFERENT for two values whose keys differ."""
    if gold.flags & TOLERANCE and pred.flags & TOLERANCE:
        return m.PAIR_EQUAL if abs(gold.number - pred.number) <= param.tolerance else m.PAIR_DIFFERENT
    return _text_pair(gold, pred, options.fuzzy_high, options.fuzzy_low, param.place)[0]


def uncertain_cause(gold: Canon, pred: Canon, options) -> str:
    """Why two texts were left to a judge, in words for the verdict's detail: the same rules as
    `pair_status`, so the detail never names a band the pair was not in."""
    return _text_pair(gold, pred, options.fuzzy_high, options.fuzzy_low, False)[1]


@functools.lru_cache(maxsize=1 << 16)
def _text_pair(gold: Canon, pred: Canon, fuzzy_high: float, fuzzy_low: float, place_typed: bool) -> tuple[int, str]:
    """(status, why) for two texts whose keys differ; `why` is said only of uncertain pairs.
    A pair found different only in a place-typed parameter is never asked its cause. Memoized:
    a pair left to a judge is read again for its verdict's words (its detail, its reason)."""
    if not (gold.flags & FUZZY and pred.flags & FUZZY):
        return m.PAIR_DIFFERENT, ""
    if gold.key[:2] == pred.key[:2] == "e:":
        return _enum_pair(gold, pred)
    if gold.written and pred.written:
        return m.PAIR_DIFFERENT, ""   # two names the tables know apart (张家口 / 张家界, PEK / 北京)
    if both_exact(gold, pred):
        return m.PAIR_DIFFERENT, ""
    gold_text, pred_text = _plain(gold), _plain(pred)
    signed = _signed_pair(gold, pred, gold_text, pred_text)
    if signed is not None:
        return signed
    if different_places_in(gold_text, pred_text, place_typed):
        return m.PAIR_DIFFERENT, ""   # 北京南站 / 北京站, 北京 / 北京站, 上海虹桥 / 上海浦东 as places; 北京南站附近 / 北京站附近
    if same_place(gold_text, pred_text):
        return m.PAIR_EQUAL, ""       # 上海虹桥站 / 上海虹桥火车站, 海淀区 / 海淀
    if TIME_MARK.findall(gold.key) != TIME_MARK.findall(pred.key):
        return m.PAIR_DIFFERENT, ""
    gold_codes, pred_codes = code_tokens(gold_text), code_tokens(pred_text)
    if gold_codes != pred_codes:
        one_sided = not gold_codes[0] or not pred_codes[0]
        spelled = _NUMBER_WORDS.search(gold_text if not gold_codes[0] else pred_text)
        if one_sided and spelled:
            return m.PAIR_UNCERTAIN, "a number written in words on one side, in digits on the other"
        return m.PAIR_DIFFERENT, ""
    negated = negation_status(gold_text, pred_text)
    if negated is not None:
        return negated, ""
    if _cross_script(gold_text, pred_text):
        return m.PAIR_UNCERTAIN, "Latin and Han script, and no alias links them"
    if near_miss_names(gold, pred, gold_text, pred_text):
        return m.PAIR_UNCERTAIN, "people's names one edit apart: the same person misspelt or another"
    score = fuzz.ratio(gold_text, pred_text)
    if score >= fuzzy_high:
        if typo_only(_FORMATTING.sub("", gold_text), _FORMATTING.sub("", pred_text)):
            return m.PAIR_EQUAL, ""
        return m.PAIR_UNCERTAIN, f"similarity {score:.0f}, at least {fuzzy_high:g}, but more than a typo apart"
    if score < fuzzy_low:
        return m.PAIR_DIFFERENT, ""
    return m.PAIR_UNCERTAIN, f"similarity {score:.0f}, between {fuzzy_low:g} and {fuzzy_high:g}"


def both_exact(gold: Canon, pred: Canon) -> bool:
    """Two identifiers whose letters and digits differ (G7 / D7), or two quantities whose number or
    unit does (300 AUD / 300 CAD), are two values, however alike; one against a text (`国航CA1234`)
    is compared as texts are."""
    return gold.rule in EXACT_RULES and pred.rule in EXACT_RULES


def _signed_pair(gold: Canon, pred: Canon, gold_text: str, pred_text: str) -> tuple | None:
    """An amount written with a sign several currencies share ($50, ¥200) against a quantity:
    the same number in a currency the sign may name is for a judge (50美元: the US dollar, or
    another?), another number or currency is different; two such amounts are equal when their
    numbers and signs are ($50 / $50.00); None when neither is such a pair. The texts: `_plain`'s."""
    amounts = signed_amount(gold_text), signed_amount(pred_text)
    if None not in amounts:
        return (m.PAIR_EQUAL if amounts[0] == amounts[1] else m.PAIR_DIFFERENT), ""
    for amount, other in ((amounts[0], pred), (amounts[1], gold)):
        if amount is not None and other.rule == QUANTITY_RULE:
            number, _space, currency = other.key[2:].partition(" ")
            if number == amount[0] and currency in amount[1]:
                return m.PAIR_UNCERTAIN, "a currency sign that several currencies share"
            return m.PAIR_DIFFERENT, ""
    return None


def negation_status(gold_text: str, pred_text: str) -> int | None:
    """PAIR_DIFFERENT for texts that differ by a negator or an antonym (不加冰 / 加冰), PAIR_EQUAL
    for two ways of saying one thing (去冰 / 不加冰), None where the negation rule says nothing."""
    relation = negation_relation(gold_text, pred_text)
    if relation is None:
        return None
    return m.PAIR_DIFFERENT if relation == OPPOSITE else m.PAIR_EQUAL


def near_miss_names(gold: Canon, pred: Canon, gold_text: str, pred_text: str) -> bool:
    """Two people's names one edit apart (王芳 / 王芳芳, 张伟 / 张玮, Jon / John Smith): without
    knowing who is meant that is neither a typo nor another person, so a judge decides."""
    return bool(gold.flags & pred.flags & PERSON) and OSA.distance(gold_text, pred_text) <= 1


def _enum_pair(gold: Canon, pred: Canon) -> tuple[int, str]:
    """Two members of an enum (or values tables link to members) differ; a value that is no
    member and that no table links to one may still mean one, so a judge decides."""
    if NOT_MEMBER_RULE in (gold.rule, pred.rule):
        return m.PAIR_UNCERTAIN, "not a member of the enum, and no table links it to one"
    return m.PAIR_DIFFERENT, ""


def typo_only(a: str, b: str) -> bool:
    """As many words, and each word that differs is a typo: one edit (a character added,
    dropped, changed, or two swapped). A letter added or dropped is a typo in a word of three
    or more (`price`/`prices`), a sign in any word (`2x`/`2*x`); one changed or swapped only in a word of
    TYPO_MIN_LENGTH or more (`Kowlon`/`Kowloon`, `kilometers`/`kilometres`), because in a shorter
    word it too often makes another word or another person (John/Joan, Mark/Mary)."""
    words_a, words_b = a.split(), b.split()
    return len(words_a) == len(words_b) and all(_typo(x, y) for x, y in zip(words_a, words_b))


def _typo(x: str, y: str) -> bool:
    if x == y:
        return True
    if OSA.distance(x, y) > 1:
        return False
    shorter, longer = sorted((x, y), key=len)
    if len(shorter) == len(longer):
        return len(shorter) >= TYPO_MIN_LENGTH
    added = next((char for i, char in enumerate(longer) if longer[:i] + longer[i + 1:] == shorter), "")
    return len(shorter) >= 3 or not added.isalnum()   # 2x / 2*x: a sign, not a letter


@functools.lru_cache(maxsize=1 << 16)
def code_tokens(text: str) -> tuple:
    """What must agree exactly between two folded texts: the digit runs, in order, and the codes
    (tokens of three or more letters and digits holding both: YT8837465521, CA1501, G1025), in
    order. A hyphen or a space between two digits, and a hyphen inside a code, is formatting
    (138-0013-8000, ORD-2026-0304); dots, colons and slashes separate (192.168.1.1, 1/2). An
    algebraic `3x` is not a code, so `3x**2` and `3*x**2` still meet by similarity."""
    joined = _FORMATTING.sub("", text)
    codes = [token for token in _ALNUM.findall(joined)
             if len(token) >= 3 and not token.isdigit() and any(char.isdigit() for char in token)]
    return tuple(_DIGITS.findall(joined)), tuple(codes)


def _cross_script(a: str, b: str) -> bool:
    """One text written in Han characters only, the other in Latin letters only."""
    a_han, b_han = bool(HAN.search(a)), bool(HAN.search(b))
    a_latin, b_latin = bool(_LATIN.search(a)), bool(_LATIN.search(b))
    return (a_han and not a_latin and b_latin and not b_han) or (b_han and not b_latin and a_latin and not a_han)


def _plain(canon: Canon) -> str:
    """The folded text a value was written in (before an alias replaced it: `Berlin` is
    compared as written, not as its canonical 柏林), without resolved-time marks (their markers
    are long and would make any two texts look alike), its amounts without trailing zeros."""
    return _plain_text(canon.written or canon.key[2:])


@functools.lru_cache(maxsize=1 << 16)
def _plain_text(text: str) -> str:
    """`_plain` of a text, once per text: a gold value meets many predicted ones."""
    return fold_amounts(TIME_MARK.sub("", text))
