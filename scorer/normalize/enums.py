"""Enum members named in another language or in other words (头等舱 for `first`, 中文 for `zh`).

A value of an enum parameter is read as a member when it is one (case and width folded), when an
alias table links it to one (rules/aliases/: CLDR's language and currency names, 法语 = fr), or
when a class table links it to exactly one member (rules/enums/: cabin, seat, room and vehicle
classes, sort directions, measures, genders, priorities and travel modes, 商务舱 = business; CLDR's languages and currencies with the codes the global tables
leave out as ambiguous, 法语 = fr, which is France too). A value that is no member and that no table links is not decided
wrong: it may be another word for a member that no table lists (头等), so a judge decides.
"""

import functools
import re

from scorer.normalize.aliases import alias_index, canonical_alias
from scorer.normalize.text import fold_text
from scorer.rules import list_files

CLASS_TABLES = "enums"
MEMBER_RULE = "enum"
TRANSLATED_RULE = "enum.translated"
NOT_MEMBER_RULE = "enum.not_member"
_SEPARATORS = re.compile(r"[_\-\s]+")
LANGUAGE_TABLE = "enums/cldr_languages.tsv"
_LANGUAGE_TAG = re.compile(r"^([a-z]{2,3}) (?:[a-z]{4}|[a-z]{2}|\d{3})$")   # zh-CN, zh-Hans, es-419 (BCP 47)


def enum_reading(members: tuple, text: str, alias: str | None, tool=None, parameter=None) -> tuple:
    """(key, rule) of a folded enum value: the member it names, or itself when it names none.
    Without members (a Param made without a schema) it is its alias or itself, as before; an
    empty value names nothing, so it is no word for a member either (decided wrong)."""
    key = alias or text
    if not members or not text:
        return key, "alias" if alias not in (None, text) else MEMBER_RULE
    keys = _member_keys(members, tool, parameter)
    if key in keys.values():
        return key, "alias" if alias not in (None, text) else MEMBER_RULE
    named = {keys[member] for member in keys if _classes(member) & _classes(text)}
    if len(named) == 1:
        return named.pop(), TRANSLATED_RULE
    return key, NOT_MEMBER_RULE


@functools.lru_cache(maxsize=4096)
def _member_keys(members: tuple, tool, parameter) -> dict:
    """folded member -> the key its value reads as (its alias's canonical form, or itself)."""
    folded = (fold_text(member) for member in members)
    return {member: canonical_alias(member, tool, parameter) or member for member in folded}


@functools.lru_cache(maxsize=1 << 14)
def _classes(folded: str) -> frozenset:
    """The classes a folded word names, as (table, canonical) pairs: `first` is a cabin class
    and a train seat class, 头等舱 only the first. Underscores and hyphens are spaces
    (premium_economy). Two members of one language (zh-CN, zh-TW) both name it, so 中文 then
    links to neither: it must link to exactly one."""
    word = _SEPARATORS.sub(" ", folded).strip()
    found = set()
    for table in list_files(CLASS_TABLES, ".tsv"):
        canonical = alias_index((table,)).get(word)
        if canonical is not None:
            found.add((table, canonical))
    if not found and len(word) > 1 and word.endswith("文"):   # 韩文, 法文: the written language, 韩语, 法语
        canonical = alias_index((LANGUAGE_TABLE,)).get(word[:-1] + "语")
        if canonical is not None:
            found.add((LANGUAGE_TABLE, canonical))
    tag = _LANGUAGE_TAG.match(word)
    if tag and not found:   # a language tag names its language by its first subtag: zh-CN is zh
        canonical = alias_index((LANGUAGE_TABLE,)).get(tag.group(1))
        if canonical is not None:
            found.add((LANGUAGE_TABLE, canonical))
    return frozenset(found)
