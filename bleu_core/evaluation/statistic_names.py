"""One name per meta-evaluation statistic: the identifier that code, JSON and ``--statistics`` use, and
the name every text table, LaTeX table, page and document shows.

=========================  ==================  ==========================================================
identifier                 shown as            what it is
=========================  ==================  ==========================================================
``pairwise-accuracy``      pairwise accuracy   system pairs ordered as the humans order them (Kocmi et al. 2021)
``pearson``                Pearson             system-level Pearson r
``spearman``               Spearman            system-level Spearman rho
``kendall``                Kendall tau-b       system-level Kendall tau-b
``soft-pairwise-accuracy`` SPA                 soft pairwise accuracy (Thompson et al. 2024)
``acc-eq``                 acc*_eq             pairwise accuracy with ties, tie-calibrated, by item (Deutsch et al. 2023)
``tau-eq``                 tau*_eq             Kendall tau_23, tie-calibrated, by item (Deutsch et al. 2023)
``kendall-wmt``            WMT tau-like        WMT17-20's DARR tau-like over pairs of one segment's translations
=========================  ==================  ==========================================================

``acc*_eq`` is the pair formula acc_23 at the metric's calibrated tie threshold ε; the formulas keep
mt-metrics-eval's variant names (``"acc23"``, ``"23"``) in :mod:`bleu_core.evaluation.ties`, which computes them
for any ε: :data:`TIE_VARIANTS` maps a tie-calibrated statistic to its formula.

``--statistics`` also reads the spellings of the papers and of earlier versions (:data:`ALIASES`:
``acc23``, ``acc*_eq``, ``acc_eq``, ``tau23``, ``tau*_eq``, ``tau_eq``, ``spa``, ``tau-like``,
``wmt-tau-like``, any case): :func:`statistic_identifier` turns them into the identifier.

>>> statistic_name("acc-eq"), statistic_identifier("ACC*_EQ"), statistic_identifier("SPA")
('acc*_eq', 'acc-eq', 'soft-pairwise-accuracy')
"""

from __future__ import annotations

from .errors import StatsInputError

__all__ = [
    "ALIASES",
    "STATISTIC_NAMES",
    "TIE_VARIANTS",
    "statistic_identifier",
    "statistic_name",
]

STATISTIC_NAMES: dict[str, str] = {
    "pairwise-accuracy": "pairwise accuracy",
    "pearson": "Pearson",
    "spearman": "Spearman",
    "kendall": "Kendall tau-b",
    "soft-pairwise-accuracy": "SPA",
    "acc-eq": "acc*_eq",
    "tau-eq": "tau*_eq",
    "kendall-wmt": "WMT tau-like",
}
"""Identifier → the name shown for it (tables, pages, documents)."""

ALIASES: dict[str, str] = {
    "acc23": "acc-eq",
    "acc*_eq": "acc-eq",
    "acc_eq": "acc-eq",
    "tau23": "tau-eq",
    "tau*_eq": "tau-eq",
    "tau_eq": "tau-eq",
    "spa": "soft-pairwise-accuracy",
    "tau-like": "kendall-wmt",
    "wmt-tau-like": "kendall-wmt",
}
"""Other spellings ``--statistics`` accepts (lower case) → the identifier."""

TIE_VARIANTS: dict[str, str] = {"acc-eq": "acc23", "tau-eq": "23"}
"""A tie-calibrated statistic → its pair formula in :mod:`bleu_core.evaluation.ties` (mt-metrics-eval's
``KendallWithTiesOpt(variant=...)``)."""


def statistic_name(identifier: str) -> str:
    """The name shown for statistic ``identifier`` (the identifier itself for one not listed)."""
    return STATISTIC_NAMES.get(identifier, identifier)


def statistic_identifier(text: str) -> str:
    """The identifier that ``text`` (an identifier, a shown name or an alias, any case) means.

    >>> statistic_identifier("WMT tau-like"), statistic_identifier("pairwise-accuracy")
    ('kendall-wmt', 'pairwise-accuracy')
    >>> statistic_identifier("acc")
    Traceback (most recent call last):
      ...
    bleu_core.errors.StatsInputError: unknown statistic 'acc'; choose from: pairwise-accuracy, ...
    """
    key = text.strip().lower()
    for identifier, name in STATISTIC_NAMES.items():
        if key in (identifier, name.lower()):
            return identifier
    if key in ALIASES:
        return ALIASES[key]
    raise StatsInputError(
        f"unknown statistic {text!r}; choose from: {', '.join(STATISTIC_NAMES)}"
        f" (also accepted: {', '.join(ALIASES)})"
    )
