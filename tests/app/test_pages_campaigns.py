"""AppTest of the Rate translations and Campaigns pages: render, and one real interaction each (and a few more).

The campaign database is a file under ``tmp_path`` (``BLEU_STUDY_DB``), never the user's data directory.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pytest
from app_runs import markdown_text as html_of
from app_runs import start_app
from streamlit.testing.v1 import AppTest

from bleu_core.campaigns import CampaignError, CampaignStore, plan_from_study
from bleu_core.study.model import Segment, Study
from ui.app import state as K

ROOT = Path(__file__).resolve().parents[2]
HOSTILE = "<script>alert('x')</script>"


def markup_study() -> Study:
    return Study(
        name="toy",
        segments=tuple(Segment(f"s{i}", source=f"source <{i}>") for i in range(8)),
        references={"ref": [f"reference {i}" for i in range(8)]},
        systems={
            "A": [f"A says {i}" for i in range(8)],
            "B": [f"B <b>says</b> {i}" for i in range(8)],
        },
    )


@pytest.fixture
def campaign(db):
    store = CampaignStore.shared(db)
    plan = plan_from_study(
        markup_study(), systems=["A", "B"], n_segments=3, seed=4, display="source", name=HOSTILE
    )
    return store, store.create_campaign(plan)


def buttons(at, label):
    return [b for b in at.button if b.label == label]


# The whole app on a page, as a deep link opens it (no first run), without the demo study.
start = partial(start_app, key="test:toy", label=None, open_demo=False, first_run=False, timeout=60)


def test_rate_page_join_rate_back_skip(campaign):
    store, created = campaign
    code = created.campaign.code
    at = start("rate")
    assert at.title[0].value == "Rate translations"
    at.text_input(key=K.RATE_JOIN_CODE).input(code.lower()).run()
    assert "&lt;script&gt;" in html_of(at) and HOSTILE not in html_of(at)  # campaign name escaped
    at.text_input(key=K.RATE_JOIN_NAME).input(HOSTILE)
    at.radio(key=K.RATE_JOIN_GROUP).set_value("bilingual")
    buttons(at, "Start rating")[0].click().run()
    assert not at.exception
    token = at.session_state[K.RATE_TOKEN]
    assert token and at.session_state[K.RATE_CODE] == code
    assert "resume" not in at.query_params  # the resume code is not left in the address
    assert [c.value for c in at.code] == [f"{code}-{token}"]  # but shown once, to note down
    assert at.subheader[0].value == "Item 1 of 6"
    page = html_of(at)
    assert "&lt;script&gt;alert" in page and "<script>alert" not in page  # judge name escaped
    first = store.items(code, created.organiser_key)[0]
    assert (
        first.source.replace("<", "&lt;").replace(">", "&gt;") in page
    )  # source shown (display=source)
    assert "reference 0" not in page  # the reference is hidden

    # saving with a criterion missing asks for it, saves nothing
    at.radio(key=f"{K.RATE_SCORE_PREFIX}0_0").set_value(4)
    buttons(at, "Save and next")[0].click().run()
    assert "Choose a score for fluency" in at.warning[0].value
    assert store.my_ratings(code, token) == {}
    # rate item 1
    at.radio(key=f"{K.RATE_SCORE_PREFIX}0_0").set_value(4)
    at.radio(key=f"{K.RATE_SCORE_PREFIX}0_1").set_value(2)
    buttons(at, "Save and next")[0].click().run()
    assert store.my_ratings(code, token) == {0: {"adequacy": 4, "fluency": 2}}
    assert at.subheader[0].value == "Item 2 of 6"
    # skip item 2, go back twice: item 1 shows the stored scores, and can be changed
    buttons(at, "Skip")[0].click().run()
    assert store.my_skips(code, token) == {1} and at.subheader[0].value == "Item 3 of 6"
    buttons(at, "Back")[0].click().run()
    buttons(at, "Back")[0].click().run()
    assert at.subheader[0].value == "Item 1 of 6"
    assert at.radio(key=f"{K.RATE_SCORE_PREFIX}0_0").value == 4
    at.radio(key=f"{K.RATE_SCORE_PREFIX}0_0").set_value(5)
    buttons(at, "Save and next")[0].click().run()
    assert store.my_ratings(code, token)[0] == {"adequacy": 5, "fluency": 2}
    assert [
        r.n_changes for r in store.ratings(code, created.organiser_key) if r.criterion == "adequacy"
    ] == [1]


def test_rate_page_resumes_from_the_address(campaign):
    store, created = campaign
    code = created.campaign.code
    access = store.join(code, "Bo", "monolingual")
    store.rate(code, access.token, 0, {"adequacy": 3, "fluency": 3})
    store.rate(code, access.token, 1, {"adequacy": 3, "fluency": 3})
    at = start("rate", query={"resume": f"{code}-{access.token}"})
    assert at.subheader[0].value == "Item 3 of 6"
    assert at.session_state[K.RATE_TOKEN] == access.token


def test_rate_page_bad_codes_give_messages(campaign):
    at = start("rate")
    at.text_input(key=K.RATE_JOIN_CODE).input("NOPE42").run()
    assert "no campaign with code 'NOPE42'" in at.error[0].value
    at.text_input(key=K.RATE_RESUME_CODE).input("garbage")
    buttons(at, "Resume")[0].click().run()
    assert "resume code is not complete" in at.error[-1].value
    assert (
        at.session_state[K.RATE_TOKEN] is None and not at.subheader
    )  # still on the join / resume forms


def test_rate_page_end_of_campaign(campaign):
    store, created = campaign
    code = created.campaign.code
    access = store.join(code, "Cy", "monolingual")
    for pos in range(created.campaign.n_items):
        if pos != 2:
            store.rate(code, access.token, pos, {"adequacy": 1, "fluency": 5})
    at = start("rate", query={"resume": f"{code}-{access.token}"})
    assert "5 of 6 items rated" in at.info[0].value
    buttons(at, "Rate the open items (1)")[0].click().run()
    assert at.subheader[0].value == "Item 3 of 6"


def campaigns_app(study: Study | None) -> AppTest:
    return start("campaigns", study, **{K.SEED: 7, K.N_RESAMPLES: 200})


def test_campaigns_page_create_then_manage(db):
    at = campaigns_app(markup_study())
    assert at.title[0].value == "Rating campaigns"
    segments = [n for n in at.number_input if n.label.startswith("Number of source segments")]
    segments[0].set_value(4)
    buttons(at, "Create campaign")[0].click().run()
    assert not at.exception
    code, key = at.session_state[K.CAMP_CODE], at.session_state[K.CAMP_KEY]
    assert code and key
    assert f"organiser key: {key}" in at.code[0].value
    store = CampaignStore.shared(db)
    campaign = store.check_organiser(code, key)
    assert campaign.n_items == 8 and campaign.seed == 7 and campaign.display == "neither"
    assert [c.name for c in campaign.criteria] == ["adequacy", "fluency"]

    # two judges rate everything; the organiser sees progress, agreement, calibration, and uses the ratings
    for name, group, shift in [("ana", "monolingual", 0), (HOSTILE, "bilingual", 1)]:
        tok = store.join(code, name, group).token
        for pos in range(campaign.n_items):
            store.rate(code, tok, pos, {"adequacy": 1 + (pos + shift) % 5, "fluency": 1 + pos % 5})
    at.run()
    assert not at.exception
    frames = [df.value for df in at.dataframe]
    progress = frames[0]
    assert list(progress["judge"]) == ["ana", HOSTILE] and list(progress["rated"]) == [8, 8]
    agreement = frames[1]
    fluency = agreement[agreement["criterion"] == "fluency"].iloc[0]
    assert fluency["alpha (interval)"] == pytest.approx(1.0)  # identical fluency scores
    assert fluency["mean pairwise r"] == pytest.approx(1.0) and fluency["items rated by ≥ 2"] == 8
    calibration = frames[2]
    offsets = calibration[calibration["criterion"] == "fluency"]["offset vs others"]
    assert list(offsets) == [0.0, 0.0]
    assert HOSTILE not in html_of(at)
    buttons(at, "Use these ratings in the analyses")[0].click().run()
    assert not at.exception
    new = at.session_state[K.STUDY]
    assert f"adequacy ({code})" in new.criteria and len(new.ratings) == 2 * 2 * 8
    assert at.session_state[K.STUDY_KEY].startswith("test:toy|campaign:")
    assert "32 ratings added" in at.success[0].value
    # the analysis pages offer the new criteria at once
    if (ROOT / "pages" / "judges.py").exists():
        at.switch_page("pages/judges.py")
        at.run()
        assert not at.exception, [e.value for e in at.exception]
        judge_criterion = at.selectbox(key=K.JUDGE_CRITERION)
        assert f"fluency ({code})" in judge_criterion.options
        judge_criterion.set_value(f"fluency ({code})").run()
        assert not at.exception, [e.value for e in at.exception]


def test_campaigns_page_wrong_key_and_no_study(db, campaign):
    _store, created = campaign
    at = campaigns_app(None)
    assert "Open a study first" in at.info[0].value
    at.text_input(key=K.CAMP_FORM_CODE).input(created.campaign.code)
    at.text_input(key=K.CAMP_FORM_KEY).input("wrong")
    buttons(at, "Open campaign")[0].click().run()
    assert "wrong organiser key" in at.error[0].value
    at.text_input(key=K.CAMP_FORM_KEY).input(created.organiser_key)
    buttons(at, "Open campaign")[0].click().run()
    assert not at.exception and at.session_state[K.CAMP_CODE] == created.campaign.code
    assert "No judge has joined yet." in [i.value for i in at.info]


def test_visiting_the_pages_does_not_create_the_database(db):
    start("rate")
    at = campaigns_app(markup_study())
    assert str(db) in at.caption[0].value  # where campaigns will be kept is shown
    assert not db.exists()  # nothing is written until someone creates or joins a campaign


def test_campaigns_page_bad_choices_give_a_message(db):
    at = campaigns_app(markup_study())
    [labels] = [t for t in at.text_input if t.label.startswith("Scale labels")]
    labels.input("only one")
    buttons(at, "Create campaign")[0].click().run()
    assert not at.exception
    assert "has 1 scale label(s); give at least 2" in at.error[0].value.replace("\\", "")
    assert at.session_state[K.CAMP_CODE] is None and not db.exists()  # nothing was created


def test_campaigns_page_open_close_and_delete(db, campaign):
    store, created = campaign
    code, key = created.campaign.code, created.organiser_key
    at = campaigns_app(None)
    at.text_input(key=K.CAMP_FORM_CODE).input(code)
    at.text_input(key=K.CAMP_FORM_KEY).input(key)
    buttons(at, "Open campaign")[0].click().run()
    [toggle] = [t for t in at.toggle if t.label == "Open to judges"]
    assert toggle.value is True
    toggle.set_value(False).run()
    assert not at.exception and store.get_campaign(code).is_open is False
    [toggle] = [t for t in at.toggle if t.label == "Open to judges"]
    assert toggle.value is False
    toggle.set_value(True).run()
    assert store.get_campaign(code).is_open is True
    buttons(at, "Close this view")[0].click().run()
    assert at.session_state[K.CAMP_CODE] is None and at.session_state[K.CAMP_KEY] is None
    assert buttons(at, "Open campaign")  # back on the form
    at.text_input(key=K.CAMP_FORM_CODE).input(code)
    at.text_input(key=K.CAMP_FORM_KEY).input(key)
    buttons(at, "Open campaign")[0].click().run()
    buttons(at, "Delete for good")[0].click().run()
    assert not at.exception and at.session_state[K.CAMP_CODE] is None
    with pytest.raises(CampaignError, match=f"no campaign with code '{code}'"):
        store.get_campaign(code)


def test_rate_page_second_tap_whose_first_run_saved_meanwhile_moves_on(campaign, monkeypatch):
    # 1-5: the first tap's run saves item 1 after the second tap's run has drawn it (Streamlit starts a new
    # run before the old one stops); the second save is refused by the store and the page goes on, saying so.
    store, created = campaign
    code = created.campaign.code
    at = start("rate", query={"campaign": code})
    at.text_input(key=K.RATE_JOIN_NAME).input("Ana")
    at.radio(key=K.RATE_JOIN_GROUP).set_value("bilingual")
    buttons(at, "Start rating")[0].click().run()
    token = at.session_state[K.RATE_TOKEN]
    rate = CampaignStore.rate

    def first_run_lands_first(self, code_, token_, position, *args, **kwargs):
        monkeypatch.setattr(CampaignStore, "rate", rate)
        rate(self, code_, token_, position, {"adequacy": 3, "fluency": 3}, at_cursor=True)
        return rate(self, code_, token_, position, *args, **kwargs)

    monkeypatch.setattr(CampaignStore, "rate", first_run_lands_first)
    at.radio(key=f"{K.RATE_SCORE_PREFIX}0_0").set_value(4)
    at.radio(key=f"{K.RATE_SCORE_PREFIX}0_1").set_value(2)
    buttons(at, "Save and next")[0].click().run()
    assert not at.exception
    assert at.subheader[0].value == "Item 2 of 6"
    assert any(
        "Item 1 is already saved; this second save changed nothing" in i.value for i in at.info
    )
    assert store.my_ratings(code, token) == {0: {"adequacy": 3, "fluency": 3}}
