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

from ..errors import BleuOptionError

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

#: The methods whose value may be 0, as sacrebleu's ``BLEU(smooth_method=..., smooth_value=0)`` accepts it:
#: ``floor`` 0 leaves a zero count at 0 (the score of ``none``), ``add-k`` 0 adds nothing.
ZERO_SMOOTH_VALUE = ("floor", "add-k")


def _tokenizer_names() -> tuple[str, ...]:
    from ..tokenize.tokenizers import TOKENIZER_NAMES

    return TOKENIZER_NAMES


class FrozenRecord:
    """An immutable record of named fields: what ``@dataclass(frozen=True)`` writes, by hand.

    A subclass names its fields in ``_fields`` and stores them with :meth:`_store`; equality, hashing, the
    repr and pickling follow (the repr and the equality are a frozen dataclass's, field for field). Written
    out because :mod:`dataclasses` imports :mod:`inspect` and generates each class's methods by ``exec``:
    46 M instructions to import and 12 M for :class:`BleuOptions` and :class:`~bleu_core.engine.bleu.BleuScore`,
    a fifth of ``bleu-study score`` on 3,000 segments (``benchmarks/RESULTS-bleu.md``, start-up).
    ``tests/engine/test_frozen_record.py`` holds :class:`BleuOptions` to the dataclass it replaces.
    """

    _fields: tuple[str, ...] = ()

    def _store(self, *values: object) -> None:
        for name, value in zip(self._fields, values, strict=True):
            object.__setattr__(self, name, value)

    def _values(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in self._fields)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable: cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable: cannot delete field {name!r}")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._fields)
        return f"{type(self).__qualname__}({fields})"

    def __reduce__(
        self,
    ) -> tuple[type, tuple[object, ...]]:  # pickle and copy: built (and checked) again
        return type(self), self._values()


class BleuOptions(FrozenRecord):
    """Everything that changes a BLEU score.

    Attributes:
        max_order: highest n-gram order N (1..9).
        weights: N non-negative numbers summing to 1, or ``None`` for the uniform 1/N of the paper.
        ref_length: effective reference length: ``closest`` (the paper's "best match length", ties go to the
            shorter reference, as in sacrebleu), ``shortest`` or ``average``.
        smooth: ``none``, ``floor``, ``add-k``, ``exp`` (sacrebleu's semantics) or ``chen-cherry-1`` ..
            ``chen-cherry-7`` (Chen & Cherry 2014 as implemented by NLTK).
        smooth_value: the method's parameter (floor epsilon, k...); ``None`` takes the method's default.
            0 is accepted for ``floor`` and ``add-k`` (as sacrebleu does), not for Chen & Cherry's.
        effective_order: ignore orders for which the hypothesis has no n-grams (sentence-level BLEU).
        tokenize: tokenizer name (see :mod:`bleu_core.tokenize.tokenizers`).
        lowercase: case-fold before tokenising.

    Immutable and hashable (a :class:`FrozenRecord`); :meth:`with_` makes a changed copy.

    >>> BleuOptions(smooth="floor")
    BleuOptions(max_order=4, weights=None, ref_length='closest', smooth='floor', smooth_value=None, effective_order=False, tokenize='13a', lowercase=False)
    """

    _fields = (
        "max_order",
        "weights",
        "ref_length",
        "smooth",
        "smooth_value",
        "effective_order",
        "tokenize",
        "lowercase",
    )
    max_order: int
    weights: tuple[float, ...] | None
    ref_length: str
    smooth: str
    smooth_value: float | None
    effective_order: bool
    tokenize: str
    lowercase: bool

    def __init__(
        self,
        max_order: int = 4,
        weights: tuple[float, ...] | None = None,
        ref_length: str = "closest",
        smooth: str = "exp",
        smooth_value: float | None = None,
        effective_order: bool = False,
        tokenize: str = "13a",
        lowercase: bool = False,
    ) -> None:
        self._store(
            max_order,
            weights,
            ref_length,
            smooth,
            smooth_value,
            effective_order,
            tokenize,
            lowercase,
        )
        validate_options(self)

    def to_dict(self) -> dict[str, object]:
        """The fields by name (JSON-ready: ``weights`` is a tuple or ``None``)."""
        return {name: getattr(self, name) for name in self._fields}

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

    def with_(self, **changes: object) -> BleuOptions:
        """A copy with some options changed (validated again)."""
        return BleuOptions(**{**self.to_dict(), **changes})  # type: ignore[arg-type]


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
        zero_ok = options.smooth in ZERO_SMOOTH_VALUE
        if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v) or v < 0:
            allowed = "a positive number or zero" if zero_ok else "a positive number"
            raise BleuOptionError(f"smoothing value must be {allowed}, got {v!r}")
        if SMOOTH_DEFAULTS[options.smooth] is None:
            raise BleuOptionError(f"smoothing {options.smooth!r} takes no value, got {v!r}")
        if v == 0 and not zero_ok:
            raise BleuOptionError(
                f"smoothing value must be a positive number, got {v!r} (0 is accepted for "
                f"{' and '.join(ZERO_SMOOTH_VALUE)} only, as in sacrebleu)"
            )
    names = _tokenizer_names()
    if options.tokenize not in names:
        raise BleuOptionError(
            f"unknown tokenizer {options.tokenize!r}; choose one of: " + ", ".join(names)
        )
