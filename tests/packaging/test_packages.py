"""Every package under scorer/ ships, with its data files: a package left out of setup.py's
list is missing from a wheel although an editable install (and so every other test) finds it."""

import runpy
from pathlib import Path

import pytest

setuptools = pytest.importorskip("setuptools", reason="setup.py needs setuptools")

ROOT = Path(__file__).resolve().parents[2]


def test_every_scorer_package_and_its_data_is_listed(monkeypatch):
    monkeypatch.setattr(setuptools, "setup", lambda **kwargs: None)
    monkeypatch.delenv("CALLSCORE_REQUIRE_EXT", raising=False)   # the lists, not the extensions, are checked here
    monkeypatch.chdir(ROOT)
    arguments = runpy.run_path(str(ROOT / "setup.py"))["PACKAGE_ARGS"]
    found = {".".join(init.parent.relative_to(ROOT).parts) for init in (ROOT / "scorer").rglob("__init__.py")}
    assert found <= set(arguments["packages"])
    for package in found:
        folder = ROOT.joinpath(*package.split("."))
        data = {path.suffix for path in folder.iterdir() if path.suffix in (".toml", ".tsv", ".txt")}
        assert all(f"*{suffix}" in arguments["package_data"].get(package, ()) for suffix in data), package
