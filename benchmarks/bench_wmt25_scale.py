"""WMT25's metrics table at full size: ``meta RELEASE --pairs all`` beside mt-metrics-eval's own code.

Workload (issue 41 point 5): a synthetic release the size of WMT25's (``benchmarks/wmt25_release.py``: 16
pairs, 20 systems, 1,000 items, 30 attached metrics, ESA gold; seeded, written into a temporary folder,
never committed). Two whole processes on the same files:

* **ours**: ``python -m bleu_core meta RELEASE --pairs all --n-resamples R`` — per pair soft pairwise accuracy
  and acc*_eq for BLEU, chrF and the 30 attached metrics, each with significance clusters (PERM-BOTH / the
  pairs permutation, early stopping as WMT's tasks), bootstrap intervals and chance lines, then the global
  view (weighted average, average rank, clusters from shared null draws);
* **theirs**: ``benchmarks/mtme_driver.py`` — mt-metrics-eval's ``CompareMetricsWithPairwiseConfidenceError``
  and ``CompareMetrics(KendallWithTiesOpt, 'item', perm_test='pairs')`` per pair, as ``tasks.WMT25`` runs them
  (point estimates and clusters only: no intervals, chance lines or global clusters), imported from the
  checkout given by ``--mtme``. Because it takes hours at full size, it runs on a fraction
  (``--mtme-pairs``, ``--mtme-metrics``, ``--mtme-k``) and the report scales it (pairs are independent:
  linear; metric pairs grow as M(M−1)/2), saying so.

Runs are interleaved (ours, theirs, ours, theirs, …), each timed as a whole process: wall seconds and CPU
seconds (user + system of the child), with the 1-minute load average before and after. Quote a result only
when the load was below 2 throughout (the script prints a warning otherwise).

``--grow`` instead times ours alone at small points, one factor changed at a time (pairs, systems, metrics,
resamples), to show how the cost grows.

Run: ``python benchmarks/bench_wmt25_scale.py --mtme /tmp/mtme --mtme-commit HASH [--repeats 2]``; the
small development check: ``--pairs 2 --systems 6 --items 100 --metrics 4 --resamples 100``.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from wmt25_release import write_release  # noqa: E402


def timed(
    command: list[str], env: dict[str, str] | None = None, out: Path | None = None
) -> dict[str, float]:
    """Run ``command`` to the end: wall and CPU seconds, load before and after (exit code checked);
    its standard output goes to ``out`` when given."""
    load = os.getloadavg()[0]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = time.perf_counter()
    with open(out or os.devnull, "w", encoding="utf-8") as sink:
        subprocess.run(command, check=True, stdout=sink, stderr=subprocess.DEVNULL, env=env)
    wall = time.perf_counter() - wall
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"wall": wall, "cpu": cpu, "load_before": load, "load_after": os.getloadavg()[0]}


def ours(release: Path, resamples: int, attached: int = 0) -> list[str]:
    """Our command; ``attached`` > 0 ranks only the first that many attached metrics (no BLEU, chrF)."""
    chosen = ["--metrics", ",".join(f"M{j:02d}" for j in range(attached))] if attached else []
    return [sys.executable, "-m", "bleu_core", "meta", str(release), "--pairs", "all",
            "--n-resamples", str(resamples), "--format", "json", *chosen]  # fmt: skip


def theirs(release: Path, args: argparse.Namespace) -> list[str]:
    return [sys.executable, str(HERE / "mtme_driver.py"), str(release), "--mtme", str(args.mtme),
            "--commit", args.mtme_commit, "--pairs", str(args.mtme_pairs),
            "--metrics", str(args.mtme_metrics), "--k", str(args.mtme_k)]  # fmt: skip


def summary(runs: list[dict[str, float]], key: str) -> str:
    values = [r[key] for r in runs]
    return f"{statistics.median(values):.1f} [{min(values):.1f}-{max(values):.1f}]"


def agreement(ours_json: Path, mtme_json: Path) -> str:
    """How ours and mt-metrics-eval agree on the pairs and metrics both ranked: the largest difference
    of a point value (SPA, acc*_eq) and the number of cluster ranks that differ."""
    mine = json.loads(ours_json.read_text(encoding="utf-8"))
    theirs = json.loads(mtme_json.read_text(encoding="utf-8"))["results"]
    names = {"soft-pairwise-accuracy": "spa", "acc-eq": "acc_eq"}
    largest, differ, compared = 0.0, 0, 0
    for ranking in mine["rankings"]:
        pair = ranking["criterion"].split("(")[-1].rstrip(")")
        other = theirs.get(pair, {}).get(names.get(ranking["statistic"], ""), {})
        same_set = {row["metric"] for row in ranking["metrics"]} == set(other)
        for row in ranking["metrics"]:
            if row["metric"] in other:
                value, rank = other[row["metric"]]
                largest = max(largest, abs(row["statistic"] - value))
                differ += same_set and row["rank"] != rank  # clusters compare alike sets only
                compared += 1
    return (
        f"agreement on {compared} (pair, statistic, metric) values: largest |ours - mtme| = "
        f"{largest:.2e}; cluster ranks that differ: {differ} (each side draws its own resamples)"
    )


def compare(args: argparse.Namespace, release: Path) -> None:
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(
            p for p in (args.mtme_deps, os.environ.get("PYTHONPATH")) if p
        ),
    }
    runs: dict[str, list[dict[str, float]]] = {"ours": [], "mtme": []}
    for _ in range(args.repeats):  # interleaved: A B A B
        attached = args.metrics if args.attached_only else 0
        runs["ours"].append(
            timed(ours(release, args.resamples, attached), out=release / "ours.json")
        )
        if args.mtme:
            runs["mtme"].append(timed(theirs(release, args), env, out=release / "mtme.json"))
    print("| run | wall s, median [min-max] | CPU s, median [min-max] | load before / after |")
    print("|---|---|---|---|")
    for name, done in runs.items():
        if done:
            loads = ", ".join(f"{r['load_before']:.1f}/{r['load_after']:.1f}" for r in done)
            print(f"| {name} | {summary(done, 'wall')} | {summary(done, 'cpu')} | {loads} |")
    if any(r["load_before"] >= 2 or r["load_after"] >= 2 for d in runs.values() for r in d):
        print("warning: the load average reached 2 or more: do not quote these timings")
    if runs["mtme"]:
        print(agreement(release / "ours.json", release / "mtme.json"))
        m = args.metrics
        scale = (
            (args.pairs / args.mtme_pairs)
            * (m * (m - 1))
            / max(1, args.mtme_metrics * (args.mtme_metrics - 1))
        )
        cpu = statistics.median(r["cpu"] for r in runs["mtme"])
        print(f"mtme measured on {args.mtme_pairs} pair(s), {args.mtme_metrics} metrics, k={args.mtme_k} "
              f"(commit {args.mtme_commit or '?'}); scaled to {args.pairs} pairs x {m} metrics by {scale:.0f}: "
              f"~{cpu * scale:.0f} CPU s at k={args.mtme_k} (early stopping makes k's effect sub-linear)")  # fmt: skip


GROWTH = {  # one factor changed at a time from the base point
    "base": {},
    "pairs x2": {"pairs": 2},
    "systems x2": {"systems": 12},
    "items x2": {"items": 400},
    "metrics x2": {"metrics": 8},
    "resamples x2": {"resamples": 200},
}
BASE = {"pairs": 1, "systems": 6, "items": 200, "metrics": 4, "resamples": 100}


def grow(args: argparse.Namespace, folder: Path) -> None:
    print(
        "| point | pairs | systems | items | attached metrics | resamples | CPU s | wall s | load |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for name, change in GROWTH.items():
        point = {**BASE, **change}
        release = write_release(folder / name.replace(" ", "-"), n_pairs=point["pairs"],
                                n_systems=point["systems"], n_items=point["items"],
                                n_metrics=point["metrics"])  # fmt: skip
        runs = [timed(ours(release, point["resamples"])) for _ in range(args.repeats)]
        print(f"| {name} | {point['pairs']} | {point['systems']} | {point['items']} | {point['metrics']} | "
              f"{point['resamples']} | {summary(runs, 'cpu')} | {summary(runs, 'wall')} | "
              f"{max(r['load_after'] for r in runs):.1f} |")  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=16)
    parser.add_argument("--systems", type=int, default=20)
    parser.add_argument("--items", type=int, default=1000)
    parser.add_argument("--metrics", type=int, default=30)
    parser.add_argument("--resamples", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument(
        "--mtme", type=Path, help="a checkout holding mt_metrics_eval/ (none: ours only)"
    )
    parser.add_argument("--mtme-commit", default="", help="its commit, recorded")
    parser.add_argument("--mtme-deps", default="", help="a folder with dacite for mt-metrics-eval")
    parser.add_argument("--mtme-pairs", type=int, default=1)
    parser.add_argument("--mtme-metrics", type=int, default=6)
    parser.add_argument("--mtme-k", type=int, default=100)
    parser.add_argument("--grow", action="store_true", help="time ours at small growth points")
    parser.add_argument(
        "--attached-only",
        action="store_true",
        help="ours ranks the attached metrics only (no BLEU, chrF): like for like with mtme's driver",
    )
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="wmt25-scale-") as tmp:
        if args.grow:
            grow(args, Path(tmp))
            return 0
        started = time.perf_counter()
        release = write_release(Path(tmp) / "release", n_pairs=args.pairs, n_systems=args.systems,
                                n_items=args.items, n_metrics=args.metrics)  # fmt: skip
        print(f"release written in {time.perf_counter() - started:.1f} s: {args.pairs} pairs, "
              f"{args.systems} systems, {args.items} items, {args.metrics} metrics")  # fmt: skip
        compare(args, release)
    return 0


if __name__ == "__main__":
    sys.exit(main())
