"""Command-line sub-commands ``meta`` and ``significance``.

``python -m bleu_core meta PATH`` correlates BLEU with every human criterion of a study (system and
segment level, bootstrap intervals); ``python -m bleu_core meta --system-scores TABLE.csv`` correlates
the columns of a published system-level table. ``python -m bleu_core significance`` prints bootstrap
intervals and the paired significance matrix, from files (``-r REF … -i HYP …``) or a study.
"""

from __future__ import annotations

import argparse
import math
from typing import TYPE_CHECKING, Any

from ..limits import (
    MAX_RESAMPLES,
    parse_fraction,
    parse_max_mb,
    parse_resamples,
)
from ..maths.resampling import DEFAULT_SEED
from . import strict_json
from .domain_command import domain_signatures, on_domain, significance_provenance

if TYPE_CHECKING:
    from bleu_core.engine.options import BleuOptions
    from bleu_core.study.model import Study

    from ..evaluation.clusters import MetricRanking
    from ..evaluation.study_meta import MetaResult
    from ..metrics.study_scores import MetricTable


def _fmt(value: float | None, digits: int = 4) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "n/a"
    return f"{value:.{digits}f}"


def _interval(ci: Any, digits: int = 4) -> str:
    return "" if ci is None else f"({_fmt(ci[0], digits)}, {_fmt(ci[1], digits)})"


def _table(rows: list[list[str]]) -> str:
    widths = [max(len(r[j]) for r in rows) for j in range(len(rows[0]))]
    return "\n".join(
        "  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in rows
    )


def _split_names(value: str | None) -> list[str] | None:
    return None if not value else [v.strip() for v in value.split(",") if v.strip()]


def _load_study(args: argparse.Namespace) -> Study:
    import sys

    from ..study import load_study
    from ..study.reference_choice import references_from_cli

    result = load_study(args.path, pair=args.pair, reference=references_from_cli(args.references))
    if getattr(args, "esa", None) or getattr(args, "keep_judge", None):  # ESA files, kept judges
        from .options import with_esa_files

        result = with_esa_files(result, args.esa, pair=args.pair, keep=args.keep_judge)
    scope = (
        " (whole study)" if getattr(args, "domain", None) else ""
    )  # found before the domain's cut
    for warning in result.warnings:  # the study loaded, but the reader should know
        print(f"bleu-study: warning{scope}: {warning}", file=sys.stderr)
    if getattr(args, "tokenize", "") is None:  # no --tokenize: sacrebleu's choice for the target
        from ..tokenize.tokenizers import tokenizer_for_language

        args.tokenize = tokenizer_for_language(result.study.target_lang)
    if getattr(args, "tokenize", None):  # a space-based tokenizer on a zh/ja/ko target: say so
        from ..tokenize.tokenizers import tokenizer_warning

        unsuitable = tokenizer_warning(args.tokenize, result.study.target_lang)
        if unsuitable:
            print(f"bleu-study: warning: {unsuitable}", file=sys.stderr)
    return result.study


# ------------------------------------------------------------------------------------------- meta


def _meta_table(args: argparse.Namespace) -> int:
    from ..evaluation.system_table import read_system_table, table_correlations

    table = read_system_table(args.system_scores, pair=getattr(args, "pair", None))
    methods = _split_names(args.methods) or ["pearson"]
    rows = table_correlations(table, _split_names(args.criteria), methods)
    if args.format == "json":
        print(
            strict_json.dumps(
                {
                    "file": table.file,
                    "systems": list(table.systems),
                    "correlations": [r.to_dict() for r in rows],
                },
                indent=1,
            )
        )
        return 0
    out = [["metric", "criterion", "method", "r", "p", "n"]]
    for r in rows:
        res = r.result
        out.append(
            [r.metric, r.criterion, res.method, _fmt(res.statistic), _fmt(res.pvalue), str(res.n)]
        )
    print(_table(out))
    return 0


