"""``meta PATH --pairs LIST|all``: every language pair of a release meta-evaluated at once (WMT24-25 style).

For each pair the study is loaded, its machine systems scored by the computed metrics (each pair with
its own tokenizer, sacrebleu's choice for the target language unless ``--tokenize`` says otherwise) and
ranked by the statistics (WMT24's by default: soft pairwise accuracy and acc\\*_eq) against one human
criterion (``--criteria NAME``, default the study's first, the standardised one first); then the global
view (:mod:`bleu_core.stats.multi_pair`). ``--format text`` prints the per-pair rankings and the global
table, ``--format json`` all of it, ``--latex`` the global table in the findings' layout.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from .errors import StatsInputError

HELP = (
    "meta-evaluate several language pairs of a release at once: comma-separated pairs or 'all'; "
    "prints per-pair rankings and the global view (weighted average, average rank, clusters from "
    "shared null draws; statistics default soft-pairwise-accuracy,acc-eq as WMT24)"
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    """``--pairs`` and ``--latex`` on the ``meta`` parser."""
    p.add_argument("--pairs", metavar="LIST|all", help=HELP)
    p.add_argument(
        "--latex",
        action="store_true",
        help="with --pairs: print the global table as LaTeX (the WMT findings' layout)",
    )


def chosen_pairs(path: str, value: str) -> list[str]:
    """The pairs ``--pairs`` names, checked against the release's pairs."""
    from ..study.loading import list_pairs

    found = list_pairs(path)
    if not found:
        raise StatsInputError(f"{path}: not a WMT release with language pairs: --pairs needs one")
    wanted = found if value.strip() == "all" else [p.strip() for p in value.split(",") if p.strip()]
    unknown = [p for p in wanted if p not in found]
    if unknown:
        raise StatsInputError(
            f"{path}: no language pair {', '.join(unknown)}; the release has: {', '.join(found)}"
        )
    return wanted


def _task(args: argparse.Namespace, pair: str, metrics: list[str]) -> Any:
    from ..metrics.study_scores import study_metric_scores
    from ..study import load_study
    from ..study.criterion_order import criteria_order
    from ..study.reference_choice import references_from_cli
    from ..tokenizers import tokenizer_for_language
    from .multi_pair import task_from_study

    result = load_study(args.path, pair=pair, reference=references_from_cli(args.references))
    study = result.study
    criterion = (args.criteria or "").split(",")[0].strip() or criteria_order(study.criteria)[0]
    systems = list(study.systems if args.include_human else study.machine_systems)
    tables = study_metric_scores(
        study,
        metrics,
        systems=systems,
        tokenize=args.tokenize or tokenizer_for_language(study.target_lang),
        lowercase=args.lowercase,
    )
    return task_from_study(study, tables, criterion, pair)


def run(args: argparse.Namespace) -> int:
    """The ``meta --pairs`` command (see the module docstring)."""
    from .multi_pair import WMT24_STATISTICS, multi_pair_meta
    from .multi_pair_tables import format_latex, format_text
    from .ranking_command import DEFAULT_COMPUTED, format_rankings, parse_statistics

    if not args.path:
        raise StatsInputError("--pairs needs a release PATH (a folder or .zip with several pairs)")
    if getattr(args, "metric_scores", None):
        raise StatsInputError("--metric-scores is for one pair: leave out --pairs, or it")
    pairs = chosen_pairs(args.path, args.pairs)
    metrics = [m.strip() for m in (args.metrics or ",".join(DEFAULT_COMPUTED)).split(",")]
    statistics = parse_statistics(args.statistics) if args.statistics else list(WMT24_STATISTICS)
    tasks = []
    for pair in pairs:
        print(f"bleu-study: scoring {pair}…", file=sys.stderr)
        tasks.append(_task(args, pair, metrics))
    result = multi_pair_meta(
        tasks,
        statistics,
        n_resamples=args.n_resamples,
        alpha=args.alpha,
        seed=args.seed,
        confidence=args.confidence,
    )
    if args.latex:
        print(format_latex(result, caption=f"Metrics over {', '.join(pairs)} ({args.path})"))
    elif args.format == "json":
        print(json.dumps({"pairs": pairs, **result.to_dict()}, indent=1))
    else:
        print(format_rankings(result.rankings))
        print()
        print(format_text(result))
    return 0
