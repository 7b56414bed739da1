"""ESA human scores (Error Span Annotation) from Appraise's CSV export: ratings, raters and error spans.

ESA (Kocmi et al., 2024, "Error Span Annotation") is the human evaluation of WMT24 and WMT25: a rater reads a
translation, marks the erroneous character spans (severity *minor* or *major*; a span may also say that
something is *missing*) and then gives the whole segment a score from 0 to 100 (higher is better). Appraise
exports the annotations as a CSV **without header**, one row per (rater, system, segment), twelve columns:

====  ====================  ===========================================================================
 #    column                meaning
====  ====================  ===========================================================================
 1    annotator             the rater's id (``engjpn7904``)
 2    system                the rated translation: a system name, or ``refA`` for the human reference
 3    line                  0-based line number in the release's ``txt`` files (line 0: the canary line)
 4    type                  ``TGT`` (a real item) or ``BAD`` (quality control: a deliberately damaged text)
 5-6  source, target        language codes, ISO 639-3 (``eng``, ``jpn``)
 7    score                 0-100
 8    document id           ``test-en-news_...``; quality-control ids end ``#bad``, ``#dup``, ``#incomplete``
 9    is-document flag      ``True`` for a rating of a whole document
 10   spans                 JSON list of ``{"start_i", "end_i", "severity", "error_type"}``: character
                            offsets (``end_i`` exclusive) in the translation; ``"missing"`` as offsets
                            marks an omission
 11-12 start, end time      Unix seconds
====  ====================  ===========================================================================

:func:`read_esa` (or, for a study already loaded, :func:`attach_esa`) turns such a file into
:class:`~bleu_core.study.model.Rating` objects (criterion ``esa``, rater kept) and
:class:`~bleu_core.study.spans.ErrorSpan` objects (category ``Error``, or ``Omission`` for a span marked
missing, which covers no character: it sits empty at the end of the text; severity ``Minor``/``Major`` as in
MQM, or the rare ``Undecided``), so every page and command that works on MQM spans works on ESA.
:func:`parse_esa_spans` reads one spans cell; the long table's ``spans`` column uses it too.

Left out, as the organisers' own scripts leave them out, and counted in one warning by kind: ``BAD`` rows
and ``#bad`` documents (attention checks), ``#dup`` and ``#incomplete`` documents, ``tutorial`` documents,
document-level rows. A rater who rated the same item twice counts once, with the mean of the scores (and
the spans of the last rating); the warning says how many such items there were.

The ratings of ``#incomplete`` documents are left out of the scores, but not thrown away: WMT24 filled its
annotation batches with parts of documents already assigned elsewhere, so most of these items were rated by
a second, different rater in a complete document. They are the release's only *second opinions* and are kept
aside in :attr:`EsaAnnotations.second_opinions` (a study keeps them in ``metadata["second_opinions"]``),
where only the human ceiling (:mod:`bleu_core.evaluation.ceiling`) reads them: on WMT24 en-ja 373 items of 13
translations (12 systems and the reference) have a rating by two raters this way, on en-hi 128 of 9 (8
and the reference). ``#dup`` documents are the same
rater's repeats (an intra-rater check), not second opinions. Anything else that does
not fit the release (a line outside the test set, a system that is not in it, a span outside the text,
malformed JSON, a score outside 0-100, a language pair that is not the study's) is an
:class:`~bleu_core.errors.InputError` naming the file and the line.

>>> texts = {"sysA": ["Hallo Welt", "Guten Tag"], "ref-A": ["Hallo, Welt", "Guten Tag"]}
>>> rows = ('r1,sysA,1,TGT,eng,deu,70,doc1,False,"[{""start_i"":6,""end_i"":10,""severity"":""minor""}]",0,1\\n'
...         'r1,refA,2,TGT,eng,deu,100,doc1,False,[],0,1\\n'
...         'r2,sysA,2,BAD,eng,deu,10,doc1#bad,False,[],0,1\\n')
>>> got = read_esa(rows, "esa.csv", pair="en-de", segment_ids=["1", "2"], texts=texts)
>>> [(r.system, r.segment_id, r.rater, r.score) for r in got.ratings]
[('sysA', '1', 'r1', 70.0), ('ref-A', '2', 'r1', 100.0)]
>>> span = got.spans[0]
>>> texts["sysA"][0][span.start:span.end], span.severity, dict(got.left_out)
('Welt', 'Minor', {'BAD': 1})
"""

