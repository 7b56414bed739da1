"""The significance clusters a WMT release ships, kept with its study when it loads.

WMT21's release has the organisers' human clusters in ``humaneval/newstest2021-toen/clusters.csv``: one
header line ``SRC TRG WINS TOTAL CLUSTER_START CLUSTER_END END_OF_CLUSTER SYSTEM``, then one line per
system and pair, whitespace-separated, best system first (``WINS`` of ``TOTAL`` pairwise tests won, the
rank range ``CLUSTER_START``-``CLUSTER_END``, ``True`` on the last system of a cluster). A system is named
``NAME.ID`` (``Borderline.4``) and matched to the study's systems by ``NAME``. Those are the columns this
reader accepts; any other file named ``clusters.csv`` gets a note saying why it is not shown.
:func:`attach_release_clusters` keeps the rows of the study's pair in ``study.metadata["release_clusters"]``
(plain data: the study saves and reloads with it); :func:`bleu_core.evaluation.cluster_report.release_clusters_of`
shows them beside the clusters computed from the scores.

>>> text = "SRC TRG WINS TOTAL CLUSTER_START CLUSTER_END END_OF_CLUSTER SYSTEM\\n" \\
...        "de en 3 4 1 2 False A.1\\nde en 2 4 1 2 True B.2\\nde en 0 4 3 3 True C.3\\n"
>>> shipped = read_release_clusters(text, "clusters.csv", "de-en", ["A", "B"])
>>> [(r["system"], r["cluster"]) for r in shipped["rows"]], shipped["notes"][-1]
([('A', 1), ('B', 1), ('C.3', 2)], 'not a system of the study: C.3')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from bleu_core.errors import InputError
from bleu_core.io.members import FileTree
from bleu_core.study.model import LoadResult, LoadWarning

__all__ = ["RELEASE_COLUMNS", "RELEASE_KEY", "attach_release_clusters", "read_release_clusters"]

#: Where a loaded study keeps the clusters its release ships.
RELEASE_KEY = "release_clusters"
#: The columns of a release's ``clusters.csv`` accepted here (WMT21).
RELEASE_COLUMNS = (
    "SRC",
    "TRG",
    "WINS",
    "TOTAL",
    "CLUSTER_START",
    "CLUSTER_END",
    "END_OF_CLUSTER",
    "SYSTEM",
)


def _row(cells: list[str], file: str, number: int, known: set[str]) -> dict[str, Any]:
    """One line's system, score (WINS / TOTAL) and rank range; raises naming the file and line."""
    _, _, wins, total, start, end, last, raw = cells
    if last not in ("True", "False"):
        raise InputError(f"{file}, line {number}: END_OF_CLUSTER is {last!r}, not True or False")
    try:
        score, first, final = int(wins) / int(total), int(start), int(end)
    except (ValueError, ZeroDivisionError):
        raise InputError(
            f"{file}, line {number}: WINS, TOTAL, CLUSTER_START and CLUSTER_END must be whole "
            f"numbers (TOTAL above 0), got {wins} {total} {start} {end}"
        ) from None
    stem = raw.rsplit(".", 1)[0]
    system = raw if raw in known or stem not in known else stem
    return {"system": system, "score": score, "rank_start": first, "rank_end": final}


def read_release_clusters(
    text: str, file: str, pair: str, systems: Sequence[str] = ()
) -> dict[str, Any] | None:
    """The clusters of ``pair`` (``xx-yy``) in a release's ``clusters.csv`` text (module docstring), as
    ``{"name", "method", "rows", "notes"}``, or ``None`` when the file has no line of the pair."""
    lines = text.splitlines()
    header = tuple(lines[0].split()) if lines else ()
    if header != RELEASE_COLUMNS:
        raise InputError(
            f"{file}, line 1: expected the columns {' '.join(RELEASE_COLUMNS)}, "
            f"got {' '.join(header) or 'an empty line'}"
        )
    known, rows, cluster = set(systems), [], 1
    for number, line in enumerate(lines[1:], start=2):
        cells = line.split()
        if not cells:
            continue
        if len(cells) != len(RELEASE_COLUMNS):
            raise InputError(
                f"{file}, line {number}: {len(cells)} columns, expected {len(RELEASE_COLUMNS)}"
            )
        if f"{cells[0]}-{cells[1]}" != pair:
            continue
        row = _row(cells, file, number, known)
        rows.append(row | {"cluster": cluster, "n_items": None, "pvalue_below": None})
        cluster += cells[6] == "True"
    if not rows:
        return None
    notes = ["score = WINS / TOTAL (the share of its pairwise tests a system won)"]
    unmatched = [r["system"] for r in rows if known and r["system"] not in known]
    if unmatched:
        notes.append(f"not a system of the study: {', '.join(unmatched)}")
    method = f"the release's own clusters ({file})"
    return {"name": "release", "method": method, "rows": rows, "notes": notes}


def attach_release_clusters(tree: FileTree, result: LoadResult) -> LoadResult:
    """``result`` with the clusters its release ships for the study's pair (a ``clusters.csv`` anywhere in
    ``tree``) in ``study.metadata["release_clusters"]`` and a note; a file that does not parse: a note
    saying why, the study itself is fine."""
    found = sorted(f for f in tree.files() if f == "clusters.csv" or f.endswith("/clusters.csv"))
    pair = result.study.metadata.get("pair")
    if not found or not pair:
        return result
    shown = tree.display(found[0])
    try:
        shipped = read_release_clusters(
            tree.read_text(found[0]), shown, pair, [*result.study.systems]
        )
    except InputError as exc:
        note = LoadWarning(
            "release-clusters", f"the release's clusters are not shown: {exc}", shown
        )
        return LoadResult(result.study, (*result.warnings, note))
    if shipped is None:
        return result
    note = LoadWarning(
        "release-clusters",
        f"the release's own significance clusters of {pair} are shown beside the computed ones",
        file=shown,
    )
    study = replace(result.study, metadata=result.study.metadata | {RELEASE_KEY: shipped})
    return LoadResult(study, (*result.warnings, note))
