"""Per-segment sufficient statistics: the one place where text becomes numbers.

BLEU of a corpus is not an average of sentence scores: the paper sums clipped n-gram matches and n-gram totals
over the whole corpus, and sums hypothesis and effective reference lengths, then computes one score. So each
segment contributes a row of *additive* numbers, and

* corpus BLEU = score of the column sums,
* sentence BLEU = score of each row,
* bootstrap / blocks / significance = score of sums over resampled or blocked rows,

all through the same function :func:`bleu_core.engine.score.bleu_from_stats`.

>>> stats = compute_statistics(["the cat sat on the mat"], [["the cat is on the mat"]], max_order=2)
>>> stats.array.tolist()
[[6.0, 6.0, 6.0, 6.0, 5.0, 3.0, 6.0, 5.0]]
>>> stats.columns
('hyp_len', 'ref_closest', 'ref_shortest', 'ref_average', 'matches_1', 'matches_2', 'totals_1', 'totals_2')
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import SupportsIndex, overload

import numpy as np

from ..errors import InputError
from ..fast.segment_counts import closest_length, ngram_counts, segment_row
from ..tokenize.tokenizers import get_tokenizer
from .options import MAX_ORDER_LIMIT, REF_LENGTH_POLICIES

__all__ = [  # segment_counts' functions are re-exported: bleu_core.engine.statistics is where users look
    "Progress",
    "SegmentStatistics",
    "check_corpus",
    "closest_length",
    "compute_statistics",
    "compute_system_statistics",
    "n_columns",
    "ngram_counts",
    "order_of",
    "segment_row",
    "statistics_from_tokens",
    "tokenize_corpus_with_references",
]

HYP_LEN = 0
REF_CLOSEST = 1
REF_SHORTEST = 2
REF_AVERAGE = 3
N_LENGTH_COLUMNS = 4
_POLICY_COLUMN = {"closest": REF_CLOSEST, "shortest": REF_SHORTEST, "average": REF_AVERAGE}

Progress = Callable[[int, int, str], None]
"""``progress(done, total, message)``: how far counting has got, e.g. ``(12, 50, "Counting n-grams: system 13
of 50")``. Called from the thread that counts; ``done`` never decreases and the last call has ``done == total``."""


def n_columns(max_order: int) -> int:
    """Number of statistics columns for n-grams up to ``max_order``."""
    return N_LENGTH_COLUMNS + 2 * max_order


def order_of(array: np.ndarray) -> int:
    """The max n-gram order a statistics array (…, F) covers."""
    f = array.shape[-1]
    n, rem = divmod(f - N_LENGTH_COLUMNS, 2)
    if rem or n < 1:
        raise ValueError(f"a statistics array needs 4 + 2N columns, got {f}")
    return n


@dataclass(frozen=True)
class SegmentStatistics:
    """Sufficient statistics of a corpus: one row per segment (see module docs for the columns).

    ``n_refs`` is the number of reference streams (``-1`` when segments have different numbers of references,
    as sacrebleu reports it).
    """

    array: np.ndarray
    n_refs: int

    def __post_init__(self) -> None:
        if self.array.ndim != 2:
            raise ValueError("statistics must be a 2-D array (segments × columns)")
        order_of(self.array)

    @property
    def max_order(self) -> int:
        return order_of(self.array)

    @property
    def columns(self) -> tuple[str, ...]:
        n = self.max_order
        return (
            ("hyp_len", "ref_closest", "ref_shortest", "ref_average")
            + tuple(f"matches_{i}" for i in range(1, n + 1))
            + tuple(f"totals_{i}" for i in range(1, n + 1))
        )

    def __len__(self) -> int:
        return self.array.shape[0]

    def __getitem__(self, index: int | slice | np.ndarray | Sequence[int]) -> SegmentStatistics:
        rows = self.array[index]
        if rows.ndim == 1:
            rows = rows[None, :]
        return SegmentStatistics(rows, self.n_refs)

    @property
    def hyp_len(self) -> np.ndarray:
        return self.array[:, HYP_LEN]

    def ref_len(self, policy: str = "closest") -> np.ndarray:
        if policy not in _POLICY_COLUMN:
            raise ValueError(
                f"unknown reference-length policy {policy!r}; choose one of: {REF_LENGTH_POLICIES}"
            )
        return self.array[:, _POLICY_COLUMN[policy]]

    @property
    def matches(self) -> np.ndarray:
        n = self.max_order
        return self.array[:, N_LENGTH_COLUMNS : N_LENGTH_COLUMNS + n]

    @property
    def totals(self) -> np.ndarray:
        n = self.max_order
        return self.array[:, N_LENGTH_COLUMNS + n : N_LENGTH_COLUMNS + 2 * n]

    def total(self) -> np.ndarray:
        """Column sums: the statistics of the whole corpus, shape ``(F,)``."""
        return self.array.sum(axis=0)

    def truncate_order(self, max_order: int) -> SegmentStatistics:
        """The same statistics restricted to n-grams up to ``max_order`` (no recount needed)."""
        n = self.max_order
        if not 1 <= max_order <= n:
            raise ValueError(f"can only truncate to orders 1..{n}, got {max_order}")
        cols = list(range(N_LENGTH_COLUMNS))
        cols += list(range(N_LENGTH_COLUMNS, N_LENGTH_COLUMNS + max_order))
        cols += list(range(N_LENGTH_COLUMNS + n, N_LENGTH_COLUMNS + n + max_order))
        return SegmentStatistics(self.array[:, cols], self.n_refs)

    @staticmethod
    def concat(parts: Iterable[SegmentStatistics]) -> SegmentStatistics:
        parts = list(parts)
        if not parts:
            raise ValueError("nothing to concatenate")
        n_refs = {p.n_refs for p in parts}
        return SegmentStatistics(
            np.concatenate([p.array for p in parts], axis=0),
            n_refs.pop() if len(n_refs) == 1 else -1,
        )


# ---------------------------------------------------------------------------------------------- validation


def check_corpus(hypotheses: Sequence[str], references: Sequence[Sequence[str | None]]) -> None:
    """Validate the shape of a corpus: non-empty, every reference stream as long as the hypotheses.

    >>> check_corpus(["a", "b"], [["a"]])
    Traceback (most recent call last):
    ...
    bleu_core.errors.InputError: reference stream 1 has 1 segment(s) but there are 2 hypotheses; every reference stream needs one line per hypothesis (sacrebleu would silently truncate)
    """
    if isinstance(hypotheses, str):
        raise InputError("hypotheses must be a list of segments, not one string")
    if len(hypotheses) == 0:
        raise InputError("the corpus is empty: there are no hypotheses to score")
    if isinstance(references, str) or len(references) == 0:
        raise InputError("at least one reference stream is needed (a list of reference lists)")
    for k, stream in enumerate(references, start=1):
        if isinstance(stream, str):
            raise InputError(
                "references must be a list of reference streams (one list of segments per reference), "
                "not a list of strings; wrap a single reference stream as [refs]"
            )
        if len(stream) != len(hypotheses):
            raise InputError(
                f"reference stream {k} has {len(stream)} segment(s) but there are {len(hypotheses)} "
                "hypotheses; every reference stream needs one line per hypothesis (sacrebleu would silently "
                "truncate)"
            )
    # Fast path: one pass in C over the types; the loops below only run to name a culprit.
    if not set(map(type, hypotheses)) <= {str}:
        for i, h in enumerate(hypotheses):
            if not isinstance(h, str):
                raise InputError(f"hypothesis {i + 1} is {type(h).__name__}, expected text")
    for k, stream in enumerate(references, start=1):
        if set(map(type, stream)) <= {str, type(None)}:
            continue
        for i, r in enumerate(stream):
            if r is not None and not isinstance(r, str):
                raise InputError(
                    f"reference stream {k}, segment {i + 1} is {type(r).__name__}, expected text "
                    "(or None for a missing reference)"
                )


# ---------------------------------------------------------------------------------------------- counting


def statistics_from_tokens(
    hyp_tokens: Sequence[Sequence[str]],
    refs_tokens: Sequence[Sequence[Sequence[str]]],
    max_order: int,
) -> np.ndarray:
    """Statistics rows for tokenised segments; ``refs_tokens[i]`` holds the references of segment i."""
    from ..fast import counting

    return counting.statistics_array(hyp_tokens, refs_tokens, max_order)


def tokenize_corpus_with_references(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str | None]],
    *,
    tokenize: str = "13a",
    lowercase: bool = False,
) -> tuple[list[list[str]], list[list[list[str]]]]:
    """Validate a corpus and tokenise it: (hypothesis tokens, the tokens of each segment's references).

    For metrics that need tokens rather than BLEU statistics (NIST, PER). ``None`` references are skipped.

    >>> tokenize_corpus_with_references(["a b."], [["a b ."], [None]])
    ([['a', 'b', '.']], [[['a', 'b', '.']]])
    """
    check_corpus(hypotheses, references)
    tokenizer = get_tokenizer(tokenize, lowercase)
    hyp_tokens = tokenizer.tokenize_corpus(list(hypotheses))
    streams = [tokenizer.tokenize_corpus([r or "" for r in s]) for s in references]
    refs = [
        [streams[k][i] for k in range(len(references)) if references[k][i] is not None]
        for i in range(len(hypotheses))
    ]
    return hyp_tokens, refs


