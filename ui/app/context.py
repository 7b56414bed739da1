"""What every page needs: the open study, the current BLEU options, scores under them, captions, downloads.

Pages call these helpers instead of touching session state or the caches directly, so a page stays a short
script: read widgets, call the core, render.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import nullcontext
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np
import streamlit as st

from bleu_core.engine.options import MAX_ORDER_LIMIT, BleuOptions
from bleu_core.engine.score import BleuArrays, bleu_from_stats
from bleu_core.engine.segment_level import segment_signature, sentence_options
from bleu_core.engine.signature import (
    analysis_signature,
    interval_field,
    make_signature,
    reference_field,
)
from bleu_core.engine.statistics import N_LENGTH_COLUMNS
from bleu_core.errors import BleuStudyError
from bleu_core.study import Study
from bleu_core.study.model import LoadWarning
from bleu_core.study.output_rows import missing_note, output_mask, study_corpus_bleu
from ui.app import chart_images, demos, domains, shared_cache
from ui.app import references as reference_choice
from ui.app import state as K
from ui.app.export import export_stem
from ui.app.markup import md_escape
from ui.app.settings import options_from_state

DEFAULT_DEMO = "ted-en-de"
STATISTICS_ORDER = MAX_ORDER_LIMIT + 1
"""Statistics are counted up to this order (the highest max order, +1 for Chen & Cherry's smoothing 5 and
7): every max order is a column slice, so changing it never counts anew. On the demo study order 10 costs
a tenth more than order 4 (33 vs 30 ms with ``13a``)."""


@dataclass(frozen=True)
class Scores:
    """The open study scored under the current settings.

    Attributes:
        study: the study; key: its cache key.
        options: the BLEU options; signature: corpus BLEU's signature (the references by name).
        references: the reference streams used.
        systems: system names (study order; rows of every array below).
        stats: statistics array ``(systems, segments, 4 + 2N)`` for exactly the options' statistics order.
        corpus: corpus BLEU of each system (:class:`bleu_core.engine.score.BleuArrays`, leading shape ``(systems,)``).
        sentence: segment BLEU of each system and segment (leading shape ``(systems, segments)``): sentence
            BLEU as sacrebleu's ``sentence_bleu`` (effective order, :mod:`bleu_core.engine.segment_level`), scored
            when first read (a page that shows corpus BLEU only never scores the sentences).

    The arrays are read-only: they are stored once per settings and shared by every page and session
    (:data:`ui.app.shared_cache.SCORES`), so a page re-run after a settings change seen before scores
    nothing.
    """

    study: Study
    key: str
    options: BleuOptions
    signature: str
    references: tuple[str, ...]
    systems: tuple[str, ...]
    stats: np.ndarray
    corpus: BleuArrays
    store_key: tuple[Any, ...] = field(default=(), repr=False, compare=False)
    """Where the sentence scores are stored (empty: scored for this object only)."""

    def system_index(self, system: str) -> int:
        return self.systems.index(system)

    @cached_property
    def sentence(self) -> BleuArrays:
        def score() -> BleuArrays:  # segment BLEU: sacrebleu's sentence_bleu (effective order)
            return bleu_from_stats(self.stats, sentence_options(self.options))

        if not self.store_key:
            return score()
        return shared_cache.stored_scores(("sentence", *self.store_key), score)

    @property
    def segment_signature(self) -> str:
        """The signature of :attr:`sentence` (``eff:yes``, the references by name)."""
        return segment_signature(self.options, self.references)


def under_app_test() -> bool:
    """Whether this run is Streamlit's ``AppTest`` (no background threads then: tests stay deterministic).

    AppTest patches :func:`streamlit.config.get_option`, not its alias ``st.get_option`` (which keeps
    answering False), so the option is read through the config module.
    """
    from streamlit import config

    return bool(config.get_option("global.appTest"))


def ensure_entrypoint() -> None:
    """Re-run through ``app.py`` when Streamlit started a page without it.

    With a ``pages/`` folder next to the entry point, Streamlit runs the very first request after a
    server start in its legacy multipage mode when that request is a deep link (``/explore``): the page
    script runs alone, without the session set-up and sidebar of ``app.py``. Switching the legacy mode
    off and re-running makes ``app.py`` (and its ``st.navigation``) handle the request.
    """
    if st.session_state.get(K.READY):
        return
    from streamlit.runtime.pages_manager import PagesManager

    PagesManager.uses_pages_directory = False
    st.rerun()


def current_study() -> Study | None:
    """The open study (the view for the sidebar's reference choice), or None.

    app.py calls it first thing on every run: a page starts drawing, and statistics counted ahead of
    time step aside meanwhile (:data:`ui.app.shared_cache.ACTIVITY`)."""
    shared_cache.ACTIVITY.page_started()
    ensure_entrypoint()
    sync_references()
    return st.session_state.get(K.STUDY)


def require_study() -> Study:
    """The open study restricted to the sidebar's domain (:mod:`ui.app.domains`; the whole study when
    it has no domains or "all domains" is chosen); stops the page with a hint when there is none."""
    return analysis_view().study


def analysis_view() -> domains.DomainView:
    """The study the analysis pages show (the open study, restricted to the sidebar's domain) and its
    cache key; stops the page with a hint when no study is open."""
    study = current_study()
    if study is None:
        st.info("No study is open. Open the demo or upload your data on the **Study** page.")
        st.stop()
    key = st.session_state.get(K.STUDY_KEY) or study.name
    return domains.domain_view(st.session_state, study, key)


def current_key() -> str:
    """The cache key of :func:`require_study`'s study (the open study's key, plus its domain)."""
    return analysis_view().key


def current_options() -> BleuOptions:
    """The BLEU options set in the sidebar (invalid parts replaced by defaults)."""
    return options_from_state(st.session_state)[0]


def current_references(study: Study | None = None) -> tuple[str, ...]:
    """The reference streams in use: those of the open study, which is the view for the sidebar's
    reference choice (:mod:`ui.app.references`)."""
    study = study or require_study()
    return tuple(study.references)


def sync_references() -> bool:
    """Make the open study the view for the sidebar's reference choice (app.py, every run; no file is
    read: see :mod:`ui.app.references`). True when the open study changed."""
    return reference_choice.sync_reference_choice(st.session_state)


def reference_pool() -> list[str]:
    """The open study's human translations that the sidebar's reference picker offers."""
    return reference_choice.reference_pool_in(st.session_state)


def truncate_order(array: np.ndarray, from_order: int, to_order: int) -> np.ndarray:
    """Statistics columns for orders 1..``to_order`` out of an array counted up to ``from_order``.

    >>> a = np.arange(12.0).reshape(1, 12)          # N = 4: 4 length columns, 4 matches, 4 totals
    >>> truncate_order(a, 4, 2).tolist()
    [[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 8.0, 9.0]]
    """
    if to_order == from_order:
        return array
    n = N_LENGTH_COLUMNS
    cols = [*range(n), *range(n, n + to_order), *range(n + from_order, n + from_order + to_order)]
    return array[..., cols]


def study_statistics(
    study: Study, key: str, references: tuple[str, ...], options: BleuOptions
) -> tuple[shared_cache.SystemStatistics, np.ndarray]:
    """Statistics for these settings and the array cut to the options' statistics order.

    When the tokenizer, lowercasing or references were new (statistics counted now), the other tokenizers
    are counted in the background (:func:`ui.app.shared_cache.count_ahead`; not under AppTest) so that
    the next tokenizer change finds its statistics ready.
    """
    order = options.statistics_order
    counted = max(order, STATISTICS_ORDER)
    settings = (key, references, options.tokenize, options.lowercase, counted)
    new = not shared_cache.statistics_ready(*settings)
    stats = _counted(study, settings, new)
    if new and not under_app_test():
        shared_cache.count_ahead(key, study, references, options.lowercase, counted)
    if order == counted:
        return stats, stats.array
    cut = shared_cache.stored_scores(
        ("cut", *settings, order), lambda: truncate_order(stats.array, counted, order)
    )
    return stats, cut


def _counted(
    study: Study, settings: tuple[str, tuple[str, ...], str, bool, int], new: bool
) -> shared_cache.SystemStatistics:
    """The stored statistics of ``settings``; counted now (``new``) with a progress bar."""
    key, references, tokenize, lowercase, counted = settings
    # Always the same placeholder, filled only when counting: an element that appears only sometimes would
    # shift every later element of the page, and the browser would draw its charts anew instead of
    # updating them in place (tests/browser/test_browser.py checks it).
    slot = st.empty()
    what = (
        f"{len(study.systems)} systems × {study.n_segments:,} segments, tokenizer "
        f"{tokenize}{', lower-cased' if lowercase else ''}"
    )

    def show(done: int, total: int, message: str) -> None:
        slot.progress(min(1.0, done / total) if total else 0.0, text=f"{message} ({what})…")

    if new:  # seconds on a large study: a bar that moves, saying what is being counted
        show(0, 1, "Counting n-grams: starting")
    stats = shared_cache.system_statistics(
        key, study, references, tokenize, lowercase, counted, progress=show if new else None
    )
    if new:
        slot.empty()
    return stats


def count_current_statistics() -> None:
    """Have the open study's statistics for the sidebar's settings counted in the background (app.py on the
    Study page, which draws no scores; not under AppTest): see
    :func:`ui.app.shared_cache.count_current`."""
    study = current_study()
    if study is None or under_app_test():
        return
    options = current_options()
    key = st.session_state.get(K.STUDY_KEY) or study.name
    counted = max(options.statistics_order, STATISTICS_ORDER)
    references = current_references(study)
    shared_cache.count_current(key, study, references, options.tokenize, options.lowercase, counted)


def current_scores() -> Scores:
    """Corpus and sentence BLEU of every system of the open study under the current settings."""
    view = analysis_view()
    study, key = view.study, view.key
    options = current_options()
    references = current_references(study)
    _, array = study_statistics(view.base, view.base_key, references, options)
    if view.domain is not None:  # the domain's rows of the open study's statistics: nothing counted
        whole = array
        array = shared_cache.stored_scores(
            ("domain", key, references, options.tokenize, options.lowercase, whole.shape[-1]),
            lambda: whole[:, view.positions],
        )
    shared_cache.ACTIVITY.page_started()  # the page draws now: counting ahead steps aside
    store_key = (key, references, options)
    return Scores(
        study=study,
        key=key,
        options=options,
        signature=make_signature(options, references),
        references=references,
        systems=tuple(study.systems),
        stats=array,
        corpus=shared_cache.stored_scores(
            ("corpus", *store_key),
            lambda: study_corpus_bleu(array, output_mask(study), options),
        ),
        store_key=store_key,
    )


def signature_caption(signature: str | None = None, *, prefix: str = "BLEU signature") -> None:
    """A caption with the signature of the current settings (show it with every score)."""
    if signature is None:
        study = current_study()
        refs: Sequence[str] | int = current_references(study) if study is not None else 1
        signature = make_signature(current_options(), refs)
    if "`" in signature:  # a backtick in a name would end the code span: escape the text instead
        st.caption(f"{prefix}: {md_escape(signature)}")
    else:
        st.caption(f"{prefix}: `{signature}`")
    if prefix == "BLEU signature":
        missing_outputs_caption()


def missing_outputs_caption() -> None:
    """Under corpus BLEU: which systems' BLEU counts fewer segments than the study has, and how a missing
    output is counted (:func:`bleu_core.study.output_rows.missing_note`); nothing when none lacks any."""
    if st.session_state.get(K.STUDY) is None:
        return
    view = analysis_view()
    note = shared_cache.stored_scores(
        ("missing-outputs", view.key), lambda: missing_note(view.study)
    )
    if note:
        st.caption(md_escape(note))


def analysis_caption(
    scores: Scores,
    systems: Sequence[str],
    *,
    metric: str = "BLEU",
    criterion: str | None = None,
    ci: Any = None,
    prefix: str = "Analysis signature",
) -> str:
    """Show, under a result, the one-line signature of everything that changes its numbers, and return it:
    :func:`bleu_core.engine.signature.analysis_signature` of ``scores``' BLEU signature (``metric:<name>`` for
    another metric), the ``systems`` it is computed on (human translations in or out), the ``criterion``,
    and ``ci``: the interval, as ``(method, resamples, seed)`` for :func:`interval_field`, an object with
    ``interval_method``, ``n_resamples`` and ``seed`` (a correlation result), a ready ``ci:`` string, or
    None (no ``ci`` field). The sidebar's domain, when one is chosen, is its ``domain:`` field."""
    from bleu_core.evaluation.study_meta import systems_entering  # on use: stats is not light

    human = scores.study.human_systems
    if ci is not None and not isinstance(ci, (tuple, str)):
        ci = (ci.interval_method, ci.n_resamples, ci.seed)
    entering = systems_entering(scores.study, systems, criterion)  # rated on the criterion
    signature = analysis_signature(
        scores.signature if metric == "BLEU" else f"metric:{reference_field([metric])}",
        systems=len(entering),
        human_included=bool(set(entering) & set(human)) if human else None,
        criterion=criterion,
        interval=interval_field(*ci) if isinstance(ci, tuple) else ci,
        domain=analysis_view().domain,
    )
    signature_caption(signature, prefix=prefix)
    if aside := [s for s in systems if s not in set(entering)]:
        st.caption(f"systems:{len(entering)} counts the systems rated on {criterion} (they enter the "
                   f"numbers); set aside (no {criterion} rating): {md_escape(', '.join(aside))}")  # fmt: skip
    return signature


