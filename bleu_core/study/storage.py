"""Saving a study to one file and loading it back unchanged.

The file is JSON (``.json``) or gzipped JSON (``.json.gz``, about 5x smaller); the layout is documented in
``docs/formats.md`` ("Saved study"). Texts are stored per stream, ratings column-wise with small integer codes,
so the bundled TED study (529 segments, 15 translations, 24 000 ratings) loads in a few hundredths of a second.

>>> import tempfile, pathlib
>>> from bleu_core.study.model import Segment, Study
>>> study = Study("toy", (Segment("1", "doc1"),), {"ref": ["a cat"]}, {"A": ["the cat"]})
>>> path = pathlib.Path(tempfile.mkdtemp()) / "toy.study.json.gz"
>>> save_study(study, path)
>>> read_saved_study(path) == study
True
"""

from __future__ import annotations

import gzip
import io
import json
import os
from pathlib import Path
from typing import Any

from bleu_core.errors import StudyError
from bleu_core.io.text import DEFAULT_MAX_BYTES, check_size, decode_text
from bleu_core.study.model import Criterion, Rating, Segment, Study
from bleu_core.study.saved_schema import check_saved_types
from bleu_core.study.spans import spans_from_columns, spans_to_columns
from bleu_core.study.validation import validate_study

__all__ = [
    "FORMAT_NAME",
    "FORMAT_VERSION",
    "read_saved_study",
    "save_study",
    "study_from_dict",
    "study_to_dict",
]

FORMAT_NAME = "bleu-study"
FORMAT_VERSION = 1


def _codes(values: list[str | None]) -> tuple[list[str], list[int]]:
    """Dictionary-encode ``values``: the distinct names and one code per value (-1 for None)."""
    names: dict[str, int] = {}
    codes = []
    for value in values:
        if value is None:
            codes.append(-1)
        else:
            codes.append(names.setdefault(value, len(names)))
    return list(names), codes


def study_to_dict(study: Study) -> dict[str, Any]:
    """A JSON-ready dictionary holding everything in ``study`` (see ``docs/formats.md``)."""
    validate_study(study)
    index = {segment.id: i for i, segment in enumerate(study.segments)}
    ratings = study.ratings
    system_names, system_codes = _codes([r.system for r in ratings])
    rater_names, rater_codes = _codes([r.rater for r in ratings])
    group_names, group_codes = _codes([r.group for r in ratings])
    criterion_names, criterion_codes = _codes([r.criterion for r in ratings])
    saved: dict[str, Any] = {
        "format": FORMAT_NAME,
        "version": FORMAT_VERSION,
        "name": study.name,
        "source_lang": study.source_lang,
        "target_lang": study.target_lang,
        "segments": {
            "id": [s.id for s in study.segments],
            "doc_id": [s.doc_id for s in study.segments],
            "source": [s.source for s in study.segments],
        },
        "references": study.references,
        "systems": study.systems,
        "human_systems": sorted(study.human_systems),
        "criteria": [
            {
                "name": c.name,
                "higher_is_better": c.higher_is_better,
                "scale": None if c.scale is None else [c.scale[0], c.scale[1]],
                "description": c.description,
            }
            for c in study.criteria.values()
        ],
        "ratings": {
            "systems": system_names,
            "raters": rater_names,
            "groups": group_names,
            "criteria": criterion_names,
            "system": system_codes,
            "segment": [-1 if r.segment_id is None else index[r.segment_id] for r in ratings],
            "rater": rater_codes,
            "group": group_codes,
            "criterion": criterion_codes,
            "score": [r.score for r in ratings],
        },
        "metadata": study.metadata,
    }
    if study.error_spans:  # written only when present: files without spans stay as before
        saved["error_spans"] = spans_to_columns(study.error_spans, [s.id for s in study.segments])
    if any(
        s.domain is not None for s in study.segments
    ):  # likewise: only when some segment has one
        saved["segments"]["domain"] = [s.domain for s in study.segments]
    if study.metric_scores:  # attached metrics (COMET...), likewise only when present
        from bleu_core.study.metric_scores import metric_scores_to_dict

        saved["metric_scores"] = metric_scores_to_dict(study.metric_scores)
    return saved


def _get(data: dict[str, Any], key: str, kind: type, file: str) -> Any:
    if key not in data or not isinstance(data[key], kind):
        raise StudyError(
            f"saved study has no valid {key!r} entry; the file is damaged or not a saved study "
            "(save it again with save_study)",
            file=file,
        )
    return data[key]


