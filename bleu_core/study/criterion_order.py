"""Which human criterion comes first: the standardised one where a release has it.

WMT ranks systems by **DA z** (each rater's scores standardised, so a harsh and a lenient rater count
alike), not by the raw 0-100 slider score, and a metric's correlation with the two can differ a lot. A
study that has both should open on z: every page, every command and the Export list the criteria in
:func:`criteria_order`, whose first element is the default everywhere.

The rule: a criterion ``X_z`` (or ``X-z``, ``X z``, case-insensitive) moves just before its raw twin
``X``; everything else keeps the study's order.

>>> criteria_order(["da", "da_z", "mqm"])
['da_z', 'da', 'mqm']
>>> criteria_order(["mqm", "adequacy"]), headline_criterion(["esa", "esa-z"]), headline_criterion([])
(['mqm', 'adequacy'], 'esa-z', None)
"""

from __future__ import annotations

import re
from collections.abc import Iterable

_Z = re.compile(r"^(?P<raw>.+?)[ _-]z$", re.IGNORECASE)
#: The names of a criterion holding DA z (DA standardised per rater): tau-like chooses its pairs by the study's
#: raw ``da`` for them (:mod:`bleu_core.evaluation.tau_like`), so a campaign's DA does not join as plain ``da`` beside
#: one (:func:`bleu_core.campaigns.integration.name_clash`).
DA_Z_NAMES = ("da_z", "da-z", "z", "z_score", "zscore", "raw_z")


def standardised_twin(name: str, names: Iterable[str]) -> str | None:
    """The raw criterion that ``name`` standardises (``da`` for ``da_z``), if ``names`` has it."""
    found = _Z.match(name)
    if found is None:
        return None
    raw = found["raw"].lower()
    return next((n for n in names if n.lower() == raw), None)


def criteria_order(names: Iterable[str]) -> list[str]:
    """``names`` with every standardised criterion just before its raw twin (others in order)."""
    names = list(names)
    twins = {standardised_twin(n, names): n for n in names}
    twins.pop(None, None)
    out: list[str] = []
    for name in names:
        if name in out:
            continue
        if name in twins and twins[name] not in out:  # the z twin listed first: once
            out.append(twins[name])
        out.append(name)
    return out


def headline_criterion(names: Iterable[str]) -> str | None:
    """The criterion a page or command opens on: the first of :func:`criteria_order` (or None)."""
    ordered = criteria_order(names)
    return ordered[0] if ordered else None