def file_stem(name: str) -> str:
    """A safe file-name stem.

    >>> file_stem("BLEU vs human: MQM (all raters)")
    'bleu-vs-human-mqm-all-raters'
    """
    return export_stem(name)


def _register(kind: str, name: str, value: Any) -> None:
    registry = st.session_state.setdefault(K.EXPORT_REGISTRY, {})
    registry[(kind, name)] = value


def _download_row() -> Any:
    """A row for download buttons: one horizontal container (three fewer elements than columns)."""
    return st.container(horizontal=True, gap="small")


def chart_downloads(chart: Any, name: str) -> None:
    """PNG and SVG download buttons for an altair chart (built and rendered only when clicked), and its
    numbers as a CSV table (the chart's text alternative, one click away).

    The chart is also registered for the reproducible export zip.
    """
    stem = file_stem(name)
    _register("chart", stem, chart)
    row = _download_row()
    row.download_button(
        "PNG",
        data=lambda: chart_images.chart_png(chart.to_json()),
        file_name=f"{stem}.png",
        mime="image/png",
        key=f"dl-png-{stem}",
        on_click="ignore",
        icon=":material/download:",
    )
    row.download_button(
        "SVG",
        data=lambda: chart_images.chart_svg(chart.to_json()),
        file_name=f"{stem}.svg",
        mime="image/svg+xml",
        key=f"dl-svg-{stem}",
        on_click="ignore",
        icon=":material/download:",
    )
    row.download_button(
        "Chart data (CSV)",
        data=lambda: chart_table_csv(chart),
        file_name=f"{stem}-data.csv",
        mime="text/csv",
        key=f"dl-chart-data-{stem}",
        on_click="ignore",
        icon=":material/table_view:",
    )


