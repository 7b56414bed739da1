"""Speed of the WMT24-style rankings on the WMT24 en-ja release: BLEU and chrF, three statistics, 1,000 resamples.

Workload (issue 28): the WMT24 General MT en-ja pair (23 systems, 997 paragraph segments, ESA scores; read in
place from ``../shared/data/wmt24-general-esa``, never copied), the machine systems scored by BLEU (ja-mecab,
sacrebleu's choice for Japanese) and chrF, then ranked against ESA by three statistics — system-level
pairwise accuracy and soft pairwise accuracy, segment-level acc*_eq — each with its significance clusters
(1,000 permutation resamples per pair of metrics), bootstrap intervals (1,000 resamples) and chance line
(``bleu_core.evaluation.chance``). Measured, each the best of ``--repeats`` runs (wall clock; the CPU time in
brackets): loading, scoring, and each ranking.

Run: ``.venv/bin/python benchmarks/bench_wmt24_rankings.py [--repeats 3] [--data DIR]``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bleu_core.evaluation.chance import add_chance  # noqa: E402
from bleu_core.evaluation.clusters import rank_metrics  # noqa: E402
from bleu_core.metrics.study_scores import study_metric_scores  # noqa: E402
from bleu_core.study import load_study  # noqa: E402
from bleu_core.tokenize.tokenizers import tokenizer_for_language  # noqa: E402

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "wmt24-general-esa"
STATISTICS = ("pairwise-accuracy", "soft-pairwise-accuracy", "acc-eq")


def timed(fn, repeats: int):
    """``(result, best wall seconds, its CPU seconds)`` of ``fn()`` over ``repeats`` runs."""
    best = None
    for _ in range(repeats):
        wall, cpu = time.perf_counter(), time.process_time()
        out = fn()
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        if best is None or wall < best[1]:
            best = (out, wall, cpu)
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--resamples", type=int, default=1000)
    args = parser.parse_args(argv)
    if not args.data.exists():
        print(f"no WMT24 release at {args.data}", file=sys.stderr)
        return 2
    study, wall, cpu = timed(lambda: load_study(args.data, pair="en-ja").study, args.repeats)
    print(
        f"load en-ja: {len(study.systems)} systems × {study.n_segments} segments: {wall:.2f} s ({cpu:.2f})"
    )
    tokenize = tokenizer_for_language(study.target_lang)
    tables, wall, cpu = timed(
        lambda: study_metric_scores(
            study, ["BLEU", "chrF"], systems=study.machine_systems, tokenize=tokenize
        ),
        args.repeats,
    )
    print(f"BLEU ({tokenize}) and chrF of every system and segment: {wall:.2f} s ({cpu:.2f})")
    systems = list(next(iter(tables.values())).systems)
    h_sys = np.array([study.system_scores("esa")[s] for s in systems])
    index = [list(study.systems).index(s) for s in systems]
    h_seg = study.segment_scores("esa")[index]
    total = 0.0
    for statistic in STATISTICS:

        def run(statistic=statistic):
            r = rank_metrics(tables, h_sys, h_seg, statistic, n_resamples=args.resamples, seed=4)
            return add_chance(r, tables, h_sys, h_seg)

        ranking, wall, cpu = timed(run, args.repeats)
        total += wall
        values = ", ".join(f"{r.metric} {r.statistic:.3f} (rank {r.rank})" for r in ranking.rows)
        print(f"{statistic}: {wall:.2f} s ({cpu:.2f}) — {values}")
    print(f"three rankings, {args.resamples} resamples each: {total:.2f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
