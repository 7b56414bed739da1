"""The WMT25 parts of the ``spans`` command: the task's span scores, its TSV out and back in.

* ``spans PATH`` prints, beside bleu-study's own span scores, WMT25's (:mod:`bleu_core.study.
  span_scorer_wmt25`) of BLEU's unmatched words (``--bleu-severity minor|major|by-order``, see
  :mod:`bleu_core.study.wmt25_study`), and of every ``--predictions-tsv FILE`` against the study's gold;
* ``spans PATH --format wmt25-tsv`` writes BLEU's predicted spans as the task's TSV (a submission), with
  ``--gold`` the raters' spans in the task's gold form (:mod:`bleu_core.study.wmt25_tsv`);
* ``spans --gold-tsv GOLD --predictions-tsv FILE …`` scores task TSVs without a study.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bleu_core.errors import StudyError
from bleu_core.limits import max_bytes_from_mb

if TYPE_CHECKING:
    from bleu_core.study.model import Study

__all__ = ["add_wmt25_options", "format_wmt25", "score_tsv_files", "study_wmt25", "write_study_tsv"]


def add_wmt25_options(parser: argparse.ArgumentParser) -> None:
    """The ``spans`` options of this module."""
    from bleu_core.study.wmt25_study import BLEU_SEVERITY_RULES

    parser.add_argument(
        "--bleu-severity",
        choices=BLEU_SEVERITY_RULES,
        default="minor",
        help="the severity BLEU's unmatched words claim in WMT25's scores and the TSV: minor "
        "(default), major, or by-order (a word no reference has: major; one out of context: minor)",
    )
    parser.add_argument(
        "--gold",
        action="store_true",
        help="with --format wmt25-tsv: write the raters' spans (first rating of each translation) "
        "instead of BLEU's",
    )
    parser.add_argument(
        "--gold-tsv",
        metavar="FILE",
        help="a WMT25 span TSV as the gold (instead of PATH); needs --predictions-tsv",
    )
    parser.add_argument(
        "--predictions-tsv",
        nargs="+",
        metavar="FILE",
        help="WMT25 span TSV(s) of predicted spans, scored against the gold the WMT25 way",
    )


def _block(prf: dict[str, Any]) -> str:
    return "  ".join(
        "  n/a" if prf[k] is None else f"{prf[k]:.4f}" for k in ("precision", "recall", "f1")
    )


def format_wmt25(result: dict[str, Any]) -> str:
    """The text report of :meth:`bleu_core.study.span_scorer_wmt25.Wmt25Result.to_dict`.

    >>> row = {"precision": 0.5, "recall": 0.25, "f1": 1 / 3, "items": 2}
    >>> text = format_wmt25({"predictor": "BLEU", "average": row, "pairs": {"en-de": row},
    ...                      "systems": {"A": {"average": row}}, "notes": []})
    >>> print(text.splitlines()[-3])
    mean over pairs  0.5000  0.2500  0.3333
    """
    rows = [(pair, _block(c), str(c["items"])) for pair, c in result["pairs"].items()]
    rows.append(("mean over pairs", _block(result["average"]), ""))
    rows += [(f"  {name}", _block(s["average"]), "") for name, s in result["systems"].items()]
    width = max(len(r[0]) for r in rows)
    lines = [
        f"WMT25 span scores of {result['predictor']} (the organisers' scoring_esa.py: characters of "
        "the hypothesis, half credit for the other severity, missing skipped, pooled per pair, "
        "then the mean over pairs; per system: the mean of its pairs)",
        f"{'':<{width}}  precision recall  F1      items",
        *(f"{a:<{width}}  {b}  {c}".rstrip() for a, b, c in rows),
        "note: the organisers' script prints the mean precision as avg_rec and the mean recall as "
        "avg_prec; here each is under its right name",
    ]
    lines += [f"note: {n}" for n in result["notes"]]
    return "\n".join(lines)


def _read(path: str, args: argparse.Namespace) -> tuple[list[Any], list[str]]:
    from bleu_core.study.wmt25_tsv import read_tsv

    return read_tsv(path, max_bytes=max_bytes_from_mb(args.max_mb))


def score_tsv_files(args: argparse.Namespace) -> tuple[dict[str, Any], list[str]]:
    """``--gold-tsv`` scored against every ``--predictions-tsv``: results by file, and warnings."""
    from bleu_core.study.wmt25_tsv import score_tsv

    if not args.predictions_tsv:
        raise StudyError("--gold-tsv needs --predictions-tsv FILE: the spans to score against it")
    gold, warnings = _read(args.gold_tsv, args)
    out = {}
    for path in args.predictions_tsv:
        predicted, more = _read(path, args)
        warnings += more
        result = score_tsv(gold, predicted, files=(args.gold_tsv, path), predictor=Path(path).name)
        out[path] = result.to_dict()
    return out, warnings


def study_wmt25(
    study: Study, args: argparse.Namespace, tokenize: str
) -> tuple[dict[str, Any], list[str]]:
    """WMT25 scores of BLEU's spans and of every ``--predictions-tsv`` against the study's gold."""
    from bleu_core.study.wmt25_study import gold_rows, wmt25_span_scores
    from bleu_core.study.wmt25_tsv import score_tsv

    bleu = wmt25_span_scores(study, systems=args.system, references=args.reference or None,
                             max_order=args.max_order, tokenize=tokenize, lowercase=args.lowercase,
                             raters=args.rater, severity=args.bleu_severity)  # fmt: skip
    out = {"BLEU": bleu.to_dict()}
    warnings: list[str] = []
    if args.predictions_tsv:
        _, gold, _ = gold_rows(study, systems=args.system, references=args.reference or None,
                               raters=args.rater)  # fmt: skip
        for path in args.predictions_tsv:
            predicted, more = _read(path, args)
            warnings += more
            result = score_tsv(gold, predicted, files=(f"{study.name} (gold)", path),
                               predictor=Path(path).name)  # fmt: skip
            out[path] = result.to_dict()
    return out, warnings


def write_study_tsv(study: Study, args: argparse.Namespace, tokenize: str) -> str:
    """The task's TSV of the study: BLEU's predicted spans, or with ``--gold`` the raters'."""
    from bleu_core.study.wmt25_study import bleu_spans, gold_rows, study_rows
    from bleu_core.study.wmt25_tsv import write_tsv

    refs = args.reference or None
    items, gold, notes = gold_rows(study, systems=args.system, references=refs, raters=args.rater)
    for note in notes:
        print(f"warning: {note}", file=sys.stderr)
    if args.gold:
        return write_tsv(gold)
    spans = bleu_spans(study, items, references=refs, max_order=args.max_order, tokenize=tokenize,
                       lowercase=args.lowercase, severity=args.bleu_severity)  # fmt: skip
    return write_tsv(study_rows(study, items, spans, references=refs))
