"""Reference bias, measured: every system's BLEU and rank under each reference, and whom each reference favours.

A reference post-edited from system X keeps X's words wherever the post-editor found them acceptable, so
BLEU against it rewards X (and systems that translate like X). With two or more human translations of the
test set (from scratch, post-edited, a second human), :func:`reference_bias` shows

* every machine system's **corpus BLEU and rank under each reference alone**, side by side, and its
  **rank change** from the baseline reference (the first from-scratch reference when the release says
  which are from scratch, else the first reference; negative = the system moves up);
* for each reference, the system it is **closest to**: the BLEU of the reference, taken as the
  hypothesis, against that system's output as the only reference. This direction asks "how much of the
  reference's wording does the system's output contain": precision of the reference's n-grams in the
  output, with the brevity penalty applied when the reference is shorter than the output. It is the
  quantity a post-edit inflates for its source (the edits keep the source's n-grams), and, unlike
  BLEU of the system against the reference (the score itself), it does not simply pick the best
  system: a good system is not near a reference in this direction unless they share wording. The
  closest system is **flagged as the one the reference may favour** for a post-edited reference or one
  of unknown kind; a from-scratch reference's nearest system is shown, not flagged.

A WMT26 release (:mod:`bleu_core.study.formats.genmt`) records each reference's kind in
``metadata["reference_kinds"]`` and, when known, the system it was post-edited from in
``metadata["reference_sources"]`` (stream → {document → system}): they label the references and say
"post-edited from X" beside the measured closest system. Without metadata every reference is measured and
of unknown kind.

Statistics are counted once per reference stream (:func:`bleu_core.engine.statistics.compute_system_statistics`:
every system against that reference alone) and once per system for the closeness (every reference as a
hypothesis against that system's output, one batched pass). Only segments where **every** compared
reference has a text are counted, so all columns score the same segments; a segment without a system's
output is not counted for that system (:mod:`bleu_core.study.output_rows`).

>>> from bleu_core.study.model import Segment, Study
>>> toy = Study("toy", (Segment("1"), Segment("2")),
...             {"ref-A": ["the cat sat on the mat", "it was warm today"]},
...             {"X": ["a cat sat on a mat", "it is warm now"], "Y": ["the cat is on the mat", "it was warm"],
...              "ref-PE": ["a cat sat on a mat", "it was warm now"]},
...             human_systems=frozenset({"ref-PE"}),
...             metadata={"all_references": ["ref-A", "ref-PE"],
...                       "reference_kinds": {"ref-A": "from-scratch", "ref-PE": "post-edited"},
...                       "reference_sources": {"ref-PE": {"d1": "X"}}})
>>> bias = reference_bias(toy)
>>> bias.references, bias.systems, bias.baseline
(('ref-A', 'ref-PE'), ('X', 'Y'), 'ref-A')
>>> bias.ranks.tolist(), bias.rank_changes().tolist()
([[2, 1], [1, 2]], [[0, -1], [0, 1]])
>>> bias.closest("ref-PE"), bias.may_favour("ref-PE"), bias.may_favour("ref-A")
('X', True, False)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from bleu_core.errors import StudyError
from bleu_core.study.output_rows import output_mask, without_missing
from bleu_core.study.reference_choice import reference_names

if TYPE_CHECKING:
    from bleu_core.engine.options import BleuOptions
    from bleu_core.study.model import Study

__all__ = [
    "FLAGGED_KINDS",
    "ReferenceBias",
    "bias_summary",
    "format_bias_lines",
    "reference_bias",
    "reference_kind_label",
]

#: Reference kinds whose closest system is flagged as the one they may favour.
FLAGGED_KINDS = ("post-edited", "unknown")
_KIND_LABELS = {
    "post-edited": "post-edited",
    "from-scratch": "from scratch",
    "unknown": "kind not stated",
}


def reference_kind_label(kind: str) -> str:
    """How a reference kind is shown (``from-scratch`` → ``from scratch``; others as they are)."""
    return _KIND_LABELS.get(kind, kind)


@dataclass(frozen=True, eq=False)
class ReferenceBias:
    """The measured reference bias of one study (see the module docstring).

    Attributes:
        systems: the machine systems ranked (``K``); ``references`` the human translations (``R``).
        kinds: reference → ``post-edited`` / ``from-scratch`` / ``unknown``.
        sources: reference → the systems it was post-edited from, as the release names them (empty when
            unknown), in order of first mention.
        scores: ``K × R`` corpus BLEU (0-100) of each system against each reference alone.
        ranks: ``K × R`` rank under each reference (1 = best; equal scores share the better rank).
        closeness: ``R × K`` BLEU (0-100) of each reference as the hypothesis against each system's output.
        baseline: the reference the rank changes are measured from.
        n_segments: segments counted (every reference has a text there).
        signature: the BLEU signature (``nrefs:1``: one reference at a time).
        segments_total: segments in the study.
    """

    systems: tuple[str, ...]
    references: tuple[str, ...]
    kinds: Mapping[str, str]
    sources: Mapping[str, tuple[str, ...]]
    scores: np.ndarray
    ranks: np.ndarray
    closeness: np.ndarray
    baseline: str
    n_segments: int
    signature: str
    segments_total: int = field(default=0)

    def rank_changes(self) -> np.ndarray:
        """``K × R`` rank under each reference minus the rank under the baseline (negative = moves up)."""
        base = self.references.index(self.baseline)
        return self.ranks - self.ranks[:, [base]]

    def closest(self, reference: str) -> str:
        """The system whose output the reference is closest to (highest closeness; first on a tie)."""
        return self.systems[int(np.argmax(self.closeness[self.references.index(reference)]))]

    def may_favour(self, reference: str) -> bool:
        """Whether the reference's closest system is flagged (post-edited or of unknown kind)."""
        return self.kinds.get(reference, "unknown") in FLAGGED_KINDS

    def margin(self, reference: str) -> float:
        """How much closer the reference is to its closest system than to the next one (BLEU points)."""
        row = np.sort(self.closeness[self.references.index(reference)])[::-1]
        return float(row[0] - row[1]) if len(row) > 1 else float("nan")

    def reference_rows(self) -> list[dict[str, Any]]:
        """Per reference: kind, documented source, measured closest system, flag, margin."""
        rows = []
        for r, ref in enumerate(self.references):
            closest = self.closest(ref)
            sources = list(self.sources.get(ref, ()))
            rows.append(
                {
                    "reference": ref,
                    "kind": self.kinds.get(ref, "unknown"),
                    "post_edited_from": sources,
                    "closest_system": closest,
                    "closeness": float(self.closeness[r].max()),
                    "margin": self.margin(ref),
                    "may_favour": closest if self.may_favour(ref) else None,
                    "matches_source": closest in sources if sources else None,
                    "closeness_by_system": dict(
                        zip(self.systems, self.closeness[r].tolist(), strict=True)
                    ),
                }
            )
        return rows

    def system_rows(self) -> list[dict[str, Any]]:
        """Per system: BLEU, rank and rank change under each reference."""
        changes = self.rank_changes()
        return [
            {
                "system": name,
                "bleu": dict(zip(self.references, self.scores[k].tolist(), strict=True)),
                "rank": dict(zip(self.references, self.ranks[k].tolist(), strict=True)),
                "rank_change": dict(zip(self.references, changes[k].tolist(), strict=True)),
            }
            for k, name in enumerate(self.systems)
        ]

    def to_dict(self) -> dict[str, Any]:
        return {
            "references": list(self.references),
            "baseline": self.baseline,
            "segments": self.n_segments,
            "segments_total": self.segments_total,
            "signature": self.signature,
            "closeness": "BLEU of the reference (as hypothesis) against the system's output",
            "systems": self.system_rows(),
            "reference_summary": self.reference_rows(),
        }


