"""A 50-system study for the readability tests: every chart must show every system's name.

Written as one long-table CSV (docs/formats.md §2) from :func:`benchmarks.synthetic.make_systems`: 50
systems × 40 segments, two reference streams, human ``adequacy`` ratings (1-5) by five named raters who
each rate every system on their own segments (so Judges can pair them), one human translation, and one
translation left out (the release "lacks" it: Explore must say "not in the release").

System names are of realistic lengths (up to 28 characters), so label limits are exercised.
"""

from __future__ import annotations

import csv
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]

PREFIXES = (
    "Online-A",
    "Facebook-AI",
    "HuaweiTSC",
    "VolcTrans-GLAT",
    "eTranslation",
    "UEdin-constrained-ensemble",
    "NiuTrans",
    "Borderline",
    "P3AI",
    "ZZ",
)
MISSING = (3, 5)
"""(system index, segment index) of the translation left out of the study."""
HUMAN_SYSTEM = 0
"""The system written as ``role=human`` (a human translation)."""


def system_names(n: int) -> list[str]:
    """``n`` distinct names like ``Facebook-AI-07`` (the longest 29 characters).

    >>> system_names(3)
    ['Online-A-00', 'Facebook-AI-01', 'HuaweiTSC-02']
    """
    return [f"{PREFIXES[k % len(PREFIXES)]}-{k:02d}" for k in range(n)]


def write_study(path: Path, n_systems: int = 50, n_segments: int = 40, seed: int = 15) -> list[str]:
    """Write the study to ``path`` (CSV); return the system names."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import synthetic

    systems, refs, rates = synthetic.make_systems(n_segments, n_systems, n_refs=2, seed=seed)
    names = system_names(n_systems)
    rng = np.random.default_rng(seed)
    fields = ["segment_id", "doc_id", "system", "role", "text", "rater", "criterion", "score"]
    with open(path, "w", encoding="utf-8", newline="") as fh:
        out = csv.DictWriter(fh, fieldnames=fields)
        out.writeheader()
        for i in range(n_segments):
            seg, doc = f"s{i + 1}", f"d{i // 10 + 1}"
            for r, stream in enumerate(refs):
                out.writerow(
                    {"segment_id": seg, "doc_id": doc, "system": f"ref-{'AB'[r]}",
                     "role": "reference", "text": stream[i]}
                )  # fmt: skip
            rater = f"r{i % 5 + 1}"
            for k, name in enumerate(names):
                if (k, i) == MISSING:
                    continue
                score = float(np.clip(round(5 - 8 * rates[k] + rng.normal(0, 0.7)), 1, 5))
                out.writerow(
                    {"segment_id": seg, "doc_id": doc, "system": name,
                     "role": "human" if k == HUMAN_SYSTEM else "system",
                     "text": systems[k][i], "rater": rater, "criterion": "adequacy",
                     "score": score}
                )  # fmt: skip
    return names
