"""The ``spans`` sub-command: where BLEU and the MQM raters disagree, token by token.

``python -m bleu_core spans PATH [--pair xx-yy] [--system S ...] [--max-order N] [--severity Major ...]
[--category Accuracy ...] [--rater R ...] [--tokenize 13a] [--format text|json]`` loads a study with MQM
error spans (a Google MQM TSV, a saved study, ``demo:ted-en-de``...) and prints, per system and overall, the
tokens BLEU matched inside error spans (``matched_in_error``: rewarded errors), matched outside
(``matched_clean``), unmatched inside (``unmatched_in_error``) and unmatched outside every span
(``unmatched_clean``: penalised correct words), with the same table per severity and per top-level
category. Definitions: :mod:`bleu_core.study.error_agreement`. Then bleu-study's span scores of BLEU's
unmatched words (:mod:`bleu_core.study.span_scores`) and WMT25's (:mod:`bleu_core.cli.wmt25_spans_command`:
``--format wmt25-tsv`` writes the task's TSV, ``--gold-tsv``/``--predictions-tsv`` score task TSVs).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from bleu_core.cli import strict_json
from bleu_core.cli.options import domain_line
from bleu_core.errors import StudyError
from bleu_core.limits import max_bytes_from_mb, parse_max_mb
from bleu_core.tokenize.tokenizers import TOKENIZER_NAMES, tokenizer_for_language

__all__ = ["format_text", "handler", "register"]


def _table_line(label: str, counts: dict[str, int], width: int) -> str:
    cells = "  ".join(
        f"{counts[key]:>{len(key)}}"
        for key in ("matched_in_error", "matched_clean", "unmatched_in_error", "unmatched_clean")
    )
    return f"{label:<{width}}  {cells}"


def format_text(result: dict[str, Any]) -> str:
    """The text report of :meth:`bleu_core.study.error_agreement.ErrorAgreement.to_dict` output."""
    names = [s["system"] for s in result["systems"]]
    keys = {k for s in result["systems"] for k in (*s["by_severity"], *s["by_category"])}
    width = max([len(n) for n in names] + [len(k) + 11 for k in keys] + [len("overall"), 8])
    about = result.get("domain")
    lines = [] if about is None else [domain_line(about)]
    lines += [
        f"token-level agreement of BLEU (order-{result['max_order']} matches, tokenize "
        f"{result['tokenize']}{', lowercase' if result['lowercase'] else ''}, references "
        f"{', '.join(result['references'])}) with the raters' error spans",
        f"{'':<{width}}  matched_in_error  matched_clean  unmatched_in_error  unmatched_clean",
    ]
    for block in [*result["systems"], {"system": "overall", **result["overall"]}]:
        lines.append(_table_line(block["system"], block, width))
        for kind, word in (("by_severity", "severity"), ("by_category", "category")):
            for key, counts in block[kind].items():
                lines.append(_table_line(f"  {word} {key}", counts, width))
    examples = result.get("examples")
    if examples:
        for by, items in examples.items():
            lines.append(f"most {by.replace('_', ' ')}:")
            for item in items:
                lines.append(f"    {item['system']}, segment {item['segment_id']}: {item['value']}")
    return "\n".join(lines)


def format_span_scores(scores: dict[str, Any]) -> str:
    """The text report of :meth:`bleu_core.study.span_scores.SpanScoreResult.to_dict`: per system
    and overall, precision / recall / F1 of BLEU's unmatched words as error spans, each matching
    plain and severity-weighted.

    >>> row = {"precision": 0.5, "recall": 0.25, "f1": 1 / 3}
    >>> block = {k: row for k in ("exact", "exact_weighted", "overlap", "overlap_weighted",
    ...                           "character", "character_weighted")}
    >>> print(format_span_scores({"max_order": 1, "systems": {}, "overall": block}).splitlines()[-1])
    overall  0.500/0.250/0.333  0.500/0.250/0.333  0.500/0.250/0.333  0.500/0.250/0.333  0.500/0.250/0.333  0.500/0.250/0.333
    """

    def cell(prf: dict[str, float | None]) -> str:
        return "/".join(
            "n/a" if prf[k] is None else f"{prf[k]:.3f}" for k in ("precision", "recall", "f1")
        )

    keys = [
        "exact",
        "exact_weighted",
        "overlap",
        "overlap_weighted",
        "character",
        "character_weighted",
    ]
    rows = [["", *keys]]
    for name, block in [*scores["systems"].items(), ("overall", scores["overall"])]:
        rows.append([name, *(cell(block[k]) for k in keys)])
    widths = [max(len(r[j]) for r in rows) for j in range(len(keys) + 1)]
    table = "\n".join(
        "  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in rows
    )
    return (
        f"BLEU's unmatched words (order {scores['max_order']}) as predicted error spans: precision/"
        "recall/F1, micro-averaged; weighted = severity weights Minor 1, Major 5, Critical 10, a false "
        "alarm 1 (definitions: bleu_core.study.span_scores)\n" + table
    )


def _tsv_only(args: argparse.Namespace) -> int:
    """``spans --gold-tsv GOLD --predictions-tsv FILE …``: WMT25's scores of task TSVs, no study."""
    from bleu_core.cli.wmt25_spans_command import format_wmt25, score_tsv_files

    if args.path:
        raise StudyError("give PATH (a study, whose spans are the gold) or --gold-tsv, not both")
    if args.format == "wmt25-tsv":
        raise StudyError(
            "--format wmt25-tsv writes a study's spans; give PATH instead of --gold-tsv"
        )
    results, warnings = score_tsv_files(args)
    if args.format == "json":
        print(
            strict_json.dumps(
                {"wmt25": results, "warnings": warnings}, indent=1, ensure_ascii=False
            )
        )
        return 0
    for warning in warnings:
        print(f"warning: {warning}", file=sys.stderr)
    print("\n\n".join(format_wmt25(r) for r in results.values()))
    return 0


