"""The three file layouts of metric scores computed elsewhere, each read into :class:`AttachedMetricScores`.

* :func:`parse_mtme`: an MTME score file (google-research/mt-metrics-eval), one metric at one level,
  ``SYSTEM<whitespace>SCORE`` per line; a ``seg`` (``doc``) file gives each system's scores in segment
  (document) order, its lines need not be contiguous.
* :func:`parse_long_table`: a CSV/TSV table ``system, segment_id, metric, score``, one row per score, an
  empty ``segment_id`` for a system-level score; several metrics in one file.
* :func:`parse_wmt_automatic`: a WMT release's ``scores/automatic-scores.tsv``, system-level scores of
  every language pair, of which the study's is kept (:func:`parse_long_table` hands such a table on).

Each parser reads the lines or rows, checks every one against the study (known system, known segment, a
finite number; ``None`` only where the system has no translation), collects the scores per metric and
system, then builds the result once every machine system is known to have its scores. A problem raises
:class:`~bleu_core.errors.InputError` naming the file, the line and the fix.
:func:`bleu_core.study.metric_scores.parse_metric_scores` chooses the layout from the file name.

>>> from bleu_core.study.model import Segment, Study
>>> study = Study("toy", (Segment("1"), Segment("2")), {"ref": ["a", "b"]}, {"A": ["a", "b"], "B": ["a", None]})
>>> table = "system,segment_id,metric,score\\nA,,TER,0.3\\nB,,TER,0.5\\nA,1,chrF,0.9\\nA,2,chrF,0.8\\nB,1,chrF,0.7\\n"
>>> ter, chrf = parse_long_table(table, "scores.csv", study)
>>> ter.higher_is_better, ter.system, chrf.segment["B"]
(False, {'A': 0.3, 'B': 0.5}, (0.7, None))
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from bleu_core.errors import InputError
from bleu_core.io.cells import number
from bleu_core.io.text import split_lines
from bleu_core.study.metric_score_model import AttachedMetricScores, higher_is_better
from bleu_core.study.tables import parse_table

if TYPE_CHECKING:
    from bleu_core.study.model import Study

__all__ = ["parse_long_table", "parse_mtme", "parse_wmt_automatic"]


# ------------------------------------------------------------------------------ checks of one score


def _number(value: str, file: str, line: int, column: str | None = None) -> float | None:
    """The score in a cell; ``None`` (written ``None``) for a missing one."""
    score = number(value, file=file, line=line, column=column, missing=("None",))
    return None if math.isnan(score) else score


def _known_system(study: Study, name: str, file: str, line: int) -> None:
    if name not in study.systems:
        known = ", ".join(study.systems)
        raise InputError(
            f"unknown system {name!r}; the study has: {known} (system names must match the study's)",
            file=file,
            line=line,
        )


def _check_none(study: Study, system: str, index: int, file: str, line: int) -> None:
    """A missing score is accepted only on a segment the system did not translate."""
    if study.systems[system][index] is not None:
        raise InputError(
            f"score None for system {system!r} on segment {study.segments[index].id!r}, which it "
            "translated; give its score",
            file=file,
            line=line,
        )


def _segment_index(study: Study, seg: str, file: str, line: int) -> int:
    """The position of segment id ``seg`` in the study."""
    try:
        return study.segment_index(seg)
    except KeyError:
        raise InputError(
            f"unknown segment id {seg!r}; segment ids must be the study's "
            f"(e.g. {study.segments[0].id!r})",
            file=file,
            line=line,
            column="segment_id",
        ) from None


# ------------------------------------------------------------------------------ checks of a whole metric


def _complete(
    study: Study, got: dict[str, list[float | None]], expected: int, what: str, file: str
) -> dict[str, tuple[float | None, ...]]:
    """Each system's scores in order, checked to be one per ``what`` (segment or document)."""
    out = {}
    for system, values in got.items():
        if len(values) != expected:
            raise InputError(
                f"system {system!r} has {len(values)} {what} scores, the study has {expected} "
                f"{what}s; a {what}-level file needs one line per {what} for every system, in order",
                file=file,
            )
        out[system] = tuple(values)
    _all_systems(study, out, file)
    return out


def _all_systems(study: Study, scores: dict[str, Any], file: str, metric: str = "") -> None:
    """Every machine system of the study has scores (human translations may have none)."""
    missing = [s for s in study.systems if s not in scores and s not in study.human_systems]
    if missing:
        label = f"metric {metric!r}: " if metric else ""
        raise InputError(
            f"{label}no scores for system(s) {', '.join(map(repr, missing))}; every machine "
            "system of the study needs a score (leave the system out of the study otherwise)",
            file=file,
        )


