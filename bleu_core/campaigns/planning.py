"""Turn texts and an organiser's choices into a :class:`CampaignPlan`: the sampled items in their fixed order.

A plan is everything a campaign needs before it is stored: the texts of each item are copied into it, so judges can
rate on another machine without the study being loaded. Segments are eligible when every chosen system has a
non-empty translation and, if judges are to see it, the source / reference is there too.

>>> plan = plan_campaign(
...     name="demo", study_name="toy", segment_ids=["s1", "s2", "s3"],
...     translations={"A": ["a1", "a2", "a3"], "B": ["b1", "", "b3"]},
...     sources=["x1", "x2", "x3"], references=None,
...     systems=["A", "B"], n_segments=2, seed=3, display="source")
>>> plan.segment_ids                      # s2 has no output from B, so it cannot be sampled
('s1', 's3')
>>> len(plan.items), plan.items[0].position
(4, 0)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from bleu_core.campaigns.model import (
    DEFAULT_QUESTIONS,
    DISPLAY_MODES,
    CampaignError,
    Item,
    RatingCriterion,
    check_name,
)
from bleu_core.campaigns.protocols import check_protocol, protocol_criteria
from bleu_core.campaigns.sampling import dispersed_order, sample_segments

#: The paper's two groups of judges (§4).
DEFAULT_GROUPS: tuple[str, ...] = ("monolingual", "bilingual")


def default_criteria() -> tuple[RatingCriterion, ...]:
    """Adequacy and fluency on the paper's 1 (very bad) .. 5 (very good) scale."""
    return (RatingCriterion.paper("adequacy"), RatingCriterion.paper("fluency"))


def split_names(text: str) -> list[str]:
    """The names in a comma-separated list typed by an organiser (blanks dropped, spaces trimmed).

    >>> split_names(" monolingual, bilingual ,, ")
    ['monolingual', 'bilingual']
    """
    return [part.strip() for part in text.split(",") if part.strip()]


def criteria_from_choices(
    names: Sequence[str],
    labels: Sequence[str],
    *,
    extra_name: str = "",
    extra_question: str = "",
) -> list[RatingCriterion]:
    """The criteria an organiser chose: the named ones (with their default questions, see
    :data:`~bleu_core.campaigns.model.DEFAULT_QUESTIONS`) plus an optional extra criterion with its own question,
    all on the scale *labels* (lowest first). An invalid name or scale raises :class:`CampaignError`.

    >>> [(c.name, c.high) for c in criteria_from_choices(["fluency"], ["bad", "ok", "good"],
    ...                                                  extra_name="overall", extra_question="Good?")]
    [('fluency', 3), ('overall', 3)]
    """
    labels = tuple(labels)
    criteria = [RatingCriterion(name, DEFAULT_QUESTIONS.get(name, ""), labels) for name in names]
    if extra_name.strip():
        criteria.append(RatingCriterion(extra_name, extra_question.strip(), labels))
    return criteria


@dataclass(frozen=True)
class CampaignPlan:
    """A campaign ready to be stored by :meth:`CampaignStore.create_campaign`."""

    name: str
    study_name: str
    systems: tuple[str, ...]
    segment_ids: tuple[str, ...]
    criteria: tuple[RatingCriterion, ...]
    display: str
    groups: tuple[str, ...]
    seed: int
    items: tuple[Item, ...]
    reference_stream: str | None = None
    metadata: dict[str, Any] = field(default_factory=dict)
    protocol: str = "adequacy-fluency"
    quality_control: dict[str, Any] = field(default_factory=dict)


def with_protocol(plan: CampaignPlan, protocol: str) -> CampaignPlan:
    """*plan* under *protocol* (see :mod:`~bleu_core.campaigns.protocols`), with that protocol's criteria.

    >>> plan = plan_campaign(name="demo", study_name="toy", segment_ids=["s1"], translations={"A": ["a"]},
    ...                      sources=None, references=None, systems=["A"], n_segments=1, seed=0)
    >>> esa = with_protocol(plan, "esa")
    >>> esa.protocol, [(c.name, c.low, c.high) for c in esa.criteria]
    ('esa', [('esa', 0, 100)])
    """
    protocol = check_protocol(protocol)
    return replace(plan, protocol=protocol, criteria=protocol_criteria(protocol))


def _text(value: object) -> str:
    return value.strip() if isinstance(value, str) else ""


def _checked_systems(systems: Sequence[str], translations: Mapping[str, Any]) -> tuple[str, ...]:
    """The chosen systems: at least one, each with translations in the study."""
    systems = tuple(systems)
    if not systems:
        raise CampaignError("no systems chosen; choose at least 1 system to rate")
    unknown = [s for s in systems if s not in translations]
    if unknown:
        raise CampaignError(
            f"system(s) {', '.join(map(repr, unknown))} are not in the study; "
            f"choose from {', '.join(map(repr, translations))}"
        )
    return systems


def _check_aligned(
    n: int,
    sources: Sequence[str | None] | None,
    references: Sequence[str | None] | None,
    translations: Mapping[str, Sequence[str | None]],
    systems: Sequence[str],
) -> None:
    """The sources, references and each chosen system's translations have one line per segment."""
    for label, stream in [("sources", sources), ("references", references)] + [
        (f"system {s!r}", translations[s]) for s in systems
    ]:
        if stream is not None and len(stream) != n:
            raise CampaignError(f"{label} has {len(stream)} lines but there are {n} segments")


