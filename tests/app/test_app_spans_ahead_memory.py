"""The BLEU vs error spans page's counts ahead keep their results, not the token columns behind them.

Both of the page's counts under one tokenizer (agreement tables, span scores) tokenise every annotated
translation; the columns are remembered for the next count (:func:`bleu_core.tokenize.token_offsets.
token_columns_corpus`, the last two settings). Kept for the tokenizers counted ahead, which the page does
not show, they would hold 35 MB on WMT24 en-ja and push out the shown tokenizer's columns: once both
results of a tokenizer counted ahead are stored, its columns are dropped; the shown tokenizer's are kept.
"""

from __future__ import annotations

from ui.app import prefetch, shared_cache


def test_columns_of_tokenizers_counted_ahead_are_dropped_once_both_results_are_stored(
    monkeypatch,
):
    from bleu_core.study.demo import load_demo
    from ui.explore import error_spans_ahead as ahead

    study = load_demo("ted-en-de").subset(["Nemo", "UEdin"], 25)
    refs = tuple(study.references)
    monkeypatch.delenv(prefetch.SWITCH, raising=False)
    monkeypatch.setattr(shared_cache, "COUNT_AHEAD_TOKENIZERS", ("13a", "intl", "char"))
    forgotten: list[tuple[str, bool]] = []
    forget = ahead.forget_token_columns
    monkeypatch.setattr(
        ahead,
        "forget_token_columns",
        lambda tokenize, lowercase=False: (
            forgotten.append((tokenize, lowercase)) or forget(tokenize, lowercase)
        ),
    )
    ahead.VIEWS.clear()
    idle = ahead.count_view_ahead("test:memory", study, refs, "13a", False, 2, None, (1, 2))
    assert idle is not None and idle.wait(60)
    # each tokenizer counted ahead once, after its second result (the first finds its pair missing)
    assert sorted(forgotten) == [("char", False), ("intl", False)]
    for name in ("intl", "char"):
        assert ahead.VIEWS.ready(
            ahead.span_scores_job("test:memory", study, refs, name, False, 2, None)[0]
        )


def test_the_shown_tokenizers_columns_are_kept(monkeypatch):
    """A count ahead under the tokenizer the page shows now (the user switched to it meanwhile) keeps
    its columns: the page's next count with other settings uses them."""
    from ui.explore import error_spans_ahead as ahead

    forgotten: list[str] = []
    monkeypatch.setattr(
        ahead, "forget_token_columns", lambda tokenize, lowercase=False: forgotten.append(tokenize)
    )
    ahead._remember("test:shown", "intl")
    ahead._forget_columns("test:shown", "intl", False)
    ahead._forget_columns("test:shown", "char", False)
    assert forgotten == ["char"]
