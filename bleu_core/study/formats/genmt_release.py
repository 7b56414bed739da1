"""A WMT25+ JSON-lines release → a study: texts (:mod:`.genmt`), human and automatic scores (:mod:`.genmt_scores`).

:func:`genmt_study` reads one language pair: the documents that have a reference, every system's
paragraphs, WMT25's two human passes when ``wmt25-genmt-humeval.jsonl`` is there, and the automatic scores
as attached metrics. The human scores of a reference stream are kept aside in
``metadata["reference_ratings"]`` (a text is not scored against itself), as for the WMT24 layout, and the
reference chosen (``reference=``; default the reference most documents have) is applied last.
WMT26's human scores come as Pearmut files (the campaigns, ``annotations.json``, ``progress.json``) put
in the release folder: they are read by the Pearmut reader (:mod:`.pearmut_study`) and attached, an
item found by its ``item_id`` (the segment ids of :mod:`.genmt`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from bleu_core.io.members import FileTree
from bleu_core.study.formats.esa import ESA_CRITERION
from bleu_core.study.formats.genmt import (
    GenmtRelease,
    build_texts,
    choose_documents,
    find_genmt,
    read_system,
    reference_metadata,
    study_languages,
)
from bleu_core.study.formats.genmt_scores import read_automatic_scores, read_humeval
from bleu_core.study.formats.pearmut_study import attach_pearmut, pearmut_files, read_pearmut_files
from bleu_core.study.metric_scores import attach_metric_scores
from bleu_core.study.model import LoadResult, LoadWarning, Study
from bleu_core.study.reference_choice import choose_references

__all__ = ["genmt_study"]


def genmt_study(
    tree: FileTree,
    *,
    pair: str | None = None,
    reference: str | Sequence[str] | None = None,
    name: str | None = None,
) -> LoadResult:
    """Load one language pair of a WMT25+ JSON-lines release (the layout: :mod:`.genmt`)."""
    release = find_genmt(tree)
    pair, documents, warnings = choose_documents(tree, release, pair)
    segments, references = build_texts(documents, release.layout)
    systems: dict[str, list[str | None]] = {}
    for system, path in sorted(release.systems.items()):
        if f"ref-{system}" in references or system in references:
            continue
        output = read_system(tree, path, release.layout, documents, system)
        if output is not None:
            systems[system] = output.texts
            warnings += output.warnings
    source_lang, target_lang = study_languages(pair)
    full = Study(
        name=name or f"{release.layout.upper()} {pair}",
        segments=segments,
        references=references,
        systems=systems,
        source_lang=source_lang,
        target_lang=target_lang,
        metadata={
            "format": "wmt-release",
            "layout": release.layout,
            "pair": pair,
            "release": tree.label,
            "all_references": list(references),
            "reference_ratings": [],
            **reference_metadata(documents),
        },
    )
    full, more = _with_scores(tree, release, full, pair)
    counts = {s: sum(t is not None for t in v) for s, v in references.items()}
    default = [max(sorted(counts), key=lambda s: counts[s])]
    view = choose_references(full, default if reference is None else reference)
    return LoadResult(view.study, tuple(warnings + more) + view.warnings)


def _with_scores(
    tree: FileTree, release: GenmtRelease, study: Study, pair: str
) -> tuple[Study, list[LoadWarning]]:
    """``study`` with the human passes (references' kept aside) and the automatic scores attached."""
    warnings: list[LoadWarning] = []
    if release.humeval is not None:
        texts = {**study.systems, **study.references}
        passes = read_humeval(tree, release.humeval, study, texts, pair)
        warnings += passes.warnings
        refs = set(study.references)
        metadata = {
            **study.metadata,
            "reference_ratings": [
                [r.system, r.segment_id, r.rater, r.group, r.criterion, r.score]
                for r in passes.ratings
                if r.system in refs
            ],
            "reference_spans": [
                [s.system, s.segment_id, s.rater, s.side, s.start, s.end, s.category, s.severity]
                for s in passes.spans
                if s.system in refs
            ],
            "human_passes": tree.display(release.humeval),
        }
        if passes.ratings:
            study = replace(
                study,
                criteria={**study.criteria, ESA_CRITERION.name: ESA_CRITERION},
                ratings=tuple(r for r in passes.ratings if r.system not in refs),
                error_spans=tuple(s for s in passes.spans if s.system not in refs),
                metadata=metadata,
            )
    if release.layout == "wmt26" and (found := pearmut_files(tree)) is not None:
        attached = attach_pearmut(study, read_pearmut_files(found))
        study, warnings = attached.study, warnings + list(attached.warnings)
    if release.automatic:
        scores, more = read_automatic_scores(tree, release.automatic, study, pair)
        warnings += more
        if scores:
            study = attach_metric_scores(study, scores)
            names = ", ".join(s.name for s in scores)
            warnings.append(
                LoadWarning(
                    "release-metric-scores",
                    f"the release's automatic scores are attached as metrics ({names}): one score "
                    "per paragraph, as the organisers computed them",
                    file=tree.display(next(iter(sorted(release.automatic.values())))),
                )
            )
    return study, warnings
