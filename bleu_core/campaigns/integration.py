"""Campaigns meet studies: plan a campaign from a study, turn its ratings into study ratings, export CSV.

A campaign's ratings become :class:`bleu_core.study.Rating` rows ``(system, segment, rater, group, criterion,
score)``. An ESA or DA campaign's one criterion joins under its plain name (``esa``, ``da``), as WMT names it, unless
the study has that criterion (or its standardised twin) of its own; then, and for adequacy + fluency, the criteria
are named ``"<criterion> (<campaign code>)"`` (e.g. ``"fluency (K7P2QX)"``), so they never mix with ratings the
study already had, and several campaigns can sit side by side (:func:`study_criterion_name`). Every analysis page
that reads ``study.criteria`` (BLEU vs human, the paper's §4 judge comparisons, correlations) then works on them.

>>> from bleu_core.study.model import Segment, Study
>>> study = Study(name="toy", segments=(Segment("1", source="x"), Segment("2", source="y")),
...               references={"ref": ["a b", "c d"]}, systems={"A": ["a b", "c"], "B": ["a", "c d"]})
>>> plan = plan_from_study(study, systems=["A", "B"], n_segments=2, seed=1, display="source")
>>> sorted({(it.segment_id, it.system) for it in plan.items})
[('1', 'A'), ('1', 'B'), ('2', 'A'), ('2', 'B')]
"""

from __future__ import annotations

import csv
import hashlib
import io
from collections.abc import Collection, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from bleu_core.campaigns.model import Campaign, CampaignError, RatingCriterion, StoredRating
from bleu_core.campaigns.planning import (
    DEFAULT_GROUPS,
    CampaignPlan,
    plan_campaign,
    with_protocol,
)
from bleu_core.campaigns.protocols import StoredSpan
from bleu_core.csv_safety import neutralize_cell

if TYPE_CHECKING:
    from bleu_core.study.model import Criterion, Rating, Study
    from bleu_core.study.spans import ErrorSpan

CSV_COLUMNS: tuple[str, ...] = (
    "campaign",
    "judge",
    "group",
    "position",
    "segment_id",
    "system",
    "criterion",
    "score",
    "created_at",
    "updated_at",
    "n_changes",
)

#: First characters that make a spreadsheet treat a cell as a formula (OWASP "CSV Injection").
FORMULA_TRIGGERS: tuple[str, ...] = ("=", "+", "-", "@", "\t", "\r")


def plan_from_study(
    study: Study,
    *,
    systems: Sequence[str],
    n_segments: int,
    seed: int,
    criteria: Sequence[RatingCriterion] | None = None,
    display: str = "neither",
    groups: Sequence[str] = DEFAULT_GROUPS,
    reference_stream: str | None = None,
    name: str | None = None,
    protocol: str = "adequacy-fluency",
) -> CampaignPlan:
    """A campaign plan over *systems* of *study*: *n_segments* segments drawn with *seed*, every (segment,
    system) pair once in the fixed dispersed order. *reference_stream* (default: the study's first) is the
    reference judges see when *display* is ``"reference"`` or ``"both"``. Under another *protocol* than
    adequacy + fluency (``"esa"``, ``"da"``) the criteria are that protocol's."""
    if reference_stream is None:
        reference_stream = next(iter(study.references), None)
    elif reference_stream not in study.references:
        raise CampaignError(
            f"reference stream {reference_stream!r} is not in the study; choose one of "
            + ", ".join(repr(r) for r in study.references)
        )
    sources = study.sources()
    plan = plan_campaign(
        name=name if name is not None else f"{study.name}: rating campaign",
        study_name=study.name,
        segment_ids=study.segment_ids,
        translations=study.systems,
        sources=sources if any(s for s in sources) else None,
        references=study.references[reference_stream] if reference_stream is not None else None,
        systems=systems,
        n_segments=n_segments,
        seed=seed,
        criteria=criteria,
        display=display,
        groups=groups,
        reference_stream=reference_stream,
        metadata={"source_lang": study.source_lang, "target_lang": study.target_lang},
    )
    if protocol == "adequacy-fluency":
        return plan
    plan = with_protocol(plan, protocol)
    return replace(plan, metadata={**plan.metadata, "context": document_context(study, plan)})