def cmd_meta(args: argparse.Namespace) -> int:
    from ..evaluation.ceiling import with_ceilings
    from ..evaluation.errors import StatsInputError
    from ..evaluation.study_meta import meta_evaluate
    from .error_free_command import error_free_for_meta, print_error_free
    from .human_passes_command import human_passes, human_passes_text
    from .options import domain_line, options_from_args
    from .ranking_command import print_latex

    if getattr(args, "pairs", None) or getattr(args, "studies", None):  # several pairs, WMT24-25
        from .multi_pair_command import run

        if getattr(args, "domain", None):
            raise StatsInputError(
                "--domain works on one study: give PATH --pair xx-yy, not --pairs"
            )

        return run(args)
    if args.system_scores:
        if args.path:
            raise StatsInputError("give either a study PATH or --system-scores TABLE.csv, not both")
        if getattr(args, "domain", None):
            raise StatsInputError(
                "--domain chooses segments of a study PATH, not of --system-scores"
            )
        return _meta_table(args)
    if not args.path:
        raise StatsInputError(
            "give a study PATH, or --system-scores TABLE.csv for a published table"
        )
    study = _load_study(args)
    if getattr(args, "metric_scores", None):  # metrics scored elsewhere (COMET...)
        from ..study.metric_scores import attach_metric_scores, read_metric_scores

        study = attach_metric_scores(study, read_metric_scores(args.metric_scores, study))
    study, about = on_domain(args, study)
    result = meta_evaluate(
        study,
        options_from_args(args),
        criteria=_split_names(args.criteria),
        include_human=args.include_human,
        references=None,  # chosen when loading (--references)
        n_resamples=args.n_resamples,
        confidence=args.confidence,
        seed=args.seed,
    )
    result = domain_signatures(result, about)
    chosen: list[Any] = []
    rankings, tables = _meta_rankings(args, study, result, chosen)
    rankings = with_ceilings(rankings, study, getattr(args, "ceiling", None))  # --ceiling CRITERION
    error_free = error_free_for_meta(study, result.systems, tables)  # WMT26 subtask 3 (ESA/MQM)
    if getattr(args, "latex", False):  # one study: its rankings in the findings' layout
        print_error_free(error_free, latex=True)
        return print_latex(rankings, study.name)
    passes = human_passes(study, seed=args.seed)  # two raters of an item: the human ceiling
    if args.format == "json":
        rank_dicts = [r.to_dict() for r in rankings]
        ranked_on = {"ranking_systems": chosen[0].to_dict()} if chosen else {}
        print(
            strict_json.dumps(
                {**result.to_dict(), "domain": about, **ranked_on, "rankings": rank_dicts}
                | ({"human_passes": passes} if passes else {})
                | ({"error_free": error_free} if error_free else {}),
                indent=1,
            )
        )
        return 0
    if about is not None:
        print(domain_line(about))
    _print_meta(result, study, rankings, chosen[0] if chosen else None)
    if passes:
        print(human_passes_text(passes))
    print_error_free(error_free)
    return 0


def _print_meta(
    result: MetaResult, study: Study, rankings: list[MetricRanking], chosen: Any
) -> None:
    """``meta``'s text output: the correlations, how they were computed, then the rankings (on the
    ``chosen`` set of systems, human translations by both names)."""
    from functools import partial

    from ..engine.segment_level import SEGMENT_RULE
    from ..study.system_names import system_label

    level = f"{result.confidence_level:.0%}"
    print(
        f"study {result.study}: {len(result.systems)} systems, {result.n_segments} segments, "
        f"references {', '.join(result.references)}"
    )
    from .ranking_command import chance_cell, chance_note

    chance = "chance: random [95%] / constant"
    out = [
        ["metric", "criterion", "level", "method", "grouping", "r", "p", "n", f"{level} CI", chance]
    ]
    out[0].append("note")
    for row in result.rows:
        r = row.result
        out.append(
            [
                row.metric,
                row.criterion,
                r.level,
                r.method,
                r.grouping or "-",
                _fmt(r.statistic),
                _fmt(r.pvalue),
                str(r.n),
                _interval(r.confidence_interval),
                chance_cell(row.chance),
                r.note,
            ]
        )
    print(_table(out))
    print(chance_note(result.rows))
    print(
        f"bootstrap: {result.n_resamples} resamples of segments, seed {result.seed}; BLEU {result.signature}"
    )
    print(f"segment level: {SEGMENT_RULE}, {result.segment_signature}")
    for row in result.rows:  # what changes the headline numbers, one line per criterion
        if row.result.level == "system" and row.result.method == "pearson":
            print(f"{row.criterion}, system level: {result.row_signature(row)}")
    for criterion in result.rated:  # the systems that enter each criterion's numbers
        kept, aside = result.entering(criterion), result.set_aside(criterion)
        print(
            f"{criterion}: {len(kept)} of {len(result.systems)} systems are rated on {criterion} and "
            "enter its numbers"
            + (f"; set aside (no {criterion} rating): {', '.join(aside)}" if aside else "")
        )
    if rankings:
        from .ranking_command import format_rankings

        print()
        if chosen is not None:
            label = partial(system_label, human=study.human_systems)  # HUMAN-B (ref-B)
            print(f"every metric scores {chosen.describe(label)}; each ranking says which enter")
        print(format_rankings(rankings))


