"""Corpus and sentence BLEU from text: the convenient front door.

The worked example of the BLEU paper (§2.1, Example 1), counted with the paper's tokenizer:

>>> refs = [["It is a guide to action that ensures that the military will forever heed Party commands."],
...         ["It is the guiding principle which guarantees the military forces always being under the command "
...          "of the Party."],
...         ["It is the practical guide for the army always to heed the directions of the party."]]
>>> cand1 = "It is a guide to action which ensures that the military always obeys the commands of the party."
>>> s = corpus_bleu([cand1], refs, tokenize="paper", smooth="none")
>>> s.counts[0], s.totals[0]
(17, 18)

sacrebleu's README example (sacrebleu 2.x, default settings, ``BLEU = 48.53 82.4/50.0/45.5/37.5``):

>>> hyps = ["The dog bit the man.", "It wasn't surprising.", "The man had just bitten him."]
>>> refs = [["The dog bit the man.", "It was not unexpected.", "The man bit him first."],
...         ["The dog had bit the man.", "No one was surprised.", "The man had bitten the dog."]]
>>> corpus_bleu(hyps, refs)
BleuScore(score=48.53, precisions=82.4/50.0/45.5/37.5, bp=0.943, ratio=0.944, hyp_len=17, ref_len=18, signature='nrefs:2|case:mixed|eff:no|tok:13a|smooth:exp|version:bleu-study-0.1.0')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .options import BleuOptions, FrozenRecord
from .signature import make_signature

if TYPE_CHECKING:  # numpy is imported only when statistics are computed or scored with it
    from .statistics import Progress, SegmentStatistics


class BleuScore(FrozenRecord):
    """One BLEU score with everything that explains it (immutable and hashable: a
    :class:`~bleu_core.engine.options.FrozenRecord`, which says why it is not a dataclass).

    ``bleu`` is on the paper's 0-1 scale, ``score`` on sacrebleu's 0-100; ``precisions`` are fractions.
    """

    _fields = (
        "bleu",
        "score",
        "precisions",
        "counts",
        "totals",
        "bp",
        "ratio",
        "hyp_len",
        "ref_len",
        "signature",
        "options",
    )
    bleu: float
    score: float
    precisions: tuple[float, ...]
    counts: tuple[int, ...]
    totals: tuple[int, ...]
    bp: float
    ratio: float
    hyp_len: int
    ref_len: float
    signature: str
    options: BleuOptions

    def __init__(
        self,
        bleu: float,
        score: float,
        precisions: tuple[float, ...],
        counts: tuple[int, ...],
        totals: tuple[int, ...],
        bp: float,
        ratio: float,
        hyp_len: int,
        ref_len: float,
        signature: str,
        options: BleuOptions,
    ) -> None:
        self._store(
            bleu, score, precisions, counts, totals, bp, ratio, hyp_len, ref_len, signature, options
        )

    def __repr__(self) -> str:
        prec = "/".join(f"{100 * p:.1f}" for p in self.precisions)
        ref_len = int(self.ref_len) if float(self.ref_len).is_integer() else round(self.ref_len, 2)
        return (
            f"BleuScore(score={self.score:.2f}, precisions={prec}, bp={self.bp:.3f}, ratio={self.ratio:.3f}, "
            f"hyp_len={self.hyp_len}, ref_len={ref_len}, signature={self.signature!r})"
        )

    def __str__(self) -> str:
        prec = "/".join(f"{100 * p:.1f}" for p in self.precisions)
        ref_len = int(self.ref_len) if float(self.ref_len).is_integer() else round(self.ref_len, 2)
        return (
            f"BLEU = {self.score:.2f} {prec} (BP = {self.bp:.3f} ratio = {self.ratio:.3f} "
            f"hyp_len = {self.hyp_len} ref_len = {ref_len})"
        )

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready fields (names as in the command line's JSON output)."""
        return {
            "bleu": self.bleu,
            "score": self.score,
            "precisions": list(self.precisions),
            "counts": list(self.counts),
            "totals": list(self.totals),
            "bp": self.bp,
            "ratio": self.ratio,
            "hyp_len": self.hyp_len,
            "ref_len": self.ref_len,
            "signature": self.signature,
        }


