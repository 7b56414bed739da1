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
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from bleu_core.errors import InputError, StudyError
from bleu_core.io.cells import number
from bleu_core.io.text import DEFAULT_MAX_BYTES, check_size, read_text, split_lines, text_from_bytes

__all__ = [
    "LEVELS",
    "LOWER_IS_BETTER",
    "AttachedMetricScores",
    "attach_metric_scores",
    "merge_metric_scores",
    "metric_scores_from_dict",
    "metric_scores_from_files",
    "metric_scores_to_dict",
    "parse_metric_scores",
    "read_metric_scores",
]

LEVELS = ("sys", "doc", "seg")
#: Metric base names (lower case) whose scores are better when lower; everything else is higher-better.
LOWER_IS_BETTER = frozenset({"ter", "wer", "per", "character", "eed", "cder", "hter"})

_MTME_NAME = re.compile(
    r"^(?:(?P<pair>[a-z]{2,3}-[a-z]{2,3})\.)?(?P<name>.+)\.(?P<level>[a-z]+)\.score$"
)


@dataclass(frozen=True)
class AttachedMetricScores:
    """One attached metric's scores for a study.

    ``system`` maps a system to its system-level score; ``segment`` a system to one score per
    segment of the study (``None`` where the system has no translation); ``document`` a system to
    one score per document (in :meth:`~bleu_core.study.model.Study.doc_ids` order). Any of the
    three may be ``None`` (level not given). ``source`` names the file(s) the scores came from.
    """

    name: str
    higher_is_better: bool = True
    system: dict[str, float] | None = None
    segment: dict[str, tuple[float | None, ...]] | None = None
    document: dict[str, tuple[float | None, ...]] | None = None
    source: str = ""

    @property
    def levels(self) -> tuple[str, ...]:
        """The levels present, among ``sys``, ``doc``, ``seg``."""
        have = {"sys": self.system, "doc": self.document, "seg": self.segment}
        return tuple(level for level in LEVELS if have[level] is not None)

    def segment_array(self, systems: Sequence[str]) -> np.ndarray | None:
        """Segment scores as a ``systems × segments`` array (NaN where missing), or ``None``."""
        if self.segment is None:
            return None
        n = len(next(iter(self.segment.values()), ()))
        out = np.full((len(systems), n), np.nan)
        for k, name in enumerate(systems):
            row = self.segment.get(name)
            if row is not None:
                out[k] = [math.nan if v is None else v for v in row]
        return out

    def system_scores(self, study: Any) -> dict[str, float]:
        """Score per system of ``study``: the system-level score when given, else the mean of its
        segment scores (NaN when neither exists)."""
        out = {}
        for name in study.systems:
            if self.system is not None and name in self.system:
                out[name] = self.system[name]
            elif self.segment is not None and name in self.segment:
                values = [v for v in self.segment[name] if v is not None]
                out[name] = math.fsum(values) / len(values) if values else math.nan
            else:
                out[name] = math.nan
        return out

    def subset(self, systems: Iterable[str], n_segments: int, n_docs: int) -> AttachedMetricScores:
        """Only ``systems`` and the first ``n_segments`` segments (see ``Study.subset``)."""
        chosen = set(systems)

        def cut(d: dict[str, Any] | None, n: int) -> dict[str, Any] | None:
            return None if d is None else {k: v[:n] for k, v in d.items() if k in chosen}

        system = (
            None if self.system is None else {k: v for k, v in self.system.items() if k in chosen}
        )
        return replace(
            self,
            system=system,
            segment=cut(self.segment, n_segments),
            document=cut(self.document, n_docs),
        )


def _base_name(name: str) -> str:
    return re.split(r"[-_ ]", name.strip().lower(), maxsplit=1)[0]


def _direction(name: str, lower_is_better: Iterable[str]) -> bool:
    lower = {n.lower() for n in lower_is_better}
    return not (name.lower() in lower or _base_name(name) in (LOWER_IS_BETTER | lower))


def _number(value: str, file: str, line: int, column: str | None = None) -> float | None:
    """The score in a cell; ``None`` (written ``None``) for a missing one."""
    score = number(value, file=file, line=line, column=column, missing=("None",))
    return None if math.isnan(score) else score


def _known_system(study: Any, name: str, file: str, line: int) -> None:
    if name not in study.systems:
        known = ", ".join(study.systems)
        raise InputError(
            f"unknown system {name!r}; the study has: {known} (system names must match the study's)",
            file=file,
            line=line,
        )


