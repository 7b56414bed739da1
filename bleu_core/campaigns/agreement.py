"""How much do judges agree, and how liberal is each one?

*Inter-annotator agreement* is measured with Krippendorff's alpha (Krippendorff 2004, *Content Analysis*, ch. 11;
"Computing Krippendorff's Alpha-Reliability", 2011): ``alpha = 1 - D_o / D_e``, observed over expected
disagreement, computed from the *coincidence matrix* of values paired within a unit. It handles any number of
judges and missing ratings; 1 is perfect agreement, 0 is agreement at chance level. The *level* says how far apart
two scores are: ``interval`` (squared difference), ``ordinal`` (by how many ratings fall between them), ``nominal``
(equal or not) or ``ratio``.

*Pairwise correlation* (Pearson or Spearman, :func:`bleu_core.maths.correlation.correlation`) compares two judges on the
items both rated.
*Calibration* gives each judge's mean score and *offset*: how much higher they score than the other judges on the
same items. The paper noticed exactly this: some judges are more liberal than others (§4).

Reliability data are a ``(n_raters, n_units)`` array (Krippendorff's layout: one row per judge, one column per
rated item), ``nan`` where a judge did not rate an item.

Two judges agree on 3 of 4 items. By hand: 8 pairable values with marginals n_1=2, n_2=2, n_3=3, n_4=1;
observed disagreement 2/8; expected (8² − 18) / (8·7) = 46/56; alpha = 1 − (2/8)/(46/56) = 32/46:

>>> data = [[1, 2, 3, 3], [1, 2, 3, 4]]
>>> round(krippendorff_alpha(data, level="nominal", n_resamples=0).statistic, 4), round(32 / 46, 4)
(0.6957, 0.6957)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

import numpy as np

from bleu_core.campaigns.model import CampaignError, StoredRating
from bleu_core.limits import MAX_RESAMPLES
from bleu_core.maths.correlation import correlation

ALPHA_LEVELS: tuple[str, ...] = ("nominal", "ordinal", "interval", "ratio")
CORRELATION_METHODS: tuple[str, ...] = ("pearson", "spearman")


@dataclass(frozen=True)
class AlphaResult:
    """Krippendorff's alpha with a bootstrap confidence interval (resampling units, i.e. items).

    ``confidence_interval`` is ``(nan, nan)`` when ``n_resamples`` is 0 or there are fewer than 2 units.
    ``seed`` is the seed the bootstrap used.
    """

    statistic: float
    confidence_interval: tuple[float, float]
    level: str
    observed_disagreement: float
    expected_disagreement: float
    n_units: int
    n_values: int
    n_raters: int
    confidence_level: float
    n_resamples: int
    seed: int | None


def _check_data(reliability_data: object) -> np.ndarray:
    try:
        data = np.asarray(reliability_data, dtype=float)
    except (TypeError, ValueError) as exc:
        raise CampaignError(
            "reliability data must be numbers (judges × items, nan for missing)"
        ) from exc
    if data.ndim != 2:
        raise CampaignError(
            f"reliability data must be a 2-D table (judges × items), got {data.ndim} dimension(s)"
        )
    if np.isinf(data).any():
        raise CampaignError(
            "reliability data contain an infinite value; use nan for a missing rating"
        )
    return data


def _unit_value_counts(data: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Values present, and counts ``(n_pairable_units, n_values)`` for units with at least 2 ratings."""
    present = ~np.isnan(data)
    pairable = present.sum(axis=0) >= 2
    values = np.unique(data[:, pairable][present[:, pairable]])
    sub = data[:, pairable]
    counts = (
        np.stack([(sub == v).sum(axis=0) for v in values], axis=1)
        if len(values)
        else np.zeros((int(pairable.sum()), 0))
    )
    return values, counts.astype(float)


