"""A study's or a campaign's items as a Pearmut campaign, and a campaign's ratings as the files Pearmut loads.

Pearmut 1.1.6 (PyPI ``pearmut``, WMT26's tool): ``pearmut add FILE`` takes a campaign object
(``cli._add_single_campaign``): ``campaign_id``, ``info`` (``assignment``, ``protocol``, ``users``,
``special_tokens``, ``shuffle``...) and ``data``; a *document* is a list of segments ``{"item_id", "src",
"ref", "tgt": {system: text}}``. Task-based ``data`` is one list of documents per user, single-stream and
dynamic ``data`` one shared list. ``data_welcome`` documents come first for every annotator (our tutorial
items), ``data_random`` documents are drawn in with probability ``info["data_random_prob"]`` (our attention
checks); their ``validation`` ({system: {"score": [lo, hi], "error_spans": [{"start_i": [a, b], "end_i":
[c, d]}]}}) is checked by Pearmut's page, which logs the outcome as ``validations``.

:func:`pearmut_campaign` writes that object: ``protocol="ESA"`` one document per (segment, system) item,
``"cESA"`` one per segment with every system of it side by side (contrastive); ``assignment``
``task-based`` (every user the same documents) or ``dynamic``. Expected spans become validations that
pass when the annotator's span overlaps them (start ≤ the expected end and end ≥ the expected start, in
Pearmut's units), an expected ``[missing]`` the token itself; an attention check passes when the swapped
phrase is marked (Pearmut cannot compare with the score of another item, which our own check also accepts).

:func:`pearmut_existing` writes the three files ``pearmut add-existing --campaigns --progress --annotations``
loads (``cli._add_existing``): the campaign as ``pearmut add`` stores it (task-based ``data`` keyed by
user), ``{campaign_id: {user: progress}}`` and ``{campaign_id: [log entries]}``, one entry per judge and
document with the judge's scores and spans in Pearmut's offsets (:func:`bleu_core.study.formats.pearmut.
to_pearmut`: UTF-16 units, line breaks counted, end inclusive, ``[missing]`` at the text's end).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bleu_core.campaigns.model import CampaignError, Item, StoredRating
from bleu_core.campaigns.protocols import MarkedSpan, StoredSpan
from bleu_core.study.formats.pearmut import (
    MISSING,
    WMT26_SPECIAL_TOKENS,
    to_pearmut,
    utf16_starts,
)

__all__ = [
    "PEARMUT_PROTOCOL",
    "pearmut_bundle",
    "pearmut_campaign",
    "pearmut_existing",
    "pearmut_span",
]

PROTOCOLS = ("ESA", "cESA")
ASSIGNMENTS = ("task-based", "dynamic")
#: Pearmut's protocol for a bleu-study campaign's (the campaigns whose ratings Pearmut can hold).
PEARMUT_PROTOCOL: dict[str, str] = {"esa": "ESA", "cesa": "cESA"}


def pearmut_span(span: MarkedSpan, text: str, tokens: Sequence[str] = WMT26_SPECIAL_TOKENS) -> dict[str, Any]:  # fmt: skip
    """*span* (characters of *text*, end exclusive, or an omission) as Pearmut logs it.

    >>> pearmut_span(MarkedSpan(2, 5, "major"), "ab😀\\ncd")  # the emoji (2 units), the line break, "c"
    {'start_i': 2, 'end_i': 5, 'category': None, 'severity': 'major'}
    >>> pearmut_span(MarkedSpan(None, None, "minor", True), "ab😀\\ncd")["start_i"]
    7
    """
    if span.missing:
        start, end = to_pearmut(len(text), len(text), text, "Omission", tokens)
    else:
        start, end = to_pearmut(span.start or 0, span.end or 0, text)
    return {"start_i": start, "end_i": end, "category": None, "severity": span.severity}


def _segment(item: Item, systems: Mapping[str, str], documents: Mapping[str, str] | None) -> dict[str, Any]:  # fmt: skip
    seg: dict[str, Any] = {"item_id": item.segment_id}
    if documents and item.segment_id in documents:
        seg["doc_id"] = documents[item.segment_id]
    if item.source is not None:
        seg["src"] = item.source
    if item.reference is not None:
        seg["ref"] = item.reference
    seg["tgt"] = dict(systems)
    return seg


def _validation(item: Item, tokens: Sequence[str]) -> dict[str, Any]:
    """Pearmut's validation rule for our tutorial or attention *item* (see the module docstring)."""
    qc = item.qc or {}
    expected = [MarkedSpan.from_dict(d) for d in qc.get("expected_spans", [])]
    if item.kind == "attention" and "start" in qc:
        expected = [MarkedSpan(int(qc["start"]), int(qc["end"]), "major")]
    units = utf16_starts(item.translation)
    spans: list[dict[str, Any]] = []
    for exp in expected:
        if exp.missing:
            at = units[-1] + list(tokens).index(MISSING)
            spans.append({"start_i": at, "end_i": at})
        else:
            first, last = units[exp.start or 0], units[exp.end or 0] - 1
            spans.append({"start_i": [0, last], "end_i": [first, units[-1] - 1]})
    rule: dict[str, Any] = {"error_spans": spans} if spans else {}
    score = (qc.get("scores") or {}).get("esa")
    if item.kind == "tutorial" and score is not None:
        rule["score"] = [score[0], score[1]]
    return {item.system: rule}


