"""The sidebar's reference choice: which human translations of the open study are reference streams.

A study is opened once (:func:`ui.app.context.open_study`) as its loader left it: the *base*. Its loader kept
every human translation's text and human scores (``metadata["all_references"]``, see
:mod:`bleu_core.study.reference_choice`), so any other choice of references is a *view* built by
:func:`~bleu_core.study.reference_choice.choose_references` without reading a file again. The view becomes the
open study (``state[STUDY]``) under a key of its own, so every page, cache, statistic, chart, signature and
export follows the choice; views are kept on the session's :class:`OpenedStudy` record, so switching back is
free. The human translations left out of the choice are human systems of the view.

>>> from bleu_core.study.model import Criterion, Rating, Segment, Study
>>> base = Study(
...     name="toy", segments=(Segment("1"),),
...     references={"ref-A": ["a cat"]}, systems={"mt": ["cat"], "ref-B": ["the cat"]},
...     human_systems=frozenset({"ref-B"}),
...     criteria={"da": Criterion("da", scale=(0.0, 100.0))},
...     ratings=(Rating("mt", "1", None, None, "da", 40.0), Rating("ref-B", "1", None, None, "da", 90.0)),
...     metadata={"all_references": ["ref-A", "ref-B"], "reference_ratings": []},
... )
>>> state = {}
>>> study_key = "upload:1"
>>> opened = open_record(state, base, key=study_key, warnings=("a load warning",))
>>> opened.pool, state["opt_references"], state["study_key"]
(['ref-A', 'ref-B'], ['ref-A'], 'upload:1')
>>> state["opt_references"] = ["ref-A", "ref-B"]          # the user picks both in the sidebar
>>> sync_reference_choice(state)
True
>>> list(state["study"].references), list(state["study"].systems), state["study_key"]
(['ref-A', 'ref-B'], ['mt'], 'upload:1|references=ref-A,ref-B')
>>> state["study_warnings"]                                # ref-B's own DA cannot be studied now
['a load warning', 'human scores of ref-B (1 da) were set aside: ref-B is a reference stream, ...]
>>> state["opt_references"] = []                           # nothing chosen: the study as loaded
>>> sync_reference_choice(state), state["study"] is base, state["study_key"]
(True, True, 'upload:1')
"""

from __future__ import annotations

from collections.abc import MutableMapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bleu_core.study import Study
from bleu_core.study.model import LoadWarning
from bleu_core.study.reference_choice import choose_references, reference_names
from ui.app import state as K

SET_ASIDE = "reference-ratings-set-aside"
"""Code of the warning that depends on the choice (a reference stream's own human scores)."""

SYSTEM_SELECTIONS = (
    K.EXPLORE_SYSTEMS,
    K.EXPLORE_FOCUS_SYSTEM,
    K.EXPLORE_NGRAM_SYSTEM,
    K.SIG_PAIR,
    K.MET_EXPLORER_SYSTEM,
)
"""Page selections naming systems: forgotten when a switch of references changes the systems."""


