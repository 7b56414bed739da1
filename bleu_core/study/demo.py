"""The studies bundled with bleu-study (package data in ``bleu_core/demos/``, listed in its ``manifest.json``;
a wheel carries them, so ``bleu-study study demo:ted-en-de`` works after ``pip install``).

* ``ted-en-de`` — WMT21 TED talks, English→German: 529 segments, 13 MT systems, reference ``ref``, expert MQM
  ratings (Freitag et al. 2021, Apache-2.0).
* ``ted-zh-en`` — the same for Chinese→English: reference ``refB``; the other human translation ``ref`` (rated
  worst of all) is kept as a human system.
* ``paper-examples`` — the worked examples 1-4 of the BLEU paper (Papineni et al. 2002, section 2), for
  teaching: references as reference streams, candidates as systems, no ratings.

>>> [demo.name for demo in list_demos()]
['ted-en-de', 'ted-zh-en', 'paper-examples']
>>> study = load_demo("paper-examples")
>>> study.n_segments, list(study.references), list(study.systems)
(4, ['reference-1', 'reference-2', 'reference-3'], ['candidate-1', 'candidate-2'])
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from bleu_core.errors import StudyError
from bleu_core.study.model import LoadResult, Study
from bleu_core.study.storage import read_saved_study

__all__ = ["DemoInfo", "data_dir", "demo_path", "list_demos", "load_demo", "load_demo_result"]

MANIFEST = "manifest.json"


@dataclass(frozen=True)
class DemoInfo:
    """One entry of the demo manifest."""

    name: str
    file: str
    title: str
    description: str
    source: str
    licence: str
    citation: str


def data_dir() -> Path:
    """The folder holding the bundled studies: ``$BLEU_STUDY_DATA`` or the package's ``bleu_core/demos/``."""
    override = os.environ.get("BLEU_STUDY_DATA")
    if override:
        return Path(override)
    return Path(__file__).resolve().parents[1] / "demos"


@lru_cache(maxsize=4)
def _manifest(folder: Path) -> tuple[DemoInfo, ...]:
    path = folder / MANIFEST
    if not path.is_file():
        raise StudyError(
            "the demo manifest is missing (the package was installed without its data); reinstall "
            "bleu-study or set BLEU_STUDY_DATA to a folder with manifest.json",
            file=str(path),
        )
    entries = json.loads(path.read_text(encoding="utf-8"))
    return tuple(DemoInfo(**entry) for entry in entries["demos"])


def list_demos() -> list[DemoInfo]:
    """The bundled studies, in manifest order."""
    return list(_manifest(data_dir()))


def demo_path(name: str) -> Path:
    """The file of demo ``name``; raises :class:`~bleu_core.errors.StudyError` listing the demos."""
    for demo in list_demos():
        if demo.name == name:
            return data_dir() / demo.file
    known = ", ".join(demo.name for demo in list_demos())
    raise StudyError(f"no bundled study named {name!r}; bundled studies: {known}")


def load_demo_result(name: str) -> LoadResult:
    """Load demo ``name`` as a :class:`LoadResult` (no warnings: the demos were checked when built)."""
    return LoadResult(read_saved_study(demo_path(name)), ())


def load_demo(name: str) -> Study:
    """Load demo ``name`` (``ted-en-de``, ``ted-zh-en`` or ``paper-examples``)."""
    return load_demo_result(name).study
