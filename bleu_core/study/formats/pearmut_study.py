"""Pearmut files as a study, or as human scores added to a study (see :mod:`.pearmut` for the semantics).

What is recognised (:func:`pearmut_kind` on a file's opening, :func:`pearmut_files` in a folder or zip):

* the annotation log, ``data/annotations/<campaign>.jsonl`` (any ``*.jsonl`` of log entries);
* the download, ``{campaign_id: [entries]}`` (``/download-annotations``, ``annotations.json``), or a list;
* the campaign file (``pearmut add``'s input, ``data/campaigns/<campaign>.json``, or ``/download-campaigns``'
  list): its ``special_tokens``, ``validation_threshold``, ``protocol`` and every item's texts;
* ``progress.json`` / ``data/progress/<campaign>.json`` (read for nothing but recognised, so a whole
  Pearmut ``data/`` folder or an ``add-existing`` set loads as it is).

:func:`pearmut_study` makes a study of the campaign's items: one segment per ``item_id`` (its document
and domain from the id, see :func:`.pearmut.split_item_id`), one system per model of ``tgt``, the ``ref``
texts as reference stream ``ref``, ratings of criterion ``esa`` (``da`` for a DA campaign) by annotator
and the error spans. :func:`attach_pearmut` adds the ratings to a study that already has the texts
(``--esa FILE`` on the command line): a segment is found by its ``item_id``, or by the id's last
``_#_`` part (``en-ja_#_12`` is segment ``12``), and the study's translation must be the text Pearmut
showed (else the spans would land on other characters): a rating whose text differs is a warning.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import astuple, dataclass, replace
from typing import Any

from bleu_core.errors import InputError, StudyError
from bleu_core.io.members import FileTree
from bleu_core.study.model import Criterion, LoadResult, LoadWarning, Rating, Segment, Study
from bleu_core.study.ratings import KNOWN_CRITERIA
from bleu_core.study.reference_choice import reference_letter

from .pearmut import WMT26_SPECIAL_TOKENS, PearmutAnnotations, PearmutAnswer, read_pearmut

__all__ = [
    "PearmutFiles",
    "attach_pearmut",
    "campaign_settings",
    "keep_pearmut_judges",
    "campaign_segments",
    "pearmut_file",
    "pearmut_files",
    "pearmut_kind",
    "pearmut_segments",
    "pearmut_study",
    "read_pearmut_files",
]

_PAIR = re.compile(r"^([a-z]{2,3})(?:_[A-Za-z]+)?-([a-z]{2,3})(?:_[A-Za-z]+)?_#_")


def pearmut_kind(head: str) -> str | None:
    """``"log"``, ``"campaign"``, ``"progress"`` or ``None``: what the opening *head* of a file (a few KB)
    is, judged by its shape (a saved bleu-study study is never Pearmut's).

    >>> pearmut_kind('{"annotation": [], "user_id": "u", "item_i": 0}'), pearmut_kind('{"format": "bleu-study"}')
    ('log', None)
    >>> pearmut_kind('{"campaign_id": "c", "info": {"assignment": "task-based"}, "data": []}')
    'campaign'
    """
    start = head.lstrip()[:1]
    if start not in ("{", "[") or '"format": "bleu-study"' in head[:200]:
        return None
    if re.search(r'"campaign_id"\s*:', head) and re.search(r'"(info|data)"\s*:', head):
        return "campaign"
    if re.search(r'"annotation"\s*:', head) or re.search(r'"user_id"\s*:', head[:400]):
        return "log"
    if re.search(r'"progress"\s*:', head) and re.search(r'"token_correct"\s*:', head):
        return "progress"
    return None


@dataclass(frozen=True)
class PearmutFiles:
    """The Pearmut files of a folder, a zip or an upload: campaign objects and annotation texts."""

    campaigns: tuple[dict[str, Any], ...]
    logs: tuple[tuple[str, str], ...]
    notes: tuple[LoadWarning, ...] = ()


def _campaign_objects(data: Any, name: str) -> list[dict[str, Any]]:
    items = data if isinstance(data, list) else [data]
    if not all(isinstance(c, dict) and "campaign_id" in c and "data" in c for c in items):
        raise InputError("not a Pearmut campaign file (each campaign needs campaign_id and data)", file=name)  # fmt: skip
    return list(items)


def pearmut_files(tree: FileTree) -> PearmutFiles | None:
    """The Pearmut files in *tree* (``None`` when it has no campaign file, log or download). A download holds
    the log of its campaigns, so when there are both, the downloads are read and the logs are not (a
    note says so)."""
    campaigns: list[dict[str, Any]] = []
    logs: list[tuple[str, str]] = []
    downloads: list[tuple[str, str]] = []
    for f in sorted(tree.files()):
        if not f.lower().endswith((".json", ".jsonl")):
            continue
        text = tree.read_text(f)
        kind = pearmut_kind(text[:4096])
        if kind == "campaign":
            try:
                campaigns.extend(_campaign_objects(json.loads(text), tree.display(f)))
            except json.JSONDecodeError as exc:
                raise InputError(f"not valid JSON ({exc.msg})", file=tree.display(f), line=exc.lineno) from None  # fmt: skip
        elif _is_download(text):
            downloads.append((tree.display(f), text))
        elif kind == "log":
            logs.append((tree.display(f), text))
    if not downloads:
        return PearmutFiles(tuple(campaigns), tuple(logs)) if logs or campaigns else None
    notes = tuple(
        LoadWarning(
            "pearmut", f"not read: the download {downloads[0][0]} holds this log too", file=name
        )  # fmt: skip
        for name, _ in logs
    )
    return PearmutFiles(tuple(campaigns), tuple(downloads), notes)


def _is_download(text: str) -> bool:
    """``{campaign_id: [entries]}`` whose first entry looks like a log entry."""
    first = re.match(r'\s*\{\s*"([^"]*)"\s*:\s*\[\s*(\{|\])', text)
    if not first or first.group(1) in ("annotation", "item", "actions"):
        return False
    return pearmut_kind(text[:4096].split("[", 1)[-1]) == "log"


def campaign_settings(campaigns: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """``special_tokens``, ``validation_threshold`` and the criterion of the (first) campaign, with
    Pearmut's defaults (``[missing]`` for ESA, cESA and MQM; threshold 0); WMT26's tokens without one."""
    if not campaigns:
        return {
            "special_tokens": WMT26_SPECIAL_TOKENS,
            "validation_threshold": 0,
            "criterion": "esa",
        }
    info = campaigns[0].get("info") or {}
    protocol = str(info.get("protocol", "cESA"))
    default = ["[missing]"] if protocol in ("ESA", "cESA", "MQM") else []
    return {
        "special_tokens": tuple(info.get("special_tokens", default)),
        "validation_threshold": info.get("validation_threshold", 0),
        "criterion": "da" if protocol == "DA" else "esa",
    }


def campaign_segments(campaign: dict[str, Any]) -> list[dict[str, Any]]:
    """Every evaluation segment of the campaign's ``data`` (task-based: a list of tasks or, once added, a
    dict user → task; single-stream and dynamic: a list of documents), in order, form items left out."""
    data = campaign.get("data") or []
    tasks = list(data.values()) if isinstance(data, dict) else data
    docs: list[Any] = []
    for entry in tasks:
        if isinstance(entry, list) and entry and all(isinstance(d, list) for d in entry):
            docs.extend(entry)  # a task: a list of documents
        else:
            docs.append(entry)
    return [seg for doc in docs if isinstance(doc, list) for seg in doc if isinstance(seg, dict) and isinstance(seg.get("tgt"), dict)]  # fmt: skip


def read_pearmut_files(files: PearmutFiles, keep: Iterable[str] = ()) -> PearmutAnnotations:
    """:func:`.pearmut.read_pearmut` of the logs with the campaign's settings."""
    settings = campaign_settings(files.campaigns)
    return read_pearmut(
        files.logs,
        special_tokens=settings["special_tokens"],
        criterion=settings["criterion"],
        validation_threshold=settings["validation_threshold"],
        keep=keep,
    )


