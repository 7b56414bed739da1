"""The brevity penalty (BLEU paper §2.2.2).

Modified precision already punishes a candidate for words the references lack; it cannot punish a candidate for
being *short*. The paper multiplies by

    BP = 1                 if c > r
    BP = exp(1 - r / c)    if c <= r

where c is the candidate length and r the *effective reference length*: summed over the corpus, for each segment
the reference length closest to the candidate ("best match length"; ties go to the shorter reference, as sacrebleu
does). Because c and r are corpus sums, one short sentence is not punished on its own.

Every BP of the project comes from here: :func:`brevity_penalty` over arrays (the engine,
:func:`bleu_core.engine.score.bleu_from_stats`) and :func:`brevity_penalty_of` for one pair of lengths in plain
Python (``score``'s numpy-free path, :mod:`bleu_core.engine.corpus_row`, and the Learn page's formula); the tests
hold the two equal.

>>> float(brevity_penalty(12, 14)), brevity_penalty_of(12, 14)
(0.846481724890614, 0.846481724890614)
>>> float(brevity_penalty(14, 12)), brevity_penalty_of(14, 12)
(1.0, 1.0)
>>> float(brevity_penalty(0, 5)), brevity_penalty_of(0, 5)
(0.0, 0.0)
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

# numpy is imported by the vectorised form only: `score`'s plain path does without it
if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import ArrayLike


def brevity_penalty_of(hyp_len: float, ref_len: float) -> float:
    """The brevity penalty of one candidate length ``c`` and effective reference length ``r``: 1 unless
    ``c < r``, then ``exp(1 - r / c)``; 0 for an empty candidate with a non-empty reference."""
    if hyp_len >= ref_len:
        return 1.0
    return math.exp(1.0 - ref_len / hyp_len) if hyp_len > 0 else 0.0


def brevity_penalty(hyp_len: ArrayLike, ref_len: ArrayLike) -> np.ndarray:
    """:func:`brevity_penalty_of` element by element, over arrays of lengths."""
    import numpy as np

    c = np.asarray(hyp_len, dtype=np.float64)
    r = np.asarray(ref_len, dtype=np.float64)
    safe_c = np.where(c > 0, c, 1.0)
    with np.errstate(over="ignore", invalid="ignore"):
        penalised = np.where(c > 0, np.exp(1.0 - r / safe_c), 0.0)
    return np.where(c < r, penalised, 1.0)
