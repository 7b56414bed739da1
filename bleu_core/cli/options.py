"""What every sub-command shares: the BLEU option flags, reading system and reference files, system names.

It lives apart from :mod:`bleu_core.cli` so that the command modules (``cli/meta_significance_command.py`` and the others,
which :mod:`bleu_core.cli` loads to register them) import it without importing the command line itself: no
``cli`` <-> ``command`` cycle.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..engine.options import REF_LENGTH_POLICIES, SMOOTHING_NAMES, BleuOptions
from ..errors import InputError
from ..tokenize.tokenizers import DEFAULT_TOKENIZER, TOKENIZER_NAMES, tokenizer_for_language

if TYPE_CHECKING:
    from bleu_core.study.formats.pearmut import PearmutAnnotations
    from bleu_core.study.model import Study


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
    line chooses for ``target_lang`` (:func:`bleu_core.tokenize.tokenizers.tokenizer_for_language`)."""
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
    from ..io.text import check_blank_lines, has_bom, read_lines

    refs = [(p, read_lines(p, max_bytes=max_bytes)) for p in ref_paths]
    hyps = [(p, read_lines(p, max_bytes=max_bytes)) for p in hyp_paths]
    for path in [*ref_paths, *hyp_paths]:  # removed by read_lines, but sacrebleu keeps it: say so
        with open(path, "rb") as handle:
            if has_bom(handle.read(3)):
                from ..study.loading import bom_warning

                print(f"bleu-study: warning: {bom_warning(path)}", file=sys.stderr)
    for path, lines in refs + hyps:
        if not lines:
            raise InputError("the file is empty: nothing to score", file=path)
    for path, lines in hyps:  # scored (BLEU 0, as sacrebleu), but most likely the wrong file
        if not any(line.strip() for line in lines):
            from ..engine.file_statistics import all_blank_warning

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
    """The file's name, or its whole path when two system files share a name.

    >>> system_name("out/a/hyp.txt", ["out/a/hyp.txt", "out/b/hyp.txt"]), system_name("x/b.txt", ["x/b.txt"])
    ('out/a/hyp.txt', 'b.txt')
    """
    names = {os.path.basename(p) for p in all_paths}  # not pathlib: 16 M instructions to import
    return path if len(names) < len(all_paths) else os.path.basename(path)


def add_esa_option(parser: argparse.ArgumentParser) -> None:
    """``--esa CSV ...``: ESA scores (Appraise's export) for the study, beyond those of a release."""
    parser.add_argument(
        "--esa",
        nargs="+",
        metavar="FILE",
        help="ESA human scores with error spans to add to the study: Appraise's CSV export, or Pearmut's "
        "annotation log (.jsonl), its download (annotations.json) or a folder of its files "
        "(docs/formats.md); a WMT24+ release's humeval/*.csv are read without it",
    )
    parser.add_argument(
        "--keep-judge",
        action="append",
        default=[],
        metavar="USER",
        help="keep this Pearmut annotator's ratings (of an --esa file) although they failed Pearmut's "
        "tutorial or attention checks (repeat for several)",
    )


