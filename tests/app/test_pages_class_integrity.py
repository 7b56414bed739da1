"""AppTest of ratings that can be trusted: on the Rate page a score exists only when the student gave it (ESA:
the slider moved, or "No errors: score 100" chosen; an untouched Save is refused with a word), a Save belongs
to the item the student saw (a late second tap changes nothing and says so), unsaved ESA marks survive a reload
(this browser's cookie), and a closed lesson (the timer at zero, or closed by the teacher) shows no form.

A reload is a new AppTest (a new session); the browser's cookies are a dict (``jar``) that the page reads as it
would read ``st.context.cookies`` and that its cookie script writes, as in ``test_pages_class_reloads.py``.
"""

from __future__ import annotations

import threading
from functools import partial

import pytest
from app_runs import markdown_text, start_app

from bleu_core.campaigns import (
    CampaignError,
    CampaignStore,
    JudgeSession,
    MarkedSpan,
    plan_from_study,
)
from bleu_core.campaigns.span_editing import words_of
from bleu_core.study.model import Segment, Study
from ui.app import state as K
from ui.campaigns import browser_memory, lesson_timer
from ui.campaigns.rating_widgets import BACK_LABEL

start = partial(start_app, key="test:toy", label=None, open_demo=False, first_run=False, timeout=60)


def toy() -> Study:
    return Study(
        name="toy",
        segments=tuple(Segment(f"s{i}", source=f"quelle {i}") for i in range(3)),
        references={"ref": [f"the reference {i}" for i in range(3)]},
        systems={
            "A": [f"A says {i} to everyone today" for i in range(3)],
            "B": [f"B tells {i} to nobody" for i in range(3)],
        },
    )


@pytest.fixture
def esa(db):
    store = CampaignStore.shared(db)
    plan = plan_from_study(toy(), systems=["A", "B"], n_segments=3, seed=4, protocol="esa")
    created = store.create_campaign(plan)
    return store, created.campaign.code, created.organiser_key, plan


def join(code: str):
    at = start("rate", query={"campaign": code})
    at.text_input(key=K.RATE_JOIN_NAME).input("Ana")
    at.radio(key=K.RATE_JOIN_GROUP).set_value("monolingual")
    [b for b in at.button if b.label == "Start rating"][0].click().run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def click(at, label: str):
    [b for b in at.button if b.label == label][0].click().run()
    assert not at.exception, [e.value for e in at.exception]


def test_an_untouched_slider_is_no_rating(jar, esa):
    store, code, key, _plan = esa
    at = join(code)
    assert any("No score yet" in m.value for m in at.markdown)
    click(at, "Save and next")
    assert any("Nothing was saved: give your score first" in w.value for w in at.warning)
    assert at.subheader[0].value.startswith("Item 1 of")
    assert store.ratings(code, key) == []
    at.slider(key=f"{K.RATE_SLIDER_PREFIX}0").set_value(62).run()  # the student gives a score
    assert not any("No score yet" in m.value for m in at.markdown)
    click(at, "Save and next")
    assert [(r.position, r.score) for r in store.ratings(code, key)] == [(0, 62)]


def test_no_errors_is_an_explicit_100(jar, esa):
    store, code, key, _plan = esa
    at = join(code)
    click(at, "No errors: score 100")
    assert at.slider(key=f"{K.RATE_SLIDER_PREFIX}0").value == 100
    click(at, "Save and next")
    assert [(r.position, r.score) for r in store.ratings(code, key)] == [(0, 100)]
    assert store.spans(code, key) == []
    (words,) = at.button_group  # item 2: once an error is marked, "no errors" is gone
    words.set_value([0]).run()
    click(at, "Minor error")
    assert not any(b.label == "No errors: score 100" for b in at.button)


def test_a_late_second_tap_saves_nothing_and_says_so(jar, esa):
    store, code, key, _plan = esa
    at = join(code)
    at.slider(key=f"{K.RATE_SLIDER_PREFIX}0").set_value(40).run()
    click(at, "Save and next")
    assert at.subheader[0].value.startswith("Item 2 of")
    # the second tap reaches the server meant for item 1 (the button it was made on) ...
    at.session_state[K.RATE_SAVE_FOR] = 0
    at.run()
    assert any(
        "Item 1 is already saved: the second tap changed nothing" in i.value for i in at.info
    )
    # ... or lands on item 2's Save, never touched: refused
    click(at, "Save and next")
    assert any("Nothing was saved" in w.value for w in at.warning)
    assert [(r.position, r.score) for r in store.ratings(code, key)] == [(0, 40)]
    judge = JudgeSession.from_resume_code(store, f"{code}-{at.session_state[K.RATE_TOKEN]}")
    assert judge.position == 1


