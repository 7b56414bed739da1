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