def vega_lite_spec(
    chart: Any, *, stable: bool = False, subtitle: bool = True
) -> dict[str, Any] | None:
    """The Vega-Lite spec Streamlit would draw for an altair chart, without altair's schema validation.

    ``st.altair_chart`` calls ``chart.to_dict()``, which validates the whole spec against the Vega-Lite
    JSON schema on every call: 20-60 ms per chart on every re-run of a page. The app's charts are
    fixed code, validated by the tests (tests/app/test_app_charts.py); here they are converted exactly as
    Streamlit converts them (its Arrow data transformer and "none" theme, under its lock) with
    ``validate=False``. None when this Streamlit has no such internals: the caller falls back to
    ``st.altair_chart``.

    ``stable``: name the datasets by position (``data-0``, …) instead of by a hash of their content, so
    that the spec stays the same when only the numbers change (as long as nothing else in it does). The
    browser then swaps the chart's data in place instead of building the chart again (Vega parses and
    compiles the spec anew whenever it changes: 15-25 ms per chart on every settings change).
    ``subtitle=False`` leaves out the title's subtitle (for a subtitle with numbers in it).
    """
    try:
        from streamlit.elements.vega_charts import _altair_globals_lock, _to_arrow_dataset
    except ImportError:  # pragma: no cover - depends on the Streamlit version
        return None
    import altair as alt
    from streamlit import type_util

    themes = alt.themes if type_util.is_altair_version_less_than("5.5.0") else alt.theme
    datasets: dict[str, Any] = {}
    alt.data_transformers.register("to_arrow_dataset", _to_arrow_dataset)
    with _altair_globals_lock:
        theme = themes.enable("none") if themes.active == "default" else nullcontext()
        with theme, alt.data_transformers.enable("to_arrow_dataset", datasets=datasets):
            spec = chart.to_dict(validate=False)
    datasets = {**(spec.get("datasets") or {}), **datasets}
    if stable:
        names = {old: f"data-{k}" for k, old in enumerate(datasets)}
        datasets = {names[old]: data for old, data in datasets.items()}
        spec = _renamed_data(spec, names)
    if not subtitle and isinstance(spec.get("title"), dict):
        spec["title"] = {k: v for k, v in spec["title"].items() if k != "subtitle"}
    spec["datasets"] = datasets
    return spec


