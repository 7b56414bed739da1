"""BLEU's unmatched words as predicted error spans, scored the way error-span detection is scored.

WMT's error-span tasks (the QE shared task's error span detection since WMT23, and WMT25's span-level
evaluation of ESA/MQM annotations) score a system's *predicted* error spans against the raters' spans by
precision, recall and F1. BLEU makes such a prediction without meaning to: a hypothesis word that lies in
no matched n-gram is a word BLEU says is wrong. Here:

* **predicted spans**: maximal runs of consecutive hypothesis tokens that are *not matched* at max order
  n (the rule of :mod:`bleu_core.study.error_agreement`: inside no matched n-gram of order n, BLEU's
  clipping against the chosen references); a run covers the characters from its first token's start to
  its last token's end;
* **gold spans**: the chosen raters' spans on the translation (target side, at least one character;
  omissions, empty or on the source, cannot be predicted by words that are there, and are left out and
  counted); two raters' identical spans count once, with the heavier severity.

Three ways to match, each micro-averaged (counts summed over items, then divided), per system and overall:

* ``exact``: a predicted span is right when a gold span has the same characters (both trimmed of
  surrounding white space); a gold span is found when a predicted span equals it;
* ``overlap``: right when it shares at least one character with a gold span; found likewise;
* ``character``: precision = predicted characters inside a gold span / predicted characters, recall = gold
  characters inside a predicted span / gold characters (white space not counted).

**Severity weights** (:data:`SEVERITY_WEIGHTS`, MQM's: Minor 1, Major 5, Critical 10): a gold span (or
character) counts with its weight; a predicted span (or character) that matches nothing is a false alarm
and weighs 1, as a minor error; one that matches weighs as the heaviest gold span it matches. So weighted
recall is the share of the *error weight* found, weighted precision the share of the predicted weight
that is real. ``F1 = 2PR / (P + R)``.

A worked example: the raters marked "sofa" (Major) and "quickly" (Minor); BLEU (unigrams, against the
reference) leaves "sat quickly" and "sofa" unmatched.

>>> text = "the cat sat quickly on the sofa"
>>> pred = [(8, 19), (27, 31)]                      # "sat quickly", "sofa"
>>> gold = [(12, 19, 1.0), (27, 31, 5.0)]           # "quickly" Minor, "sofa" Major
>>> c = item_counts(text, pred, gold)
>>> s = SpanScores.of(c)
>>> s.exact.precision, s.exact.recall               # "sofa" exact; "sat quickly" is not "quickly"
(0.5, 0.5)
>>> s.overlap.precision, s.overlap.recall           # both predicted spans touch an error
(1.0, 1.0)
>>> round(s.character.precision, 3), s.character.recall   # 11 of 14 predicted letters are in errors
(0.786, 1.0)
>>> round(s.exact_weighted.recall, 3), round(s.exact_weighted.precision, 3)  # sofa is 5 of the 6
(0.833, 0.833)
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any

import numpy as np

from bleu_core.errors import BleuOptionError, StudyError
from bleu_core.study.agreement_arrays import flat_offsets
from bleu_core.study.matched_tokens import matched_tokens
from bleu_core.study.span_arrays import (
    CHARACTER_FIELDS,
    MATCH_FIELDS,
    Layout,
    character_counts,
    match_counts,
    unmatched_runs,
)
from bleu_core.study.spans import ErrorSpan, spans_of
from bleu_core.study.token_masks import matched_mask, max_reference_counts

if TYPE_CHECKING:
    from bleu_core.study.model import Study
    from bleu_core.tokenize.token_offsets import TokenColumns

SEVERITY_WEIGHTS = {"minor": 1.0, "major": 5.0, "critical": 10.0}
"""MQM's severity weights (Freitag et al. 2021); ESA's minor and major take the same. Any other
severity (``Neutral``...) weighs 1."""
MODES = ("exact", "overlap", "character")
_SPACE = re.compile(r"\s")
"""White space as :meth:`str.isspace` sees it (``re``'s ``\\s`` on ``str`` uses the same Unicode table)."""


def severity_weight(severity: str) -> float:
    """>>> severity_weight("Major"), severity_weight("minor"), severity_weight("Neutral")
    (5.0, 1.0, 1.0)
    """
    return SEVERITY_WEIGHTS.get(severity.lower(), 1.0)


@dataclass
class SpanCounts:
    """Additive counts behind every score (summed over items: micro-averaging).

    For ``exact`` and ``overlap``: ``*_right`` predicted spans that match / ``predicted``, ``*_found``
    gold spans found / ``gold``; the ``w_`` twins hold the weights. For ``character``: ``chars_hit``
    predicted characters inside a gold span, ``chars_predicted``, ``chars_found`` gold characters inside
    a prediction, ``chars_gold``; weighted: ``w_chars_hit`` (gold weight of the hit characters),
    ``w_chars_predicted`` (that + one per false-alarm character), ``w_chars_gold``.
    """

    predicted: int = 0
    gold: int = 0
    exact_right: int = 0
    exact_found: int = 0
    overlap_right: int = 0
    overlap_found: int = 0
    w_predicted_exact: float = 0.0
    w_predicted_overlap: float = 0.0
    w_gold: float = 0.0
    w_exact_right: float = 0.0
    w_exact_found: float = 0.0
    w_overlap_right: float = 0.0
    w_overlap_found: float = 0.0
    chars_hit: int = 0
    chars_predicted: int = 0
    chars_found: int = 0
    chars_gold: int = 0
    w_chars_hit: float = 0.0
    w_chars_predicted: float = 0.0
    w_chars_found: float = 0.0
    w_chars_gold: float = 0.0
    items: int = 0
    left_out: int = 0

    def add(self, other: SpanCounts) -> None:
        mine, theirs = self.__dict__, other.__dict__
        for name in _COUNT_FIELDS:
            mine[name] += theirs[name]


_COUNT_FIELDS = tuple(f.name for f in fields(SpanCounts))


@dataclass(frozen=True)
class PRF:
    """Precision, recall and F1 (``nan`` when undefined: nothing predicted, or no gold span)."""

    precision: float
    recall: float
    f1: float

    @classmethod
    def of(cls, right: float, predicted: float, found: float, gold: float) -> PRF:
        p = right / predicted if predicted else float("nan")
        r = found / gold if gold else float("nan")
        f = 2 * p * r / (p + r) if p + r > 0 else (0.0 if p == 0 or r == 0 else float("nan"))
        return cls(p, r, f)


@dataclass(frozen=True)
class SpanScores:
    """P/R/F1 for every matching (``exact``, ``overlap``, ``character``), plain and severity-weighted."""

    exact: PRF
    overlap: PRF
    character: PRF
    exact_weighted: PRF
    overlap_weighted: PRF
    character_weighted: PRF
    counts: SpanCounts = field(repr=False)

    @classmethod
    def of(cls, c: SpanCounts) -> SpanScores:
        return cls(
            PRF.of(c.exact_right, c.predicted, c.exact_found, c.gold),
            PRF.of(c.overlap_right, c.predicted, c.overlap_found, c.gold),
            PRF.of(c.chars_hit, c.chars_predicted, c.chars_found, c.chars_gold),
            PRF.of(c.w_exact_right, c.w_predicted_exact, c.w_exact_found, c.w_gold),
            PRF.of(c.w_overlap_right, c.w_predicted_overlap, c.w_overlap_found, c.w_gold),
            PRF.of(c.w_chars_hit, c.w_chars_predicted, c.w_chars_found, c.w_chars_gold),
            c,
        )

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name in ("exact", "overlap", "character"):
            for weighted in (False, True):
                key = name + ("_weighted" if weighted else "")
                prf = getattr(self, key)
                out[key] = {k: _num(getattr(prf, k)) for k in ("precision", "recall", "f1")}
        out["counts"] = dict(self.counts.__dict__)
        return out


def _num(x: float) -> float | None:
    return None if x != x else float(x)


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def _gold_by_range(
    text: str, gold: Iterable[tuple[int, int, float]]
) -> dict[tuple[int, int], float]:
    out: dict[tuple[int, int], float] = {}
    for start, end, weight in gold:
        key = _trim(text, start, end)
        if key[0] < key[1]:
            out[key] = max(weight, out.get(key, 0.0))
    return out


def _span_matches(c: SpanCounts, pred: list[tuple[int, int]], gold: dict) -> None:
    """The ``exact`` and ``overlap`` counts of one item."""
    if not gold:  # no error marked: every predicted span is a false alarm, weighing 1
        c.predicted += len(pred)
        c.w_predicted_exact += len(pred)
        c.w_predicted_overlap += len(pred)
        return
    c.predicted += len(pred)
    c.gold += len(gold)
    c.w_gold += sum(gold.values())
    found_exact: set[tuple[int, int]] = set()
    found_overlap: set[tuple[int, int]] = set()
    for span in pred:
        exact = gold.get(span)
        touching = [w for (gs, ge), w in gold.items() if gs < span[1] and span[0] < ge]
        found_overlap.update(g for g in gold if g[0] < span[1] and span[0] < g[1])
        if exact is not None:
            found_exact.add(span)
            c.exact_right += 1
            c.w_exact_right += exact
        c.w_predicted_exact += 1.0 if exact is None else exact
        if touching:
            c.overlap_right += 1
            c.w_overlap_right += max(touching)
        c.w_predicted_overlap += max(touching) if touching else 1.0
    c.exact_found += len(found_exact)
    c.w_exact_found += sum(gold[g] for g in found_exact)
    c.overlap_found += len(found_overlap)
    c.w_overlap_found += sum(gold[g] for g in found_overlap)


def _character_matches(c: SpanCounts, text: str, pred: list, gold: list) -> None:
    """The ``character`` counts of one item (white space not counted)."""
    weight: dict[int, float] = {}
    for start, end, w in gold:
        for i in range(start, min(end, len(text))):
            if not text[i].isspace():
                weight[i] = max(w, weight.get(i, 0.0))
    chars: set[int] = set()
    for start, end in pred:
        if _SPACE.search(text, start, end) is None:  # the common case: a run without white space
            chars.update(range(start, end))
        else:
            chars.update(i for i in range(start, end) if not text[i].isspace())
    hit = chars & weight.keys()
    c.chars_predicted += len(chars)
    c.chars_gold += len(weight)
    c.chars_hit += len(hit)
    c.chars_found += len(hit)
    hit_weight = sum(weight[i] for i in hit)
    c.w_chars_hit += hit_weight
    c.w_chars_found += hit_weight
    c.w_chars_predicted += hit_weight + len(chars - hit)
    c.w_chars_gold += sum(weight.values())


def item_counts(
    text: str, predicted: Sequence[tuple[int, int]], gold: Iterable[tuple[int, int, float]]
) -> SpanCounts:
    """The counts of one translation: ``predicted`` character ranges, ``gold`` ``(start, end, weight)``."""
    c = SpanCounts(items=1)
    gold = list(gold)
    pred = [s for s in (_trim(text, a, b) for a, b in predicted) if s[0] < s[1]]
    _span_matches(c, pred, _gold_by_range(text, gold))
    _character_matches(c, text, pred, gold)
    return c


def predicted_spans(
    starts: Sequence[int], ends: Sequence[int], matched: int
) -> list[tuple[int, int]]:
    """Maximal runs of consecutive tokens whose bit is clear in ``matched``, as character ranges.

    >>> predicted_spans([0, 4, 8, 12], [3, 7, 11, 19], 0b0001)    # tokens 1-3 unmatched: one run
    [(4, 19)]
    """
    spans, run = [], None
    for t, (start, end) in enumerate(zip(starts, ends, strict=True)):
        if matched >> t & 1:
            if run is not None:
                spans.append(run)
            run = None
        else:
            run = (start, end) if run is None else (run[0], end)
    if run is not None:
        spans.append(run)
    return spans


@dataclass(frozen=True)
class SpanScoreResult:
    """Span-level scores of BLEU's predicted spans, per system and overall (micro-averaged)."""

    systems: dict[str, SpanScores]
    overall: SpanScores
    max_order: int
    tokenize: str
    lowercase: bool
    references: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "max_order": self.max_order,
            "tokenize": self.tokenize,
            "lowercase": self.lowercase,
            "references": list(self.references),
            "severity_weights": dict(SEVERITY_WEIGHTS),
            "systems": {name: s.to_dict() for name, s in self.systems.items()},
            "overall": self.overall.to_dict(),
        }


