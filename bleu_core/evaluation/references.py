"""How much do BLEU and the system ranking depend on the references? (paper §3)

The paper asks "How many reference translations do we need?" and simulates a single-reference test
corpus by picking, for each of its 40 stories, one of the 4 reference translations at random: "the
systems maintain the same rank order as with multiple references".

:func:`reference_subsets` scores every system with every subset of the available reference streams
(every size from 1 to R) and compares each subset's ranking of the systems with the ranking under all
references (Kendall tau-b between the two score vectors). :func:`random_reference_per_document`
repeats the paper's experiment: one randomly chosen reference stream per document (seeded; each draw
is one simulated single-reference corpus). A single-reference corpus only needs the statistics of each
reference alone, so every draw is a row selection of precomputed statistics (no re-tokenising).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ..limits import MAX_RESAMPLES
from ..maths.resampling import DEFAULT_SEED, check_count, make_rng
from .correlation import correlation
from .errors import StatsInputError
from .systems import bleu_scores, default_options

if TYPE_CHECKING:
    from bleu_core.engine.options import BleuOptions

#: Refuse to enumerate more subsets than this (2^R − 1 grows fast); pass ``max_size`` to limit sizes.
MAX_SUBSETS = 255


@dataclass(frozen=True)
class SubsetScores:
    """BLEU of every system with one set of references, and how its ranking agrees with all references.

    ``kendall`` is tau-b between these scores and the all-reference scores (1 = same order).
    """

    references: tuple[str, ...]
    scores: tuple[float, ...]
    kendall: float

    @property
    def size(self) -> int:
        return len(self.references)


@dataclass(frozen=True, eq=False)
class ReferenceSubsetResult:
    """Scores of every system under every reference subset (``subsets``) and per-size summaries."""

    systems: tuple[str, ...]
    references: tuple[str, ...]
    subsets: tuple[SubsetScores, ...]

    @property
    def full(self) -> SubsetScores:
        return next(s for s in self.subsets if s.size == len(self.references))

    def by_size(self) -> dict[int, dict[str, Any]]:
        """Per subset size: mean/min/max BLEU per system and mean/min Kendall against all references."""
        out: dict[int, dict[str, Any]] = {}
        for size in sorted({s.size for s in self.subsets}):
            group = [s for s in self.subsets if s.size == size]
            scores = np.array([s.scores for s in group])
            taus = np.array([s.kendall for s in group])
            out[size] = {
                "n_subsets": len(group),
                "mean": dict(zip(self.systems, scores.mean(0).tolist(), strict=True)),
                "min": dict(zip(self.systems, scores.min(0).tolist(), strict=True)),
                "max": dict(zip(self.systems, scores.max(0).tolist(), strict=True)),
                "kendall_mean": float(np.nanmean(taus))
                if np.any(~np.isnan(taus))
                else float("nan"),
                "kendall_min": float(np.nanmin(taus)) if np.any(~np.isnan(taus)) else float("nan"),
            }
        return out

    def to_dict(self) -> dict[str, Any]:
        return {
            "systems": list(self.systems),
            "references": list(self.references),
            "subsets": [
                {"references": list(s.references), "scores": list(s.scores), "kendall": s.kendall}
                for s in self.subsets
            ],
            "by_size": {str(k): v for k, v in self.by_size().items()},
        }


@dataclass(frozen=True, eq=False)
class RandomReferenceResult:
    """Single-reference corpora built from one random reference per document.

    Attributes:
        systems: names; ``full_scores`` their BLEU with all references.
        draws: ``D × K`` BLEU with each draw's single references; ``choices`` ``D × documents`` indices
            into ``references``; ``kendall`` per draw against the all-reference scores.
        documents: the document ids used (segments without one are their own document).
        seed: the generator's seed.
    """

    systems: tuple[str, ...]
    references: tuple[str, ...]
    documents: tuple[str, ...]
    full_scores: np.ndarray
    draws: np.ndarray
    choices: np.ndarray
    kendall: np.ndarray
    seed: int
    named_documents: int = -1
    """How many of ``documents`` are named document ids (the others: segments without one); -1 unknown."""

    @property
    def units(self) -> str:
        """What a reference was drawn for, in words: ``170 documents``, or ``1984 segments (no document
        ids: each segment is its own unit)``, the count ``study`` calls documents said apart.

        >>> r = RandomReferenceResult((), (), ("d1", "seg3"), np.zeros(0), np.zeros((0, 0)),
        ...     np.zeros((0, 0)), np.zeros(0), 1, named_documents=1)
        >>> r.units
        '1 document and 1 segment without a document id (each its own unit)'
        """

        def count(n: int, word: str) -> str:
            return f"{n} {word}{'' if n == 1 else 's'}"

        alone = len(self.documents) - self.named_documents
        if self.named_documents < 0:
            return count(len(self.documents), "document")
        if self.named_documents == 0:
            return f"{count(alone, 'segment')} (no document ids: each segment is its own unit)"
        return count(self.named_documents, "document") + (
            f" and {count(alone, 'segment')} without a document id (each its own unit)"
            if alone
            else ""
        )

    @property
    def same_order_share(self) -> float:
        """Share of draws ranking the systems exactly as all references do."""
        full = np.argsort(-self.full_scores, kind="stable")
        same = [np.array_equal(np.argsort(-d, kind="stable"), full) for d in self.draws]
        return float(np.mean(same))

    @property
    def mean_kendall(self) -> float:
        """Mean over the draws of Kendall's tau against the all-reference ranking (draws whose tau is
        undefined left out; ``nan`` when every one is)."""
        defined = self.kendall[~np.isnan(self.kendall)]
        return float(defined.mean()) if defined.size else math.nan

    def to_dict(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "systems": list(self.systems),
            "references": list(self.references),
            "full_scores": self.full_scores.tolist(),
            "draws": self.draws.tolist(),
            "kendall": self.kendall.tolist(),
            "same_order_share": self.same_order_share,
        }


def _check_texts(
    systems: Mapping[str, Sequence[str | None]], references: Mapping[str, Sequence[str | None]]
) -> int:
    if len(systems) < 2:
        raise StatsInputError(f"comparing rankings needs at least 2 systems, got {len(systems)}")
    if len(references) < 1:
        raise StatsInputError("no reference streams given")
    lengths = {len(v) for v in systems.values()} | {len(v) for v in references.values()}
    if len(lengths) != 1:
        detail = ", ".join(f"{k}: {len(v)}" for k, v in {**systems, **references}.items())
        raise StatsInputError(
            f"systems and references must have the same number of segments ({detail})"
        )
    return lengths.pop()


def _statistics(
    hyps: Sequence[str | None], refs: list[Sequence[str | None]], options: BleuOptions
) -> np.ndarray:
    """Statistics rows of ``hyps``; a missing output (``None``) is not counted (a row of zeros:
    :mod:`bleu_core.study.output_rows`)."""
    from ..engine.bleu import statistics_for
    from ..study.output_rows import without_missing

    array = statistics_for(["" if h is None else h for h in hyps], refs, options).array
    return without_missing(array, np.array([h is not None for h in hyps], dtype=bool))


def _kendall(a: np.ndarray, b: np.ndarray) -> float:
    if len(a) < 3:  # scipy's tau-b needs no minimum, but ours reports nan below 3 pairs
        sa, sb = np.sign(a[1] - a[0]), np.sign(b[1] - b[0])
        return float(sa * sb) if sa and sb else float("nan")
    return correlation(a, b, "kendall").statistic


def reference_subsets(
    systems: Mapping[str, Sequence[str | None]],
    references: Mapping[str, Sequence[str | None]],
    options: BleuOptions | None = None,
    *,
    max_size: int | None = None,
) -> ReferenceSubsetResult:
    """BLEU of every system with every non-empty subset of the reference streams (sizes 1..max_size, and all).

    Args:
        systems: ``{name: hypothesis lines}``.
        references: ``{stream name: reference lines}`` (R streams, aligned with the hypotheses).
        options: BLEU options (defaults when ``None``).
        max_size: largest subset size to enumerate (the full set is always included).
    """
    options = default_options(options)
    _check_texts(systems, references)
    names = tuple(references)
    totals = {
        sub: np.stack(
            [_statistics(h, [references[x] for x in sub], options).sum(0) for h in systems.values()]
        )
        for sub in subset_list(names, max_size)
    }
    return subsets_from_totals(tuple(systems), names, totals, options)


def subset_list(references: Sequence[str], max_size: int | None = None) -> list[tuple[str, ...]]:
    """Every non-empty subset of the reference streams of sizes 1..``max_size`` (default all), and the
    full set, in the order :func:`reference_subsets` reports them.

    >>> subset_list(["A", "B", "C"], max_size=1)
    [('A',), ('B',), ('C',), ('A', 'B', 'C')]
    """
    names = tuple(references)
    r = len(names)
    top = r if max_size is None else min(check_count(max_size, "largest subset size"), r)
    subsets = [c for k in range(1, top + 1) for c in itertools.combinations(names, k)]
    if names not in subsets:
        subsets.append(names)
    if len(subsets) > MAX_SUBSETS:
        raise StatsInputError(
            f"{r} references give {len(subsets)} subsets; limit the subset size (max_size / --max-subset-size)"
        )
    return subsets


def subsets_from_totals(
    systems: Sequence[str],
    references: Sequence[str],
    totals: Mapping[tuple[str, ...], np.ndarray],
    options: BleuOptions | None = None,
) -> ReferenceSubsetResult:
    """:func:`reference_subsets` from statistics counted elsewhere: ``totals[subset]`` is the ``K × F``
    corpus statistics of the ``K`` systems with that subset of the references (keys: the subsets of
    :func:`subset_list`, in its order, the full set included). The same result, nothing tokenised.

    >>> from bleu_core.engine.statistics import compute_statistics
    >>> refs = [["the cat sat on the mat"]]
    >>> good = compute_statistics(["the cat sat on the mat"], refs).array.sum(0)
    >>> poor = compute_statistics(["a cat sat on the mat"], refs).array.sum(0)
    >>> res = subsets_from_totals(["good", "poor"], ["A"], {("A",): np.stack([good, poor])})
    >>> [round(v, 2) for v in res.full.scores], res.full.kendall
    ([100.0, 75.98], 1.0)
    """
    options = default_options(options)
    names = tuple(references)
    if names not in totals:
        raise StatsInputError(f"the statistics with all references {names} are missing")
    subsets = list(totals)
    scores = np.array(
        [bleu_scores(np.asarray(totals[sub], dtype=np.float64), options) for sub in subsets]
    )
    full = scores[subsets.index(names)]
    result = tuple(
        SubsetScores(tuple(sub), tuple(float(v) for v in row), _kendall(row, full))
        for sub, row in zip(subsets, scores, strict=True)
    )
    return ReferenceSubsetResult(tuple(systems), names, result)


def random_reference_per_document(
    systems: Mapping[str, Sequence[str | None]],
    references: Mapping[str, Sequence[str | None]],
    doc_ids: Sequence[str | None] | None = None,
    options: BleuOptions | None = None,
    *,
    n_draws: int = 100,
    seed: int | None = DEFAULT_SEED,
) -> RandomReferenceResult:
    """The paper's single-reference experiment: one random reference stream per document, repeated.

    Args:
        systems, references: as in :func:`reference_subsets` (at least 2 reference streams).
        doc_ids: document id per segment; ``None`` (or a ``None`` entry) makes a segment its own document.
        n_draws: number of simulated single-reference corpora.
        seed: generator seed (reported).
    """
    options = default_options(options)
    _check_texts(systems, references)
    if len(references) < 2:
        raise StatsInputError("choosing a random reference needs at least 2 reference streams")
    names = tuple(references)
    # per system, per single reference: S × F statistics
    single = np.stack(
        [
            np.stack([_statistics(h, [references[x]], options) for x in names])
            for h in systems.values()
        ]
    )  # K × R × S × F
    full = np.stack(
        [_statistics(h, [references[x] for x in names], options).sum(0) for h in systems.values()]
    )  # K × F
    return random_reference_from_statistics(
        tuple(systems), names, single, full, doc_ids, options, n_draws=n_draws, seed=seed
    )


def random_reference_from_statistics(
    systems: Sequence[str],
    references: Sequence[str],
    single: np.ndarray,
    full_totals: np.ndarray,
    doc_ids: Sequence[str | None] | None = None,
    options: BleuOptions | None = None,
    *,
    n_draws: int = 100,
    seed: int | None = DEFAULT_SEED,
) -> RandomReferenceResult:
    """:func:`random_reference_per_document` from statistics counted elsewhere (nothing tokenised).

    ``single`` is ``K × R × S × F``: each system's per-segment statistics against each reference stream
    alone; ``full_totals`` ``K × F``: the corpus statistics with all references. Each draw's totals are
    one matrix product (draws × the chosen reference's rows), whole numbers summed exactly.
    """
    options = default_options(options)
    single = np.asarray(single, dtype=np.float64)
    k, r, n_segments, f = single.shape
    if r < 2:
        raise StatsInputError("choosing a random reference needs at least 2 reference streams")
    if k != len(systems) or r != len(references) or np.shape(full_totals) != (k, f):
        raise StatsInputError(
            f"statistics of shape {single.shape} and {np.shape(full_totals)} do not fit "
            f"{len(systems)} systems and {len(references)} references"
        )
    d = check_count(n_draws, "number of draws", maximum=MAX_RESAMPLES)
    if doc_ids is None:
        doc_ids = [None] * n_segments
    if len(doc_ids) != n_segments:
        raise StatsInputError(f"{len(doc_ids)} document ids for {n_segments} segments")
    keys = [f"\x00seg{i}" if doc is None else str(doc) for i, doc in enumerate(doc_ids)]
    documents = tuple(dict.fromkeys(keys))
    position = {key: i for i, key in enumerate(documents)}
    doc_index = np.array([position[key] for key in keys])
    with_all = bleu_scores(np.asarray(full_totals, dtype=np.float64), options)
    rng, seed = make_rng(seed)
    choices = rng.integers(r, size=(d, len(documents)))
    seg_choice = choices[:, doc_index]  # D × S: which reference each segment uses in each draw
    # totals[d, k] = sum_s single[k, seg_choice[d, s], s]: (D × RS one-hot) @ (RS × KF), one BLAS call
    onehot = (seg_choice[:, None, :] == np.arange(r)[None, :, None]).astype(np.float64)
    flat = single.transpose(1, 2, 0, 3).reshape(r * n_segments, k * f)
    totals = (onehot.reshape(d, r * n_segments) @ flat).reshape(d, k, f)
    draws = bleu_scores(totals, options)  # D × K
    kendall = np.array([_kendall(row, with_all) for row in draws])
    return RandomReferenceResult(
        systems=tuple(systems),
        references=tuple(references),
        documents=tuple(doc.replace("\x00", "") for doc in documents),
        full_scores=with_all,
        draws=draws,
        choices=choices,
        kendall=kendall,
        seed=seed,
        named_documents=len({doc for doc in doc_ids if doc is not None}),
    )