def _kinds_and_sources(
    study: Study, references: Sequence[str]
) -> tuple[dict[str, str], dict[str, tuple[str, ...]]]:
    recorded = study.metadata.get("reference_kinds") or {}
    documents = study.metadata.get("reference_sources") or {}
    kinds = {ref: str(recorded.get(ref, "unknown")) for ref in references}
    sources = {
        ref: tuple(dict.fromkeys(str(s) for s in (documents.get(ref) or {}).values()))
        for ref in references
    }
    return kinds, sources


def _ranks(scores: np.ndarray) -> np.ndarray:
    """Competition ranks per column (1 = highest; equal scores share the better rank)."""
    return 1 + (scores[None, :, :] > scores[:, None, :]).sum(axis=1)


def _texts(study: Study, name: str) -> list[str | None]:
    return list(study.references[name] if name in study.references else study.systems[name])


def _scores_against(
    hypotheses: Mapping[str, list[str]],
    reference: list[str],
    order: Sequence[str],
    present: np.ndarray,
    options: BleuOptions,
) -> np.ndarray:
    """Corpus BLEU (0-100) of each of ``hypotheses`` (in ``order``) against the one ``reference``
    stream, counted in one batched pass; rows where ``present`` is False are not counted."""
    from bleu_core.engine.score import bleu_from_stats
    from bleu_core.engine.statistics import compute_system_statistics

    counted = compute_system_statistics(
        hypotheses,
        [reference],
        max_order=options.statistics_order,
        tokenize=options.tokenize,
        lowercase=options.lowercase,
    )
    stats = np.stack([counted[name].array for name in order])
    return np.asarray(bleu_from_stats(without_missing(stats, present).sum(axis=1), options).score)