def _annotated(study: Study, raters: list | None, spans: list[ErrorSpan]) -> set[tuple[str, str]]:
    chosen = None if raters is None else set(raters)
    items = {
        (r.system, r.segment_id)
        for r in study.ratings
        if r.segment_id is not None and (chosen is None or r.rater in chosen)
    }
    return items | {(s.system, s.segment_id) for s in spans}


def _predictions(
    placed: list[TokenColumns],
    segments: list[int],
    references: list[list[list[str]]],
    max_order: int,
) -> list[list[tuple[int, int]]]:
    """Per translation, BLEU's predicted spans (its runs of tokens not matched at ``max_order``), one
    translation at a time (:func:`~bleu_core.study.token_masks.matched_mask`)."""
    clips: dict[int, dict] = {}
    predicted = []
    for i, (tokens, starts, ends) in zip(segments, placed, strict=True):
        if i not in clips:
            clips[i] = max_reference_counts(references[i], max_order)
        mask = matched_mask(tokens, clips[i], max_order) if tokens else 0
        predicted.append(predicted_spans(starts, ends, mask))
    return predicted


def _gold(item_spans: list[ErrorSpan]) -> list[tuple[int, int, float]]:
    """The spans that can be predicted (on the translation, at least one character), with their weights."""
    return [(s.start, s.end, severity_weight(s.severity)) for s in item_spans
            if s.side == "target" and s.start < s.end]  # fmt: skip