def compute_statistics(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str | None]],
    *,
    max_order: int = 4,
    tokenize: str = "13a",
    lowercase: bool = False,
    progress: Progress | None = None,
) -> SegmentStatistics:
    """Tokenise once and count clipped n-gram matches for every segment.

    Args:
        hypotheses: one system output per segment.
        references: reference *streams* (sacrebleu's convention): ``references[k][i]`` is reference k of
            segment i. ``None`` (or a missing entry) marks a segment with fewer references.
        max_order: highest n-gram order to count.
        tokenize: tokenizer name; lowercase: case-fold first.
        progress: called as ``progress(segments done, segments, message)`` while counting (see
            :data:`Progress`), at each chunk of segments the fast path starts on, and once at the end.

    >>> seen = []
    >>> _ = compute_statistics(["a b"] * 5, [["a b"] * 5], progress=lambda *p: seen.append(p))
    >>> seen[-1]
    (5, 5, 'Counting n-grams: segment 5 of 5')
    """
    if (
        isinstance(max_order, bool)
        or not isinstance(max_order, int)
        or not 1 <= max_order <= MAX_ORDER_LIMIT + 1
    ):
        # statistics may go one order past the scoring limit (Chen & Cherry 5/7 look at order N+1)
        raise InputError(
            f"statistics max order must be from 1 to {MAX_ORDER_LIMIT + 1}, got {max_order!r}"
        )
    check_corpus(hypotheses, references)
    get_tokenizer(tokenize, lowercase)  # validates the name
    # Batched tokenisation + vectorised counting, chunk by chunk (bleu_core.fast); `segment_row` is the
    # oracle the tests compare it with.
    from ..fast.corpus import corpus_statistics

    report = _Reporter(progress, len(hypotheses), _segment_message) if progress else None
    if report is not None:
        report(0)
        hypotheses = _ReportingLines(hypotheses, report)
    array, n_refs = corpus_statistics(
        hypotheses, references, max_order=max_order, tokenize=tokenize, lowercase=lowercase
    )
    if report is not None:
        report(len(hypotheses))
    return SegmentStatistics(array, n_refs)


