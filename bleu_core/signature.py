"""A reproducibility signature shown with every score, like sacrebleu's.

sacrebleu made "BLEU = 29.3" meaningful by printing *how* it was computed. We print the same fields
(``nrefs``, ``case``, ``eff``, ``tok``, ``smooth``, ``version``) and add our own options only when they differ from
the defaults, so a default signature reads like sacrebleu's.

>>> from bleu_core.options import BleuOptions
>>> make_signature(BleuOptions(), n_refs=1)
'nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:bleu-study-0.1.0'
>>> make_signature(BleuOptions(max_order=2, ref_length="shortest", smooth="floor", lowercase=True), n_refs=4)
'nrefs:4|case:lc|eff:no|tok:13a|smooth:floor[0.10]|order:2|reflen:shortest|version:bleu-study-0.1.0'
"""

from __future__ import annotations

from .options import BleuOptions

__version__ = "0.1.0"


def make_signature(options: BleuOptions, n_refs: int) -> str:
    """The signature string of a score computed with ``options`` against ``n_refs`` references."""
    smooth = options.smooth
    value = options.resolved_smooth_value
    if value is not None:
        smooth += f"[{value:.2f}]"
    parts = [
        f"nrefs:{'var' if n_refs < 0 else n_refs}",
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