def _options(options: BleuOptions | None, kwargs: dict[str, Any]) -> BleuOptions:
    if options is None:
        return BleuOptions(**kwargs)
    return options.with_(**kwargs) if kwargs else options


def score_row(row: Any, options: BleuOptions, n_refs: int) -> BleuScore:
    """A :class:`BleuScore` from one statistics row (e.g. corpus sums)."""
    from .score import bleu_from_stats

    r = bleu_from_stats(row, options)
    return BleuScore(
        bleu=float(r.bleu),
        score=float(r.score),
        precisions=tuple(float(p) for p in r.precisions),
        counts=tuple(int(c) for c in r.matches),
        totals=tuple(int(t) for t in r.totals),
        bp=float(r.bp),
        ratio=float(r.ratio),
        hyp_len=int(r.hyp_len),
        ref_len=float(r.ref_len),
        signature=make_signature(options, n_refs),
        options=options,
    )


def statistics_for(
    hypotheses: Sequence[str], references: Sequence[Sequence[str | None]], options: BleuOptions
) -> SegmentStatistics:
    """The statistics ``options`` need (order N, or N+1 for Chen & Cherry 5/7), counted with its
    tokenizer and case: :func:`~bleu_core.engine.statistics.compute_statistics` given the options object."""
    from .statistics import compute_statistics

    return compute_statistics(
        hypotheses,
        references,
        max_order=options.statistics_order,
        tokenize=options.tokenize,
        lowercase=options.lowercase,
    )


def system_statistics_for(
    systems: Mapping[str, Sequence[str | None]],
    references: Sequence[Sequence[str | None]],
    options: BleuOptions,
    *,
    progress: Progress | None = None,
) -> dict[str, SegmentStatistics]:
    """:func:`statistics_for` of several systems at once:
    :func:`~bleu_core.engine.statistics.compute_system_statistics` given the options object."""
    from .statistics import compute_system_statistics

    return compute_system_statistics(
        systems,
        references,
        max_order=options.statistics_order,
        tokenize=options.tokenize,
        lowercase=options.lowercase,
        progress=progress,
    )


def corpus_score(stats: SegmentStatistics, options: BleuOptions | None = None) -> BleuScore:
    """Corpus BLEU of precomputed statistics: sum the rows, then score."""
    options = options or BleuOptions()
    return score_row(stats.total(), options, stats.n_refs)


def corpus_bleu(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str | None]],
    options: BleuOptions | None = None,
    **option_kwargs: Any,
) -> BleuScore:
    """Corpus BLEU of ``hypotheses`` against reference *streams* (``references[k][i]``: reference k of segment i).

    Keyword arguments are :class:`BleuOptions` fields (``tokenize``, ``max_order``, ``smooth`` ...).
    """
    opts = _options(options, option_kwargs)
    return corpus_score(statistics_for(hypotheses, references, opts), opts)


def sentence_bleu(
    hypothesis: str,
    references: Sequence[str],
    options: BleuOptions | None = None,
    **option_kwargs: Any,
) -> BleuScore:
    """BLEU of one sentence against its references (a list of strings).

    As in sacrebleu, effective order is on by default at sentence level (``effective_order=True``).

    >>> round(sentence_bleu("the cat sat on the mat", ["the cat is on the mat"]).score, 4)
    37.9918
    """
    option_kwargs.setdefault("effective_order", True) if options is None else None
    opts = _options(options, option_kwargs)
    if isinstance(references, str):
        references = [references]
    stats = statistics_for([hypothesis], [[r] for r in references], opts)
    return score_row(stats.array[0], opts, stats.n_refs)


def sentence_scores(stats: SegmentStatistics, options: BleuOptions | None = None):
    """Sentence BLEU of every segment at once (a :class:`bleu_core.engine.score.BleuArrays`)."""
    from .score import bleu_from_stats

    return bleu_from_stats(stats, options or BleuOptions(effective_order=True))