# ---------------------------------------------------------------------------------------------- progress


def _system_message(done: int, total: int) -> str:
    if done >= total:
        return f"Counting n-grams: {total} system{'s' if total != 1 else ''} done"
    return f"Counting n-grams: system {done + 1} of {total}"


def _segment_message(done: int, total: int) -> str:
    return f"Counting n-grams: segment {done:,} of {total:,}"


class _Reporter:
    """Calls ``progress(done, total, message(done, total))`` whenever ``done`` has grown (never backwards)."""

    def __init__(self, progress: Progress, total: int, message: Callable[[int, int], str]) -> None:
        self.progress, self.total, self.message = progress, total, message
        self.done = -1

    def __call__(self, done: int) -> None:
        done = min(max(done, 0), self.total)
        if done > self.done or (done == 0 and self.done < 0):
            self.done = done
            self.progress(done, self.total, self.message(done, self.total))


class _ReportingLines(list):
    """The hypotheses, as a list that reports which segments the counting has reached.

    :func:`bleu_core.fast.corpus.corpus_statistics` reads the hypotheses chunk by chunk, in order
    (``hypotheses[start:end]``), tokenising and counting each chunk before it reads the next. Reading
    a slice that starts at ``start`` therefore means the segments before it are done: reported through
    ``report(start)``. The fast path needs no progress argument, and runs as fast as without one; if it
    ever read the corpus otherwise, progress would only jump from 0 to the end (still correct).

    >>> seen = []
    >>> lines = _ReportingLines(["a", "b", "c"], seen.append)
    >>> lines[1:3], lines[0], list(lines)
    (['b', 'c'], 'a', ['a', 'b', 'c'])
    >>> seen
    [1]
    """

    def __init__(self, lines: Iterable[str], report: Callable[[int], None]) -> None:
        super().__init__(lines)
        self._report = report

    @overload
    def __getitem__(self, index: SupportsIndex) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> list[str]: ...

    def __getitem__(self, index: SupportsIndex | slice) -> str | list[str]:
        if isinstance(index, slice):
            start, _, _ = index.indices(len(self))
            if start:
                self._report(start)
            return list.__getitem__(self, index)
        return list.__getitem__(self, index)


