"""WMT25's human evaluation (two ESA passes) and automatic scores, read onto a JSON-lines release's study.

**Human evaluation** ``data/wmt25-genmt-humeval.jsonl``: one paragraph per line, written by the organisers'
``humeval/04-collect_humeval.py`` (wmt-conference/wmt25-general-mt, commit ebae873)::

    {"doc_id": "PAIR_#_DOMAIN_#_DOC_#_INDEX", "src_text": ..., "tgt_text": {SYSTEM: paragraph, "refA": ...},
     "scores": {SYSTEM: {"human1": 0-100, "errors1": [span, ...], "annotator1": account,
                         "human2": ..., "errors2": ..., "annotator2": ...}}}

``humanK`` is pass K (the script's "wave" K, a different professional annotator); pass 2 is absent on most
items. ``errorsK`` are Appraise's ESA spans with the ``error_type`` removed by that script:
``{"start_i", "end_i", "severity"}``, character offsets into ``tgt_text`` (``end_i`` exclusive, read by
:func:`bleu_core.study.formats.esa.parse_esa_spans`; ``"missing"`` marks an omission), where ``<br>`` was
already turned into ``"\\n"``. Each score becomes a :class:`~bleu_core.study.model.Rating` of criterion
``esa`` with rater ``annotatorK`` (``humanK`` when the line names none) and group ``humanK``: an item with
both passes has two raters, so the human ceiling (:mod:`bleu_core.evaluation.ceiling`) compares pass against
pass. The study's ESA score of an item is the mean of its passes; the organisers' clusters
(``humeval/05-compute_clusters.py``) count the two passes as two segments, which weighs an item with two
passes double in a system's mean.

A line that does not fit the study (another pair: skipped; a paragraph left out; a system that is not in
the release; a score outside 0-100; spans outside the text) is a warning naming the file and line, and the
rest is read.

**Automatic scores** ``data/automatic_scores/SYS.jsonl``: one document per line, ``language_pair``,
``domain``, ``document_id`` and ``metric_scores`` {metric: [one score per paragraph]}. Every metric is
attached at segment level (:mod:`bleu_core.study.metric_scores`). The release stores MetricX negated
(values -25…0, higher is better, as the organisers' report marks it ↑); a MetricX column of raw,
non-negative values is read as lower-is-better.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bleu_core.errors import InputError
from bleu_core.io.cells import json_cell
from bleu_core.io.members import FileTree
from bleu_core.study.formats.esa import ESA_CRITERION, parse_esa_spans
from bleu_core.study.metric_score_model import AttachedMetricScores
from bleu_core.study.model import LoadWarning, Rating, Study
from bleu_core.study.reference_choice import reference_letter
from bleu_core.study.spans import ErrorSpan

__all__ = ["HumanPasses", "read_automatic_scores", "read_humeval"]

PASSES = ("1", "2")


@dataclass(frozen=True)
class HumanPasses:
    """What :func:`read_humeval` found: ratings, spans, warnings (one per bad line, then a summary)."""

    ratings: tuple[Rating, ...]
    spans: tuple[ErrorSpan, ...]
    warnings: tuple[LoadWarning, ...]


def _system(raw: str, texts: Mapping[str, Sequence[str | None]]) -> str | None:
    if raw in texts:
        return raw
    letter = reference_letter(raw)
    return f"ref-{letter}" if letter and f"ref-{letter}" in texts else None


def _pass_ratings(
    entry: Mapping[str, object], key: tuple[str, str, str], where: tuple[str, int]
) -> tuple[list[Rating], list[ErrorSpan], list[str]]:
    """The ratings and spans of one system's entry on one paragraph, and what was wrong with it."""
    system, seg_id, text = key
    file, line = where
    ratings, spans, problems = [], [], []
    for k in PASSES:
        score = entry.get(f"human{k}")
        if score is None:
            continue
        if isinstance(score, bool) or not isinstance(score, (int, float)):
            problems.append(f"human{k} of {system} is {score!r}, not a number")
            continue
        if not 0 <= score <= 100:
            problems.append(f"human{k} of {system} is {score}, outside ESA's 0-100")
            continue
        rater = str(entry.get(f"annotator{k}") or f"human{k}")
        ratings.append(Rating(system, seg_id, rater, f"human{k}", ESA_CRITERION.name, float(score)))
        try:
            spans += parse_esa_spans(
                json.dumps(entry.get(f"errors{k}") or []),
                text,
                system=system,
                segment_id=seg_id,
                rater=rater,
                file=file,
                line=line,
            )
        except InputError as err:
            problems.append(f"errors{k} of {system}: {err.message}; its spans are not read")
    return ratings, spans, problems