def document_context(study: Study, plan: CampaignPlan) -> dict[str, dict[str, list[str | None]]]:
    """For each segment of *plan*: the segment before and after it in the same document (``None`` at a
    document's edge, or when the study has no document ids), as the source (``"source"``) and as each rated
    system's translation, so judges can read a segment in its context (ESA's guidelines ask for it).

    >>> from bleu_core.study.model import Segment, Study
    >>> study = Study("toy", (Segment("1", "d", "x1"), Segment("2", "d", "x2"), Segment("3", "e", "x3")),
    ...               {"ref": ["r1", "r2", "r3"]}, {"A": ["a1", "a2", "a3"]})
    >>> plan = plan_from_study(study, systems=["A"], n_segments=3, seed=0)
    >>> document_context(study, plan)["2"]
    {'source': ['x1', None], 'A': ['a1', None]}
    """
    ids = study.segment_ids
    index = {seg: i for i, seg in enumerate(ids)}
    sources = study.sources()

    def neighbour(i: int, step: int) -> int | None:
        j = i + step
        doc = study.segments[i].doc_id
        if doc is None or not 0 <= j < len(ids) or study.segments[j].doc_id != doc:
            return None
        return j

    context: dict[str, dict[str, list[str | None]]] = {}
    for seg in plan.segment_ids:
        i = index[seg]
        around = [neighbour(i, -1), neighbour(i, 1)]
        entry = {"source": [sources[j] if j is not None else None for j in around]}
        for system in plan.systems:
            entry[system] = [study.systems[system][j] if j is not None else None for j in around]
        context[seg] = entry
    return context


def is_campaign_copy(criterion: Criterion, campaign: Campaign) -> bool:
    """True when the study's *criterion* is an earlier copy of *campaign*'s ratings (its description, written
    by :func:`to_study_ratings`, names the campaign), not a criterion the study brought of its own."""
    return f" in campaign {campaign.code} (" in criterion.description


#: The protocols whose criterion joins a study under its plain name, as WMT names it: ESA's ``esa``, DA's
#: ``da``; each is one raw 0-100 score per translation, the scale the name promises to the pages and rules that
#: look for it (the headline criterion, tau-like's 25 points). Adequacy + fluency keeps the campaign code.
PLAIN_NAMED: frozenset[str] = frozenset({"esa", "da"})


def name_clash(study: Study | None, campaign: Campaign, criterion: str) -> str | None:
    """The criterion of *study* that keeps *campaign*'s *criterion* from joining under its plain name, or None
    when nothing does (always None with no *study*, or for a protocol outside :data:`PLAIN_NAMED`).

    Two things keep it out, unless they are an earlier copy of this very campaign (:func:`is_campaign_copy`):

    * a criterion of the same name: an expert ESA such as WMT24's, a WMT release's crowd DA, another
      campaign's;
    * the criterion's standardised twin (``da_z`` for ``da``, ``esa-z`` for ``esa``; for ``da`` also every
      name of :data:`~bleu_core.study.criterion_order.DA_Z_NAMES`, which tau-like reads as DA z). A plain
      ``da`` beside it would be taken for its raw scores: listed after it as its twin, and used by tau-like
      to choose WMT's pairs for it, although other judges gave it.
    """
    if study is None or campaign.protocol not in PLAIN_NAMED:
        return None
    from bleu_core.study.criterion_order import DA_Z_NAMES, standardised_twin

    z_names = DA_Z_NAMES if criterion == "da" else ()
    same = study.criteria.get(criterion)
    if same is not None and not is_campaign_copy(same, campaign):
        return criterion
    for name, present in study.criteria.items():
        twin = standardised_twin(name, [criterion]) == criterion or name.lower() in z_names
        if twin and not is_campaign_copy(present, campaign):
            return name
    return None


