"""One loader for everything in `rules/`: finds the directory, reads TSV and TOML tables
once, and hashes the whole set so every result names the rules that produced it.

Rule files are data (dateparser's habit): vocabulary and tables live there, the grammar
that combines them lives in small functions in `scorer/normalize/`.
"""

import functools
import hashlib
import os
import re
import sys
from pathlib import Path

from scorer.errors import RulesError

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10: the same parser, as the tomli package
    import tomli as tomllib

_ENV = "CALLSCORE_RULES"
_VERSION = re.compile(r"^#\s*version:\s*(\S+)", re.M)


def rules_dir(override=None) -> Path:
    """The rules directory: an explicit path, $CALLSCORE_RULES, the checkout's `rules/`
    (source tree and editable installs), or the copy a wheel installs as `scorer/rules_data`."""
    if override or os.environ.get(_ENV):
        return Path(override or os.environ[_ENV])
    return _shipped_dir()


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


_TOML_LINE = re.compile(r"\(at line (\d+), column (\d+)\)")


def _read_bytes(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise RulesError(path, "rule file missing (every file of the shipped rules/ is needed; "
                         "copy it from there)") from None
    except OSError as error:
        raise RulesError(path, f"cannot be read ({error.strerror})") from None


def _text(path: Path, data: bytes) -> str:
    """The file as text; bytes that are not UTF-8, or NUL bytes, name their line."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise RulesError(path, "not UTF-8 text (binary data?)", line=data[:error.start].count(b"\n") + 1) from None
    if "\0" in text:
        raise RulesError(path, "NUL byte (binary data?)", line=text[:text.index("\0")].count("\n") + 1)
    return text


@functools.lru_cache(maxsize=None)
def read_toml(relative: str, root=None) -> dict:
    """A TOML rule file as a dict (cached; callers must not mutate it); RulesError names the
    file and line of a syntax error."""
    path = rules_dir(root) / relative
    text = _text(path, _read_bytes(path))
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        where = _TOML_LINE.search(str(error))
        reason = str(error)[:where.start()].strip() + f" at column {where.group(2)}" if where else str(error)
        raise RulesError(path, f"not valid TOML: {reason}", line=int(where.group(1)) if where else None) from None


@functools.lru_cache(maxsize=None)
def read_tsv(relative: str, root=None) -> tuple:
    """A TSV rule file as a tuple of rows (tuples of cells); `#` lines and blanks skipped."""
    path = rules_dir(root) / relative
    rows = []
    for line in _text(path, _read_bytes(path)).split("\n"):
        line = line.rstrip("\r")
        if line.strip() and not line.startswith("#"):
            rows.append(tuple(cell.strip() for cell in line.split("\t")))
    return tuple(rows)


_CHOICES_FILE = "policy_choices.toml"


@functools.lru_cache(maxsize=None)
def check_rules(root=None) -> None:
    """Read and validate the whole rule set before anything is scored, so that a broken file
    stops the run (RulesError: file and line) instead of making a resolver quietly answer
    "not temporal": every TOML and TSV file parses, every file the shipped set has is present,
    and every policy value is one that policy_choices.toml allows."""
    base = rules_dir(root)
    shipped = _shipped_dir()
    for path in _files(shipped):
        relative = path.relative_to(shipped).as_posix()
        if not (base / relative).is_file():
            raise RulesError(base / relative, "rule file missing (every file of the shipped rules/ is "
                             "needed; copy it from there)")
    for path in _files(base):
        relative = path.relative_to(base).as_posix()
        if path.suffix == ".toml":
            read_toml(relative, root)
        elif path.suffix == ".tsv":
            read_tsv(relative, root)
    for policy_file, choices in read_toml(_CHOICES_FILE, root).items():
        values = read_toml(policy_file, root)
        for key, allowed in choices.items():
            if key in values and not _allowed(values[key], allowed):
                lines = (base / policy_file).read_text(encoding="utf-8").split("\n")   # only to name the line
                number = next((n for n, line in enumerate(lines, 1) if re.match(rf"\s*{re.escape(key)}\s*=", line)), None)
                raise RulesError(base / policy_file, f"{key} = {values[key]!r} is not one of "
                                 f"{', '.join(map(repr, allowed))} (declared in {_CHOICES_FILE})", line=number)


def _allowed(value, allowed: list) -> bool:
    """A value (or each item of a list value) among the allowed ones, of the same type: `1`
    is no boolean, `true` no count."""
    if isinstance(value, list):
        return all(_allowed(item, allowed) for item in value)
    return any(type(value) is type(choice) and value == choice for choice in allowed)


def _shipped_dir() -> Path:
    """The rules callscore ships (the checkout's or the wheel's), whatever --rules says."""
    here = Path(__file__).resolve().parent
    checkout = here.parent / "rules"
    return checkout if checkout.is_dir() else here / "rules_data"


def list_files(subdir: str, suffix: str, root=None) -> list:
    """Relative paths of the rule files of one family, sorted for determinism."""
    base = rules_dir(root)
    return [p.relative_to(base).as_posix() for p in sorted((base / subdir).glob(f"*{suffix}"))]
