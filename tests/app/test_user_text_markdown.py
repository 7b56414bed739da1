"""Names from the study shown on a page are text: Markdown in them (an image, a link) is escaped, so nobody's
browser fetches an address written in a file."""

from __future__ import annotations

import dataclasses

from app_runs import page_alone

from bleu_core.study.demo import load_demo
from ui.app import state as K

PAYLOAD = "![x](https://tracker.example/p.png)"


def test_explore_names_a_system_without_an_output_as_text():
    full = load_demo("ted-en-de")
    names = list(full.systems)[:2]
    small = full.subset(names, 5)
    texts = {s: list(small.systems[s]) for s in names}
    texts[names[1]][0] = None  # no output of this system for the first segment
    renamed = {names[0]: texts[names[0]], PAYLOAD: texts[names[1]]}
    study = dataclasses.replace(small, systems=renamed, ratings=(), criteria={})
    at = page_alone(
        "explore.py",
        {
            K.STUDY: study,
            K.STUDY_KEY: "test:markdown-names",
            K.EXPLORE_SYSTEMS: [PAYLOAD],
            K.EXPLORE_SEGMENT: study.segment_ids[0],
            K.EXPLORE_FOCUS_SYSTEM: PAYLOAD,
        },
    )
    shown = [i.value for i in at.info]
    assert any("not in the release" in i for i in shown), shown
    assert not any(PAYLOAD in i for i in shown), shown
