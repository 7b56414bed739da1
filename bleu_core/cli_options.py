"""What every sub-command shares: the BLEU option flags, reading system and reference files, system names.

It lives apart from :mod:`bleu_core.cli` so that the command modules (``stats/command.py`` and the others,
which :mod:`bleu_core.cli` loads to register them) import it without importing the command line itself: no
``cli`` <-> ``command`` cycle.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .errors import InputError
from .options import REF_LENGTH_POLICIES, SMOOTHING_NAMES, BleuOptions
from .tokenizers import DEFAULT_TOKENIZER, TOKENIZER_NAMES, tokenizer_for_language


def add_bleu_options(parser: argparse.ArgumentParser) -> None:
    """The BLEU option flags, shared by every sub-command that computes BLEU."""
    g = parser.add_argument_group("BLEU options")
    g.add_argument(
        "--tokenize",
        "-tok",
        default=None,
        metavar="NAME",
        help=f"tokenizer: {', '.join(TOKENIZER_NAMES)} (default: as sacrebleu's command line, by "
        "the study's target language: zh for Chinese, ja-mecab for Japanese, ko-mecab for Korean, "
        f"{DEFAULT_TOKENIZER} otherwise)",
    )
    g.add_argument("--lowercase", "-lc", action="store_true", help="case-insensitive BLEU")
    g.add_argument(
        "--max-order", type=int, default=4, metavar="N", help="highest n-gram order (default 4)"
    )
    g.add_argument(
        "--weights",
        type=float,
        nargs="+",
        metavar="W",
        help="N n-gram weights summing to 1 (default uniform)",
    )
    g.add_argument(
        "--ref-length",
        default="closest",
        metavar="POLICY",
        help=f"effective reference length: {', '.join(REF_LENGTH_POLICIES)} (default closest)",
    )
    g.add_argument(
        "--smooth",
        default=None,
        metavar="METHOD",
        help=f"smoothing: {', '.join(SMOOTHING_NAMES)} (default exp)",
    )
    g.add_argument(
        "--smooth-value",
        type=float,
        default=None,
        help="parameter of floor/add-k/chen-cherry-1,4,6",
    )
    g.add_argument(
        "--effective-order",
        action="store_true",
        help="use only orders the hypothesis has (default on with --sentence-level)",
    )


def options_from_args(
    args: argparse.Namespace, *, sentence_level: bool = False, target_lang: str | None = None
) -> BleuOptions:
    """The BLEU options of the command line; without ``--tokenize``, the tokenizer sacrebleu's command
    line chooses for ``target_lang`` (:func:`bleu_core.tokenizers.tokenizer_for_language`)."""
    return BleuOptions(
        max_order=args.max_order,
        weights=tuple(args.weights) if args.weights else None,
        ref_length=args.ref_length,
        smooth=args.smooth or "exp",
        smooth_value=args.smooth_value,
        effective_order=bool(args.effective_order or sentence_level),
        tokenize=args.tokenize or tokenizer_for_language(target_lang),
        lowercase=args.lowercase,
    )


def read_corpus_files(ref_paths: Sequence[str], hyp_paths: Sequence[str], max_bytes: int):
    from .io.text import check_blank_lines, has_bom, read_lines

    refs = [(p, read_lines(p, max_bytes=max_bytes)) for p in ref_paths]
    hyps = [(p, read_lines(p, max_bytes=max_bytes)) for p in hyp_paths]
    for path in [*ref_paths, *hyp_paths]:  # removed by read_lines, but sacrebleu keeps it: say so
        with open(path, "rb") as handle:
            if has_bom(handle.read(3)):
                from .study.loading import bom_warning

                print(f"bleu-study: warning: {bom_warning(path)}", file=sys.stderr)
    for path, lines in refs + hyps:
        if not lines:
            raise InputError("the file is empty: nothing to score", file=path)
    for path, lines in hyps:  # scored (BLEU 0, as sacrebleu), but most likely the wrong file
        if not any(line.strip() for line in lines):
            from .file_statistics import all_blank_warning

            print(f"bleu-study: warning: {all_blank_warning(path, len(lines))}", file=sys.stderr)
    for path, lines in refs:  # the same rule as the study loaders: a blank reference is an error
        check_blank_lines(path, lines)
    first_path, first = hyps[0]
    for path, lines in hyps[1:] + refs:
        if len(lines) != len(first):
            raise InputError(
                f"{path} has {len(lines)} lines but {first_path} has {len(first)}; every hypothesis and "
                "reference file needs one line per segment (sacrebleu would silently truncate, its issue #220)"
            )
    return refs, hyps


def system_name(path: str, all_paths: Sequence[str]) -> str:
    return path if len({Path(p).name for p in all_paths}) < len(all_paths) else Path(path).name


def add_esa_option(parser: argparse.ArgumentParser) -> None:
    """``--esa CSV ...``: ESA scores (Appraise's export) for the study, beyond those of a release."""
    parser.add_argument(
        "--esa",
        nargs="+",
        metavar="CSV",
        help="ESA human scores with error spans (Appraise's CSV export, docs/formats.md) to add to the "
        "study; a WMT24+ release's humeval/*.csv are read without it",
    )


def with_esa_files(result: Any, paths: Sequence[str] | None, max_bytes: int | None = None) -> Any:
    """``result`` (a :class:`~bleu_core.study.model.LoadResult`) with the ESA files ``paths`` attached
    (:func:`bleu_core.study.formats.esa.attach_esa`); unchanged without files."""
    from .io.text import DEFAULT_MAX_BYTES, read_text
    from .study.formats.esa import attach_esa
    from .study.model import LoadResult

    for path in paths or ():
        text = read_text(path, max_bytes=max_bytes or DEFAULT_MAX_BYTES, name=path)
        got = attach_esa(result.study, text, path)
        result = LoadResult(got.study, tuple(result.warnings) + got.warnings)
    return result