def _check_none(study: Any, system: str, index: int, file: str, line: int) -> None:
    if study.systems[system][index] is not None:
        raise InputError(
            f"score None for system {system!r} on segment {study.segments[index].id!r}, which it "
            "translated; give its score",
            file=file,
            line=line,
        )


def _complete(
    study: Any, got: dict[str, list[float | None]], expected: int, what: str, file: str
) -> dict[str, tuple[float | None, ...]]:
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


def _all_systems(study: Any, scores: dict[str, Any], file: str, metric: str = "") -> None:
    missing = [s for s in study.systems if s not in scores and s not in study.human_systems]
    if missing:
        label = f"metric {metric!r}: " if metric else ""
        raise InputError(
            f"{label}no scores for system(s) {', '.join(map(repr, missing))}; every machine "
            "system of the study needs a score (leave the system out of the study otherwise)",
            file=file,
        )


def _parse_mtme(
    text: str, file: str, name: str, level: str, study: Any, lower_is_better: Iterable[str]
) -> AttachedMetricScores:
    got: dict[str, list[float | None]] = {}
    n_docs = len(study.doc_ids())
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
    direction = _direction(name, lower_is_better)
    if level == "sys":
        system = {k: float(v[0]) for k, v in got.items()}  # type: ignore[arg-type]
        _all_systems(study, system, file)
        return AttachedMetricScores(name, direction, system=system, source=file)
    if level == "doc":
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


def _parse_long(
    text: str, file: str, study: Any, lower_is_better: Iterable[str]
) -> list[AttachedMetricScores]:
    from bleu_core.study.tables import parse_table

    table = parse_table(text, file)
    if "pair" in table.columns and "segment_id" not in table.columns:
        return _parse_wmt_automatic(table, study, lower_is_better)
    table.require("system", "segment_id", "metric", "score")
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
        try:
            index = study.segment_index(seg)
        except KeyError:
            raise InputError(
                f"unknown segment id {seg!r}; segment ids must be the study's "
                f"(e.g. {study.segments[0].id!r})",
                file=file,
                line=row.line,
                column="segment_id",
            ) from None
        if score is None:
            _check_none(study, system, index, file, row.line)
        row_scores = seg_level.setdefault(metric, {}).setdefault(
            system, [math.nan] * study.n_segments
        )  # type: ignore[list-item]
        row_scores[index] = score
    out = []
    for metric in dict.fromkeys([*sys_level, *seg_level]):
        segment = None
        if metric in seg_level:
            segment = {}
            for system, values in seg_level[metric].items():
                missing = [
                    study.segments[i].id
                    for i, v in enumerate(values)
                    if isinstance(v, float)
                    and math.isnan(v)
                    and study.systems[system][i] is not None
                ]
                if missing:
                    raise InputError(
                        f"metric {metric!r}, system {system!r}: no score for {len(missing)} "
                        f"segment(s), first {missing[0]!r}; give a score for every translated segment",
                        file=file,
                    )
                segment[system] = tuple(
                    None if isinstance(v, float) and math.isnan(v) else v for v in values
                )
            _all_systems(study, segment, file, metric)
        system_scores = sys_level.get(metric)
        if system_scores is not None:
            _all_systems(study, system_scores, file, metric)
        out.append(
            AttachedMetricScores(
                metric, _direction(metric, lower_is_better), system_scores, segment, source=file
            )
        )
    return out


def _parse_wmt_automatic(
    table: Any, study: Any, lower_is_better: Iterable[str]
) -> list[AttachedMetricScores]:
    table.require("pair", "system", "metric", "score")
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
        out.append(
            AttachedMetricScores(
                metric, _direction(metric, lower_is_better), system=values, source=table.file
            )
        )
    return out


def parse_metric_scores(
    text: str, file: str, study: Any, *, lower_is_better: Iterable[str] = ()
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
        return [_parse_mtme(text, file, match["name"], match["level"], study, lower_is_better)]
    return _parse_long(text, file, study, lower_is_better)


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
    study: Any,
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
    study: Any,
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
    study: Any, scores: Iterable[AttachedMetricScores] | dict[str, AttachedMetricScores]
) -> Any:
    """A new study with ``scores`` added to ``study.metric_scores`` (same name: replaced)."""
    items = list(scores.values()) if isinstance(scores, dict) else list(scores)
    merged = dict(getattr(study, "metric_scores", {}) or {})
    for item in items:
        check_metric_scores(study, item)
        merged[item.name] = item
    return replace(study, metric_scores=merged)


def check_metric_scores(study: Any, item: AttachedMetricScores) -> None:
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