def _count_oracle(
    items: list[tuple[str, int]], texts: list[str], spans: list[list[ErrorSpan]], predicted: list
) -> dict[str, SpanCounts]:
    """Per system, the counts of its items summed one translation at a time (:func:`item_counts`)."""
    per_system: dict[str, SpanCounts] = {}
    for (name, _), text, item_spans, pred in zip(items, texts, spans, predicted, strict=True):
        gold = _gold(item_spans)
        counts = item_counts(text, pred, gold)
        counts.left_out = len(item_spans) - len(gold)
        per_system.setdefault(name, SpanCounts()).add(counts)
    return per_system


def _count_arrays(
    items: list[tuple[str, int]],
    texts: list[str],
    spans: list[list[ErrorSpan]],
    placed: list[TokenColumns],
    matching: tuple[list[list[list[str]]], int],
) -> dict[str, SpanCounts]:
    """Per system, the counts of its items, every translation at once (:mod:`bleu_core.study.span_arrays`)."""
    references, max_order = matching
    names = list(dict.fromkeys(name for name, _ in items))
    position = {name: k for k, name in enumerate(names)}
    item_group = np.array([position[name] for name, _ in items], dtype=np.int64)
    segments = [i for _, i in items]
    matches = matched_tokens([p[0] for p in placed], segments, references, (max_order,))
    pred = unmatched_runs(matches.matched[max_order], matches.bounds, *flat_offsets(placed))
    per_system = {name: SpanCounts() for name in names}
    rows: list[tuple[int, int, int, float]] = []
    for k, ((name, _), item_spans) in enumerate(zip(items, spans, strict=True)):
        gold = _gold(item_spans)
        rows.extend((k, start, end, weight) for start, end, weight in gold)
        per_system[name].items += 1
        per_system[name].left_out += len(item_spans) - len(gold)
    columns = list(zip(*rows, strict=True)) or [(), (), (), ()]
    item, start, end, weight = columns
    gold_arrays = (
        np.array(item, dtype=np.int64),
        np.array(start, dtype=np.int64),
        np.array(end, dtype=np.int64),
        np.array(weight, dtype=float),
    )
    layout = Layout.of(texts)
    matched = match_counts(layout, pred, gold_arrays, item_group, len(names))
    characters = character_counts(layout, pred, gold_arrays, item_group, len(names))
    for name, row in zip(
        names, np.concatenate([matched, characters], axis=1).tolist(), strict=True
    ):
        for field_name, value in zip(MATCH_FIELDS + CHARACTER_FIELDS, row, strict=True):
            setattr(per_system[name], field_name, value if field_name[:2] == "w_" else int(value))
    return per_system


