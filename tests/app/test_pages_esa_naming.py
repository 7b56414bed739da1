"""AppTest of the Campaigns page: a finished ESA campaign joins a study that already has an expert ``esa``
criterion under ``esa (CODE)``, and the organiser's notice says why (with no expert ESA it joins as plain
``esa``: ``test_pages_esa.py``).

The campaign database is a file under ``tmp_path`` (``BLEU_STUDY_DB``), never the user's data directory.
"""

from __future__ import annotations

from app_runs import start_app

from bleu_core.campaigns import CampaignStore
from bleu_core.study.building import add_ratings
from bleu_core.study.model import Criterion, Rating, Segment, Study
from ui.app import state as K


def expert_study() -> Study:
    """Four segments, two systems, and an expert ``esa`` criterion (70 for every translation)."""
    base = Study(
        name="toy",
        segments=tuple(Segment(f"s{i}", doc_id="doc", source=f"source {i}") for i in range(4)),
        references={"ref": [f"the reference number {i} is here" for i in range(4)]},
        systems={
            "A": [f"A says {i} to everyone today" for i in range(4)],
            "B": [f"B tells {i} to nobody at all" for i in range(4)],
        },
    )
    rows = [Rating(s, f"s{i}", "expert", None, "esa", 70.0) for s in "AB" for i in range(4)]
    return add_ratings(base, rows, [Criterion("esa", scale=(0.0, 100.0), description="expert")])


def click(at, label: str) -> None:
    [b for b in at.button if b.label == label][0].click().run()
    assert not at.exception, [e.value for e in at.exception]


def test_beside_an_expert_esa_the_campaign_joins_under_its_code_and_says_so(db):
    at = start_app(
        "campaigns", expert_study(), key="test:toy", label=None, first_run=False, timeout=60,
        **{K.SEED: 7, K.N_RESAMPLES: 200},
    )  # fmt: skip
    at.radio(key=K.CAMP_PROTOCOL).set_value("esa")
    [n for n in at.number_input if n.label.startswith("Number of source segments")][0].set_value(3)
    [n for n in at.number_input if n.label.startswith("Tutorial items")][0].set_value(0)
    [n for n in at.number_input if n.label.startswith("Attention checks")][0].set_value(0)
    click(at, "Create campaign")
    code, key = at.session_state[K.CAMP_CODE], at.session_state[K.CAMP_KEY]
    store = CampaignStore.shared(db)
    token = store.join(code, "Ana", "bilingual").token
    for item in store.items(code, key):
        store.rate(code, token, item.position, {"esa": 40}, [])
    at.run()
    click(at, "Use these ratings in the analyses")
    new = at.session_state[K.STUDY]
    assert {r.rater for r in new.ratings if r.criterion == f"esa ({code})"} == {"Ana"}
    assert {r.rater for r in new.ratings if r.criterion == "esa"} == {"expert"}
    notice = at.success[0].value.replace("\\", "")  # Markdown-escaped
    assert f"criteria: esa ({code})." in notice
    assert "already has an esa criterion of its own" in notice
