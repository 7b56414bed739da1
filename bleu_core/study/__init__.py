"""Studies: the segments, reference streams, system outputs and human ratings that bleu-study works on.

>>> from bleu_core.study import load_study
>>> result = load_study("demo:ted-en-de")
>>> study = result.study
>>> study.n_segments, len(study.doc_ids()), list(study.references), len(study.systems)
(529, 5, ['ref'], 13)
>>> sorted(study.criteria)
['mqm', 'mqm_accuracy', 'mqm_fluency']
>>> round(study.system_scores("mqm")["Facebook-AI"], 2)   # Google's published TED en-de table: 1.06
-1.06

The model is described in :mod:`bleu_core.study.model`, the formats in ``docs/formats.md``.
"""

from bleu_core.study.building import study_from_texts
from bleu_core.study.formats.plain_text import plain_text_study
from bleu_core.study.loading import load_study
from bleu_core.study.model import Criterion, LoadResult, LoadWarning, Rating, Segment, Study
from bleu_core.study.spans import ErrorSpan
from bleu_core.study.storage import read_saved_study, save_study
from bleu_core.study.validation import validate_study

__all__ = [
    "Criterion",
    "ErrorSpan",
    "LoadResult",
    "LoadWarning",
    "Rating",
    "Segment",
    "Study",
    "load_study",
    "plain_text_study",
    "read_saved_study",
    "save_study",
    "study_from_texts",
    "validate_study",
]
