"""Building a study from Python lists (the sacrebleu-style API), with the reference-shape check.

>>> result = study_from_texts(
...     systems={"A": ["the cat sat on the mat", "a dog"]},
...     references=[["the cat sat on the mat", "a dog barked"]],   # one stream: refs[k][i]
... )
>>> list(result.study.references), result.study.segment_ids
(['ref-1'], ['1', '2'])

Passing one list per segment (the classic mistake, sacrebleu issues #220, #272, #275) is caught:

>>> study_from_texts(systems={"A": ["x y", "z w", "u v"]},
...                  references=[["x y", "x z"], ["z w", "z v"], ["u v", "u w"]])
Traceback (most recent call last):
  ...
bleu_core.errors.StudyError: the references look transposed: got 3 lists (one per segment) of [2] references each, but 3 segments; ...
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from bleu_core.errors import StudyError
from bleu_core.study.mistakes import check_reference_shape, detect_mistakes
from bleu_core.study.model import Criterion, LoadResult, Rating, Segment, Study
from bleu_core.study.ratings import default_criterion
from bleu_core.study.validation import validate_study

__all__ = ["study_from_texts"]


def study_from_texts(
    systems: Mapping[str, Sequence[str | None]],
    references: Sequence[Sequence[str | None]] | Mapping[str, Sequence[str | None]],
    *,
    name: str = "study",
    segment_ids: Sequence[str] | None = None,
    doc_ids: Sequence[str | None] | None = None,
    sources: Sequence[str | None] | None = None,
    human_systems: Iterable[str] = (),
    ratings: Iterable[Rating] = (),
    criteria: Iterable[Criterion] = (),
    source_lang: str | None = None,
    target_lang: str | None = None,
) -> LoadResult:
    """A validated study from in-memory texts, with the usual-mistake warnings.

    ``references`` is a list of reference streams (``references[k][i]``, named ``ref-1``, ``ref-2``...) or a
    mapping name -> stream. Criteria used by ``ratings`` but not given get the defaults of
    :data:`bleu_core.study.ratings.KNOWN_CRITERIA`.
    """
    if not systems:
        raise StudyError("no systems given; pass systems={'name': [one text per segment]}")
    lengths = {len(texts) for texts in systems.values()}
    if len(lengths) != 1:
        detail = ", ".join(f"{n}: {len(t)}" for n, t in systems.items())
        raise StudyError(
            f"systems have different numbers of texts ({detail}); one text per segment"
        )
    (n,) = lengths
    if isinstance(references, Mapping):
        named = {str(k): list(v) for k, v in references.items()}
        warnings = check_reference_shape(list(named.values()), n)
    else:
        warnings = check_reference_shape(references, n)
        named = {f"ref-{k}": list(stream) for k, stream in enumerate(references, start=1)}
    ids = (
        [str(i) for i in range(1, n + 1)] if segment_ids is None else [str(s) for s in segment_ids]
    )
    docs = list(doc_ids) if doc_ids is not None else [None] * n
    srcs = list(sources) if sources is not None else [None] * n
    for label, values in (("segment_ids", ids), ("doc_ids", docs), ("sources", srcs)):
        if len(values) != n:
            raise StudyError(f"{label} has {len(values)} entries, but there are {n} segments")
    rating_list = tuple(ratings)
    all_criteria = {c.name: c for c in criteria}
    for rating in rating_list:
        all_criteria.setdefault(rating.criterion, default_criterion(rating.criterion))
    study = Study(
        name=name,
        segments=tuple(Segment(i, d, s) for i, d, s in zip(ids, docs, srcs, strict=True)),
        references=named,
        systems={k: list(v) for k, v in systems.items()},
        human_systems=frozenset(human_systems),
        criteria=all_criteria,
        ratings=rating_list,
        source_lang=source_lang,
        target_lang=target_lang,
    )
    validate_study(study)
    return LoadResult(study, tuple(warnings) + tuple(detect_mistakes(study)))
