"""AppTest of class mode across reloads: what this browser remembers (two cookies, ui/campaigns/browser_memory.py)
brings the teacher back to the lesson and the student back to the same item, without a key or code typed; the
projector's link is view-only.

A reload is a new AppTest (a new session); the browser's cookies are a dict (``jar``) that the page reads as it
would read ``st.context.cookies``, and that its cookie script writes as the browser would.
"""

from __future__ import annotations

import re
from functools import partial

import pytest
from app_runs import start_app

from bleu_core.campaigns import CampaignStore, JudgeSession
from bleu_core.campaigns.lesson import lesson_plan
from ui.app import state as K
from ui.campaigns import browser_memory

start = partial(start_app, key="demo:ted-zh-en", label=None, open_demo=False, first_run=False)


@pytest.fixture
def jar(monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """This browser's cookies."""
    cookies: dict[str, str] = {}
    monkeypatch.setattr(browser_memory, "read_cookie", lambda name: cookies.get(name, ""))
    monkeypatch.setattr(
        browser_memory,
        "write_cookie",
        lambda name, entries: cookies.__setitem__(name, "|".join(entries)),
    )
    return cookies


@pytest.fixture
def lesson(db, ted_zh_en):
    store = CampaignStore.shared(db)
    bleu = {s: float(i * 5) for i, s in enumerate(ted_zh_en.systems)}
    created = store.create_campaign(lesson_plan(ted_zh_en, bleu, seed=2, n_segments=2))
    return store, created.campaign.code, created.organiser_key


def join(code: str, *, name: str | None):
    at = start("rate", query={"campaign": code})
    if name is None:
        at.checkbox(key=K.RATE_ANONYMOUS).check()
    else:
        at.text_input(key=K.RATE_JOIN_NAME).input(name)
    [button] = [b for b in at.button if b.label == "Start rating"]
    button.click().run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def save_first_item(at) -> None:
    for radio in at.radio:
        if radio.key and radio.key.startswith(K.RATE_SCORE_PREFIX):
            radio.set_value(4)
    [save] = [b for b in at.button if b.label == "Save and next"]
    save.click().run()
    assert not at.exception


@pytest.mark.parametrize("name", ["ana", None], ids=["named", "anonymous"])
def test_a_student_who_reloads_is_the_same_student_on_the_same_item(jar, lesson, name):
    store, code, key = lesson
    at = join(code, name=name)
    assert at.query_params["campaign"] == code  # only the campaign code stays in the address
    resume_code = f"{code}-{at.session_state[K.RATE_TOKEN]}"
    assert jar[browser_memory.JUDGE_COOKIE] == resume_code
    save_first_item(at)
    assert at.subheader[0].value.startswith("Item 2 of")
    for query in ({"campaign": code}, {}):  # the join link again, or the bare page
        again = start("rate", query=query)
        assert again.session_state[K.RATE_TOKEN] == at.session_state[K.RATE_TOKEN]
        assert again.subheader[0].value.startswith("Item 2 of")
        assert not any(t.label == "Your name" for t in again.text_input)
    assert len(store.progress(code, key)) == 1  # one student, not two


def test_signing_out_forgets_the_student_on_this_browser(jar, lesson):
    _store, code, _key = lesson
    at = join(code, name="bo")
    [sign_out] = [b for b in at.button if b.label == "Sign out"]
    sign_out.click().run()
    assert jar[browser_memory.JUDGE_COOKIE] == ""
    again = start("rate", query={"campaign": code})
    assert not again.session_state[K.RATE_TOKEN]
    assert any(t.label == "Your name" for t in again.text_input)


def test_a_remembered_code_that_no_longer_works_is_forgotten(jar, lesson):
    store, code, key = lesson
    jar[browser_memory.JUDGE_COOKIE] = f"{code}-1-wrongsecret"
    at = start("rate", query={"campaign": code})
    assert not at.session_state[K.RATE_TOKEN]
    assert jar[browser_memory.JUDGE_COOKIE] == ""
    assert store.progress(code, key) == []


def test_the_teacher_reloads_campaigns_and_is_back_in_the_lesson(jar, db, ted_zh_en):
    at = start("campaigns", ted_zh_en)
    [button] = [b for b in at.button if b.label == "Start a class"]
    button.click().run()
    code, key = at.session_state[K.CAMP_CODE], at.session_state[K.CAMP_KEY]
    assert jar[browser_memory.LESSONS_COOKIE] == f"{code}:{key}"
    assert at.code[0].value == key  # the key once, as text, with the code block's copy button
    [link] = [b for b in at.get("link_button") if "projector" in b.proto.url]
    assert f"lesson={code}&view=" in link.proto.url and key not in link.proto.url
    again = start("campaigns", ted_zh_en)  # a reload
    assert again.session_state[K.CAMP_CODE] == code and again.session_state[K.CAMP_KEY] == key
    assert not any(c.value == key for c in again.code)  # shown once only
    assert any(f"Lesson {code}" in s.value for s in again.subheader)


def test_the_projector_reopens_the_lesson_and_its_link_is_view_only(jar, lesson):
    store, code, key = lesson
    jar[browser_memory.LESSONS_COOKIE] = f"{code}:{key}"
    at = start(
        "projector"
    )  # the teacher's browser, no link: the latest lesson, with the teacher's controls
    assert at.session_state[K.PROJ_CODE] == code and at.session_state[K.PROJ_KEY] == key
    view = store.viewer_token(code, key)
    assert at.query_params["view"] == view and "key" not in at.query_params
    jar.clear()  # another computer (the room's projector) opens the link
    shown = start("projector", query={"lesson": code, "view": view})
    assert shown.session_state[K.PROJ_CODE] == code and shown.session_state[K.PROJ_KEY] is None
    metrics = {m.label: m.value for m in shown.metric}
    assert metrics["Students joined"] == "0"
    JudgeSession.join(store, code, "ana", "class")
    shown.run()
    assert {m.label: m.value for m in shown.metric}["Students joined"] == "1"


def test_a_wrong_projector_link_is_refused(jar, lesson):
    _store, code, _key = lesson
    at = start("projector", query={"lesson": code, "view": "guess"})
    assert any(re.search("projector link is not valid", e.value) for e in at.error)
    assert at.session_state[K.PROJ_CODE] is None