def _meta_rankings(
    args: argparse.Namespace, study: Study, result: MetaResult, chosen: list[Any] | None = None
) -> tuple[list[MetricRanking], dict[str, MetricTable]]:
    """Every metric ranked by the --statistics, on the systems meta evaluated that every metric
    scores (that set is appended to ``chosen``), and the metric scores on meta's systems (computed
    once: the error-free section uses them too; none when neither needs them)."""
    from ..metrics.study_scores import study_metric_scores
    from ..study.criterion_order import criteria_order
    from .error_free_command import has_error_free_gold
    from .options import options_from_args
    from .ranking_command import (
        DEFAULT_COMPUTED,
        meta_rankings,
        parse_statistics,
        stderr_progress,
    )

    options = options_from_args(args)
    statistics = parse_statistics(getattr(args, "statistics", None))
    if not statistics and not has_error_free_gold(study):
        return [], {}
    metrics = _split_names(getattr(args, "metrics", None)) or list(DEFAULT_COMPUTED)
    progress, cache = stderr_progress(), _ter_cache_dir(args)
    tables = study_metric_scores(study, metrics, systems=list(result.systems),
                                 tokenize=options.tokenize, lowercase=options.lowercase,
                                 ter_cache_dir=cache, progress=progress)  # fmt: skip
    rankings = meta_rankings(
        study,
        result.systems,
        metrics=metrics,
        statistics=statistics,
        criteria=_split_names(args.criteria) or criteria_order(study.criteria),
        tokenize=options.tokenize,
        lowercase=options.lowercase,
        n_resamples=args.n_resamples,
        alpha=getattr(args, "alpha", 0.05),
        seed=args.seed,
        confidence=args.confidence,
        ter_cache_dir=cache,
        progress=progress,
        chosen=chosen,
        tables=tables,
    )
    return rankings, tables


def _ter_cache_dir(args: argparse.Namespace) -> Any:
    """``--ter-cache DIR`` (default: the shared TER cache), or ``None`` with ``--no-ter-cache``."""
    from ..metrics.ter import DEFAULT_TER_CACHE

    if getattr(args, "no_ter_cache", False):
        return None
    return getattr(args, "ter_cache", None) or DEFAULT_TER_CACHE


# ------------------------------------------------------------------------------------------- significance


def _systems_from_args(args: argparse.Namespace, options: BleuOptions) -> dict[str, Any]:
    from ..evaluation.errors import StatsInputError
    from .options import options_from_args

    if args.path:
        from ..evaluation.study_meta import (  # not needed for -r/-i files
            choose_systems,
            study_statistics,
        )

        if args.refs or args.input:
            raise StatsInputError("give either a study PATH or -r/-i files, not both")
        study, about = on_domain(args, _load_study(args))
        options = options_from_args(args)  # the tokenizer of the study's target language
        names = choose_systems(study, _split_names(args.systems), args.include_human)
        humans = bool(set(names) & study.human_systems) if study.human_systems else None
        args.study_provenance, args.study = (list(study.references), humans, about), study
        from ..study.output_rows import counted_statistics, missing_note

        args.missing_note = missing_note(study, names)  # a missing output counts for nothing
        return counted_statistics(study, study_statistics(study, options, names, None))
    from .significance_command import file_system_statistics

    return file_system_statistics(args, options)


