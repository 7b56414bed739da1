"""Google's MQM annotation TSV (``mqm_<testset>_<lp>.tsv``) → a study with per-segment MQM scores.

Each row of the TSV is one annotated error (or a ``No-error`` row for an error-free segment) of one system's
translation of one segment, by one rater. Every row repeats the full source and target text, with the error
span marked ``<v>…</v>``. The marks are removed from the texts and kept as :class:`ErrorSpan` objects
in ``study.error_spans`` (character offsets into the plain target, or source for source-side errors such
as omissions; full category; severity; rater); a rated item without errors has a ``No-error`` row and no
span.

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

The builder reads in three steps: :func:`_collect` walks the rows once (texts and sources kept where first
seen, a contradiction an error naming both lines: :class:`bleu_core.io.FirstSeen`; each rater's weighted
errors per item; the spans), the references are chosen (:func:`_choose_references`), and the study is built
from what was collected (:func:`_ratings`, :func:`_warnings`, :func:`_metadata`).

>>> weighted_penalty_tenths("Major", "Accuracy/Mistranslation"), weighted_penalty_tenths("Minor", "Fluency/Punctuation")
(50, 1)
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from bleu_core.errors import InputError, StudyError
from bleu_core.io.first_seen import FirstSeen
from bleu_core.study.model import Criterion, LoadResult, LoadWarning, Rating, Segment, Study
from bleu_core.study.reference_choice import reference_letter
from bleu_core.study.spans import ErrorSpan, spans_from_marked_text
from bleu_core.study.tables import Row, Table, parse_table

__all__ = [
    "MQM_COLUMNS",
    "MQM_CRITERIA",
    "is_human_name",
    "load_mqm_tsv",
    "looks_like_mqm",
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
    """One rater's weighted errors on one system's segment, in tenths of a point."""

    total: int = 0
    accuracy: int = 0
    fluency: int = 0


#: (system, seg_id, rater, side, start, end, category, severity) of one marked error
_Span = tuple[str, str, str, str, int, int, str, str]


@dataclass
class _Collected:
    """What the rows say: texts, sources and documents, every item's weighted errors, the marked spans."""

    file: str
    texts: FirstSeen[tuple[str, str], str] = field(init=False)
    sources: FirstSeen[str, str] = field(init=False)
    docs: dict[str, str] = field(default_factory=dict)
    items: dict[tuple[str, str, str], _Item] = field(default_factory=lambda: defaultdict(_Item))
    spans: list[_Span] = field(default_factory=list)
    #: lines of error rows without any <v></v> mark
    unmarked: list[int] = field(default_factory=list)
    #: lines whose last <v> is never closed (read as running to the end of the text)
    unclosed: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.texts = FirstSeen(
            self.file,
            lambda key: f"{key[0]} has a different target text for segment {key[1]}",
            fix="the texts are compared after removing the <v></v> marks — one segment, one translation",
            column="target",
        )
        self.sources = FirstSeen(
            self.file,
            lambda seg_id: f"segment {seg_id} has a different source text",
            fix="a segment has one source",
            column="source",
        )


def _segment_sort_key(seg_id: str) -> tuple[int, int | str]:
    return (0, int(seg_id)) if seg_id.isascii() and seg_id.isdigit() else (1, seg_id)


def _collect(table: Table) -> _Collected:
    table.require(
        *MQM_COLUMNS, fix="this does not look like a Google MQM TSV (see docs/formats.md)"
    )
    got = _Collected(table.file)
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
        marked = _texts_of_row(row, system, seg_id, got)
        _error_of_row(row, system, seg_id, marked, got)
    if not got.texts:
        raise InputError("no rows; the file has a header only", file=table.file)
    return got