def _documents(items: Sequence[Item], protocol: str, documents: Mapping[str, str] | None) -> list[list[dict[str, Any]]]:  # fmt: skip
    """One document per item (ESA) or per segment with all its systems (cESA), in the items' order."""
    if protocol == "ESA":
        return [[_segment(it, {it.system: it.translation}, documents)] for it in items]
    grouped: dict[str, list[Item]] = {}
    for it in items:
        grouped.setdefault(it.segment_id, []).append(it)
    return [[_segment(group[0], {it.system: it.translation for it in group}, documents)] for group in grouped.values()]  # fmt: skip


def pearmut_campaign(
    items: Sequence[Item],
    *,
    campaign_id: str,
    users: Sequence[str] | int,
    protocol: str = "ESA",
    assignment: str = "task-based",
    special_tokens: Sequence[str] = WMT26_SPECIAL_TOKENS,
    documents: Mapping[str, str] | None = None,
    data_random_prob: float = 0.1,
    token: str | None = None,
) -> dict[str, Any]:
    """The campaign object ``pearmut add`` accepts for *items* (test, tutorial and attention items of a
    bleu-study campaign or plan; see the module docstring). *users* are the annotators' ids (task-based:
    each gets every document) or how many Pearmut should name; *documents* a document id per segment."""
    if protocol not in PROTOCOLS:
        raise CampaignError(f"protocol {protocol!r}: write one of {', '.join(PROTOCOLS)}")
    if assignment not in ASSIGNMENTS:
        raise CampaignError(f"assignment {assignment!r}: write one of {', '.join(ASSIGNMENTS)}")
    if assignment == "task-based" and isinstance(users, int):
        raise CampaignError("a task-based Pearmut campaign needs the annotators' ids (users=[...])")
    tests = [it for it in items if it.kind == "test"]
    if not tests:
        raise CampaignError("no test item to write: the campaign has only quality-control items")
    docs = _documents(tests, protocol, documents)
    info: dict[str, Any] = {
        "assignment": assignment, "protocol": protocol, "special_tokens": list(special_tokens),
        "shuffle": False, "users": users if isinstance(users, int) else list(users),
    }  # fmt: skip
    campaign: dict[str, Any] = {"campaign_id": campaign_id, "info": info}
    if assignment == "task-based":
        campaign["data"] = [docs for _ in users]  # type: ignore[union-attr]
    else:
        systems = {s for d in docs for s in d[0]["tgt"]}
        if any(set(d[0]["tgt"]) != systems for d in docs):
            raise CampaignError("a dynamic Pearmut campaign needs every system on every segment (cESA over a full grid)")  # fmt: skip
        campaign["data"] = docs
        info["dynamic_models"] = min(2, len(systems))
    for kind, key in (("tutorial", "data_welcome"), ("attention", "data_random")):
        qc = [it for it in items if it.kind == kind]
        if qc:
            campaign[key] = [[_segment(it, {it.system: it.translation}, documents) | {"validation": _validation(it, special_tokens)}] for it in qc]  # fmt: skip
    if "data_random" in campaign:
        info["data_random_prob"] = float(data_random_prob)
    if token is not None:
        campaign["token"] = token
    return campaign


def _user_tasks(campaign: Mapping[str, Any]) -> dict[str, list[list[dict[str, Any]]]]:
    users = campaign["info"]["users"]
    data = campaign["data"]
    if isinstance(data, dict):
        return {str(u): list(t) for u, t in data.items()}
    return {str(u): list(t) for u, t in zip(users, data, strict=True)}


def _entry(judge: str, item_i: int | str, doc: list[dict[str, Any]], given: Mapping[str, tuple[list[StoredRating], list[MarkedSpan]]], tokens: Sequence[str]) -> dict[str, Any]:  # fmt: skip
    seg = doc[0]
    answers = {}
    times: list[float] = []
    for system, (rows, marks) in given.items():
        text = seg["tgt"][system]
        answers[system] = {
            "score": rows[0].score,
            "error_spans": [pearmut_span(m, text, tokens) for m in marks],
            "textfield": None,
        }
        times += [r.created_at.timestamp() for r in rows] + [r.updated_at.timestamp() for r in rows]
    actions = [{"time": min(times), "action": "load"}, {"time": max(times), "action": "submit"}]
    return {
        "annotation": [answers],
        "actions": actions,
        "item": doc,
        "user_id": judge,
        "item_i": item_i,
    }


