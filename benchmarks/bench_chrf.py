"""chrF / chrF++ statistics of a whole study, side by side with sacrebleu's ``CHRF`` (same texts, one run).

Workload (issue 14): the WMT21 zh-en release in ``../shared/data`` — 23 systems × 1,948 segments, reference A —
every system's per-segment statistics (what the Metrics, Correlation and bootstrap paths need), with
:func:`bleu_core.metrics.chrf.chrf_statistics_table` (all systems at once, numpy) versus sacrebleu 2.6
``CHRF._extract_corpus_statistics`` per system (its reference n-grams cached once, as sacrebleu does when given
references). The rows are compared for equality in the same run.

Run: ``.venv/bin/python benchmarks/bench_chrf.py [--repeats 3] [--pair zh-en]``. Reported: the best of the
repeats in process CPU time (the machine is shared: wall time mostly measures the other processes) and in
wall time; ratios are sacrebleu / ours.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bleu_core.metrics.chrf import ChrfOptions, chrf_statistics_table  # noqa: E402

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "wmt21-newstest2021-mqm-da"


def _timed(fn, repeats: int) -> tuple[float, float, object]:  # noqa: ANN001
    best_cpu, best_wall, out = float("inf"), float("inf"), None
    for _ in range(repeats):
        cpu, wall = time.process_time(), time.perf_counter()
        out = fn()
        best_cpu = min(best_cpu, time.process_time() - cpu)
        best_wall = min(best_wall, time.perf_counter() - wall)
    return best_cpu, best_wall, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--pair", default="zh-en")
    args = parser.parse_args()
    from sacrebleu.metrics import CHRF

    from bleu_core.study import load_study

    study = load_study(DATA, pair=args.pair, detect=False).study
    names = list(study.systems)
    refs = [study.references[r] for r in study.references]
    hyps = [study.systems[s] for s in names]
    print(
        f"{args.pair}: {len(names)} systems x {study.n_segments} segments, {len(refs)} reference(s)"
    )
    for word_order, label in ((0, "chrF"), (2, "chrF++")):
        options = ChrfOptions(word_order=word_order)
        cpu, wall, table = _timed(
            lambda o=options: chrf_statistics_table(hyps, refs, o), args.repeats
        )

        def sacre(o: int = word_order) -> list[np.ndarray]:
            metric = CHRF(word_order=o, references=refs)
            return [np.asarray(metric._extract_corpus_statistics(h, None)) for h in hyps]

        s_cpu, s_wall, rows = _timed(sacre, args.repeats)
        equal = all(np.array_equal(r, table.stats[k]) for k, r in enumerate(rows))
        print(
            f"{label:7s} ours {cpu:6.2f} s CPU ({wall:6.2f} s wall)   sacrebleu {s_cpu:6.2f} s CPU "
            f"({s_wall:6.2f} s wall)   ratio {s_cpu / cpu:4.1f}x CPU, {s_wall / wall:4.1f}x wall   "
            f"rows identical: {equal}"
        )


if __name__ == "__main__":
    main()
