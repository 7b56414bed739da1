"""A reproducibility signature shown with every score, like sacrebleu's.

sacrebleu made "BLEU = 29.3" meaningful by printing *how* it was computed. We print the same fields
(``nrefs``, ``case``, ``eff``, ``tok``, ``smooth``, ``version``) and add our own options only when they differ from
the defaults, so a default signature reads like sacrebleu's.

>>> from bleu_core.options import BleuOptions
>>> make_signature(BleuOptions(), n_refs=1)
'nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:bleu-study-0.1.0'
>>> make_signature(BleuOptions(max_order=2, ref_length="shortest", smooth="floor", lowercase=True), n_refs=4)
'nrefs:4|case:lc|eff:no|tok:13a|smooth:floor[0.10]|order:2|reflen:shortest|version:bleu-study-0.1.0'

Given the references by name (not only their number), the signature names them: a score against ref-A
and one against ref-B are both ``nrefs:1`` but are different numbers.

>>> make_signature(BleuOptions(), ["ref-A", "ref-B"])
'nrefs:2|refs:ref-A+ref-B|case:mixed|eff:no|tok:13a|smooth:exp|version:bleu-study-0.1.0'
"""

from __future__ import annotations

from collections.abc import Sequence

from .options import BleuOptions

__version__ = "0.1.0"


def reference_field(names: Sequence[str]) -> str:
    """The ``refs:`` value: the reference names joined by ``+`` (``|`` and ``+`` inside a name become
    ``/`` and ``&`` so the field stays one field)."""
    return "+".join(str(n).replace("|", "/").replace("+", "&") for n in names)


def make_signature(options: BleuOptions, n_refs: int | Sequence[str]) -> str:
    """The signature string of a score computed with ``options`` against ``n_refs`` references:
    their number, or their names (then ``nrefs`` is their number and ``refs:`` names them)."""
    names: Sequence[str] | None = None
    if not isinstance(n_refs, int):
        names = list(n_refs)
        n_refs = len(names)
    smooth = options.smooth
    value = options.resolved_smooth_value
    if value is not None:
        smooth += f"[{value:.2f}]"
    parts = [
        f"nrefs:{'var' if n_refs < 0 else n_refs}",
        *([f"refs:{reference_field(names)}"] if names else []),
        f"case:{'lc' if options.lowercase else 'mixed'}",
        f"eff:{'yes' if options.effective_order else 'no'}",
        f"tok:{options.tokenize}",
        f"smooth:{smooth}",
    ]
    if options.max_order != 4:
        parts.append(f"order:{options.max_order}")
    if not options.uniform_weights:
        parts.append("weights:" + ",".join(f"{w:g}" for w in options.weight_vector))
    if options.ref_length != "closest":
        parts.append(f"reflen:{options.ref_length}")
    parts.append(f"version:bleu-study-{__version__}")
    return "|".join(parts)


def analysis_signature(
    bleu: str,
    *,
    systems: int,
    human_included: bool | None = None,
    criterion: str | None = None,
    interval: str | None = None,
) -> str:
    """A BLEU signature extended with what else changes an analysis' number: how many systems (and
    whether the human translations are among them), the human criterion, how intervals were made.

    ``interval`` is e.g. ``bootstrap-segments:1000:seed12345`` or ``fisher-z``.

    >>> analysis_signature("nrefs:1|refs:ref-A|eff:no", systems=9, human_included=False,
    ...                    criterion="da_z", interval="bootstrap-segments:1000:seed12345")
    'nrefs:1|refs:ref-A|eff:no|systems:9|humans:out|criterion:da_z|ci:bootstrap-segments:1000:seed12345'
    """
    parts = [bleu, f"systems:{systems}"]
    if human_included is not None:
        parts.append(f"humans:{'in' if human_included else 'out'}")
    if criterion is not None:
        parts.append(f"criterion:{criterion.replace('|', '/')}")
    if interval is not None:
        parts.append(f"ci:{interval}")
    return "|".join(parts)


def interval_field(
    method: str | None, n_resamples: int | None = None, seed: int | None = None
) -> str:
    """The ``ci:`` value of :func:`analysis_signature` for an interval made by ``method``.

    >>> interval_field("bootstrap percentile", 1000, 3), interval_field("Fisher z"), interval_field(None)
    ('bootstrap-segments:1000:seed3', 'fisher-z', 'none')
    """
    if method is None:
        return "none"
    if method == "Fisher z":
        return "fisher-z"
    return f"bootstrap-segments:{n_resamples}:seed{seed}"