def study_from_dict(data: dict[str, Any], *, file: str = "study") -> Study:
    """Rebuild a :class:`Study` from :func:`study_to_dict` output (validated)."""
    if not isinstance(data, dict) or data.get("format") != FORMAT_NAME:
        raise StudyError(
            f'not a saved study (no "format": "{FORMAT_NAME}" entry); '
            "save studies with bleu_core.study.save_study",
            file=file,
        )
    if data.get("version") != FORMAT_VERSION:
        raise StudyError(
            f"saved-study format version {data.get('version')!r} is not supported (this version "
            f"reads {FORMAT_VERSION}); upgrade bleu-study",
            file=file,
        )
    check_saved_types(data, file)  # a number where a text belongs fails here, with its JSON path
    try:
        seg = _get(data, "segments", dict, file)
        domains = seg.get("domain") or [None] * len(seg["id"])
        segments = tuple(
            Segment(i, d, s, m)
            for i, d, s, m in zip(seg["id"], seg["doc_id"], seg["source"], domains, strict=True)
        )
        r = _get(data, "ratings", dict, file)

        ids: list[str | None] = [s.id for s in segments]
        systems: list[str] = list(r["systems"])
        raters: list[str | None] = list(r["raters"])
        groups: list[str | None] = list(r["groups"])
        criterion_names: list[str] = list(r["criteria"])
        # Code -1 means None: append None so that index -1 finds it.
        ids.append(None)
        raters.append(None)
        groups.append(None)
        codes = (r["system"], r["segment"], r["rater"], r["group"], r["criterion"], r["score"])
        if len({len(c) for c in codes}) != 1:
            raise ValueError("rating columns have different lengths")
        if any(min(c, default=0) < 0 for c in (codes[0], codes[4])) or any(
            min(c, default=0) < -1 for c in codes[1:4]
        ):
            raise ValueError("negative code in the rating columns")
        ratings = tuple(
            Rating(systems[sy], ids[sg], raters[ra], groups[gr], criterion_names[cr], float(sc))
            for sy, sg, ra, gr, cr, sc in zip(*codes, strict=True)
        )
        criteria = {
            c["name"]: Criterion(
                c["name"],
                bool(c["higher_is_better"]),
                None if c["scale"] is None else (float(c["scale"][0]), float(c["scale"][1])),
                c.get("description", ""),
            )
            for c in _get(data, "criteria", list, file)
        }
        study = Study(
            name=_get(data, "name", str, file),
            segments=segments,
            references={k: list(v) for k, v in _get(data, "references", dict, file).items()},
            systems={k: list(v) for k, v in _get(data, "systems", dict, file).items()},
            human_systems=frozenset(_get(data, "human_systems", list, file)),
            criteria=criteria,
            ratings=ratings,
            source_lang=data.get("source_lang"),
            target_lang=data.get("target_lang"),
            metadata=dict(data.get("metadata") or {}),
        )
    except (KeyError, IndexError, TypeError, ValueError) as exc:
        raise StudyError(
            f"saved study is damaged ({type(exc).__name__}: {exc}); save it again with save_study",
            file=file,
        ) from None
    study.error_spans = spans_from_columns(data.get("error_spans"), list(seg["id"]), file=file)
    if data.get("metric_scores"):
        study.metric_scores = _metric_scores(data["metric_scores"], study, file)
    validate_study(study)
    return study


def _metric_scores(entries: Any, study: Study, file: str) -> dict[str, Any]:
    """The saved attached metric scores, checked against the study (older files have none)."""
    from bleu_core.study.metric_scores import check_metric_scores, metric_scores_from_dict

    try:
        scores = metric_scores_from_dict(entries)
    except (AttributeError, KeyError, TypeError, ValueError) as exc:
        raise StudyError(
            f"saved metric scores are damaged ({type(exc).__name__}: {exc}); save the study again",
            file=file,
        ) from None
    for item in scores.values():
        check_metric_scores(study, item)
    return scores


def save_study(study: Study, path: str | os.PathLike[str]) -> None:
    """Write ``study`` to ``path``: gzipped JSON when the name ends in ``.gz``, plain JSON otherwise.

    ``metadata`` must hold JSON values only (dict, list, str, int, float, bool, None) for the round trip to
    give back an equal study.
    """
    path = Path(path)
    try:
        text = json.dumps(
            study_to_dict(study), ensure_ascii=False, separators=(",", ":"), allow_nan=False
        )
        data = text.encode("utf-8")
    except (TypeError, ValueError, UnicodeEncodeError) as exc:
        raise StudyError(
            f"cannot save this study as JSON ({exc}); metadata must hold only JSON values and texts "
            "must be valid Unicode",
            file=str(path),
        ) from None
    if path.name.endswith(".gz"):
        data = gzip.compress(data, compresslevel=9, mtime=0)
    path.write_bytes(data)


def read_saved_study(path: str | os.PathLike[str], *, max_bytes: int = DEFAULT_MAX_BYTES) -> Study:
    """Load a study written by :func:`save_study` (``.json`` or ``.json.gz``)."""
    path = Path(path)
    file = str(path)
    check_size(path.stat().st_size, max_bytes, file)
    raw = path.read_bytes()
    if raw[:2] == b"\x1f\x8b":
        try:
            with gzip.GzipFile(fileobj=io.BytesIO(raw)) as handle:
                raw = handle.read(max_bytes + 1)
        except (OSError, EOFError) as exc:
            raise StudyError(
                f"damaged gzip file ({exc}); save the study again", file=file
            ) from None
        check_size(len(raw), max_bytes, file + " (decompressed)")
    text = decode_text(raw, file)
    try:
        data = json.loads(text)
    except RecursionError:
        raise StudyError(
            "JSON nested too deeply to be a saved study (a saved study is at most 4 levels deep); "
            "the file is damaged or not a saved study — save the study again",
            file=file,
        ) from None
    except json.JSONDecodeError as exc:
        raise StudyError(
            f"not valid JSON ({exc.msg}); the file is damaged — save the study again",
            file=file,
            line=exc.lineno,
            column=exc.colno,
        ) from None
    return study_from_dict(data, file=file)
