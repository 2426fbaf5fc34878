"""Alias tables: names that denote the same thing (北京 = 北京市 = Beijing = 京).

Files: rules/aliases/<family>.tsv hold the global scope (all families merged), and
rules/aliases/scoped/<tool>.<parameter>.tsv a scope that applies only to that tool's
parameter and is consulted before the global one. Each line is `canonical<TAB>alias...`.
Lookups are whole-value only: an alias inside a longer value is never replaced, because
"京" inside "南京" is not Beijing.
"""

import functools

from scorer.errors import InputError
from scorer.normalize.text import fold_text
from scorer.rules import list_files, read_tsv, rules_dir

_SCOPED = "aliases/scoped"
GENERATED_PREFIXES = ("cldr_", "iata_")   # the tables bench/make_names_table.py writes


@functools.lru_cache(maxsize=None)
def alias_index(files: tuple, root=None) -> dict:
    """folded alias -> folded canonical over the given files. A canonical maps to itself. An
    alias claimed by two different canonical forms in one scope is an InputError: silently
    picking one would make the verdict depend on file order."""
    index, origin = {}, {}
    for relative in files:
        fold = str if _generated(relative) else fold_text
        for row_number, row in enumerate(read_tsv(relative, root), start=1):
            canonical = fold(row[0])
            for name in row:
                key = fold(name)
                if not key:
                    continue
                if index.get(key, canonical) != canonical:
                    raise InputError(
                        rules_dir(root) / relative,
                        f"alias {name!r} maps to {index[key]!r} ({origin[key]}) and to {canonical!r}",
                        row=row_number,
                    )
                index[key] = canonical
                origin.setdefault(key, relative)
    return index


def _generated(relative: str) -> bool:
    """A table bench/make_names_table.py writes already folded (tests/rules/test_names_tables.py
    checks it), read as is: folding its 17,000 names would cost a few tenths of a second per start."""
    return relative.rsplit("/", 1)[-1].startswith(GENERATED_PREFIXES)


@functools.lru_cache(maxsize=None)
def global_files() -> tuple:
    """The global alias files (listed once: the rules do not change during a run)."""
    return tuple(list_files("aliases", ".tsv"))


@functools.lru_cache(maxsize=None)
def scoped_files() -> frozenset:
    """The scoped alias files (listed once, as the global ones: asking the file system per
    tool and parameter cost 0.15 s on BFCL's 1,082 distinct parameters)."""
    return frozenset(list_files(_SCOPED, ".tsv"))


@functools.lru_cache(maxsize=None)
def scoped_file(tool: str, parameter: str) -> str | None:
    """The table for this tool's parameter, if there is one."""
    relative = f"{_SCOPED}/{tool}.{parameter}.tsv"
    return relative if relative in scoped_files() else None


def canonical_alias(folded: str, tool: str | None = None, parameter: str | None = None) -> str | None:
    """The folded canonical form of a folded value, or None when no table lists it."""
    if tool is not None and parameter is not None:
        scoped = scoped_file(tool, parameter)
        if scoped is not None:
            found = alias_index((scoped,)).get(folded)
            if found is not None:
                return found
    return alias_index(global_files()).get(folded)