def _texts_of_row(
    row: Row, system: str, seg_id: str, got: _Collected
) -> list[tuple[str, int, int]]:
    """Keep the row's plain target and source texts and document; return its marked spans as
    ``(side, start, end)``."""
    target, target_spans = spans_from_marked_text(
        row["target"], unclosed="to-end", file=got.file, line=row.line, column="target"
    )
    source, source_spans = spans_from_marked_text(
        row["source"], unclosed="to-end", file=got.file, line=row.line, column="source"
    )
    if any(row[c].count("<v>") > row[c].count("</v>") for c in ("target", "source")):
        got.unclosed.append(row.line)
    got.texts.add((system, seg_id), target, line=row.line)
    got.sources.add(seg_id, source, line=row.line)
    doc = row["doc"].strip()
    if doc:
        got.docs.setdefault(seg_id, doc)
    return [("target", *span) for span in target_spans] + [
        ("source", *span) for span in source_spans
    ]


def _error_of_row(
    row: Row, system: str, seg_id: str, marked: list[tuple[str, int, int]], got: _Collected
) -> None:
    """Add the row's error to its item's weighted counts and its spans to the study's."""
    weight = weighted_penalty_tenths(row["severity"], row["category"])
    if weight is None:
        raise InputError(
            f"unknown severity {row['severity']!r}; expected Major, Minor, No-error or Neutral",
            file=got.file,
            line=row.line,
            column="severity",
        )
    rater = row["rater"].strip()
    category = row["category"].strip()
    if weight or category.lower() not in ("no-error", *_NO_ERROR):
        if not marked:
            got.unmarked.append(row.line)
        severity = row["severity"].strip()
        got.spans += [
            (system, seg_id, rater, side, start, end, category, severity)
            for side, start, end in marked
        ]
    item = got.items[(system, seg_id, rater)]
    item.total += weight
    if category.lower().startswith("accuracy/"):
        item.accuracy += weight
    elif category.lower().startswith("fluency/"):
        item.fluency += weight


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
    mean_mqm = {system: _mean_mqm(got, system) for system in names}
    chosen = _choose_references(reference, names, humans, mean_mqm, table.file)

    def stream(system: str) -> list[str | None]:
        return [got.texts.get((system, seg)) for seg in segment_ids]

    ratings = _ratings(got, chosen)
    source_lang, target_lang = pair.split("-", 1) if pair else _pair_from_name(table.file)
    study = Study(
        name=name or table.file.rsplit("/", 1)[-1].removesuffix(".tsv"),
        segments=tuple(Segment(seg, got.docs.get(seg), got.sources[seg]) for seg in segment_ids),
        references={ref: stream(ref) for ref in chosen},
        systems={system: stream(system) for system in names if system not in chosen},
        human_systems=frozenset(h for h in humans if h not in chosen),
        criteria=dict(MQM_CRITERIA),
        ratings=tuple(ratings),
        error_spans=tuple(
            ErrorSpan(system, seg_id, rater or None, side, start, end, category, severity)  # type: ignore[arg-type]
            for system, seg_id, rater, side, start, end, category, severity in got.spans
            if system not in chosen
        ),
        source_lang=source_lang,
        target_lang=target_lang,
        metadata=_metadata(got, chosen, humans, mean_mqm),
    )
    return LoadResult(study, tuple(_warnings(got, chosen)))


def _mean_mqm(got: _Collected, system: str) -> float:
    values = [-item.total for (s, _, _), item in got.items.items() if s == system]
    return sum(values) / (10 * len(values))


def _ratings(got: _Collected, chosen: list[str]) -> list[Rating]:
    """Three ratings (mqm, mqm_accuracy, mqm_fluency) per rated item of every system not a reference."""
    ratings: list[Rating] = []
    for (system, seg_id, rater), item in got.items.items():
        if system in chosen:
            continue
        rater_name = rater or None
        ratings.append(Rating(system, seg_id, rater_name, None, "mqm", -item.total / 10))
        ratings.append(
            Rating(system, seg_id, rater_name, None, "mqm_accuracy", -item.accuracy / 10)
        )
        ratings.append(Rating(system, seg_id, rater_name, None, "mqm_fluency", -item.fluency / 10))
    return ratings


