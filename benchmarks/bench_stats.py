"""Speed of bootstrap intervals and paired tests, side by side with sacrebleu's --paired-bs (same input, one run).

Workload (issue 5): 10 systems × 3000 segments × 1000 bootstrap resamples, one reference. Measured:

1. the whole job from text: per-segment statistics of every system, bootstrap CIs of every system and the
   paired bootstrap of every system against the first — versus sacrebleu 2.6 ``PairedTest(test_type="bs")``
   (what ``sacrebleu --paired-bs`` runs, single process) on the same texts;
2. the resampling alone, given per-segment statistics — versus sacrebleu's resampling of its own statistics
   (its loop ``metric._compute_score_from_stats(s.sum(0)) for s in stats[idxs]`` for every system);
3. every pair (45 for 10 systems) instead of each against the first, and approximate randomisation (10 000 trials).

Run: ``.venv/bin/python benchmarks/bench_stats.py [--repeats 5] [--write-results]``. Times are the best of the
repeats (wall clock; the machine is shared, and the minimum is the least disturbed run), the same rule for both
sides; ratios are sacrebleu time / ours.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bleu_core.engine.options import BleuOptions  # noqa: E402
from bleu_core.engine.statistics import compute_statistics  # noqa: E402
from bleu_core.evaluation.bootstrap import bootstrap  # noqa: E402
from bleu_core.evaluation.randomization import approximate_randomization  # noqa: E402


def make_corpus(n_systems: int, n_segments: int, seed: int = 0):
    """English-like synthetic text: Zipfian vocabulary, ~25 tokens per segment, systems = noisy copies."""
    rng = np.random.default_rng(seed)
    vocab = np.array([f"word{i}" for i in range(5000)])
    p = 1.0 / np.arange(1, len(vocab) + 1)
    p /= p.sum()
    refs, systems = [], {}
    base = [rng.choice(vocab, size=int(rng.integers(10, 40)), p=p) for _ in range(n_segments)]
    refs = [" ".join(t) + "." for t in base]
    for k in range(n_systems):
        noise = 0.25 + 0.03 * k
        out = []
        for toks in base:
            keep = rng.random(len(toks)) > noise
            out.append(" ".join(np.where(keep, toks, rng.choice(vocab, size=len(toks), p=p))) + ".")
        systems[f"system{k:02d}"] = out
    return refs, systems


def timed(fn, repeats: int) -> tuple[float, object]:
    """Best wall-clock time of ``repeats`` runs, and the last result."""
    times, result = [], None
    for _ in range(repeats):
        t0 = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t0)
    return min(times), result


def side_by_side(theirs, ours, repeats: int) -> dict[str, float]:
    """Run sacrebleu and ours alternately (so both see the same machine load).

    Returns best wall times, best CPU times (``time.process_time``: all threads of this process) and the
    ratio of the best wall times (on a shared machine the best round is the least disturbed one).
    """
    walls: dict[str, list[float]] = {"theirs": [], "ours": []}
    cpus: dict[str, list[float]] = {"theirs": [], "ours": []}
    for _ in range(repeats):
        for name, fn in (("theirs", theirs), ("ours", ours)):
            w0, c0 = time.perf_counter(), time.process_time()
            fn()
            walls[name].append(time.perf_counter() - w0)
            cpus[name].append(time.process_time() - c0)
    return {
        "theirs": min(walls["theirs"]),
        "ours": min(walls["ours"]),
        "theirs_cpu": min(cpus["theirs"]),
        "ours_cpu": min(cpus["ours"]),
        "ratio": min(walls["theirs"]) / min(walls["ours"]),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--systems", type=int, default=10)
    ap.add_argument("--segments", type=int, default=3000)
    ap.add_argument("--resamples", type=int, default=1000)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument(
        "--write-results", action="store_true", help="write benchmarks/RESULTS-stats.md"
    )
    args = ap.parse_args()

    import sacrebleu
    from sacrebleu.metrics import BLEU
    from sacrebleu.significance import PairedTest

    os.environ["SACREBLEU_SEED"] = "12345"
    refs, systems = make_corpus(args.systems, args.segments)
    options = BleuOptions()
    m = args.resamples
    first = next(iter(systems))

    def all_statistics():
        """Every system's per-segment statistics in one batched engine call (as the app's cache does)."""
        hyps = [line for h in systems.values() for line in h]
        array = compute_statistics(hyps, [refs * len(systems)]).array.reshape(
            len(systems), len(refs), -1
        )
        return dict(zip(systems, array, strict=True))

    def ours_whole():
        stats = all_statistics()
        res = bootstrap(stats, options, n_resamples=m, seed=12345)
        return res, res.paired(baseline=first)

    def sacre_whole():
        test = PairedTest(
            list(systems.items()), {"BLEU": BLEU()}, [refs], test_type="bs", n_samples=m, n_jobs=1
        )
        return test()

    whole = side_by_side(sacre_whole, ours_whole, args.repeats)
    _, sacre_scores = sacre_whole()
    _, paired = ours_whole()

    # agreement check (same seed → same resamples → same p-values)
    sac = sacre_scores["BLEU"]
    max_p_diff = max(
        abs(paired.get(name, first).pvalue - sac[k].p_value) for k, name in enumerate(systems) if k
    )

    # resampling alone, given per-segment statistics
    t_stats, stats = timed(all_statistics, args.repeats)
    metric = BLEU()
    sac_stats = [
        np.array(metric._extract_corpus_statistics(h, [refs]), dtype="float32")
        for h in systems.values()
    ]

    def sacre_resample():
        """sacrebleu 2.6's resampling for this job, on its own precomputed statistics: the baseline's CI
        (``_bootstrap_resample``) and, per other system, the loops of ``_paired_bs_test`` that rescore the
        baseline and the system on every resample (statistics extraction excluded)."""
        from sacrebleu.significance import _bootstrap_resample, estimate_ci

        _bootstrap_resample(sac_stats[0], metric, m)
        rng = np.random.default_rng(12345)
        idxs = rng.choice(args.segments, size=(m, args.segments), replace=True)
        for st in sac_stats[1:]:
            bl = np.array(
                [metric._compute_score_from_stats(x.sum(0)).score for x in sac_stats[0][idxs]]
            )
            sy = np.array([metric._compute_score_from_stats(x.sum(0)).score for x in st[idxs]])
            estimate_ci(sy)
            _ = np.abs(sy - bl)

    resample = side_by_side(
        sacre_resample, lambda: bootstrap(stats, options, n_resamples=m, seed=12345), args.repeats
    )
    t_all_pairs, allp = timed(
        lambda: bootstrap(stats, options, n_resamples=m, seed=12345).paired(), args.repeats
    )
    t_ar, _ = timed(
        lambda: approximate_randomization(
            stats, options, n_trials=10_000, seed=12345, baseline=first
        ),
        1,
    )

    # where our resampling time goes (best of 15: component timings are short and the machine is shared)
    from bleu_core.evaluation.systems import bleu_scores, stack_systems
    from bleu_core.maths.resampling import bootstrap_indices

    stack = stack_systems(stats)
    t_idx, idx = timed(lambda: bootstrap_indices(args.segments, m, np.random.default_rng(1)), 15)
    t_tot, tot = timed(lambda: stack.resampled_totals(idx), 15)
    t_bleu, _ = timed(lambda: bleu_scores(tot, options), 15)
    load = os.getloadavg()[0]
    rows = [
        ("whole job from text (stats + CIs + paired vs first)", whole),
        ("resampling only, given per-segment statistics", resample),
    ]
    lines = [
        f"# bench_stats: {args.systems} systems × {args.segments} segments × {m} resamples",
        "",
        f"Machine: {platform.machine()}, {os.cpu_count()} cores (shared), Python {platform.python_version()}, "
        f"numpy {np.__version__}, sacrebleu {sacrebleu.__version__}. {args.repeats} rounds, sacrebleu and ours "
        "alternating; times are the best round (CPU time in brackets), ratio = best sacrebleu / best ours. "
        "Command: `.venv/bin/python benchmarks/bench_stats.py`.",
        "",
        "| what | sacrebleu 2.6 wall (CPU) s | bleu-study wall (CPU) s | × faster |",
        "|---|---|---|---|",
    ]
    for what, r in rows:
        lines.append(
            f"| {what} | {r['theirs']:.3f} ({r['theirs_cpu']:.3f}) | {r['ours']:.3f} ({r['ours_cpu']:.3f}) "
            f"| {r['ratio']:.1f}× |"
        )
    lines += [
        "",
        f"- of the whole job, per-segment statistics of the 10 systems (engine, one batched call): {t_stats:.3f} s",
        f"- our resampling, by part (best of 15): draw indices {t_idx * 1e3:.1f} ms, count + matrix product "
        f"{t_tot * 1e3:.1f} ms, vectorised BLEU {t_bleu * 1e3:.1f} ms",
        f"- load average at the end of the run: {load:.1f} on {os.cpu_count()} cores (other jobs were running; "
        "short runs suffer most, so small timings vary by 2-5× between runs)",
        f"- every pair ({len(allp.comparisons)} pairs), bootstrap CIs included: {t_all_pairs:.3f} s",
        f"- approximate randomisation, 10 000 trials, each system vs the first: {t_ar:.3f} s",
        f"- largest |p(ours) − p(sacrebleu)| with the same seed: {max_p_diff:.2g} (same resampled test sets)",
        "- targets (issue 5): whole job ≥ 10×, resampling ≥ 50×, all pairs well under 1 s",
    ]
    text = "\n".join(lines)
    print(text)
    if args.write_results:
        Path(__file__).with_name("RESULTS-stats.md").write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