def _count_items(
    study: Study,
    items: list[tuple[str, int]],
    by_item: dict[tuple[str, str], list[ErrorSpan]],
    streams: list[list[str | None]],
    settings: tuple[str, bool, int, str],
) -> dict[str, SpanCounts]:
    """Per system, the summed counts of its ``items`` ((system, segment index) pairs)."""
    from bleu_core.tokenize.token_offsets import token_columns_corpus
    from bleu_core.tokenize.tokenizers import get_tokenizer

    tokenize, lowercase, max_order, method = settings
    if method not in ("arrays", "oracle"):
        raise BleuOptionError(f"unknown method {method!r}; choose 'arrays' or 'oracle'")
    tokenizer = get_tokenizer(tokenize, lowercase)
    ref_tokens = [tokenizer.tokenize_corpus([t or "" for t in stream]) for stream in streams]
    references = [
        [tok[i] for tok, stream in zip(ref_tokens, streams, strict=True) if stream[i]]
        for i in range(study.n_segments)
    ]
    texts = [study.systems[name][i] or "" for name, i in items]  # items have a translation
    placed = token_columns_corpus(texts, tokenize, lowercase)
    spans = [by_item.get((name, study.segments[i].id), []) for name, i in items]
    if method == "arrays":
        return _count_arrays(items, texts, spans, placed, (references, max_order)) if items else {}
    predicted = _predictions(placed, [i for _, i in items], references, max_order)
    return _count_oracle(items, texts, spans, predicted)


