"""bleu_core: an exact, transparent and fast BLEU engine for studying BLEU against human judgment.

>>> from bleu_core import corpus_bleu
>>> corpus_bleu(["the cat sat on the mat"], [["the cat is on the mat"]]).signature
'nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:bleu-study-0.1.0'
"""

from importlib import import_module
from typing import TYPE_CHECKING, Any

from .engine.options import BleuOptions
from .engine.signature import __version__, make_signature
from .errors import BleuOptionError, BleuStudyError, InputError, StudyError

if TYPE_CHECKING:
    from .engine.bleu import BleuScore, corpus_bleu, corpus_score, sentence_bleu, sentence_scores
    from .engine.matches import SegmentMatches, match_provenance
    from .engine.score import BleuArrays, bleu_from_stats
    from .engine.statistics import SegmentStatistics, compute_statistics
    from .tokenize.tokenizers import TOKENIZER_NAMES, get_tokenizer

#: Names loaded on first use (PEP 562), so that ``bleu-study score`` does not import numpy through them.
_LAZY = {
    **dict.fromkeys(
        ("BleuScore", "corpus_bleu", "corpus_score", "sentence_bleu", "sentence_scores"),
        ".engine.bleu",
    ),
    **dict.fromkeys(("SegmentMatches", "match_provenance"), ".engine.matches"),
    **dict.fromkeys(("BleuArrays", "bleu_from_stats"), ".engine.score"),
    **dict.fromkeys(("SegmentStatistics", "compute_statistics"), ".engine.statistics"),
    **dict.fromkeys(("TOKENIZER_NAMES", "get_tokenizer"), ".tokenize.tokenizers"),
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        value = getattr(import_module(_LAZY[name], __name__), name)
        globals()[name] = value
        return value
    if not name.startswith(
        "_"
    ):  # a submodule the eager imports used to load (`bleu_core.engine.score`, ...)
        try:
            return import_module(f".{name}", __name__)
        except ModuleNotFoundError as exc:
            if exc.name != f"{__name__}.{name}":
                raise
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "BleuArrays",
    "BleuOptionError",
    "BleuOptions",
    "BleuScore",
    "BleuStudyError",
    "InputError",
    "SegmentMatches",
    "SegmentStatistics",
    "StudyError",
    "TOKENIZER_NAMES",
    "__version__",
    "bleu_from_stats",
    "compute_statistics",
    "corpus_bleu",
    "corpus_score",
    "get_tokenizer",
    "make_signature",
    "match_provenance",
    "sentence_bleu",
    "sentence_scores",
]
