"""The sidebar's BLEU settings and their translation into :class:`bleu_core.engine.options.BleuOptions`.

The widgets write into ``st.session_state`` under the keys of :mod:`ui.app.state`; :func:`options_from_state`
turns those raw values into validated options without touching Streamlit, so it is testable on a dict:

>>> opts, problems = options_from_state({"opt_max_order": 2, "opt_weights": "0.3, 0.7"})
>>> opts.max_order, opts.weights, problems
(2, (0.3, 0.7), [])
>>> opts, problems = options_from_state({"opt_max_order": 4, "opt_weights": "1, 2"})
>>> opts.weights is None, problems[0].startswith("Weights ignored: weights must be 4 numbers")
(True, True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import streamlit as st

from bleu_core.engine.options import (
    MAX_ORDER_LIMIT,
    REF_LENGTH_POLICIES,
    SMOOTH_DEFAULTS,
    SMOOTHING_NAMES,
    BleuOptions,
)
from bleu_core.engine.segment_level import segment_signature
from bleu_core.engine.signature import make_signature
from bleu_core.errors import BleuOptionError
from bleu_core.tokenize.tokenizers import TOKENIZER_NAMES, tokenizer_for_language, tokenizer_warning
from ui.app import state as K

try:  # descriptions are a nicety: the contract only promises TOKENIZER_NAMES
    from bleu_core.tokenize.tokenizers import TOKENIZER_DESCRIPTIONS
except ImportError:  # pragma: no cover
    TOKENIZER_DESCRIPTIONS = {}

REF_LENGTH_HELP = {
    "closest": "the reference length closest to the hypothesis length, ties to the shorter (paper, sacrebleu)",
    "shortest": "the shortest reference (old IBM/NIST scripts)",
    "average": "the mean reference length",
}

SMOOTH_HELP = {
    "none": "no smoothing: one order without a match makes sentence BLEU 0",
    "floor": "a zero match count becomes a small epsilon (sacrebleu 'floor')",
    "add-k": "add k to matches and totals of orders 2..N (sacrebleu 'add-k')",
    "exp": "sacrebleu's default: 1/2^k for the k-th order without a match",
    "chen-cherry-1": "Chen & Cherry 1: epsilon for zero counts",
    "chen-cherry-2": "Chen & Cherry 2: add 1 to orders 2..N (Lin & Och)",
    "chen-cherry-3": "Chen & Cherry 3: exponential decay (NIST geometric sequence)",
    "chen-cherry-4": "Chen & Cherry 4: shorter sentences get larger smoothing (k / ln length)",
    "chen-cherry-5": "Chen & Cherry 5: average with neighbouring orders (needs order N+1)",
    "chen-cherry-6": "Chen & Cherry 6: interpolate with a prior from the lower order",
    "chen-cherry-7": "Chen & Cherry 7: methods 4 and 5 combined",
}


def parse_number_list(text: str) -> tuple[float, ...] | None:
    """Parse ``"0.25, 0.25 0.5"`` into a tuple of floats; ``""`` (or ``uniform``) gives None.

    >>> parse_number_list(" 0.5, 0.5 ")
    (0.5, 0.5)
    >>> parse_number_list("uniform") is None
    True
    >>> parse_number_list("1/2, a")
    Traceback (most recent call last):
    ...
    ValueError: '1/2' is not a number: write decimals separated by commas, e.g. 0.25, 0.25, 0.25, 0.25
    """
    text = text.strip()
    if not text or text.lower() == "uniform":
        return None
    values = []
    for part in text.replace(";", ",").replace(",", " ").split():
        try:
            values.append(float(part))
        except ValueError:
            raise ValueError(
                f"{part!r} is not a number: write decimals separated by commas, e.g. 0.25, 0.25, 0.25, 0.25"
            ) from None
    return tuple(values)


def options_from_state(state: Mapping[str, Any]) -> tuple[BleuOptions, list[str]]:
    """Build :class:`BleuOptions` from the sidebar values; invalid parts fall back to defaults.

    Returns the options and a list of problems (messages for the user). A bad weight list or smoothing value
    never blocks the page: it is reported and ignored.
    """
    problems: list[str] = []
    base: dict[str, Any] = {
        "tokenize": state.get(K.OPT_TOKENIZE, "13a"),
        "lowercase": bool(state.get(K.OPT_LOWERCASE, False)),
        "max_order": int(state.get(K.OPT_MAX_ORDER, 4)),
        "ref_length": state.get(K.OPT_REF_LENGTH, "closest"),
        "smooth": state.get(K.OPT_SMOOTH, "exp"),
        "effective_order": bool(state.get(K.OPT_EFFECTIVE_ORDER, False)),
    }
    try:
        options = BleuOptions(**base)
    except BleuOptionError as err:
        problems.append(f"Settings reset to defaults: {err}")
        return BleuOptions(), problems
    try:
        weights = parse_number_list(str(state.get(K.OPT_WEIGHTS, "") or ""))
        if weights is not None:
            options = options.with_(weights=weights)
    except (ValueError, BleuOptionError) as err:
        problems.append(f"Weights ignored: {err}")
    raw_value = str(state.get(K.OPT_SMOOTH_VALUE, "") or "").strip()
    if raw_value:
        try:
            options = options.with_(smooth_value=float(raw_value))
        except ValueError as err:
            problems.append(f"Smoothing value ignored: {err}")
    return options, problems


def reset_settings(state: Any) -> None:
    """Every setting of :data:`ui.app.state.RESET_KEYS` back to its default (unset when it has none).

    >>> s = {"opt_smooth": "floor", "opt_references": ["ref-B"], "criterion": "da", "seed": 7}
    >>> reset_settings(s)
    >>> s["opt_smooth"], s["opt_references"], "criterion" in s, s["seed"]
    ('exp', [], False, 12345)
    """
    for key in K.RESET_KEYS:
        if key in K.DEFAULTS:
            value = K.DEFAULTS[key]
            state[key] = list(value) if isinstance(value, list) else value
        elif key in state:
            del state[key]


def _reset_options() -> None:
    reset_settings(st.session_state)


def follow_target_language(state: Any, target_lang: str | None) -> None:
    """Set the tokenizer to sacrebleu's choice for ``target_lang`` when the open study's target language is
    not the one last applied (the user's own choice stays until a study of another language opens).

    >>> s = {"opt_tokenize": "13a"}
    >>> follow_target_language(s, "ja"); s["opt_tokenize"]
    'ja-mecab'
    >>> s["opt_tokenize"] = "char"; follow_target_language(s, "ja"); s["opt_tokenize"]
    'char'
    >>> follow_target_language(s, "de"); s["opt_tokenize"]
    '13a'
    """
    language = target_lang or ""
    if state.get(K.OPT_TOKENIZE_LANGUAGE) != language:
        state[K.OPT_TOKENIZE_LANGUAGE] = language
        state[K.OPT_TOKENIZE] = tokenizer_for_language(target_lang)


def picker_value(
    chosen: Sequence[str] | None, in_use: Sequence[str], names: Sequence[str]
) -> list[str]:
    """What the reference picker shows chosen: the user's choice (of the offered ``names``), or, when
    nothing is chosen (a new study, after Reset), the references ``in_use`` (the loader's choice), so
    that picking another one adds to them, as the picker's chips say, instead of silently replacing them.

    >>> picker_value([], ["ref-B"], ["ref-B", "ref-C"])  # after Reset: the loader's choice, shown
    ['ref-B']
    >>> picker_value(["ref-B", "ref-C"], ["ref-B"], ["ref-B", "ref-C"]), picker_value(["ref-X"], [], ["ref-B"])
    (['ref-B', 'ref-C'], [])
    """
    current = [r for r in chosen or [] if r in names]
    return current or [r for r in in_use if r in names]


def render_settings(
    reference_names: Sequence[str],
    streams: Sequence[str] | None = None,
    target_lang: str | None = None,
) -> tuple[BleuOptions, list[str]]:
    """Draw the BLEU settings in the sidebar; return the options and the reference streams in use.

    ``reference_names``: the human translations the reference picker offers (no picker for one);
    ``streams``: the open study's reference streams (the picker's choice, already applied by
    :func:`ui.app.references.sync_reference_choice`; default: all of ``reference_names``);
    ``target_lang``: the open study's target language, whose tokenizer becomes the default
    (:func:`follow_target_language`)."""
    follow_target_language(st.session_state, target_lang)
    sb = st.sidebar
    sb.header("BLEU settings")
    sb.selectbox(
        "Tokenizer",
        TOKENIZER_NAMES,
        key=K.OPT_TOKENIZE,
        format_func=lambda name: f"{name}",
        help="\n\n".join(f"**{n}**: {TOKENIZER_DESCRIPTIONS.get(n, '')}" for n in TOKENIZER_NAMES),
    )
    unsuitable = tokenizer_warning(st.session_state[K.OPT_TOKENIZE], target_lang)
    if unsuitable:  # a space-based tokenizer on a zh/ja/ko target
        sb.warning(unsuitable, icon=":material/warning:")
    col1, col2 = sb.columns(2)
    col1.number_input(
        "Max order N", min_value=1, max_value=MAX_ORDER_LIMIT, step=1, key=K.OPT_MAX_ORDER
    )
    col2.checkbox("Lowercase", key=K.OPT_LOWERCASE, help="Case-fold text before tokenising.")
    sb.text_input(
        "Weights",
        key=K.OPT_WEIGHTS,
        placeholder="uniform (1/N each)",
        help="Empty for the uniform 1/N of the paper, else N numbers summing to 1, e.g. 0.4, 0.3, 0.2, 0.1",
    )
    sb.radio(
        "Brevity-penalty reference length",
        REF_LENGTH_POLICIES,
        key=K.OPT_REF_LENGTH,
        horizontal=True,
        help="\n\n".join(f"**{n}**: {REF_LENGTH_HELP[n]}" for n in REF_LENGTH_POLICIES),
    )
    sb.selectbox(
        "Smoothing (sentence BLEU)",
        SMOOTHING_NAMES,
        key=K.OPT_SMOOTH,
        help="\n\n".join(f"**{n}**: {SMOOTH_HELP.get(n, '')}" for n in SMOOTHING_NAMES),
    )
    default_value = SMOOTH_DEFAULTS.get(st.session_state.get(K.OPT_SMOOTH, "exp"))
    sb.text_input(
        "Smoothing value",
        key=K.OPT_SMOOTH_VALUE,
        placeholder=f"default {default_value:g}"
        if default_value is not None
        else "method takes no value",
        disabled=default_value is None,
    )
    sb.checkbox(
        "Effective order (corpus BLEU)",
        key=K.OPT_EFFECTIVE_ORDER,
        help="Ignore n-gram orders a system's output has none of. Segment-level BLEU always uses "
        "effective order, as sacrebleu's sentence_bleu (its signature says eff:yes).",
    )
    refs: list[str] = list(streams if streams is not None else reference_names)
    if len(reference_names) > 1:
        st.session_state[K.OPT_REFERENCES] = picker_value(
            st.session_state.get(K.OPT_REFERENCES), refs, reference_names
        )
        sb.multiselect(
            "References",
            list(reference_names),
            key=K.OPT_REFERENCES,
            placeholder="the loader's choice",
            help="The human translations BLEU is computed against (choose all of them for "
            "multi-reference BLEU). The others become human systems with their own human scores, "
            "on every page. The loader's choice (WMT: reference A) is shown chosen after Reset; "
            "emptied, the loader's choice is used again.",
        )
    sb.button(
        "Reset to defaults",
        on_click=_reset_options,
        help="Every setting back to its default: sacrebleu's BLEU settings, the loader's references, "
        "all domains, seed and resamples, human translations, the criterion.",
    )
    options, problems = options_from_state(st.session_state)
    for problem in problems:
        sb.warning(problem)
    # Inline code in a caption, not st.code: st.code loads a 1.5 MB syntax highlighter in the browser
    # and re-highlights on every settings change, on every page. One element, not a label and a value:
    # the sidebar is redrawn on every re-run of every page.
    sb.caption(
        f"Signature: `{make_signature(options, refs or 1)}`  \nSegment level: "
        f"`{segment_signature(options, refs or 1)}`"
    )
    return options, refs
