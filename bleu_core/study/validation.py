"""Checking that a study is consistent, separate from reading it.

Every loader calls :func:`validate_study` before returning, and the parallel-text loaders call
:func:`check_line_counts` and :func:`check_blank_lines` on the files they read, so the message can name the
file and line. Each problem raises a :class:`~bleu_core.errors.StudyError` that says how to fix it.

>>> from bleu_core.study.model import Segment, Study
>>> study = Study("toy", (Segment("1"), Segment("2")), {"ref": ["a b", "c d"]}, {"A": ["a b"]})
>>> validate_study(study)
Traceback (most recent call last):
  ...
bleu_core.errors.StudyError: toy: system 'A' has 1 text, but the study has 2 segments; ...
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from operator import attrgetter
from typing import TYPE_CHECKING, Any

import numpy as np

from bleu_core.errors import InputError, StudyError, WrongTypeError
from bleu_core.study.model import Study

if TYPE_CHECKING:
    from bleu_core.study.model import Rating
from bleu_core.io.text import check_blank_lines

__all__ = [
    "check_blank_lines",
    "check_line_counts",
    "check_study_types",
    "check_unique_names",
    "validate_study",
]


_RATING_FIELDS = ("system", "segment_id", "rater", "group", "criterion", "score")
#: The Python types each rating field may hold (``bool`` is not a score: it is not in the set).
_ALLOWED_TYPES: dict[str, set[type]] = {
    "system": {str},
    "segment_id": {str, type(None)},
    "rater": {str, type(None)},
    "group": {str, type(None)},
    "criterion": {str},
    "score": {int, float},
}


def _finite(score: float) -> bool:
    """A finite number that a float can hold (an int beyond 1.8e308 is not)."""
    try:
        return math.isfinite(score)
    except OverflowError:
        return False


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def check_line_counts(files: Mapping[str, Sequence[str]], *, expected: int | None = None) -> int:
    """All files must have the same number of lines; returns that number.

    ``files`` maps a file name to its lines. The reference count is ``expected`` when given, otherwise the
    first file's. The message names both files, both counts and where the shorter file ends.

    >>> check_line_counts({"ref.txt": ["a", "b"], "hyp.txt": ["a"]})
    Traceback (most recent call last):
      ...
    bleu_core.errors.InputError: hyp.txt, line 2: has 1 line but ref.txt has 2; ...
    """
    if not files:
        return 0
    names = list(files)
    first = names[0]
    n = len(files[first]) if expected is None else expected
    for name in names:
        lines = files[name]
        if not lines:
            raise InputError("empty file; it needs one line per segment", file=name, line=None)
        if len(lines) != n:
            basis = first if expected is None else "the source/segment list"
            trailing = ""
            if len(lines) == n + 1 and lines[-1].strip() == "":
                trailing = " (the extra last line is blank: delete the trailing empty line)"
            raise InputError(
                f"has {_plural(len(lines), 'line')} but {basis} has {n}{trailing}; "
                "every file must have exactly one line per segment, in the same order "
                "(check for a missing or merged line near the end)",
                file=name,
                line=min(len(lines), n) + 1,
            )
    return n


def check_unique_names(names: Sequence[tuple[str, str]], *, what: str) -> None:
    """``names`` are (name, where it comes from); raise on the first duplicate name."""
    seen: dict[str, str] = {}
    for name, origin in names:
        if name in seen:
            raise StudyError(
                f"duplicate {what} name {name!r} (from {seen[name]} and from {origin}); "
                f"give every {what} a different name",
                file=origin,
            )
        seen[name] = origin


def _type_name(value: object) -> str:
    return "None" if value is None else f"{type(value).__name__} {value!r:.40}"


def _wrong(what: str, expected: str, value: object, where: str) -> WrongTypeError:
    return WrongTypeError(f"{where}: {what} must be {expected}, got {_type_name(value)}")


def _check_texts(kind: str, name: object, texts: object, where: str) -> None:
    if not isinstance(name, str):
        raise _wrong(f"a {kind} name", "a str", name, where)
    if isinstance(texts, (str, bytes)) or not isinstance(texts, (list, tuple)):
        raise _wrong(
            f"{kind} {name!r}",
            "a list of texts (one str per segment, None where missing)",
            texts,
            where,
        )
    for i, text in enumerate(texts):
        if text is None:
            continue
        if not isinstance(text, str):
            raise _wrong(f"{kind} {name!r} text {i + 1}", "a str or None", text, where)


def check_study_types(study: Study) -> None:
    """Raise :class:`~bleu_core.errors.WrongTypeError` (a ``TypeError`` and a ``BleuStudyError``) when a
    field of ``study`` has the wrong Python type: a number where a text belongs, a bare string where a list
    of texts belongs, a rating that is not a :class:`~bleu_core.study.model.Rating`...

    Run first by :func:`validate_study`, so the usual-mistake detectors and the statistics only ever see
    well-typed studies.

    >>> from bleu_core.study.model import Segment, Study
    >>> check_study_types(Study("toy", (Segment("1"),), {"ref": ["a b"]}, {"A": [42]}))
    Traceback (most recent call last):
      ...
    bleu_core.errors.WrongTypeError: toy: system 'A' text 1 must be a str or None, got int 42
    """
    from bleu_core.study.model import Criterion, LoadResult, Rating, Segment

    if isinstance(study, LoadResult):  # what every loader returns: the study is its .study
        raise WrongTypeError(
            "expected a Study, got the LoadResult of a loader; pass its .study (result.study)"
        )
    if not isinstance(study, Study):
        raise _wrong("the study", "a Study", study, "study")
    if not isinstance(study.name, str):
        raise _wrong("the study name", "a str", study.name, "study")
    where = study.name or "study"
    if not isinstance(study.segments, (tuple, list)):
        raise _wrong("segments", "a tuple of Segment", study.segments, where)
    for i, segment in enumerate(study.segments, start=1):
        if not isinstance(segment, Segment):
            raise _wrong(f"segment {i}", "a Segment", segment, where)
        if not isinstance(segment.id, str):
            raise _wrong(f"segment {i}'s id", "a str", segment.id, where)
        for field_name in ("doc_id", "source"):
            value = getattr(segment, field_name)
            if value is not None and not isinstance(value, str):
                raise _wrong(
                    f"segment {segment.id!r}'s {field_name}", "a str or None", value, where
                )
    for kind, streams in (("reference", study.references), ("system", study.systems)):
        if not isinstance(streams, dict):
            raise _wrong(f"the {kind}s", "a dict of name -> list of texts", streams, where)
        for name, texts in streams.items():
            _check_texts(kind, name, texts, where)
    for name in study.human_systems:
        if not isinstance(name, str):
            raise _wrong("a human system name", "a str", name, where)
    for key, criterion in study.criteria.items():
        if not isinstance(criterion, Criterion):
            raise _wrong(f"criterion {key!r}", "a Criterion", criterion, where)
        if not isinstance(criterion.name, str) or not isinstance(criterion.higher_is_better, bool):
            raise _wrong(
                f"criterion {key!r}",
                "a Criterion with a str name and a bool higher_is_better",
                criterion,
                where,
            )
        scale = criterion.scale
        if scale is not None and not (
            isinstance(scale, tuple)
            and len(scale) == 2
            and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in scale)
        ):
            raise _wrong(f"criterion {key!r}'s scale", "None or a (low, high) tuple", scale, where)
    if _ratings_well_typed(study.ratings, Rating):
        return
    for number, rating in enumerate(study.ratings, start=1):  # find the first wrong one and name it
        if not isinstance(rating, Rating):
            raise _wrong(f"rating {number}", "a Rating", rating, where)
        for field_name, nullable in (
            ("system", False),
            ("segment_id", True),
            ("rater", True),
            ("group", True),
            ("criterion", False),
        ):
            value = getattr(rating, field_name)
            if not (isinstance(value, str) or (nullable and value is None)):
                raise _wrong(
                    f"rating {number}'s {field_name}",
                    "a str or None" if nullable else "a str",
                    value,
                    where,
                )
        if isinstance(rating.score, bool) or not isinstance(rating.score, (int, float)):
            raise _wrong(f"rating {number}'s score", "a number", rating.score, where)


def validate_study(study: Study) -> None:
    """Check a study's internal consistency; raise :class:`~bleu_core.errors.StudyError` on the first problem.

    Checks: a name; unique, non-empty segment ids; at least one reference stream; every reference stream and
    system has one text per segment; every segment has at least one reference text; no name is both a
    reference and a system; human systems are systems; criteria are keyed by their names with valid scales;
    every rating names a known system, segment and criterion and has a finite score on the criterion's scale.
    """
    check_study_types(study)
    where = study.name or "study"
    if not study.name:
        raise StudyError("the study has no name; give it one")
    ids = [segment.id for segment in study.segments]
    if not ids:
        raise StudyError("the study has no segments", file=where)
    seen: set[str] = set()
    for position, seg_id in enumerate(ids, start=1):
        if not isinstance(seg_id, str) or not seg_id:
            raise StudyError(
                f"segment {position} has an empty id; give every segment an id", file=where
            )
        if seg_id in seen:
            raise StudyError(
                f"segment id {seg_id!r} is used twice (again at segment {position}); "
                "segment ids must be unique",
                file=where,
            )
        seen.add(seg_id)
    n = len(ids)
    if not study.references:
        raise StudyError(
            "the study has no reference translation; BLEU needs at least one reference stream",
            file=where,
        )
    for kind, streams in (("reference", study.references), ("system", study.systems)):
        for name, texts in streams.items():
            if not name:
                raise StudyError(f"a {kind} has an empty name; name it", file=where)
            if len(texts) != n:
                raise StudyError(
                    f"{kind} {name!r} has {_plural(len(texts), 'text')}, but the study has "
                    f"{n} segments; give one text per segment (None where missing)",
                    file=where,
                )
    both = sorted(set(study.references) & set(study.systems))
    if both:
        raise StudyError(
            f"{', '.join(map(repr, both))} is both a reference and a system; a translation used as "
            "reference cannot be scored against itself — rename one or drop it",
            file=where,
        )
    for i, seg_id in enumerate(ids):
        if all(not stream[i] for stream in study.references.values()):
            raise StudyError(
                f"segment {seg_id!r} has no reference text in any reference stream; add one or drop "
                "the segment",
                file=where,
            )
    unknown_humans = sorted(study.human_systems - set(study.systems))
    if unknown_humans:
        raise StudyError(
            f"human_systems names unknown systems: {', '.join(unknown_humans)}", file=where
        )
    for key, criterion in study.criteria.items():
        if key != criterion.name:
            raise StudyError(
                f"criterion stored under {key!r} is named {criterion.name!r}", file=where
            )
        if criterion.scale is not None:
            low, high = criterion.scale
            if not (math.isfinite(low) and math.isfinite(high) and low < high):
                raise StudyError(
                    f"criterion {key!r} has an invalid scale {criterion.scale}; use (low, high) "
                    "with low < high",
                    file=where,
                )
    if not _ratings_consistent(study, seen):
        _find_inconsistent_rating(study, seen, where)
    from bleu_core.study.spans import check_error_spans

    check_error_spans(study)


def _rating_columns(ratings: Sequence[Rating]) -> list[tuple[Any, ...]]:
    """(systems, segment ids, raters, groups, criteria, scores) of ``ratings``, one tuple per field."""
    return [tuple(map(attrgetter(name), ratings)) for name in _RATING_FIELDS]


def _ratings_well_typed(ratings: Sequence[object], rating_type: type) -> bool:
    """True when every rating is a ``rating_type`` with str names and a float/int score (checked in bulk:
    half a million ratings in a fraction of a second); False sends the caller to its rating-by-rating
    loop, which names the first wrong one."""
    if not isinstance(ratings, (tuple, list)) or not set(map(type, ratings)) <= {rating_type}:
        return False
    columns = _rating_columns(ratings)
    for field_name, values in zip(_RATING_FIELDS, columns, strict=True):
        kinds = set(map(type, values))
        allowed = _ALLOWED_TYPES[field_name]
        if not kinds <= allowed:
            return False
    return True


def _ratings_consistent(study: Study, segment_ids: set[str]) -> bool:
    """True when every rating names a known system, segment and criterion and has a finite score on its
    criterion's scale (checked in bulk; False: the rating-by-rating loop names the first problem)."""
    if not study.ratings:
        return True
    systems, segments, _, _, criteria, scores = _rating_columns(study.ratings)
    if not set(systems) <= set(study.systems):
        return False
    if not set(segments) - {None} <= segment_ids:
        return False
    if not set(criteria) <= set(study.criteria):
        return False
    try:
        values = np.asarray(scores, dtype=np.float64)
    except OverflowError:  # an int beyond float range
        return False
    if not np.isfinite(values).all():
        return False
    names = np.asarray(criteria, dtype=object)
    for name, criterion in study.criteria.items():
        if criterion.scale is None:
            continue
        low, high = criterion.scale
        on = values[names == name]
        if on.size and not (low <= on.min() and on.max() <= high):
            return False
    return True


def _find_inconsistent_rating(study: Study, seen: set[str], where: str) -> None:
    systems = set(study.systems)
    for number, rating in enumerate(study.ratings, start=1):
        if rating.system not in systems:
            raise StudyError(
                f"rating {number} is for unknown system {rating.system!r}; known systems: "
                f"{', '.join(study.systems)}",
                file=where,
            )
        if rating.segment_id is not None and rating.segment_id not in seen:
            raise StudyError(
                f"rating {number} is for unknown segment {rating.segment_id!r}", file=where
            )
        criterion = study.criteria.get(rating.criterion)
        if criterion is None:
            raise StudyError(
                f"rating {number} uses criterion {rating.criterion!r}, which is not declared "
                f"(declared: {', '.join(study.criteria) or 'none'})",
                file=where,
            )
        if not isinstance(rating.score, (int, float)) or not _finite(rating.score):
            raise StudyError(
                f"rating {number} has a score that is not a finite number: {rating.score!r}",
                file=where,
            )
        if not criterion.contains(rating.score):
            raise StudyError(
                f"rating {number} ({rating.system}, segment {rating.segment_id}) has score "
                f"{rating.score:g}, outside the {criterion.name} scale {criterion.scale}",
                file=where,
            )
