"""Lint of every rule file: headers, alias tables, and table keys that folding could never hit."""

import re
import unicodedata
from pathlib import Path

import pytest

from scorer.normalize.text import fold_text
from scorer.rules import read_toml, read_tsv, rules_dir

ROOT = rules_dir()
RULE_FILES = sorted(p for p in ROOT.rglob("*") if p.is_file() and p.suffix in (".tsv", ".toml"))
ALIAS_FILES = sorted((ROOT / "aliases").rglob("*.tsv"))


def _relative(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def _header(path: Path) -> dict:
    """The `# key: value` lines before the first non-comment line."""
    fields = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.startswith("#"):
            break
        match = re.match(r"#\s*(\w+):\s*(.*)", line)
        if match:
            fields.setdefault(match.group(1), match.group(2).strip())
    return fields


@pytest.mark.parametrize("path", RULE_FILES, ids=_relative)
def test_header(path):
    fields = _header(path)
    for key in ("version", "source", "purpose"):
        assert fields.get(key), f"{_relative(path)}: missing '# {key}:' header line"
    assert fields["version"].isdigit(), f"{_relative(path)}: version must be an integer"


def _scopes():
    """Global alias files form one scope together; each scoped file is its own scope."""
    scopes = {"global": [p for p in ALIAS_FILES if p.parent == ROOT / "aliases"]}
    for path in ALIAS_FILES:
        if path.parent != ROOT / "aliases":
            scopes[_relative(path)] = [path]
    return scopes


def test_alias_files_exist():
    assert len(_scopes()["global"]) >= 6


@pytest.mark.parametrize("scope", sorted(_scopes()), ids=str)
def test_no_alias_under_two_canonicals(scope):
    owner = {}
    clashes = []
    for path in _scopes()[scope]:
        for row in read_tsv(_relative(path)):
            canonical = fold_text(row[0])
            for cell in row:
                key = fold_text(cell)
                if owner.setdefault(key, (canonical, _relative(path)))[0] != canonical:
                    clashes.append(f"{cell!r}: {owner[key]} and {canonical!r} ({_relative(path)})")
    assert not clashes, "aliases listed under two canonical forms: " + "; ".join(clashes)


@pytest.mark.parametrize("path", ALIAS_FILES, ids=_relative)
def test_alias_rows(path):
    for row in read_tsv(_relative(path)):
        assert len(row) >= 2, f"{_relative(path)}: {row[0]!r} has no alias"
        assert all(row), f"{_relative(path)}: empty cell in {row!r}"
        for cell in row:
            assert unicodedata.normalize("NFKC", cell) == cell, f"{_relative(path)}: {cell!r} is not NFKC"
        folded = [fold_text(cell) for cell in row]
        assert len(set(folded)) == len(folded), f"{_relative(path)}: {row!r} repeats a name after folding"


@pytest.mark.parametrize("path", [p for p in ALIAS_FILES if p.parent != ROOT / "aliases"], ids=_relative)
def test_scoped_file_names_tool_and_parameter(path):
    assert re.fullmatch(r"[A-Za-z0-9_\-]+\.[A-Za-z0-9_\-]+\.tsv", path.name)


def test_text_punctuation_keys_survive_nfkc_and_casefold():
    """fold_text looks characters up after NFKC and case folding: any other key is dead."""
    for key in read_toml("text.toml")["punctuation"]["replace"]:
        assert unicodedata.normalize("NFKC", key) == key == key.casefold(), repr(key)


def test_number_vocabulary_is_folded():
    """parse_number and parse_bool look words up after fold_text."""
    vocabulary = read_toml("numbers/zh.toml")
    for table in ("digits", "small_units", "large_units"):
        for key in vocabulary[table]:
            assert len(key) == 1 and fold_text(key) == key, repr(key)
    for words in vocabulary["boolean"].values():
        for word in words:
            assert fold_text(word) == word, repr(word)
    assert not set(vocabulary["boolean"]["true"]) & set(vocabulary["boolean"]["false"])


def test_every_temporal_policy_has_its_allowed_values_in_one_table():
    # the resolver and the rules check read the same list (rules/policy_choices.toml): a policy
    # added to the code but not to the table would go unchecked in a user's policy file
    import dataclasses

    from scorer.temporal.policy import TemporalPolicy

    table = read_toml("policy_choices.toml")["temporal/policy.toml"]
    free = {"part_of_day", "timezone"}   # hours per word and an IANA zone: checked where they are read
    assert {f.name for f in dataclasses.fields(TemporalPolicy)} - free == set(table)
    assert set(table) == {key for key in read_toml("temporal/policy.toml") if key not in free}
