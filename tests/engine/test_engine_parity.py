"""Differential tests: exact parity with sacrebleu 2.x on the real Apache-2.0 TED MQM data.

Source: Google's WMT21 TED MQM annotations (../shared/data/google-mqm-ted2021, commit 7fadea28, Apache-2.0), as
bundled in data/ (en-de and zh-en), every system's output (13 MT systems + human translations), 529 segments. Reference: sacrebleu (the
installed 2.x version) with the same settings; |difference| < 1e-9 in score, identical counts/totals/lengths.
"""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest
import sacrebleu

from bleu_core import BleuOptions, bleu_from_stats, compute_statistics, corpus_bleu
from bleu_core.study.demo import load_demo


@cache
def ted_texts(pair: str) -> dict[str, list[str]]:
    """name -> text per rated segment, for every system and reference of the bundled TED study (converted from
    ../shared/data/google-mqm-ted2021 by data/build_demos.py; span marks stripped)."""
    study = load_demo(f"ted-{pair}")
    texts = {**study.references, **study.systems}
    assert all(t is not None for v in texts.values() for t in v)
    return texts


REFERENCE = {"en-de": ["ref"], "zh-en": ["refB"]}
MULTI_REFERENCE = {
    "en-de": ["ref", "Online-W"],
    "zh-en": ["refB", "ref"],
}  # extra human/MT streams as refs


def _corpus(pair: str, multi: bool):
    texts = ted_texts(pair)
    ref_names = (MULTI_REFERENCE if multi else REFERENCE)[pair]
    refs = [texts[r] for r in ref_names]
    systems = {k: v for k, v in texts.items() if k not in ref_names}
    return systems, refs


@pytest.mark.parametrize("pair", ["en-de", "zh-en"])
@pytest.mark.parametrize("tokenize", ["13a", "intl", "char", "none"])
@pytest.mark.parametrize("lowercase", [False, True])
@pytest.mark.parametrize("multi", [False, True])
def test_corpus_bleu_parity(pair, tokenize, lowercase, multi):
    systems, refs = _corpus(pair, multi)
    sb = sacrebleu.BLEU(tokenize=tokenize, lowercase=lowercase)
    # every system with the default tokenizer; five systems (human translations included) for the others
    names = list(systems) if tokenize == "13a" else sorted(systems)[:5]
    for name in names:
        hyps = systems[name]
        ours = corpus_bleu(hyps, refs, tokenize=tokenize, lowercase=lowercase)
        theirs = sb.corpus_score(hyps, refs)
        assert abs(ours.score - theirs.score) < 1e-9, name
        assert list(ours.counts) == theirs.counts and list(ours.totals) == theirs.totals, name
        assert (ours.hyp_len, ours.ref_len) == (theirs.sys_len, theirs.ref_len), name
        assert ours.bp == pytest.approx(theirs.bp, abs=1e-12)


@pytest.mark.parametrize("pair", ["en-de", "zh-en"])
@pytest.mark.parametrize("smooth", ["exp", "floor", "add-k", "none"])
def test_sentence_bleu_parity(pair, smooth):
    systems, refs = _corpus(pair, multi=False)
    options = BleuOptions(smooth=smooth, effective_order=True)
    for name in list(systems)[:4]:
        hyps = systems[name]
        stats = compute_statistics(hyps, refs)
        ours = bleu_from_stats(stats, options).score
        theirs = np.array(
            [
                sacrebleu.sentence_bleu(h, [r], smooth_method=smooth).score
                for h, r in zip(hyps, refs[0], strict=True)
            ]
        )
        np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-9, err_msg=name)


def test_max_order_and_no_effective_order_parity():
    systems, refs = _corpus("en-de", multi=True)
    hyps = next(iter(systems.values()))
    for order in (1, 2, 3, 5, 6):
        ours = corpus_bleu(hyps, refs, max_order=order, smooth="floor")
        theirs = sacrebleu.BLEU(max_ngram_order=order, smooth_method="floor").corpus_score(
            hyps, refs
        )
        assert abs(ours.score - theirs.score) < 1e-9
    stats = compute_statistics(hyps[:50], [r[:50] for r in refs])
    ours = bleu_from_stats(stats, BleuOptions(smooth="exp", effective_order=False)).score
    sb = sacrebleu.BLEU(effective_order=False)
    theirs = [sb.sentence_score(h, [r[i] for r in refs]).score for i, h in enumerate(hyps[:50])]
    np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-9)
