"""The Rate page against hostile input: no link or image Markdown from the address or from organiser texts, a bound on
wrong codes per client, and the resume code out of the address once used.

AppTest runs the whole app (app.py) with the campaign database under ``tmp_path``. A payload such as
``[click](http://evil)`` or ``![x](http://evil/x.png)`` must reach the page escaped (``\\[click\\]\\(...``): a
Markdown link or image needs an unescaped ``[`` ... ``](``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from app_runs import start_app
from streamlit.testing.v1 import AppTest

from bleu_core.campaigns import (
    AttemptLimiter,
    CampaignStore,
    criteria_from_choices,
    plan_from_study,
)
from bleu_core.study.model import Segment, Study
from ui.app import state as K
from ui.campaigns import judge_access

ROOT = Path(__file__).resolve().parents[2]
LINK = "[click](http://evil)"
IMAGE = "![x](http://evil/x.png)"
# An unescaped "[" ... unescaped "](" — what Markdown needs for a link or (after "!") an image.
MARKDOWN_LINK = re.compile(r"(?<!\\)\[[^\]]*(?<!\\)\]\(")


def texts(at: AppTest) -> list[str]:
    """Every Markdown-rendered text on the page: alerts, markdown, captions, radio labels and options."""
    found = [e.value for kind in ("error", "warning", "info", "success") for e in getattr(at, kind)]
    found += [m.value for m in at.markdown] + [c.value for c in at.caption]
    for radio in at.radio:
        found += [radio.label, *radio.options]
    return found


def assert_no_link_markdown(at: AppTest) -> None:
    for text in texts(at):
        assert not MARKDOWN_LINK.search(text), text


def four_segment_study() -> Study:
    return Study(
        name="toy",
        segments=tuple(Segment(f"s{i}", source=f"source {i}") for i in range(4)),
        references={"ref": [f"reference {i}" for i in range(4)]},
        systems={"A": [f"A {i}" for i in range(4)], "B": [f"B {i}" for i in range(4)]},
    )


@pytest.fixture
def shared_store(db):
    """The app's shared store on the test's campaign database (``db``: tests/app/conftest.py)."""
    return CampaignStore.shared(db)


@pytest.fixture
def limiter(monkeypatch):
    """A fresh limiter of 3 failures a minute (the module's one is shared by the whole test process)."""
    fresh = AttemptLimiter(max_attempts=3, window_seconds=60)
    monkeypatch.setattr(judge_access, "ATTEMPTS", fresh)
    return fresh


def rate_page(query: dict[str, str] | None = None) -> AppTest:
    return start_app("rate", open_demo=False, first_run=False, query=query, timeout=60)


@pytest.mark.parametrize("payload", [LINK, "[a](http://e)"])  # too long for a code / looked up
def test_campaign_code_in_the_address_is_escaped(shared_store, limiter, payload):
    at = rate_page({"campaign": payload})
    shown = "\n".join(texts(at))
    assert "http" in shown.lower()  # echoed (as text), so the check below is not vacuous
    assert_no_link_markdown(at)


@pytest.mark.parametrize("payload", [IMAGE])
def test_resume_code_in_the_address_is_escaped_and_removed(shared_store, limiter, payload):
    at = rate_page({"resume": payload})
    assert "does not work" in at.warning[0].value
    assert_no_link_markdown(at)
    assert "resume" not in at.query_params
    client = f"session:{at.session_state[K.RATE_CLIENT_ID]}"  # no IP address under AppTest
    assert limiter.remaining(client) == 2  # the failure was counted


def test_a_working_resume_link_signs_in_and_leaves_the_address(shared_store, limiter):
    created = shared_store.create_campaign(
        plan_from_study(four_segment_study(), systems=["A", "B"], n_segments=2, seed=1)
    )
    access = shared_store.join(created.campaign.code, "Bo", "monolingual")
    at = rate_page({"resume": f"{created.campaign.code}-{access.token}"})
    assert at.session_state[K.RATE_TOKEN] == access.token
    assert "resume" not in at.query_params
    assert at.subheader[0].value == "Item 1 of 4"
    at.run()  # a re-run without the address keeps the judge signed in (the judge-only view too)
    assert at.subheader[0].value == "Item 1 of 4" and not at.exception


def test_organiser_texts_reach_judges_as_plain_text(shared_store, limiter):
    criteria = criteria_from_choices(
        ["fluency"], [LINK, IMAGE, "fine"], extra_name="overall", extra_question=IMAGE
    )
    plan = plan_from_study(
        four_segment_study(),
        systems=["A", "B"],
        n_segments=2,
        seed=3,
        criteria=criteria,
        groups=[LINK, "![g](http://evil/g.png)"],
        name=IMAGE,
    )
    code = shared_store.create_campaign(plan).campaign.code
    at = rate_page({"campaign": code})
    group_radio = at.radio(key=K.RATE_JOIN_GROUP)
    assert len(group_radio.options) == 2 and "evil" in group_radio.options[0]
    assert_no_link_markdown(at)
    at.text_input(key=K.RATE_JOIN_NAME).input("Ann")
    group_radio.set_value(LINK)  # the value stays the organiser's group name
    next(b for b in at.button if b.label == "Start rating").click().run()
    assert not at.exception and at.session_state[K.RATE_TOKEN]
    score_radios = [r for r in at.radio if r.key and r.key.startswith(K.RATE_SCORE_PREFIX)]
    assert len(score_radios) == 2
    assert "evil" in score_radios[1].label and "evil" in score_radios[0].options[0]
    assert_no_link_markdown(at)
    # the scores saved are the organiser's scale, whatever the labels show
    score_radios[0].set_value(1)
    score_radios[1].set_value(3)
    next(b for b in at.button if b.label == "Save and next").click().run()
    token = at.session_state[K.RATE_TOKEN]
    assert shared_store.my_ratings(code, token) == {0: {"fluency": 1, "overall": 3}}


def test_wrong_codes_are_bounded_per_client_and_say_when_to_retry(shared_store, limiter):
    code = shared_store.create_campaign(
        plan_from_study(four_segment_study(), systems=["A", "B"], n_segments=2, seed=1)
    ).campaign.code
    at = rate_page()
    box = at.text_input(key=K.RATE_JOIN_CODE)
    box.input("NOPE01").run()
    assert "no campaign with code 'NOPE01'" in at.error[0].value
    at.run()  # a re-run with the same code: the same message, no second look-up, not counted again
    assert "NOPE01" in at.error[0].value
    for wrong in ("NOPE02", "NOPE03"):
        at.text_input(key=K.RATE_JOIN_CODE).input(wrong).run()
        assert f"'{wrong}'" in at.error[0].value
    at.text_input(key=K.RATE_JOIN_CODE).input(code).run()  # even the right code waits now
    message = at.error[0].value
    assert re.search(r"Too many wrong codes from here \(at most 3 a minute\): wait \d+ s", message)
    assert not at.radio  # no join form
    at.text_input(key=K.RATE_RESUME_CODE).input(f"{code}-whatever")
    next(b for b in at.button if b.label == "Resume").click().run()
    assert "Too many wrong codes" in at.error[-1].value and not at.session_state[K.RATE_TOKEN]


def test_successful_joins_are_not_counted(shared_store, limiter):
    """A class behind one router joins together: only failures count."""
    code = shared_store.create_campaign(
        plan_from_study(four_segment_study(), systems=["A", "B"], n_segments=2, seed=1)
    ).campaign.code
    for name in ("Ann", "Bo", "Cy", "Di"):  # more joins than the limit allows failures
        at = rate_page({"campaign": code})
        at.text_input(key=K.RATE_JOIN_NAME).input(name)
        next(b for b in at.button if b.label == "Start rating").click().run()
        assert at.session_state[K.RATE_TOKEN], [e.value for e in at.error]
        client = f"session:{at.session_state[K.RATE_CLIENT_ID]}"
        assert limiter.remaining(client) == 3
