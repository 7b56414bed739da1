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
from dataclasses import replace

from bleu_core.errors import StudyError, WrongTypeError
from bleu_core.study.mistakes import check_reference_shape, detect_mistakes
from bleu_core.study.model import Criterion, LoadResult, LoadWarning, Rating, Segment, Study
from bleu_core.study.ratings import check_repeated_ratings, default_criterion
from bleu_core.study.validation import check_study_types, validate_study

__all__ = ["add_ratings", "study_from_texts"]


def _check_stream(label: str, texts: object) -> None:
    if isinstance(texts, (str, bytes)) or not isinstance(texts, Sequence):
        raise WrongTypeError(
            f"{label} must be a list of texts (one str per segment, None where missing), got "
            f"{type(texts).__name__}"
        )
    for i, text in enumerate(texts):
        if text is not None and not isinstance(text, str):
            raise WrongTypeError(
                f"{label}[{i}] must be a str (or None where missing), got "
                f"{type(text).__name__} {text!r:.40}"
            )


def _check_argument_types(systems: object, references: object) -> None:
    """Raise :class:`~bleu_core.errors.WrongTypeError` before anything looks inside the texts."""
    if not isinstance(systems, Mapping):
        raise WrongTypeError(
            "systems must be a mapping name -> list of texts, e.g. systems={'A': hypotheses}, got "
            f"{type(systems).__name__}"
        )
    for name, texts in systems.items():
        if not isinstance(name, str):
            raise WrongTypeError(f"system names must be str, got {type(name).__name__} {name!r}")
        _check_stream(f"systems[{name!r}]", texts)
    if isinstance(references, Mapping):
        streams = list(references.items())
    elif isinstance(references, (str, bytes)) or not isinstance(references, Sequence):
        raise WrongTypeError(
            "references must be a list of reference streams (references[k][i]) or a mapping "
            f"name -> stream, got {type(references).__name__}"
        )
    elif references and isinstance(references[0], str):
        return  # a bare list of strings: check_reference_shape explains the fix
    else:
        streams = [(k, stream) for k, stream in enumerate(references)]
    for key, stream in streams:
        _check_stream(f"references[{key!r}]", stream)


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
    n = _number_of_segments(systems, references)
    named, warnings = _named_references(references, n)
    ids = (
        [str(i) for i in range(1, n + 1)] if segment_ids is None else [str(s) for s in segment_ids]
    )
    docs = list(doc_ids) if doc_ids is not None else [None] * n
    srcs = list(sources) if sources is not None else [None] * n
    for label, values in (("segment_ids", ids), ("doc_ids", docs), ("sources", srcs)):
        if len(values) != n:
            raise StudyError(f"{label} has {len(values)} entries, but there are {n} segments")
    rating_list = tuple(ratings)
    # well-typed Rating objects first (a study holding only the ratings), then no rater's repeats
    check_study_types(Study(name, (), {}, {}, ratings=rating_list))
    check_repeated_ratings(rating_list)
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


def _number_of_segments(
    systems: Mapping[str, Sequence[str | None]],
    references: Sequence[Sequence[str | None]] | Mapping[str, Sequence[str | None]],
) -> int:
    _check_argument_types(systems, references)
    if not systems:
        raise StudyError("no systems given; pass systems={'name': [one text per segment]}")
    lengths = {len(texts) for texts in systems.values()}
    if len(lengths) != 1:
        detail = ", ".join(f"{n}: {len(t)}" for n, t in systems.items())
        raise StudyError(
            f"systems have different numbers of texts ({detail}); one text per segment"
        )
    (n,) = lengths
    return n


def _named_references(
    references: Sequence[Sequence[str | None]] | Mapping[str, Sequence[str | None]], n: int
) -> tuple[dict[str, list[str | None]], list[LoadWarning]]:
    """The reference streams by name (``ref-1``, ``ref-2``... for a list) and the shape warnings; a blank
    reference text is an error, as in the file loaders (``check_blank_lines``)."""
    if isinstance(references, Mapping):
        named = {str(k): list(v) for k, v in references.items()}
        warnings = check_reference_shape(list(named.values()), n)
    else:
        warnings = check_reference_shape(references, n)
        named = {f"ref-{k}": list(stream) for k, stream in enumerate(references, start=1)}
    for ref_name, stream in named.items():
        for i, text in enumerate(stream, start=1):
            if text is not None and not text.strip():
                raise StudyError(
                    f"reference {ref_name!r}, segment {i} is blank; a blank reference makes BLEU "
                    "meaningless — give the text, or None where this stream has no reference"
                )
    return named, list(warnings)


def add_ratings(study: Study, extra: Iterable[Rating], criteria: Iterable[Criterion] = ()) -> Study:
    """A new study with ``extra`` ratings appended (and ``criteria`` added), validated; ``study`` is unchanged.

    Raises :class:`bleu_core.errors.StudyError` when a new rating names an unknown system, segment or
    criterion, or has an invalid score. (A function here rather than a ``Study`` method, so that the model
    does not import the validation that checks it.)

    >>> toy = Study("toy", (Segment("1"),), {"ref": ["a b"]}, {"A": ["a b"]})
    >>> rated = add_ratings(toy, [Rating("A", "1", None, None, "fluency", 4.0)], [Criterion("fluency")])
    >>> rated.system_scores("fluency"), len(toy.ratings)
    ({'A': 4.0}, 0)
    >>> add_ratings(toy, [Rating("B", "1", None, None, "fluency", 4.0)], [Criterion("fluency")])
    Traceback (most recent call last):
      ...
    bleu_core.errors.StudyError: toy: rating 1 is for unknown system 'B'; known systems: A
    """
    new_criteria = dict(study.criteria)
    for criterion in criteria:
        new_criteria[criterion.name] = criterion
    result = replace(study, ratings=study.ratings + tuple(extra), criteria=new_criteria)
    validate_study(result)
    return result
