"""Negation and antonyms: two texts that differ only by a negator (不加冰 / 加冰) or by the two
sides of an antonym pair (有线 / 无线) say opposite things, however alike they look; two that
differ only by two ways of saying one thing (去冰 / 不加冰) are equal. The words are data in
rules/negation.toml, with the words where the character negates nothing (非常, 无锡, 不丹, 未来),
and the English prefixes that negate a word (unpaid / paid).

The texts are compared as tokens (each Han character, each run of Latin letters or digits): what
the two share at the start and at the end is set aside, and the rule reads what is left of each."""

import functools
import re

from scorer.rules import read_toml
from scorer.script import HAN_RANGES

OPPOSITE, SAME = "opposite", "same"
_TOKEN = re.compile(f"[0-9a-z\u00c0-\u024f]+|[{HAN_RANGES}]")


def negation_relation(a: str, b: str) -> str | None:
    """OPPOSITE, SAME or None (the rule says nothing) for two folded texts."""
    tokens_a, tokens_b = _tokens(a), _tokens(b)
    start = _shared_start(tokens_a, tokens_b)
    end = _shared_start(tokens_a[start:][::-1], tokens_b[start:][::-1])
    if start + end == 0:
        return None   # nothing in common: a negator alone is no negated text
    left_a, left_b = tokens_a[start:len(tokens_a) - end], tokens_b[start:len(tokens_b) - end]
    opposite, same, guards = _words()
    pair = frozenset((left_a, left_b))
    relation = OPPOSITE if pair in opposite else SAME if pair in same else None
    if relation is None or _inside_another_word(tokens_a, start, len(left_a), guards) or \
            _inside_another_word(tokens_b, start, len(left_b), guards):
        return None
    return relation


def _tokens(text: str) -> tuple:
    """The tokens of a folded text, a Latin word that starts with a negating prefix read as the
    prefix (marked `un-`, so no written word is it) and the rest: unpaid -> un-, paid."""
    prefixes = _prefixes()
    found = []
    for token in _TOKEN.findall(text):
        prefix = next((prefix for prefix in prefixes if token.startswith(prefix)
                       and len(token) - len(prefix) >= _MIN_REST and token[len(prefix):].isalpha()), None)
        found.extend((prefix + "-", token[len(prefix):]) if prefix else (token,))
    return tuple(found)


_MIN_REST = 3


@functools.lru_cache(maxsize=None)
def _prefixes() -> tuple:
    """The negating prefixes of rules/negation.toml, longest first (non before no)."""
    return tuple(sorted(read_toml("negation.toml")["negating_prefixes"], key=len, reverse=True))


def _shared_start(a: tuple, b: tuple) -> int:
    shared = 0
    for x, y in zip(a, b):
        if x != y:
            break
        shared += 1
    return shared


def _inside_another_word(tokens: tuple, start: int, length: int, guards: tuple) -> bool:
    """Whether one of the not-negation words covers a token of tokens[start:start + length]."""
    if not length:
        return False
    for word in guards:
        for first in range(max(0, start - len(word) + 1), min(start + length, len(tokens) - len(word) + 1)):
            if tokens[first:first + len(word)] == word:
                return True
    return False


@functools.lru_cache(maxsize=None)
def _words() -> tuple:
    """(opposite pairs, same pairs, not-negation words), each word as its tokens. A negator is
    opposite to nothing written in its place."""
    rules = read_toml("negation.toml")

    def tokens(word):
        return tuple(_TOKEN.findall(word))

    opposite = {frozenset((tokens(word), ())) for word in rules["negators"]}
    opposite |= {frozenset(((prefix + "-",), ())) for prefix in rules["negating_prefixes"]}
    opposite |= {frozenset(map(tokens, pair)) for pair in rules["antonyms"]}
    same = {frozenset(map(tokens, pair)) for pair in rules["equivalents"]}
    return frozenset(opposite), frozenset(same), tuple(tokens(word) for word in rules["not_negations"])
