"""The BLEU vs error spans page's results, shared by every session and counted ahead for other tokenizers.

A tokenizer change on that page tokenises and aligns every annotated translation again, then counts the
agreement tables (max orders 1-4) and the span scores: on WMT24 en-ja (7,605 annotated paragraphs) 0.5-1 s
of CPU, most of it tokenising. So once the page has drawn, a background thread counts the same results
under the other tokenizers a user is likely to try (:func:`count_view_ahead`): the tokenizers the page was
last drawn with for this study first (a teacher switching back and forth), then those the statistics are
counted ahead for (:func:`ui.app.shared_cache.ahead_tokenizers`: the target language's own tokenizer
and the others within the same cost limit), cheapest first so that the most are ready soonest. Like the
statistics counted ahead, each job waits for the libraries (:mod:`ui.app.warmup`) and steps aside while a
page draws (:data:`ui.app.shared_cache.ACTIVITY`); a page that needs a result being counted waits for
it (:func:`view_result`) instead of counting it again.

Results live in :data:`VIEWS` (a :class:`ui.app.prefetch.ResultStore`: shared, never copied, so they are
read-only by contract: the pages only read them).

>>> order_ahead(["13a", "intl", "char", "none", "ja-mecab"], recent=["intl"], current="13a")
['intl', 'none', 'char', 'ja-mecab']
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

from bleu_core.study.error_agreement import error_agreement_by_order
from bleu_core.study.span_scores import span_scores
from bleu_core.tokenize.token_offsets import forget_token_columns
from bleu_core.tokenize.tokenizers import tokenizer_for_language
from ui.app import shared_cache, warmup
from ui.app.prefetch import Prefetcher, ResultStore
from ui.app.prefetch import disabled as prefetch_disabled

if TYPE_CHECKING:
    from bleu_core.study.model import Study

VIEWS_MAX_BYTES = 256 * 2**20
"""What the stored results may take in all, as :func:`view_bytes` counts them."""


def view_bytes(value: Any) -> int:
    """The per-segment arrays of stored agreement tables (one ``(segments, 4)`` array per system and
    order: 2.9 MB on WMT24 en-ja, 64 MB at 50 systems × 10,000 segments); span scores weigh nothing.

    >>> import numpy as np
    >>> from bleu_core.study.error_agreement import ErrorAgreement, SystemAgreement, AgreementCounts
    >>> one = SystemAgreement("A", AgreementCounts(), {}, {}, np.zeros((10, 4), dtype=np.int64), 0, 0)
    >>> view_bytes({1: ErrorAgreement({"A": one}, (), (), 1, "13a", False)})
    320
    """
    if not isinstance(value, dict):
        return 0
    return sum(
        system.segment_counts.nbytes
        for agreement in value.values()
        for system in agreement.systems.values()
    )


VIEWS = ResultStore(max_entries=32, max_bytes=VIEWS_MAX_BYTES, weigh=view_bytes)
"""The page's results by settings (``("agreement", ...)`` and ``("span scores", ...)`` keys)."""

AHEAD = Prefetcher(VIEWS)

AHEAD_DELAY_S = 0.3
"""Seconds between the page asking and counting ahead (the page finishes drawing first)."""

_RECENT: dict[str, list[str]] = {}
"""Per study key, the tokenizers the page was drawn with, the most recent first (a few)."""
_CHARACTERS: dict[str, int] = {}
_LOCK = threading.Lock()

Job = tuple[Hashable, Callable[[], Any]]


def agreement_job(
    study_key: str,
    study: Study,
    references: tuple[str, ...],
    tokenize: str,
    lowercase: bool,
    raters: tuple[str | None, ...] | None,
    severities: tuple[str, ...] | None,
    orders: tuple[int, ...],
) -> Job:
    """The :data:`VIEWS` key of the agreement tables for these settings and the function counting them."""
    key = (
        "agreement",
        study_key,
        references,
        tokenize,
        bool(lowercase),
        raters,
        severities,
        orders,
    )
    count = partial(
        error_agreement_by_order,
        study,
        orders,
        references=list(references),
        tokenize=tokenize,
        lowercase=lowercase,
        raters=None if raters is None else list(raters),
        severities=None if severities is None else list(severities),
    )

    def compute() -> Any:
        by_order = count()
        for agreement in by_order.values():  # shared by every session: nobody may change them
            for system in agreement.systems.values():
                system.segment_counts.flags.writeable = False
        return by_order

    return key, compute


def span_scores_job(
    study_key: str,
    study: Study,
    references: tuple[str, ...],
    tokenize: str,
    lowercase: bool,
    max_order: int,
    severities: tuple[str, ...] | None,
) -> Job:
    """The :data:`VIEWS` key of the span scores for these settings and the function counting them."""
    key = ("span scores", study_key, references, tokenize, bool(lowercase), max_order, severities)
    compute = partial(
        span_scores,
        study,
        references=list(references),
        max_order=max_order,
        tokenize=tokenize,
        lowercase=lowercase,
        severities=None if severities is None else list(severities),
    )
    return key, compute


