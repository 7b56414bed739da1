"""A Pearmut campaign imported as a bleu-study ESA campaign: its items, its annotators as judges, their ratings.

The Pearmut files are read as :mod:`bleu_core.study.formats.pearmut` reads them (resets, last submission,
quality-control items apart, judges who failed their checks left out unless kept). The campaign has one item
per (segment, system) of Pearmut's items, protocol ``esa``, the judges' group ``pearmut``; each annotator joins
under their Pearmut id and their scores and spans are saved as if rated here, so the Campaigns page's
quality, agreement and "Use these ratings in the analyses" work on them. What an ESA campaign here cannot
hold is counted in the import's notes, not silently dropped: a score that is not a whole number from 0 to
100, a span on a special token other than ``[missing]`` (``[instructions fault]``...), a severity other than
minor or major.

>>> from bleu_core.campaigns.storage import CampaignStore
>>> from bleu_core.study.formats.pearmut_study import PearmutFiles
>>> log = ('{"annotation": [{"A": {"score": 70, "error_spans": [{"start_i": 4, "end_i": 6, "severity": "major"}]}}], '
...        '"item": [{"item_id": "s1", "src": "le chat", "ref": "the cat", "tgt": {"A": "the dog"}}], '
...        '"user_id": "ann", "item_i": 0}')
>>> got = import_pearmut(CampaignStore("sqlite://"), PearmutFiles((), (("log.jsonl", log),)), name="demo")
>>> got.n_ratings, got.notes
(1, ())
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from bleu_core.campaigns.model import CampaignError
from bleu_core.campaigns.planning import plan_campaign, with_protocol
from bleu_core.campaigns.protocols import SEVERITIES, MarkedSpan
from bleu_core.campaigns.storage import CampaignCreated, CampaignStore
from bleu_core.study.formats.pearmut import PearmutAnswer
from bleu_core.study.formats.pearmut_study import (
    PearmutFiles,
    pearmut_segments,
    read_pearmut_files,
)

__all__ = ["PEARMUT_GROUP", "PearmutImport", "import_pearmut"]

#: The group every imported annotator joins.
PEARMUT_GROUP = "pearmut"


@dataclass(frozen=True)
class PearmutImport:
    """The imported campaign (with its organiser key), how many ratings were saved, and notes on what was
    not (the reader's warnings first)."""

    created: CampaignCreated
    n_ratings: int
    notes: tuple[str, ...]


def _marks(answer: PearmutAnswer, skipped: dict[str, int]) -> list[MarkedSpan]:
    out = []
    for s in answer.spans:
        severity = s.severity.lower()
        if severity not in SEVERITIES or s.category not in ("Error", "Omission"):
            what = (
                f"span severity {s.severity!r}"
                if severity not in SEVERITIES
                else f"{s.category!r} span"
            )
            skipped[what] = skipped.get(what, 0) + 1
            continue
        missing = s.category == "Omission"
        out.append(
            MarkedSpan(None if missing else s.start, None if missing else s.end, severity, missing)
        )
    return out


def import_pearmut(
    store: CampaignStore, files: PearmutFiles, *, name: str | None = None, keep: Iterable[str] = ()
) -> PearmutImport:
    """Create an ESA campaign in *store* from Pearmut *files* (see the module docstring)."""
    got = read_pearmut_files(files, keep)
    segs = pearmut_segments(files, got.answers + got.set_aside)
    ids = list(segs)
    systems = sorted({s for e in segs.values() for s in e["tgt"]})
    if not ids or not systems:
        raise CampaignError("the Pearmut files hold no item to import")
    cid = str(files.campaigns[0]["campaign_id"]) if files.campaigns else "pearmut"
    has_src = any(e["src"] for e in segs.values())
    has_ref = any(e["ref"] for e in segs.values())
    plan = plan_campaign(
        name=name or f"Pearmut {cid}", study_name=cid, segment_ids=ids,
        translations={s: [segs[i]["tgt"].get(s) for i in ids] for s in systems},
        sources=[segs[i]["src"] for i in ids] if has_src else None,
        references=[segs[i]["ref"] for i in ids] if has_ref else None,
        systems=systems, n_segments=len(ids), seed=0, groups=(PEARMUT_GROUP,),
        display={(True, True): "both", (True, False): "source", (False, True): "reference"}.get((has_src, has_ref), "neither"),  # fmt: skip
    )  # fmt: skip
    plan = with_protocol(plan, "esa")
    created = store.create_campaign(plan)
    code = created.campaign.code
    position = {(it.segment_id, it.system): it.position for it in plan.items}
    tokens: dict[str, str] = {}
    skipped: dict[str, int] = {}
    saved = 0
    for a in got.answers:
        score = a.scores.get("esa")
        if score is None or score != int(score) or not 0 <= score <= 100:
            skipped["score that is not a whole number from 0 to 100"] = skipped.get("score that is not a whole number from 0 to 100", 0) + 1  # fmt: skip
            continue
        if (a.item_id, a.system) not in position:
            skipped["rating of an item left out of the campaign"] = skipped.get("rating of an item left out of the campaign", 0) + 1  # fmt: skip
            continue
        if a.user not in tokens:
            tokens[a.user] = store.join(code, a.user, PEARMUT_GROUP).token
        store.rate(code, tokens[a.user], position[(a.item_id, a.system)], {"esa": int(score)}, _marks(a, skipped))  # fmt: skip
        saved += 1
    notes = tuple(w.message for w in (*files.notes, *got.warnings())) + tuple(f"not imported: {n} {what}(s)" for what, n in skipped.items())  # fmt: skip
    return PearmutImport(created, saved, notes)