def cmd_significance(args: argparse.Namespace) -> int:
    from ..evaluation.bootstrap import bootstrap
    from ..evaluation.cluster_report import significance_clusters
    from ..evaluation.errors import StatsInputError
    from ..evaluation.randomization import approximate_randomization
    from .options import domain_line, options_from_args

    options = options_from_args(args)
    systems = _systems_from_args(args, options)
    options = options_from_args(args)  # a study PATH has set the tokenizer of its target language
    if len(systems) < 2:
        raise StatsInputError(f"significance tests need at least 2 systems, got {len(systems)}")
    baseline = next(iter(systems)) if args.baseline == "first" else args.baseline
    boot = bootstrap(
        systems, options, n_resamples=args.n_resamples, confidence=args.confidence, seed=args.seed
    )
    tests = []
    if args.test in ("bs", "both"):
        tests.append(boot.paired(baseline=baseline, alpha=args.alpha))
    if args.test in ("ar", "both"):
        tests.append(
            approximate_randomization(
                systems,
                options,
                n_trials=args.n_trials,
                seed=args.seed,
                baseline=baseline,
                alpha=args.alpha,
            )
        )
    if args.format == "json":
        print(
            strict_json.dumps(
                {
                    "bootstrap": boot.to_dict(),
                    "tests": [t.to_dict() for t in tests],
                    **significance_provenance(args, systems, options, boot),
                    "missing_outputs": getattr(args, "missing_note", None),
                    **significance_clusters(args, boot, as_json=True),  # a study PATH: clusters
                },
                indent=1,
            )
        )
        return 0
    level = f"{boot.confidence_level:.0%}"
    out = [["system", "BLEU", "mean", f"{level} CI", "RSD"]]
    for iv in boot.intervals:
        out.append(
            [
                iv.system,
                _fmt(iv.statistic, 2),
                _fmt(iv.mean, 2),
                _interval(iv.confidence_interval, 2),
                _fmt(iv.rsd, 4),
            ]
        )
    print(_table(out))
    print(f"bootstrap: {boot.n_resamples} resamples, seed {boot.seed}")
    provenance = significance_provenance(args, systems, options, boot)
    if provenance["domain"] is not None:
        print(domain_line(provenance["domain"]))
    print(f"signature: {provenance['signature']}")
    if getattr(args, "missing_note", None):
        print(args.missing_note)
    from ..evaluation.paired_text import paired_test_text

    for t in tests:  # each pair, the rule its verdict follows, the matrix
        print()
        print(paired_test_text(t))
    significance_clusters(args, boot)  # a study PATH: BLEU, human and the release's clusters
    return 0


# ------------------------------------------------------------------------------------------- registration


def _common(p: argparse.ArgumentParser) -> None:
    from .options import PAIR_HELP

    p.add_argument("--pair", metavar="xx-yy", help=PAIR_HELP)
    p.add_argument(
        "--references",
        "--reference",
        dest="references",
        nargs="+",
        metavar="NAMES",
        help="human translations to use as reference streams: A,B (letters or names) or 'all'; the "
        "others become human systems (default: the study's own choice, WMT: the first reference)",
    )
    p.add_argument(
        "--include-human", action="store_true", help="also evaluate the human translations"
    )
    p.add_argument(
        "--n-resamples",
        type=parse_resamples,
        default=1000,
        metavar="M",
        help=f"bootstrap resamples, 1 to {MAX_RESAMPLES:,} (default 1000)",
    )
    p.add_argument(
        "--seed", type=int, default=DEFAULT_SEED, help=f"random seed (default {DEFAULT_SEED})"
    )
    p.add_argument(
        "--confidence", type=parse_fraction, default=0.95, help="confidence level (default 0.95)"
    )
    p.add_argument("--format", choices=("json", "text"), default="text")


def _add_meta_inputs(p: argparse.ArgumentParser) -> None:
    """What ``meta`` correlates: a study PATH or a published ``--system-scores`` table, which of its
    criteria and methods, and the scores of metrics computed elsewhere."""
    p.add_argument("path", nargs="?", help="study folder, zip or file")
    p.add_argument(
        "--system-scores",
        metavar="TABLE.csv",
        help="CSV/TSV: first column system names, one column per metric or human criterion",
    )
    p.add_argument(
        "--criteria",
        metavar="NAMES",
        help="comma-separated human criterion columns/names (default: all criteria of a study; for "
        "a table, columns named like adequacy, fluency, mqm, da, human, ...)",
    )
    p.add_argument(
        "--methods",
        metavar="NAMES",
        help="for --system-scores: pearson,spearman,kendall (default pearson)",
    )
    p.add_argument(
        "--metric-scores",
        nargs="+",
        metavar="FILE_OR_DIR",
        help="scores of metrics computed elsewhere (MTME *.score files, a system,segment_id,metric,"
        "score table, or a WMT automatic-scores.tsv), ranked beside the computed metrics",
    )