def with_esa_files(
    result: Any,
    paths: Sequence[str] | None,
    max_bytes: int | None = None,
    *,
    pair: str | None = None,
    keep: Sequence[str] = (),
) -> Any:
    """``result`` (a :class:`~bleu_core.study.model.LoadResult`) with the ESA files ``paths`` attached
    (:func:`bleu_core.study.formats.esa.attach_esa`); unchanged without files.

    ESA rows name their language pair, checked against the study's. A study that names none (a long
    table) takes ``pair`` (``--pair``), which also sets its languages (so BLEU's default tokenizer is the
    target language's, as for a release); without it, an :class:`InputError` says what to add. See
    :func:`study_for_esa` for how the rows' line numbers find the segments.
    """
    # dataclasses here, not at the top: `score` imports this module but never needs dataclasses
    from dataclasses import replace

    from ..io.text import DEFAULT_MAX_BYTES, read_text
    from ..study.formats.esa import attach_esa
    from ..study.formats.pearmut_study import attach_pearmut, keep_pearmut_judges
    from ..study.model import LoadResult

    if keep and result.study.metadata.get("format") == "pearmut":  # a study of Pearmut's files
        got = keep_pearmut_judges(result.study, keep)
        result = LoadResult(got.study, tuple(result.warnings) + got.warnings)
    for path in paths or ():
        pearmut = _pearmut_scores(path, max_bytes or DEFAULT_MAX_BYTES, keep)
        if pearmut is not None:  # Pearmut's log, download or folder: the ratings name their items
            got = attach_pearmut(result.study, pearmut)
            result = LoadResult(got.study, tuple(result.warnings) + got.warnings)
            continue
        text = read_text(path, max_bytes=max_bytes or DEFAULT_MAX_BYTES, name=path)
        study, canary = study_for_esa(result.study, pair, path, text)
        got = attach_esa(study, text, path)
        metadata = {k: v for k, v in got.study.metadata.items() if k != "canary_line" or canary}
        result = LoadResult(
            replace(got.study, metadata=metadata), tuple(result.warnings) + got.warnings
        )
    return result


def _pearmut_scores(
    path: str, max_bytes: int, keep: Sequence[str] = ()
) -> PearmutAnnotations | None:
    """The Pearmut ratings of ``path`` (a log, a download or a folder of Pearmut files; see
    :mod:`bleu_core.study.formats.pearmut`; the annotators *keep* kept although they failed their
    checks), or ``None`` when it is not Pearmut's (an Appraise CSV)."""
    from ..io.members import open_tree
    from ..io.text import read_text
    from ..study.formats.pearmut_study import pearmut_file, pearmut_files, read_pearmut_files

    if os.path.isdir(path):
        with open_tree(path, max_bytes=max_bytes) as tree:
            files = pearmut_files(tree)
    elif path.lower().endswith((".json", ".jsonl")):
        files = pearmut_file(path, read_text(path, max_bytes=max_bytes, name=path))
        if files is None:
            return None
    else:
        return None
    if files is None or not files.logs:
        raise InputError("no Pearmut annotation log or download here (a campaign file holds no ratings)", file=path)  # fmt: skip
    return read_pearmut_files(files, keep)


def study_for_esa(study: Study, pair: str | None, path: str, text: str) -> tuple[Any, bool]:
    """``study`` ready for :func:`~bleu_core.study.formats.esa.attach_esa` of the ESA file ``path``, and
    whether the study itself says its line 0 is a canary line.

    The pair: the study's (a release's, an MQM TSV's), else ``pair``, else an :class:`InputError` naming
    the pair of the file's first row. The lines: an ESA row's 0-based ``line`` is segment ``line`` of a
    release (line 0 is its canary line). A long table whose segment ids are ``1`` ... ``n`` in order
    numbers its segments the same way, so it is read the same way (line ``L`` is segment id ``L``); any
    other study is read by position (line ``L`` is its ``L``-th segment, counting from 0).

    >>> from bleu_core.study.model import Segment, Study
    >>> table = Study("t", (Segment("1"), Segment("2")), {"ref": ["a", "b"]}, {"A": ["a", "b"]},
    ...               metadata={"format": "long-table"})
    >>> ready, canary = study_for_esa(table, "en-ja", "esa.csv", "")
    >>> ready.target_lang, ready.metadata["pair"], ready.metadata["canary_line"], canary
    ('ja', 'en-ja', True, False)
    """
    from dataclasses import replace  # see with_esa_files

    metadata = dict(study.metadata)
    canary = bool(metadata.get("canary_line"))
    named = metadata.get("pair") or (study.source_lang and study.target_lang)
    if not named:
        if not pair:
            raise InputError(
                "the study names no language pair (a long table has none), so this ESA file's rows "
                f"cannot be checked against it: add --pair xx-yy{_pair_hint(text)}",
                file=path,
            )
        source, _, target = pair.partition("-")
        metadata["pair"] = pair
        study = replace(study, source_lang=source or None, target_lang=target or None)
    numbered = study.segment_ids == [str(k) for k in range(1, study.n_segments + 1)]
    if not canary and numbered and metadata.get("format") == "long-table":
        metadata["canary_line"] = True  # line L is segment id L, as in a release
    return replace(study, metadata=metadata), canary


