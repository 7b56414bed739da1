"""AppTest of contrastive ESA in class (WMT26's cESA): class mode makes the lesson (2-3 systems, sentence BLEU
carried along), the Rate page stacks a sentence's translations under its source and refuses a Save without
scores or below 85 without a span, keeps the screen's unsaved marks and scores across a reload (this browser's
draft cookie, the ``jar``), the projector shows the class's pairwise preferences against BLEU, and Manage's
Appraise CSV and Pearmut zip of a contrastive lesson read back (our WMT24 and Pearmut readers) with the stored
scores and spans."""

from __future__ import annotations

import io
import json
import zipfile
from functools import partial

import pytest
import sacrebleu
from app_runs import markdown_text as html_of
from app_runs import start_app

from bleu_core.campaigns import CampaignStore, JudgeSession, MarkedSpan
from bleu_core.campaigns.contrastive import contrastive_plan, sentence_bleu_of, submit_screen
from bleu_core.campaigns.lesson import lesson_plan
from bleu_core.campaigns.pairwise_preference import preferred
from bleu_core.campaigns.span_editing import words_of
from bleu_core.study.formats.esa import attach_esa
from bleu_core.study.formats.pearmut import read_pearmut
from ui.app import state as K
from ui.campaigns import browser_memory

start = partial(start_app, label=None, open_demo=False, first_run=False, timeout=90)
MAJOR = MarkedSpan(0, 1, "major")


def click(at, label: str):
    [b for b in at.button if b.label == label][0].click().run()
    assert not at.exception, [e.value for e in at.exception]


@pytest.fixture
def cesa_lesson(db, ted_four_systems):
    """A contrastive lesson of 3 systems × 3 segments; made-up sentence BLEU 10, 20, 30 by system."""
    store = CampaignStore.shared(db)
    bleu = {s: float(i * 5) for i, s in enumerate(ted_four_systems.systems)}
    plan = lesson_plan(ted_four_systems, bleu, seed=2, n_systems=3, n_segments=3, reads="both")
    rank = {s: k for k, s in enumerate(plan.systems)}
    sentence = {(it.segment_id, it.system): 10.0 * (1 + rank[it.system]) for it in plan.items}
    created = store.create_campaign(contrastive_plan(plan, sentence))
    return store, created.campaign.code, created.organiser_key


def test_class_mode_makes_a_contrastive_lesson_with_sentence_bleu(db, ted_four_systems):
    at = start("campaigns", ted_four_systems, key="test:ted-four", **{K.SEED: 7})
    at.number_input(key=K.CLASS_SYSTEMS).set_value(4)
    at.radio(key=K.CAMP_CLASS_PROTOCOL).set_value("cesa").run()
    click(at, "Start a class")
    code, key = at.session_state[K.CAMP_CODE], at.session_state[K.CAMP_KEY]
    store = CampaignStore.shared(db)
    campaign = store.check_organiser(code, key)
    assert campaign.protocol == "cesa" and len(campaign.systems) == 3  # 4 asked: a phone shows 3
    items = store.items(code, key)
    bleu = sentence_bleu_of(campaign.metadata)
    assert set(bleu) == {(it.segment_id, it.system) for it in items}
    # the same number as sacrebleu's sentence_bleu (the app's segment BLEU: effective order, exp smoothing)
    signature = campaign.metadata["sentence_bleu_signature"]
    assert "eff:yes" in signature and "smooth:exp" in signature
    tok = next(f[4:] for f in signature.split("|") if f.startswith("tok:"))
    item = items[0]
    segment = ted_four_systems.segment_ids.index(item.segment_id)
    reference = next(iter(ted_four_systems.references.values()))[segment]
    expected = sacrebleu.sentence_bleu(item.translation, [reference], tokenize=tok).score
    assert bleu[item.segment_id, item.system] == pytest.approx(expected)


def warning(at) -> str:
    return at.warning[0].value.replace("\\", "")  # the message is markdown-escaped


