"""``--domain NAME`` on ``meta`` and ``significance``: the study cut to one domain, and the signatures that say so.

The cut is :func:`bleu_core.cli.options.restrict_domain` (the function the app's sidebar domain choice calls,
:func:`bleu_core.study.granularity.restrict_to_domain`), so a domain's numbers are the app's. A number computed
on one domain carries ``domain:NAME`` in its signature, right after the BLEU signature
(:func:`bleu_core.engine.signature.with_domain`), as :func:`bleu_core.engine.signature.analysis_signature` writes it.
"""

from __future__ import annotations

import argparse
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ..engine.signature import analysis_signature, interval_field, make_signature, with_domain
from .options import restrict_domain

if TYPE_CHECKING:
    from bleu_core.engine.options import BleuOptions
    from bleu_core.study.model import Study

__all__ = ["domain_signatures", "on_domain", "significance_provenance"]


def on_domain(args: argparse.Namespace, study: Study) -> tuple[Any, dict[str, Any] | None]:
    """``study`` cut to ``--domain`` and the output's description of the domain (see
    :func:`~bleu_core.cli.options.restrict_domain`); the study and None without ``--domain``."""
    return restrict_domain(study, getattr(args, "domain", None))


def domain_signatures(result: Any, about: dict[str, Any] | None) -> Any:
    """``meta``'s result (:class:`~bleu_core.evaluation.study_meta.MetaResult`) whose signatures name the
    domain (``...|domain:news``): its BLEU and segment-level signatures, and so every row's analysis
    signature, which starts with them. Unchanged without a domain."""
    if about is None:
        return result
    return replace(
        result,
        signature=with_domain(result.signature, about["name"]),
        segment_signature=with_domain(result.segment_signature, about["name"]),
    )


def significance_provenance(
    args: argparse.Namespace, systems: dict[str, Any], options: BleuOptions, boot: Any
) -> dict[str, Any]:
    """What ``significance``'s numbers were computed on: ``domain`` (the description of ``--domain``,
    else None) and ``signature``, the analysis signature: BLEU's (the references by name for a study,
    their number for ``-r`` files), the domain, the systems (human translations in or out), the
    bootstrap's resamples and seed.

    A study PATH leaves ``(references, humans in, domain)`` on ``args.study_provenance``; ``-r``/``-i``
    files leave nothing, and the statistics give the number of references.
    """
    references, humans, about = getattr(args, "study_provenance", None) or (
        next(iter(systems.values())).n_refs,
        None,
        None,
    )
    signature = analysis_signature(
        make_signature(options, references),
        systems=len(systems),
        human_included=humans,
        interval=interval_field("bootstrap percentile", boot.n_resamples, boot.seed),
        domain=None if about is None else about["name"],
    )
    return {"domain": about, "signature": signature}