def _some_lines(lines: list[int]) -> str:
    return ", ".join(map(str, lines[:5])) + (" ..." if len(lines) > 5 else "")


def _warnings(got: _Collected, chosen: list[str]) -> list[LoadWarning]:
    warnings: list[LoadWarning] = []
    if got.unmarked:
        warnings.append(
            LoadWarning(
                "errors-without-span",
                f"{len(got.unmarked)} error rows mark no span with <v></v> (lines "
                f"{_some_lines(got.unmarked)}); they count in the MQM scores but cannot be located in "
                "the text",
                file=got.file,
            )
        )
    if got.unclosed:
        warnings.append(
            LoadWarning(
                "unclosed-span",
                f"{len(got.unclosed)} rows open an error span with <v> but never close it (lines "
                f"{_some_lines(got.unclosed)}); read as running to the end of the text",
                file=got.file,
            )
        )
    set_aside = sum(1 for system, _, _ in got.items if system in chosen)
    if set_aside:
        warnings.append(
            LoadWarning(
                "reference-ratings-set-aside",
                f"{set_aside} MQM-rated items of the reference {', '.join(chosen)} are not ratings of a "
                "system (a reference cannot be scored against itself); its mean MQM is kept in "
                "metadata['reference_mqm'] — choose another reference to study it as a system",
                file=got.file,
            )
        )
    return warnings


def _metadata(
    got: _Collected, chosen: list[str], humans: list[str], mean_mqm: dict[str, float]
) -> dict:
    return {
        "format": "google-mqm-tsv",
        "file": got.file,
        "reference_mqm": {ref: mean_mqm[ref] for ref in chosen},
        # every human translation can be a reference stream, and the chosen ones' scores are kept:
        # reference_choice.choose_references switches without reading the file again
        "all_references": humans + [ref for ref in chosen if ref not in humans],
        "reference_ratings": [
            [system, seg_id, rater or None, None, criterion, -tenths / 10]
            for (system, seg_id, rater), item in got.items.items()
            if system in chosen
            for criterion, tenths in (
                ("mqm", item.total),
                ("mqm_accuracy", item.accuracy),
                ("mqm_fluency", item.fluency),
            )
        ],
        "mqm_weights": "Major 5, Minor 1, Minor Fluency/Punctuation 0.1, Non-translation 25",
    }


def _choose_references(
    reference: str | Sequence[str] | None,
    names: list[str],
    humans: list[str],
    mean_mqm: dict[str, float],
    file: str,
) -> list[str]:
    """The translations ``reference`` names: by default the best-rated human translation; ``"all"`` (every
    human translation), names in the file, or reference letters of human translations (``"B"`` or
    ``HUMAN-B`` for ``refB``)."""
    if reference is None:
        if not humans:
            raise StudyError(
                "no human translation found (names starting with 'ref' or 'human'); choose the "
                f"reference with reference=NAME (one of: {', '.join(names)})",
                file=file,
            )
        return [max(humans, key=lambda n: mean_mqm[n])]
    parts = [reference] if isinstance(reference, str) else list(reference)
    if [str(p).strip().lower() for p in parts] == ["all"]:
        if not humans:
            raise StudyError(
                "reference='all' needs human translations (names starting with 'ref' or 'human'); "
                f"name the reference instead (one of: {', '.join(names)})",
                file=file,
            )
        return list(humans)
    chosen: list[str] = []
    for ref in parts:
        letter = reference_letter(str(ref)) if ref not in names else None
        hits = [h for h in humans if letter and reference_letter(h) == letter]
        if ref not in names and len(hits) != 1:
            raise StudyError(
                f"reference {ref!r} is not a translation in this file; choose one of: "
                f"{', '.join(names)}",
                file=file,
            )
        name = ref if ref in names else hits[0]
        if name not in chosen:
            chosen.append(name)
    return chosen


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
