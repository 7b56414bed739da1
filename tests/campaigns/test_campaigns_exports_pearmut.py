"""The JSONL export in Pearmut's annotation-log shape (``bleu_core/campaigns/exports.py``): a round trip that keeps
every score and span, Pearmut's own span offsets (UTF-16 units, line breaks counted, ``end_i``
inclusive, ``[missing]`` after the text), lines as Pearmut itself writes them, and a clear message for each
kind of bad line.

Pearmut's shape, from ``github.com/zouharvi/pearmut``: ``server/app.py`` (``/log-response`` appends the
payload plus ``user_id`` and ``item_i``), ``web/src/utils.ts`` (``CandidateResponse``, ``ErrorSpan``,
``contentToCharSpans``), ``examples/annotated_cache/data/outputs/example_singlestream.jsonl`` (a real log).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from bleu_core.campaigns.exports import campaign_jsonl, pearmut_span, read_campaign_jsonl
from bleu_core.campaigns.model import CampaignError, Item, StoredRating
from bleu_core.campaigns.protocols import MarkedSpan, StoredSpan

T0 = datetime(2024, 8, 20, tzinfo=UTC)
T1 = datetime(2024, 8, 20, 0, 1, tzinfo=UTC)
# "Straße" (6), " ", "😀" (one character, two UTF-16 units), " da", a line break, "ist gut"
TRICKY = "Straße 😀 da\nist gut"
ITEMS = [
    Item(0, "s1", "A", TRICKY, source="Street 😀 there\nis good", reference="Straße da"),
    Item(1, "s2", "B", "the cat sat", source=None, kind="tutorial"),
]


def rating(judge: str, position: int, criterion: str, score: int, **kw) -> StoredRating:
    item = ITEMS[position]
    return StoredRating(
        "K7P2QX", judge, "bilingual", position, item.segment_id, item.system, criterion, score,
        kw.get("created", T0), kw.get("updated", T0), kind=item.kind,
    )  # fmt: skip


def span(judge: str, position: int, marked: MarkedSpan) -> StoredSpan:
    item = ITEMS[position]
    return StoredSpan(
        "K7P2QX", judge, "bilingual", position, item.segment_id, item.system, marked, item.kind
    )


def test_pearmut_offsets_count_utf16_units_and_line_breaks():
    # worked out by hand from contentToCharSpans (Pearmut 1.1.6 web/src/utils.ts: data-i is the JavaScript
    # offset in the raw text): the emoji (character 7) takes two units, 7 and 8, so "da" (characters 9-10) is
    # 10-11 (end_i inclusive); the line break (character 11) keeps its unit 12, so "ist" (characters 12-14)
    # is 13-15; the emoji alone is 7-8
    assert pearmut_span(MarkedSpan(9, 11, "minor"), TRICKY) == {
        "start_i": 10, "end_i": 11, "category": None, "severity": "minor",
    }  # fmt: skip
    assert [
        pearmut_span(MarkedSpan(a, b, "major"), TRICKY)["end_i"] for a, b in ((12, 15), (7, 8))
    ] == [15, 8]
    # [missing] stands after the last unit: 19 characters + 1 for the emoji = 20
    missing = pearmut_span(MarkedSpan(None, None, "minor", True), TRICKY)
    assert (missing["start_i"], missing["end_i"]) == (20, 20)


def test_a_campaign_round_trips_through_pearmuts_shape():
    ratings = [
        rating("Ana", 0, "esa", 70, updated=T1),
        rating("Ana", 1, "esa", 15),
        rating("Zoë", 0, "esa", 100),
    ]
    spans = [
        span("Ana", 0, MarkedSpan(0, 6, "major")),  # "Straße"
        span("Ana", 0, MarkedSpan(7, 8, "minor")),  # the emoji
        span("Ana", 0, MarkedSpan(12, 15, "minor")),  # "ist", after the line break
        span("Ana", 0, MarkedSpan(None, None, "major", True)),
        span("Ana", 1, MarkedSpan(4, 7, "minor")),
    ]
    text = campaign_jsonl(ITEMS, ratings, spans)
    lines = [json.loads(line) for line in text.splitlines()]
    assert len(lines) == 3
    first = lines[0]
    assert {"annotation", "actions", "item", "user_id", "item_i"} <= set(first)
    assert set(first["annotation"][0]["A"]) == {"score", "error_spans", "textfield"}
    assert all(
        set(s) == {"start_i", "end_i", "category", "severity"}
        for s in first["annotation"][0]["A"]["error_spans"]
    )
    assert first["item"][0]["tgt"] == {"A": TRICKY} and first["item"][0]["ref"] == "Straße da"
    assert [a["time"] for a in first["actions"]] == [T0.timestamp(), T1.timestamp()]
    assert "src" not in lines[1]["item"][0]  # the tutorial item was shown without a source
    records = {(r["user_id"], r["item_i"]): r for r in read_campaign_jsonl(text)}
    assert {k: r["scores"] for k, r in records.items()} == {
        ("Ana", 0): {"esa": 70}, ("Ana", 1): {"esa": 15}, ("Zoë", 0): {"esa": 100},
    }  # fmt: skip
    for stored in spans:
        assert stored.span in records[(stored.judge, stored.position)]["error_spans"]
    assert len(records[("Ana", 0)]["error_spans"]) == 4
    assert records[("Ana", 1)]["kind"] == "tutorial" and records[("Zoë", 0)]["error_spans"] == []
    assert records[("Ana", 0)]["tgt"] == TRICKY and records[("Ana", 0)]["system"] == "A"


def test_several_criteria_go_to_pearmuts_custom_sliders():
    ratings = [rating("Ana", 1, "adequacy", 4), rating("Ana", 1, "fluency", 2)]
    (line,) = campaign_jsonl(ITEMS, ratings, []).splitlines()
    answer = json.loads(line)["annotation"][0]["B"]
    assert answer["score"] is None and answer["sliders"] == {"adequacy": 4, "fluency": 2}
    (record,) = read_campaign_jsonl(line)
    assert record["scores"] == {"adequacy": 4, "fluency": 2}


# Lines as Pearmut writes them: a reset marker, a skipped tutorial (score null), a two-segment document
# scored by one model (from examples/annotated_cache/data/outputs/example_singlestream.jsonl, texts
# shortened), and an ESA line with a span (the span of data/outputs/annotation_demo_esa.jsonl, 11-16, on a
# text of ours whose characters 11-16 are "schön ").
PEARMUT_LOG = "\n".join(
    json.dumps(line, ensure_ascii=False)
    for line in [
        {"annotation": "RESET", "user_id": "adventurous-going-189", "item_i": 3},
        {
            "annotation": [{"B": {"score": None, "error_spans": [], "textfield": None}}],
            "actions": [{"time": 1771315361.894, "action": "load"},
                        {"time": 1771315367.041, "action": "submit_skip"}],
            "item": [{"item_id": "tutorial_1", "src": "The quick brown fox.",
                      "tgt": {"B": "Hbitá hnědá liška."}, "skippable": True}],
            "user_id": "adventurous-going-189", "item_i": "welcome_0",
        },
        {
            "annotation": [{"ONLINE-W": {"score": 35, "error_spans": [], "textfield": None}},
                           {"ONLINE-W": {"score": 33, "error_spans": [], "textfield": None}}],
            "actions": [{"time": 1771315377.413, "action": "load"},
                        {"time": 1771315382.15, "action": "submit"}],
            "item": [{"item_id": "cs-de_DE_#_dialogue_#_SNG0991_#_0", "src": "Hledáte místo k pobytu.",
                      "tgt": {"ONLINE-W": "Sie suchen eine Unterkunft."}},
                     {"item_id": "cs-de_DE_#_dialogue_#_SNG0991_#_1", "src": "X: Ahoj.",
                      "tgt": {"ONLINE-W": "X: Hallo."}}],
            "user_id": "adventurous-going-189", "item_i": 15,
        },
        {
            "annotation": [{"GPT-4": {"score": 85, "error_spans": [
                {"start_i": 11, "end_i": 16, "category": None, "severity": "minor"}]}}],
            "actions": [{"time": 1705680000, "type": "focus"}, {"time": 1705680045, "type": "submit"}],
            "item": [{"item_id": "0", "src": "The weather is nice.",
                      "tgt": {"GPT-4": "Das Wetter schön heute."}}],
            "user_id": "alice", "item_i": 0,
        },
    ]
)  # fmt: skip


def test_pearmuts_own_log_reads():
    records = read_campaign_jsonl(PEARMUT_LOG, "annotations.jsonl")
    assert [(r["item_i"], r["item_id"], r["system"], r["scores"]) for r in records] == [
        ("welcome_0", "tutorial_1", "B", {}),
        (15, "cs-de_DE_#_dialogue_#_SNG0991_#_0", "ONLINE-W", {"esa": 35}),
        (15, "cs-de_DE_#_dialogue_#_SNG0991_#_1", "ONLINE-W", {"esa": 33}),
        (0, "0", "GPT-4", {"esa": 85}),
    ]
    assert records[-1]["error_spans"] == [MarkedSpan(11, 17, "minor")]
    assert "Das Wetter schön heute."[11:17] == "schön "


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("{oops", r"x.jsonl, line 1: not valid JSON"),
        ("[1, 2]", r"x.jsonl, line 1: not a JSON object"),
        ('{"user_id": "Ana"}', r"x.jsonl, line 1: missing 'item_i', 'item', 'annotation'"),
        (
            '{"user_id": "A", "item_i": 0, "item": [{"tgt": {"A": "ab"}}], "annotation": [{"Z": {}}]}',
            r"x.jsonl, line 1: no translation of system 'Z' in the item",
        ),
        (
            '{"user_id": "A", "item_i": 0, "item": [{"tgt": {"A": "ab"}}], '
            '"annotation": [{"A": {"score": 5, "error_spans": [{"start_i": 0}]}}]}',
            r"x.jsonl, line 1: an error span needs start_i, end_i and severity",
        ),
        (
            '{"user_id": "A", "item_i": 0, "item": [{"tgt": {"A": "ab"}}], "annotation": [{"A": '
            '{"score": 5, "error_spans": [{"start_i": 0, "end_i": 1, "severity": "neutral"}]}}]}',
            r"x.jsonl, line 1: error span severity 'neutral' is not minor or major",
        ),
        (
            '{"user_id": "A", "item_i": 0, "item": [{"tgt": {"A": "ab"}}], "annotation": [{"A": '
            '{"score": 5, "error_spans": [{"start_i": 1, "end_i": 5, "severity": "minor"}]}}]}',
            r"x.jsonl, line 1: error span 1-5 lies outside the translation, whose characters are 0-1 "
            r"\(2 marks \[missing\]\)",
        ),
    ],
)
def test_a_bad_line_is_named_with_its_problem(line, message):
    with pytest.raises(CampaignError, match=message):
        read_campaign_jsonl(line, "x.jsonl")