def view_result(job: Job) -> Any:
    """The result of ``job``: stored, being counted ahead (waited for, and no longer stepping aside), or
    counted now."""
    key, compute = job
    shared_cache.ACTIVITY.page_waiting(key)
    return VIEWS.get(key, compute)


def _stepping_aside(
    job: Job, pair: Hashable, study_key: str, tokenize: str, lowercase: bool
) -> Job:
    """``job`` run ahead of time: after the libraries are loaded, when no page draws. Then, once ``pair``
    (the :data:`VIEWS` key of the other result counted with the same tokenizer) is stored too, the
    tokenizer's remembered token columns are dropped (:func:`_forget_columns`)."""
    key, compute = job

    def ahead() -> Any:
        warmup.join(timeout=60)
        shared_cache.ACTIVITY.step_aside(key)
        try:
            return compute()
        finally:
            if VIEWS.ready(pair):
                _forget_columns(study_key, tokenize, lowercase)

    return key, ahead


def _forget_columns(study_key: str, tokenize: str, lowercase: bool) -> None:
    """Drop the token columns the counts ahead left remembered for ``tokenize``
    (:func:`bleu_core.tokenize.token_offsets.forget_token_columns`), unless the page now shows that tokenizer.

    Both counts (agreement, span scores) tokenise every annotated translation; the second finds the
    columns the first left (~16 bytes a token: 15-20 MB a tokenizer on WMT24 en-ja). Once both results
    are stored the columns serve only a later count with other settings (another order, a severity), and
    only under the tokenizer shown; kept for tokenizers counted ahead, they would hold the memory and
    push out the shown tokenizer's columns (two settings are remembered).
    """
    with _LOCK:
        shown = _RECENT.get(study_key, [None])[0]
    if tokenize != shown:
        forget_token_columns(tokenize, lowercase)


def order_ahead(candidates: Sequence[str], recent: Sequence[str], current: str) -> list[str]:
    """The tokenizers to count ahead, in order: ``recent`` ones (most recent first), then the other
    ``candidates`` cheapest first (:data:`ui.app.shared_cache.COUNT_AHEAD_COST`); never ``current``."""
    cost = shared_cache.COUNT_AHEAD_COST
    worst = max(cost.values())
    rest = sorted(
        candidates, key=lambda name: cost.get(name, worst)
    )  # stable: ties keep their order
    return [name for name in dict.fromkeys([*recent, *rest]) if name != current]


def _characters(study_key: str, study: Study) -> int:
    with _LOCK:
        if study_key not in _CHARACTERS:
            if len(_CHARACTERS) > 64:
                _CHARACTERS.clear()
            _CHARACTERS[study_key] = shared_cache.study_characters(study)
        return _CHARACTERS[study_key]


def _remember(study_key: str, tokenize: str) -> list[str]:
    """Record that the page drew ``study_key`` with ``tokenize``; the tokenizers before it (recent first)."""
    with _LOCK:
        if study_key not in _RECENT and len(_RECENT) > 64:
            _RECENT.clear()
        seen = [name for name in _RECENT.get(study_key, []) if name != tokenize]
        _RECENT[study_key] = [tokenize, *seen][:4]
        return seen


def count_view_ahead(
    study_key: str,
    study: Study,
    references: tuple[str, ...],
    tokenize: str,
    lowercase: bool,
    order: int,
    severities: tuple[str, ...] | None,
    orders: tuple[int, ...],
) -> threading.Event | None:
    """After the page drew with ``tokenize``: count its agreement tables (``orders``) and span scores
    (``order``) under the other likely tokenizers in the background (see the module's docstring).

    Returns the prefetcher's idle event, or None when nothing was scheduled: switched off
    (``BLEU_STUDY_NO_PREFETCH=1``), under AppTest, or nothing fits the cost limit.
    """
    from ui.app.context import under_app_test

    recent = _remember(study_key, tokenize)
    if prefetch_disabled() or under_app_test():
        return None
    default = tokenizer_for_language(getattr(study, "target_lang", None))
    candidates = shared_cache.ahead_tokenizers(_characters(study_key, study), default)
    names = order_ahead(candidates, [n for n in recent if n in candidates], tokenize)
    jobs = []
    for name in names:
        settings = (study_key, study, references, name, lowercase)
        agreement = agreement_job(*settings, None, severities, orders)
        scores = span_scores_job(*settings, order, severities)
        jobs.append(_stepping_aside(agreement, scores[0], study_key, name, lowercase))
        jobs.append(_stepping_aside(scores, agreement[0], study_key, name, lowercase))
    return AHEAD.schedule(jobs, delay=AHEAD_DELAY_S) if jobs else None
