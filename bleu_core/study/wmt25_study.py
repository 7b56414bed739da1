"""A study's error spans as WMT25's span task sees them: the gold, BLEU's predictions, the scores.

* **Items** (:func:`rated_items`): the translations the raters rated, one per (system, segment), with the
  rater of its **first rating in file order** (``study.ratings`` keep the file's order): a translation rated
  more than once keeps that rater's spans only, as the organisers' own WMT24-to-TSV conversion keeps the
  first annotation of each translation. A translation with spans but no rating takes its first span's rater.
* **Gold spans** (:func:`gold_spans`): that rater's spans, severity in lower case; a span on the source
  side or covering no character (ESA's ``[missing]``, MQM's omissions) is written ``missing`` (the scorer
  skips it); a severity outside the task's (MQM's ``Neutral``...) is left out and counted in a note.
* **BLEU's predicted spans** (:func:`bleu_spans`): the runs of hypothesis tokens BLEU did not match at max
  order n (the rule of :mod:`bleu_core.study.span_scores`), each run's characters from its first token's
  start to its last token's end. BLEU has no severities; ``severity`` says which it claims:

  - ``"minor"`` (default): every unmatched word is a minor error. An unmatched word says only that the
    references word it otherwise, the weakest claim; under WMT25's scorer a minor prediction on a major
    error still earns half credit.
  - ``"major"``: every unmatched word is a major error.
  - ``"by-order"``: a word no reference has at all (unmatched as a unigram) is major; a word the references
    have but not in a matched n-gram of order n (the word is there, its context is not) is minor.

:func:`wmt25_span_scores` scores BLEU's spans against the gold with
:func:`bleu_core.study.span_scorer_wmt25.score_items` on the very rows :func:`study_rows` writes as TSV, so
scoring the written files (``spans --gold-tsv … --predictions-tsv …``) gives the same numbers.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from bleu_core.errors import BleuOptionError, StudyError
from bleu_core.study.model import Study
from bleu_core.study.segment_tokens import check_max_order, reference_streams
from bleu_core.study.span_scorer_wmt25 import OFFICIAL_SET, Wmt25Result, Wmt25Span
from bleu_core.study.span_scores import predicted_spans
from bleu_core.study.token_masks import matched_mask, max_reference_counts
from bleu_core.study.wmt25_tsv import SEVERITIES, Wmt25Row, score_tsv

__all__ = [
    "BLEU_SEVERITY_RULES",
    "RatedItem",
    "bleu_spans",
    "gold_rows",
    "gold_spans",
    "rated_items",
    "study_method",
    "study_rows",
    "wmt25_span_scores",
]

BLEU_SEVERITY_RULES = ("minor", "major", "by-order")


@dataclass(frozen=True)
class RatedItem:
    """One rated translation: ``system``'s output of segment ``index``, first rated by ``rater``."""

    system: str
    index: int
    rater: str | None


def rated_items(
    study: Study,
    *,
    systems: Iterable[str] | None = None,
    raters: Iterable[str | None] | None = None,
) -> tuple[list[RatedItem], int]:
    """The rated translations of ``systems`` (default: the machine systems), in the order of their first
    rating, and how many rated ones were left out for an empty output."""
    names = set(study.machine_systems if systems is None else systems)
    unknown = sorted(names - set(study.systems))
    if unknown:
        raise StudyError(f"unknown system(s) {', '.join(map(repr, unknown))}", file=study.name)
    chosen = None if raters is None else set(raters)
    first: dict[tuple[str, str], str | None] = {}
    for r in study.ratings:
        if r.segment_id is not None and r.system in names and (chosen is None or r.rater in chosen):
            first.setdefault((r.system, r.segment_id), r.rater)
    for s in study.error_spans:
        if s.system in names and (chosen is None or s.rater in chosen):
            first.setdefault((s.system, s.segment_id), s.rater)
    items, empty = [], 0
    for (system, seg_id), rater in first.items():
        index = study.segment_index(seg_id)
        if study.systems[system][index]:
            items.append(RatedItem(system, index, rater))
        else:
            empty += 1
    return items, empty


def gold_spans(study: Study, items: Sequence[RatedItem]) -> tuple[list[tuple[Wmt25Span, ...]], int]:
    """Per item, its rater's spans as the task writes them, and how many spans had a severity outside
    the task's (left out)."""
    wanted = {(it.system, study.segments[it.index].id, it.rater): k for k, it in enumerate(items)}
    out: list[list[Wmt25Span]] = [[] for _ in items]
    other = 0
    for s in study.error_spans:
        k = wanted.get((s.system, s.segment_id, s.rater))
        if k is None:
            continue
        severity = s.severity.strip().lower()
        if severity not in SEVERITIES:
            other += 1
        elif s.side != "target" or s.start >= s.end:
            out[k].append(Wmt25Span(None, None, severity))
        else:
            out[k].append(Wmt25Span(s.start, s.end, severity))
    return [tuple(spans) for spans in out], other


def _runs(
    starts: Sequence[int], ends: Sequence[int], masks: tuple[int, int], rule: str
) -> list[Wmt25Span]:
    """BLEU's spans of one hypothesis from its matched masks (order 1, order n)."""
    unigram, ngram = masks
    if rule != "by-order":
        return [Wmt25Span(a, b, rule) for a, b in predicted_spans(starts, ends, ngram)]
    major = [Wmt25Span(a, b, "major") for a, b in predicted_spans(starts, ends, unigram)]
    minor = [Wmt25Span(a, b, "minor") for a, b in predicted_spans(starts, ends, ngram | ~unigram)]
    return sorted(major + minor, key=lambda s: s.start or 0)


