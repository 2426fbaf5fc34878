"""Builds callscore with its compiled matcher; if the compiler or Cython is missing, prints a
banner and installs the pure-Python package (the twin gives identical verdicts, slower).
CALLSCORE_REQUIRE_EXT=1 turns a failed build into an error, so CI never ships the slow path."""

import os
import sys

from setuptools import setup
from setuptools.command.build_ext import build_ext

PACKAGE_ARGS = dict(
    # rules/ ships inside the package as scorer/rules_data (scorer/rules.py is the loader)
    package_dir={"scorer.rules_data": "rules"},
    packages=["scorer", "scorer.normalize", "scorer.temporal", "scorer.temporal.grammar", "scorer.io", "scorer.commands",
              "scorer.engines", "scorer.rules_data"],
    package_data={"scorer.rules_data": ["**/*.tsv", "**/*.toml", "**/*.txt", "*.md"], "scorer": ["py.typed"]},
)


class OptionalBuildExt(build_ext):
    def run(self):
        try:
            super().run()
        except Exception as error:  # noqa: BLE001 - any build failure falls back
            self._fallback(error)

    def build_extension(self, ext):
        language = "C++, about a minute" if ext.language == "c++" else "C, seconds"
        print(f"callscore: compiling {ext.name} ({language}; pip shows this with -v)", file=sys.stderr, flush=True)
        try:
            super().build_extension(ext)
        except Exception as error:  # noqa: BLE001
            self._fallback(error)

    @staticmethod
    def _fallback(error):
        if os.environ.get("CALLSCORE_REQUIRE_EXT"):
            raise error
        print("*" * 72 + f"\ncallscore: a compiled core could not be built ({error});\n"
              "installing the pure-Python twin, which is slower.\n" + "*" * 72, file=sys.stderr)


def extensions():
    try:
        import numpy
        from Cython.Build import cythonize
    except ImportError as error:
        if os.environ.get("CALLSCORE_REQUIRE_EXT"):
            raise
        print(f"callscore: Cython or numpy missing ({error}); pure-Python install", file=sys.stderr)
        return []
    from setuptools import Extension
    print("callscore: translating ext/match.pyx (to C++), ext/callscan.pyx, ext/starts.pyx, ext/fold.pyx and ext/whole.pyx (to C) "
          "with Cython",
          file=sys.stderr, flush=True)
    return cythonize(
        [Extension("scorer._match_cy", ["ext/match.pyx"], include_dirs=[numpy.get_include()],
                   language="c++", extra_compile_args=["-O2"],
                   define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")]),
         Extension("scorer._callscan_cy", ["ext/callscan.pyx"], extra_compile_args=["-O2"]),
         Extension("scorer.temporal._starts_cy", ["ext/starts.pyx"], extra_compile_args=["-O2"]),
         Extension("scorer.normalize._fold_cy", ["ext/fold.pyx"], extra_compile_args=["-O2"]),
         Extension("scorer.temporal._whole_cy", ["ext/whole.pyx"], extra_compile_args=["-O2"])],
        compiler_directives={"language_level": "3"},
    )


setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuildExt}, **PACKAGE_ARGS)