def join(code: str):
    at = start("rate", key="test:none")
    at.text_input(key=K.RATE_JOIN_CODE).input(code).run()
    at.text_input(key=K.RATE_JOIN_NAME).input("Ana")
    [b for b in at.button if b.label == "Start rating"][0].click().run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_the_phone_stacks_the_translations_and_refuses_an_incomplete_save(cesa_lesson):
    store, code, key = cesa_lesson
    at = join(code)
    items = store.items(code, key)
    assert at.subheader[0].value == "Sentence 1 of 3"
    text = html_of(at)
    assert text.index("Source") < text.index("Reference translation") < text.index("Translation A")
    assert text.index("Translation A") < text.index("Translation B") < text.index("Translation C")
    sliders = [at.select_slider(key=f"{K.RATE_CESA_SCORE_PREFIX}{p}") for p in range(3)]
    assert [s.value for s in sliders] == ["?", "?", "?"]  # no score until the student gives one
    click(at, "Save and next")
    assert "Translation A has no score yet" in warning(at)
    for p, score in enumerate((90, 70, 100)):
        at.select_slider(key=f"{K.RATE_CESA_SCORE_PREFIX}{p}").set_value(score)
    at.run()
    click(at, "Save and next")
    assert "Translation B: you scored 70 but marked no error" in warning(at)
    assert store.ratings(code, key) == []  # a refused screen stores nothing
    # mark the first word of B as a major error, then save: the whole screen is stored
    at.get("button_group")[1].set_value([0]).run()
    [major] = [b for b in at.button if b.key == "rate_mark_major_1"]
    major.click().run()
    click(at, "Save and next")
    rows = {(r.position, r.score) for r in store.ratings(code, key)}
    assert rows == {(0, 90), (1, 70), (2, 100)}
    assert {(s.position, s.span.severity) for s in store.spans(code, key)} == {(1, "major")}
    assert at.subheader[0].value == "Sentence 2 of 3"
    assert {it.segment_id for it in items[:3]} == {items[0].segment_id}
    [back] = [b for b in at.button if b.key == "rate_cesa_back_3"]
    back.click().run()  # Back: the saved screen again, its scores on the sliders
    assert at.subheader[0].value == "Sentence 1 of 3"
    assert [at.select_slider(key=f"{K.RATE_CESA_SCORE_PREFIX}{p}").value for p in range(3)] == [
        90,
        70,
        100,
    ]


def mark(at, position: int, words: list[int], severity: str) -> None:
    """Choose *words* of the translation at *position* and mark them as one *severity* error."""
    [picker] = [
        g for g in at.get("button_group") if g.key.startswith(f"{K.RATE_WORDS_PREFIX}{position}_")
    ]
    picker.set_value(words).run()
    [button] = [b for b in at.button if b.key == f"rate_mark_{severity}_{position}"]
    button.click().run()
    assert not at.exception, [e.value for e in at.exception]


def test_a_screens_unsaved_marks_and_scores_survive_a_reload(jar, cesa_lesson):
    store, code, key = cesa_lesson
    items = store.items(code, key)[:3]
    at = join(code)
    mark(at, 0, [0], "major")  # A: its first word, major
    mark(at, 1, [1, 2], "minor")  # B: its second and third words, one minor span
    at.select_slider(key=f"{K.RATE_CESA_SCORE_PREFIX}0").set_value(40)
    at.select_slider(key=f"{K.RATE_CESA_SCORE_PREFIX}2").set_value(100).run()  # B left unscored
    a_words, b_words = words_of(items[0].translation), words_of(items[1].translation)
    a_span = MarkedSpan(a_words[0][0], a_words[0][1], "major")
    b_span = MarkedSpan(b_words[1][0], b_words[2][1], "minor")
    drafts = browser_memory.parse_screen_draft(jar[browser_memory.DRAFT_COOKIE])
    assert {p: (d.marks, d.score) for p, d in drafts.items()} == {
        0: ((a_span,), 40),
        1: ((b_span,), None),
        2: ((), 100),
    }
    again = start("rate", query={"campaign": code})  # F5 on the phone: a new session
    assert not again.exception, [e.value for e in again.exception]
    assert again.subheader[0].value == "Sentence 1 of 3"
    sliders = [again.select_slider(key=f"{K.RATE_CESA_SCORE_PREFIX}{p}") for p in range(3)]
    assert [s.value for s in sliders] == [40, "?", 100]  # B's score was never given: still unset
    text = html_of(again)
    assert text.count('<mark class="bs-major"') == 1 and text.count('<mark class="bs-minor"') == 1
    sliders[1].set_value(60).run()
    click(again, "Save and next")
    assert {(r.position, r.score) for r in store.ratings(code, key)} == {(0, 40), (1, 60), (2, 100)}
    assert {(s.position, s.span) for s in store.spans(code, key)} == {(0, a_span), (1, b_span)}
    assert again.subheader[0].value == "Sentence 2 of 3"
    assert jar[browser_memory.DRAFT_COOKIE] == ""  # saved: the draft is gone
    third = start("rate", query={"campaign": code})
    assert third.subheader[0].value == "Sentence 2 of 3" and "<mark" not in html_of(third)


