"""The command line: ``python -m bleu_core`` / ``bleu-study``.

Sub-commands: ``score`` (BLEU of system files against reference files, like ``sacrebleu``), and, registered by
their packages, ``study``, ``meta`` and ``significance``. Errors in the input are printed as one clear message
(no traceback) and the exit code is 2.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from .errors import BleuStudyError, InputError
from .limits import max_bytes_from_mb, parse_max_mb
from .options import REF_LENGTH_POLICIES, SMOOTHING_NAMES, BleuOptions
from .tokenizers import TOKENIZER_NAMES

if TYPE_CHECKING:
    from .statistics import SegmentStatistics

#: Modules that add sub-commands through ``register(subparsers)``.
COMMAND_MODULES = (
    "bleu_core.study.command",
    "bleu_core.stats.command",
    "bleu_core.launch",
    "bleu_core.spans_command",
)

#: The module that registers each sub-command (``score`` is this module's own). Running a command builds only
#: its module's parser, so ``bleu-study significance`` imports neither the app launcher nor the study command;
#: ``bleu-study --help``, a mistyped command or one missing here builds every parser (the full list).
#: ``tests/test_cli_parser.py`` checks this table against what the modules register.
COMMAND_MODULE_OF = {
    "study": "bleu_core.study.command",
    "meta": "bleu_core.stats.command",
    "significance": "bleu_core.stats.command",
    "app": "bleu_core.launch",
    "spans": "bleu_core.spans_command",
}


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # argparse's own errors: usage + message, exit 2
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {message}\n")


def add_bleu_options(parser: argparse.ArgumentParser) -> None:
    """The BLEU option flags, shared by every sub-command that computes BLEU."""
    g = parser.add_argument_group("BLEU options")
    g.add_argument(
        "--tokenize",
        "-tok",
        default="13a",
        metavar="NAME",
        help=f"tokenizer: {', '.join(TOKENIZER_NAMES)} (default 13a)",
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


def options_from_args(args: argparse.Namespace, *, sentence_level: bool = False) -> BleuOptions:
    return BleuOptions(
        max_order=args.max_order,
        weights=tuple(args.weights) if args.weights else None,
        ref_length=args.ref_length,
        smooth=args.smooth or "exp",
        smooth_value=args.smooth_value,
        effective_order=bool(args.effective_order or sentence_level),
        tokenize=args.tokenize,
        lowercase=args.lowercase,
    )


def read_corpus_files(ref_paths: Sequence[str], hyp_paths: Sequence[str], max_bytes: int):
    from .textio import check_blank_lines, read_lines

    refs = [(p, read_lines(p, max_bytes=max_bytes)) for p in ref_paths]
    hyps = [(p, read_lines(p, max_bytes=max_bytes)) for p in hyp_paths]
    for path in [*ref_paths, *hyp_paths]:  # removed by read_lines, but sacrebleu keeps it: say so
        with open(path, "rb") as handle:
            if handle.read(3) == b"\xef\xbb\xbf":
                from .study.loading import bom_warning

                print(f"bleu-study: warning: {bom_warning(path)}", file=sys.stderr)
    for path, lines in refs + hyps:
        if not lines:
            raise InputError("the file is empty: nothing to score", file=path)
    for path, lines in hyps:
        if not any(line.strip() for line in lines):
            raise InputError(
                f"all {len(lines)} lines are blank: nothing to score (is this the right file?)",
                file=path,
            )
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


def _statistics_of_files(
    ref_paths: Sequence[str], hyp_paths: Sequence[str], options: BleuOptions, max_bytes: int
) -> Iterator[tuple[str, SegmentStatistics]]:
    """``(hypothesis path, statistics)`` per system file; big inputs are read block by block
    (:mod:`bleu_core.file_statistics`: the rows are kept, not the text)."""
    from .file_statistics import STREAM_BYTES, stream_statistics
    from .statistics import compute_statistics

    paths = [*ref_paths, *hyp_paths]
    if sum(os.path.getsize(p) for p in paths if os.path.isfile(p)) > STREAM_BYTES:
        yield from stream_statistics(
            ref_paths,
            hyp_paths,
            max_order=options.statistics_order,
            tokenize=options.tokenize,
            lowercase=options.lowercase,
            max_bytes=max_bytes,
        )
        return
    refs, hyps = read_corpus_files(ref_paths, hyp_paths, max_bytes)
    for path, lines in hyps:
        stats = compute_statistics(
            lines,
            [r for _, r in refs],
            max_order=options.statistics_order,
            tokenize=options.tokenize,
            lowercase=options.lowercase,
        )
        yield path, stats


def cmd_score(args: argparse.Namespace) -> int:
    from .bleu import score_row
    from .score import bleu_from_stats

    options = options_from_args(args, sentence_level=args.sentence_level)
    max_bytes = max_bytes_from_mb(args.max_mb)
    results = []
    for path, stats in _statistics_of_files(args.refs, args.input, options, max_bytes):
        name = system_name(path, args.input)
        if args.sentence_level:
            arr = bleu_from_stats(stats.array, options)
            sig = score_row(stats.array[0], options, stats.n_refs).signature
            for i in range(len(stats)):
                results.append(
                    {
                        "system": name,
                        "segment": i + 1,
                        "bleu": float(arr.bleu[i]),
                        "score": float(arr.score[i]),
                        "precisions": arr.precisions[i].tolist(),
                        "counts": [int(c) for c in arr.matches[i]],
                        "totals": [int(t) for t in arr.totals[i]],
                        "bp": float(arr.bp[i]),
                        "ratio": float(arr.ratio[i]),
                        "hyp_len": int(arr.hyp_len[i]),
                        "ref_len": float(arr.ref_len[i]),
                        "signature": sig,
                    }
                )
        else:
            score = score_row(stats.total(), options, stats.n_refs)
            results.append({"system": name, **score.to_dict(), "_str": str(score)})
    if args.format == "json":
        clean = [{k: v for k, v in r.items() if not k.startswith("_")} for r in results]
        print(json.dumps(clean, indent=1, ensure_ascii=False))
    else:
        for r in results:
            if args.sentence_level:
                print(f"{r['system']}\t{r['segment']}\t{r['score']:.2f}")
            else:
                print(f"{r['system']}: {r['_str']}")
        print(f"signature: {results[0]['signature']}")
    return 0


def build_parser(
    *, score_only: bool = False, command: str | None = None
) -> argparse.ArgumentParser:
    """The parser of every sub-command, or of ``command`` only (``main`` passes the command being run).

    ``command="score"`` (or ``score_only``) imports no other command's module: no study, statistics or scipy
    code is loaded to score files. Another known command imports only the module that registers it (see
    :data:`COMMAND_MODULE_OF`); ``None`` or an unknown name builds them all, so that ``bleu-study --help`` and
    argparse's "invalid choice" message list every sub-command.
    """
    if score_only:
        command = "score"
    only = COMMAND_MODULE_OF.get(command) if command else None
    if command != "score" and only is None:
        command = None  # unknown or absent: every parser
    parser = _Parser(prog="bleu-study", description="Study BLEU against human judgment.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    p = sub.add_parser(
        "score", help="BLEU of system outputs against references (one segment per line)"
    )
    p.add_argument("-r", "--refs", nargs="+", required=True, metavar="REF", help="reference files")
    p.add_argument(
        "-i", "--input", nargs="+", required=True, metavar="HYP", help="system output files"
    )
    p.add_argument("--sentence-level", "-sl", action="store_true", help="a score per segment")
    p.add_argument("--format", choices=("json", "text"), default="text")
    p.add_argument(
        "--max-mb", type=parse_max_mb, default=200, help="refuse input files larger than this (MB)"
    )
    add_bleu_options(p)
    p.set_defaults(func=cmd_score)
    for module_name in COMMAND_MODULES:
        if command is not None and module_name != only:
            continue
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name and module_name.startswith(exc.name):
                continue
            raise
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(command=words[0] if words else None)
    args = parser.parse_args(words)
    try:
        return int(args.func(args) or 0)
    except BleuStudyError as exc:
        print(f"bleu-study: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # e.g. piped into `head`
        return 0
    except OSError as exc:
        print(f"bleu-study: error: {exc.filename or ''}: {exc.strerror or exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