def _renamed_data(node: Any, names: dict[str, str]) -> Any:
    """``node`` with every ``{"data": {"name": old}}`` reference renamed by ``names``.

    >>> _renamed_data({"data": {"name": "a1"}, "layer": [{"data": {"name": "b2"}}]}, {"a1": "d0", "b2": "d1"})
    {'data': {'name': 'd0'}, 'layer': [{'data': {'name': 'd1'}}]}
    """
    if isinstance(node, list):
        return [_renamed_data(item, names) for item in node]
    if not isinstance(node, dict):
        return node
    out = {}
    for key, value in node.items():
        if key == "data" and isinstance(value, dict) and value.get("name") in names:
            value = {**value, "name": names[value["name"]]}
        elif key != "datasets":
            value = _renamed_data(value, names)
        out[key] = value
    return out


def show_chart(chart: Any, name: str, *, stable: bool = False, subtitle: bool = True) -> None:
    """Draw an altair chart with its PNG/SVG downloads below.

    ``stable=True`` keeps the spec on screen the same across re-runs that change only the chart's data,
    so the browser updates the chart in place (:func:`vega_lite_spec`); ``subtitle=False`` leaves a
    subtitle with changing numbers off the screen (the page shows them beside the chart). The downloads
    and the export zip keep the whole chart, subtitle included.
    """
    spec = vega_lite_spec(chart, stable=stable, subtitle=subtitle)
    if spec is None:  # pragma: no cover - depends on the Streamlit version
        st.altair_chart(chart, width="stretch")
    else:
        st.vega_lite_chart(spec=spec, width="stretch")
    chart_downloads(chart, name)


