"""One loader for everything in `rules/`: finds the directory, reads TSV and TOML tables
once, and hashes the whole set so every result names the rules that produced it.

Rule files are data (dateparser's habit): vocabulary and tables live there, the grammar
that combines them lives in small functions in `scorer/normalize/`.
"""

import functools
import hashlib
import os
import re
import tomllib
from pathlib import Path

_ENV = "CALLSCORE_RULES"
_VERSION = re.compile(r"^#\s*version:\s*(\S+)", re.M)


def rules_dir(override=None) -> Path:
    """The rules directory: an explicit path, $CALLSCORE_RULES, the checkout's `rules/`
    (source tree and editable installs), or the copy a wheel installs as `scorer/rules_data`."""
    if override or os.environ.get(_ENV):
        return Path(override or os.environ[_ENV])
    here = Path(__file__).resolve().parent
    checkout = here.parent / "rules"
    return checkout if checkout.is_dir() else here / "rules_data"


def _files(root: Path):
    return sorted(p for p in root.rglob("*") if p.is_file() and p.suffix in (".tsv", ".toml", ".txt"))


def rule_files(root: Path) -> list:
    """(relative path, version, sha256 of the bytes, first 12 hex) for each rule file; the
    version is the `# version: N` line every rule file opens with."""
    listed = []
    for path in _files(root):
        data = path.read_bytes()
        match = _VERSION.search(data.decode("utf-8", "replace"))
        listed.append((path.relative_to(root).as_posix(), match and match.group(1),
                       hashlib.sha256(data).hexdigest()[:12]))
    return listed


def rules_hash(root=None) -> str:
    """sha256 over the sorted relative paths and bytes of every rule file, and the run's
    --policy overrides ($CALLSCORE_POLICY) when there are any (first 16 hex)."""
    return _rules_hash(root, os.environ.get("CALLSCORE_POLICY", ""))


@functools.lru_cache(maxsize=None)
def _rules_hash(root, policy: str) -> str:
    root = rules_dir(root)
    digest = hashlib.sha256()
    for path in _files(root):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    if policy:
        digest.update(b"--policy\0" + policy.encode() + b"\0")
    return digest.hexdigest()[:16]


@functools.lru_cache(maxsize=None)
def read_toml(relative: str, root=None) -> dict:
    """A TOML rule file as a dict (cached; callers must not mutate it)."""
    with open(rules_dir(root) / relative, "rb") as handle:
        return tomllib.load(handle)


@functools.lru_cache(maxsize=None)
def read_tsv(relative: str, root=None) -> tuple:
    """A TSV rule file as a tuple of rows (tuples of cells); `#` lines and blanks skipped."""
    rows = []
    with open(rules_dir(root) / relative, encoding="utf-8") as handle:
        for line in handle:
            line = line.rstrip("\n")
            if line.strip() and not line.startswith("#"):
                rows.append(tuple(cell.strip() for cell in line.split("\t")))
    return tuple(rows)


def list_files(subdir: str, suffix: str, root=None) -> list:
    """Relative paths of the rule files of one family, sorted for determinism."""
    base = rules_dir(root)
    return [p.relative_to(base).as_posix() for p in sorted((base / subdir).glob(f"*{suffix}"))]
