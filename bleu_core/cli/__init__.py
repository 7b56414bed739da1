"""The command line: ``python -m bleu_core`` / ``bleu-study``.

Sub-commands: ``score`` (BLEU of system files against reference files, like ``sacrebleu``), and, registered by
their packages, ``study``, ``meta`` and ``significance``. Errors in the input are printed as one clear message
(no traceback) and the exit code is 2.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any, NoReturn

from ..engine.options import BleuOptions
from ..errors import BleuStudyError
from ..limits import max_bytes_from_mb, parse_max_mb
from .options import add_bleu_options, options_from_args, read_corpus_files, system_name

if TYPE_CHECKING:
    from ..engine.statistics import SegmentStatistics

#: Modules that add sub-commands through ``register(subparsers)``.
COMMAND_MODULES = (
    "bleu_core.cli.study_command",
    "bleu_core.cli.meta_significance_command",
    "bleu_core.cli.launch",
    "bleu_core.cli.spans_command",
    "bleu_core.cli.campaigns_command",
)

#: The module that registers each sub-command (``score`` is this module's own). Running a command builds only
#: its module's parser, so ``bleu-study significance`` imports neither the app launcher nor the study command;
#: ``bleu-study --help``, a mistyped command or one missing here builds every parser (the full list).
#: ``tests/cli/test_cli_parser.py`` checks this table against what the modules register.
COMMAND_MODULE_OF = {
    "study": "bleu_core.cli.study_command",
    "meta": "bleu_core.cli.meta_significance_command",
    "significance": "bleu_core.cli.meta_significance_command",
    "app": "bleu_core.cli.launch",
    "spans": "bleu_core.cli.spans_command",
    "campaigns": "bleu_core.cli.campaigns_command",
}


def terminal_columns() -> int:
    """The width ``shutil.get_terminal_size()`` reports: ``$COLUMNS``, else the terminal's, else 80."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


class _Formatter(argparse.HelpFormatter):
    """argparse's help formatter, sized as argparse sizes it but without importing :mod:`shutil`.

    argparse builds a formatter for every ``add_argument`` (to check its metavar), and the stock one asks
    ``shutil.get_terminal_size`` for its width: importing shutil (and bz2, lzma, zlib with it) costs 7.7 M
    instructions at ``bleu-study score``'s start-up, for a width only ``--help`` uses.
    """

    def __init__(
        self,
        prog: str,
        indent_increment: int = 2,
        max_help_position: int = 24,
        width: int | None = None,
    ) -> None:
        width = terminal_columns() - 2 if width is None else width  # argparse's own "- 2"
        super().__init__(prog, indent_increment, max_help_position, width)


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:  # argparse's own errors: usage + message, exit 2
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {message}\n")


def _statistics_of_files(
    ref_paths: Sequence[str], hyp_paths: Sequence[str], options: BleuOptions, max_bytes: int
) -> Iterator[tuple[str, SegmentStatistics]]:
    """``(hypothesis path, statistics)`` per system file; big inputs are read block by block
    (:mod:`bleu_core.engine.file_statistics`: the rows are kept, not the text)."""
    from ..engine.bleu import statistics_for
    from ..engine.file_statistics import STREAM_BYTES, stream_statistics

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
        yield path, statistics_for(lines, [r for _, r in refs], options)


def cmd_score(args: argparse.Namespace) -> int:
    from ..engine.bleu import score_row

    options = options_from_args(args, sentence_level=args.sentence_level)
    max_bytes = max_bytes_from_mb(args.max_mb)
    results = []
    if not args.sentence_level:
        rows = _fast_corpus_rows(args.refs, args.input, options, max_bytes)
        if rows is not None:
            from ..engine.corpus_row import score_corpus_row

            for path, row in rows:
                score = score_corpus_row(row, options, len(args.refs)) or score_row(
                    row, options, len(args.refs)
                )
                name = system_name(path, args.input)
                results.append({"system": name, **score.to_dict(), "_str": str(score)})
            return _print_results(results, args)
    for path, stats in _statistics_of_files(args.refs, args.input, options, max_bytes):
        name = system_name(path, args.input)
        if args.sentence_level:
            from ..engine.score import bleu_from_stats

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
    return _print_results(results, args)


def _fast_corpus_rows(
    ref_paths: Sequence[str], hyp_paths: Sequence[str], options: BleuOptions, max_bytes: int
) -> list[tuple[str, list[float]]] | None:
    """Corpus rows straight from the files' bytes (:func:`bleu_core.fast.file_bleu.corpus_rows`: 13a, in
    C), or ``None`` for the general path (any other option, or any input it would warn about or refuse)."""
    from ..fast.file_bleu import corpus_rows

    return corpus_rows(
        ref_paths,
        hyp_paths,
        max_order=options.statistics_order,
        tokenize=options.tokenize,
        lowercase=options.lowercase,
        ref_length=options.ref_length,
        max_bytes=max_bytes,
    )


def _print_results(results: list[dict], args: argparse.Namespace) -> int:
    if args.format == "json":
        from . import strict_json  # json only for JSON output: 6 M instructions at start-up

        clean = [{k: v for k, v in r.items() if not k.startswith("_")} for r in results]
        print(strict_json.dumps(clean, indent=1, ensure_ascii=False))
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
    # A plain loop over COMMAND_MODULES, so tests/house/import_graph.py draws these edges (and would see a cycle: the
    # command modules import the shared flags from cli_options, never from this module).
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
