"""A second, test-only reading of WMT25's span scorer (subtask 2), written apart from
``bleu_core.study.span_scorer_wmt25`` in plain Python (no numpy): it reads the two TSVs itself and
returns, per language pair, (precision, recall, F1) and their means over pairs.

The rules (from the organisers' ``scoring_esa.py``, wmt-conference/wmt25-mteval): a translation's
characters each count how many gold and predicted spans of each class cover them (major = major or
critical; minor); ``missing`` and ``undecided`` spans count nowhere; per character the credit is the
same-class overlap plus half the overlap of what is left; sums per pair (official rows only), then
P = credit/predicted (1 if nothing predicted), R = credit/gold (1 if no gold), F1 = 2PR/(P+R) (0 if both 0).
"""

from __future__ import annotations

import csv
from pathlib import Path

KEY = ("doc_id", "segment_id", "source_lang", "target_lang", "set_id", "system_id", "domain_name",
       "method")  # fmt: skip


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        return [r for r in csv.DictReader(handle, delimiter="\t") if r["set_id"] == "official"]


def _spans(row: dict[str, str]) -> list[tuple[int, int, str]]:
    if row["error_types"] == "no-error":
        return []
    out = []
    for a, b, kind in zip(
        *(row[k].split(" ") for k in ("start_indices", "end_indices", "error_types")), strict=True
    ):
        if a == "missing" or kind == "undecided":
            continue
        out.append((int(a), int(b), "major" if kind in ("major", "critical") else "minor"))
    return out


def _cover(spans: list[tuple[int, int, str]], n: int) -> list[dict[str, int]]:
    cells = [{"major": 0, "minor": 0} for _ in range(n)]
    for a, b, kind in spans:
        for i in range(a, min(b, n)):
            cells[i][kind] += 1
    return cells


def score_files(
    gold: Path, predictions: Path
) -> tuple[dict[str, tuple[float, float, float]], tuple[float, ...]]:
    predicted = {tuple(r[k] for k in KEY): r for r in _rows(predictions)}
    sums: dict[str, list[float]] = {}
    for row in _rows(gold):
        pair = row["source_lang"] + "-" + row["target_lang"]
        n = len(row["hypothesis_segment"])
        g = _cover(_spans(row), n)
        p = _cover(_spans(predicted[tuple(row[k] for k in KEY)]), n)
        s = sums.setdefault(pair, [0.0, 0.0, 0.0])
        for gc, pc in zip(g, p, strict=True):
            same = min(gc["major"], pc["major"]) + min(gc["minor"], pc["minor"])
            g_rest = gc["major"] + gc["minor"] - same
            p_rest = pc["major"] + pc["minor"] - same
            s[0] += same + 0.5 * min(g_rest, p_rest)
            s[1] += gc["major"] + gc["minor"]
            s[2] += pc["major"] + pc["minor"]
    scores = {}
    for pair, (credit, n_gold, n_pred) in sums.items():
        prec = credit / n_pred if n_pred else 1.0
        rec = credit / n_gold if n_gold else 1.0
        scores[pair] = (prec, rec, 2 * prec * rec / (prec + rec) if prec + rec else 0.0)
    means = tuple(sum(v[k] for v in scores.values()) / len(scores) for k in range(3))
    return scores, means
