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
from app_runs import html_text, start_app

from bleu_core.campaigns import CampaignStore, JudgeSession
from bleu_core.campaigns.lesson import lesson_plan
from ui.app import state as K
from ui.campaigns import browser_memory

start = partial(start_app, key="demo:ted-zh-en", label=None, open_demo=False, first_run=False)


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
    assert key not in page_text(at)  # the page the teacher projects carries no key
    [link] = [b for b in at.get("link_button") if "projector" in b.proto.url]
    assert f"lesson={code}&view=" in link.proto.url and key not in link.proto.url
    again = start("campaigns", ted_zh_en)  # a reload
    assert again.session_state[K.CAMP_CODE] == code and again.session_state[K.CAMP_KEY] == key
    assert key not in page_text(again)
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


def page_text(at) -> str:
    """Everything a run put on the page as text: markdown, captions, code, alerts, labels, link targets."""
    parts = [e.value for kind in ("markdown", "caption", "code", "info", "warning", "error", "success",
                                  "subheader", "title", "text") for e in at.get(kind)]  # fmt: skip
    parts += [
        str(getattr(e, "label", ""))
        for kind in ("button", "toggle", "text_input")
        for e in at.get(kind)
    ]
    parts += [b.proto.url for b in at.get("link_button")]
    parts += [str(getattr(e, "proto", "")) for e in at.get("html")]
    return "\n".join(str(p) for p in parts)


def test_the_organiser_key_is_shown_only_behind_for_your_eyes_only(jar, db, ted_zh_en):
    at = start("campaigns", ted_zh_en)
    [button] = [b for b in at.button if b.label == "Start a class"]
    button.click().run()
    key = at.session_state[K.CAMP_KEY]
    assert key not in page_text(at)
    assert any(s.value == "For your eyes only" for s in at.subheader)
    projected = [s.value for s in at.subheader]  # the key's switch comes after the part to project
    assert projected.index("For your eyes only") > next(
        i for i, v in enumerate(projected) if "show this on the projector" in v
    )
    at.toggle(key=K.CAMP_KEY_SHOWN).set_value(True).run()
    assert [c.value for c in at.code if c.value == key]  # the code block has a copy button
    again = start("campaigns", ted_zh_en)  # a reload: the switch is off again
    assert key not in page_text(again)


def test_the_lesson_reopens_its_study_after_a_reload(jar, db, ted_zh_en):
    at = start("campaigns", ted_zh_en)
    [button] = [b for b in at.button if b.label == "Start a class"]
    button.click().run()
    code = at.session_state[K.CAMP_CODE]
    assert CampaignStore.shared(db).get_campaign(code).metadata["study_source"] == "demo:ted-zh-en"
    for page in (
        "campaigns",
        "projector",
    ):  # F5 on a teacher's page: the app opens its default demo first
        again = start_app(page, open_demo=True, first_run=False)
        assert again.session_state[K.STUDY_KEY] == "demo:ted-zh-en", page
        assert again.session_state[K.STUDY].name == ted_zh_en.name
        # the toast still says which study was reopened (now on the run after the rerun)
        toasts = [t.value for t in again.toast]
        assert toasts == ["Opened the lesson's study again (demo:ted-zh-en)."], (page, toasts)
    downloads = {b.proto.label for b in again.get("download_button")}
    assert (
        "The study's reproducible zip with the class's ratings" in downloads
    )  # the end-of-class zip
    again.session_state[K.STUDY_KEY] = (
        "test:another study"  # the teacher opens another study afterwards
    )
    again.run()
    assert again.session_state[K.STUDY_KEY] == "test:another study"  # once per lesson: left alone


def test_two_lessons_have_two_names_on_the_phones(jar, db, ted_zh_en):
    at = start("campaigns", ted_zh_en)
    names = []
    for protocol in ("adequacy-fluency", "esa"):
        at.session_state[K.CAMP_CLASS_PROTOCOL] = protocol
        at.run()
        [button] = [b for b in at.button if b.label == "Start a class"]
        button.click().run()
        names.append(CampaignStore.shared(db).get_campaign(at.session_state[K.CAMP_CODE]).name)
    assert len(set(names)) == 2, names
    assert names[1].startswith(f"Lesson: {ted_zh_en.name} · ESA · ")


def test_an_esa_lessons_manage_tab_keeps_its_appraise_export_after_a_reload(jar, db, ted_zh_en):
    at = start("campaigns", ted_zh_en)
    at.session_state[K.CAMP_CLASS_PROTOCOL] = "esa"
    at.run()
    [button] = [b for b in at.button if b.label == "Start a class"]
    button.click().run()
    again = start_app(
        "campaigns", open_demo=True, first_run=False
    )  # F5: the German demo opens first
    downloads = {b.proto.label for b in again.get("download_button")}
    assert "Appraise ESA CSV" in downloads
    assert not any("not in the study" in c.value for c in again.caption)


def test_the_wrong_study_is_named_in_words(jar, db, ted_zh_en, ted_four_systems):
    store = CampaignStore.shared(db)
    bleu = {s: float(i * 5) for i, s in enumerate(ted_zh_en.systems)}
    created = store.create_campaign(lesson_plan(ted_zh_en, bleu, seed=2, n_segments=2))
    code, key = created.campaign.code, created.organiser_key
    at = start(
        "projector", ted_four_systems, key="test:en-de", **{K.PROJ_CODE: code, K.PROJ_KEY: key}
    )
    [add] = [b for b in at.button if b.label == "Add to the open study"]
    add.click().run()
    [error] = [e.value.replace("\\", "") for e in at.error]  # markdown escapes taken out
    assert f"was made from the study “{ted_zh_en.name}”" in error
    assert f"the open study is “{ted_four_systems.name}”" in error and "Study page" in error
    assert "segment(s)" not in error and "'" not in error  # no list of segment ids


def test_no_page_for_the_room_carries_the_key_in_a_cookie_script(db, ted_zh_en):
    at = start("campaigns", ted_zh_en)  # the real cookie script (no jar): its text is on the page
    [button] = [b for b in at.button if b.label == "Start a class"]
    button.click().run()
    key = at.session_state[K.CAMP_KEY]
    assert key in html_text(at)  # the Campaigns page writes the teacher's lessons to the cookie ...
    for _ in range(browser_memory.WRITE_RUNS):
        at.run()
    assert key not in html_text(at)  # ... in a few runs, not on every page of the session
    at.switch_page("pages/projector.py")
    at.run()
    assert at.session_state[K.PROJ_KEY] == key  # the teacher's projector, with the controls
    assert key not in html_text(at) and key not in page_text(at)