def test_a_second_tap_whose_first_run_saved_meanwhile_moves_on(jar, esa, monkeypatch):
    # Streamlit starts the second tap's run before the first one stops: the first run's save lands after the
    # second run has drawn item 1 and before its own save. The store refuses that save; the page moves on.
    store, code, key, _plan = esa
    at = join(code)
    at.slider(key=f"{K.RATE_SLIDER_PREFIX}0").set_value(70).run()
    assert at.subheader[0].value.startswith("Item 1 of")
    rate = CampaignStore.rate

    def first_run_lands_first(self, code_, token, position, *args, **kwargs):
        monkeypatch.setattr(CampaignStore, "rate", rate)
        rate(self, code_, token, position, {"esa": 40}, [], at_cursor=True)  # the first tap's run
        return rate(self, code_, token, position, *args, **kwargs)

    monkeypatch.setattr(CampaignStore, "rate", first_run_lands_first)
    click(at, "Save and next")  # the second tap's run, begun on item 1
    assert at.subheader[0].value.startswith("Item 2 of")
    assert any(
        "Item 1 is already saved: the second tap changed nothing" in i.value for i in at.info
    )
    assert [(r.position, r.score) for r in store.ratings(code, key)] == [(0, 40)]


def test_unsaved_marks_and_score_survive_a_reload(jar, esa):
    store, code, key, plan = esa
    at = join(code)
    (words,) = at.button_group
    words.set_value([0, 1]).run()
    click(at, "Major error")
    at.slider(key=f"{K.RATE_SLIDER_PREFIX}0").set_value(35).run()
    text = plan.items[0].translation
    end = words_of(text)[1][1]
    assert jar[browser_memory.DRAFT_COOKIE] == f"{code}:0:0-{end}-M:35"
    again = start("rate", query={"campaign": code})  # F5 on the phone
    assert again.subheader[0].value.startswith("Item 1 of")
    assert '<mark class="bs-major"' in markdown_text(again)
    assert again.slider(key=f"{K.RATE_SLIDER_PREFIX}0").value == 35
    click(again, "Save and next")
    assert [r.score for r in store.ratings(code, key)] == [35]
    assert [s.span for s in store.spans(code, key)] == [MarkedSpan(0, end, "major")]
    assert jar[browser_memory.DRAFT_COOKIE] == ""  # saved: the draft is gone
    third = start("rate", query={"campaign": code})
    assert third.subheader[0].value.startswith("Item 2 of")
    assert "<mark" not in markdown_text(third)


def test_a_draft_of_another_item_is_not_shown(jar, esa):
    _store, code, _key, _plan = esa
    jar[browser_memory.DRAFT_COOKIE] = f"{code}:2:0-1-M:"
    at = join(code)
    assert "<mark" not in markdown_text(at)


def test_a_closed_lesson_shows_no_form_and_refuses_saves(jar, esa):
    store, code, key, _plan = esa
    at = join(code)
    at.slider(key=f"{K.RATE_SLIDER_PREFIX}0").set_value(70).run()
    store.set_open(code, key, False)  # the teacher (or the timer) closes rating meanwhile
    click(at, "Save and next")
    assert any("Rating is closed" in i.value for i in at.info)
    assert not any(b.label == "Save and next" for b in at.button)
    assert store.ratings(code, key) == []


def test_the_timer_closes_rating_on_the_server_at_zero(esa):
    store, code, key, _plan = esa
    closed = threading.Event()

    def close() -> None:
        store.set_open(code, key, False)
        closed.set()

    lesson_timer.start_timer(code, 0.001, on_zero=close)  # 0.06 s: no projector open
    try:
        assert closed.wait(30)
        assert not store.get_campaign(code).is_open
        with pytest.raises(CampaignError, match=f"campaign {code} is closed"):
            JudgeSession.join(store, code, "late", "monolingual")  # joining is refused too
    finally:
        lesson_timer.stop_timer(code)


def test_a_stopped_timer_closes_nothing(esa):
    store, code, key, _plan = esa
    fired = threading.Event()
    lesson_timer.start_timer(code, 0.01, on_zero=fired.set)
    lesson_timer.stop_timer(code)
    assert not fired.wait(1.5)  # 0.6 s was the deadline
    assert store.get_campaign(code).is_open


def test_a_score_left_behind_is_not_given_on_coming_back(jar, esa):
    store, code, key, _plan = esa
    at = join(code)
    click(at, "No errors: score 100")
    click(at, "Save and next")
    at.slider(key=f"{K.RATE_SLIDER_PREFIX}1").set_value(80).run()  # item 2: moved, not saved ...
    click(at, BACK_LABEL)  # ... the student goes back to item 1 ...
    click(at, "Next")  # ... and forward again: the slider's 80 is no rating
    assert at.subheader[0].value.startswith("Item 2 of")
    assert any("No score yet" in m.value for m in at.markdown)
    click(at, "Save and next")
    assert [(r.position, r.score) for r in store.ratings(code, key)] == [(0, 100)]


def test_saving_empties_the_draft_in_the_same_session(jar, esa):
    _store, code, _key, _plan = esa
    at = join(code)
    (words,) = at.button_group
    words.set_value([0]).run()
    click(at, "Minor error")
    assert jar[browser_memory.DRAFT_COOKIE].startswith(f"{code}:0:")
    at.slider(key=f"{K.RATE_SLIDER_PREFIX}0").set_value(60).run()
    click(at, "Save and next")
    assert jar[browser_memory.DRAFT_COOKIE] == ""  # no stale marks for item 1 after a reload
