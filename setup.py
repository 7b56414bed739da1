"""Build step of bleu-study: the compiled kernels (``bleu_core/fast/_kernels.c``), ahead of time.

Everything else about the package is in ``pyproject.toml``. The C extension is optional: on a machine without a
C compiler (or without Python's headers) the build prints one line and the package installs anyway; bleu_core
then runs its pure numpy/Python twins of the kernels (same results, slower; see ``bleu_core/fast/compiled.py``).
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

NOTICE = (
    "bleu-study: the compiled kernels could not be built ({reason}); installing without them "
    "(the pure numpy/Python path gives the same results, slower)"
)


class OptionalBuildExt(build_ext):
    """``build_ext`` that turns any compiler failure into a one-line notice."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # noqa: BLE001 - no compiler, no headers, ...: all mean "go without"
            print(NOTICE.format(reason=type(exc).__name__), file=sys.stderr)

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except Exception as exc:  # noqa: BLE001
            print(NOTICE.format(reason=type(exc).__name__), file=sys.stderr)


#: The Streamlit app's own files, outside any package in a checkout (``make run`` runs ``app.py`` there); a wheel
#: carries them in ``ui/_app/`` so that ``bleu-study app`` works after ``pip install`` (:func:`bleu_core.cli.launch.app_script`).
APP_FILES = ("app.py", "pages/*.py", ".streamlit/config.toml")


class BuildPyWithApp(build_py):
    """``build_py`` that also copies the app's entry point, pages and Streamlit settings into ``ui/_app/``."""

    def run(self) -> None:
        super().run()
        # an editable install runs the checkout's own app.py
        if getattr(self, "editable_mode", False):
            return
        root = Path(__file__).resolve().parent
        target = Path(self.build_lib) / "ui" / "_app"
        for pattern in APP_FILES:
            for path in sorted(root.glob(pattern)):
                dest = target / path.relative_to(root)
                dest.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(path, dest)


setup(
    ext_modules=[
        Extension(
            "bleu_core.fast._kernels",
            sources=["bleu_core/fast/_kernels.c"],
            depends=["bleu_core/fast/_bleu13a.c"],  # included by _kernels.c
            extra_compile_args=["-O3"] if sys.platform != "win32" else ["/O2"],
            optional=True,
        )
    ],
    cmdclass={"build_ext": OptionalBuildExt, "build_py": BuildPyWithApp},
)