# ------------------------------------------------------------------------------ MTME score files


def _mtme_scores(text: str, file: str, level: str, study: Study) -> dict[str, list[float | None]]:
    """Each system's scores in the order of its lines, every line checked."""
    got: dict[str, list[float | None]] = {}
    for line_no, raw in enumerate(split_lines(text), start=1):
        if not raw.strip():
            continue
        parts = raw.split()
        if len(parts) != 2:
            raise InputError(
                f"expected 'SYSTEM<TAB>SCORE', found {len(parts)} fields; MTME score files have "
                "two whitespace-separated fields per line",
                file=file,
                line=line_no,
            )
        system, value = parts
        _known_system(study, system, file, line_no)
        score = _number(value, file, line_no)
        values = got.setdefault(system, [])
        if level == "seg" and score is None:
            if len(values) < study.n_segments:
                _check_none(study, system, len(values), file, line_no)
        elif score is None:
            raise InputError(
                f"score None for system {system!r}; give its score", file=file, line=line_no
            )
        if level == "sys" and values:
            raise InputError(
                f"system {system!r} appears twice in a system-level file; give one line per system",
                file=file,
                line=line_no,
            )
        values.append(score)
    if not got:
        raise InputError("no scores in this file; expected lines 'SYSTEM<TAB>SCORE'", file=file)
    return got


def parse_mtme(
    text: str, file: str, name: str, level: str, study: Study, lower_is_better: Iterable[str] = ()
) -> AttachedMetricScores:
    """Metric ``name``'s scores at ``level`` (``sys``, ``doc`` or ``seg``) from an MTME score file's
    ``text``; ``file`` names it in error messages and becomes the result's ``source``.

    >>> from bleu_core.study.model import Segment, Study
    >>> study = Study("toy", (Segment("1"), Segment("2")), {"ref": ["a", "b"]}, {"A": ["a", "b"], "B": ["a", None]})
    >>> parse_mtme("A 0.9\\nB 0.1\\nA 0.8\\nB None\\n", "M.seg.score", "M", "seg", study).segment
    {'A': (0.9, 0.8), 'B': (0.1, None)}
    """
    got = _mtme_scores(text, file, level, study)
    direction = higher_is_better(name, lower_is_better)
    if level == "sys":
        system = {k: float(v[0]) for k, v in got.items()}  # type: ignore[arg-type]
        _all_systems(study, system, file)
        return AttachedMetricScores(name, direction, system=system, source=file)
    if level == "doc":
        n_docs = len(study.doc_ids())
        if not n_docs:
            raise InputError("a document-level file, but the study has no document ids", file=file)
        return AttachedMetricScores(
            name, direction, document=_complete(study, got, n_docs, "document", file), source=file
        )
    return AttachedMetricScores(
        name,
        direction,
        segment=_complete(study, got, study.n_segments, "segment", file),
        source=file,
    )


# ------------------------------------------------------------------------------ long tables


def _long_rows(
    table: Any, file: str, study: Study
) -> tuple[dict[str, dict[str, float]], dict[str, dict[str, list[float | None]]]]:
    """The table's scores, every row checked: ``{metric: {system: score}}`` at system level and
    ``{metric: {system: one score per segment}}`` (NaN where the table has none)."""
    sys_level: dict[str, dict[str, float]] = {}
    seg_level: dict[str, dict[str, list[float | None]]] = {}
    seen: set[tuple[str, str, str]] = set()
    for row in table:
        system, seg, metric = (
            row["system"].strip(),
            row["segment_id"].strip(),
            row["metric"].strip(),
        )
        if not metric:
            raise InputError(
                "empty metric name; name the metric of every row",
                file=file,
                line=row.line,
                column="metric",
            )
        _known_system(study, system, file, row.line)
        score = _number(row["score"], file, row.line, "score")
        key = (metric, system, seg)
        if key in seen:
            where = f"segment {seg!r}" if seg else "system level"
            raise InputError(
                f"second score of metric {metric!r} for system {system!r} ({where}); give one",
                file=file,
                line=row.line,
            )
        seen.add(key)
        if not seg:
            if score is None:
                raise InputError(
                    "score None at system level; give the score", file=file, line=row.line
                )
            sys_level.setdefault(metric, {})[system] = score
            continue
        index = _segment_index(study, seg, file, row.line)
        if score is None:
            _check_none(study, system, index, file, row.line)
        row_scores = seg_level.setdefault(metric, {}).setdefault(
            system, [math.nan] * study.n_segments
        )
        row_scores[index] = score
    return sys_level, seg_level