def study_criterion_name(campaign: Campaign, criterion: str, study: Study | None = None) -> str:
    """The name a campaign criterion gets in *study*.

    An ESA campaign's ``esa`` and a DA campaign's ``da`` join as plain ``"esa"`` and ``"da"``, so the pages
    that look for them find them (joining again replaces them), unless the study has that criterion or its
    standardised twin of its own (:func:`name_clash`): then, and for every criterion of adequacy + fluency (or
    with no *study* given), the campaign code tells the judges' ratings apart: ``"esa (K7P2QX)"``,
    ``"fluency (K7P2QX)"``.
    """
    plain = campaign.protocol in PLAIN_NAMED and study is not None
    if plain and name_clash(study, campaign, criterion) is None:
        return criterion
    return f"{criterion} ({campaign.code})"


def name_clash_note(study: Study | None, campaign: Campaign) -> str:
    """Why *campaign*'s criterion carries its code in *study*, for the organiser (``""`` when it joins plain or
    its protocol always carries the code).

    >>> from datetime import UTC, datetime
    >>> from bleu_core.campaigns.protocols import protocol_criteria
    >>> from bleu_core.study.model import Criterion, Segment, Study
    >>> da = Campaign("K7P2QX", "n", "s", ("A",), ("1",), protocol_criteria("da"), "source", ("g",), 0, 1,
    ...               datetime(2024, 1, 1, tzinfo=UTC), protocol="da")
    >>> study = Study("wmt", (Segment("1"),), {"ref": ["r"]}, {"A": ["a"]},
    ...               criteria={"da_z": Criterion("da_z")})
    >>> print(name_clash_note(study, da))  # doctest: +NORMALIZE_WHITESPACE
    The study already has da_z, the standardised scores of a da of its own, so this campaign's is named
    da (K7P2QX): a plain da would be read as their raw scores.
    """
    for c in campaign.criteria:
        clash = name_clash(study, campaign, c.name)
        if clash is None:
            continue
        named = study_criterion_name(campaign, c.name, study)
        if clash == c.name:
            article = "an" if clash[:1] in "aeiou" else "a"
            return (
                f"The study already has {article} {clash} criterion of its own (a release's ratings or "
                f"another campaign's), so this campaign's is named {named} to keep the two apart."
            )
        return (
            f"The study already has {clash}, the standardised scores of a {c.name} of its own, so this "
            f"campaign's is named {named}: a plain {c.name} would be read as their raw scores."
        )
    return ""


def quality_note(left_out: Collection[str], kept: Collection[str] = ()) -> str:
    """What the analyses say about the quality control: who was left out, who was kept although failing.

    >>> quality_note(["Bo"], ["Zoë"])
    'Left out for failing the quality control: Bo. Kept by the organiser although failing: Zoë.'
    """
    parts = []
    if left_out:
        parts.append(f"Left out for failing the quality control: {', '.join(sorted(left_out))}.")
    if kept:
        parts.append(f"Kept by the organiser although failing: {', '.join(sorted(kept))}.")
    return " ".join(parts)


