"""``meta PATH --pairs LIST|all`` and ``meta --studies ITEM …``: several language pairs at once (WMT24-25).

``--pairs`` takes the pairs of one release folder or zip; ``--studies`` separate studies, each
``[NAME=]PATH[:PAIR]`` (:mod:`bleu_core.cli.multi_study_command`), one column each, ranked alike.

For each pair the study is loaded, its machine systems scored by the computed metrics (each pair with
its own tokenizer, sacrebleu's choice for the target language unless ``--tokenize`` says otherwise) and
ranked by the statistics (WMT24's by default: soft pairwise accuracy and acc\\*_eq) against one human
criterion (``--criteria NAME``, default the study's first, the standardised one first); then the global
view (:mod:`bleu_core.evaluation.multi_pair`). Each pair also carries what single-pair ``meta`` and
``significance`` give beside the rankings: BLEU's document-level correlation with the criterion and the
criterion's human significance clusters (:mod:`bleu_core.evaluation.multi_pair_extras`). ``--format text``
prints the per-pair rankings, the global table and each pair's document level and clusters,
``--format json`` all of it (``per_pair``), ``--latex`` the global table in the findings' layout. Every ranking
and the global table carry the human ceiling (``--ceiling raters``, the default: one rater against
another; ``--ceiling CRITERION``: a second criterion against each ranking's).
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from ..evaluation.errors import StatsInputError
from . import strict_json

if TYPE_CHECKING:
    from bleu_core.study.model import Study

    from ..evaluation.multi_pair import Task
    from ..evaluation.multi_pair_extras import PairExtras

HELP = (
    "meta-evaluate several language pairs of a release at once: comma-separated pairs or 'all'; "
    "prints per-pair rankings, document-level correlation and human clusters, and the global view "
    "(weighted average, average rank, clusters from shared null draws; statistics default "
    "soft-pairwise-accuracy,acc-eq as WMT24)"
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    """``--pairs``, ``--studies``, ``--latex`` and ``--ceiling`` on the ``meta`` parser."""
    p.add_argument("--pairs", metavar="LIST|all", help=HELP)
    p.add_argument(
        "--studies",
        nargs="+",
        metavar="STUDY",
        help="meta-evaluate separate studies as one multi-pair task (instead of PATH --pairs): each "
        "STUDY is [NAME=]PATH[:PAIR], a study folder, zip or file, PATH:PAIR for one pair of a "
        "release, NAME= to name its column (default: its language pair)",
    )
    p.add_argument(
        "--ceiling",
        metavar="raters|CRITERION",
        help="the human ceiling beside every metric: 'raters' (default) one rater against another on "
        "the items two raters scored; a CRITERION: that criterion against each ranking's (WMT21's mqm "
        "against da); a ranking against CRITERION itself keeps the rater split",
    )
    p.add_argument(
        "--latex",
        action="store_true",
        help="print the table as LaTeX in the WMT findings' layout (the global table with --pairs or "
        "--studies; one study's rankings otherwise)",
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


def _task(args: argparse.Namespace, one: Any, computed: list[str], attached: Any) -> Any:
    """The :class:`~bleu_core.evaluation.multi_pair.Task` of one loaded study (its machine systems, or
    every system with ``--include-human``, against its criterion)."""
    from ..evaluation.multi_pair import task_from_study
    from ..metrics.study_scores import study_metric_scores
    from ..tokenize.tokenizers import tokenizer_for_language, tokenizer_warning
    from .multi_study_command import study_criterion

    study = one.study
    criterion = study_criterion(one, (args.criteria or "").split(",")[0].strip())
    systems = list(study.systems if args.include_human else study.machine_systems)
    unsuitable = args.tokenize and tokenizer_warning(args.tokenize, study.target_lang)
    if unsuitable:  # a space tokenizer on a zh/ja/ko pair of the release
        print(f"bleu-study: warning: {one.name}: {unsuitable}", file=sys.stderr)
    tables = study_metric_scores(
        study,
        computed,
        systems=systems,
        attached=attached,
        tokenize=args.tokenize or tokenizer_for_language(study.target_lang),
        lowercase=args.lowercase,
    )
    return task_from_study(study, tables, criterion, one.name)


def _extras(args: argparse.Namespace, study: Study, task: Task) -> PairExtras:
    """The pair's document-level correlation and human clusters
    (:func:`~bleu_core.evaluation.multi_pair_extras.pair_extras`) on the systems its task scores, with the
    pair's BLEU options (its target language's tokenizer unless ``--tokenize`` says otherwise)."""
    from ..evaluation.multi_pair_extras import pair_extras
    from .options import options_from_args

    options = options_from_args(args, target_lang=study.target_lang)
    systems = list(next(iter(task.tables.values())).systems)
    return pair_extras(task.name, study, options, task.criterion, systems, args.alpha)


def _studies(args: argparse.Namespace) -> tuple[list[Any], str]:
    """The loaded studies of ``--studies`` or of ``PATH --pairs``, and how the caption names them."""
    from ..study.reference_choice import references_from_cli
    from .multi_study_command import load_studies, release_studies

    references = references_from_cli(args.references)
    if args.studies:
        for flag, value in (("a PATH", args.path), ("--pairs", args.pairs), ("--pair", args.pair)):
            if value:
                raise StatsInputError(
                    f"--studies names every study and its pair ([NAME=]PATH[:PAIR]): leave out {flag}"
                )
        if getattr(args, "esa", None):
            raise StatsInputError("--esa adds ESA files to one study: leave out --studies, or it")
        loaded = load_studies(args.studies, references)
        return loaded, ", ".join(one.name for one in loaded)
    if not args.path:
        raise StatsInputError("--pairs needs a release PATH (a folder or .zip with several pairs)")
    pairs = chosen_pairs(args.path, args.pairs)
    return release_studies(args.path, pairs, references), f"{', '.join(pairs)} ({args.path})"


def run(args: argparse.Namespace) -> int:
    """The ``meta --pairs`` and ``meta --studies`` command (see the module docstring)."""
    from ..evaluation.multi_pair import WMT24_STATISTICS, multi_pair_meta
    from ..evaluation.multi_pair_extras import format_extras
    from ..evaluation.multi_pair_tables import format_latex, format_text
    from .multi_study_command import split_metrics
    from .ranking_command import DEFAULT_COMPUTED, format_rankings, parse_statistics

    if getattr(args, "metric_scores", None):
        raise StatsInputError(
            "--metric-scores is for one pair: leave out --pairs/--studies, or it (a study that "
            "carries attached scores is ranked by them: name them in --metrics)"
        )
    studies, label = _studies(args)
    names = [m.strip() for m in (args.metrics or ",".join(DEFAULT_COMPUTED)).split(",")]
    computed, attached = split_metrics(studies, names)
    statistics = parse_statistics(args.statistics) if args.statistics else list(WMT24_STATISTICS)
    tasks, extras = [], []
    for one in studies:
        print(f"bleu-study: scoring {one.name}…", file=sys.stderr)
        tasks.append(_task(args, one, computed, attached or True))  # none named: every one
        extras.append(_extras(args, one.study, tasks[-1]))
    result = multi_pair_meta(
        tasks,
        statistics,
        n_resamples=args.n_resamples,
        alpha=args.alpha,
        seed=args.seed,
        confidence=args.confidence,
        ceiling=args.ceiling,
        progress=lambda line: print(f"bleu-study: {line}…", file=sys.stderr),
    )
    if args.latex:
        print(format_latex(result, caption=f"Metrics over {label}"))
    elif args.format == "json":
        given = {"studies": [one.to_dict() for one in studies]} if args.studies else {}
        pairs = [one.name for one in studies]
        per_pair = {"per_pair": [e.to_dict() for e in extras]}  # document level, human clusters
        data = {"pairs": pairs, **given, **result.to_dict(), **per_pair}
        print(strict_json.dumps(data, indent=1))
    else:
        print(format_rankings(result.rankings))
        print()
        print(format_text(result))
        print()
        print(format_extras(extras))
    return 0
