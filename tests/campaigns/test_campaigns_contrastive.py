"""Contrastive ESA (WMT26's cESA): the screen layout, the Save rule (spans below 85), storage as ESA's, and the
pairwise preference statistics of the projector (the BLEU paper's §4 comparison) on hand-computed examples."""

from __future__ import annotations

import math
import os
import re
from pathlib import Path

import pytest

from bleu_core.campaigns import CampaignError, CampaignStore, JudgeSession, add_quality_control
from bleu_core.campaigns.contrastive import (
    BANDS,
    SCORE_STEP,
    SPANS_REQUIRED_BELOW,
    band,
    contrastive_plan,
    screen_positions,
    screen_refusal,
    sentence_bleu_of,
    submit_screen,
)
from bleu_core.campaigns.pairwise_preference import pairwise_preferences
from bleu_core.campaigns.planning import plan_campaign
from bleu_core.campaigns.protocols import MarkedSpan

MAJOR = MarkedSpan(0, 1, "major")


def toy_plan(systems=("A", "B", "C"), n=4, seed=5):
    ids = [f"s{i}" for i in range(n)]
    return plan_campaign(
        name="cesa lesson",
        study_name="toy",
        segment_ids=ids,
        translations={s: [f"{s.lower()} says {i}" for i in range(n)] for s in systems},
        sources=[f"source {i}" for i in range(n)],
        references=None,
        systems=list(systems),
        n_segments=n,
        seed=seed,
        display="source",
        groups=("class",),
    )


def test_each_screen_is_one_segment_with_every_system_once_in_a_seeded_order():
    plan = contrastive_plan(toy_plan())
    assert plan.protocol == "cesa" and [c.name for c in plan.criteria] == ["esa"]
    screens = [plan.items[k : k + 3] for k in range(0, len(plan.items), 3)]
    assert len(screens) == 4
    for screen in screens:
        assert len({it.segment_id for it in screen}) == 1
        assert sorted(it.system for it in screen) == ["A", "B", "C"]
    assert [it.position for it in plan.items] == list(range(12))
    # the systems' order changes between screens (seeded), so no system is always on top
    assert len({tuple(it.system for it in screen) for screen in screens}) > 1
    again = contrastive_plan(toy_plan())
    assert [(i.segment_id, i.system) for i in again.items] == [
        (i.segment_id, i.system) for i in plan.items
    ]


def test_two_or_three_systems_only():
    with pytest.raises(CampaignError, match="2 or 3 translations of a sentence together, not 4"):
        contrastive_plan(toy_plan(systems=("A", "B", "C", "D")))


def test_wmt26_bands_and_the_save_rule():
    # Pearmut 1.1.6, web/src/annotate.ts: >= 85 very good, >= 65 good, >= 45 acceptable, >= 25 borderline
    assert [band(s) for s in (100, 85, 84, 65, 64, 45, 44, 25, 24, 0)] == [
        "very good",
        "very good",
        "good",
        "good",
        "acceptable",
        "acceptable",
        "borderline",
        "borderline",
        "not acceptable",
        "not acceptable",
    ]
    assert screen_refusal([("A", 85, []), ("B", 84, [MAJOR])]) is None
    assert "Translation B: you scored 84 but marked no error" in screen_refusal(
        [("A", 85, []), ("B", 84, [])]
    )
    assert "Translation A has no score yet" in screen_refusal([("A", None, [MAJOR])])


def test_screen_positions():
    assert screen_positions(0, n_positions=6, per_screen=2) == (0, 1)
    assert screen_positions(5, n_positions=6, per_screen=2) == (4, 5)
    with pytest.raises(CampaignError, match="position 6 does not exist; use 0 to 5"):
        screen_positions(6, n_positions=6, per_screen=2)


def test_a_screen_is_stored_as_esa_ratings_and_spans_or_refused_whole():
    store = CampaignStore("sqlite://")
    plan = contrastive_plan(toy_plan(), {("s0", "A"): 12.0})
    code = store.create_campaign(plan).campaign.code
    session = JudgeSession.join(store, code, "Ana", "class")
    with pytest.raises(CampaignError, match="Translation C: you scored 40 but marked no error"):
        submit_screen(session, {0: (90, []), 1: (70, [MAJOR]), 2: (40, [])})
    assert session.store.my_ratings(code, session.token) == {}  # nothing of the refused screen
    with pytest.raises(CampaignError, match="not one screen"):
        submit_screen(session, {0: (90, []), 1: (90, [])})
    nxt = submit_screen(session, {0: (90, []), 1: (70, [MAJOR]), 2: (40, [MAJOR])})
    assert nxt == 3
    assert session.store.my_ratings(code, session.token) == {
        0: {"esa": 90},
        1: {"esa": 70},
        2: {"esa": 40},
    }
    assert session.spans(1) == (MAJOR,) and session.spans(0) == ()
    assert sentence_bleu_of(store.get_campaign(code).metadata) == {("s0", "A"): 12.0}


