"""mt-metrics-eval's own WMT25 task path on a release written by ``benchmarks/wmt25_release.py``.

For each language pair it does what ``mt_metrics_eval.tasks.WMT25`` asks of ``Task.Run`` (per pair: ``pce``
at the system level, ``KendallWithTiesOpt`` acc23 averaged by item with ``perm_test='pairs'`` and
``sample_rate=1.0`` at the segment level), calling the same functions Task.Run calls —
``data.CompareMetricsWithPairwiseConfidenceError`` (soft pairwise accuracy, ``stats.PairwiseConfidenceError``,
PERM-BOTH over scores) and ``data.CompareMetrics(..., stats.KendallWithTiesOpt, 'item', ...)`` (acc*_eq, the
pairwise permutation test) — with the Task's default early-stopping parameters (blocks of 100 draws, stop
below p 0.02 or above 0.5) unless ``--no-early-stop``. Only the loading differs: mt-metrics-eval's
``EvalSet`` reads its own data folders, so this driver reads the release's JSON lines itself into the
``stats.Correlation`` objects ``data.GetCorrelations`` would build (gold = ESA per system × item, system-major).
``data.py`` imports ``apache_beam`` for its ``parallel_file`` option alone; when it is not installed an empty
stand-in module takes its place (nothing of it is called: every comparison runs in this process).

mt-metrics-eval is imported from the folder given by ``--mtme`` (a checkout of
github.com/google-research/mt-metrics-eval; never copied into this repository, and not the unrelated PyPI
package of the same name). It prints one JSON line: the commit given by ``--commit`` (for the record), the
pairs, the resamples and, per pair and task, every metric's value and cluster rank, plus the seconds spent.

Run: ``python benchmarks/mtme_driver.py RELEASE --mtme /tmp/mtme [--pairs 2] [--k 1000] [--metrics 30]``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import types
from collections import defaultdict
from pathlib import Path
from typing import Any


def read_release(root: Path) -> dict[str, dict[str, Any]]:
    """Per pair: ``systems``, ``items`` (humeval ids in file order), ``gold[system][item]`` and
    ``metrics[metric][system][item]`` (the release's automatic scores, one per paragraph)."""
    data = root / "data"
    pairs: dict[str, dict[str, Any]] = defaultdict(
        lambda: {
            "items": [],
            "gold": defaultdict(dict),
            "metrics": defaultdict(lambda: defaultdict(dict)),
        }
    )
    with (data / "wmt25-genmt-humeval.jsonl").open(encoding="utf-8") as lines:
        for line in lines:
            row = json.loads(line)
            pair = row["doc_id"].split("_#_")[0]
            item = row["doc_id"]
            pairs[pair]["items"].append(item)
            for system, score in row["scores"].items():
                pairs[pair]["gold"][system][item] = score["human1"]
    for path in sorted((data / "automatic_scores").glob("*.jsonl")):
        system = path.stem
        with path.open(encoding="utf-8") as lines:
            for line in lines:
                row = json.loads(line)
                pair = row["language_pair"]
                doc = f"{pair}_#_{row['domain']}_#_{row['document_id']}"
                for metric, values in row["metric_scores"].items():
                    for i, value in enumerate(values):
                        pairs[pair]["metrics"][metric][system][f"{doc}_#_{i}"] = value
    for info in pairs.values():
        info["systems"] = sorted(info["gold"])
    return dict(pairs)


def correlations(info: dict[str, Any], metrics: list[str], stats: Any) -> dict[str, Any]:
    """``{metric: stats.Correlation}`` with system-major vectors, as data.GetCorrelations builds them."""
    systems, items = info["systems"], info["items"]
    gold = [info["gold"][s].get(i) for s in systems for i in items]
    return {
        m: stats.Correlation(
            len(systems), gold, [info["metrics"][m][s][i] for s in systems for i in items]
        )
        for m in metrics
    }


def run_pair(
    info: dict[str, Any], metrics: list[str], k: int, early: bool, modules: Any
) -> dict[str, Any]:
    """SPA and acc*_eq of one pair with clusters, as Task.Run does for WMT25's two tasks."""
    data, stats = modules
    psd = (
        stats.PermutationSigDiffParams(100, 0.02, 0.5)
        if early
        else stats.PermutationSigDiffParams(k, 0.0, 1.0)
    )
    corrs = correlations(info, metrics, stats)
    out: dict[str, Any] = {}
    started = time.perf_counter()
    spa, *_ = data.CompareMetricsWithPairwiseConfidenceError(corrs, k, psd, 0.05, False, "scores")
    out["spa"] = {m: [float(v), int(r)] for m, (v, r) in spa.items()}
    out["spa_seconds"] = time.perf_counter() - started
    started = time.perf_counter()
    acc, *_ = data.CompareMetrics(
        corrs, stats.KendallWithTiesOpt, "item", k, psd, 0.05, False, "pairs", sample_rate=1.0
    )
    out["acc_eq"] = {m: [float(v), int(r)] for m, (v, r) in acc.items()}
    out["acc_eq_seconds"] = time.perf_counter() - started
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("release", type=Path)
    parser.add_argument("--mtme", type=Path, required=True, help="folder holding mt_metrics_eval/")
    parser.add_argument(
        "--commit", default="", help="the checkout's commit, recorded in the output"
    )
    parser.add_argument("--pairs", type=int, default=0, help="the first N pairs (0: all)")
    parser.add_argument("--metrics", type=int, default=0, help="the first N metrics (0: all)")
    parser.add_argument(
        "--k", type=int, default=1000, help="resamples per metric pair (Task: 1000)"
    )
    parser.add_argument("--no-early-stop", action="store_true", help="always draw all k resamples")
    parser.add_argument(
        "--seed", type=int, default=12345, help="numpy's global seed (mtme draws from it)"
    )
    args = parser.parse_args(argv)
    sys.path.insert(0, str(args.mtme.resolve()))
    try:  # data.py imports apache_beam for its parallel_file option only, which is not used here
        import apache_beam  # noqa: F401, PLC0415
    except ImportError:
        sys.modules["apache_beam"] = types.ModuleType("apache_beam")
    import numpy as np
    from mt_metrics_eval import data, stats  # noqa: PLC0415  (from the path given)

    np.random.seed(args.seed)
    started = time.perf_counter()
    release = read_release(args.release)
    pairs = sorted(release)[: args.pairs or None]
    results = {}
    for pair in pairs:
        metrics = sorted(release[pair]["metrics"])[: args.metrics or None]
        results[pair] = run_pair(
            release[pair], metrics, args.k, not args.no_early_stop, (data, stats)
        )
    print(
        json.dumps(
            {"mtme_commit": args.commit, "pairs": pairs, "k": args.k,
             "early_stop": not args.no_early_stop, "seconds": time.perf_counter() - started,
             "results": results}
        )
    )  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