def read_humeval(
    tree: FileTree, path: str, study: Study, texts: Mapping[str, Sequence[str | None]], pair: str
) -> HumanPasses:
    """The human scores of ``pair`` in ``path`` for ``study`` (``texts``: systems and reference streams)."""
    shown = tree.display(path)
    index = {seg_id: i for i, seg_id in enumerate(study.segment_ids)}
    ratings: list[Rating] = []
    spans: list[ErrorSpan] = []
    warnings: list[LoadWarning] = []
    outside = 0
    for number, line in enumerate(tree.read_lines(path), start=1):
        if not line.strip():
            continue
        item = json_cell(line, file=shown, line=number, expected="one paragraph per line")
        doc_id = item.get("doc_id") if isinstance(item, dict) else None
        if not isinstance(doc_id, str) or not isinstance(item.get("scores", {}), dict):
            warnings.append(
                LoadWarning("humeval-line", "not a paragraph: no doc_id or scores", shown, number)
            )
            continue
        if doc_id.split("_#_")[0] != pair:
            continue
        if doc_id not in index:
            outside += 1
            continue
        got, problems = _line_ratings(item, doc_id, index[doc_id], texts, (shown, number))
        ratings += got[0]
        spans += got[1]
        warnings += [LoadWarning("humeval-line", p, shown, number) for p in problems]
    if outside:
        warnings.append(
            LoadWarning(
                "humeval-outside-study",
                f"{outside} rated paragraphs of {pair} are not in the study (their document has no "
                "reference, or another paragraph count): not read",
                file=shown,
            )
        )
    return HumanPasses(tuple(ratings), tuple(spans), tuple(warnings))


def _line_ratings(
    item: Mapping[str, object],
    seg_id: str,
    position: int,
    texts: Mapping[str, Sequence[str | None]],
    where: tuple[str, int],
) -> tuple[tuple[list[Rating], list[ErrorSpan]], list[str]]:
    """The ratings and spans of one humeval line (its systems' entries), and the problems found."""
    ratings: list[Rating] = []
    spans: list[ErrorSpan] = []
    problems: list[str] = []
    rated = item.get("tgt_text")
    scores = item.get("scores")
    for raw, entry in (scores if isinstance(scores, dict) else {}).items():
        system = _system(str(raw), texts)
        if system is None or not isinstance(entry, dict):
            why = "is not in the release" if system is None else "has no object of scores"
            problems.append(f"system {raw!r} {why}: its scores are not read")
            continue
        text = texts[system][position]
        if text is None:
            problems.append(f"{system} has no output for {seg_id} in the study: not read")
            continue
        shown_text = rated.get(raw) if isinstance(rated, dict) else None
        if isinstance(shown_text, str) and shown_text != text:
            problems.append(
                f"the text of {system} rated here differs from the release's paragraph: its "
                "error spans are not read (the score is)"
            )
            entry = {k: v for k, v in entry.items() if not str(k).startswith("errors")}
        got, got_spans, found = _pass_ratings(entry, (system, seg_id, text), where)
        ratings += got
        spans += got_spans
        problems += found
    return (ratings, spans), problems


def _metric_direction(name: str, values: Sequence[float]) -> bool:
    """Higher is better, except a MetricX column of non-negative (raw, not negated) values."""
    if not name.lower().startswith("metricx"):
        return True
    return any(v < 0 for v in values)


def read_automatic_scores(
    tree: FileTree,
    paths: Mapping[str, str],
    study: Study,
    pair: str,
) -> tuple[list[AttachedMetricScores], list[LoadWarning]]:
    """The per-paragraph metric scores of the study's systems, one :class:`AttachedMetricScores` each."""
    starts: dict[str, tuple[int, int]] = {}
    for i, seg in enumerate(study.segments):
        if seg.doc_id is not None:
            first, count = starts.get(seg.doc_id, (i, 0))
            starts[seg.doc_id] = (first, count + 1)
    scores: dict[str, dict[str, list[float | None]]] = {}
    sources: list[str] = []
    warnings: list[LoadWarning] = []
    for system, path in sorted(paths.items()):
        if system not in study.systems:
            continue
        shown = tree.display(path)
        sources.append(shown)
        for number, line in enumerate(tree.read_lines(path), start=1):
            if not line.strip():
                continue
            item = json_cell(line, file=shown, line=number, expected="one document per line")
            if not isinstance(item, dict) or item.get("language_pair") != pair:
                continue
            doc_id = f"{pair}_#_{item.get('domain')}_#_{item.get('document_id')}"
            if doc_id not in starts or not isinstance(item.get("metric_scores"), dict):
                continue
            first, count = starts[doc_id]
            texts = study.systems[system]
            if all(t is None for t in texts[first : first + count]):
                continue  # no output there (a paragraph mismatch, already reported)
            for metric, values in item["metric_scores"].items():
                ok = isinstance(values, list) and len(values) == count
                ok = ok and all(
                    isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
                    for v in values
                )
                if not ok:
                    warnings.append(
                        LoadWarning(
                            "automatic-scores-line",
                            f"{metric} of {doc_id}: expected {count} finite scores (one per "
                            "paragraph); not read",
                            shown,
                            number,
                        )
                    )
                    continue
                row = scores.setdefault(metric, {}).setdefault(system, [None] * study.n_segments)
                for k, v in enumerate(values):
                    row[first + k] = None if texts[first + k] is None else float(v)
    attached = [
        AttachedMetricScores(
            metric,
            _metric_direction(metric, [v for row in rows.values() for v in row if v is not None]),
            segment={s: tuple(row) for s, row in rows.items()},
            source=", ".join(sources),
        )
        for metric, rows in sorted(scores.items())
    ]
    return attached, warnings