def handler(args: argparse.Namespace) -> int:
    """Run the ``spans`` command (errors propagate as :class:`~bleu_core.errors.BleuStudyError`)."""
    from bleu_core.cli.options import restrict_domain, with_esa_files
    from bleu_core.cli.wmt25_spans_command import format_wmt25, study_wmt25, write_study_tsv
    from bleu_core.study.error_agreement import error_agreement
    from bleu_core.study.loading import load_study
    from bleu_core.study.span_scores import span_scores

    if args.gold_tsv:
        return _tsv_only(args)
    if not args.path:
        raise StudyError(
            "give PATH (a study with error spans) or --gold-tsv FILE --predictions-tsv FILE"
        )
    if args.gold and args.format != "wmt25-tsv":
        raise StudyError(
            "--gold goes with --format wmt25-tsv (it writes the raters' spans as the task's gold)"
        )
    loaded = load_study(
        args.path,
        pair=args.pair,
        reference=args.reference or None,
        max_bytes=max_bytes_from_mb(args.max_mb),
    )
    study = with_esa_files(
        loaded,
        args.esa,
        max_bytes_from_mb(args.max_mb),
        pair=args.pair,
        keep=getattr(args, "keep_judge", ()),
    ).study
    whole = study
    study, about = restrict_domain(study, args.domain)  # the app's cut: the domain's spans only
    if not study.error_spans and whole.error_spans:
        raise StudyError(
            f"domain {args.domain!r} has no error spans ({len(whole.error_spans)} in the whole study, "
            "all in other domains); choose another --domain or leave it out",
            file=args.path,
        )
    if not study.error_spans:
        raise StudyError(
            "this study has no error spans; load a Google MQM TSV (errors marked <v>…</v>), a WMT24+ "
            "release with ESA scores, a study saved with spans (e.g. demo:ted-en-de), or add ESA "
            "scores with --esa FILE",
            file=args.path,
        )
    tokenize = args.tokenize or tokenizer_for_language(study.target_lang)
    if args.format == "wmt25-tsv":
        sys.stdout.write(write_study_tsv(study, args, tokenize))
        return 0
    result = error_agreement(
        study,
        systems=args.system,
        max_order=args.max_order,
        tokenize=tokenize,
        lowercase=args.lowercase,
        raters=args.rater,
        severities=args.severity,
        categories=args.category,
    )
    summary = {**result.to_dict(), "domain": about}
    summary["span_scores"] = span_scores(
        study,
        systems=args.system,
        max_order=args.max_order,
        tokenize=summary["tokenize"],
        lowercase=args.lowercase,
        raters=args.rater,
        severities=args.severity,
        categories=args.category,
    ).to_dict()
    if args.examples:
        summary["examples"] = {
            label: [
                {"system": r.system, "segment_id": r.segment_id, "value": r.value}
                for r in result.segment_ranking(by, top=args.examples)
            ]
            for label, by in (
                ("rewarded_errors", "matched_in_error"),
                ("penalised_correct_words", "unmatched_clean"),
            )
        }
    summary["wmt25"], tsv_warnings = study_wmt25(study, args, summary["tokenize"])
    if args.format == "json":
        summary["wmt25_warnings"] = tsv_warnings
        print(strict_json.dumps(summary, indent=1, ensure_ascii=False))
    else:
        for warning in tsv_warnings:
            print(f"warning: {warning}", file=sys.stderr)
        print(format_text(summary))
        print()
        print(format_span_scores(summary["span_scores"]))
        for block in summary["wmt25"].values():
            print()
            print(format_wmt25(block))
    return 0