def _pair_hint(text: str) -> str:
    """``" (the file's first row is eng-jpn: --pair en-ja)"`` (empty when no row says)."""
    import csv
    import io

    from ..study.formats.esa import ISO_639_3

    for row in csv.reader(io.StringIO(text)):
        if len(row) >= 6:
            source, target = (row[k].strip().lower() for k in (4, 5))
            suggested = f"{ISO_639_3.get(source, source)}-{ISO_639_3.get(target, target)}"
            return f" (the file's first row is {row[4]}-{row[5]}: --pair {suggested})"
    return ""


PAIR_HELP = (
    "language pair: the pair of a WMT release or MQM TSV to load; for a study whose files name no "
    "languages (long table, plain-text folder) it names them, so BLEU's default tokenizer is the target "
    "language's, as sacrebleu's -l xx-yy"
)
"""``--pair``'s help, the same on ``study``, ``meta``, ``significance`` and ``spans``."""


def add_domain_option(parser: argparse.ArgumentParser) -> None:
    """``--domain NAME``: the analysis on the segments of one domain of the study."""
    parser.add_argument(
        "--domain",
        metavar="NAME",
        help="only the segments of this domain (WMT24+: news, social, speech, literary), as the app's "
        "sidebar Domain choice; the output and the analysis signature name it",
    )


def restrict_domain(study: Study, domain: str | None) -> tuple[Any, dict[str, Any] | None]:
    """``study`` cut to ``domain`` and what the output says of it, or ``study`` and None without one.

    The cut is :func:`bleu_core.study.granularity.restrict_to_domain`, the function the app's sidebar
    domain choice calls, so a domain's numbers are the app's. The description (JSON-ready):
    ``{"name": "news", "segments": 3, "study_segments": 6, "study_domains": ["news", ...]}``. Raises
    :class:`~bleu_core.errors.StudyError` for a study without domains and for a domain it does not have
    (the message lists its domains).

    >>> from bleu_core.study.model import Segment, Study
    >>> study = Study("toy", (Segment("1", domain="news"), Segment("2", domain="speech")),
    ...               {"ref": ["a", "b"]}, {"mt": ["a", "c"]})
    >>> cut, about = restrict_domain(study, "speech")
    >>> cut.segment_ids, about
    (['2'], {'name': 'speech', 'segments': 1, 'study_segments': 2, 'study_domains': ['news', 'speech']})
    >>> print(domain_line(about))
    domain: speech (1 of 2 segments; the study's domains: news, speech)
    """
    if domain is None:
        return study, None
    from ..errors import StudyError
    from ..study.granularity import domain_names, restrict_to_domain

    names = domain_names(study)
    if not names:
        raise StudyError(
            f"--domain {domain}: this study names no domains (no segment has one); domains come with "
            "a WMT24+ release (news, social, speech, literary) or a saved study that kept them",
            file=study.name,
        )
    cut = restrict_to_domain(study, domain)
    about = {
        "name": domain,
        "segments": cut.n_segments,
        "study_segments": study.n_segments,
        "study_domains": names,
    }
    return cut, about


def domain_line(about: dict[str, Any]) -> str:
    """The text output's line naming the domain of :func:`restrict_domain`."""
    return (
        f"domain: {about['name']} ({about['segments']} of {about['study_segments']} segments; "
        f"the study's domains: {', '.join(about['study_domains'])})"
    )