def bleu_spans(
    study: Study,
    items: Sequence[RatedItem],
    *,
    references: Sequence[str] | None = None,
    max_order: int = 1,
    tokenize: str = "13a",
    lowercase: bool = False,
    severity: str = "minor",
) -> list[tuple[Wmt25Span, ...]]:
    """Per item, BLEU's predicted spans (see the module docstring for ``severity``)."""
    from bleu_core.tokenize.token_offsets import token_columns_corpus
    from bleu_core.tokenize.tokenizers import get_tokenizer

    check_max_order(max_order)
    if severity not in BLEU_SEVERITY_RULES:
        raise BleuOptionError(
            f"unknown severity rule {severity!r}; choose {', '.join(BLEU_SEVERITY_RULES)}"
        )
    streams = reference_streams(study, references)
    tokenizer = get_tokenizer(tokenize, lowercase)
    needed = sorted({it.index for it in items})
    ref_tokens: dict[int, list[Sequence[str]]] = {i: [] for i in needed}
    for stream in streams:
        present = [i for i in needed if stream[i]]
        tokenized = tokenizer.tokenize_corpus([stream[i] or "" for i in present])
        for i, ref in zip(present, tokenized, strict=True):
            ref_tokens[i].append(ref)
    clips = {i: max_reference_counts(refs, max_order) for i, refs in ref_tokens.items()}
    texts = [study.systems[it.system][it.index] or "" for it in items]
    out = []
    for it, (words, starts, ends) in zip(
        items, token_columns_corpus(texts, tokenize, lowercase), strict=True
    ):
        clip = clips[it.index]
        masks = (
            (matched_mask(words, clip, 1), matched_mask(words, clip, max_order))
            if words
            else (0, 0)
        )
        out.append(tuple(_runs(starts, ends, masks, severity)))
    return out


def study_method(study: Study) -> str:
    """The ``method`` column: ``ESA`` or ``MQM`` by the study's human scores (``spans`` otherwise)."""
    for name, method in (("esa", "ESA"), ("mqm", "MQM")):
        if name in study.criteria:
            return method
    return "spans"


def study_rows(
    study: Study,
    items: Sequence[RatedItem],
    spans: Sequence[tuple[Wmt25Span, ...]],
    *,
    references: Sequence[str] | None = None,
) -> list[Wmt25Row]:
    """The task's rows of ``items`` with ``spans`` (set ``official``; ``reference_segment`` from the first
    chosen reference; empty cells where the study does not know a field)."""
    reference = reference_streams(study, references)[0]
    method = study_method(study)
    rows = []
    for it, item_spans in zip(items, spans, strict=True):
        seg = study.segments[it.index]
        fields = {
            "doc_id": seg.doc_id or "",
            "segment_id": seg.id,
            "source_lang": study.source_lang or "",
            "target_lang": study.target_lang or "",
            "set_id": OFFICIAL_SET,
            "system_id": it.system,
            "source_segment": seg.source or "",
            "hypothesis_segment": study.systems[it.system][it.index] or "",
            "reference_segment": reference[it.index] or "",
            "domain_name": seg.domain or "",
            "method": method,
        }
        rows.append(Wmt25Row(fields, tuple(item_spans)))
    return rows


def gold_rows(
    study: Study,
    *,
    systems: Iterable[str] | None = None,
    references: Sequence[str] | None = None,
    raters: Iterable[str | None] | None = None,
) -> tuple[list[RatedItem], list[Wmt25Row], list[str]]:
    """The rated items, the task's gold rows of the study (:func:`gold_spans`) and notes on what was
    left out."""
    if not study.error_spans:
        raise StudyError("this study has no error spans to score BLEU's unmatched words against")
    items, empty = rated_items(study, systems=systems, raters=raters)
    gold, other = gold_spans(study, items)
    notes = []
    if empty:
        notes.append(f"{empty} rated translation(s) with an empty output left out")
    if other:
        notes.append(f"{other} span(s) of a severity outside the task's (major, minor, critical, "
                     "undecided) left out")  # fmt: skip
    return items, study_rows(study, items, gold, references=references), notes


def wmt25_span_scores(
    study: Study,
    *,
    systems: Iterable[str] | None = None,
    references: Sequence[str] | None = None,
    max_order: int = 1,
    tokenize: str = "13a",
    lowercase: bool = False,
    raters: Iterable[str | None] | None = None,
    severity: str = "minor",
) -> Wmt25Result:
    """WMT25's span scores of BLEU's unmatched words against the study's gold (see the module docstring)."""
    items, gold, notes = gold_rows(study, systems=systems, references=references, raters=raters)
    predicted = bleu_spans(study, items, references=references, max_order=max_order,
                           tokenize=tokenize, lowercase=lowercase, severity=severity)  # fmt: skip
    pred_rows = study_rows(study, items, predicted, references=references)
    result = score_tsv(gold, pred_rows, files=("the study's spans", "BLEU's spans"),
                       predictor=f"BLEU (order {max_order}, unmatched words {severity})")  # fmt: skip
    return Wmt25Result(result.pairs, result.systems, result.predictor, (*result.notes, *notes))