def _criteria(name: str, answers: Sequence[PearmutAnswer], campaigns: Sequence[dict[str, Any]]) -> dict[str, Criterion]:  # fmt: skip
    sliders = {str(s.get("name")): s for c in campaigns for s in (c.get("info") or {}).get("sliders") or [] if isinstance(s, dict)}  # fmt: skip
    out = {}
    for crit in sorted({k for a in answers for k in a.scores}):
        if crit == name:
            out[crit] = KNOWN_CRITERIA[name]
        elif crit in sliders:
            out[crit] = Criterion(
                crit, True, (float(sliders[crit]["min"]), float(sliders[crit]["max"]))
            )
        else:
            out[crit] = Criterion(crit)
    return out


def pearmut_segments(
    files: PearmutFiles, answers: Sequence[PearmutAnswer]
) -> dict[str, dict[str, Any]]:
    """Per item id: ``src``, ``ref``, ``doc``, ``domain`` and ``tgt`` {system: text}, campaign items first."""
    from .pearmut import split_item_id

    segs: dict[str, dict[str, Any]] = {}
    for c in files.campaigns:
        for seg in campaign_segments(c):
            if seg.get("item_id") is None:
                continue
            domain, doc, _ = split_item_id(str(seg["item_id"]))
            entry = segs.setdefault(str(seg["item_id"]), {"src": seg.get("src"), "ref": seg.get("ref"), "doc": doc or seg.get("doc_id"), "domain": domain, "tgt": {}})  # fmt: skip
            entry["tgt"].update(seg["tgt"])
    for a in answers:
        entry = segs.setdefault(a.item_id, {"src": a.src, "ref": a.ref, "doc": a.document, "domain": a.domain, "tgt": {}})  # fmt: skip
        entry["tgt"].setdefault(a.system, a.tgt)
    return segs