from __future__ import annotations

import csv
import math
from collections.abc import Mapping, Sequence
from dataclasses import astuple, dataclass, field, replace
from typing import Any

from bleu_core.errors import InputError
from bleu_core.io.cells import json_cell, number
from bleu_core.io.csv_rows import read_csv_rows
from bleu_core.study.model import Criterion, LoadResult, LoadWarning, Rating, Study
from bleu_core.study.ratings import KNOWN_CRITERIA
from bleu_core.study.reference_choice import reference_letter
from bleu_core.study.spans import ErrorSpan

from .esa_scores import EsaSystemScore, esa_system_scores

__all__ = [
    "SECOND_OPINIONS",
    "ESA_COLUMNS",
    "ESA_CRITERION",
    "ESA_SEVERITIES",
    "EsaAnnotations",
    "EsaSystemScore",
    "attach_esa",
    "esa_system_scores",
    "looks_like_esa",
    "merge_files",
    "parse_esa_spans",
    "read_esa",
    "second_opinion_rows",
]

ESA_COLUMNS = (
    "annotator",
    "system",
    "line",
    "type",
    "source language",
    "target language",
    "score",
    "document id",
    "is-document flag",
    "spans",
    "start time",
    "end time",
)
ESA_CRITERION: Criterion = KNOWN_CRITERIA["esa"]
#: ISO 639-3 codes of WMT languages -> the two-letter codes of release pair names.
ISO_639_3 = {
    "eng": "en", "deu": "de", "ces": "cs", "jpn": "ja", "zho": "zh", "cmn": "zh", "hin": "hi",
    "isl": "is", "spa": "es", "rus": "ru", "ukr": "uk", "kor": "ko", "fra": "fr", "heb": "he",
    "est": "et", "pol": "pl", "hrv": "hr", "ara": "ar", "arb": "ar", "arz": "ar", "ben": "bn",
    "ita": "it", "por": "pt", "nld": "nl", "tur": "tr", "srp": "sr", "slk": "sk", "ron": "ro",
    "fin": "fi", "lit": "lt", "lav": "lv", "kaz": "kk", "guj": "gu", "tam": "ta", "pus": "ps",
    "khm": "km", "hau": "ha", "xho": "xh", "zul": "zu", "liv": "liv", "sah": "sah", "bho": "bho",
    "mas": "mas", "swa": "sw", "swh": "sw", "tha": "th", "vie": "vi", "ind": "id", "fas": "fa",
}  # fmt: skip
#: The severities an ESA span may have (Appraise writes them in lower case; ``undecided`` is rare).
ESA_SEVERITIES = ("minor", "major", "undecided")
_QUALITY_CONTROL = (("#bad", "BAD"), ("#dup", "#dup"), ("#incomplete", "#incomplete"))
SECOND_OPINIONS = "second_opinions"
"""The study metadata key of ratings kept aside from the scores as second opinions of their items: a list of
``[system, segment_id, rater, group, criterion, score]`` rows (see the module docstring)."""


def _language(code: str) -> str:
    code = code.strip().lower()
    return ISO_639_3.get(code, code)


def looks_like_esa(first_line: str) -> bool:
    """True when ``first_line`` has the shape of an Appraise ESA export row (see the module docstring).

    >>> looks_like_esa('r1,sysA,3,TGT,eng,jpn,70,doc1,False,[],1724108643.0,1724108644.0')
    True
    >>> looks_like_esa("system,segment_id,score")
    False
    """
    try:
        row = next(csv.reader([first_line]))
    except (csv.Error, StopIteration):
        return False
    return (
        len(row) == len(ESA_COLUMNS)
        and row[2].strip().isdigit()
        and row[8].strip() in ("True", "False")
        and row[9].strip().startswith("[")
    )


