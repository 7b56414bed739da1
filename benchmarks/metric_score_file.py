"""Write an MTME-layout score file of a real, simple metric for a study, to rank beside BLEU and chrF.

The metric is **chrF with beta = 1** (sacrebleu's ``CHRF(beta=1)``: character 6-gram F1, precision
and recall weighted alike, where chrF weights recall 2x), scored against the study's first
reference stream: one ``SYSTEM<TAB>SCORE`` line per system and segment in segment order
(``[pair.]chrF1-refA.seg.score``, sentence chrF1, ``None`` where a system has no translation) and
one per system (``.sys.score``, corpus chrF1). Nothing random: the same study gives the same file.

The files derive from the study's texts, so for a WMT release they are written outside the
repository (the release has no redistribution licence) and not committed:

    python benchmarks/metric_score_file.py /work/shared/data/wmt21-newstest2021-mqm-da \\
        --pair zh-en --out /tmp/metric-scores
    bleu-study meta /work/shared/data/wmt21-newstest2021-mqm-da --pair zh-en \\
        --metrics BLEU,chrF,TER --metric-scores /tmp/metric-scores --format text
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

NAME = "chrF1"


def chrf1_scores(
    study: Any, reference: str
) -> tuple[dict[str, list[float | None]], dict[str, float]]:
    """Sentence chrF1 of every system's segments (``None``: no translation) and corpus chrF1."""
    from sacrebleu.metrics import CHRF

    metric = CHRF(beta=1)
    ref = study.references[reference]
    seg: dict[str, list[float | None]] = {}
    system: dict[str, float] = {}
    for name, hyps in study.systems.items():
        if name == reference:
            continue
        idx = [i for i, h in enumerate(hyps) if h is not None and ref[i] is not None]
        stats = metric._extract_corpus_statistics(  # per-segment statistics, summed for the corpus
            [hyps[i] for i in idx], [[ref[i] for i in idx]]
        )
        values: list[float | None] = [None] * len(hyps)
        for i, s in zip(idx, stats, strict=True):
            values[i] = metric._compute_score_from_stats(s).score
        seg[name] = values
        system[name] = metric._aggregate_and_compute(stats).score
    return seg, system


def write_score_files(study: Any, out: Path, pair: str | None = None) -> list[Path]:
    """Write ``[pair.]chrF1-refX.seg.score`` and ``.sys.score`` into ``out``; returns the paths."""
    reference = next(iter(study.references))
    seg, system = chrf1_scores(study, reference)
    tag = reference.removeprefix("ref-").removeprefix("ref")
    stem = f"{pair + '.' if pair else ''}{NAME}-ref{tag}"
    out.mkdir(parents=True, exist_ok=True)
    seg_path, sys_path = out / f"{stem}.seg.score", out / f"{stem}.sys.score"
    seg_path.write_text(
        "".join(
            f"{name}\t{'None' if v is None else f'{v:.4f}'}\n"
            for name, values in seg.items()
            for v in values
        ),
        encoding="utf-8",
    )
    sys_path.write_text(
        "".join(f"{name}\t{v:.4f}\n" for name, v in system.items()), encoding="utf-8"
    )
    return [seg_path, sys_path]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("study", help="study folder, zip or file (e.g. a WMT release folder)")
    parser.add_argument("--pair", help="language pair of a multi-pair study")
    parser.add_argument("--out", required=True, type=Path, help="folder to write the files into")
    args = parser.parse_args(argv)
    from bleu_core.study import load_study

    start = time.perf_counter()
    study = load_study(args.study, pair=args.pair).study
    paths = write_score_files(study, args.out, args.pair)
    for p in paths:
        print(p)
    print(f"{time.perf_counter() - start:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
