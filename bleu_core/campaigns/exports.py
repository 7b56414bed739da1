"""A campaign's ratings and error spans in the field's formats: Appraise's ESA CSV and Pearmut's JSONL log.

**Appraise ESA CSV** (:func:`esa_csv`): the export WMT24 publishes and
:mod:`bleu_core.study.formats.esa` reads, twelve columns without header, one row per (judge, item):
judge, system, line, ``TGT`` (``BAD`` for an attention check, whose document id ends ``#bad``), the language
codes in ISO 639-3, the 0-100 score, the document id (``...#tutorial`` for a tutorial item), ``False``, the
spans as JSON (``start_i``/``end_i`` character offsets, ``"missing"`` for an omission; severity), and the
first and last rating time in Unix seconds. ``line`` is the segment's index in the study plus *line_offset*
(1 for a WMT24 release, whose line 0 is the canary line). The judge, system and document columns hold text
typed by strangers, so by default (``guard_formulas=True``) a piece of them that a spreadsheet would run as a
formula gets a ``'`` in front (:func:`bleu_core.csv_safety.neutralize_cell`); plain names are unchanged, so
the WMT24 reader reads the file back as it was. ``guard_formulas=False`` writes them verbatim.

**JSONL** (:func:`campaign_jsonl`) in the shape of Pearmut's annotation log (Zouhar & Kocmi 2026,
``github.com/zouharvi/pearmut``: ``server/app.py`` appends each ``/log-response`` payload, plus ``user_id``
and ``item_i``, to ``data/outputs/<campaign_id>.jsonl``; the types are ``CandidateResponse`` and ``ErrorSpan``
in ``web/src/utils.ts``; ``examples/annotated_cache/data/outputs/*.jsonl`` are real logs). One line per
(judge, item)::

    {"annotation": [{"<system>": {"score": 70, "error_spans": [{"start_i": 4, "end_i": 6,
      "category": null, "severity": "major"}], "textfield": null}}],
     "actions": [{"time": 1724112000.0, "action": "submit"}],
     "item": [{"item_id": "<segment id>", "src": "...", "ref": "...", "tgt": {"<system>": "..."},
               "kind": "test"}],
     "user_id": "<judge>", "item_i": <position>, "campaign_id": "<code>", "group": "<group>"}

Pearmut's item is a document of segments, each with a translation per model; ours is one segment and one
system. ``score`` is the one criterion's score; a campaign with several criteria (adequacy and fluency) gives
``"score": null`` and ``"sliders": {criterion: score}`` as Pearmut's custom sliders do. Pearmut counts span
offsets in its own way (:func:`pearmut_units`: UTF-16 code units, line breaks counted, ``end_i``
inclusive; an omission is marked on the ``[missing]`` token right after the text); the export converts our
character offsets to them and :func:`read_campaign_jsonl` back. ``kind`` (an item key), ``campaign_id`` and
``group`` are ours (Pearmut keeps any extra key in its log; it names the file after the campaign).
``actions`` holds the times of the first and last submission (we do not record when an item was opened).

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
from bleu_core.csv_safety import neutralize_cell
from bleu_core.errors import InputError
from bleu_core.io.cells import json_cell
from bleu_core.io.text import split_lines
from bleu_core.study.formats.esa import ISO_639_3
from bleu_core.study.formats.pearmut import utf16_starts

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
    guard_formulas: bool = True,
) -> str:
    """Appraise's ESA CSV of a campaign (see the module docstring). *segment_ids* are the study's segments
    in file order, *pair* its language pair (``en-de``), *documents* a document id per segment (default: the
    campaign code). Only the ratings of *criterion* are written (an ESA campaign's ``esa``). With
    *guard_formulas* (the default) the judge, system and document cells cannot start a spreadsheet formula.

    >>> from datetime import datetime, UTC
    >>> t = datetime(2024, 8, 20, tzinfo=UTC)
    >>> rows = [StoredRating("K7P2QX", '=HYPERLINK("http://x")', "g", 0, "s1", "A", "esa", 70, t, t)]
    >>> print(esa_csv([Item(0, "s1", "A", "cat")], rows, [], segment_ids=["s1"], pair="en-de")[:29])
    "'=HYPERLINK(""http://x"")",A
    """
    source, _, target = pair.partition("-")
    if not target:
        raise CampaignError(f"language pair {pair!r} is not of the form xx-yy (e.g. en-de)")
    line_of = {seg: i + line_offset for i, seg in enumerate(segment_ids)}
    by_position = {it.position: it for it in items}
    scores, marks = _by_judge_item([r for r in ratings if r.criterion == criterion], spans)
    text = (lambda v: neutralize_cell(v, keep_numbers=False)) if guard_formulas else str
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
                text(judge), text(item.system), line_of[item.segment_id], kind, _language(source),
                _language(target), rows[0].score, text(doc), "False",
                json.dumps([_span_json(s) for s in marks.get((judge, position), [])]),
                min(r.created_at for r in rows).timestamp(),
                max(r.updated_at for r in rows).timestamp(),
            ]
        )  # fmt: skip
    return out.getvalue()


def pearmut_units(text: str) -> list[int]:
    r"""Pearmut's index of each character offset of *text* (and of its end), as its annotation screen counts
    (:func:`bleu_core.study.formats.pearmut.utf16_starts`): one unit per UTF-16 code unit, a line break
    included (drawn as ``<br>``, it keeps its index); the index at the end is where ``[missing]`` stands.

    >>> pearmut_units("a\nb😀c")
    [0, 1, 2, 3, 5, 6]
    """
    return utf16_starts(text)


def pearmut_span(span: MarkedSpan, text: str) -> dict[str, Any]:
    """*span* as a Pearmut error span: ``start_i`` and ``end_i`` (inclusive) in :func:`pearmut_units`, an
    omission on the ``[missing]`` token after the text; no MQM ``category``.

    >>> pearmut_span(MarkedSpan(4, 7, "major"), "the cat sat")
    {'start_i': 4, 'end_i': 6, 'category': None, 'severity': 'major'}
    >>> pearmut_span(MarkedSpan(None, None, "minor", True), "the cat sat")
    {'start_i': 11, 'end_i': 11, 'category': None, 'severity': 'minor'}
    """
    units = pearmut_units(text)
    if span.missing:
        start = end = units[-1]
    else:
        start, end = units[span.start or 0], units[span.end or 0] - 1
    return {"start_i": start, "end_i": end, "category": None, "severity": span.severity}


def campaign_jsonl(
    items: Sequence[Item], ratings: Sequence[StoredRating], spans: Sequence[StoredSpan]
) -> str:
    """The campaign as Pearmut's annotation log (see the module docstring): one line per (judge, item)."""
    by_position = {it.position: it for it in items}
    scores, marks = _by_judge_item(ratings, spans)
    lines = []
    for (judge, position), rows in sorted(scores.items()):
        item = by_position[position]
        given = {r.criterion: r.score for r in rows}
        answer: dict[str, Any] = {"score": next(iter(given.values())) if len(given) == 1 else None}
        if len(given) > 1:
            answer["sliders"] = given
        answer["error_spans"] = [
            pearmut_span(s, item.translation) for s in marks.get((judge, position), [])
        ]
        answer["textfield"] = None
        shown: dict[str, Any] = {"item_id": item.segment_id}
        if item.source is not None:
            shown["src"] = item.source
        if item.reference is not None:
            shown["ref"] = item.reference
        shown |= {"tgt": {item.system: item.translation}, "kind": item.kind}
        first, last = min(r.created_at for r in rows), max(r.updated_at for r in rows)
        actions = [{"time": first.timestamp(), "action": "submit"}]
        if last != first:
            actions.append({"time": last.timestamp(), "action": "submit"})
        record = {
            "annotation": [{item.system: answer}],
            "actions": actions,
            "item": [shown],
            "user_id": judge,
            "item_i": position,
            "campaign_id": rows[0].campaign_code,
            "group": rows[0].group,
        }
        lines.append(json.dumps(record, ensure_ascii=False))
    return "".join(line + "\n" for line in lines)


def _from_pearmut(raw: Any, text: str, where: str) -> MarkedSpan:
    """A Pearmut error span of *text* as a :class:`MarkedSpan` (the inverse of :func:`pearmut_span`)."""
    if not isinstance(raw, dict) or not {"start_i", "end_i", "severity"} <= raw.keys():
        raise CampaignError(f"{where}: an error span needs start_i, end_i and severity")
    severity = str(raw["severity"] or "").lower()
    if severity not in ("minor", "major"):
        raise CampaignError(
            f"{where}: error span severity {raw['severity']!r} is not minor or major (ESA's severities)"
        )
    units = pearmut_units(text)
    start, end = raw["start_i"], raw["end_i"]
    if start == end == units[-1]:
        return MarkedSpan(None, None, severity, True)
    at = {u: o for o, u in enumerate(units[:-1]) if units[o + 1] > u}
    at |= {u + 1: o for o, u in enumerate(units[:-1]) if units[o + 1] - u == 2}
    if (
        not (isinstance(start, int) and isinstance(end, int) and start in at and end in at)
        or end < start
    ):
        raise CampaignError(
            f"{where}: error span {start!r}-{end!r} lies outside the translation, whose characters are "
            f"0-{units[-1] - 1} ({units[-1]} marks [missing])"
        )
    return MarkedSpan(at[start], at[end] + 1, severity)


def _records_of_line(record: dict[str, Any], where: str, criterion: str) -> list[dict[str, Any]]:
    """One record per (document item, system) of a Pearmut log line."""
    out = []
    for shown, answers in zip(record["item"], record["annotation"], strict=False):
        if not isinstance(shown, dict) or not isinstance(answers, dict):
            continue  # a form item (a question to the annotator) or a skipped one: no rating
        for system, answer in answers.items():
            text = (shown.get("tgt") or {}).get(system)
            if text is None or not isinstance(answer, dict):
                raise CampaignError(f"{where}: no translation of system {system!r} in the item")
            scores = dict(answer.get("sliders") or {})
            if answer.get("score") is not None:
                scores[criterion] = answer["score"]
            out.append(
                {
                    "user_id": record["user_id"], "item_i": record["item_i"],
                    "item_id": shown.get("item_id"), "system": system, "src": shown.get("src"),
                    "ref": shown.get("ref"), "tgt": text, "kind": shown.get("kind", "test"),
                    "group": record.get("group"), "campaign_id": record.get("campaign_id"),
                    "scores": scores,
                    "error_spans": [_from_pearmut(s, text, where) for s in answer.get("error_spans") or []],
                }
            )  # fmt: skip
    return out


def read_campaign_jsonl(
    text: str, file: str = "campaign.jsonl", criterion: str = "esa"
) -> list[dict[str, Any]]:
    """The ratings in a Pearmut annotation log (ours from :func:`campaign_jsonl`, or Pearmut's own
    ``data/outputs/<campaign>.jsonl``): one record per judge, item and system, with ``user_id``, ``item_i``,
    ``item_id``, ``system``, ``src``, ``ref``, ``tgt``, ``kind``, ``group``, ``campaign_id``, ``scores``
    (``{criterion: score}``, Pearmut's ``score`` under *criterion*, its custom ``sliders`` under their names)
    and ``error_spans`` (:class:`MarkedSpan`, our character offsets). Pearmut's reset markers and form items
    are no ratings and are passed over; a line that is not a log entry is a :class:`CampaignError` naming
    *file* and the line.

    >>> read_campaign_jsonl('{"user_id": "Ana"}', "x.jsonl")
    Traceback (most recent call last):
    ...
    bleu_core.campaigns.model.CampaignError: x.jsonl, line 1: missing 'item_i', 'item', 'annotation'
    """
    records = []
    # lines end at "\n" only: a text may hold U+2028 or a form feed, which json.dumps(ensure_ascii=False) writes
    # as they are and str.splitlines would split on
    for number, line in enumerate(split_lines(text), start=1):
        if not line.strip():
            continue
        where = f"{file}, line {number}"
        try:
            record = json_cell(line, file=None, line=None, expected="one log entry (a JSON object)")
        except InputError as exc:
            raise CampaignError(f"{where}: {exc.message}") from None
        if not isinstance(record, dict):
            raise CampaignError(f"{where}: not a JSON object")
        if "annotation" in record and not isinstance(record["annotation"], list):
            continue  # Pearmut's reset marker (its annotation is a marker, not a list): no rating
        missing = [k for k in ("user_id", "item_i", "item", "annotation") if k not in record]
        if missing:
            raise CampaignError(f"{where}: missing {', '.join(repr(k) for k in missing)}")
        records.extend(_records_of_line(record, where, criterion))
    return records
