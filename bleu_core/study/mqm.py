"""Google's MQM annotation TSV (``mqm_<testset>_<lp>.tsv``) → a study with per-segment MQM scores.

Each row of the TSV is one annotated error (or a ``No-error`` row for an error-free segment) of one system's
translation of one segment, by one rater. Every row repeats the full source and target text, with the error
span marked ``<v>…</v>``; the marks are stripped here.

Scores follow Google's weighting (Freitag et al. 2021, "Experts, Errors, and Context"): a segment's MQM
score, per rater, is minus the weighted error count — Major 5, Minor 1, but a Minor ``Fluency/Punctuation``
error 0.1, and a ``Non-translation`` 25 — and a system's segment score is the mean over its raters. Higher
(closer to 0) is better. The sums are done in integer tenths so the scores equal Google's published
``avg_seg_scores.tsv`` exactly. Two derived criteria keep only part of the errors: ``mqm_accuracy``
(``Accuracy/*`` categories, the closest real stand-in for *adequacy*) and ``mqm_fluency`` (``Fluency/*``, the
stand-in for *fluency*).

Human translations (names starting with ``ref`` or ``human``, e.g. ``ref``, ``refB``, ``Human-A.0``) are
rated like systems. One of them becomes the reference stream — by default the one with the best mean MQM
score (for the TED zh-en set that is ``refB``: ``ref`` was rated worst of all) — and the others stay in the
study as human systems.

>>> weighted_penalty_tenths("Major", "Accuracy/Mistranslation"), weighted_penalty_tenths("Minor", "Fluency/Punctuation")
(50, 1)
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from bleu_core.errors import InputError, StudyError
from bleu_core.study.model import Criterion, LoadResult, LoadWarning, Rating, Segment, Study
from bleu_core.study.tables import Table, parse_table

__all__ = [
    "MQM_COLUMNS",
    "MQM_CRITERIA",
    "is_human_name",
    "mqm_study_from_table",
    "weighted_penalty_tenths",
]

#: Columns every Google MQM TSV has (``doc_id`` and ``comment`` are optional).
MQM_COLUMNS = ("system", "doc", "seg_id", "rater", "source", "target", "category", "severity")

MQM_CRITERIA: dict[str, Criterion] = {
    "mqm": Criterion(
        "mqm",
        True,
        None,
        "MQM score: minus the weighted error count (Major 5, Minor 1, Minor Fluency/Punctuation 0.1, "
        "Non-translation 25), mean over raters; 0 = no error (Google's weighting)",
    ),
    "mqm_accuracy": Criterion(
        "mqm_accuracy",
        True,
        None,
        "MQM score from Accuracy/* errors only (mistranslation, omission, addition, untranslated): "
        "the closest stand-in for adequacy",
    ),
    "mqm_fluency": Criterion(
        "mqm_fluency",
        True,
        None,
        "MQM score from Fluency/* errors only (grammar, spelling, punctuation, register...): "
        "the closest stand-in for fluency",
    ),
}

_SPAN_MARK = re.compile(r"</?v>")
_HUMAN = re.compile(r"^(ref|human)", re.IGNORECASE)
_NO_ERROR = {"no-error", "neutral", "no error"}


def is_human_name(name: str) -> bool:
    """True for names of human translations in Google's and WMT's files (``ref``, ``refB``, ``Human-A.0``)."""
    return bool(_HUMAN.match(name))


def weighted_penalty_tenths(severity: str, category: str) -> int | None:
    """Google's MQM weight of one error in tenths of a point; ``None`` for an unknown severity."""
    sev = severity.strip().lower()
    cat = category.strip().lower()
    if sev in _NO_ERROR or cat == "no-error":
        return 0
    if cat.startswith("non-translation"):
        return 250
    if sev == "major":
        return 50
    if sev == "minor":
        return 1 if cat == "fluency/punctuation" else 10
    return None


@dataclass
class _Item:
    total: int = 0
    accuracy: int = 0
    fluency: int = 0


@dataclass
class _Collected:
    texts: dict[tuple[str, str], tuple[str, int]] = field(default_factory=dict)
    sources: dict[str, tuple[str, int]] = field(default_factory=dict)
    docs: dict[str, str] = field(default_factory=dict)
    items: dict[tuple[str, str, str], _Item] = field(default_factory=lambda: defaultdict(_Item))


def _strip(text: str) -> str:
    return _SPAN_MARK.sub("", text)


def _segment_sort_key(seg_id: str) -> tuple[int, int | str]:
    return (0, int(seg_id)) if seg_id.isdigit() else (1, seg_id)


