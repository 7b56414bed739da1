"""The JSON types a saved study must have, checked before anything is built from it.

A saved study (:mod:`bleu_core.study.storage`) is a JSON document that may have been edited by hand or by
another program. Building a :class:`~bleu_core.study.model.Study` from a document with a number where a text
belongs would "work" (Python accepts anything) and fail much later, deep inside a computation, with a
``TypeError`` that names no file. :func:`check_saved_types` walks the whole layout first and names the exact
place, as a JSON path:

>>> check_saved_types({"segments": {"id": ["1"], "doc_id": [None], "source": [7]}}, "s.json")
Traceback (most recent call last):
  ...
bleu_core.errors.StudyError: s.json: saved study: segments.source[0] must be a text or null, got the number 7; ...

Only the types are checked here; the meaning (ids unique, streams as long as the segments, scores on their
scale...) is :func:`~bleu_core.study.validation.validate_study`'s job.
"""

from __future__ import annotations

from typing import Any

from bleu_core.errors import StudyError

__all__ = ["check_saved_types"]

_FIX = "the file was edited or damaged — fix the value, or save the study again with save_study"


def _describe(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    if isinstance(value, (int, float)):
        return f"the number {value!r}"
    if isinstance(value, str):
        return f"the text {value[:40]!r}"
    if isinstance(value, list):
        return f"a list of {len(value)} items"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__  # pragma: no cover - json gives only the types above


def _fail(path: str, expected: str, value: Any, file: str) -> None:
    raise StudyError(
        f"saved study: {path} must be {expected}, got {_describe(value)}; {_FIX}", file=file
    )


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _is_code(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _list(data: dict[str, Any], key: str, path: str, file: str) -> list[Any]:
    if key not in data:
        raise StudyError(f"saved study: {path} is missing; {_FIX}", file=file)
    value = data[key]
    if not isinstance(value, list):
        _fail(path, "a list", value, file)
    return value


def _texts(values: list[Any], path: str, file: str, *, nullable: bool) -> None:
    for i, value in enumerate(values):
        if not (isinstance(value, str) or (nullable and value is None)):
            _fail(f"{path}[{i}]", "a text or null" if nullable else "a text", value, file)


def check_saved_types(data: dict[str, Any], file: str) -> None:
    """Raise :class:`~bleu_core.errors.StudyError` naming the first value of the wrong JSON type.

    Checks the parts of the layout in ``docs/formats.md`` ("Saved study") that are present: top-level
    ``name``, languages and ``metadata``; ``segments`` (ids are texts, document ids and sources texts or
    null); ``references`` and ``systems`` (objects of lists of texts or null); ``human_systems``; every
    criterion; the rating columns (name lists of texts, codes whole numbers, scores numbers). Missing keys
    are left to the loader, which reports them.
    """
    for key in ("name",):
        if key in data and not isinstance(data[key], str):
            _fail(key, "a text", data[key], file)
    for key in ("source_lang", "target_lang"):
        if data.get(key) is not None and not isinstance(data[key], str):
            _fail(key, "a text or null", data[key], file)
    if data.get("metadata") is not None and not isinstance(data["metadata"], dict):
        _fail("metadata", "an object or null", data["metadata"], file)
    segments = data.get("segments")
    if isinstance(segments, dict):
        _texts(_list(segments, "id", "segments.id", file), "segments.id", file, nullable=False)
        for key in ("doc_id", "source"):
            _texts(
                _list(segments, key, f"segments.{key}", file),
                f"segments.{key}",
                file,
                nullable=True,
            )
        if "domain" in segments:  # written when some segment has a domain (WMT24+ releases)
            _texts(
                _list(segments, "domain", "segments.domain", file),
                "segments.domain",
                file,
                nullable=True,
            )
    for kind in ("references", "systems"):
        streams = data.get(kind)
        if isinstance(streams, dict):
            for name, texts in streams.items():
                path = f"{kind}[{name!r}]"
                if not isinstance(texts, list):
                    _fail(path, "a list of texts (one per segment)", texts, file)
                _texts(texts, path, file, nullable=True)
    if isinstance(data.get("human_systems"), list):
        _texts(data["human_systems"], "human_systems", file, nullable=False)
    criteria = data.get("criteria")
    if isinstance(criteria, list):
        for i, criterion in enumerate(criteria):
            path = f"criteria[{i}]"
            if not isinstance(criterion, dict):
                _fail(path, "an object", criterion, file)
            if not isinstance(criterion.get("name"), str):
                _fail(f"{path}.name", "a text", criterion.get("name"), file)
            if not isinstance(criterion.get("higher_is_better"), bool):
                _fail(
                    f"{path}.higher_is_better",
                    "true or false",
                    criterion.get("higher_is_better"),
                    file,
                )
            scale = criterion.get("scale")
            if scale is not None and not (
                isinstance(scale, list) and len(scale) == 2 and all(map(_is_number, scale))
            ):
                _fail(f"{path}.scale", "null or a list of two numbers [low, high]", scale, file)
            if not isinstance(criterion.get("description", ""), str):
                _fail(f"{path}.description", "a text", criterion.get("description"), file)
    ratings = data.get("ratings")
    if isinstance(ratings, dict):
        for key in ("systems", "criteria"):
            _texts(
                _list(ratings, key, f"ratings.{key}", file), f"ratings.{key}", file, nullable=False
            )
        for key in ("raters", "groups"):
            _texts(
                _list(ratings, key, f"ratings.{key}", file), f"ratings.{key}", file, nullable=True
            )
        for key in ("system", "segment", "rater", "group", "criterion"):
            for i, code in enumerate(_list(ratings, key, f"ratings.{key}", file)):
                if not _is_code(code):
                    _fail(f"ratings.{key}[{i}]", "a whole-number code", code, file)
        for i, score in enumerate(_list(ratings, "score", "ratings.score", file)):
            if not _is_number(score):
                _fail(f"ratings.score[{i}]", "a number", score, file)