_Key = tuple[str, str, str, str]  # judge, kind (test or tutorial), segment, system


def _by_item(
    ratings: Sequence[StoredRating],
    spans: Sequence[StoredSpan],
    criterion: str,
    users: Mapping[str, Any],
) -> tuple[dict[_Key, list[StoredRating]], dict[_Key, list[MarkedSpan]]]:
    """The ratings of *criterion* and the spans of test and tutorial items by judge, kind, segment and
    system (an attention check is a copy of a test item: its own kind keeps it apart)."""
    marks: dict[_Key, list[MarkedSpan]] = {}
    for s in spans:
        marks.setdefault((s.judge, s.kind, s.segment_id, s.system), []).append(s.span)
    given: dict[_Key, list[StoredRating]] = {}
    for r in ratings:
        if r.criterion == criterion and r.kind in ("test", "tutorial"):
            if r.judge not in users:
                raise CampaignError(f"judge {r.judge!r} is not a user of the Pearmut campaign; users: {', '.join(users)}")  # fmt: skip
            given.setdefault((r.judge, r.kind, r.segment_id, r.system), []).append(r)
    return given, marks


def pearmut_existing(
    campaign: Mapping[str, Any],
    ratings: Sequence[StoredRating],
    spans: Sequence[StoredSpan],
    *,
    criterion: str = "esa",
) -> tuple[list[dict[str, Any]], dict[str, Any], dict[str, Any]]:
    """The ``--campaigns``, ``--progress`` and ``--annotations`` contents of ``pearmut add-existing`` for a
    task-based *campaign* (from :func:`pearmut_campaign`) and the ratings of *criterion* and spans of the
    bleu-study campaign it was written from (test items, and tutorials as ``welcome_k`` entries); a judge
    must be one of the campaign's users. Attention checks are not written: Pearmut draws its own."""
    if campaign["info"]["assignment"] != "task-based":
        raise CampaignError("ratings can be written for a task-based Pearmut campaign only")
    cid, tokens = campaign["campaign_id"], campaign["info"]["special_tokens"]
    tasks = _user_tasks(campaign)
    stored = {**campaign, "data": tasks, "token": campaign.get("token", "bleu-study")}
    given, marks = _by_item(ratings, spans, criterion, tasks)
    entries, progress = [], {}
    for user, docs in tasks.items():
        welcome: list[str | None] = []
        done: list[str | None] = []
        pages = ((welcome, "tutorial", campaign.get("data_welcome", [])), (done, "test", docs))
        for done_list, kind, shown in pages:
            for i, doc in enumerate(shown):
                seg = doc[0]
                keys = {s: (user, kind, seg["item_id"], s) for s in seg["tgt"]}
                mine = {s: (given[k], marks.get(k, [])) for s, k in keys.items() if k in given}
                if mine:
                    entries.append(_entry(user, f"welcome_{i}" if kind == "tutorial" else i, doc, mine, tokens))  # fmt: skip
                done_list.append("completed" if len(mine) == len(seg["tgt"]) else None)
        progress[user] = {
            "progress": done, "progress_welcome": welcome,
            "progress_goodbye": [], "time_start": None, "time_end": None, "time": 0,
            "url": f"annotate?campaign_id={cid}&user_id={user}", "token_correct": f"{user}-pass",
            "token_incorrect": f"{user}-fail", "note": None,
        }  # fmt: skip
    return [stored], {cid: progress}, {cid: entries}


def pearmut_bundle(
    items: Sequence[Item],
    ratings: Sequence[StoredRating],
    spans: Sequence[StoredSpan],
    *,
    campaign_id: str,
    protocol: str = "ESA",
) -> bytes:
    """A zip of ``campaign.json`` (for ``pearmut add``: every judge who rated is a user, else one user
    ``annotator-1``) and ``campaigns.json``, ``progress.json``, ``annotations.json`` (for ``pearmut
    add-existing --campaigns campaigns.json --progress progress.json --annotations annotations.json``)."""
    import io
    import json
    import zipfile

    users = sorted({r.judge for r in ratings}) or ["annotator-1"]
    campaign = pearmut_campaign(items, campaign_id=campaign_id, users=users, protocol=protocol)
    files: dict[str, Any] = {"campaign.json": campaign}
    if ratings:
        loaded, progress, annotations = pearmut_existing(campaign, ratings, spans)
        files |= {
            "campaigns.json": loaded,
            "progress.json": progress,
            "annotations.json": annotations,
        }
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, content in files.items():
            archive.writestr(name, json.dumps(content, ensure_ascii=False, indent=1))
    return out.getvalue()