def pearmut_study(
    files: PearmutFiles, *, name: str | None = None, keep: Iterable[str] = ()
) -> LoadResult:
    """A study of a Pearmut campaign's items and ratings (see the module docstring)."""
    got = read_pearmut_files(files, keep)
    segs = pearmut_segments(files, got.answers + got.set_aside)
    ids = list(segs)
    systems = sorted({s for e in segs.values() for s in e["tgt"]})
    if not any(e["ref"] for e in segs.values()):
        raise StudyError(
            "these Pearmut items show no reference ('ref'), and BLEU needs one: load the study of "
            "these texts and add the Pearmut file to it (command line: --esa FILE)",
            file=got.file,
        )
    criterion = campaign_settings(files.campaigns)["criterion"]
    first = _PAIR.match(ids[0]) if ids else None
    cid = files.campaigns[0]["campaign_id"] if files.campaigns else None
    study = Study(
        name=name or str(cid or "pearmut"),
        segments=tuple(Segment(i, segs[i]["doc"], segs[i]["src"], segs[i]["domain"]) for i in ids),
        references={"ref": [segs[i]["ref"] for i in ids]},
        systems={s: [segs[i]["tgt"].get(s) for i in ids] for s in systems},
        criteria=_criteria(criterion, got.answers, files.campaigns),
        ratings=got.ratings,
        error_spans=got.spans,
        source_lang=first.group(1) if first else None,
        target_lang=first.group(2) if first else None,
        metadata={
            "format": "pearmut",
            **({"pair": f"{first.group(1)}-{first.group(2)}"} if first else {}),
            "pearmut": _summary(got),
        },  # fmt: skip
    )
    return LoadResult(study, files.notes + tuple(got.warnings()))


def _summary(got: PearmutAnnotations) -> dict[str, Any]:
    """What ``metadata["pearmut"]`` keeps: the counts, and the left-out judges' ratings and spans as rows
    (:func:`keep_pearmut_judges` brings them back)."""
    return {
        "replaced": got.replaced,
        "voided": got.voided,
        "left_out": dict(got.left_out),
        "excluded_judges": list(got.excluded),
        "set_aside_ratings": [
            [a.system, a.item_id, a.user, None, c, v]
            for a in got.set_aside
            for c, v in a.scores.items()
        ],  # fmt: skip
        "set_aside_spans": [list(astuple(s)) for a in got.set_aside for s in a.spans],
    }