@dataclass(frozen=True)
class EsaAnnotations:
    """What :func:`read_esa` found: the ratings and spans kept, and what was left out.

    ``left_out`` counts the rows left out by kind (``BAD``, ``#dup``, ``#incomplete``, ``tutorial``,
    ``document-level``); ``repeats`` is the number of items one rater rated more than once (kept once, with
    the mean score); ``other_pairs`` the rows of other language pairs (skipped in a release's file);
    ``second_opinions`` the ratings of ``#incomplete`` documents (counted in ``left_out`` too), one per
    rater and item (the mean of repeats), kept aside for the human ceiling.
    """

    file: str
    ratings: tuple[Rating, ...]
    spans: tuple[ErrorSpan, ...]
    left_out: dict[str, int] = field(default_factory=dict)
    repeats: int = 0
    other_pairs: int = 0
    second_opinions: tuple[Rating, ...] = ()

    def warnings(self) -> list[LoadWarning]:
        """One warning for the rows left out and the repeated items (none when there were none)."""
        parts = [f"{n} {kind}" for kind, n in self.left_out.items()]
        if not parts and not self.repeats and not self.other_pairs:
            return []
        message = f"ESA: kept {len(self.ratings)} ratings"
        if self.other_pairs:
            message += f" ({self.other_pairs} rows of the release's other language pairs not read)"
        if parts:
            message += (
                f"; left out {sum(self.left_out.values())} quality-control, tutorial and "
                f"document-level rows, as the WMT organisers do ({', '.join(parts)})"
            )
        if self.repeats:
            message += (
                f"; {self.repeats} item{'s' if self.repeats != 1 else ''} rated more than once by "
                "the same rater count once, with "
                "the mean of the scores (and the spans of the last rating)"
            )
        if self.second_opinions:
            n = len(self.second_opinions)
            message += (
                f"; the {n} #incomplete rating{'s' if n != 1 else ''} of test items are kept aside as "
                "second opinions, for the human ceiling only"
            )
        return [LoadWarning("esa-rows-left-out", message, file=self.file)]


def _left_out_kind(row: list[str]) -> str | None:
    """Why a row is not test data (``None``: it is)."""
    doc = row[7].strip()
    if row[3].strip().upper() == "BAD":
        return "BAD"
    for suffix, kind in _QUALITY_CONTROL:
        if doc.endswith(suffix):
            return kind
    if "tutorial" in doc.lower():
        return "tutorial"
    if row[8].strip() == "True":
        return "document-level"
    return None


