"""The ``spans`` sub-command: where BLEU and the MQM raters disagree, token by token.

``python -m bleu_core spans PATH [--pair xx-yy] [--system S ...] [--max-order N] [--severity Major ...]
[--category Accuracy ...] [--rater R ...] [--tokenize 13a] [--format text|json]`` loads a study with MQM
error spans (a Google MQM TSV, a saved study, ``demo:ted-en-de``...) and prints, per system and overall, the
tokens BLEU matched inside error spans (``matched_in_error``: rewarded errors), matched outside
(``matched_clean``), unmatched inside (``unmatched_in_error``) and unmatched outside every span
(``unmatched_clean``: penalised correct words), with the same table per severity and per top-level
category. Definitions: :mod:`bleu_core.study.error_agreement`.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from bleu_core.errors import StudyError
from bleu_core.limits import max_bytes_from_mb, parse_max_mb
from bleu_core.tokenizers import TOKENIZER_NAMES

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
    lines = [
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


def handler(args: argparse.Namespace) -> int:
    """Run the ``spans`` command (errors propagate as :class:`~bleu_core.errors.BleuStudyError`)."""
    from bleu_core.study.error_agreement import error_agreement
    from bleu_core.study.loading import load_study

    study = load_study(
        args.path,
        pair=args.pair,
        reference=args.reference or None,
        max_bytes=max_bytes_from_mb(args.max_mb),
    ).study
    if not study.error_spans:
        raise StudyError(
            "this study has no MQM error spans; load a Google MQM TSV (errors marked <v>…</v>) or "
            "a study saved with spans, e.g. demo:ted-en-de",
            file=args.path,
        )
    result = error_agreement(
        study,
        systems=args.system,
        max_order=args.max_order,
        tokenize=args.tokenize,
        lowercase=args.lowercase,
        raters=args.rater,
        severities=args.severity,
        categories=args.category,
    )
    summary = result.to_dict()
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
    if args.format == "json":
        print(json.dumps(summary, indent=1, ensure_ascii=False))
    else:
        print(format_text(summary))
    return 0


def register(subparsers: Any) -> None:
    """Add the ``spans`` sub-command to an argparse ``subparsers`` object."""
    parser = subparsers.add_parser(
        "spans",
        help="token-level agreement of BLEU matches with MQM error spans (rewarded errors, "
        "penalised correct words)",
        description=__doc__.split("\n\n", 1)[1] if __doc__ else None,
    )
    parser.add_argument("path", metavar="PATH", help="study with MQM spans, or demo:ted-en-de")
    parser.add_argument("--pair", metavar="xx-yy", help="language pair of a WMT release")
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
        default="13a",
        metavar="NAME",
        help=f"tokenizer: {', '.join(TOKENIZER_NAMES)} (default 13a)",
    )
    parser.add_argument("--lowercase", "-lc", action="store_true", help="case-insensitive matches")
    parser.add_argument(
        "--examples",
        type=int,
        default=0,
        metavar="K",
        help="also list the K items with the most rewarded errors / penalised correct words",
    )
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument(
        "--max-mb", type=parse_max_mb, default=200, help="refuse files larger than this (MB)"
    )
    parser.set_defaults(func=handler)