def compute_system_statistics(
    systems: Mapping[str, Sequence[str | None]],
    references: Sequence[Sequence[str | None]],
    *,
    max_order: int = 4,
    tokenize: str = "13a",
    lowercase: bool = False,
    progress: Progress | None = None,
) -> dict[str, SegmentStatistics]:
    """Statistics of several systems against the same reference streams, in one batched pass.

    The systems' outputs are stacked into one corpus (the references repeated once per system), so the
    tokenizer meets every distinct word once for all systems. A missing output (``None``) scores as an
    empty line. ``progress(systems done, systems, message)`` is called while counting (see
    :data:`Progress`): at each chunk of the stacked corpus, and once at the end.

    >>> out = compute_system_statistics({"a": ["x y"], "b": ["x z"]}, [["x y"]], max_order=1)
    >>> {name: s.matches[0].tolist() for name, s in out.items()}
    {'a': [2.0], 'b': [1.0]}
    >>> seen = []
    >>> _ = compute_system_statistics({"a": ["x"], "b": ["y"]}, [["x"]], progress=lambda *p: seen.append(p))
    >>> seen[0], seen[-1]
    ((0, 2, 'Counting n-grams: system 1 of 2'), (2, 2, 'Counting n-grams: 2 systems done'))
    """
    names = list(systems)
    if not names:
        raise InputError("no systems to score")
    n_segments = len(systems[names[0]])
    for name in names:
        if len(systems[name]) != n_segments:
            raise InputError(
                f"system {name!r} has {len(systems[name])} segment(s) but {names[0]!r} has {n_segments}; "
                "every system needs one output per segment"
            )
    hypotheses = ["" if h is None else h for name in names for h in systems[name]]
    stacked = [list(stream) * len(names) for stream in references]
    by_segment = None
    if progress is not None:
        by_system = _Reporter(progress, len(names), _system_message)

        def by_segment(done: int, total: int, message: str) -> None:
            # segments of the stacked corpus -> systems done (a system is done with its last segment)
            by_system(done // max(n_segments, 1))

    stats = compute_statistics(
        hypotheses,
        stacked,
        max_order=max_order,
        tokenize=tokenize,
        lowercase=lowercase,
        progress=by_segment,
    )
    return {
        name: stats[np.arange(i * n_segments, (i + 1) * n_segments)] for i, name in enumerate(names)
    }
