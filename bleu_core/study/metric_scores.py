"""Scores of metrics computed elsewhere (COMET, BLEURT, MetricX...), attached to a study.

bleu-study cannot run neural metrics, but their users have the scores. Three layouts are read:

* **MTME score files** (google-research/mt-metrics-eval): one file per metric and level, named
  ``[xx-yy.]NAME-REF.LEVEL.score`` with ``LEVEL`` one of ``sys``, ``doc``, ``seg`` (e.g.
  ``zh-en.COMET-20-refA.seg.score``; MTME's own ``metric-scores/zh-en/`` folders drop the pair
  prefix). Every line is ``SYSTEM<whitespace>SCORE``. A ``sys`` file has one line per system; a
  ``seg`` file has, for every system, one line per segment **in segment order** (the system's
  lines need not be contiguous: the k-th line naming a system is its score on segment k); a
  ``doc`` file likewise one line per document in document order. MTME's ``None`` marks a missing
  score; it is accepted only where the system has no translation.
* **A long table** (CSV or TSV) with columns ``system, segment_id, metric, score``: one row per
  score; an empty ``segment_id`` is a system-level score.
* **A WMT release's** ``scores/automatic-scores.tsv`` (columns ``pair, system, ..., metric,
  score``): system-level scores of the study's language pair.

Validation is that of ratings: an unknown system or segment, a missing segment, a duplicate, a
number that is not a finite ASCII decimal (``NaN``, ``inf``, full-width digits) raises
:class:`~bleu_core.errors.InputError` naming the file, the line and the fix.

This module is the one to import: it chooses the layout of a file (:func:`parse_metric_scores`), reads
files and uploads, merges the levels of one metric, attaches the scores to a study and saves them. The
parsers of the three layouts live in :mod:`bleu_core.study.metric_score_layouts`, the
:class:`AttachedMetricScores` record and the metrics' direction in :mod:`bleu_core.study.metric_score_model`;
their public names are re-exported here.

>>> from bleu_core.study.model import Segment, Study
>>> study = Study("toy", (Segment("1"), Segment("2")), {"ref": ["a", "b"]}, {"A": ["a", "b"], "B": ["a", "c"]})
>>> [m] = parse_metric_scores("A\\t0.9\\nB\\t0.1\\nA\\t0.8\\nB\\t0.7\\n", "COMET-refA.seg.score", study)
>>> m.name, m.segment["B"], round(m.system_scores(study)["A"], 2)
('COMET-refA', (0.1, 0.7), 0.85)
>>> attach_metric_scores(study, [m]).metric_scores["COMET-refA"] is m
True
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bleu_core.errors import InputError, StudyError
from bleu_core.io.text import DEFAULT_MAX_BYTES, check_size, read_text, text_from_bytes
from bleu_core.study.metric_score_layouts import (
    parse_long_table,
    parse_mtme,
    parse_wmt_automatic,
)
from bleu_core.study.metric_score_model import (
    LEVELS,
    LOWER_IS_BETTER,
    AttachedMetricScores,
    higher_is_better,
)

if TYPE_CHECKING:
    from bleu_core.study.model import Study

__all__ = [
    "LEVELS",
    "LOWER_IS_BETTER",
    "AttachedMetricScores",
    "attach_metric_scores",
    "higher_is_better",
    "merge_metric_scores",
    "metric_scores_from_dict",
    "metric_scores_from_files",
    "metric_scores_to_dict",
    "parse_long_table",
    "parse_metric_scores",
    "parse_mtme",
    "parse_wmt_automatic",
    "read_metric_scores",
]

_MTME_NAME = re.compile(
    r"^(?:(?P<pair>[a-z]{2,3}-[a-z]{2,3})\.)?(?P<name>.+)\.(?P<level>[a-z]+)\.score$"
)


def parse_metric_scores(
    text: str, file: str, study: Study, *, lower_is_better: Iterable[str] = ()
) -> list[AttachedMetricScores]:
    """Parse one file's text (layout chosen from its name: ``*.score`` = MTME, else a table).

    ``lower_is_better`` names metrics whose scores are better when lower, beyond
    :data:`LOWER_IS_BETTER` (matched on the name's first word, e.g. ``TER-refA``).
    """
    base = os.path.basename(file)
    if base.endswith(".score"):
        match = _MTME_NAME.match(base)
        if not match or match["level"] not in LEVELS:
            raise InputError(
                "an MTME score file must be named [xx-yy.]NAME-REF.LEVEL.score with LEVEL one of "
                f"{', '.join(LEVELS)} (e.g. zh-en.COMET-20-refA.seg.score)",
                file=file,
            )
        pair = (study.metadata or {}).get("pair")
        if match["pair"] and pair and match["pair"] != pair:
            raise InputError(
                f"this file is for language pair {match['pair']}, the study is {pair}", file=file
            )
        return [parse_mtme(text, file, match["name"], match["level"], study, lower_is_better)]
    return parse_long_table(text, file, study, lower_is_better)


def merge_metric_scores(items: Iterable[AttachedMetricScores]) -> dict[str, AttachedMetricScores]:
    """One entry per metric name: the levels of one metric read from several files combined.

    MTME keeps a metric's ``sys``, ``seg`` and ``doc`` scores in separate files
    (``COMET-refA.sys.score``, ``COMET-refA.seg.score``); :func:`parse_metric_scores` returns one
    item per file, and this joins the items of one name into one (``source`` lists the files). The
    same level of one metric in two files is an error (:class:`~bleu_core.errors.InputError`
    naming both files): which one is meant cannot be guessed.

    >>> from bleu_core.study.model import Segment, Study
    >>> study = Study("toy", (Segment("1"),), {"ref": ["a"]}, {"A": ["a"], "B": ["b"]})
    >>> sys_ = parse_metric_scores("A 0.9\\nB 0.1\\n", "M-refA.sys.score", study)
    >>> seg = parse_metric_scores("A 0.8\\nB 0.2\\n", "M-refA.seg.score", study)
    >>> merged = merge_metric_scores(sys_ + seg)
    >>> list(merged), merged["M-refA"].levels
    (['M-refA'], ('sys', 'seg'))
    """
    out: dict[str, AttachedMetricScores] = {}
    for item in items:
        if item.name not in out:
            out[item.name] = item
            continue
        old = out[item.name]
        for level, attr in (("sys", "system"), ("seg", "segment"), ("doc", "document")):
            if getattr(item, attr) is not None and getattr(old, attr) is not None:
                raise InputError(
                    f"metric {item.name!r} has {level}-level scores in two files "
                    f"({old.source} and {item.source}); keep one",
                    file=item.source,
                )
        out[item.name] = replace(
            old,
            system=old.system if old.system is not None else item.system,
            segment=old.segment if old.segment is not None else item.segment,
            document=old.document if old.document is not None else item.document,
            source=f"{old.source}; {item.source}",
        )
    return out


def read_metric_scores(
    paths: Iterable[str | os.PathLike[str]],
    study: Study,
    *,
    lower_is_better: Iterable[str] = (),
    max_bytes: int | None = None,
) -> dict[str, AttachedMetricScores]:
    """Read metric scores from files and folders (a folder: its ``*.score``, ``*.csv``, ``*.tsv``).

    Returns ``{metric name: scores}``; the levels of one metric (``X.sys.score`` and
    ``X.seg.score``) are merged.
    """
    limit = DEFAULT_MAX_BYTES if max_bytes is None else max_bytes
    files: list[Path] = []
    for entry in paths:
        path = Path(entry)
        if path.is_dir():
            found = sorted(
                p for p in path.iterdir() if p.is_file() and p.suffix in (".score", ".csv", ".tsv")
            )
            if not found:
                raise InputError("no *.score, *.csv or *.tsv file in this folder", file=str(path))
            files.extend(found)
        elif path.is_file():
            files.append(path)
        else:
            raise InputError("no such file or folder", file=str(path))
    items: list[AttachedMetricScores] = []
    for path in files:
        text = read_text(path, max_bytes=limit)
        items.extend(parse_metric_scores(text, str(path), study, lower_is_better=lower_is_better))
    return merge_metric_scores(items)


_merge = merge_metric_scores  # the former private name


def metric_scores_from_files(
    files: Iterable[tuple[str, bytes]],
    study: Study,
    *,
    lower_is_better: Iterable[str] = (),
    max_bytes: int | None = None,
) -> dict[str, AttachedMetricScores]:
    """Metric scores from uploaded files (``(file name, bytes)`` pairs), as :func:`read_metric_scores`
    reads them from disk: each file's size checked, its text decoded and parsed (layout chosen from
    its name), the levels of one metric merged (:func:`merge_metric_scores`).

    >>> from bleu_core.study.model import Segment, Study
    >>> study = Study("toy", (Segment("1"),), {"ref": ["a"]}, {"A": ["a"], "B": ["b"]})
    >>> got = metric_scores_from_files([("M-refA.sys.score", b"A 0.9\\nB 0.1\\n")], study)
    >>> got["M-refA"].system
    {'A': 0.9, 'B': 0.1}
    """
    limit = DEFAULT_MAX_BYTES if max_bytes is None else max_bytes
    lower = tuple(lower_is_better)
    items: list[AttachedMetricScores] = []
    for name, data in files:
        check_size(len(data), limit, name)
        text = text_from_bytes(data, name)
        items.extend(parse_metric_scores(text, name, study, lower_is_better=lower))
    if not items:
        raise InputError("no metric score file given")
    return merge_metric_scores(items)


def attach_metric_scores(
    study: Study, scores: Iterable[AttachedMetricScores] | dict[str, AttachedMetricScores]
) -> Any:
    """A new study with ``scores`` added to ``study.metric_scores`` (same name: replaced)."""
    items = list(scores.values()) if isinstance(scores, dict) else list(scores)
    merged = dict(getattr(study, "metric_scores", {}) or {})
    for item in items:
        check_metric_scores(study, item)
        merged[item.name] = item
    return replace(study, metric_scores=merged)


def check_metric_scores(study: Study, item: AttachedMetricScores) -> None:
    """Raise :class:`~bleu_core.errors.StudyError` when ``item`` does not fit ``study``."""
    for mapping in (item.system, item.segment, item.document):
        for system in mapping or {}:
            if system not in study.systems:
                raise StudyError(
                    f"metric {item.name!r} scores unknown system {system!r}", file=item.source
                )
    n_docs = len(study.doc_ids())
    for mapping, n, what in (
        (item.segment, study.n_segments, "segment"),
        (item.document, n_docs, "document"),
    ):
        for system, values in (mapping or {}).items():
            if len(values) != n:
                raise StudyError(
                    f"metric {item.name!r}, system {system!r}: {len(values)} {what} scores for {n} {what}s",
                    file=item.source,
                )
            if any(v is not None and not math.isfinite(v) for v in values):
                raise StudyError(
                    f"metric {item.name!r}, system {system!r}: a score is not finite",
                    file=item.source,
                )
    if item.system is not None and any(not math.isfinite(v) for v in item.system.values()):
        raise StudyError(f"metric {item.name!r}: a system score is not finite", file=item.source)


# ------------------------------------------------------------------------------ saving


def metric_scores_to_dict(scores: dict[str, AttachedMetricScores]) -> list[dict[str, Any]]:
    """JSON-ready list (the ``metric_scores`` entry of a saved study)."""
    return [
        {
            "name": m.name,
            "higher_is_better": m.higher_is_better,
            "system": m.system,
            "segment": None if m.segment is None else {k: list(v) for k, v in m.segment.items()},
            "document": None if m.document is None else {k: list(v) for k, v in m.document.items()},
            "source": m.source,
        }
        for m in scores.values()
    ]


def metric_scores_from_dict(data: Any) -> dict[str, AttachedMetricScores]:
    """Inverse of :func:`metric_scores_to_dict` (``None``/absent: no attached metrics)."""
    out = {}
    for entry in data or []:

        def levels(
            key: str, entry: dict[str, Any] = entry
        ) -> dict[str, tuple[float | None, ...]] | None:
            value = entry.get(key)
            if value is None:
                return None
            return {k: tuple(None if x is None else float(x) for x in v) for k, v in value.items()}

        system = entry.get("system")
        out[entry["name"]] = AttachedMetricScores(
            str(entry["name"]),
            bool(entry.get("higher_is_better", True)),
            None if system is None else {k: float(v) for k, v in system.items()},
            levels("segment"),
            levels("document"),
            str(entry.get("source", "")),
        )
    return out