@dataclass
class OpenedStudy:
    """The open study as loaded (``base``), its cache key and load warnings, and the views built so far.

    ``choice`` and ``view`` are the reference streams in use and the study for them (``base`` itself when
    the choice is the loader's own).
    """

    base: Study
    key: str
    warnings: tuple[LoadWarning | str, ...]
    choice: tuple[str, ...]
    view: Study
    views: dict[tuple[str, ...], tuple[Study, tuple[LoadWarning, ...]]] = field(
        default_factory=dict
    )

    @property
    def pool(self) -> list[str]:
        """Every human translation that can be a reference stream, in release order."""
        return reference_names(self.base)

    @property
    def default(self) -> tuple[str, ...]:
        """The loader's choice (the base's own reference streams), in pool order."""
        pool = self.pool
        return tuple([r for r in pool if r in self.base.references] or self.base.references)

    def wanted(self, selected: Sequence[str] | None) -> tuple[str, ...]:
        """The choice ``selected`` means: its names in pool order; nothing chosen means the default."""
        chosen = tuple(r for r in self.pool if r in (selected or ()))
        return chosen or self.default

    def view_for(self, choice: tuple[str, ...]) -> tuple[Study, tuple[LoadWarning, ...]]:
        """The study with ``choice`` as its reference streams and that choice's warnings (cached)."""
        if set(choice) == set(self.default):
            return self.base, ()
        if choice not in self.views:
            result = choose_references(self.base, list(choice))
            self.views[choice] = (result.study, result.warnings)
        return self.views[choice]

    def key_for(self, choice: tuple[str, ...]) -> str:
        """The cache key of the view: the base's key, plus the choice when it is not the loader's."""
        if set(choice) == set(self.default):
            return self.key
        return f"{self.key}|references={','.join(choice)}"

    def warnings_for(
        self, choice: tuple[str, ...], view_warnings: Sequence[LoadWarning]
    ) -> list[str]:
        """The load warnings for ``choice``: those that depend on the choice come from its view."""
        if set(choice) == set(self.default):
            return [str(w) for w in self.warnings]
        kept = [w for w in self.warnings if getattr(w, "code", None) != SET_ASIDE]
        return [str(w) for w in (*kept, *view_warnings)]


def open_record(
    state: MutableMapping[str, Any],
    study: Study,
    *,
    key: str,
    warnings: Sequence[LoadWarning | str] = (),
) -> OpenedStudy:
    """Record ``study`` as the open study's base and make it the open study with the loader's choice."""
    opened = OpenedStudy(study, key, tuple(warnings), (), study)
    opened.choice = opened.default
    state[K.STUDY_OPENED] = opened
    state[K.STUDY] = study
    state[K.STUDY_KEY] = key
    state[K.STUDY_WARNINGS] = [str(w) for w in warnings]
    state[K.OPT_REFERENCES] = list(opened.choice) if len(opened.pool) > 1 else []
    return opened


def opened_study(state: MutableMapping[str, Any]) -> OpenedStudy | None:
    """The record of the open study; a study put into ``state[STUDY]`` directly (a campaign's ratings
    applied, a test) becomes the base of a new record, with its references as the choice."""
    study = state.get(K.STUDY)
    if study is None:
        return None
    opened = state.get(K.STUDY_OPENED)
    if isinstance(opened, OpenedStudy) and opened.view is study:
        return opened
    key = str(state.get(K.STUDY_KEY) or study.name)
    opened = OpenedStudy(study, key, tuple(state.get(K.STUDY_WARNINGS) or ()), (), study)
    opened.choice = opened.default
    state[K.STUDY_OPENED] = opened
    selected = [r for r in (state.get(K.OPT_REFERENCES) or []) if r in opened.pool]
    if set(selected) != set(opened.choice):
        state[K.OPT_REFERENCES] = list(opened.choice) if len(opened.pool) > 1 else []
    return opened


def sync_reference_choice(state: MutableMapping[str, Any]) -> bool:
    """Make the open study the view for the sidebar's choice (``state[OPT_REFERENCES]``).

    Returns True when the open study changed; page selections naming systems are then forgotten
    (:data:`SYSTEM_SELECTIONS`).
    """
    opened = opened_study(state)
    if opened is None:
        return False
    choice = opened.wanted(state.get(K.OPT_REFERENCES))
    if choice == opened.choice:
        return False
    view, view_warnings = opened.view_for(choice)
    opened.choice, opened.view = choice, view
    state[K.STUDY] = view
    state[K.STUDY_KEY] = opened.key_for(choice)
    state[K.STUDY_WARNINGS] = opened.warnings_for(choice, view_warnings)
    state[K.EXPORT_REGISTRY] = {}
    for key in SYSTEM_SELECTIONS:
        state.pop(key, None)
    return True


def reference_pool_in(state: MutableMapping[str, Any]) -> list[str]:
    """The human translations the sidebar's reference picker offers (empty without a study)."""
    opened = opened_study(state)
    return opened.pool if opened is not None else []