def to_study_ratings(
    campaign: Campaign,
    ratings: Sequence[StoredRating],
    *,
    left_out: Collection[str] = (),
    kept: Collection[str] = (),
    study: Study | None = None,
) -> tuple[tuple[Rating, ...], tuple[Criterion, ...]]:
    """The campaign's ratings as study :class:`~bleu_core.study.Rating` rows, with their criteria.

    Judges are the raters and their groups the rater groups, so the paper's monolingual / bilingual split
    carries over. Tutorial items and attention checks are never study ratings; the judges in *left_out*
    (failed the quality control) are left out, and the criteria's descriptions say so (and who was *kept*).
    The criteria are named for *study* (:func:`study_criterion_name`).
    """
    from bleu_core.study.model import Criterion, Rating

    note = quality_note(left_out, kept)
    criteria = tuple(
        Criterion(
            study_criterion_name(campaign, c.name, study),
            higher_is_better=True,
            scale=(float(c.low), float(c.high)),
            description=(
                f"{c.question} Rated {c.low} ({c.labels[0]}) to {c.high} ({c.labels[-1]}) "
                f"in campaign {campaign.code} ({campaign.name}). {note}"
            ).strip(),
        )
        for c in campaign.criteria
    )
    rows = tuple(
        Rating(
            system=r.system,
            segment_id=r.segment_id,
            rater=r.judge,
            group=r.group,
            criterion=study_criterion_name(campaign, r.criterion, study),
            score=float(r.score),
        )
        for r in ratings
        if r.campaign_code == campaign.code and r.kind == "test" and r.judge not in left_out
    )
    return rows, criteria


def apply_to_study(
    study: Study,
    campaign: Campaign,
    ratings: Sequence[StoredRating],
    *,
    spans: Sequence[StoredSpan] = (),
    left_out: Collection[str] = (),
    kept: Collection[str] = (),
) -> Study:
    """A new study holding the campaign's current ratings and error *spans* (replacing any earlier copy of
    them), without the judges in *left_out* (see :func:`to_study_ratings`).

    Raises :class:`CampaignError` when the campaign rates systems or segments the study does not have.
    """
    missing_systems = [s for s in campaign.systems if s not in study.systems]
    known_segments = set(study.segment_ids)
    missing_segments = [s for s in campaign.segment_ids if s not in known_segments]
    if missing_systems or missing_segments:
        what = []
        if missing_systems:
            what.append("system(s) " + ", ".join(repr(s) for s in missing_systems[:5]))
        if missing_segments:
            what.append("segment(s) " + ", ".join(repr(s) for s in missing_segments[:5]))
        raise CampaignError(
            f"campaign {campaign.code} was made from study {campaign.study_name!r}; the open study "
            f"{study.name!r} lacks {' and '.join(what)}; open the study the campaign was made from"
        )
    rows, criteria = to_study_ratings(campaign, ratings, left_out=left_out, kept=kept, study=study)
    names = {c.name for c in criteria}
    others = tuple(r for r in study.ratings if r.criterion not in names)
    suffix = f" ({campaign.code})"
    other_spans = tuple(s for s in study.error_spans if not (s.rater or "").endswith(suffix))
    new_spans = study_spans(study, campaign, spans, left_out=left_out)
    base = replace(study, ratings=others, error_spans=other_spans + new_spans)
    from bleu_core.study.building import add_ratings

    return add_ratings(base, rows, criteria)


def study_spans(
    study: Study, campaign: Campaign, spans: Sequence[StoredSpan], *, left_out: Collection[str] = ()
) -> tuple[ErrorSpan, ...]:
    """The campaign's error spans as the study's :class:`~bleu_core.study.spans.ErrorSpan` objects, as the ESA
    reader makes them: rater ``"<judge> (<campaign code>)"`` (apart from any expert's spans), category
    ``Error``, or ``Omission`` for a ``[missing]`` mark (empty, at the end of the text), severity ``Minor`` /
    ``Major``. Spans of tutorial and attention items and of *left_out* judges are left out."""
    from bleu_core.study.spans import ErrorSpan

    index = {seg: i for i, seg in enumerate(study.segment_ids)}
    out = []
    for stored in spans:
        if stored.kind != "test" or stored.judge in left_out:
            continue
        span = stored.span
        rater = f"{stored.judge} ({campaign.code})"
        severity = span.severity.capitalize()
        if span.missing:
            end = len(study.systems[stored.system][index[stored.segment_id]] or "")
            out.append(
                ErrorSpan(
                    stored.system,
                    stored.segment_id,
                    rater,
                    "target",
                    end,
                    end,
                    "Omission",
                    severity,
                )
            )
        else:
            out.append(
                ErrorSpan(
                    stored.system, stored.segment_id, rater, "target", span.start or 0, span.end or 0,
                    "Error", severity,
                )
            )  # fmt: skip
    return tuple(out)