def _checked_criteria(criteria: Sequence[RatingCriterion] | None) -> tuple[RatingCriterion, ...]:
    """The criteria to rate (the paper's adequacy and fluency by default): at least one, names unique."""
    crits = tuple(criteria) if criteria is not None else default_criteria()
    if not crits:
        raise CampaignError("no criteria chosen; choose at least 1 criterion (e.g. adequacy)")
    crit_names = [c.name for c in crits]
    if len(set(crit_names)) != len(crit_names):
        raise CampaignError("two criteria have the same name; give each criterion its own name")
    return crits


def _checked_groups(groups: Sequence[str]) -> tuple[str, ...]:
    """The rater groups: at least one, each a valid name listed once."""
    group_names = tuple(check_name(g, "group name") for g in groups)
    if not group_names:
        raise CampaignError("no rater groups; give at least 1 group (e.g. monolingual)")
    if len(set(group_names)) != len(group_names):
        raise CampaignError("a rater group is listed twice; list each group once")
    return group_names


def _shown_texts(
    display: str,
    sources: Sequence[str | None] | None,
    references: Sequence[str | None] | None,
) -> tuple[bool, bool]:
    """Whether judges see the source and the reference under *display*; the study must have them."""
    need_source = display in ("source", "both")
    need_reference = display in ("reference", "both")
    if need_source and sources is None:
        raise CampaignError(
            f"judges should see the source (display {display!r}) but the study has no source texts; "
            "choose display 'reference' or 'neither'"
        )
    if need_reference and references is None:
        raise CampaignError(
            f"judges should see a reference (display {display!r}) but the study has no reference; "
            "choose display 'source' or 'neither'"
        )
    return need_source, need_reference


def _eligible_segments(
    segment_ids: Sequence[str],
    translations: Mapping[str, Sequence[str | None]],
    systems: Sequence[str],
    sources: Sequence[str | None] | None,
    references: Sequence[str | None] | None,
    need_source: bool,
    need_reference: bool,
) -> list[str]:
    """The segments that can be sampled: every chosen system translated them and the texts judges
    see are there. None of them raises :class:`CampaignError`."""

    def eligible(i: int) -> bool:
        if any(not _text(translations[s][i]) for s in systems):
            return False
        if need_source and not _text(sources[i] if sources is not None else None):
            return False
        return not (need_reference and not _text(references[i] if references is not None else None))

    eligible_ids = [segment_ids[i] for i in range(len(segment_ids)) if eligible(i)]
    if not eligible_ids:
        raise CampaignError(
            "no segment has a translation from every chosen system"
            + (" and the texts judges should see" if need_source or need_reference else "")
            + "; choose fewer systems or another display"
        )
    return eligible_ids


def _lay_out_items(
    chosen: Sequence[str],
    systems: Sequence[str],
    seed: int,
    segment_ids: Sequence[str],
    translations: Mapping[str, Sequence[str | None]],
    sources: Sequence[str | None] | None,
    references: Sequence[str | None] | None,
) -> tuple[Item, ...]:
    """One :class:`Item` per (chosen segment, system) in the dispersed order, its texts copied in
    (a blank source or reference becomes ``None``)."""
    index = {seg: i for i, seg in enumerate(segment_ids)}
    items = []
    for pos, (seg, system) in enumerate(dispersed_order(chosen, systems, seed=seed)):
        i = index[seg]
        src = sources[i] if sources is not None else None
        ref = references[i] if references is not None else None
        items.append(
            Item(
                pos,
                seg,
                system,
                str(translations[system][i]),
                src if _text(src) else None,
                ref if _text(ref) else None,
            )
        )
    return tuple(items)


def plan_campaign(
    *,
    name: str,
    study_name: str,
    segment_ids: Sequence[str],
    translations: Mapping[str, Sequence[str | None]],
    sources: Sequence[str | None] | None,
    references: Sequence[str | None] | None,
    systems: Sequence[str],
    n_segments: int,
    seed: int,
    criteria: Sequence[RatingCriterion] | None = None,
    display: str = "neither",
    groups: Sequence[str] = DEFAULT_GROUPS,
    reference_stream: str | None = None,
    metadata: Mapping[str, Any] | None = None,
) -> CampaignPlan:
    """Sample *n_segments* eligible segments with *seed* and lay out every (segment, system) item in the fixed
    dispersed order of :func:`~bleu_core.campaigns.sampling.dispersed_order`.

    ``translations[system][i]``, ``sources[i]`` and ``references[i]`` are aligned with ``segment_ids[i]``.
    The choices are checked first (name, display, systems, aligned texts, criteria, groups, the texts
    judges see), then the eligible segments are sampled and the items laid out.
    """
    name = check_name(name, "campaign name")
    if display not in DISPLAY_MODES:
        raise CampaignError(
            f"display {display!r} is unknown; use one of {', '.join(DISPLAY_MODES)}"
        )
    systems = _checked_systems(systems, translations)
    _check_aligned(len(segment_ids), sources, references, translations, systems)
    crits = _checked_criteria(criteria)
    group_names = _checked_groups(groups)
    need_source, need_reference = _shown_texts(display, sources, references)
    eligible_ids = _eligible_segments(
        segment_ids, translations, systems, sources, references, need_source, need_reference
    )
    chosen = sample_segments(eligible_ids, n_segments, seed=seed)
    items = _lay_out_items(chosen, systems, seed, segment_ids, translations, sources, references)
    return CampaignPlan(
        name=name,
        study_name=str(study_name),
        systems=systems,
        segment_ids=chosen,
        criteria=crits,
        display=display,
        groups=group_names,
        seed=int(seed),
        items=items,
        reference_stream=reference_stream,
        metadata=dict(metadata or {}),
    )
