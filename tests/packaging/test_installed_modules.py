"""Every module of the package a user installs imports from the installed copy itself: a
subpackage left out of the wheel (scorer.compat once was) fails here, not in a user's first
`score --compat bfcl`.

The copy is what setuptools' build_py puts in a wheel from this checkout (its Python files and
rules data, without compiling), or, when $CALLSCORE_INSTALLED_PYTHON names the interpreter of
a venv where the wheel or the sdist was installed (CI does), that venv's own copy. The modules
are found by walking the copy's scorer/, so none is listed by hand."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from scorer.rules import tomllib

ROOT = Path(__file__).resolve().parents[2]
INSTALLED_PYTHON = os.environ.get("CALLSCORE_INSTALLED_PYTHON")

# Run by the copy's interpreter: import each module found under the `scorer` it imports, and say
# which failed, which came from elsewhere (another install of callscore on the path), and which
# need an extra that is not installed there.
_IMPORT_EVERY_MODULE = r"""
import importlib, importlib.machinery, json, pathlib, sys
import scorer
root = pathlib.Path(scorer.__file__).resolve().parent
optional = set(sys.argv[1].split(","))
report = {"root": str(root), "prefix": sys.prefix, "imported": [], "failed": {}, "elsewhere": {}, "optional": {}}
suffixes = tuple(importlib.machinery.SOURCE_SUFFIXES + importlib.machinery.EXTENSION_SUFFIXES)
for path in sorted(root.rglob("*")):
    if not path.name.endswith(suffixes) or "__pycache__" in path.parts:
        continue
    parts = [*path.parent.relative_to(root.parent).parts, path.name.split(".")[0]]
    name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
    if name == "scorer.__main__":  # runs the command when imported
        continue
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as error:
        top = (error.name or "").split(".")[0]
        if top in optional:
            report["optional"][name] = error.name
        else:
            report["failed"][name] = repr(error)
        continue
    except Exception as error:
        report["failed"][name] = repr(error)
        continue
    if not pathlib.Path(module.__file__).resolve().is_relative_to(root):
        report["elsewhere"][name] = module.__file__
    report["imported"].append(name)
print(json.dumps(report))
"""


def _optional_imports() -> str:
    """Import names of the extras' distributions (ray[data] -> ray, bfcl-eval -> bfcl_eval)."""
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    requirements = [r for group in pyproject["project"]["optional-dependencies"].values() for r in group]
    return ",".join(sorted({re.split(r"[\s<>=!~;\[]", r, maxsplit=1)[0].lower().replace("-", "_")
                            for r in requirements}))


def _copy_built_from_the_checkout(directory: Path) -> dict:
    """build_py into `directory`, its file list made afresh (egg_info elsewhere): a checkout's
    old egg-info lists every file it once shipped, and setuptools would ship them again. Nothing
    is compiled, so CI's demand for the extensions is lifted (a test venv has no Cython)."""
    (directory / "egg").mkdir(parents=True)
    building = {k: v for k, v in os.environ.items() if k != "CALLSCORE_REQUIRE_EXT"}
    subprocess.run([sys.executable, "setup.py", "-q", "egg_info", "--egg-base", str(directory / "egg"),
                    "build_py", "--build-lib", str(directory / "lib")], cwd=ROOT, check=True, capture_output=True,
                   env=building)
    return {**os.environ, "PYTHONPATH": str(directory / "lib")}


def test_every_module_imports_from_the_installed_copy(tmp_path):
    if INSTALLED_PYTHON:
        python, environment = INSTALLED_PYTHON, {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    else:
        pytest.importorskip("setuptools", reason="the copy is built with setup.py")
        python, environment = sys.executable, _copy_built_from_the_checkout(tmp_path / "build")
    completed = subprocess.run([python, "-c", _IMPORT_EVERY_MODULE, _optional_imports()], cwd=tmp_path,
                               env=environment, capture_output=True, text=True)
    assert completed.returncode == 0, completed.stderr
    report = json.loads(completed.stdout)
    if INSTALLED_PYTHON:
        assert Path(report["root"]).is_relative_to(Path(report["prefix"]).resolve())
    else:
        assert report["root"] == str((tmp_path / "build" / "lib" / "scorer").resolve())
    assert report["failed"] == {} and report["elsewhere"] == {}
    packages = {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "scorer").rglob("__init__.py")}
    assert packages - set(report["imported"]) == set()


def test_every_directory_of_python_files_is_a_package():
    """find_packages finds a directory only by its __init__.py."""
    directories = {p.parent for p in (ROOT / "scorer").rglob("*.py") if "__pycache__" not in p.parts}
    assert sorted(str(d.relative_to(ROOT)) for d in directories if not (d / "__init__.py").exists()) == []