def _offset(value: Any, what: str, file: str, line: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(
            f'span {what} is {value!r}; character offsets must be whole numbers (or "missing" for '
            "an omission)",
            file=file,
            line=line,
            column="spans",
        )
    return value


def parse_esa_spans(
    cell: str,
    text: str,
    *,
    system: str,
    segment_id: str,
    rater: str | None,
    file: str,
    line: int,
) -> list[ErrorSpan]:
    """The error spans of one ESA rating: ``cell`` is Appraise's spans JSON, ``text`` the rated translation.

    Each span becomes an :class:`~bleu_core.study.spans.ErrorSpan` of ``system``'s translation of
    ``segment_id`` by ``rater`` (see the module docstring for severity and category). Malformed JSON, a span
    without a known severity (:data:`ESA_SEVERITIES`), offsets that are not whole numbers, an end before the
    start or a span outside ``text`` raise :class:`~bleu_core.errors.InputError` naming ``file``, ``line``
    and the column ``spans``. Also used for the ``spans`` column of the long table.

    >>> cell = ('[{"start_i": 4, "end_i": 7, "severity": "major"},'
    ...         ' {"start_i": "missing", "end_i": "missing", "severity": "minor"}]')
    >>> [(s.start, s.end, s.category, s.severity) for s in parse_esa_spans(
    ...     cell, "the dog", system="A", segment_id="1", rater="r1", file="x.csv", line=2)]
    [(4, 7, 'Error', 'Major'), (7, 7, 'Omission', 'Minor')]
    """
    items = json_cell(
        cell,
        file=file,
        line=line,
        column="spans",
        name="the spans",
        expected='a list such as [{"start_i": 3, "end_i": 8, "severity": "minor"}]',
    )
    if not isinstance(items, list) or not all(isinstance(item, dict) for item in items):
        raise InputError(
            "the spans must be a JSON list of objects with start_i, end_i and severity",
            file=file,
            line=line,
            column="spans",
        )
    where = (file, line)
    return [_span(item, text, (rater, system, segment_id), where) for item in items]


def _span(
    item: dict[str, Any], text: str, key: tuple[str | None, str, str], where: tuple[str, int]
) -> ErrorSpan:
    """One span object of the spans JSON, checked against the rated ``text``."""
    file, line = where
    rater, system, seg_id = key
    severity = str(item.get("severity") or "").strip()
    if not severity:
        raise InputError("a span has no severity", file=file, line=line, column="spans")
    if severity.lower() not in ESA_SEVERITIES:
        raise InputError(
            f"unknown severity {severity!r}; ESA severities are {', '.join(ESA_SEVERITIES)}",
            file=file,
            line=line,
            column="spans",
        )
    severity = severity.capitalize()
    start, end = item.get("start_i"), item.get("end_i")
    if start == "missing" or end == "missing":
        # An omission covers no character: it sits empty at the end of the text.
        return ErrorSpan(
            system, seg_id, rater, "target", len(text), len(text), "Omission", severity
        )
    start = _offset(start, "start_i", file, line)
    end = _offset(end, "end_i", file, line)
    if end < start:
        raise InputError(
            f"span {start}-{end} ends before it starts (end_i {end} < start_i {start}); end_i is "
            "the offset just after the span's last character",
            file=file,
            line=line,
            column="spans",
        )
    if not 0 <= start <= end <= len(text):
        raise InputError(
            f"span {start}-{end} lies outside the translation, which has {len(text)} "
            "characters; offsets are characters of the rated text (is this the file of "
            "another release or of another line numbering?)",
            file=file,
            line=line,
            column="spans",
        )
    category = str(item.get("error_type") or "Error")
    return ErrorSpan(system, seg_id, rater, "target", start, end, category, severity)


def _system_name(raw: str, texts: Mapping[str, Any], file: str, line: int) -> str:
    if raw in texts:
        return raw
    letter = reference_letter(raw)
    if letter and f"ref-{letter}" in texts:
        return f"ref-{letter}"
    raise InputError(
        f"system {raw!r} is not in the release; its translations are: {', '.join(texts)}",
        file=file,
        line=line,
        column="system",
    )


def _base_pair(pair: str) -> str:
    """A release pair without its region suffixes (``en-ar_EG`` → ``en-ar``), as ESA rows name it."""
    return "-".join(part.split("_")[0].lower() for part in pair.split("-"))


def _check_pair(row: list[str], pair: str, file: str, line: int) -> None:
    """Raise for a row of another pair than ``pair``."""
    source, target = _language(row[4]), _language(row[5])
    if f"{source}-{target}" == _base_pair(pair):
        return
    raise InputError(
        f"this row is for {row[4]}-{row[5]} ({source}-{target}), but the study is {pair}; give "
        f"the ESA file of {pair}, or load the {source}-{target} study (--pair {source}-{target})",
        file=file,
        line=line,
        column="source language",
    )


def read_esa(
    text: str,
    file: str,
    *,
    pair: str,
    segment_ids: Sequence[str],
    texts: Mapping[str, Sequence[str | None]],
    line_offset: int = 1,
    skip_other_pairs: bool = False,
) -> EsaAnnotations:
    """Read an Appraise ESA export (``text`` of ``file``) for the study of language pair ``pair``.

    ``segment_ids`` are the study's segments in file order and ``texts`` every rated translation (systems and
    references, ``ref-A`` for the file's ``refA``) aligned with them. Row line ``L`` is segment
    ``L - line_offset`` (``line_offset=1``: the release's files start with a canary line). A row of another
    language pair is an error, or, with ``skip_other_pairs`` (a file found in a release, which holds the
    rows of every pair), skipped and counted.
    """
    n = len(segment_ids)
    items: dict[tuple[str, str, str], list[tuple[float, list[ErrorSpan]]]] = {}
    second: dict[tuple[str, str, str], list[float]] = {}
    left_out: dict[str, int] = {}
    skipped = 0
    rows, starts = read_csv_rows(
        text, file
    )  # strict: an unclosed quote is an error naming its line
    for row, line in zip(rows, starts, strict=True):
        if not row or not "".join(row).strip():
            continue
        if len(row) != len(ESA_COLUMNS):
            raise InputError(
                f"{len(row)} fields, expected {len(ESA_COLUMNS)} ({', '.join(ESA_COLUMNS)})",
                file=file,
                line=line,
            )
        if skip_other_pairs and f"{_language(row[4])}-{_language(row[5])}" != _base_pair(pair):
            skipped += 1
            continue
        _check_pair(row, pair, file, line)
        kind = _left_out_kind(row)
        if kind is not None:
            left_out[kind] = left_out.get(kind, 0) + 1
            if kind == "#incomplete" and row[8].strip() != "True":
                _keep_aside(second, row, file, line, (pair, segment_ids, texts, line_offset, n))
            continue
        item, score, spans = _item(row, file, line, pair, segment_ids, texts, line_offset, n)
        items.setdefault(item, []).append((score, spans))
    ratings = []
    kept_spans: list[ErrorSpan] = []
    for (rater, system, seg_id), repeats in items.items():
        score = math.fsum(s for s, _ in repeats) / len(repeats)
        ratings.append(Rating(system, seg_id, rater, None, ESA_CRITERION.name, score))
        kept_spans.extend(repeats[-1][1])
    return EsaAnnotations(
        file,
        tuple(ratings),
        tuple(kept_spans),
        left_out,
        sum(1 for repeats in items.values() if len(repeats) > 1),
        skipped,
        tuple(_mean_ratings(second)),
    )


def _keep_aside(
    second: dict[tuple[str, str, str], list[float]],
    row: list[str],
    file: str,
    line: int,
    study: tuple[str, Sequence[str], Mapping[str, Sequence[str | None]], int, int],
) -> None:
    """Add a left-out row's score to ``second`` under its (rater, system, segment), when it is a
    well-formed rating of a test item; a row that is not (its line or system outside the study) stays
    simply left out, as every left-out row is never checked further."""
    pair, segment_ids, texts, line_offset, n = study
    try:
        item, score, _ = _item(row, file, line, pair, segment_ids, texts, line_offset, n)
    except InputError:
        return
    second.setdefault(item, []).append(score)


def _mean_ratings(scores: Mapping[tuple[str, str, str], Sequence[float]]) -> list[Rating]:
    """One ESA rating per (rater, system, segment): the mean of its scores."""
    return [
        Rating(system, seg_id, rater, None, ESA_CRITERION.name, math.fsum(v) / len(v))
        for (rater, system, seg_id), v in scores.items()
    ]


def second_opinion_rows(results: Sequence[EsaAnnotations]) -> list[list[Any]]:
    """The second opinions of several ESA files of one study as ``metadata["second_opinions"]`` rows
    (:data:`SECOND_OPINIONS`), an item a rater rated in several files counted once (the mean)."""
    scores: dict[tuple[str, str, str], list[float]] = {}
    for got in results:
        for r in got.second_opinions:
            scores.setdefault((r.rater or "", r.system, r.segment_id or ""), []).append(r.score)
    return [list(astuple(r)) for r in _mean_ratings(scores)]


def _item(
    row: list[str],
    file: str,
    line: int,
    pair: str,
    segment_ids: Sequence[str],
    texts: Mapping[str, Sequence[str | None]],
    line_offset: int,
    n: int,
) -> tuple[tuple[str, str, str], float, list[ErrorSpan]]:
    """One test-data row checked: its (rater, system, segment), score and spans."""
    raw_line = row[2].strip()
    if not raw_line.isdigit():
        raise InputError(
            f"line {raw_line!r} is not a line number (0-based, into the release's txt files)",
            file=file,
            line=line,
            column="line",
        )
    index = int(raw_line) - line_offset
    if not 0 <= index < n:
        first, last = line_offset, n - 1 + line_offset
        raise InputError(
            f"line {raw_line} is beyond the {pair} test set, whose segments are lines {first}-{last} "
            f"of the txt files (0-based{', line 0 is the canary line' if line_offset else ''})",
            file=file,
            line=line,
            column="line",
        )
    system = _system_name(row[1].strip(), texts, file, line)
    score = number(row[6], file=file, line=line, column="score")
    if not ESA_CRITERION.contains(score):
        raise InputError(
            f"score {score:g} is outside ESA's 0-100", file=file, line=line, column="score"
        )
    target = texts[system][index]
    if target is None:
        raise InputError(
            f"{system} has no translation of line {raw_line}, so it cannot have been rated",
            file=file,
            line=line,
            column="line",
        )
    key = (row[0].strip(), system, segment_ids[index])
    spans = parse_esa_spans(
        row[9], target, system=system, segment_id=key[2], rater=key[0], file=file, line=line
    )
    return key, score, spans


def merge_files(
    results: Sequence[EsaAnnotations],
) -> tuple[list[Rating], list[ErrorSpan], list[LoadWarning]]:
    """The ratings and spans of several ESA files of one study, an item a rater rated in several files
    counted once (the mean of the files' scores, the spans of the last file), with the files' warnings
    and one more for such items."""
    groups: dict[tuple[str | None, str, str | None], list[Rating]] = {}
    last: dict[tuple[str | None, str, str | None], list[ErrorSpan]] = {}
    for got in results:
        for rating in got.ratings:
            key = (rating.rater, rating.system, rating.segment_id)
            groups.setdefault(key, []).append(rating)
            last[key] = []
        for span in got.spans:
            last[(span.rater, span.system, span.segment_id)].append(span)
    ratings = [
        v[0] if len(v) == 1 else replace(v[0], score=math.fsum(r.score for r in v) / len(v))
        for v in groups.values()
    ]
    warnings = [w for got in results for w in got.warnings()]
    repeated = sum(1 for v in groups.values() if len(v) > 1)
    if repeated:
        warnings.append(
            LoadWarning(
                "esa-rows-left-out",
                f"ESA: {repeated} item{'s' if repeated != 1 else ''} rated by the same rater in "
                "several files count once, with the mean of the scores (and the spans of the last "
                "file)",
                file=results[-1].file,
            )
        )
    return ratings, [s for spans in last.values() for s in spans], warnings


def attach_esa(study: Study, text: str, file: str) -> LoadResult:
    """``study`` with the ESA ratings and spans of the export ``text`` (named ``file`` in messages) added.

    The language pair is the study's (``metadata["pair"]``, else its languages); rows of another pair are
    errors. Line numbers count from 0 and, when the study was read from a release with a canary line
    (``metadata["canary_line"]``), line 0 is that canary line. Ratings and spans of a reference stream are
    kept aside in ``metadata["reference_ratings"]`` / ``["reference_spans"]``, as the release loaders do.
    """
    pair = study.metadata.get("pair") or f"{study.source_lang}-{study.target_lang}"
    got = read_esa(
        text,
        file,
        pair=pair,
        segment_ids=study.segment_ids,
        texts={**study.systems, **study.references},
        line_offset=int(bool(study.metadata.get("canary_line"))),
    )
    refs = set(study.references)
    metadata = dict(study.metadata)
    metadata["reference_ratings"] = list(metadata.get("reference_ratings") or []) + [
        list(astuple(r)) for r in got.ratings if r.system in refs
    ]
    metadata["reference_spans"] = list(metadata.get("reference_spans") or []) + [
        list(astuple(s)) for s in got.spans if s.system in refs
    ]
    if got.second_opinions:
        metadata[SECOND_OPINIONS] = list(metadata.get(SECOND_OPINIONS) or []) + (
            second_opinion_rows([got])
        )
    result = replace(
        study,
        criteria={**study.criteria, ESA_CRITERION.name: ESA_CRITERION},
        ratings=study.ratings + tuple(r for r in got.ratings if r.system not in refs),
        error_spans=study.error_spans + tuple(s for s in got.spans if s.system not in refs),
        metadata=metadata,
    )
    return LoadResult(result, tuple(got.warnings()))