def register(subparsers: Any) -> None:
    """Add the ``spans`` sub-command to an argparse ``subparsers`` object."""
    from bleu_core.cli.options import PAIR_HELP, add_domain_option, add_esa_option
    from bleu_core.cli.wmt25_spans_command import add_wmt25_options

    parser = subparsers.add_parser(
        "spans",
        help="token-level agreement of BLEU matches with MQM error spans (rewarded errors, "
        "penalised correct words)",
        description=__doc__.split("\n\n", 1)[1] if __doc__ else None,
    )
    parser.add_argument(
        "path",
        metavar="PATH",
        nargs="?",
        help="study with MQM or ESA spans, or demo:ted-en-de (or leave out and give --gold-tsv)",
    )
    add_esa_option(parser)
    add_domain_option(parser)
    parser.add_argument("--pair", metavar="xx-yy", help=PAIR_HELP)
    parser.add_argument(
        "--reference", nargs="+", metavar="NAME", help="translation(s) to use as reference"
    )
    parser.add_argument(
        "--system", nargs="+", metavar="S", help="only these systems (default: all)"
    )
    parser.add_argument(
        "--max-order",
        type=int,
        default=1,
        metavar="N",
        help="a token is matched when inside a matched N-gram (default 1: unigram matches)",
    )
    parser.add_argument(
        "--severity", nargs="+", metavar="SEV", help="only spans of these severities (e.g. Major)"
    )
    parser.add_argument(
        "--category",
        nargs="+",
        metavar="CAT",
        help="only spans of these categories, full (Fluency/Grammar) or top-level (Fluency)",
    )
    parser.add_argument("--rater", nargs="+", metavar="R", help="only spans of these raters")
    parser.add_argument(
        "--tokenize",
        "-tok",
        default=None,
        metavar="NAME",
        help=f"tokenizer: {', '.join(TOKENIZER_NAMES)} (default: by the study's target language, "
        "as sacrebleu's command line: zh, ja-mecab, ko-mecab, else 13a)",
    )
    parser.add_argument("--lowercase", "-lc", action="store_true", help="case-insensitive matches")
    parser.add_argument(
        "--examples",
        type=int,
        default=0,
        metavar="K",
        help="also list the K items with the most rewarded errors / penalised correct words",
    )
    parser.add_argument(
        "--format",
        choices=("text", "json", "wmt25-tsv"),
        default="text",
        help="text, json, or wmt25-tsv: BLEU's predicted spans (with --gold the raters') as the "
        "TSV of WMT25's span task",
    )
    add_wmt25_options(parser)
    parser.add_argument(
        "--max-mb", type=parse_max_mb, default=200, help="refuse files larger than this (MB)"
    )
    parser.set_defaults(func=handler)