def chart_frames(chart: Any) -> list[Any]:
    """The pandas frames an altair chart draws: its own data and its layers' and panels' (each once)."""
    import pandas as pd

    frames: list[Any] = []
    stack = [chart]
    while stack:
        part = stack.pop(0)
        data = getattr(part, "data", None)
        if isinstance(data, pd.DataFrame) and not any(data is f for f in frames):
            frames.append(data)
        for attr in ("layer", "hconcat", "vconcat", "concat"):
            stack.extend(getattr(part, attr, None) or [])
        spec = getattr(part, "spec", None)
        if spec is not None and not isinstance(spec, dict):
            stack.append(spec)
    return frames


def chart_table_csv(chart: Any) -> str:
    """The numbers a chart draws as one CSV table: the chart's text alternative (WCAG 1.1.1) for a reader
    who does not see it. Several frames (a scatter and its fitted line) are stacked, ``part`` naming each."""
    import pandas as pd

    from ui.app.export import frame_to_csv

    frames = chart_frames(chart)
    if len(frames) == 1:
        return frame_to_csv(frames[0])
    stacked = pd.concat(
        [f.assign(part=k + 1) for k, f in enumerate(frames)], ignore_index=True, sort=False
    )
    return frame_to_csv(stacked)


def table_downloads(frame: Any, name: str, *, caption: str = "") -> None:
    """CSV and LaTeX download buttons for a pandas DataFrame (registered for the export zip too)."""
    from ui.app.export import frame_to_csv, frame_to_latex

    stem = file_stem(name)
    _register("table", stem, (frame, caption))
    row = _download_row()
    row.download_button(
        "CSV",
        data=lambda: frame_to_csv(frame),
        file_name=f"{stem}.csv",
        mime="text/csv",
        key=f"dl-csv-{stem}",
        on_click="ignore",
        icon=":material/download:",
    )
    row.download_button(
        "LaTeX",
        data=lambda: frame_to_latex(frame, caption=caption),
        file_name=f"{stem}.tex",
        mime="application/x-tex",
        key=f"dl-tex-{stem}",
        on_click="ignore",
        icon=":material/download:",
    )


