"""``meta --studies ITEM …``: separate studies meta-evaluated as one multi-pair task, as a release's pairs are.

A release folder holds every language pair of one campaign; a study may just as well be a folder or zip of
its own (a WMT24 en-ja study and an en-hi one, the TED demo and the WMT21 zh-en release). Each ITEM is

* ``PATH``: a study folder, zip or file, or ``demo:NAME``; a release with one language pair is that pair;
* ``PATH:PAIR``: one pair of a release (``../wmt21-newstest2021-mqm-da:zh-en``);
* ``NAME=PATH[:PAIR]``: the same, its column named ``NAME`` instead of its pair.

A column is named by the study's pair (its metadata, else ``source-target``) unless ``NAME=`` says
otherwise. Every study is loaded first, then checked — the same study given twice, two columns of one
name, a ``--criteria`` or ``--ceiling`` criterion or a ``--metrics`` metric one study lacks are errors
naming the item — and only then scored, each with its own target language's tokenizer, and ranked exactly
as the pairs of a release are (:mod:`bleu_core.evaluation.multi_pair`).

>>> parse_item("ted=demo:ted-zh-en"), parse_item("wmt21:zh-en")
(StudyItem(text='ted=demo:ted-zh-en', name='ted', path='demo:ted-zh-en', pair=None), \
StudyItem(text='wmt21:zh-en', name=None, path='wmt21', pair='zh-en'))
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..evaluation.errors import StatsInputError

if TYPE_CHECKING:
    from bleu_core.study.model import Study

_PAIR = re.compile(r"^[a-z]{2,3}(?:_[A-Za-z]{2,4})?-[a-z]{2,3}(?:_[A-Za-z]{2,4})?$")
_NAME = re.compile(r"^[^/\\:=]+$")


@dataclass(frozen=True)
class StudyItem:
    """One ``--studies`` item as given (``text``) and read: its column ``name`` (``None``: from the
    study), ``path`` and release ``pair`` (``None``: the study's only one)."""

    text: str
    name: str | None
    path: str
    pair: str | None


@dataclass(frozen=True)
class LoadedStudy:
    """An item's study and the name of its column."""

    item: StudyItem
    study: Study
    name: str

    def to_dict(self) -> dict[str, Any]:
        """``name``, ``path`` and ``pair`` (JSON-ready)."""
        pair = self.study.metadata.get("pair") or self.item.pair
        return {"name": self.name, "path": self.item.path, "pair": pair}


def parse_item(text: str) -> StudyItem:
    """``[NAME=]PATH[:PAIR]`` read (module docstring). ``:PAIR`` is a pair only when it has the shape of
    one (``zh-en``, ``en-ar_EG``) and ``PATH:PAIR`` is not itself a file; ``NAME`` has no ``/``, ``\\``,
    ``:`` or ``=``."""
    name, sep, rest = text.partition("=")
    if not sep or not _NAME.match(name.strip()):
        name, rest = "", text
    head, sep, tail = rest.rpartition(":")
    if sep and head and _PAIR.match(tail) and not os.path.exists(rest):
        rest, pair = head, tail
    else:
        pair = None
    if not rest.strip():
        raise StatsInputError(f"--studies {text!r}: no study PATH; write [NAME=]PATH[:PAIR]")
    return StudyItem(text, name.strip() or None, rest, pair)


def _pair_of(item: StudyItem) -> str | None:
    """The item's pair: the one it names, or a release's only one (``None`` for a single study)."""
    from ..study.loading import list_pairs

    if item.pair is not None or item.path.startswith("demo:"):
        return item.pair
    found = list_pairs(item.path)
    if len(found) > 1:
        raise StatsInputError(
            f"--studies {item.text}: a release with {len(found)} language pairs ({', '.join(found)}); "
            f"name one as {item.path}:PAIR, or meta-evaluate them all with: meta {item.path} --pairs all"
        )
    return found[0] if found else None


def load_studies(texts: Sequence[str], references: Any = None) -> list[LoadedStudy]:
    """Every item's study, loaded (``references`` as ``load_study`` takes them) and named; the same
    study twice or two columns of one name are :class:`StatsInputError`."""
    from ..study import load_study

    items = [parse_item(t) for t in texts]
    seen: dict[tuple[str, str | None], StudyItem] = {}
    out: list[LoadedStudy] = []
    for item in items:
        pair = _pair_of(item)
        key = (os.path.realpath(item.path) if os.path.exists(item.path) else item.path, pair)
        if key in seen:
            raise StatsInputError(
                f"--studies {seen[key].text} and {item.text} are the same study"
                + (f" (pair {pair})" if pair else "")
                + ": give each study once"
            )
        seen[key] = item
        study = load_study(item.path, pair=pair, reference=references).study
        lang = f"{study.source_lang}-{study.target_lang}" if study.source_lang else study.name
        out.append(LoadedStudy(item, study, item.name or study.metadata.get("pair") or lang))
    names: dict[str, LoadedStudy] = {}
    for one in out:
        if one.name in names:
            first = names[one.name].item.text
            raise StatsInputError(
                f"--studies {first} and {one.item.text} are both pair {one.name!r}: name the columns "
                f"apart, e.g. a={first} b={one.item.text}"
            )
        names[one.name] = one
    return out


def study_criterion(loaded: LoadedStudy, wanted: str | None) -> str:
    """The criterion ``loaded`` is ranked against: ``wanted`` (which it must have), else its first
    (the standardised one first, :func:`~bleu_core.study.criterion_order.criteria_order`)."""
    from ..study.criterion_order import criteria_order

    criteria = loaded.study.criteria
    if not criteria:
        raise StatsInputError(
            f"{loaded.item.text}: pair {loaded.name!r} has no human scores to rank metrics against; "
            "leave it out (--pairs a,b) or add its human scores"
        )
    if not wanted:
        return criteria_order(criteria)[0]
    if wanted not in criteria:
        raise StatsInputError(
            f"{loaded.item.text}: no criterion {wanted!r} (--criteria); this study has: "
            f"{', '.join(criteria)}"
        )
    return wanted


def split_metrics(
    studies: Sequence[LoadedStudy], names: Sequence[str]
) -> tuple[list[str], list[str]]:
    """``names`` as (metrics computed here, metrics attached to the studies): a name the registry does
    not know must be attached to every study, else :class:`StatsInputError` naming the study. (When
    no attached metric is named, the command ranks every attached one; one that some study lacks is
    left out of the global view, with a note.)"""
    from ..metrics.registry import metric_names

    known = {m.lower() for m in metric_names()}
    computed = [m for m in names if m.lower() in known]
    attached = [m for m in names if m.lower() not in known]
    for one in studies:
        given = dict(getattr(one.study, "metric_scores", {}) or {})
        missing = [m for m in attached if m not in given]
        if missing:
            raise StatsInputError(
                f"{one.item.text}: no metric {', '.join(map(repr, missing))}: it is neither computed "
                f"here ({', '.join(metric_names())}) nor attached to this study (attached: "
                f"{', '.join(given) or 'none'})"
            )
    return computed, attached


def release_studies(path: str, pairs: Sequence[str], references: Any = None) -> list[LoadedStudy]:
    """The chosen ``pairs`` of the release at ``path``, loaded and named by their pair."""
    from ..study import load_study

    return [
        LoadedStudy(
            StudyItem(f"{path}:{pair}", None, path, pair),
            load_study(path, pair=pair, reference=references).study,
            pair,
        )
        for pair in pairs
    ]