def test_a_draft_of_another_screen_is_not_shown(jar, cesa_lesson):
    _store, code, _key = cesa_lesson
    jar[browser_memory.DRAFT_COOKIE] = f"{code}:3:0-1-M:40|{code}:4::55"  # screen 2's draft
    at = join(code)
    assert "<mark" not in html_of(at)
    assert [at.select_slider(key=f"{K.RATE_CESA_SCORE_PREFIX}{p}").value for p in range(3)] == [
        "?"
    ] * 3


def test_the_projector_shows_the_class_against_bleus_order(cesa_lesson):
    store, code, key = cesa_lesson
    campaign = store.get_campaign(code)
    bleu = sentence_bleu_of(campaign.metadata)
    items = store.items(code, key)
    # ana scores as sentence BLEU orders (agrees on every pair BLEU does not tie); bo the reverse
    for name, sign in (("ana", 1), ("bo", -1)):
        session = JudgeSession.join(store, code, name, "class")
        for first in range(0, len(items), 3):
            answers = {}
            for it in items[first : first + 3]:
                b = bleu[it.segment_id, it.system]
                answers[it.position] = (int(50 + sign * b), [MAJOR])
            submit_screen(session, answers)
    at = start("projector", key="test:none", query={"lesson": code, "key": key})
    assert not at.exception
    text = html_of(at)
    assert "Which translation did the class prefer?" in "\n".join(s.value for s in at.subheader)
    # hand count: each sentence has BLEU 10, 20, 30 on its three systems, so every pair differs;
    # ana agrees on all 3 pairs × 3 sentences, bo disagrees on all: 9 of 18 = 50 %
    assert 'class="bs-proj-r">50%</div>' in text and "of 18 paired judgments" in text
    [pairs] = [d.value for d in at.dataframe if "agree with sentence BLEU" in d.value.columns]
    assert list(pairs["paired judgments"]) == [6, 6, 6]
    segment = at.selectbox(key=K.PROJ_CESA_SEGMENT).value
    [one] = [d.value for d in at.dataframe if "BLEU prefers" in d.value.columns]
    for row in one.to_dict("records"):
        assert row["students: first / tie / second"] in ("1 / 0 / 1",)
        a, b = row["pair"].split(" vs ")
        assert row["BLEU prefers"] == preferred(a, b, bleu[segment, a], bleu[segment, b])


def rate_every_screen(store, code: str, items) -> None:
    """Two students save every screen: scores 20-45 (ana) and 55-80 (bo); each translation with one span,
    the first words (the screen's second a [missing] mark too)."""
    for name, base in (("ana", 20), ("bo", 55)):
        session = JudgeSession.join(store, code, name, "class")
        for first in range(0, len(items), 3):
            answers = {}
            for k, it in enumerate(items[first : first + 3]):
                spans = [MarkedSpan(0, 1 + k, "major" if k else "minor")]
                if k == 1:
                    spans.append(MarkedSpan(None, None, "minor", True))
                answers[it.position] = (base + 5 * k + first, spans)
            submit_screen(session, answers)