def _add_meta_rankings(p: argparse.ArgumentParser) -> None:
    """How ``meta`` ranks the metrics: which ones, by which statistics, the clusters' significance
    level, and where TER keeps its per-segment statistics."""
    p.add_argument(
        "--metrics",
        metavar="NAMES",
        help="metrics computed here to rank (default BLEU,chrF; e.g. BLEU,chrF,TER,NIST)",
    )
    p.add_argument(
        "--statistics",
        metavar="NAMES",
        help="rankings: pairwise-accuracy, pearson, spearman, kendall, soft-pairwise-accuracy (SPA), "
        "acc-eq (acc*_eq, acc23), tau-eq (tau*_eq, tau23), kendall-wmt (tau-like); 'none' for none "
        "(default pairwise-accuracy,acc-eq; docs/meta-evaluation.md names them)",
    )
    p.add_argument(
        "--alpha",
        type=parse_fraction,
        default=0.05,
        help="significance level of the clusters (default 0.05)",
    )
    ter = p.add_mutually_exclusive_group()
    ter.add_argument(
        "--ter-cache",
        metavar="DIR",
        help="where TER's per-segment statistics are kept between runs (default "
        "~/.cache/bleu-study/ter)",
    )
    ter.add_argument(
        "--no-ter-cache",
        action="store_true",
        help="compute TER without reading or writing the cache",
    )


def _register_meta(subparsers: Any) -> None:
    """The ``meta`` sub-command: its inputs, rankings, several language pairs, the options shared
    with ``significance``, BLEU's options and ESA files."""
    from .multi_pair_command import add_arguments as add_multi_pair_arguments
    from .options import add_bleu_options, add_domain_option, add_esa_option

    p = subparsers.add_parser(
        "meta",
        help="correlation of BLEU with human scores (a study), or of a published system-level table",
        description="System- and segment-level correlation of BLEU with every human criterion of a study, "
        "with bootstrap confidence intervals; or, with --system-scores, every metric × criterion Pearson r "
        "of a CSV table (one row per system; NA allowed).",
    )
    _add_meta_inputs(p)
    _add_meta_rankings(p)
    add_multi_pair_arguments(p)
    _common(p)
    add_bleu_options(p)
    add_esa_option(p)
    add_domain_option(p)
    p.set_defaults(func=cmd_meta)


def _add_significance_inputs(q: argparse.ArgumentParser) -> None:
    """What ``significance`` compares: a study PATH (and which of its systems) or ``-r``/``-i`` files."""
    q.add_argument("path", nargs="?", help="study folder, zip or file (instead of -r/-i)")
    q.add_argument("-r", "--refs", nargs="+", metavar="REF", help="reference files")
    q.add_argument("-i", "--input", nargs="+", metavar="HYP", help="system output files")
    q.add_argument(
        "--systems",
        metavar="NAMES",
        help="for a study: comma-separated systems (default: machine systems)",
    )


def _add_significance_tests(q: argparse.ArgumentParser) -> None:
    """Which paired tests ``significance`` runs, against which baseline, at which level."""
    q.add_argument(
        "--test",
        choices=("bs", "ar", "both"),
        default="bs",
        help="bs = paired bootstrap, ar = approximate randomisation (default bs)",
    )
    q.add_argument(
        "--n-trials",
        type=parse_resamples,
        default=10000,
        metavar="R",
        help=f"randomisation trials, 1 to {MAX_RESAMPLES:,} (default 10000)",
    )
    q.add_argument(
        "--baseline",
        metavar="NAME",
        help="compare each system with this one only ('first' = the first system, as sacrebleu); "
        "default: every pair",
    )
    q.add_argument(
        "--alpha", type=parse_fraction, default=0.05, help="significance level (default 0.05)"
    )


def _register_significance(subparsers: Any) -> None:
    """The ``significance`` sub-command: its inputs, tests, the input size limit, the options shared
    with ``meta``, BLEU's options and ESA files."""
    from .options import add_bleu_options, add_domain_option, add_esa_option

    q = subparsers.add_parser(
        "significance",
        help="bootstrap confidence intervals and paired significance tests of BLEU",
        description="Bootstrap CIs of BLEU per system (Zhang & Vogel 2004) and paired tests between systems "
        "(paired bootstrap like sacrebleu --paired-bs, approximate randomisation like --paired-ar).",
    )
    _add_significance_inputs(q)
    _add_significance_tests(q)
    q.add_argument(
        "--max-mb", type=parse_max_mb, default=200, help="refuse input files larger than this (MB)"
    )
    _common(q)
    add_bleu_options(q)
    add_esa_option(q)
    add_domain_option(q)
    q.set_defaults(func=cmd_significance)


def register(subparsers: Any) -> None:
    """Add the ``meta`` and ``significance`` sub-commands to the command line's sub-parsers."""
    _register_meta(subparsers)
    _register_significance(subparsers)
