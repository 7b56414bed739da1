"""A synthetic release the size of WMT25's metrics task, in the WMT25 JSON-lines layout, seeded.

WMT25 meta-evaluates 16 language pairs, each with about 20 systems, about 1,000 items (paragraphs), ESA
human scores and some 30 submitted metrics. :func:`write_release` writes a release of that shape in the
layout ``bleu_core.study.formats.genmt`` reads (docs/formats.md, 3b'): ``data/wmt25-genmt.jsonl`` (documents,
one reference ``refA``), ``data/systems/SYS.jsonl``, ``data/wmt25-genmt-humeval.jsonl`` (one ESA pass per
item, ``human1``, a minor or major span on the worse ones) and ``data/automatic_scores/SYS.jsonl`` (every
attached metric, one score per paragraph). Nothing in it is real text: words are drawn from a made-up
vocabulary.

How the numbers relate (so that rankings are neither trivial nor random): each system has a quality
``q_k``; each item a difficulty ``d_i``; a translation's latent quality is ``q_k − d_i + noise``. Its
hypothesis is the reference with a share of words replaced that falls with that quality (so BLEU and chrF
follow it), ESA is ``100 − 60·(1 − quality)`` plus rater noise, clipped to 0-100 and rounded, and each
attached metric ``Mj`` is the latent quality plus noise of its own level (metric ``M00`` the least noisy).

Run ``python benchmarks/wmt25_release.py OUT [--pairs 16 --systems 20 --items 1000 --metrics 30]``; it takes
seconds and prints the folder. The release is generated into a temporary folder by the benchmark and never
committed.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

#: WMT25's pairs (the general MT task's 16 meta-evaluated ones, as the release writes them).
WMT25_PAIRS = (
    "en-ar_EG", "en-bho_IN", "en-cs_CZ", "en-et_EE", "en-is_IS", "en-it_IT", "en-ja_JP", "en-ko_KR",
    "en-mas_KE", "en-ru_RU", "en-sr_Latn_RS", "en-uk_UA", "en-zh_CN", "cs-uk_UA", "cs-de_DE",
    "ja-zh_CN",
)  # fmt: skip
PARAGRAPHS_PER_DOC = 10
DOMAINS = ("news", "social", "speech", "literary")


def _jsonl(path: Path, rows: list[dict[str, Any]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as out:
        for row in rows:
            out.write(json.dumps(row, ensure_ascii=False) + "\n")


def _vocabulary(rng: np.random.Generator, size: int = 4000) -> np.ndarray:
    letters = np.array(list("abcdefghijklmnoprstuvz"))
    lengths = rng.integers(2, 9, size=size)
    return np.array(["".join(rng.choice(letters, n)) for n in lengths])


def _paragraphs(rng: np.random.Generator, vocab: np.ndarray, n: int) -> list[np.ndarray]:
    """``n`` paragraphs as arrays of word indices (Zipf-like word frequencies)."""
    weights = 1.0 / np.arange(1, len(vocab) + 1)
    weights /= weights.sum()
    return [rng.choice(len(vocab), size=int(rng.integers(12, 36)), p=weights) for _ in range(n)]


def _pair_data(
    rng: np.random.Generator, vocab: np.ndarray, pair: str, n_systems: int, n_items: int
) -> dict[str, Any]:
    """Texts, ESA and latent qualities of one pair."""
    refs = _paragraphs(rng, vocab, n_items)
    quality = np.sort(rng.uniform(0.45, 0.95, size=n_systems))[::-1]
    difficulty = rng.normal(0.0, 0.12, size=n_items)
    latent = np.clip(
        quality[:, None] - difficulty[None, :] + rng.normal(0, 0.1, (n_systems, n_items)), 0, 1
    )
    hyps = []
    for k in range(n_systems):
        row = []
        for i, ref in enumerate(refs):
            keep = rng.random(len(ref)) < latent[k, i]
            words = np.where(keep, ref, rng.integers(len(vocab), size=len(ref)))
            row.append(" ".join(vocab[words]).capitalize())
        hyps.append(row)
    esa = np.clip(np.rint(100 - 60 * (1 - latent) + rng.normal(0, 8, latent.shape)), 0, 100)
    return {
        "pair": pair,
        "src": [" ".join(vocab[rng.permutation(r)]) for r in refs],
        "ref": [" ".join(vocab[r]).capitalize() for r in refs],
        "hyps": hyps,
        "esa": esa,
        "latent": latent,
    }


def _doc_ids(pair: str, n_items: int) -> list[tuple[str, str, str]]:
    """``(doc_id, short id, domain)`` per document."""
    n_docs = -(-n_items // PARAGRAPHS_PER_DOC)
    return [
        (f"{pair}_#_{DOMAINS[d % 4]}_#_doc{d}", f"doc{d}", DOMAINS[d % 4]) for d in range(n_docs)
    ]


def _span(text: str, score: float) -> list[dict[str, Any]]:
    if score >= 85 or not text:
        return []
    end = min(len(text), 8)
    return [{"start_i": 0, "end_i": end, "severity": "major" if score < 50 else "minor"}]


def write_release(
    root: Path,
    *,
    n_pairs: int = 16,
    n_systems: int = 20,
    n_items: int = 1000,
    n_metrics: int = 30,
    seed: int = 2025,
) -> Path:
    """Write the release under ``root`` (returned); the same arguments write the same bytes."""
    if not 1 <= n_pairs <= len(WMT25_PAIRS):
        raise ValueError(f"n_pairs must be 1..{len(WMT25_PAIRS)}, got {n_pairs}")
    rng = np.random.default_rng(seed)
    vocab = _vocabulary(rng)
    systems = [f"Sys{k:02d}" for k in range(n_systems)]
    noise = np.linspace(0.05, 0.6, n_metrics)
    documents: list[dict[str, Any]] = []
    humeval: list[dict[str, Any]] = []
    per_system: dict[str, list[dict[str, Any]]] = {s: [] for s in systems}
    automatic: dict[str, list[dict[str, Any]]] = {s: [] for s in systems}
    for pair in WMT25_PAIRS[:n_pairs]:
        data = _pair_data(rng, vocab, pair, n_systems, n_items)
        src_lang, _, tgt_lang = pair.partition("-")
        metric = (
            data["latent"][None]
            + rng.normal(0, 1, (n_metrics, n_systems, n_items)) * noise[:, None, None]
        )
        for d, (doc_id, short, domain) in enumerate(_doc_ids(pair, n_items)):
            items = range(d * PARAGRAPHS_PER_DOC, min(n_items, (d + 1) * PARAGRAPHS_PER_DOC))
            documents.append(
                {"doc_id": doc_id, "domain": domain, "src_lang": src_lang, "tgt_lang": tgt_lang,
                 "src_text": "\n\n".join(data["src"][i] for i in items),
                 "refs": {"refA": {"ref": "\n\n".join(data["ref"][i] for i in items)}}}
            )  # fmt: skip
            for k, name in enumerate(systems):
                hyp = "\n\n".join(data["hyps"][k][i] for i in items)
                per_system[name].append(
                    {"doc_id": doc_id, "hypothesis": hyp, "paragraphs_match": True}
                )
                scores = {
                    f"M{j:02d}": [round(float(metric[j, k, i]), 6) for i in items]
                    for j in range(n_metrics)
                }
                automatic[name].append(
                    {"language_pair": pair, "domain": domain, "document_id": short, "metric_scores": scores}
                )  # fmt: skip
            for p, i in enumerate(items):
                texts = {name: data["hyps"][k][i] for k, name in enumerate(systems)}
                humeval.append(
                    {"doc_id": f"{doc_id}_#_{p}", "src_text": data["src"][i], "tgt_text": texts,
                     "scores": {name: {"human1": float(data["esa"][k, i]),
                                       "errors1": _span(texts[name], float(data["esa"][k, i])),
                                       "annotator1": f"rater{(i + k) % 7}"}
                                for k, name in enumerate(systems)}}
                )  # fmt: skip
    data_dir = root / "data"
    _jsonl(data_dir / "wmt25-genmt.jsonl", documents)
    _jsonl(data_dir / "wmt25-genmt-humeval.jsonl", humeval)
    for name in systems:
        _jsonl(data_dir / "systems" / f"{name}.jsonl", per_system[name])
        _jsonl(data_dir / "automatic_scores" / f"{name}.jsonl", automatic[name])
    return root


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="folder to write the release into")
    parser.add_argument("--pairs", type=int, default=16)
    parser.add_argument("--systems", type=int, default=20)
    parser.add_argument("--items", type=int, default=1000)
    parser.add_argument("--metrics", type=int, default=30)
    parser.add_argument("--seed", type=int, default=2025)
    args = parser.parse_args(argv)
    root = write_release(
        args.out,
        n_pairs=args.pairs,
        n_systems=args.systems,
        n_items=args.items,
        n_metrics=args.metrics,
        seed=args.seed,
    )
    print(root)
    return 0


if __name__ == "__main__":
    sys.exit(main())
