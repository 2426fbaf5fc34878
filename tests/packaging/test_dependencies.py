"""The declared runtime dependencies are exactly the third-party packages scorer/ imports
(a package only tests or generators use belongs in the test extra), and every Python version
that pyproject declares can import the TOML parser the rules loader uses."""

import ast
import re
import subprocess
import sys
from importlib.metadata import PackageNotFoundError, distribution, packages_distributions
from pathlib import Path

from scorer.rules import tomllib

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def _name(requirement: str) -> str:
    return re.split(r"[\s<>=!~;\[]", requirement, maxsplit=1)[0].lower().replace("_", "-")


def _imported_distributions() -> set:
    top_levels = set()
    for path in (ROOT / "scorer").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                top_levels.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                top_levels.add(node.module.split(".")[0])
    owners = packages_distributions()
    found = set()
    for name in top_levels - set(sys.stdlib_module_names) - {"scorer", "tomllib"}:  # tomllib: stdlib from 3.11
        if name not in owners:  # Python 3.10 maps only distributions that list their top level
            try:
                owners[name] = [distribution(name).metadata["Name"]]
            except PackageNotFoundError:  # an extra not installed here: its import name is its name
                owners[name] = [name]
        found.update(owner.lower().replace("_", "-") for owner in owners[name])
    return found


def test_runtime_dependencies_are_what_scorer_imports():
    declared = {_name(requirement) for requirement in PYPROJECT["project"]["dependencies"]}
    imported = _imported_distributions()
    assert declared - imported == set(), "declared but never imported by scorer/: move to an extra"
    extras = {_name(r) for group in PYPROJECT["project"]["optional-dependencies"].values() for r in group}
    assert imported - declared - extras == set(), "imported by scorer/ but not declared in pyproject.toml"


def test_lunardate_is_a_test_dependency():
    assert "lunardate" in {_name(r) for r in PYPROJECT["project"]["optional-dependencies"]["test"]}


def test_ci_tests_the_lowest_and_the_highest_supported_python():
    minimum = PYPROJECT["project"]["requires-python"].removeprefix(">=")
    versions = sorted((c.rsplit(" ", 1)[1] for c in PYPROJECT["project"]["classifiers"]
                       if c.startswith("Programming Language :: Python :: 3.")), key=lambda v: int(v.split(".")[1]))
    assert versions[0] == minimum
    tested = subprocess.run(["bash", str(ROOT / ".ci" / "other-pythons"), "--versions"], capture_output=True,
                            text=True, check=True).stdout.split()
    assert tested == [versions[0], versions[-1]]
    assert ".ci/other-pythons" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_the_toml_parser_is_declared_for_every_supported_python():
    assert PYPROJECT["project"]["requires-python"] == ">=3.10"
    tomli = [r for r in PYPROJECT["project"]["dependencies"] if _name(r) == "tomli"]
    assert tomli and "python_version < '3.11'" in tomli[0]
