"""The sidebar's domain choice: every analysis page on one domain of the study (WMT24+: news, social, speech,
literary), or on all of them.

A study whose segments name at least two domains gets a "Domain" select box in the sidebar (a study
without domains shows nothing new). The choice is a *view* of the open study
(:func:`bleu_core.study.granularity.restrict_to_domain`: the domain's segments, texts, segment ratings,
error spans, metric scores) under a cache key of its own (``<study key>|domain=<name>``), so every cache,
statistic, chart and export follows it. Views are built once per study and kept on the session's
:class:`DomainRecord`; a view's BLEU statistics are the open study's rows of its segments (statistics add up
by segment), so switching domains counts nothing.

>>> from bleu_core.study.model import Segment, Study
>>> study = Study("toy", (Segment("1", domain="news"), Segment("2", domain="speech")),
...               {"ref": ["a", "b"]}, {"mt": ["a", "c"]})
>>> state = {"opt_domain": "speech"}
>>> view = domain_view(state, study, "demo:toy")
>>> view.key, [s.id for s in view.study.segments], view.positions.tolist()
('demo:toy|domain=speech', ['2'], [1])
>>> state["opt_domain"] = ""                  # all domains: the open study itself
>>> domain_view(state, study, "demo:toy").study is study
True
"""

from __future__ import annotations

from collections.abc import MutableMapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import streamlit as st

from bleu_core.study import Study
from bleu_core.study.granularity import Grouping, grouping, restrict_to_domain
from ui.app import state as K

ALL_DOMAINS = ""
"""The select box's value for "all domains"."""

STALE_ON_SWITCH = (K.EXPLORE_SEGMENT, K.EXPLORE_PICKED)
"""Page selections naming segments: forgotten when the domain changes (the Explore page then shows the
first segment of the new domain)."""


@dataclass
class DomainRecord:
    """The open study's domains and the views built so far (``views[domain]``); ``shown`` is the domain of
    the last view handed out (``ALL_DOMAINS`` for the study itself)."""

    base: Study
    key: str
    groups: Grouping
    views: dict[str, Study] = field(default_factory=dict)
    shown: str = ALL_DOMAINS

    @property
    def names(self) -> tuple[str, ...]:
        """The study's domains in order of first appearance."""
        return self.groups.names

    def view(self, domain: str) -> Study:
        """The study restricted to ``domain`` (built once)."""
        if domain not in self.views:
            self.views[domain] = restrict_to_domain(self.base, domain)
        return self.views[domain]


@dataclass(frozen=True)
class DomainView:
    """What the analysis pages see: ``study`` under cache key ``key``; ``domain`` is None for the whole
    open study (``base``, key ``base_key``), else the domain, whose segments sit at ``positions`` of it."""

    study: Study
    key: str
    domain: str | None
    base: Study
    base_key: str
    positions: np.ndarray


def domain_record(state: MutableMapping[str, Any], study: Study, key: str) -> DomainRecord:
    """The session's record of ``study``'s domains (a new one when another study is open)."""
    record = state.get(K.DOMAIN_RECORD)
    if not isinstance(record, DomainRecord) or record.base is not study or record.key != key:
        record = DomainRecord(study, key, grouping(study.segments, "domain"))
        state[K.DOMAIN_RECORD] = record
    return record


def chosen_domain(state: MutableMapping[str, Any], record: DomainRecord) -> str | None:
    """The sidebar's domain when it is one of the study's (and there are at least two), else None."""
    domain = state.get(K.OPT_DOMAIN) or ALL_DOMAINS
    return domain if len(record.names) > 1 and domain in record.names else None


def domain_view(state: MutableMapping[str, Any], study: Study, key: str) -> DomainView:
    """The open ``study`` (cache key ``key``) restricted to the sidebar's domain."""
    record = domain_record(state, study, key)
    domain = chosen_domain(state, record)
    if (domain or ALL_DOMAINS) != record.shown:  # segments of another domain are not in this view
        record.shown = domain or ALL_DOMAINS
        for stale in STALE_ON_SWITCH:
            state.pop(stale, None)
        docs = state.get(K.EXPLORE_DOCS)
        if docs:
            kept = {s.doc_id for s in (record.view(domain) if domain else study).segments}
            state[K.EXPLORE_DOCS] = [d for d in docs if d in kept]
        state[K.EXPLORE_PAGE] = 1
        state[K.EXPORT_REGISTRY] = {}
    if domain is None:
        return DomainView(study, key, None, study, key, np.arange(study.n_segments))
    return DomainView(
        record.view(domain),
        f"{key}|domain={domain}",
        domain,
        study,
        key,
        record.groups.positions(domain),
    )


def study_domains(state: MutableMapping[str, Any], study: Study, key: str) -> tuple[str, ...]:
    """The domains of the open study (empty when fewer than two: nothing to choose or compare)."""
    names = domain_record(state, study, key).names
    return names if len(names) > 1 else ()


def render_domain_choice(study: Study | None, key: str | None) -> None:
    """The sidebar's "Domain" select box, for a study with at least two domains (else nothing)."""
    if study is None:
        return
    state = st.session_state
    names = study_domains(state, study, key or study.name)
    if not names:
        return
    if state.get(K.OPT_DOMAIN) not in (ALL_DOMAINS, *names):  # a domain of another study
        state[K.OPT_DOMAIN] = ALL_DOMAINS
    st.sidebar.selectbox(
        "Domain",
        (ALL_DOMAINS, *names),
        key=K.OPT_DOMAIN,
        format_func=lambda name: name or "all domains",
        help="Restrict every analysis page to the segments of one domain (WMT reports human scores "
        "and rankings per domain). All domains: the Corpus and BLEU vs human pages show the domains "
        "side by side.",
    )