def _is_gap(value: float | None) -> bool:
    """A segment the table gave no row for (``None`` is a score given as missing)."""
    return isinstance(value, float) and math.isnan(value)


def _segment_scores(
    study: Study, metric: str, by_system: dict[str, list[float | None]], file: str
) -> dict[str, tuple[float | None, ...]]:
    """Each system's segment scores, checked to cover every segment it translated; a segment it did
    not translate and that has no row becomes ``None``."""
    segment = {}
    for system, values in by_system.items():
        missing = [
            study.segments[i].id
            for i, v in enumerate(values)
            if _is_gap(v) and study.systems[system][i] is not None
        ]
        if missing:
            raise InputError(
                f"metric {metric!r}, system {system!r}: no score for {len(missing)} "
                f"segment(s), first {missing[0]!r}; give a score for every translated segment",
                file=file,
            )
        segment[system] = tuple(None if _is_gap(v) else v for v in values)
    _all_systems(study, segment, file, metric)
    return segment


def parse_long_table(
    text: str, file: str, study: Study, lower_is_better: Iterable[str] = ()
) -> list[AttachedMetricScores]:
    """Every metric of a long table (``system, segment_id, metric, score``), in order of first
    appearance; a table with a ``pair`` column and no ``segment_id`` is a WMT
    ``automatic-scores.tsv`` (:func:`parse_wmt_automatic`)."""
    table = parse_table(text, file)
    if "pair" in table.columns and "segment_id" not in table.columns:
        return parse_wmt_automatic(table, study, lower_is_better)
    table.require("system", "segment_id", "metric", "score")
    sys_level, seg_level = _long_rows(table, file, study)
    out = []
    for metric in dict.fromkeys([*sys_level, *seg_level]):
        segment = None
        if metric in seg_level:
            segment = _segment_scores(study, metric, seg_level[metric], file)
        system_scores = sys_level.get(metric)
        if system_scores is not None:
            _all_systems(study, system_scores, file, metric)
        direction = higher_is_better(metric, lower_is_better)
        out.append(AttachedMetricScores(metric, direction, system_scores, segment, source=file))
    return out


# ------------------------------------------------------------------------------ WMT automatic scores


def _study_pair(table: Any, study: Study) -> str:
    """The language pair to read: the study's, or the table's only one when the study names none."""
    pairs = list(dict.fromkeys(row["pair"].strip() for row in table))
    pair = (study.metadata or {}).get("pair")
    if pair is None:
        if len(pairs) > 1:
            raise InputError(
                f"this table has several language pairs ({', '.join(pairs)}) and the study names "
                "none; load the study with --pair xx-yy",
                file=table.file,
            )
        pair = pairs[0]
    if pair not in pairs:
        raise InputError(
            f"no scores for the study's language pair {pair!r}; pairs in the table: {', '.join(pairs)}",
            file=table.file,
        )
    return pair


def parse_wmt_automatic(
    table: Any, study: Study, lower_is_better: Iterable[str] = ()
) -> list[AttachedMetricScores]:
    """The system-level scores of every metric for the study's language pair, from a WMT
    ``automatic-scores.tsv`` already read into a table (:func:`bleu_core.study.tables.parse_table`)."""
    table.require("pair", "system", "metric", "score")
    pair = _study_pair(table, study)
    scores: dict[str, dict[str, float]] = {}
    for row in table:
        if row["pair"].strip() != pair:
            continue
        system, metric = row["system"].strip(), row["metric"].strip()
        _known_system(study, system, table.file, row.line)
        score = _number(row["score"], table.file, row.line, "score")
        if score is None:
            raise InputError("score None; give the score", file=table.file, line=row.line)
        if system in scores.setdefault(metric, {}):
            raise InputError(
                f"second score of metric {metric!r} for system {system!r}; give one",
                file=table.file,
                line=row.line,
            )
        scores[metric][system] = score
    out = []
    for metric, values in scores.items():
        _all_systems(study, values, table.file, metric)
        direction = higher_is_better(metric, lower_is_better)
        out.append(AttachedMetricScores(metric, direction, system=values, source=table.file))
    return out