def reference_bias(study: Study, options: BleuOptions | None = None) -> ReferenceBias:
    """Measure the bias of every human translation of ``study`` used as the only reference.

    Args:
        study: a study with at least two human translations (reference streams, or human systems the
            loader recorded in ``metadata["all_references"]``) and at least two machine systems.
        options: BLEU options (default: the engine's, with the target language's tokenizer).

    Raises:
        StudyError: fewer than two references or machine systems, or no segment every reference covers.
    """
    from bleu_core.engine.options import BleuOptions
    from bleu_core.engine.signature import make_signature
    from bleu_core.tokenize.tokenizers import tokenizer_for_language

    references = reference_names(study)
    if len(references) < 2:
        raise StudyError(
            f"measuring reference bias needs at least two human translations; {study.name} has "
            f"{len(references)} ({', '.join(references) or 'none'})"
        )
    systems = [s for s in study.machine_systems if s not in references]
    if len(systems) < 2:
        raise StudyError(
            f"measuring reference bias needs at least two machine systems, got {len(systems)}"
        )
    options = options or BleuOptions(tokenize=tokenizer_for_language(study.target_lang))
    ref_texts = {ref: _texts(study, ref) for ref in references}
    covered = np.array(
        [all(ref_texts[r][i] is not None for r in references) for i in range(study.n_segments)]
    )
    if not covered.any():
        raise StudyError(
            "no segment has a text in every reference: reference bias cannot be measured"
        )
    present = output_mask(study, systems) & covered[None, :]
    hyps = {s: ["" if t is None else t for t in study.systems[s]] for s in systems}
    filled = {r: ["" if t is None else t for t in ref_texts[r]] for r in references}
    scores = np.empty((len(systems), len(references)))
    for r, ref in enumerate(references):  # each reference alone: every system in one pass
        scores[:, r] = _scores_against(hyps, filled[ref], systems, present, options)
    closeness = np.empty((len(references), len(systems)))
    for k, system in enumerate(systems):  # every reference as a hypothesis against this system
        counted = np.broadcast_to(present[k], (len(references), study.n_segments))
        closeness[:, k] = _scores_against(filled, hyps[system], references, counted, options)
    kinds, sources = _kinds_and_sources(study, references)
    baseline = next((r for r in references if kinds[r] == "from-scratch"), references[0])
    return ReferenceBias(
        systems=tuple(systems),
        references=tuple(references),
        kinds=kinds,
        sources=sources,
        scores=scores,
        ranks=_ranks(scores),
        closeness=closeness,
        baseline=baseline,
        n_segments=int(covered.sum()),
        signature=make_signature(options, 1),
        segments_total=study.n_segments,
    )


def bias_summary(study: Study) -> dict[str, Any] | None:
    """:meth:`ReferenceBias.to_dict` of ``study`` (the ``study`` command's ``reference_bias``), None
    when it has fewer than two human translations or two machine systems, ``{"note": why}`` when it
    cannot be measured (no segment that every reference covers)."""
    references = reference_names(study)
    if len(references) < 2 or len([s for s in study.machine_systems if s not in references]) < 2:
        return None
    try:
        return reference_bias(study).to_dict()
    except StudyError as exc:  # e.g. no segment that every reference covers: said, not fatal
        return {"note": str(exc)}


def _reference_note(row: Mapping[str, Any]) -> str:
    kind = reference_kind_label(row["kind"])
    sources = row["post_edited_from"]
    documented = f"; post-edited from {', '.join(sources)}" if sources else ""
    verb = "may favour" if row["may_favour"] else "nearest system"
    agree = ""
    if row["matches_source"] is not None:
        agree = (
            " (the documented source)" if row["matches_source"] else " (not the documented source)"
        )
    return (
        f"  {row['reference']} ({kind}{documented}): {verb} {row['closest_system']}{agree}, "
        f"closeness {row['closeness']:.2f}, {row['margin']:.2f} ahead of the next system"
    )


def format_bias_lines(summary: Mapping[str, Any]) -> list[str]:
    """The text lines of a :func:`bias_summary` (the ``study`` command's reference-bias section)."""
    if "note" in summary:
        return ["", f"reference bias: not measured: {summary['note']}"]
    refs = list(summary["references"])
    width = max([len("system")] + [len(r["system"]) for r in summary["systems"]])
    lines = [
        "",
        f"reference bias: BLEU and rank under each reference alone, rank change from "
        f"{summary['baseline']} (negative = moves up); {summary['segments']} of "
        f"{summary['segments_total']} segments (every reference has a text there); "
        f"signature: {summary['signature']}",
        f"{'system':<{width}}"
        + "".join(f"  {r + ' BLEU':>14}  {'rank':>4}  {'Δ':>3}" for r in refs),
    ]
    for row in summary["systems"]:
        cells = "".join(
            f"  {row['bleu'][r]:>14.2f}  {row['rank'][r]:>4}  {row['rank_change'][r]:>+3d}"
            for r in refs
        )
        lines.append(f"{row['system']:<{width}}{cells}")
    lines.append(
        "closest system per reference (BLEU of the reference as the hypothesis against the system's "
        "output; flagged for a post-edited reference or one of unknown kind):"
    )
    lines.extend(_reference_note(row) for row in summary["reference_summary"])
    return lines