def keep_pearmut_judges(study: Study, keep: Sequence[str]) -> LoadResult:
    """*study* (opened from Pearmut files) with the ratings and spans of the judges *keep* brought back,
    although they failed Pearmut's checks; a name that is not such a judge is a warning."""
    from bleu_core.study.spans import ErrorSpan

    info = dict(study.metadata.get("pearmut") or {})
    aside = set(info.get("excluded_judges") or [])
    wanted = [k for k in keep if k in aside]
    warnings = tuple(
        LoadWarning("pearmut", f"--keep-judge {k}: no such judge was left out of this study")
        for k in keep if k not in aside
    )  # fmt: skip
    if not wanted:
        return LoadResult(study, warnings)
    rows = [r for r in info.get("set_aside_ratings", []) if r[2] in wanted]
    spans = [r for r in info.get("set_aside_spans", []) if r[2] in wanted]
    info["excluded_judges"] = sorted(aside - set(wanted))
    info["set_aside_ratings"] = [r for r in info.get("set_aside_ratings", []) if r[2] not in wanted]
    info["set_aside_spans"] = [r for r in info.get("set_aside_spans", []) if r[2] not in wanted]
    criteria = {**study.criteria, **{r[4]: study.criteria.get(r[4]) or KNOWN_CRITERIA.get(r[4]) or Criterion(r[4]) for r in rows}}  # fmt: skip
    kept = replace(
        study,
        criteria=criteria,
        ratings=study.ratings + tuple(Rating(*r) for r in rows),
        error_spans=study.error_spans + tuple(ErrorSpan(*r) for r in spans),
        metadata={**study.metadata, "pearmut": info},
    )
    n = len(rows)
    return LoadResult(kept, warnings + (LoadWarning("pearmut", f"kept {', '.join(wanted)} as asked: {n} rating(s) back"),))  # fmt: skip


def _segment_of(item_id: str, known: dict[str, int]) -> str | None:
    if item_id in known:
        return item_id
    tail = item_id.rsplit("_#_", 1)[-1]
    return tail if "_#_" in item_id and tail in known else None


def attach_pearmut(study: Study, got: PearmutAnnotations, criterion: str = "esa") -> LoadResult:
    """*study* with the Pearmut ratings *got* added (see the module docstring); ratings of a reference
    (``refA`` → ``ref-A``) are kept aside in ``metadata["reference_ratings"]`` as :func:`.esa.attach_esa`
    does. A rating whose segment, system or text the study does not have is a warning, not read."""
    index = {seg: i for i, seg in enumerate(study.segment_ids)}
    texts = {**study.systems, **study.references}
    ratings, spans, problems = [], [], []
    for a in got.answers:
        seg = _segment_of(a.item_id, index)
        letter = reference_letter(a.system)
        system = a.system if a.system in texts else f"ref-{letter}" if letter else a.system
        why = ("its segment is not in the study" if seg is None
               else f"system {a.system!r} is not in the study" if system not in texts
               else "the study's translation is not the text Pearmut showed" if texts[system][index[seg]] != a.tgt
               else None)  # fmt: skip
        if why or seg is None:
            problems.append(LoadWarning("pearmut-not-in-study", f"{a.where}: {a.item_id} / {a.system}: {why}; not read"))  # fmt: skip
            continue
        ratings += [Rating(system, seg, a.user, None, c, v) for c, v in a.scores.items()]
        spans += [replace(s, system=system, segment_id=seg) for s in a.spans]
    refs = set(study.references)
    metadata = dict(study.metadata)
    metadata["reference_ratings"] = list(metadata.get("reference_ratings") or []) + [list(astuple(r)) for r in ratings if r.system in refs]  # fmt: skip
    metadata["reference_spans"] = list(metadata.get("reference_spans") or []) + [list(astuple(s)) for s in spans if s.system in refs]  # fmt: skip
    criteria = {**study.criteria, **_criteria(criterion, got.answers, ())}
    result = replace(
        study,
        criteria=criteria,
        ratings=study.ratings + tuple(r for r in ratings if r.system not in refs),
        error_spans=study.error_spans + tuple(s for s in spans if s.system not in refs),
        metadata=metadata,
    )
    if len(problems) > 20:
        problems = problems[:20] + [LoadWarning("pearmut-not-in-study", f"{len(problems) - 20} more ratings not in the study")]  # fmt: skip
    return LoadResult(result, tuple(got.warnings()) + tuple(problems))


def pearmut_file(name: str, text: str) -> PearmutFiles | None:
    """One file as Pearmut files when it is a log, a download or a campaign file (``None`` otherwise)."""
    kind = pearmut_kind(text[:4096])
    if _is_download(text) or kind == "log":
        return PearmutFiles((), ((name, text),))
    if kind == "campaign":
        try:
            return PearmutFiles(tuple(_campaign_objects(json.loads(text), name)), ())
        except json.JSONDecodeError as exc:
            raise InputError(f"not valid JSON ({exc.msg})", file=name, line=exc.lineno) from None
    return None