def test_pairwise_preferences_hand_computed():
    """Two sentences, three students, systems a and b.

    s1: sentence BLEU a 40 > b 10 (BLEU prefers a). ana 80/60 (a), bo 50/70 (b), cy 60/60 (tie).
    s2: sentence BLEU a 10 < b 30 (BLEU prefers b). ana 40/90 (b), bo 30/60 (b); cy rated a only.
    Pair (a, b): prefer a 1, prefer b 3, ties 1 (n = 5; cy on s2 is no paired judgment).
    Agreement: s1 ana agrees, bo disagrees; s2 ana and bo agree → 3 of 4 = 0.75.
    Shares: a 1/5 = 0.2, b 3/5 = 0.6. Corpus BLEU a 25 > b 20: BLEU's order prefers a, the class b.
    """
    judgments = [
        ("ana", "s1", "a", 80),
        ("ana", "s1", "b", 60),
        ("bo", "s1", "a", 50),
        ("bo", "s1", "b", 70),
        ("cy", "s1", "a", 60),
        ("cy", "s1", "b", 60),
        ("ana", "s2", "a", 40),
        ("ana", "s2", "b", 90),
        ("bo", "s2", "a", 30),
        ("bo", "s2", "b", 60),
        ("cy", "s2", "a", 70),
    ]
    bleu = {("s1", "a"): 40.0, ("s1", "b"): 10.0, ("s2", "a"): 10.0, ("s2", "b"): 30.0}
    result = pairwise_preferences(judgments, bleu, ("a", "b"), corpus_bleu={"a": 25.0, "b": 20.0})
    [pair] = result.pairs
    assert (pair.prefer_a, pair.prefer_b, pair.ties, pair.n) == (1, 3, 1, 5)
    assert (pair.agree, pair.disagree, pair.bleu_ties) == (3, 1, 0)
    assert pair.agreement == 0.75 and result.overall_agreement == 0.75
    assert pair.share_a == pytest.approx(0.2) and pair.share_b == pytest.approx(0.6)
    assert pair.class_preference == "b" and pair.corpus_preference == "a"
    s1, s2 = result.sentences
    assert (s1.segment_id, s1.prefer_a, s1.prefer_b, s1.ties) == ("s1", 1, 1, 1)
    assert s1.class_preference is None and s1.bleu_preference == "a" and s1.agreement == 0.5
    assert (s2.prefer_a, s2.prefer_b, s2.class_preference, s2.bleu_preference) == (0, 2, "b", "b")
    assert s2.agreement == 1.0


def test_pairwise_preferences_pool_pairs_and_handle_bleu_ties():
    """Three systems, one sentence, sentence BLEU a 30, b 20, c 20 (b and c tied).

    ana 80/60/70: (a,b) a agrees, (a,c) a agrees, (b,c) c — BLEU tied, not counted.
    bo 50/70/40: (a,b) b disagrees, (a,c) a agrees, (b,c) b — BLEU tied.
    Pooled: agree 3, disagree 1 → 0.75; pair (b, c): 2 judgments, bleu_ties 2, agreement nan.
    """
    judgments = [
        ("ana", "s1", "a", 80),
        ("ana", "s1", "b", 60),
        ("ana", "s1", "c", 70),
        ("bo", "s1", "a", 50),
        ("bo", "s1", "b", 70),
        ("bo", "s1", "c", 40),
    ]
    bleu = {("s1", "a"): 30.0, ("s1", "b"): 20.0, ("s1", "c"): 20.0}
    result = pairwise_preferences(judgments, bleu, ("a", "b", "c"))
    ab, ac, bc = result.pairs
    assert (ab.agree, ab.disagree, ac.agree, ac.disagree) == (1, 1, 2, 0)
    assert (bc.n, bc.bleu_ties, bc.prefer_a, bc.prefer_b) == (2, 2, 1, 1)
    assert math.isnan(bc.agreement) and math.isnan(bc.corpus_a)
    assert result.overall_agreement == 0.75 and result.n_judgments == 6


def test_pairwise_preferences_refuse_a_double_score_and_skip_unknown_bleu():
    with pytest.raises(
        CampaignError, match="student 'ana' scored system 'a' on segment 's1' twice"
    ):
        pairwise_preferences([("ana", "s1", "a", 1), ("ana", "s1", "a", 2)], {}, ("a", "b"))
    result = pairwise_preferences(
        [("ana", "s1", "a", 80), ("ana", "s1", "b", 60)], {("s1", "a"): 1.0}, ("a", "b")
    )
    assert result.pairs[0].n == 0 and math.isnan(result.overall_agreement)


PEARMUT_VENV = Path(
    os.environ.get("PEARMUT_VENV", Path(__file__).resolve().parents[2] / ".venv-pearmut")
)


def pearmut_annotate_source() -> str:
    found = sorted(PEARMUT_VENV.glob("lib/python*/site-packages/pearmut/web/src/annotate.ts"))
    if not found:
        pytest.skip(f"no Pearmut 1.1.6 venv at {PEARMUT_VENV} (see test_pearmut_roundtrip.py)")
    return found[0].read_text(encoding="utf-8")


def test_the_bands_and_the_span_rule_are_pearmuts_own():
    """Against the real tool WMT26 rates with: Pearmut's annotation screen (web/src/annotate.ts of the
    installed Pearmut 1.1.6) names the cESA bands and refuses a score below 85 without an error span."""
    source = pearmut_annotate_source()
    [expression] = re.findall(r'val >= 85 \? "very good"[^`]*', source)
    bands = [(int(low), name) for low, name in re.findall(r'val >= (\d+) \? "([^"]+)"', expression)]
    last = re.search(r':\s*"([^"]+)"\}?`?$', expression.strip().rstrip("`}")).group(1)
    assert bands + [(0, last.replace("&nbsp;", " "))] == list(BANDS)
    [threshold] = re.findall(r'"cESA" && val < (\d+) && state\.response_log', source)
    assert int(threshold) == SPANS_REQUIRED_BELOW
    # unset until moved (value -1), and the slider's step
    assert f'value="-1" step="{SCORE_STEP}"' in source


def test_quality_control_items_do_not_fit_a_contrastive_layout():
    plan = add_quality_control(toy_plan(), tutorials=1, attention=1)
    with pytest.raises(CampaignError, match="contrastive ESA shows test items only"):
        contrastive_plan(plan)