def span_scores(
    study: Study,
    *,
    systems: Iterable[str] | None = None,
    references: Sequence[str] | None = None,
    max_order: int = 1,
    tokenize: str = "13a",
    lowercase: bool = False,
    raters: Iterable[str | None] | None = None,
    severities: Iterable[str] | None = None,
    categories: Iterable[str] | None = None,
    method: str = "arrays",
) -> SpanScoreResult:
    """Score BLEU's unmatched words as error spans against the raters' (see the module docstring).

    Items are the (system, segment) pairs the chosen raters annotated (a segment rating or a span);
    ``raters``, ``severities`` and ``categories`` choose the gold spans as
    :func:`bleu_core.study.spans.spans_of` does. ``method``: how BLEU's matched tokens are found,
    ``"arrays"`` for every translation at once (:mod:`bleu_core.study.matched_tokens`) or ``"oracle"`` one
    at a time (:func:`bleu_core.study.token_masks.matched_mask`, the plain path the tests compare with).
    """
    from bleu_core.study.segment_tokens import reference_streams

    if not 1 <= max_order <= 9:
        raise BleuOptionError(f"max order must be 1-9, got {max_order}")
    if not study.error_spans:
        raise StudyError("this study has no error spans to score BLEU's unmatched words against")
    names = list(study.machine_systems if systems is None else systems)
    unknown = [n for n in names if n not in study.systems]
    if unknown:
        raise StudyError(f"unknown system(s) {', '.join(map(repr, unknown))}", file=study.name)
    rater_list = None if raters is None else list(raters)
    spans = spans_of(
        study.error_spans,
        side=None,
        raters=rater_list,
        severities=severities,
        categories=categories,
    )
    annotated = _annotated(study, rater_list, spans)
    by_item: dict[tuple[str, str], list[ErrorSpan]] = {}
    for s in spans:
        by_item.setdefault((s.system, s.segment_id), []).append(s)
    items = [
        (name, i)
        for name in names
        for i, seg in enumerate(study.segments)
        if study.systems[name][i] and (name, seg.id) in annotated
    ]
    streams = reference_streams(study, references)
    settings = (tokenize, lowercase, max_order, method)
    counted = _count_items(study, items, by_item, streams, settings)
    per_system = {name: counted.get(name, SpanCounts()) for name in names}
    total = SpanCounts()
    for c in per_system.values():
        total.add(c)
    refs = tuple(study.references if references is None else references)
    return SpanScoreResult(
        {n: SpanScores.of(c) for n, c in per_system.items()},
        SpanScores.of(total),
        max_order,
        tokenize,
        lowercase,
        refs,
    )
