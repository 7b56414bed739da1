"""BLEU options, validated once.

:class:`BleuOptions` gathers every choice that changes a BLEU score. It is immutable and hashable, so the app
can cache on it, and it validates itself so that the maths never sees a bad value.

>>> BleuOptions().max_order
4
>>> BleuOptions(max_order=2, weights=(0.5, 0.5)).weight_vector
(0.5, 0.5)
>>> BleuOptions(smooth="laplace")
Traceback (most recent call last):
...
bleu_core.errors.BleuOptionError: unknown smoothing 'laplace'; choose one of: none, floor, add-k, exp, chen-cherry-1, chen-cherry-2, chen-cherry-3, chen-cherry-4, chen-cherry-5, chen-cherry-6, chen-cherry-7
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

from .errors import BleuOptionError

#: Highest n-gram order we accept (the paper uses 4; the issue asks for 1..9 at least).
MAX_ORDER_LIMIT = 9
REF_LENGTH_POLICIES = ("closest", "shortest", "average")
#: sacrebleu's smoothing methods (same names and defaults) followed by Chen & Cherry (2014) methods 1-7 as NLTK
#: implements them.
SMOOTHING_NAMES = ("none", "floor", "add-k", "exp") + tuple(f"chen-cherry-{i}" for i in range(1, 8))
#: Default smoothing values (sacrebleu's ``BLEU.SMOOTH_DEFAULTS`` for floor / add-k; NLTK's defaults for
#: Chen & Cherry: epsilon 0.1 for method 1, k = 5 for method 4, alpha = 5 for method 6).
SMOOTH_DEFAULTS: dict[str, float | None] = {
    "none": None,
    "floor": 0.1,
    "add-k": 1.0,
    "exp": None,
    "chen-cherry-1": 0.1,
    "chen-cherry-2": None,
    "chen-cherry-3": None,
    "chen-cherry-4": 5.0,
    "chen-cherry-5": None,
    "chen-cherry-6": 5.0,
    "chen-cherry-7": 5.0,
}


def _tokenizer_names() -> tuple[str, ...]:
    from .tokenizers import TOKENIZER_NAMES

    return TOKENIZER_NAMES


@dataclass(frozen=True)
class BleuOptions:
    """Everything that changes a BLEU score.

    Attributes:
        max_order: highest n-gram order N (1..9).
        weights: N non-negative numbers summing to 1, or ``None`` for the uniform 1/N of the paper.
        ref_length: effective reference length: ``closest`` (the paper's "best match length", ties go to the
            shorter reference, as in sacrebleu), ``shortest`` or ``average``.
        smooth: ``none``, ``floor``, ``add-k``, ``exp`` (sacrebleu's semantics) or ``chen-cherry-1`` ..
            ``chen-cherry-7`` (Chen & Cherry 2014 as implemented by NLTK).
        smooth_value: the method's parameter (floor epsilon, k...); ``None`` takes the method's default.
        effective_order: ignore orders for which the hypothesis has no n-grams (sentence-level BLEU).
        tokenize: tokenizer name (see :mod:`bleu_core.tokenizers`).
        lowercase: case-fold before tokenising.
    """

    max_order: int = 4
    weights: tuple[float, ...] | None = None
    ref_length: str = "closest"
    smooth: str = "exp"
    smooth_value: float | None = None
    effective_order: bool = False
    tokenize: str = "13a"
    lowercase: bool = False

    def __post_init__(self) -> None:
        validate_options(self)

    # ------------------------------------------------------------------ derived values
    @property
    def weight_vector(self) -> tuple[float, ...]:
        """The n-gram weights, uniform 1/N when ``weights`` is None."""
        if self.weights is None:
            return tuple(1.0 / self.max_order for _ in range(self.max_order))
        return self.weights

    @property
    def uniform_weights(self) -> bool:
        return self.weights is None or all(
            math.isclose(w, 1.0 / self.max_order, rel_tol=0, abs_tol=1e-12) for w in self.weights
        )

    @property
    def resolved_smooth_value(self) -> float | None:
        return SMOOTH_DEFAULTS[self.smooth] if self.smooth_value is None else self.smooth_value

    @property
    def needs_extra_order(self) -> bool:
        """Chen & Cherry methods 5 and 7 look at the precision of order N+1."""
        return self.smooth in ("chen-cherry-5", "chen-cherry-7")

    @property
    def statistics_order(self) -> int:
        """The n-gram order the sufficient statistics must cover for these options."""
        return self.max_order + 1 if self.needs_extra_order else self.max_order

    def with_(self, **changes: Any) -> BleuOptions:
        """A copy with some options changed (validated again)."""
        return replace(self, **changes)


def validate_options(options: BleuOptions) -> None:
    """Raise :class:`BleuOptionError` with a helpful message if any option is invalid."""
    n = options.max_order
    if isinstance(n, bool) or not isinstance(n, int):
        raise BleuOptionError(
            f"max order must be a whole number from 1 to {MAX_ORDER_LIMIT}, got {n!r}"
        )
    if not 1 <= n <= MAX_ORDER_LIMIT:
        raise BleuOptionError(f"max order must be from 1 to {MAX_ORDER_LIMIT}, got {n}")
    if options.weights is not None:
        weights = tuple(options.weights)
        if len(weights) != n:
            raise BleuOptionError(
                f"weights must be {n} numbers (one per n-gram order 1..{n}), got {len(weights)}: "
                f"{', '.join(str(w) for w in weights)}"
            )
        for w in weights:
            if isinstance(w, bool) or not isinstance(w, int | float) or not math.isfinite(w):
                raise BleuOptionError(f"weights must be finite numbers, got {w!r}")
            if w < 0:
                raise BleuOptionError(f"weights must be non-negative, got {w}")
        if not math.isclose(sum(weights), 1.0, rel_tol=0, abs_tol=1e-6):
            raise BleuOptionError(f"weights must sum to 1, they sum to {sum(weights):g}")
        object.__setattr__(options, "weights", tuple(float(w) for w in weights))
    if options.ref_length not in REF_LENGTH_POLICIES:
        raise BleuOptionError(
            f"unknown reference-length policy {options.ref_length!r}; choose one of: "
            + ", ".join(REF_LENGTH_POLICIES)
        )
    if options.smooth not in SMOOTHING_NAMES:
        raise BleuOptionError(
            f"unknown smoothing {options.smooth!r}; choose one of: " + ", ".join(SMOOTHING_NAMES)
        )
    if options.smooth_value is not None:
        v = options.smooth_value
        if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v) or v <= 0:
            raise BleuOptionError(f"smoothing value must be a positive number, got {v!r}")
        if SMOOTH_DEFAULTS[options.smooth] is None:
            raise BleuOptionError(f"smoothing {options.smooth!r} takes no value, got {v!r}")
    names = _tokenizer_names()
    if options.tokenize not in names:
        raise BleuOptionError(
            f"unknown tokenizer {options.tokenize!r}; choose one of: " + ", ".join(names)
        )