def _coincidences(counts: np.ndarray, weights: np.ndarray | None = None) -> np.ndarray:
    """Coincidence matrix(es): sum over units of ``(n_u n_u^T - diag(n_u)) / (m_u - 1)``.

    With *weights* ``(B, U)`` (how often each unit is drawn), returns ``(B, V, V)``.
    """
    m = counts.sum(axis=1)
    scaled = counts / (m - 1)[:, None]
    per_unit = scaled[:, :, None] * counts[:, None, :]  # (U, V, V)
    idx = np.arange(counts.shape[1])
    per_unit[:, idx, idx] -= scaled
    if weights is None:
        return per_unit.sum(axis=0)
    return np.tensordot(weights, per_unit, axes=(1, 0))


def _delta2(values: np.ndarray, marginals: np.ndarray, level: str) -> np.ndarray:
    """Squared distance between every two values; ``marginals`` may carry a leading batch axis."""
    c, k = values[:, None], values[None, :]
    if level == "nominal":
        return np.broadcast_to((c != k).astype(float), marginals.shape[:-1] + (len(values),) * 2)
    if level == "interval":
        return np.broadcast_to((c - k) ** 2, marginals.shape[:-1] + (len(values),) * 2)
    if level == "ratio":
        with np.errstate(invalid="ignore", divide="ignore"):
            d = np.where(c + k == 0, 0.0, ((c - k) / (c + k)) ** 2)
        return np.broadcast_to(d, marginals.shape[:-1] + (len(values),) * 2)
    # ordinal: (sum of n_g for g from c to k) - (n_c + n_k) / 2, squared
    cum = np.cumsum(marginals, axis=-1)
    lo = np.minimum(np.arange(len(values))[:, None], np.arange(len(values))[None, :])
    hi = np.maximum(np.arange(len(values))[:, None], np.arange(len(values))[None, :])
    between = cum[..., hi] - cum[..., lo] + marginals[..., lo]
    return (between - (marginals[..., :, None] + marginals[..., None, :]) / 2) ** 2


