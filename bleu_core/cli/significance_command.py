"""The systems of ``bleu-study significance -r REF … -i HYP …`` (command line): each file's per-segment statistics.

The bootstrap and the randomization test resample segments, so they need one statistics row per segment
and system (:class:`bleu_core.engine.statistics.SegmentStatistics`). With the default 13a tokenizer the rows come
straight from the files' bytes (:func:`bleu_core.fast.file_bleu.segment_rows`, the compiled kernel
``bleu13a_segments``); any other option, or any input the general path would warn about or refuse, takes the
general path: the files read as text (:func:`bleu_core.cli.options.read_corpus_files`, which words the problem)
and counted by :func:`bleu_core.engine.statistics.compute_system_statistics`. Both give the same rows (tested float
for float, and the command's output on both paths).
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from ..evaluation.errors import StatsInputError
from ..limits import max_bytes_from_mb

if TYPE_CHECKING:
    from bleu_core.engine.options import BleuOptions


def file_system_statistics(args: argparse.Namespace, options: BleuOptions) -> dict[str, Any]:
    """``{system name: SegmentStatistics}`` of the ``-i`` files against the ``-r`` files, in the order given."""
    from ..engine.bleu import system_statistics_for
    from .options import read_corpus_files, system_name

    if not args.refs or not args.input:
        raise StatsInputError(
            "give reference files with -r and system outputs with -i (or a study PATH)"
        )
    chosen = (("--systems", args.systems), ("--references", args.references))
    for flag, value in (*chosen, ("--domain", getattr(args, "domain", None))):
        if value:  # would be ignored: every -i file is a system, every -r file a reference
            raise StatsInputError(
                f"{flag} chooses from a study PATH; with -r/-i files, list only the files you want"
            )
    max_bytes = max_bytes_from_mb(args.max_mb)
    fast = fast_segment_statistics(args.refs, args.input, options, max_bytes)
    if fast is not None:
        return {system_name(path, args.input): stats for path, stats in fast}
    refs, hyps = read_corpus_files(args.refs, args.input, max_bytes)
    return system_statistics_for(
        {system_name(path, args.input): lines for path, lines in hyps},
        [lines for _, lines in refs],
        options,
    )


def fast_segment_statistics(
    ref_paths: list[str], hyp_paths: list[str], options: BleuOptions, max_bytes: int
) -> list[tuple[str, Any]] | None:
    """Each system file's statistics straight from the files' bytes (13a, in C), or ``None`` for the
    general path."""
    from ..engine.statistics import SegmentStatistics
    from ..fast.file_bleu import segment_rows

    rows = segment_rows(
        ref_paths,
        hyp_paths,
        max_order=options.statistics_order,
        tokenize=options.tokenize,
        lowercase=options.lowercase,
        max_bytes=max_bytes,
    )
    if rows is None:
        return None
    return [(path, SegmentStatistics(array, len(ref_paths))) for path, array in rows]