def _collect(table: Table) -> _Collected:
    table.require(
        *MQM_COLUMNS, fix="this does not look like a Google MQM TSV (see docs/formats.md)"
    )
    got = _Collected()
    for row in table:
        system = row["system"].strip()
        seg_id = row["seg_id"].strip()
        if not system or not seg_id:
            raise InputError(
                "empty system or seg_id; every row needs both",
                file=table.file,
                line=row.line,
                column="system" if not system else "seg_id",
            )
        target = _strip(row["target"])
        source = _strip(row["source"])
        key = (system, seg_id)
        previous = got.texts.get(key)
        if previous is None:
            got.texts[key] = (target, row.line)
        elif previous[0] != target:
            raise InputError(
                f"{system} has a different target text for segment {seg_id} than on line "
                f"{previous[1]} (after removing <v></v> marks); one segment, one translation",
                file=table.file,
                line=row.line,
                column="target",
            )
        if seg_id not in got.sources:
            got.sources[seg_id] = (source, row.line)
        elif got.sources[seg_id][0] != source:
            raise InputError(
                f"segment {seg_id} has a different source text than on line {got.sources[seg_id][1]}",
                file=table.file,
                line=row.line,
                column="source",
            )
        doc = row["doc"].strip()
        if doc:
            got.docs.setdefault(seg_id, doc)
        weight = weighted_penalty_tenths(row["severity"], row["category"])
        if weight is None:
            raise InputError(
                f"unknown severity {row['severity']!r}; expected Major, Minor, No-error or Neutral",
                file=table.file,
                line=row.line,
                column="severity",
            )
        item = got.items[(system, seg_id, row["rater"].strip())]
        item.total += weight
        category = row["category"].strip().lower()
        if category.startswith("accuracy/"):
            item.accuracy += weight
        elif category.startswith("fluency/"):
            item.fluency += weight
    if not got.texts:
        raise InputError("no rows; the file has a header only", file=table.file)
    return got


def _pair_from_name(file: str) -> tuple[str | None, str | None]:
    match = re.search(r"_([a-z]{2})-?([a-z]{2})(\.[a-z_]+)?\.tsv$", file)
    return (match.group(1), match.group(2)) if match else (None, None)


def mqm_study_from_table(
    table: Table,
    *,
    name: str | None = None,
    reference: str | Sequence[str] | None = None,
    pair: str | None = None,
) -> LoadResult:
    """Build a study from a parsed Google MQM TSV.

    ``reference`` names the translation(s) used as reference stream(s); by default the human translation
    with the best mean MQM score. ``pair`` (``"en-de"``) sets the languages, otherwise they are read from the
    file name (``mqm_ted_ende.tsv``).
    """
    got = _collect(table)
    segment_ids = sorted(got.sources, key=_segment_sort_key)
    names = list(dict.fromkeys(system for system, _ in got.texts))
    humans = [n for n in names if is_human_name(n)]
    mean_mqm: dict[str, float] = {}
    for system in names:
        values = [-item.total for (s, _, _), item in got.items.items() if s == system]
        mean_mqm[system] = sum(values) / (10 * len(values))
    if reference is None:
        if not humans:
            raise StudyError(
                "no human translation found (names starting with 'ref' or 'human'); choose the "
                f"reference with reference=NAME (one of: {', '.join(names)})",
                file=table.file,
            )
        chosen = [max(humans, key=lambda n: mean_mqm[n])]
    else:
        chosen = [reference] if isinstance(reference, str) else list(reference)
    for ref in chosen:
        if ref not in names:
            raise StudyError(
                f"reference {ref!r} is not a translation in this file; choose one of: "
                f"{', '.join(names)}",
                file=table.file,
            )
    warnings: list[LoadWarning] = []

    def stream(system: str) -> list[str | None]:
        return [
            got.texts[(system, seg)][0] if (system, seg) in got.texts else None
            for seg in segment_ids
        ]

    references = {ref: stream(ref) for ref in chosen}
    systems = {system: stream(system) for system in names if system not in chosen}
    segments = tuple(Segment(seg, got.docs.get(seg), got.sources[seg][0]) for seg in segment_ids)
    ratings: list[Rating] = []
    set_aside = 0
    for (system, seg_id, rater), item in got.items.items():
        if system in chosen:
            set_aside += 1
            continue
        rater_name = rater or None
        ratings.append(Rating(system, seg_id, rater_name, None, "mqm", -item.total / 10))
        ratings.append(
            Rating(system, seg_id, rater_name, None, "mqm_accuracy", -item.accuracy / 10)
        )
        ratings.append(Rating(system, seg_id, rater_name, None, "mqm_fluency", -item.fluency / 10))
    if set_aside:
        warnings.append(
            LoadWarning(
                "reference-ratings-set-aside",
                f"{set_aside} MQM-rated items of the reference {', '.join(chosen)} are not ratings of a "
                "system (a reference cannot be scored against itself); its mean MQM is kept in "
                "metadata['reference_mqm'] — choose another reference to study it as a system",
                file=table.file,
            )
        )
    source_lang, target_lang = _pair_from_name(table.file)
    if pair:
        source_lang, target_lang = pair.split("-", 1)
    study = Study(
        name=name or table.file.rsplit("/", 1)[-1].removesuffix(".tsv"),
        segments=segments,
        references=references,
        systems=systems,
        human_systems=frozenset(h for h in humans if h not in chosen),
        criteria=dict(MQM_CRITERIA),
        ratings=tuple(ratings),
        source_lang=source_lang,
        target_lang=target_lang,
        metadata={
            "format": "google-mqm-tsv",
            "file": table.file,
            "reference_mqm": {ref: mean_mqm[ref] for ref in chosen},
            "mqm_weights": "Major 5, Minor 1, Minor Fluency/Punctuation 0.1, Non-translation 25",
        },
    )
    return LoadResult(study, tuple(warnings))


def load_mqm_tsv(
    text: str,
    file: str,
    *,
    name: str | None = None,
    reference: str | Sequence[str] | None = None,
    pair: str | None = None,
) -> LoadResult:
    """Parse and convert the text of a Google MQM TSV (see :func:`mqm_study_from_table`)."""
    return mqm_study_from_table(
        parse_table(text, file, delimiter="\t"), name=name, reference=reference, pair=pair
    )


def looks_like_mqm(columns: Sequence[str]) -> bool:
    """True when a header has every column of Google's MQM TSV."""
    return all(column in columns for column in MQM_COLUMNS)
