"""A campaign's ratings and error spans in the field's formats: Appraise's ESA CSV and Pearmut-style JSONL.

**Appraise ESA CSV** (:func:`esa_csv`): the export WMT24 publishes and
:mod:`bleu_core.study.formats.esa` reads, twelve columns without header, one row per (judge, item):
judge, system, line, ``TGT`` (``BAD`` for an attention check, whose document id ends ``#bad``), the language
codes in ISO 639-3, the 0-100 score, the document id (``...#tutorial`` for a tutorial item), ``False``, the
spans as JSON (``start_i``/``end_i`` character offsets, ``"missing"`` for an omission; severity), and the
first and last rating time in Unix seconds. ``line`` is the segment's index in the study plus *line_offset*
(1 for a WMT24 release, whose line 0 is the canary line). The texts are written verbatim, for programs: the
reader gets back exactly what the judges gave (a spreadsheet is not the target of this format).

**JSONL** (:func:`campaign_jsonl`), as the Pearmut-style tools exchange annotations: one JSON object per line
and (judge, item), with the texts, the scores of every criterion and the spans, so a campaign of any protocol
can be archived or read by another tool; :func:`read_campaign_jsonl` reads it back.

>>> from datetime import datetime, UTC
>>> from bleu_core.campaigns.model import Item, StoredRating
>>> t = datetime(2024, 8, 20, tzinfo=UTC)
>>> items = [Item(0, "s1", "A", "the cat sat")]
>>> rows = [StoredRating("K7P2QX", "Ana", "g", 0, "s1", "A", "esa", 70, t, t)]
>>> spans = [StoredSpan("K7P2QX", "Ana", "g", 0, "s1", "A", MarkedSpan(4, 7, "major"))]
>>> print(esa_csv(items, rows, spans, segment_ids=["s1"], pair="en-de").strip())
Ana,A,0,TGT,eng,deu,70,K7P2QX,False,"[{""start_i"": 4, ""end_i"": 7, ""severity"": ""major"", ""error_type"": null}]",1724112000.0,1724112000.0
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Mapping, Sequence
from typing import Any

from bleu_core.campaigns.model import CampaignError, Item, StoredRating
from bleu_core.campaigns.protocols import MarkedSpan, StoredSpan
from bleu_core.study.formats.esa import ISO_639_3

#: Two-letter language codes → the ISO 639-3 codes Appraise writes (the first code of each language).
ISO_639_1_TO_3: dict[str, str] = {}
for _three, _two in ISO_639_3.items():
    ISO_639_1_TO_3.setdefault(_two, _three)


def _language(code: str) -> str:
    return ISO_639_1_TO_3.get(code, code)


def _span_json(span: MarkedSpan) -> dict[str, Any]:
    if span.missing:
        return {
            "start_i": "missing",
            "end_i": "missing",
            "severity": span.severity,
            "error_type": None,
        }
    return {"start_i": span.start, "end_i": span.end, "severity": span.severity, "error_type": None}


def _by_judge_item(
    ratings: Sequence[StoredRating], spans: Sequence[StoredSpan]
) -> tuple[dict[tuple[str, int], list[StoredRating]], dict[tuple[str, int], list[MarkedSpan]]]:
    scores: dict[tuple[str, int], list[StoredRating]] = {}
    for r in ratings:
        scores.setdefault((r.judge, r.position), []).append(r)
    marks: dict[tuple[str, int], list[MarkedSpan]] = {}
    for s in spans:
        marks.setdefault((s.judge, s.position), []).append(s.span)
    return scores, marks


def esa_csv(
    items: Sequence[Item],
    ratings: Sequence[StoredRating],
    spans: Sequence[StoredSpan],
    *,
    segment_ids: Sequence[str],
    pair: str,
    criterion: str = "esa",
    line_offset: int = 0,
    documents: Mapping[str, str] | None = None,
) -> str:
    """Appraise's ESA CSV of a campaign (see the module docstring). *segment_ids* are the study's segments
    in file order, *pair* its language pair (``en-de``), *documents* a document id per segment (default: the
    campaign code). Only the ratings of *criterion* are written (an ESA campaign's ``esa``)."""
    source, _, target = pair.partition("-")
    if not target:
        raise CampaignError(f"language pair {pair!r} is not of the form xx-yy (e.g. en-de)")
    line_of = {seg: i + line_offset for i, seg in enumerate(segment_ids)}
    by_position = {it.position: it for it in items}
    scores, marks = _by_judge_item([r for r in ratings if r.criterion == criterion], spans)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    for (judge, position), rows in sorted(scores.items()):
        item = by_position[position]
        if item.segment_id not in line_of:
            raise CampaignError(
                f"segment {item.segment_id!r} of item {position} is not in the study; export with the "
                "study the campaign was made from"
            )
        doc = (documents or {}).get(item.segment_id) or rows[0].campaign_code
        kind = "TGT"
        if item.kind == "attention":
            kind, doc = "BAD", f"{doc}#bad"
        elif item.kind == "tutorial":
            doc = f"{doc}#tutorial"
        writer.writerow(
            [
                judge, item.system, line_of[item.segment_id], kind, _language(source),
                _language(target), rows[0].score, doc, "False",
                json.dumps([_span_json(s) for s in marks.get((judge, position), [])]),
                min(r.created_at for r in rows).timestamp(),
                max(r.updated_at for r in rows).timestamp(),
            ]
        )  # fmt: skip
    return out.getvalue()


def campaign_jsonl(
    items: Sequence[Item], ratings: Sequence[StoredRating], spans: Sequence[StoredSpan]
) -> str:
    """One JSON object per (judge, item): ``user_id``, ``group``, ``item_id`` (position), ``kind``,
    ``segment_id``, ``system``, ``src``, ``tgt``, ``scores`` ``{criterion: score}``, ``error_spans``
    (``start_i``, ``end_i``, ``severity``; ``"missing"`` offsets for an omission), ``campaign_id``."""
    by_position = {it.position: it for it in items}
    scores, marks = _by_judge_item(ratings, spans)
    lines = []
    for (judge, position), rows in sorted(scores.items()):
        item = by_position[position]
        record = {
            "campaign_id": rows[0].campaign_code,
            "user_id": judge,
            "group": rows[0].group,
            "item_id": position,
            "kind": item.kind,
            "segment_id": item.segment_id,
            "system": item.system,
            "src": item.source,
            "tgt": item.translation,
            "scores": {r.criterion: r.score for r in rows},
            "error_spans": [_span_json(s) for s in marks.get((judge, position), [])],
        }
        lines.append(json.dumps(record, ensure_ascii=False))
    return "".join(line + "\n" for line in lines)


def read_campaign_jsonl(text: str, file: str = "campaign.jsonl") -> list[dict[str, Any]]:
    """The records of :func:`campaign_jsonl` text, spans as :class:`MarkedSpan`; a line that is not such a
    record is a :class:`CampaignError` naming *file* and the line.

    >>> read_campaign_jsonl('{"user_id": "Ana"}', "x.jsonl")
    Traceback (most recent call last):
    ...
    bleu_core.campaigns.model.CampaignError: x.jsonl, line 1: missing 'item_id', 'scores', 'error_spans'
    """
    records = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise CampaignError(f"{file}, line {number}: not JSON ({exc.msg})") from None
        missing = [k for k in ("user_id", "item_id", "scores", "error_spans") if k not in record]
        if missing:
            raise CampaignError(
                f"{file}, line {number}: missing {', '.join(repr(k) for k in missing)}"
            )
        record["error_spans"] = [
            MarkedSpan(None, None, s["severity"], True)
            if s["start_i"] == "missing"
            else MarkedSpan(s["start_i"], s["end_i"], s["severity"])
            for s in record["error_spans"]
        ]
        records.append(record)
    return records
