"""The brevity penalty (BLEU paper §2.2.2).

Modified precision already punishes a candidate for words the references lack; it cannot punish a candidate for
being *short*. The paper multiplies by

    BP = 1                 if c > r
    BP = exp(1 - r / c)    if c <= r

where c is the candidate length and r the *effective reference length*: summed over the corpus, for each segment
the reference length closest to the candidate ("best match length"; ties go to the shorter reference, as sacrebleu
does). Because c and r are corpus sums, one short sentence is not punished on its own.

>>> float(brevity_penalty(12, 14))
0.846481724890614
>>> float(brevity_penalty(14, 12))
1.0
>>> float(brevity_penalty(0, 5))
0.0
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike


def brevity_penalty(hyp_len: ArrayLike, ref_len: ArrayLike) -> np.ndarray:
    """Vectorised brevity penalty; 0 for an empty hypothesis with a non-empty reference."""
    c = np.asarray(hyp_len, dtype=np.float64)
    r = np.asarray(ref_len, dtype=np.float64)
    safe_c = np.where(c > 0, c, 1.0)
    with np.errstate(over="ignore", invalid="ignore"):
        penalised = np.where(c > 0, np.exp(1.0 - r / safe_c), 0.0)
    return np.where(c < r, penalised, 1.0)
