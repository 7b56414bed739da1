"""Small WMT25/WMT26 JSON-lines releases in exactly the organisers' schemas, written to a test's tmp folder.

The sentences are synthetic (no release text is copied). The WMT25 schemas are those of the excerpt's
README (``shared/data/wmt25-general-mt-excerpt``) and of the organisers' ``humeval/04-collect_humeval.py``
(wmt-conference/wmt25-general-mt, commit ebae873), which writes the human-evaluation lines:
``scores`` {system: {"human1", "errors1" (Appraise spans without error_type), "annotator1", ...}}.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

PAIR = "en-cs_CZ"
DOCS = {  # doc_id -> (domain, source paragraphs, reference paragraphs or None)
    f"{PAIR}_#_news_#_doc1": (
        "news",
        ["The cat sat.", "It was warm."],
        ["Kočka seděla.", "Bylo teplo."],
    ),
    f"{PAIR}_#_speech_#_doc2": ("speech", ["Hello there."], ["Ahoj tam."]),
    f"{PAIR}_#_social_#_doc3": ("social", ["No reference here."], None),
}
SYSTEMS = {  # system -> doc -> hypothesis paragraphs
    "SysA": {"doc1": ["Kočka seděla.", "Bylo<br>teplo."], "doc2": ["Ahoj tam."], "doc3": ["Bez."]},
    "SysB": {"doc1": ["Kocka sedela."], "doc2": ["Ahoj."], "doc3": ["Bez."]},  # doc1: 1 of 2
    "SysC": {"doc1": ["Pes stál.", "Byla zima."], "doc2": ["Nazdar."], "doc3": ["Bez."]},
}


def _jsonl(path: Path, rows: list[dict[str, Any]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8"
    )


def document_rows() -> list[dict[str, Any]]:
    """The lines of ``data/wmt25-genmt.jsonl`` (plus one document of another pair)."""
    rows = [
        {
            "doc_id": doc_id,
            "domain": domain,
            "src_lang": "en",
            "tgt_lang": "cs_CZ",
            "src_text": "\n\n".join(src),
            "video": None,
            "screenshot": None,
            "refs": {} if ref is None else {"refA": {"ref": "\n\n".join(ref)}},
        }
        for doc_id, (domain, src, ref) in DOCS.items()
    ]
    rows.append({**rows[1], "doc_id": "en-ja_JP_#_speech_#_doc2", "tgt_lang": "ja_JP",
                 "refs": {"refA": {"ref": "こんにちは。"}}})  # fmt: skip
    return rows


def humeval_rows() -> list[dict[str, Any]]:
    """The lines of ``data/wmt25-genmt-humeval.jsonl``: two passes on some items, one on others."""
    span = {"start_i": 0, "end_i": 5, "severity": "major"}
    missing = {"start_i": "missing", "end_i": "missing", "severity": "minor"}
    return [
        {
            "doc_id": f"{PAIR}_#_news_#_doc1_#_0",
            "src_text": "The cat sat.",
            "tgt_text": {"SysA": "Kočka seděla.", "SysC": "Pes stál.", "refA": "Kočka seděla."},
            "scores": {
                "SysA": {"human1": 90.0, "errors1": [], "annotator1": "a1",
                         "human2": 30.0, "errors2": [span], "annotator2": "b1"},
                "SysC": {"human1": 20.0, "errors1": [span, missing], "annotator1": "a1",
                         "human2": 40.0, "errors2": [], "annotator2": "b1"},
                "refA": {"human1": 100.0, "errors1": [], "annotator1": "a1"},
            },
        },
        {
            "doc_id": f"{PAIR}_#_news_#_doc1_#_1",
            "src_text": "It was warm.",
            "tgt_text": {"SysA": "Bylo\nteplo.", "SysC": "Byla zima."},
            "scores": {
                "SysA": {"human1": 80.0, "errors1": [{"start_i": 0, "end_i": 4, "severity": "minor"}],
                         "annotator1": "a1", "human2": 85.0, "errors2": [], "annotator2": "b2"},
                "SysC": {"human1": 10.0, "errors1": [], "annotator1": "a1",
                         "human2": 70.0, "errors2": [], "annotator2": "b2"},
            },
        },
        {
            "doc_id": f"{PAIR}_#_speech_#_doc2_#_0",
            "src_text": "Hello there.",
            "tgt_text": {"SysA": "Ahoj tam.", "SysB": "Ahoj.", "SysC": "Nazdar."},
            "scores": {
                "SysA": {"human1": 95.0, "errors1": [], "annotator1": "a2"},
                "SysB": {"human1": 60.0, "errors1": [], "annotator1": "a2",
                         "human2": 65.0, "errors2": [], "annotator2": "b3"},
                "SysC": {"human1": 50.0, "errors1": [], "annotator1": "a2",
                         "human2": 140.0, "errors2": [], "annotator2": "b3"},
                "Ghost": {"human1": 50.0, "errors1": [], "annotator1": "a2"},
            },
        },
    ]  # fmt: skip


def automatic_rows(system: str) -> list[dict[str, Any]]:
    """The lines of ``data/automatic_scores/SYSTEM.jsonl`` (MetricX negated, as the release stores it)."""
    rows = []
    for doc, paragraphs in SYSTEMS[system].items():
        doc_id = next(d for d in DOCS if d.endswith(doc))
        n = len(paragraphs)
        rows.append(
            {
                "language_pair": PAIR,
                "domain": DOCS[doc_id][0],
                "document_id": doc,
                "metric_scores": {
                    "XCOMET-XL": [0.5 + 0.1 * k for k in range(n)],
                    "MetricX-24-Hybrid-XL": [-3.0 - k for k in range(n)],
                },
            }
        )
    return rows


def write_wmt25(root: Path, *, humeval: bool = True, automatic: bool = True) -> Path:
    """A WMT25 release folder under ``root`` (the folder is returned)."""
    data = root / "wmt25" / "data"
    _jsonl(data / "wmt25-genmt.jsonl", document_rows())
    for system, docs in SYSTEMS.items():
        rows = []
        for doc, paragraphs in docs.items():
            doc_id = next(d for d in DOCS if d.endswith(doc))
            match = len(paragraphs) == len(DOCS[doc_id][1])
            rows.append(
                {"doc_id": doc_id, "hypothesis": "\n\n".join(paragraphs), "paragraphs_match": match}
            )
        _jsonl(data / "systems" / f"{system}.jsonl", rows)
        if automatic:
            _jsonl(data / "automatic_scores" / f"{system}.jsonl", automatic_rows(system))
    if humeval:
        _jsonl(data / "wmt25-genmt-humeval.jsonl", humeval_rows())
    return root / "wmt25"


WMT26_SYSTEMS = {"SysA": ["猫が座りました。", "暖かい<br>です。"], "SysB": ["犬。", "寒い。"]}


def pearmut_download(
    texts: dict[str, list[str]], scores: dict[str, dict[str, list[float]]]
) -> dict[str, Any]:
    """A Pearmut ``/download-annotations`` answer ({campaign: [entries]}, the shape of the real Pearmut 1.1.6
    run in ``shared/data/pearmut-1.1.6-esa-enja``): ``scores[user][system][k]`` on item ``k``."""
    entries = []
    for user, by_system in scores.items():
        for k in range(len(next(iter(texts.values())))):
            entries.append(
                {
                    "annotation": [
                        {s: {"score": v[k], "error_spans": [], "textfield": None} for s, v in by_system.items()}
                    ],
                    "actions": [],
                    "item": [{"item_id": f"news_###_n1_###_{k}", "src": "synthetic",
                              "tgt": {s: texts[s][k] for s in by_system}}],
                    "user_id": user,
                    "item_i": k,
                }
            )  # fmt: skip
    return {"wmt26_eng_jpn": entries}


def write_wmt26(root: Path, *, pearmut: dict[str, Any] | None = None) -> Path:
    """A WMT26 release folder: ``<p>`` paragraphs, ISO 639-3 + script codes, two reference kinds.

    The ``refs`` entries' fields (``kind``, ``post_edited_from``) are not documented by the organisers;
    they follow issue 40's description (see docs/formats.md)."""
    data = root / "wmt26" / "data"
    doc = "WMT26_###_news_###_eng_Latn_###_jpn_Jpan_###_n1"
    _jsonl(
        data / "wmt26-genmt.jsonl",
        [
            {
                "doc_id": doc,
                "domain": "news",
                "src_lang": "eng_Latn",
                "tgt_lang": "jpn_Jpan",
                "src_text": "<p>The cat sat.</p>\n<p>It was warm.</p>\n",
                "refs": {
                    "refA": {"ref": "<p>猫が座った。</p>\n<p>暖かかった。</p>\n", "kind": "from-scratch"},
                    "refPE": {"ref": "<p>猫が座りました。</p>\n<p>暖かい。</p>\n",
                              "kind": "post-edited", "post_edited_from": "SysA"},
                },
            }
        ],
    )  # fmt: skip
    for system, texts in WMT26_SYSTEMS.items():
        hypothesis = "".join(f"<p>{t}</p>\n" for t in texts)
        _jsonl(
            data / "systems" / f"{system}.jsonl",
            [{"doc_id": doc, "hypothesis": hypothesis, "metadata": {}}],
        )
    if pearmut is not None:  # WMT26's human scores: Pearmut's raw files beside the data
        (root / "wmt26" / "humeval").mkdir(parents=True, exist_ok=True)
        (root / "wmt26" / "humeval" / "annotations.json").write_text(
            json.dumps(pearmut), encoding="utf-8"
        )
    return root / "wmt26"
