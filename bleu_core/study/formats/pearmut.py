"""Pearmut's annotation files read as human scores: the log, the download, ``annotations.json``.

Pearmut (Zouhar & Kocmi, PyPI ``pearmut``; WMT26 ran its human evaluation on version 1.1.6) serves ESA, cESA,
DA and MQM campaigns. Every time an annotator submits an item, its server appends the page's payload plus
``user_id`` and ``item_i`` to ``data/annotations/<campaign>.jsonl`` (``utils.save_db_payload``)::

    {"annotation": [{"<system>": {"score": 52, "error_spans": [{"start_i": 9, "end_i": 11,
      "category": null, "severity": "major"}], "textfield": null}, ...}],
     "actions": [...], "item": [{"item_id": "en-ja_#_1", "src": "...", "tgt": {"<system>": "..."}}],
     "validations": [true], "user_id": "ann-a", "item_i": 0}

``item`` is the document shown (a list of segments), ``annotation`` one ``{system: answer}`` per segment:
a contrastive item (several systems) gives one rating per system. ``GET /download-annotations`` returns the
same entries as ``{campaign_id: [entries]}`` (saved as ``annotations.json``, the file ``pearmut
add-existing --annotations`` loads); :func:`read_pearmut` reads the log, that form and a plain list.

How Pearmut records things (its ``web/src/utils.ts`` ``contentToCharSpans`` and ``annotate.ts``; checked
against a real run, ``shared/data/pearmut-1.1.6-esa-enja``):

* ``start_i`` and ``end_i`` are indices into the raw ``tgt`` text in **UTF-16 code units** (JavaScript's
  string offsets: an emoji takes two), **line breaks counted** (a ``\\n`` is drawn as ``<br>`` and cannot be
  clicked, but keeps its index), ``end_i`` **inclusive**. :func:`utf16_starts` converts.
* Special token *k* of the campaign's ``special_tokens`` (WMT26: ``[missing]``, ``[instructions fault]``;
  Pearmut's default for ESA: ``[missing]``) is marked at ``start_i = end_i = len_utf16(tgt) + k``. Here
  ``[missing]`` becomes an ``Omission``, ``[instructions fault]`` an ``Instructions fault``, any other token
  a span whose category is the token itself; all are empty spans at the end of the text (as the ESA reader
  places omissions). A span that runs from the text into a token keeps its characters up to the text's end.
* A line ``{"user_id": U, "annotation": "__RESET__"}`` (the organiser's reset) voids every earlier entry of
  ``U``; an item submitted again is replaced by its last submission (per user, item, segment and system,
  which is also how the ``dynamic`` assignment's partial submissions add up).
* ``item_i`` ``welcome_k`` is a tutorial, ``random_k`` an attention check (``data_welcome`` and
  ``data_random`` of the campaign), ``goodbye_k`` a closing form: none is a rating. Their ``validations``
  (one boolean per checked segment) decide whether a judge failed, by the campaign's
  ``validation_threshold`` exactly as Pearmut's ``check_validation_threshold`` (an integer: at most that
  many failed checks; a fraction below 1: at most that share; 1 or more: any check fails; default 0). A
  judge who fails is left out unless kept (``keep``), as for bleu-study's own campaigns
  (:class:`JudgeChecks`, the rule of :class:`bleu_core.campaigns.quality.JudgeQuality`).
* ``item_id`` names the segment. WMT's ``PAIR_#_DOMAIN_#_DOC_#_INDEX`` gives domain, document and
  paragraph; otherwise the item's ``doc_id`` (if any) is the document and the segment's place in the shown
  document its paragraph.

A bad entry (not JSON, no ``user_id``, a span outside the text, a score that is not a number...) is one
warning naming the file, its line (or entry) and the problem; the rest is read. A bad answer drops only
that system's rating of that segment.

>>> text = "ab😀\\nc"
>>> utf16_starts(text)
[0, 1, 2, 4, 5, 6]
>>> from_pearmut(2, 3, text, ("[missing]",))
(2, 3, 'Error')
>>> from_pearmut(6, 6, text, ("[missing]",))
(5, 5, 'Omission')
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from bleu_core.errors import InputError
from bleu_core.io.cells import json_cell
from bleu_core.io.text import split_lines
from bleu_core.study.model import LoadWarning, Rating
from bleu_core.study.spans import ErrorSpan

__all__ = [
    "MISSING",
    "INSTRUCTIONS_FAULT",
    "RESET_MARKER",
    "WMT26_SPECIAL_TOKENS",
    "JudgeChecks",
    "PearmutAnswer",
    "PearmutAnnotations",
    "from_pearmut",
    "log_entries",
    "read_pearmut",
    "split_item_id",
    "to_pearmut",
    "utf16_starts",
]

MISSING = "[missing]"
INSTRUCTIONS_FAULT = "[instructions fault]"
#: WMT26's special tokens, the default when no campaign file says which tokens were shown.
WMT26_SPECIAL_TOKENS: tuple[str, ...] = (MISSING, INSTRUCTIONS_FAULT)
#: The annotation of Pearmut's reset line (``pearmut.utils.RESET_MARKER``).
RESET_MARKER = "__RESET__"
#: The span category of each known special token; any other token is its own category.
TOKEN_CATEGORY = {MISSING: "Omission", INSTRUCTIONS_FAULT: "Instructions fault"}
_KINDS = {"welcome": "tutorial", "random": "attention", "goodbye": "form"}
#: At most this many bad entries are listed one by one; the rest are counted in one more warning.
MAX_LISTED = 20


def utf16_starts(text: str) -> list[int]:
    """The UTF-16 index of each character offset of *text* and of its end (Pearmut's ``data-i``): one unit
    per character, two for a character beyond U+FFFF; line breaks counted."""
    out = [0]
    for ch in text:
        out.append(out[-1] + (2 if ord(ch) > 0xFFFF else 1))
    return out


def to_pearmut(start: int, end: int, text: str, category: str = "Error", tokens: Sequence[str] = WMT26_SPECIAL_TOKENS) -> tuple[int, int]:  # fmt: skip
    """The ``(start_i, end_i)`` Pearmut records for characters ``start:end`` of *text* (end exclusive), or
    for the special token of *category* (``Omission`` → ``[missing]``) at ``len_utf16 + k``.

    >>> text = "ab😀\\ncd"  # a0 b1 😀2 \\n3 c4 d5; in units a0 b1 😀2-3 \\n4 c5 d6
    >>> to_pearmut(2, 3, text), to_pearmut(4, 5, text), to_pearmut(6, 6, text, "Omission")
    ((2, 3), (5, 5), (7, 7))
    """
    units = utf16_starts(text)
    token = {v: k for k, v in TOKEN_CATEGORY.items()}.get(category, category)
    if start == end and token in tokens:
        at = units[-1] + list(tokens).index(token)
        return at, at
    if not 0 <= start < end <= len(text):
        raise ValueError(
            f"span {start}-{end} ({category}) covers no character of the text and is none of the campaign's "
            f"special tokens ({', '.join(tokens) or 'none'}): Pearmut cannot show it"
        )
    return units[start], units[end] - 1


def from_pearmut(
    start_i: object, end_i: object, text: str, tokens: Sequence[str]
) -> tuple[int, int, str]:
    """Characters ``(start, end)`` of *text* (end exclusive) and the category (``Error``, or a special
    token's) of a span Pearmut recorded as ``start_i``-``end_i``; :class:`ValueError` when it is outside."""
    units = utf16_starts(text)
    length = units[-1]
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in (start_i, end_i)):
        raise ValueError(f"span offsets {start_i!r}-{end_i!r} are not whole numbers")
    assert isinstance(start_i, int) and isinstance(end_i, int)
    if start_i >= length and start_i == end_i and start_i - length < len(tokens):
        token = tokens[start_i - length]
        return len(text), len(text), TOKEN_CATEGORY.get(token, token)
    if not 0 <= start_i <= end_i or start_i >= length:
        raise ValueError(
            f"span {start_i}-{end_i} lies outside the translation, whose UTF-16 units are 0-{length - 1}"
            f" (special tokens from {length}: {', '.join(tokens) or 'none'})"
        )
    end_i = min(
        end_i, length - 1
    )  # a span running into a special token keeps the text's characters
    first = next(o for o in range(len(text)) if units[o + 1] > start_i)
    last = next(o for o in range(first, len(text)) if units[o + 1] > end_i)
    return first, last + 1, "Error"


def split_item_id(item_id: str) -> tuple[str | None, str | None, int | None]:
    """``(domain, document, paragraph)`` of a WMT item id ``PAIR_#_DOMAIN_#_DOC_#_INDEX`` (``None`` for
    what an id of another shape does not say).

    >>> split_item_id("cs-de_DE_#_dialogue_#_SNG0991_#_3"), split_item_id("en-ja_#_1")
    (('dialogue', 'dialogue_#_SNG0991', 3), (None, None, None))
    """
    parts = item_id.split("_#_")
    if len(parts) == 4 and parts[3].isdigit():
        return parts[1], f"{parts[1]}_#_{parts[2]}", int(parts[3])
    return None, None, None


@dataclass(frozen=True)
class JudgeChecks:
    """One judge's Pearmut checks: answered, passed, failed (by the campaign's threshold) and kept; left out
    (``excluded``) when failed and not kept, the rule of :class:`bleu_core.campaigns.quality.JudgeChecks`
    (the study layer cannot import the campaigns package)."""

    judge: str
    n_answered: int
    n_passed: int
    failed: bool
    kept: bool
    campaign: str = ""

    @property
    def excluded(self) -> bool:
        """True when the judge's ratings are left out of the analyses."""
        return self.failed and not self.kept


@dataclass(frozen=True)
class PearmutAnswer:
    """One system's answer to one segment of one log entry: ``scores`` by criterion, ``spans`` in characters
    of ``tgt`` (``rater`` = ``user``, ``segment_id`` = ``item_id``), ``kind`` test, tutorial or attention."""

    user: str
    item_i: int | str
    index: int
    item_id: str
    document: str | None
    paragraph: int
    domain: str | None
    system: str
    src: str | None
    ref: str | None
    tgt: str
    scores: dict[str, float]
    spans: tuple[ErrorSpan, ...]
    kind: str
    where: str
    campaign: str = ""


@dataclass(frozen=True)
class PearmutAnnotations:
    """What :func:`read_pearmut` found. ``answers`` are the test ratings kept (reset, resubmissions, failed
    judges and quality-control items applied); ``checks`` the tutorial and attention answers; ``quality``
    each judge who answered a check; ``replaced`` the ratings a later submission replaced, ``voided`` the
    ratings a reset voided; ``problems`` one warning per bad entry; ``set_aside`` the test ratings of the
    judges left out."""

    file: str
    answers: tuple[PearmutAnswer, ...]
    checks: tuple[PearmutAnswer, ...] = ()
    quality: tuple[JudgeChecks, ...] = ()
    replaced: int = 0
    voided: int = 0
    problems: tuple[LoadWarning, ...] = ()
    left_out: dict[str, int] = field(default_factory=dict)
    set_aside: tuple[PearmutAnswer, ...] = ()

    @property
    def ratings(self) -> tuple[Rating, ...]:
        """The kept answers as study ratings (rater = annotator, segment = ``item_id``), as the ESA reader
        gives them."""
        return tuple(Rating(a.system, a.item_id, a.user, None, c, v) for a in self.answers for c, v in a.scores.items())  # fmt: skip

    @property
    def spans(self) -> tuple[ErrorSpan, ...]:
        """The kept answers' error spans (characters of ``tgt``, end exclusive)."""
        return tuple(s for a in self.answers for s in a.spans)

    @property
    def excluded(self) -> tuple[str, ...]:
        """The judges whose ratings are left out (failed their checks and not kept)."""
        return tuple(q.judge for q in self.quality if q.excluded)

    def warnings(self) -> list[LoadWarning]:
        """The bad entries, then one summary of what was replaced, voided and left out."""
        parts = []
        if self.voided:
            parts.append(f"{self.voided} rating(s) voided by a __RESET__ line")
        if self.replaced:
            parts.append(
                f"{self.replaced} rating(s) replaced by a later submission of the same item"
            )
        if self.left_out:
            kinds = ", ".join(f"{n} {k}" for k, n in self.left_out.items())
            parts.append(f"quality-control answers kept apart ({kinds})")
        for q in self.quality:
            if q.failed:
                state = (
                    "kept as asked"
                    if q.kept
                    else "left out (to keep them: --keep-judge USER, or keep=)"
                )
                parts.append(f"judge {q.judge!r} failed {q.n_answered - q.n_passed} of "
                             f"{q.n_answered} checks: {state}")  # fmt: skip
        summary = [LoadWarning("pearmut", f"Pearmut: kept {len(self.answers)} ratings; " + "; ".join(parts), file=self.file)] if parts else []  # fmt: skip
        return list(self.problems) + summary


def _problem(where: str, message: str) -> LoadWarning:
    return LoadWarning("pearmut-bad-entry", f"{where}: {message}; this entry is not read")


_Entry = tuple[
    str, str, dict[str, Any]
]  # where, campaign (the download's id, else the file), entry


def log_entries(text: str, file: str) -> tuple[list[_Entry], list[LoadWarning]]:
    """The entries of a Pearmut file (the JSONL log, ``{campaign_id: [entries]}`` or a JSON list), each
    with where it is (``file, line N`` or ``file, campaign C, entry N``) and its campaign (the download's
    id, else the file: resets and resubmissions count within one campaign), and a warning per bad line."""
    stripped = text.lstrip()
    whole: Any = None
    if stripped[:1] in ("[", "{"):
        try:
            whole = json.loads(text)
        except (json.JSONDecodeError, RecursionError):
            whole = None  # JSON lines, or a damaged file: read line by line
    if isinstance(whole, list):
        return [
            (f"{file}, entry {k}", file, e) for k, e in enumerate(whole, 1) if isinstance(e, dict)
        ], [
            _problem(f"{file}, entry {k}", "not a JSON object")
            for k, e in enumerate(whole, 1)
            if not isinstance(e, dict)
        ]
    if (
        isinstance(whole, dict)
        and "user_id" not in whole
        and all(isinstance(v, list) for v in whole.values())
    ):
        out: list[_Entry] = []
        bad: list[LoadWarning] = []
        for cid, listed in whole.items():
            for k, e in enumerate(listed, 1):
                where = f"{file}, campaign {cid}, entry {k}"
                (out.append((where, str(cid), e)) if isinstance(e, dict) else bad.append(_problem(where, "not a JSON object")))  # fmt: skip
        return out, bad
    entries: list[_Entry] = []
    problems: list[LoadWarning] = []
    for number, line in enumerate(split_lines(text), start=1):
        if not line.strip():
            continue
        where = f"{file}, line {number}"
        try:
            record = json_cell(line, file=None, line=None, expected="one Pearmut log entry")
        except InputError as exc:
            problems.append(_problem(where, exc.message))
            continue
        if isinstance(record, dict):
            entries.append((where, file, record))
        else:
            problems.append(_problem(where, "not a JSON object"))
    return entries, problems


def _item_id(seg: Mapping[str, Any], user: str, item_i: object, k: int) -> str:
    """The segment's ``item_id``; without one, its source text names it (``src:`` and 12 hex digits of its
    SHA-256), the same for every annotator; without either, the annotator's page (``user:item_i#k``)."""
    if seg.get("item_id") is not None:
        return str(seg["item_id"])
    if isinstance(seg.get("src"), str):
        return "src:" + hashlib.sha256(seg["src"].encode("utf-8")).hexdigest()[:12]
    return f"{user}:{item_i}#{k}"


def _kind(item_i: object) -> str:
    if isinstance(item_i, str) and "_" in item_i:
        return _KINDS.get(item_i.split("_", 1)[0], "test")
    return "test"


def _scores(answer: Mapping[str, Any], criterion: str) -> dict[str, float]:
    scores: dict[str, float] = {}
    sliders = answer.get("sliders")
    for name, value in [(criterion, answer.get("score"))] + list(
        (sliders or {}).items() if isinstance(sliders, dict) else []
    ):
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ValueError(f"score {value!r} is not a number")
        scores[str(name)] = float(value)
    return scores


def _spans(answer: Mapping[str, Any], key: tuple[str, str, str], text: str, tokens: Sequence[str]) -> tuple[ErrorSpan, ...]:  # fmt: skip
    user, system, item_id = key
    raw = answer.get("error_spans") or []
    if not isinstance(raw, list):
        raise ValueError("error_spans is not a list")
    out = []
    for span in raw:
        if not isinstance(span, dict) or not {"start_i", "end_i"} <= span.keys():
            raise ValueError("an error span needs start_i and end_i")
        severity = str(span.get("severity") or "").strip()
        if not severity:
            raise ValueError(f"error span {span['start_i']}-{span['end_i']} has no severity")
        start, end, category = from_pearmut(span["start_i"], span["end_i"], text, tokens)
        if category == "Error" and span.get("category"):
            category = str(span["category"])  # MQM's "Accuracy/Mistranslation"
        severity = severity[:1].upper() + severity[1:]
        out.append(ErrorSpan(system, item_id, user, "target", start, end, category, severity))
    return tuple(out)


def _answers(record: Mapping[str, Any], where: str, tokens: Sequence[str], criterion: str) -> tuple[list[PearmutAnswer], list[LoadWarning]]:  # fmt: skip
    """Every (segment, system) answer of one entry; a bad answer is a warning and is dropped alone."""
    missing = [k for k in ("user_id", "item_i", "item", "annotation") if k not in record]
    if missing:
        return [], [_problem(where, f"missing {', '.join(repr(k) for k in missing)}")]
    shown, given = record["item"], record["annotation"]
    if not isinstance(shown, list) or not isinstance(given, list) or len(shown) != len(given):
        return [], [_problem(where, "'item' and 'annotation' must be lists of the same length")]
    user, item_i, kind = str(record["user_id"]), record["item_i"], _kind(record["item_i"])
    out, problems = [], []
    for k, (seg, answers) in enumerate(zip(shown, given, strict=True)):
        if not isinstance(seg, dict) or "tgt" not in seg or not isinstance(answers, dict):
            continue  # a form question (``text`` + ``form``) or a skipped segment: no rating
        item_id = _item_id(seg, user, item_i, k)
        domain, document, paragraph = split_item_id(item_id)
        document = document or (str(seg["doc_id"]) if seg.get("doc_id") is not None else None)
        for system, answer in answers.items():
            text = (seg.get("tgt") or {}).get(system) if isinstance(seg.get("tgt"), dict) else None
            try:
                if not isinstance(text, str) or not isinstance(answer, dict):
                    raise ValueError("the item has no translation of this system")
                scores = _scores(answer, criterion)
                spans = _spans(answer, (user, system, item_id), text, tokens)
            except ValueError as exc:
                problems.append(LoadWarning("pearmut-bad-entry", f"{where}: system {system!r} of segment {item_id!r}: {exc}; that rating is not read"))  # fmt: skip
                continue
            src, ref = seg.get("src"), seg.get("ref")
            out.append(PearmutAnswer(
                user, item_i, k, item_id, document, paragraph if paragraph is not None else k, domain,
                system, src if isinstance(src, str) else None, ref if isinstance(ref, str) else None,
                text, scores, spans, kind, where,
            ))  # fmt: skip
    return out, problems


def _after_resets(entries: Sequence[_Entry]) -> tuple[list[_Entry], int]:
    """The entries a ``__RESET__`` line did not void (within its campaign), and how many systems' answers
    were voided."""
    last_reset: dict[tuple[str, str], int] = {}
    for i, (_, cid, e) in enumerate(entries):
        if e.get("annotation") == RESET_MARKER:
            last_reset[(cid, str(e.get("user_id")))] = i
    kept, voided = [], 0
    for i, (where, cid, e) in enumerate(entries):
        if e.get("annotation") == RESET_MARKER:
            continue
        if i < last_reset.get((cid, str(e.get("user_id"))), -1):
            ann = e.get("annotation")
            voided += (
                sum(len(a) for a in ann if isinstance(a, dict)) if isinstance(ann, list) else 0
            )
            continue
        kept.append((where, cid, e))
    return kept, voided


def _threshold_failed(passed: int, answered: int, threshold: float | int) -> bool:
    """Pearmut's ``check_validation_threshold``, negated: did the judge fail?"""
    failed = answered - passed
    if answered == 0:
        return False
    if isinstance(threshold, float):
        return threshold >= 1 or failed / answered > threshold
    return failed > threshold


def _quality(entries: Iterable[_Entry], threshold: float | int, keep: Iterable[str]) -> tuple[JudgeChecks, ...]:  # fmt: skip
    """Each judge's checks in each campaign: the last ``validations`` of each tutorial and attention item."""
    latest: dict[tuple[str, str, str], list[bool]] = {}
    for _, cid, e in entries:
        checks = e.get("validations")
        if _kind(e.get("item_i")) in ("tutorial", "attention") and isinstance(checks, list):
            latest[(cid, str(e["user_id"]), str(e["item_i"]))] = [bool(v) for v in checks]
    kept = set(keep)
    totals: dict[tuple[str, str], list[int]] = {}
    for (cid, user, _), checks in latest.items():
        t = totals.setdefault((cid, user), [0, 0])
        t[0] += sum(checks)
        t[1] += len(checks)
    return tuple(
        JudgeChecks(
            user,
            answered,
            passed,
            _threshold_failed(passed, answered, threshold),
            user in kept,
            cid,
        )  # fmt: skip
        for (cid, user), (passed, answered) in totals.items()
    )


def read_pearmut(
    sources: Sequence[tuple[str, str]],
    *,
    special_tokens: Sequence[str] = WMT26_SPECIAL_TOKENS,
    criterion: str = "esa",
    validation_threshold: float | int = 0,
    keep: Iterable[str] = (),
) -> PearmutAnnotations:
    """The ratings of Pearmut files ``(name, text)`` (see the module docstring): resets applied, the last
    submission per (campaign, user, item, segment, system) kept, quality-control answers apart and judges
    who failed their checks (by *validation_threshold*, within a campaign) left out unless in *keep*. ``score`` goes under *criterion*,
    custom sliders under their names."""
    entries, problems = [], []
    for name, text in sources:
        got, bad = log_entries(text, name)
        entries.extend(got)
        problems.extend(bad)
    live, voided_answers = _after_resets(entries)
    latest: dict[tuple[str, str, str, int, str], PearmutAnswer] = {}
    replaced = 0
    for where, cid, record in live:
        answers, bad = _answers(record, where, special_tokens, criterion)
        problems.extend(bad)
        for a in answers:
            key = (cid, a.user, str(a.item_i), a.index, a.system)
            replaced += key in latest
            latest[key] = replace(a, campaign=cid)
    quality = _quality(live, validation_threshold, keep)
    out = [a for a in latest.values() if a.kind == "test" and a.scores]
    excluded = {(q.campaign, q.judge) for q in quality if q.excluded}
    checks = [a for a in latest.values() if a.kind in ("tutorial", "attention")]
    left_out: dict[str, int] = {}
    for a in latest.values():
        if a.kind != "test":
            left_out[a.kind] = left_out.get(a.kind, 0) + 1
    if len(problems) > MAX_LISTED:
        more = len(problems) - MAX_LISTED
        problems = problems[:MAX_LISTED] + [LoadWarning("pearmut-bad-entry", f"{more} more bad entries not listed")]  # fmt: skip
    return PearmutAnnotations(
        sources[0][0] if sources else "",
        tuple(a for a in out if (a.campaign, a.user) not in excluded),
        tuple(checks),
        quality,
        replaced,
        voided_answers,
        tuple(problems),
        left_out,
        tuple(a for a in out if (a.campaign, a.user) in excluded),
    )