def _alpha_from_coincidences(
    o: np.ndarray, values: np.ndarray, level: str
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    n_c = o.sum(axis=-1)
    n = n_c.sum(axis=-1)
    d2 = _delta2(values, n_c, level)
    observed = (o * d2).sum(axis=(-2, -1)) / n
    expected = (n_c[..., :, None] * n_c[..., None, :] * d2).sum(axis=(-2, -1)) / (n * (n - 1))
    with np.errstate(invalid="ignore", divide="ignore"):
        alpha = 1.0 - observed / expected
    return alpha, observed, expected


def krippendorff_alpha(
    reliability_data: Sequence[Sequence[float]] | np.ndarray,
    *,
    level: str = "interval",
    confidence_level: float = 0.95,
    n_resamples: int = 1000,
    seed: int | None = 0,
) -> AlphaResult:
    """Krippendorff's alpha of ``(n_raters, n_units)`` reliability data (``nan`` = not rated).

    Units rated by fewer than two judges carry no pairs and are left out. The confidence interval is a percentile
    bootstrap over units with ``n_resamples`` draws from ``numpy.random.default_rng(seed)``.

    The example of Krippendorff (2011, "Computing Krippendorff's Alpha-Reliability", §C) has 4 observers and
    12 units with missing values; alpha is 0.743 nominal, 0.815 ordinal, 0.849 interval:

    >>> nan = float("nan")
    >>> kd = [[1, 2, 3, 3, 2, 1, 4, 1, 2, nan, nan, nan],
    ...       [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, nan, 3],
    ...       [nan, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, nan],
    ...       [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, nan]]
    >>> [round(krippendorff_alpha(kd, level=lv, n_resamples=0).statistic, 3)
    ...  for lv in ("nominal", "ordinal", "interval")]
    [0.743, 0.815, 0.849]
    """
    if level not in ALPHA_LEVELS:
        raise CampaignError(f"level {level!r} is unknown; use one of {', '.join(ALPHA_LEVELS)}")
    if not 0 < confidence_level < 1:
        raise CampaignError(
            f"confidence level {confidence_level!r} must be between 0 and 1 (e.g. 0.95)"
        )
    if isinstance(n_resamples, bool) or not isinstance(n_resamples, int) or n_resamples < 0:
        raise CampaignError(f"n_resamples {n_resamples!r} must be a whole number >= 0")
    if n_resamples > MAX_RESAMPLES:
        raise CampaignError(f"n_resamples {n_resamples!r} must be at most {MAX_RESAMPLES:,}")
    data = _check_data(reliability_data)
    values, counts = _unit_value_counts(data)
    n_units = counts.shape[0]
    n_values = int(counts.sum())
    nan_ci = (float("nan"), float("nan"))
    if n_units == 0 or len(values) == 0:
        return AlphaResult(
            float("nan"), nan_ci, level, float("nan"), float("nan"), 0, 0, data.shape[0],
            confidence_level, n_resamples, seed,
        )  # fmt: skip
    alpha, observed, expected = _alpha_from_coincidences(_coincidences(counts), values, level)
    ci = nan_ci
    if n_resamples > 0 and n_units >= 2:
        rng = np.random.default_rng(seed)
        draws = rng.integers(0, n_units, size=(n_resamples, n_units))
        weights = np.zeros((n_resamples, n_units))
        np.add.at(weights, (np.repeat(np.arange(n_resamples), n_units), draws.ravel()), 1.0)
        boot, _, _ = _alpha_from_coincidences(_coincidences(counts, weights), values, level)
        boot = boot[np.isfinite(boot)]
        if len(boot):
            tail = (1 - confidence_level) / 2 * 100
            low, high = np.percentile(boot, [tail, 100 - tail])
            ci = (float(low), float(high))
    return AlphaResult(
        float(alpha), ci, level, float(observed), float(expected), n_units, n_values, data.shape[0],
        confidence_level, n_resamples, seed,
    )  # fmt: skip


@dataclass(frozen=True)
class PairCorrelation:
    """Correlation of two judges over the items both rated (``n``)."""

    rater_a: str
    rater_b: str
    statistic: float
    pvalue: float
    n: int


@dataclass(frozen=True)
class PairwiseAgreement:
    """Every pair of judges' correlation; ``statistic`` is the mean over pairs with a defined correlation.

    ``matrix[i, j]`` is the correlation of ``raters[i]`` and ``raters[j]`` (1 on the diagonal, nan where two
    judges share fewer than ``min_shared`` items or one of them gave a single score throughout).
    """

    statistic: float
    method: str
    raters: tuple[str, ...]
    matrix: np.ndarray
    pairs: tuple[PairCorrelation, ...]


def pairwise_correlation(
    reliability_data: Sequence[Sequence[float]] | np.ndarray,
    raters: Sequence[str],
    *,
    method: str = "pearson",
    min_shared: int = 3,
) -> PairwiseAgreement:
    """Correlation between every two judges on the items both rated.

    >>> res = pairwise_correlation([[1, 2, 3, 4], [2, 3, 4, 5], [4, 3, 2, 1]], ["a", "b", "c"])
    >>> [(p.rater_a, p.rater_b, round(p.statistic, 3)) for p in res.pairs]
    [('a', 'b', 1.0), ('a', 'c', -1.0), ('b', 'c', -1.0)]
    >>> round(res.statistic, 3)
    -0.333
    """
    if method not in CORRELATION_METHODS:
        raise CampaignError(
            f"method {method!r} is unknown; use one of {', '.join(CORRELATION_METHODS)}"
        )
    data = _check_data(reliability_data)
    names = tuple(str(r) for r in raters)
    if len(names) != data.shape[0]:
        raise CampaignError(
            f"{len(names)} rater names for {data.shape[0]} rows of reliability data; give one name per row"
        )
    k = len(names)
    matrix = np.full((k, k), np.nan)
    np.fill_diagonal(matrix, 1.0)
    pairs = []
    for i, j in combinations(range(k), 2):
        both = ~np.isnan(data[i]) & ~np.isnan(data[j])
        a, b = data[i, both], data[j, both]
        n = int(both.sum())
        stat = pval = float("nan")
        if n >= min_shared:  # below 3 shared items, or a judge with one score throughout: nan
            result = correlation(a, b, method)
            stat, pval = result.statistic, result.pvalue if result.pvalue is not None else pval
        matrix[i, j] = matrix[j, i] = stat
        pairs.append(PairCorrelation(names[i], names[j], stat, pval, n))
    defined = [p.statistic for p in pairs if np.isfinite(p.statistic)]
    mean = float(np.mean(defined)) if defined else float("nan")
    return PairwiseAgreement(mean, method, names, matrix, tuple(pairs))


@dataclass(frozen=True)
class JudgeCalibration:
    """One judge's leniency: mean score, and ``offset`` = mean of (their score − the other judges' mean) over
    the ``n_shared`` items that others rated too (positive = more liberal than the others)."""

    rater: str
    n: int
    mean: float
    std: float
    offset: float
    n_shared: int


def judge_calibration(
    reliability_data: Sequence[Sequence[float]] | np.ndarray, raters: Sequence[str]
) -> tuple[JudgeCalibration, ...]:
    """Mean, spread and offset against the other judges, for every judge.

    >>> cal = judge_calibration([[3, 4, 5], [2, 3, 4], [1, 2, 3]], ["lenient", "middle", "strict"])
    >>> [(c.rater, c.mean, c.offset) for c in cal]
    [('lenient', 4.0, 1.5), ('middle', 3.0, 0.0), ('strict', 2.0, -1.5)]
    """
    data = _check_data(reliability_data)
    if len(raters) != data.shape[0]:
        raise CampaignError(
            f"{len(raters)} rater names for {data.shape[0]} rows of reliability data; give one name per row"
        )
    present = ~np.isnan(data)
    totals = np.nansum(data, axis=0)
    counts = present.sum(axis=0)
    out = []
    for i, name in enumerate(raters):
        mine = present[i]
        others_n = counts - mine
        shared = mine & (others_n > 0)
        with np.errstate(invalid="ignore", divide="ignore"):
            others_mean = (totals - np.where(mine, data[i], 0.0)) / others_n
        row = data[i, mine]
        out.append(
            JudgeCalibration(
                rater=str(name),
                n=int(mine.sum()),
                mean=float(row.mean()) if len(row) else float("nan"),
                std=float(row.std(ddof=1)) if len(row) > 1 else float("nan"),
                offset=float(np.mean(data[i, shared] - others_mean[shared]))
                if shared.any()
                else float("nan"),
                n_shared=int(shared.sum()),
            )
        )
    return tuple(out)


@dataclass(frozen=True)
class ReliabilityData:
    """Ratings of one criterion as a ``(n_raters, n_units)`` array; units are item positions."""

    data: np.ndarray
    raters: tuple[str, ...]
    groups: tuple[str, ...]
    positions: tuple[int, ...]
    criterion: str


def reliability_data(
    ratings: Sequence[StoredRating], criterion: str, *, group: str | None = None
) -> ReliabilityData:
    """Arrange stored ratings of *criterion* (optionally one *group* only) as judges × items.

    >>> from datetime import datetime, UTC
    >>> t = datetime(2024, 1, 1, tzinfo=UTC)
    >>> rs = [StoredRating("C", "ana", "mono", 0, "s1", "A", "fluency", 4, t, t),
    ...       StoredRating("C", "bo", "mono", 1, "s2", "A", "fluency", 2, t, t)]
    >>> rd = reliability_data(rs, "fluency")
    >>> rd.raters, rd.positions, rd.data.tolist()
    (('ana', 'bo'), (0, 1), [[4.0, nan], [nan, 2.0]])
    """
    chosen = [
        r for r in ratings if r.criterion == criterion and (group is None or r.group == group)
    ]
    raters = sorted({r.judge for r in chosen})
    positions = sorted({r.position for r in chosen})
    row = {name: i for i, name in enumerate(raters)}
    col = {pos: j for j, pos in enumerate(positions)}
    data = np.full((len(raters), len(positions)), np.nan)
    group_of: dict[str, str] = {}
    for r in chosen:
        data[row[r.judge], col[r.position]] = r.score
        group_of[r.judge] = r.group
    return ReliabilityData(
        data, tuple(raters), tuple(group_of[n] for n in raters), tuple(positions), criterion
    )