def spreadsheet_safe(value: str) -> str:
    """*value* made harmless for spreadsheets (OWASP, "CSV Injection"): :func:`bleu_core.csv_safety.neutralize_cell`.

    Every piece that a split on ``,``, ``;``, TAB, CR or LF would give and that would start (after spaces) with
    ``=``, ``+``, ``-``, ``@`` (or a fullwidth form) gets an apostrophe before that character, so Excel,
    LibreOffice or Google Sheets show it as text instead of running it as a formula, whichever separator they
    guess. Every field here is a name or an id, so even ``-1`` is guarded (it stays the text it was); other
    text is returned unchanged.

    A judge may call themselves ``=HYPERLINK("http://evil", "click")`` or ``x;=cmd|' /C calc'!A0;``; the
    organiser who opens the export in a spreadsheet then sees that text, not a link or a command. To get the
    verbatim text back, export with ``guard_formulas=False``.

    >>> for text in ['=HYPERLINK("http://x")', "-2+3", "@SUM(A1)", "x;=cmd|' /C calc'!A0;", "Ana", "-1.5"]:
    ...     print(spreadsheet_safe(text))
    '=HYPERLINK("http://x")
    '-2+3
    '@SUM(A1)
    x;'=cmd|' /C calc'!A0;
    Ana
    '-1.5
    """
    return neutralize_cell(value, keep_numbers=False)


def ratings_to_csv(ratings: Sequence[StoredRating], *, guard_formulas: bool = True) -> str:
    """CSV text of stored ratings, one row per (judge, item, criterion), columns :data:`CSV_COLUMNS`.

    Times are ISO 8601 in UTC. With *guard_formulas* (the default, for spreadsheets) **every field is quoted** and
    every text (campaign code, judge, group, segment id, system, criterion) passes through
    :func:`spreadsheet_safe`, so no piece of it can start a formula whichever separator a spreadsheet splits
    on. ``guard_formulas=False`` writes the texts verbatim, quoted only where CSV requires (for programs, not
    spreadsheets; :func:`ratings_digest` hashes that form).

    >>> from datetime import datetime, UTC
    >>> t = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)
    >>> print(ratings_to_csv([StoredRating("K7P2QX", "Smith;=1+1", "bilingual", 3, "s9", "sys1",
    ...                                    "fluency", 4, t, t)]).strip())
    "campaign","judge","group","position","segment_id","system","criterion","score","created_at","updated_at","n_changes"
    "K7P2QX","Smith;'=1+1","bilingual","3","s9","sys1","fluency","4","2024-05-01T12:00:00+00:00","2024-05-01T12:00:00+00:00","0"
    """
    text = spreadsheet_safe if guard_formulas else str
    out = io.StringIO()
    writer = csv.writer(
        out, lineterminator="\n", quoting=csv.QUOTE_ALL if guard_formulas else csv.QUOTE_MINIMAL
    )
    writer.writerow(CSV_COLUMNS)
    for r in ratings:
        writer.writerow(
            [
                text(r.campaign_code),
                text(r.judge),
                text(r.group),
                r.position,
                text(r.segment_id),
                text(r.system),
                text(r.criterion),
                r.score,
                r.created_at.isoformat(),
                r.updated_at.isoformat(),
                r.n_changes,
            ]
        )
    return out.getvalue()


def ratings_digest(ratings: Sequence[StoredRating]) -> str:
    """A short fingerprint (12 hex digits of SHA-256) of the ratings' content: it changes whenever a rating is
    added, changed or removed, so a study holding a campaign's ratings can be told apart from an older copy."""
    data = ratings_to_csv(ratings, guard_formulas=False).encode("utf-8")
    return hashlib.sha256(data).hexdigest()[:12]
