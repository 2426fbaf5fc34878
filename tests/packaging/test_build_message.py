"""The extension build says that it is compiling (pip shows it with -v; `pip install -e .`
otherwise looks frozen for a minute): setup.py's build_ext, run on a one-line C extension."""

import runpy
import sys
from pathlib import Path

import pytest

setuptools = pytest.importorskip("setuptools", reason="builds with setup.py need setuptools")
from setuptools import Distribution, Extension  # noqa: E402 - after the skip above

ROOT = Path(__file__).resolve().parents[2]


def test_the_build_prints_that_it_is_compiling(tmp_path, monkeypatch, capfd):
    pytest.importorskip("Cython")
    monkeypatch.setattr(setuptools, "setup", lambda **kwargs: None)
    monkeypatch.chdir(ROOT)
    build_ext = runpy.run_path(str(ROOT / "setup.py"))["OptionalBuildExt"]
    capfd.readouterr()
    source = tmp_path / "tiny.c"
    source.write_text('#include <Python.h>\nstatic struct PyModuleDef m = {PyModuleDef_HEAD_INIT, "tiny"};\n'
                      "PyMODINIT_FUNC PyInit_tiny(void) { return PyModule_Create(&m); }\n")
    monkeypatch.chdir(tmp_path)
    distribution = Distribution({"name": "tiny", "ext_modules": [Extension("tiny", [str(source)])]})
    command = build_ext(distribution)
    command.build_lib, command.build_temp = str(tmp_path / "lib"), str(tmp_path / "tmp")
    command.ensure_finalized()
    command.run()
    assert "callscore: compiling tiny (C, seconds" in capfd.readouterr().err   # names the language it compiles
    assert list((tmp_path / "lib").glob("tiny*" + (".pyd" if sys.platform == "win32" else ".so")))
