"""A reproducibility signature shown with every score, like sacrebleu's.

sacrebleu made "BLEU = 29.3" meaningful by printing *how* it was computed. We print the same fields
(``nrefs``, ``case``, ``eff``, ``tok``, ``smooth``, ``version``) and add our own options only when they differ from
the defaults, so a default signature reads like sacrebleu's.

>>> from bleu_core.engine.options import BleuOptions
>>> make_signature(BleuOptions(), n_refs=1)
'nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:bleu-study-0.1.0'
>>> make_signature(BleuOptions(max_order=2, ref_length="shortest", smooth="floor", lowercase=True), n_refs=4)
'nrefs:4|case:lc|eff:no|tok:13a|smooth:floor[0.10]|order:2|reflen:shortest|version:bleu-study-0.1.0'

The tokenizer reads as sacrebleu writes it: its tokenizer class's own ``signature()``, which for MeCab adds
the tagger's version and dictionary (``tok:ja-mecab-0.996-IPA``); ``paper``, ours alone, is ``tok:paper``.

>>> tokenizer_field("intl"), tokenizer_name("ja-mecab-0.996-IPA")
('intl', 'ja-mecab')

Given the references by name (not only their number), the signature names them: a score against ref-A
and one against ref-B are both ``nrefs:1`` but are different numbers.

>>> make_signature(BleuOptions(), ["ref-A", "ref-B"])
'nrefs:2|refs:ref-A+ref-B|case:mixed|eff:no|tok:13a|smooth:exp|version:bleu-study-0.1.0'
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from ..tokenize.line_tokenizers import TOKENIZER_NAMES, sacrebleu_class
from .options import BleuOptions

__version__ = "0.1.0"


def reference_field(names: Sequence[str]) -> str:
    """The ``refs:`` value: the reference names joined by ``+`` (``|`` and ``+`` inside a name become
    ``/`` and ``&`` so the field stays one field)."""
    return "+".join(str(n).replace("|", "/").replace("+", "&") for n in names)


@cache
def tokenizer_field(name: str) -> str:
    """The ``tok:`` value of tokenizer ``name``: sacrebleu's tokenizer class's ``signature()`` (``13a``,
    ``ja-mecab-0.996-IPA``, ``ko-mecab-0.996/ko-0.9.2-KO``...), so a signature reads as sacrebleu's
    ``BLEU(tokenize=name).get_signature()``; ``name`` itself for ``paper`` (no sacrebleu class) and for a
    MeCab tokenizer whose tagger cannot be built here (no score can have been computed with it either).
    Asked once per name, first of an instance left unbuilt: the signatures of 13a, intl, zh, char and
    none are constants, and building intl compiles Unicode tables (0.1 s) that the fast paths never use;
    MeCab's signature reads its tagger's version, so that one is built."""
    try:
        cls = sacrebleu_class(name)
    except (KeyError, ImportError):
        return name
    try:
        return str(object.__new__(cls).signature())
    except AttributeError:  # the signature reads what __init__ builds (MeCab's tagger)
        pass
    try:
        return str(cls().signature())
    except (ImportError, RuntimeError):
        return name


def tokenizer_name(field: str) -> str:
    """The tokenizer a ``tok:`` value names (the inverse of :func:`tokenizer_field`): ``ja-mecab`` for
    ``ja-mecab-0.996-IPA``; ``field`` itself when it names none of ours."""
    named = [n for n in TOKENIZER_NAMES if field == n or field.startswith(f"{n}-")]
    return max(named, key=len) if named else field


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
        f"tok:{tokenizer_field(options.tokenize)}",
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
    domain: str | None = None,
) -> str:
    """A BLEU signature extended with what else changes an analysis' number: the domain its segments
    were cut to (``--domain``, the app's sidebar), how many systems (and whether the human translations
    are among them), the human criterion, how intervals were made.

    ``interval`` is e.g. ``bootstrap-segments:1000:seed12345`` or ``fisher-z``.

    >>> analysis_signature("nrefs:1|refs:ref-A|eff:no", systems=9, human_included=False,
    ...                    criterion="da_z", interval="bootstrap-segments:1000:seed12345")
    'nrefs:1|refs:ref-A|eff:no|systems:9|humans:out|criterion:da_z|ci:bootstrap-segments:1000:seed12345'
    >>> analysis_signature("nrefs:1|eff:no", systems=3, domain="news")
    'nrefs:1|eff:no|domain:news|systems:3'
    """
    parts = [bleu if domain is None else with_domain(bleu, domain), f"systems:{systems}"]
    if human_included is not None:
        parts.append(f"humans:{'in' if human_included else 'out'}")
    if criterion is not None:
        parts.append(f"criterion:{criterion.replace('|', '/')}")
    if interval is not None:
        parts.append(f"ci:{interval}")
    return "|".join(parts)


def with_domain(signature: str, domain: str) -> str:
    """``signature`` of a number computed on the segments of ``domain`` only: ``domain:NAME`` appended
    (``|`` in the name becomes ``/``). :func:`analysis_signature` puts it there too.

    >>> with_domain("nrefs:1|tok:13a", "news")
    'nrefs:1|tok:13a|domain:news'
    """
    return f"{signature}|domain:{domain.replace('|', '/')}"


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