def downloads(monkeypatch, at_start) -> dict[str, bytes]:
    """The bytes of every download button the page made, by file name."""
    from streamlit.runtime.media_file_manager import MediaFileManager

    made: dict[str, bytes] = {}
    real = MediaFileManager.add

    def record(self, data, mimetype, coordinates, file_name=None, **kw):
        if file_name:
            made[file_name] = data
        return real(self, data, mimetype, coordinates, file_name, **kw)

    monkeypatch.setattr(MediaFileManager, "add", record)
    at_start()
    return made


def test_manages_appraise_csv_and_pearmut_zip_of_a_cesa_lesson_read_back(
    cesa_lesson, ted_four_systems, monkeypatch
):
    store, code, key = cesa_lesson
    items = store.items(code, key)
    rate_every_screen(store, code, items)
    ratings, spans = store.ratings(code, key), store.spans(code, key)
    state = {K.CAMP_CODE: code, K.CAMP_KEY: key}
    made = downloads(
        monkeypatch, lambda: start("campaigns", ted_four_systems, key="test:ted-four", **state)
    )
    [csv_name] = [n for n in made if n.endswith("-esa.csv")]
    [zip_name] = [n for n in made if n.endswith("-pearmut.zip")]
    texts = ted_four_systems.systems
    line = {seg: i for i, seg in enumerate(ted_four_systems.segment_ids)}

    def text_of(system: str, segment: str, span: MarkedSpan) -> str:
        return "[missing]" if span.missing else texts[system][line[segment]][span.start : span.end]

    expected_scores = sorted((r.judge, r.system, r.segment_id, float(r.score)) for r in ratings)
    expected_spans = sorted(
        (s.judge, s.system, s.segment_id, s.span.severity.capitalize(), text_of(s.system, s.segment_id, s.span))
        for s in spans
    )  # fmt: skip
    assert len(expected_scores) == 2 * len(items) and len(expected_spans) == 2 * 4 * len(items) // 3

    # Appraise: one ESA row per (student, translation), read by the WMT24 reader
    loaded = attach_esa(ted_four_systems, made[csv_name].decode("utf-8"), csv_name).study
    got_scores = sorted(
        (r.rater, r.system, r.segment_id, r.score) for r in loaded.ratings if r.criterion == "esa"
    )
    assert got_scores == expected_scores
    got_spans = sorted(
        (
            s.rater,
            s.system,
            s.segment_id,
            s.severity,
            "[missing]"
            if s.category == "Omission"
            else texts[s.system][line[s.segment_id]][s.start : s.end],
        )
        for s in loaded.error_spans
        if s.rater in ("ana", "bo")  # the study's own MQM spans are the experts'
    )
    assert got_spans == expected_spans

    # Pearmut: a cESA campaign file, one page per source sentence with its three systems; the annotations
    # read back by our Pearmut reader
    with zipfile.ZipFile(io.BytesIO(made[zip_name])) as z:
        files = {n: json.loads(z.read(n)) for n in z.namelist()}
    campaign = files["campaign.json"]
    assert campaign["info"]["protocol"] == "cESA"
    pages = campaign["data"][0]
    assert len(pages) == len(items) // 3
    for k, page in enumerate(pages):
        screen = items[3 * k : 3 * k + 3]
        (segment,) = page
        assert segment["item_id"] == screen[0].segment_id
        assert segment["tgt"] == {it.system: it.translation for it in screen}
    got = read_pearmut([("annotations.json", json.dumps(files["annotations.json"]))])
    assert (
        sorted((a.user, a.system, a.item_id, a.scores["esa"]) for a in got.answers)
        == expected_scores
    )
    pearmut_spans = sorted(
        (a.user, a.system, a.item_id, s.severity,
         "[missing]" if s.category == "Omission" else a.tgt[s.start : s.end])
        for a in got.answers for s in a.spans
    )  # fmt: skip
    assert pearmut_spans == expected_spans
