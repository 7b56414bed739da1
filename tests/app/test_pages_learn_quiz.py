"""AppTest of Learn BLEU as a class quiz: the paper's examples named for what they show and scored with the
paper's settings (no smoothing: Example 2 scores 0, as in the paper), the sidebar's settings one switch away,
and a quiz that hides p_n, BP and BLEU until revealed."""

from __future__ import annotations

from app_runs import start_app

from ui.app import state as K

CLIPPING = "Clipping: the the the the the the the (Example 2)"


def bleu_metric(at) -> str:
    return next(m.value for m in at.metric if m.label == "Sentence BLEU")


def choose(at, label: str):
    box = at.selectbox(key=K.LEARN_EXAMPLE)
    box.set_value(box.options.index(label)).run()
    assert not at.exception
    return at


def test_examples_are_named_for_what_they_show_and_scored_as_in_the_paper():
    at = start_app("learn")
    options = at.selectbox(key=K.LEARN_EXAMPLE).options
    assert CLIPPING in options and not any("candidate-1" in o for o in options)
    choose(at, CLIPPING)
    assert bleu_metric(at) == "0.0000"  # the paper's settings: no smoothing, p_2 = 0
    at.toggle(key=K.LEARN_USE_SIDEBAR).set_value(True).run()  # the sidebar's: exp smoothing
    assert float(bleu_metric(at)) > 0


def test_the_quiz_hides_the_numbers_until_revealed():
    at = start_app("learn")
    choose(at, CLIPPING)
    at.toggle(key=K.LEARN_QUIZ).set_value(True).run()
    assert bleu_metric(at) == "?"
    text = "\n".join(m.value for m in at.markdown)
    assert "**?**" in text and "2/7" not in text
    at.number_input(key=K.LEARN_GUESS).set_value(0.25).run()
    [reveal] = [b for b in at.button if b.label == "Reveal"]
    reveal.click().run()
    assert bleu_metric(at) == "0.0000"
    [metric] = [m for m in at.metric if m.label == "Sentence BLEU"]
    assert "from the class's 0.25" in metric.proto.delta
    assert "**2/7**" in "\n".join(m.value for m in at.markdown)
    choose(at, "Too short: 'of the' (high precision, brevity penalty; Example 3)")
    assert bleu_metric(at) == "?"  # a new example: hidden again


def test_the_quiz_takes_guesses_for_each_precision_and_bp_and_reveals_each():
    at = start_app("learn")
    choose(
        at, CLIPPING
    )  # the paper's Example 2: p_1 = 2/7, p_2 = 0/6, BP = 1 (7 words, references 6 and 7)
    at.toggle(key=K.LEARN_QUIZ).set_value(True).run()
    at.number_input(key=f"{K.LEARN_GUESS_PN_PREFIX}1").set_value(0.5).run()
    at.number_input(key=f"{K.LEARN_GUESS_PN_PREFIX}2").set_value(0.1).run()
    at.number_input(key=K.LEARN_GUESS_BP).set_value(0.9).run()
    assert not any(
        t.value for t in at.table if "class's guess" in str(t.value)
    )  # nothing before Reveal
    [reveal] = [b for b in at.button if b.label == "Reveal"]
    reveal.click().run()
    assert not at.exception
    [table] = [t for t in at.table if "class's guess" in t.value.columns]
    rows = {r["number"]: r for r in table.value.to_dict("records")}
    assert set(rows) == {"p_1", "p_2", "BP"}  # BLEU was not guessed: no row
    assert rows["p_1"]["value"] == f"{2 / 7:.4f}" and rows["p_1"]["off by"] == f"{2 / 7 - 0.5:+.4f}"
    assert rows["p_2"]["value"] == "0.0000" and rows["BP"]["value"] == "1.0000"


def test_every_section_says_bleu_is_on_the_0_1_scale():
    at = start_app("learn")
    # the app opens the demo study at start, so step 7 has its table: BLEU in 0-1 as in steps 1-6
    [section7] = [d.value for d in at.dataframe if "corpus BLEU (0-1)" in d.value.columns]
    assert (
        section7["corpus BLEU (0-1)"].between(0, 1).all()
        and section7["corpus BLEU (0-1)"].max() > 0
    )
    assert section7["mean sentence BLEU (0-1)"].between(0, 1).all()
    assert any("0-1 scale throughout" in m.value for m in at.markdown)
