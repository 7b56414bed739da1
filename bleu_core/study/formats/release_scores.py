"""Metric scores that come with a WMT release, attached to its study when it loads.

The WMT21-23 releases ship the organisers' automatic scores in ``scores/automatic-scores.tsv`` (columns
``pair, system, id, is_constrained, metric, score``: BLEU and chrF against each reference and all of them,
COMET where the year has it). :func:`attach_release_scores` reads that file when the release has it, keeps
the rows of the study's language pair and attaches every metric as external metric scores
(:mod:`bleu_core.study.metric_scores`), so the Metric ranking page and ``meta`` rank them with no upload; a
``release-metric-scores`` note says so. A table that does not fit the study (a system that is not in the
release, a missing score) is not attached, and the note says why: the study itself is fine.

>>> from bleu_core.io.members import MemoryTree
>>> from bleu_core.study.model import LoadResult, Segment, Study
>>> study = Study("toy", (Segment("1"),), {"ref-A": ["a"]}, {"s1": ["a"], "s2": ["b"]},
...               metadata={"pair": "de-en"})
>>> tsv = b"pair\\tsystem\\tid\\tis_constrained\\tmetric\\tscore\\n" + \\
...       b"de-en\\ts1\\t1\\tTrue\\tbleu-A\\t40.5\\nde-en\\ts2\\t2\\tTrue\\tbleu-A\\t12.0\\n"
>>> result = attach_release_scores(MemoryTree({"scores/automatic-scores.tsv": tsv}), LoadResult(study))
>>> result.study.metric_scores["bleu-A"].system, result.warning_codes()
({'s1': 40.5, 's2': 12.0}, ['release-metric-scores'])
"""

from __future__ import annotations

from bleu_core.errors import InputError
from bleu_core.io.members import FileTree
from bleu_core.study.formats.release_clusters import attach_release_clusters
from bleu_core.study.metric_scores import attach_metric_scores, parse_metric_scores
from bleu_core.study.model import LoadResult, LoadWarning

__all__ = ["RELEASE_SCORES", "attach_release_scores"]

#: Where a WMT release keeps the organisers' automatic scores.
RELEASE_SCORES = "scores/automatic-scores.tsv"


def attach_release_scores(tree: FileTree, result: LoadResult) -> LoadResult:
    """``result`` with the release's automatic scores attached, and a note (see the module docstring)."""
    result = attach_release_clusters(tree, result)  # the organisers' clusters.csv, when shipped
    found = [f for f in tree.files() if f == RELEASE_SCORES or f.endswith("/" + RELEASE_SCORES)]
    if not found:
        return result
    path = sorted(found, key=len)[0]
    shown = tree.display(path)
    try:
        scores = parse_metric_scores(tree.read_text(path), shown, result.study)
        study = attach_metric_scores(result.study, scores)
    except InputError as exc:
        note = LoadWarning(
            "release-metric-scores",
            f"the release's automatic scores were not attached: {exc}",
            file=shown,
        )
        return LoadResult(result.study, (*result.warnings, note))
    names = ", ".join(item.name for item in scores)
    note = LoadWarning(
        "release-metric-scores",
        f"the release's automatic scores are attached as metrics ({names}): system level, as the "
        "organisers computed them",
        file=shown,
    )
    return LoadResult(study, (*result.warnings, note))