def open_study(
    study: Study,
    *,
    key: str,
    label: str,
    warnings: Sequence[LoadWarning | str] = (),
    inputs: list[dict[str, Any]] | tuple[dict[str, Any], ...] = (),
) -> None:
    """Make ``study`` the open study (resets page selections that refer to the previous one).

    ``study`` is the base of the sidebar's reference choice, which starts at the loader's choice (its
    reference streams); give the loader's :class:`LoadWarning` objects, so that a warning depending on
    the choice is replaced when the choice changes.
    """
    state = st.session_state
    reference_choice.open_record(state, study, key=key, warnings=warnings)
    state[K.STUDY_LABEL] = label
    state[K.STUDY_INPUTS] = list(inputs)
    state[K.STUDY_ERROR] = None
    state[K.EXPORT_REGISTRY] = {}
    for stale in (
        K.EXPLORE_SYSTEMS,
        K.EXPLORE_DOCS,
        K.EXPLORE_CRITERION,
        K.BVH_CRITERION,
        K.CRITERION,
        K.BVH_GROUPS,
    ):
        state.pop(stale, None)
    state[K.EXPLORE_SEGMENT] = None
    state[K.EXPLORE_PAGE] = 1


def demo_inputs(name: str) -> list[dict[str, Any]]:
    """Name, size and sha256 of the bundled file behind a demo (empty when it cannot be found)."""
    from bleu_core.study import demo
    from ui.app.export import sha256_bytes

    try:
        path = demo.demo_path(name)
        data = path.read_bytes()
    except (BleuStudyError, OSError):
        return []
    return [{"name": path.name, "bytes": len(data), "sha256": sha256_bytes(data)}]


def open_demo(name: str) -> None:
    """Open a bundled demo study (a :class:`BleuStudyError` reaches the caller)."""
    study = demos.demo_study(name)
    open_study(study, key=f"demo:{name}", label=f"demo “{name}”", inputs=demo_inputs(name))
