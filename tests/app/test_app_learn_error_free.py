"""Learn BLEU's card "is BLEU = 1 an error-free detector?" (the 0-1 scale Learn writes BLEU on) under
AppTest: on the TED en-de demo (Apache-2.0, MQM: error-free = MQM 0) its counts equal sacrebleu's sentence
BLEU and the raters' labels; a class's ESA criterion (``esa (CODE)``) is read with the ESA rule; a study
without ratings says so."""

from __future__ import annotations

import re

import numpy as np
import sacrebleu
from app_runs import start_app as start

from bleu_core.evaluation.error_free import error_free_labels
from bleu_core.study.model import Criterion, Rating, Segment, Study


def _card(at) -> str:
    return next(m.value for m in at.markdown if "call a translation error-free" in m.value)


def test_the_card_counts_what_sacrebleu_and_the_raters_say(ted_en_de) -> None:
    at = start("learn")
    text = _card(at)
    systems = ted_en_de.machine_systems
    labels = error_free_labels(ted_en_de, systems).labels
    ref = ted_en_de.references["ref"]
    hundred = np.array(
        [[sacrebleu.sentence_bleu(h or "", [r or ""]).score > 100 - 1e-9 for h, r in
          zip(ted_en_de.systems[s], ref, strict=True)] for s in systems]
    )  # fmt: skip
    rated = ~np.isnan(labels)
    n_free, n = int((labels[rated] == 1).sum()), int(rated.sum())
    assert f"**{n_free:,}** of **{n:,}** rated" in text
    marked = int(hundred[rated].sum())
    assert f"Sentence BLEU is 1 (100 on sacrebleu's scale) for **{marked:,}** of them" in text
    hits = int((hundred[rated] & (labels[rated] == 1)).sum())
    share = re.search(r"\*\*(\d+)%\*\* of those are error-free", text)
    assert share is not None and int(share.group(1)) == round(100 * hits / marked)


def test_a_class_esa_criterion_and_a_study_without_ratings() -> None:
    segments = tuple(Segment(str(i)) for i in range(3))
    texts = {"A": ["a b c d", "e f g h", "x y"], "B": ["a b c d", "e f g i", "x z"]}
    refs = {"ref": ["a b c d", "e f g h", "x y"]}
    ratings = tuple(
        Rating(s, str(i), "kid", None, "esa (K7)", v)
        for s, vs in {"A": [90, 40, 95], "B": [100, 88, 20]}.items()
        for i, v in enumerate(vs)
    )
    study = Study("class", segments, refs, texts, criteria={"esa (K7)": Criterion("esa (K7)")},
                  ratings=ratings)  # fmt: skip
    text = _card(start("learn", study))
    # error-free: A0, A2, B0, B1 (ESA ≥ 85, no spans) → 4 of 6; BLEU 1: A0, A1, A2, B0 → 3 of 4 free
    assert r"(esa \(K7\))" in text and "**4** of **6** rated" in text
    assert "Sentence BLEU is 1 (100 on sacrebleu's scale) for **4** of them: **75%**" in text
    bare = Study("bare", segments, refs, texts)
    at = start("learn", bare)
    assert any("no ESA or MQM ratings" in c.value for c in at.caption)
