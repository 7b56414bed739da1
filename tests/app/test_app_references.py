"""In the app: a release's references chosen in the sidebar, uploads of any file names, the
pair of a release of several pairs, and warnings naming the user's files.

The release is generated here (tests/browser/wmt22_release.py: WMT22 style, references B and C, DA naming
``HUMAN-B.12`` and ``HUMAN-C``, a byte-order mark). Expected BLEU comes from sacrebleu 2.x on the same texts.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import sacrebleu
from app_runs import captions, start_app
from streamlit.testing.v1 import AppTest

from bleu_core.study.loading import load_files
from ui.app import state as K
from ui.study.upload import role_key

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "browser"))
from wmt22_release import REF_B, REF_C, SYSTEMS, release_zip  # noqa: E402


def study_page() -> AppTest:
    return start_app(open_demo=False)  # no demo: the study comes from the upload


def upload(at: AppTest, files: list[tuple[str, bytes]]) -> None:
    nonce = at.session_state[K.STUDY_UPLOAD_NONCE]
    uploader = at.file_uploader(key=K.STUDY_UPLOAD_PREFIX + str(nonce))
    uploader.set_value([(name, data, "application/octet-stream") for name, data in files]).run()
    assert not at.exception, [e.value for e in at.exception]


def load(at: AppTest) -> None:
    next(b for b in at.button if b.label == "Load files").click().run()
    assert not at.exception, [e.value for e in at.exception]


def corpus_bleu(at: AppTest) -> dict[str, float]:
    at.switch_page("pages/corpus.py")
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    # a reference rated like a system is a row without BLEU of its own (issue 39): not a BLEU system
    return at.dataframe[0].value.set_index("system")["BLEU"].dropna().to_dict()


def test_reference_picker_changes_bleu_and_the_signature_everywhere():
    at = study_page()
    upload(at, [("wmt22 release.zip", release_zip())])
    load(at)
    warnings = [w.value.replace("\\", "") for w in at.warning]  # shown Markdown-escaped
    # the byte-order mark is reported, naming the file inside the user's zip (never a temp path)
    assert any(
        w.startswith("wmt22 release.zip!txt/system-outputs/generaltest2022.de-en.hyp.sys1.en: ")
        and "byte-order mark" in w
        for w in warnings
    ), warnings
    assert not any("/tmp" in w or "bleu-study-upload" in w for w in warnings)
    assert any("human scores of ref-B (3 da, 3 da_z) were set aside" in w for w in warnings)
    assert at.session_state[K.OPT_REFERENCES] == ["ref-B"]  # the loader's choice
    assert at.session_state[K.STUDY_OPENED].pool == ["ref-B", "ref-C"]

    at.session_state[K.INCLUDE_HUMANS] = True  # out by default (as meta), shown when asked
    bleu = corpus_bleu(at)
    for system, lines in SYSTEMS.items():  # sacrebleu 2.x, default settings, reference B only
        assert bleu[system] == pytest.approx(sacrebleu.corpus_bleu(lines, [REF_B]).score, abs=1e-9)
    assert "HUMAN-C (ref-C)" in bleu  # the other human translation is a system, shown by both names
    assert "nrefs:1|" in captions(at)

    # both references: multi-reference BLEU, two streams in the signature, no human systems left.
    # (AppTest keeps the sidebar drawn before navigation.run() in its tree on the first run only:
    # later runs drive the picker through its key; the widget is driven in the next test.)
    at.session_state[K.OPT_REFERENCES] = ["ref-B", "ref-C"]
    both = corpus_bleu(at)
    for system, lines in SYSTEMS.items():
        expected = sacrebleu.corpus_bleu(lines, [REF_B, REF_C]).score
        assert both[system] == pytest.approx(expected, abs=1e-9)
    assert set(both) == set(SYSTEMS) and "nrefs:2|" in captions(at)
    assert at.session_state[K.STUDY_KEY].endswith("|references=ref-B,ref-C")

    # reference C only: HUMAN-B.12's DA (91, 92, 93) is ref-B's, a human system, on the Corpus page
    at.session_state[K.OPT_REFERENCES] = ["ref-C"]
    c_only = corpus_bleu(at)
    frame = at.dataframe[0].value.set_index("system")
    human_b = "HUMAN-B (ref-B)"
    assert frame.loc[human_b, "da"] == pytest.approx(92.0) and bool(frame.loc[human_b, "human"])
    assert c_only[human_b] == pytest.approx(sacrebleu.corpus_bleu(REF_B, [REF_C]).score, abs=1e-9)
    assert "nrefs:1|" in captions(at)
    at.switch_page("pages/study.py")
    at.run()
    warnings = [w.value.replace("\\", "") for w in at.warning]
    assert any("human scores of ref-C (3 da, 3 da_z) were set aside" in w for w in warnings)
    assert not any("human scores of ref-B" in w for w in warnings)  # true for this choice only
    assert any("byte-order mark" in w for w in warnings)

    # back to the loader's choice: the study as loaded, under its own key (nothing re-read)
    loaded = at.session_state[K.STUDY_OPENED].base
    at.session_state[K.OPT_REFERENCES] = ["ref-B"]
    at.run()
    assert at.session_state[K.STUDY] is loaded
    assert at.session_state[K.STUDY_KEY].startswith("upload:")
    assert "|references=" not in at.session_state[K.STUDY_KEY]


def test_the_sidebar_picker_offers_every_human_translation():
    study = load_files([("wmt22.zip", release_zip())]).study
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.session_state[K.STUDY] = study
    at.session_state[K.STUDY_KEY] = "test:wmt22"
    at.session_state[K.DEFAULT_STUDY_TRIED] = True
    at.run()
    picker = at.sidebar.multiselect(key=K.OPT_REFERENCES)
    assert picker.options == ["ref-B", "ref-C"] and picker.value == ["ref-B"]
    assert "Signature: `nrefs:1|" in "\n".join(c.value for c in at.sidebar.caption)
    picker.set_value(["ref-B", "ref-C"]).run()
    assert not at.exception, [e.value for e in at.exception]
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["References"] == "2" and metrics["Systems"] == "3"
    assert at.session_state[K.STUDY_KEY] == "test:wmt22|references=ref-B,ref-C"
    assert study.references.keys() == {"ref-B"}  # the loaded study itself is never changed


def test_upload_asks_the_role_of_files_whose_names_do_not_say_it():
    at = study_page()
    files = [
        ("theirs.txt", b"The dog barks loudly .\nThe cat sleeps .\n"),
        ("google.txt", b"The dog is barking .\nA cat sleeps .\n"),
        ("deepl.hyp", b"Dog barks .\nThe cat sleeps .\n"),
    ]
    upload(at, files)
    assert "deepl.hyp → system deepl" in captions(at).replace("\\", "")  # markdown-escaped
    boxes = {
        s.label: s for s in at.selectbox if s.key and s.key.startswith(K.STUDY_UPLOAD_ROLE_PREFIX)
    }
    assert set(boxes) == {"theirs.txt", "google.txt"}  # deepl.hyp says its role
    load(at)  # no role given yet: the error says which names work and how to assign
    (error,) = [e.value.replace("\\", "") for e in at.error]  # the message is Markdown-escaped
    assert "the role of 'google.txt', 'theirs.txt' is not known from the name" in error
    assert "names that work: WMT names" in error and "upload form" in error
    at.selectbox(key=role_key(0, "theirs.txt")).set_value("reference")
    at.selectbox(key=role_key(0, "google.txt")).set_value("system")
    at.run()
    load(at)
    assert not at.error
    study = at.session_state[K.STUDY]
    assert list(study.references) == ["theirs"] and sorted(study.systems) == ["deepl", "google"]


def test_a_release_of_several_pairs_offers_its_pairs():
    at = study_page()
    upload(at, [("two-pairs.zip", release_zip(("de-en", "cs-en")))])
    box = at.selectbox(key=K.STUDY_PAIR)
    assert box.options == ["cs-en", "de-en"]
    assert not [t for t in at.text_input if "pair" in t.label.lower()]
    box.set_value("cs-en").run()
    load(at)
    study = at.session_state[K.STUDY]
    assert (study.source_lang, study.target_lang) == ("cs", "en")
    assert list(study.references) == ["ref-B"] and "ref-C" not in study.systems


def test_reset_to_defaults_also_resets_the_references_and_the_criterion():
    from ui.app.settings import reset_settings

    study = load_files([("wmt22.zip", release_zip())]).study
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.session_state[K.STUDY] = study
    at.session_state[K.STUDY_KEY] = "test:wmt22"
    at.session_state[K.DEFAULT_STUDY_TRIED] = True
    at.run()
    assert [b.label for b in at.sidebar.button] == ["Reset to defaults"]
    at.session_state[K.OPT_REFERENCES] = ["ref-B", "ref-C"]
    at.session_state[K.CRITERION] = "da"
    at.run()
    assert at.session_state[K.STUDY_KEY] == "test:wmt22|references=ref-B,ref-C"
    # the button's callback (AppTest has the sidebar in its tree on the first run only)
    reset_settings(at.session_state)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.session_state[K.STUDY_KEY] == "test:wmt22"  # the loader's references again
    assert at.session_state[K.STUDY] is study
    assert K.CRITERION not in at.session_state  # pages open on the headline criterion again


def test_after_reset_the_loaders_choice_is_shown_chosen_and_another_adds_to_it():
    # issue 39: Reset left the picker empty ("the loader's choice") while ref-B was in use, so picking
    # ref-C replaced ref-B; now the reference in use is shown chosen and ref-C adds to it
    from ui.app.settings import picker_value, reset_settings

    at = study_page()
    upload(at, [("wmt22 release.zip", release_zip())])
    load(at)
    state = at.session_state
    reset_settings(state)
    assert state[K.OPT_REFERENCES] == []
    shown = picker_value(
        state[K.OPT_REFERENCES], list(state[K.STUDY].references), ["ref-B", "ref-C"]
    )
    assert shown == ["ref-B"]  # the reference in use, shown chosen
    state[K.OPT_REFERENCES] = [*shown, "ref-C"]  # the user picks ref-C beside it
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert list(state[K.STUDY].references) == ["ref-B", "ref-C"]  # added, not replaced
