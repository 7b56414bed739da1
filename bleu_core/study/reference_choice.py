"""Which human translations are reference streams: names, choice, and study views.

A release often has several human translations of the test set (WMT21 de-en: references A and B). Any subset
of them can be the reference streams; the others are *human systems*, scored and rated like machines. A
study loaded with every reference keeps, in its metadata, the names of all human translations
(``metadata["all_references"]``) and the human scores of those that are streams
(``metadata["reference_ratings"]``; their error spans in ``metadata["reference_spans"]``), so
:func:`choose_references` derives the study for any other choice
without reading a file again:

>>> from bleu_core.study.model import Criterion, Rating, Segment, Study
>>> full = Study(
...     name="toy", segments=(Segment("1"),),
...     references={"ref-A": ["a cat"], "ref-B": ["the cat"]}, systems={"mt": ["cat"]},
...     criteria={"da": Criterion("da", scale=(0.0, 100.0))},
...     ratings=(Rating("mt", "1", None, None, "da", 40.0),),
...     metadata={"all_references": ["ref-A", "ref-B"],
...               "reference_ratings": [["ref-B", "1", None, None, "da", 90.0]]},
... )
>>> view = choose_references(full, "A")
>>> list(view.study.references), list(view.study.systems), sorted(view.study.human_systems)
(['ref-A'], ['mt', 'ref-B'], ['ref-B'])
>>> view.study.system_scores("da")
{'mt': 40.0, 'ref-B': 90.0}
>>> back = choose_references(view.study, "all")
>>> list(back.study.references), back.warning_codes()
(['ref-A', 'ref-B'], ['reference-ratings-set-aside'])

Names of human translations in human-score files are matched to reference letters by
:func:`reference_letter`: ``HUMAN-B``, ``Human-B.12``, ``ref-B``, ``refB``, ``ref.B`` and ``B`` all mean
reference B; a bare ``HUMAN`` or ``ref`` names no letter.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import astuple, replace

from bleu_core.errors import StudyError
from bleu_core.study.model import LoadResult, LoadWarning, Rating, Study
from bleu_core.study.spans import ErrorSpan

__all__ = [
    "choose_references",
    "reference_letter",
    "reference_names",
    "references_from_cli",
    "resolve_references",
]

_LETTER = re.compile(
    r"^(?:(?:ref(?:erence)?|human)[-._ ]?)?(?P<letter>[a-z])(?:\.\d+)?$", re.IGNORECASE
)
_BARE = re.compile(r"^(?:ref(?:erence)?|human)(?:\.\d+)?$", re.IGNORECASE)


def reference_letter(name: str) -> str | None:
    """The reference letter a human-translation name means, ``""`` for a bare ``HUMAN``/``ref``, else None.

    >>> [reference_letter(n) for n in ("HUMAN-B", "Human-A.0", "HUMAN-B.12", "refB", "ref.C", "B")]
    ['B', 'A', 'B', 'B', 'C', 'B']
    >>> reference_letter("HUMAN"), reference_letter("HUMAN.0"), reference_letter("Online-B")
    ('', '', None)
    """
    if _BARE.match(name):
        return ""
    match = _LETTER.match(name)
    return match["letter"].upper() if match else None


def reference_names(study: Study) -> list[str]:
    """Every human translation that can be a reference stream of ``study``, in release order.

    The study's ``metadata["all_references"]`` when a loader recorded it (streams and human systems),
    otherwise its reference streams.
    """
    recorded = study.metadata.get("all_references")
    if recorded:
        return [n for n in recorded if n in study.references or n in study.systems]
    return list(study.references)


def resolve_references(
    wanted: str | Sequence[str], available: Sequence[str], *, where: str | None = None
) -> list[str]:
    """The names in ``available`` that ``wanted`` means: ``"all"``, names, or letters (``"A,B"`` works).

    >>> resolve_references("B,A", ["ref-A", "ref-B"]), resolve_references("all", ["ref-A", "ref-B"])
    (['ref-B', 'ref-A'], ['ref-A', 'ref-B'])
    >>> resolve_references(["refC"], ["ref-A", "ref-B"])
    Traceback (most recent call last):
      ...
    bleu_core.errors.StudyError: no reference 'refC'; the human translations are: ref-A, ref-B (choose any of them, or 'all')
    """
    items = [wanted] if isinstance(wanted, str) else list(wanted)
    parts = [p.strip() for item in items for p in str(item).split(",") if p.strip()]
    if not parts:
        raise StudyError("no reference named; give names such as A,B or 'all'", file=where)
    if any(p.lower() == "all" for p in parts):
        if len(parts) > 1:
            raise StudyError(
                f"'all' cannot be combined with other references ({', '.join(parts)})", file=where
            )
        return list(available)
    by_letter: dict[str, list[str]] = {}
    for name in available:
        letter = reference_letter(name)
        if letter:
            by_letter.setdefault(letter, []).append(name)
    chosen: list[str] = []
    for part in parts:
        if part in available:
            name = part
        else:
            letter = reference_letter(part)
            hits = by_letter.get(letter or "\0", [])
            if len(hits) != 1:
                raise StudyError(
                    f"no reference {part!r}; the human translations are: "
                    f"{', '.join(available) or 'none'} (choose any of them, or 'all')",
                    file=where,
                )
            name = hits[0]
        if name not in chosen:
            chosen.append(name)
    return chosen


def _counts(ratings: Sequence[Rating]) -> str:
    """Segment ratings per criterion, and system-level scores counted apart (a release's one system
    score is not a rated segment: 1543 rated segments and the system score are "1543 da + 1 system
    score", as many segment rows as the release's file has).

    >>> h = [Rating("H", "1", None, None, "da", 90.0), Rating("H", None, None, None, "da", 88.0)]
    >>> _counts(h), _counts(h[1:])
    ('1 da + 1 system score', '1 da system score')
    """
    segments: dict[str, int] = {}
    systems: dict[str, int] = {}
    for rating in ratings:
        counts = systems if rating.segment_id is None else segments
        counts[rating.criterion] = counts.get(rating.criterion, 0) + 1
    parts = []
    for criterion in dict.fromkeys(r.criterion for r in ratings):
        seg, sys = segments.get(criterion, 0), systems.get(criterion, 0)
        if not seg:
            parts.append(f"{sys} {criterion} system score{'s' if sys > 1 else ''}")
        else:
            more = f" + {sys} system score{'s' if sys > 1 else ''}" if sys else ""
            parts.append(f"{seg} {criterion}{more}")
    return ", ".join(parts)


def choose_references(study: Study, references: str | Sequence[str]) -> LoadResult:
    """The study with ``references`` as reference streams and every other human translation as a human
    system carrying its human scores; no file is read.

    ``references`` is ``"all"``, a name (``"ref-B"``), a letter (``"B"``), a comma-separated list or a
    sequence of these. Human scores of a chosen stream cannot be studied (a translation is not scored
    against itself): they are kept in ``metadata["reference_ratings"]`` and a ``reference-ratings-set-aside``
    warning says so and which choice would study them. Raises :class:`~bleu_core.errors.StudyError` for an
    unknown reference.
    """
    pool = reference_names(study)
    chosen = resolve_references(references, pool, where=study.name)
    texts = {n: study.references[n] if n in study.references else study.systems[n] for n in pool}
    ids = set(study.segment_ids)  # a subset of the study keeps only its segments' scores and spans
    kept = [
        row
        for row in study.metadata.get("reference_ratings") or []
        if row[1] in ids or row[1] is None
    ]
    pooled = [Rating(*row) for row in kept] + [r for r in study.ratings if r.system in pool]
    others = [r for r in study.ratings if r.system not in pool]
    systems = {n: t for n, t in study.systems.items() if n not in pool}
    systems.update({n: texts[n] for n in pool if n not in chosen})
    human_systems = (study.human_systems - set(pool)) | {n for n in pool if n not in chosen}
    set_aside = [r for r in pooled if r.system in chosen]
    metadata = dict(study.metadata)
    metadata["all_references"] = pool
    metadata["reference_ratings"] = [list(astuple(r)) for r in set_aside]
    spans = [
        ErrorSpan(*row) for row in study.metadata.get("reference_spans") or [] if row[1] in ids
    ]
    spans += list(study.error_spans)
    if study.metadata.get("reference_spans") is not None or any(s.system in chosen for s in spans):
        metadata["reference_spans"] = [list(astuple(s)) for s in spans if s.system in chosen]
    view = replace(
        study,
        references={n: texts[n] for n in chosen},
        systems=systems,
        human_systems=frozenset(human_systems),
        ratings=tuple(others + [r for r in pooled if r.system not in chosen]),
        error_spans=tuple(s for s in spans if s.system not in chosen),
        metadata=metadata,
    )
    warnings = []
    for name in chosen:
        own = [r for r in set_aside if r.system == name]
        if not own:
            continue
        if len(pool) > 1:
            rest = [n for n in pool if n != name]
            how = (
                f"to study {name} as a human system, choose other references without it (e.g. "
                f"{', '.join(rest)}; command line: --references {','.join(rest)})"
            )
        else:
            how = (
                f"{name} is the only reference of this study, so its scores cannot be studied against "
                "another reference here"
            )
        warnings.append(
            LoadWarning(
                "reference-ratings-set-aside",
                f"human scores of {name} ({_counts(own)}) were set aside: {name} is a reference "
                f"stream, and a translation cannot be scored against itself; {how}",
            )
        )
    return LoadResult(view, tuple(warnings))


def reference_human_scores(study: Study) -> dict[str, dict[str, tuple[float, int]]]:
    """The human scores of the reference streams themselves, set aside by :func:`choose_references`:
    ``{reference: {criterion: (mean of its segment scores, number of scores)}}``.

    WMT24 rates its reference ``refA`` like a system. With one reference it cannot be a BLEU system (BLEU
    would score it against itself), yet its human score is the human ceiling a reader compares systems
    with: the Corpus page shows it beside the table.

    >>> from bleu_core.study.model import Segment
    >>> study = Study("toy", (Segment("1"), Segment("2")), {"ref-A": ["a", "b"]}, {"S": ["a", "c"]},
    ...               metadata={"reference_ratings": [["ref-A", "1", "r1", None, "esa", 90.0],
    ...                                               ["ref-A", "2", "r1", None, "esa", 80.0]]})
    >>> reference_human_scores(study)
    {'ref-A': {'esa': (85.0, 2)}}
    """
    sums: dict[str, dict[str, list[float]]] = {}
    for row in study.metadata.get("reference_ratings") or []:
        rating = Rating(*row)
        if rating.segment_id is None or rating.system not in study.references:
            continue
        sums.setdefault(rating.system, {}).setdefault(rating.criterion, []).append(rating.score)
    return {
        ref: {c: (sum(v) / len(v), len(v)) for c, v in by_criterion.items()}
        for ref, by_criterion in sums.items()
    }


def references_from_cli(values: Sequence[str] | None) -> str | list[str] | None:
    """The ``--references`` values of the command line as ``load_study(reference=...)`` takes them.

    ``--references A,B``, ``--references A B`` and ``--reference all`` all work; ``None`` keeps the
    format's default.

    >>> references_from_cli(["A,B"]), references_from_cli(["all"]), references_from_cli(None)
    (['A', 'B'], 'all', None)
    """
    if not values:
        return None
    parts = [p.strip() for value in values for p in value.split(",") if p.strip()]
    if [p.lower() for p in parts] == ["all"]:
        return "all"
    return parts or None
