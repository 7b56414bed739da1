"""AppTest of the Campaigns page: a finished ESA (DA) campaign joins a study that already has an expert ``esa``
(a release's ``da``) criterion under ``esa (CODE)`` (``da (CODE)``), and the organiser's notice says why; with
no such criterion it joins as plain ``esa`` / ``da`` (also ``tests/campaigns/test_campaigns_naming.py``).

The campaign database is a file under ``tmp_path`` (``BLEU_STUDY_DB``), never the user's data directory.
"""

from __future__ import annotations

import pytest
from app_runs import start_app

from bleu_core.campaigns import CampaignStore
from bleu_core.study.building import add_ratings
from bleu_core.study.model import Criterion, Rating, Segment, Study
from ui.app import state as K


def expert_study(criterion: str = "esa") -> Study:
    """Four segments, two systems, and an expert *criterion* (70 for every translation)."""
    base = Study(
        name="toy",
        segments=tuple(Segment(f"s{i}", doc_id="doc", source=f"source {i}") for i in range(4)),
        references={"ref": [f"the reference number {i} is here" for i in range(4)]},
        systems={
            "A": [f"A says {i} to everyone today" for i in range(4)],
            "B": [f"B tells {i} to nobody at all" for i in range(4)],
        },
    )
    rows = [Rating(s, f"s{i}", "expert", None, criterion, 70.0) for s in "AB" for i in range(4)]
    return add_ratings(base, rows, [Criterion(criterion, scale=(0.0, 100.0), description="expert")])


def click(at, label: str) -> None:
    [b for b in at.button if b.label == label][0].click().run()
    assert not at.exception, [e.value for e in at.exception]


def join_campaign(db, study: Study, protocol: str) -> tuple[str, Study, str]:
    """Create a *protocol* campaign on the Campaigns page over *study*, let Ana rate every item 40 and use the
    ratings in the analyses: the campaign code, the study with them, the organiser's notice."""
    at = start_app(
        "campaigns", study, key="test:toy", label=None, first_run=False, timeout=60,
        **{K.SEED: 7, K.N_RESAMPLES: 200},
    )  # fmt: skip
    at.radio(key=K.CAMP_PROTOCOL).set_value(protocol)
    [n for n in at.number_input if n.label.startswith("Number of source segments")][0].set_value(3)
    [n for n in at.number_input if n.label.startswith("Tutorial items")][0].set_value(0)
    [n for n in at.number_input if n.label.startswith("Attention checks")][0].set_value(0)
    click(at, "Create campaign")
    code, key = at.session_state[K.CAMP_CODE], at.session_state[K.CAMP_KEY]
    store = CampaignStore.shared(db)
    token = store.join(code, "Ana", "bilingual").token
    for item in store.items(code, key):
        store.rate(code, token, item.position, {protocol: 40}, [] if protocol == "esa" else None)
    at.run()
    click(at, "Use these ratings in the analyses")
    return (
        code,
        at.session_state[K.STUDY],
        at.success[0].value.replace("\\", ""),
    )  # Markdown-escaped


@pytest.mark.parametrize(("protocol", "article"), [("esa", "an"), ("da", "a")])
def test_beside_an_expert_criterion_the_campaign_joins_under_its_code_and_says_so(
    db, protocol, article
):
    code, new, notice = join_campaign(db, expert_study(protocol), protocol)
    assert {r.rater for r in new.ratings if r.criterion == f"{protocol} ({code})"} == {"Ana"}
    assert {r.rater for r in new.ratings if r.criterion == protocol} == {"expert"}
    assert f"criteria: {protocol} ({code})." in notice
    assert f"already has {article} {protocol} criterion of its own" in notice


def test_a_da_campaign_joins_a_study_without_da_as_plain_da(db):
    code, new, notice = join_campaign(db, expert_study("esa"), "da")  # an ESA, but no DA of its own
    assert {r.rater for r in new.ratings if r.criterion == "da"} == {"Ana"}
    assert new.criteria["da"].scale == (0.0, 100.0) and f"da ({code})" not in new.criteria
    assert "criteria: da." in notice and "already has" not in notice
