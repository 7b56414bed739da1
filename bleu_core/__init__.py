"""bleu_core: an exact, transparent and fast BLEU engine for studying BLEU against human judgment.

>>> from bleu_core import corpus_bleu
>>> corpus_bleu(["the cat sat on the mat"], [["the cat is on the mat"]]).signature
'nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:bleu-study-0.1.0'
"""

from .bleu import BleuScore, corpus_bleu, corpus_score, sentence_bleu, sentence_scores
from .errors import BleuOptionError, BleuStudyError, InputError, StudyError
from .matches import SegmentMatches, match_provenance
from .options import BleuOptions
from .score import BleuArrays, bleu_from_stats
from .signature import __version__, make_signature
from .statistics import SegmentStatistics, compute_statistics
from .tokenizers import TOKENIZER_NAMES, get_tokenizer

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
