"""What this browser remembers of class mode, in two cookies, so that a reload, a closed tab or a locked phone
loses nothing:

* :data:`LESSONS_COOKIE` — the teacher's lessons: ``CODE:organiser-key`` pairs, the latest first ("my lessons").
  The Campaigns and Projector pages reopen the latest one without a key being typed.
* :data:`JUDGE_COOKIE` — the student's resume codes (``CODE-<judge id>-<secret>``), the latest first. The Rate page
  signs the student back in, on the item they were on, with no code to type (anonymous students too).
* :data:`DRAFT_COOKIE` — the ESA marks (and the scores) of the screen that are not saved yet: one item under
  ESA, the two or three translations of a sentence under contrastive ESA (:func:`screen_draft_value`): a
  reload mid-screen shows them again. Saving or skipping the screen empties it.

The cookies are read from the request that opened the session (``st.context.cookies``) and written by a small
script in the page (``document.cookie``, ``SameSite=Strict``): they never appear in an address. A session
keeps what it remembers in ``st.session_state`` (:data:`ui.app.state.CAMP_LESSONS`,
:data:`ui.app.state.RATE_REMEMBERED`), since the cookies it reads are those of the request that opened it, and
:func:`sync_browser_memory` writes the changes to the cookies.
Values are checked against :data:`COOKIE_VALUE` before they go into the script.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import streamlit as st

from bleu_core.campaigns import MarkedSpan
from ui.app import state as K

LESSONS_COOKIE = "bs_lessons"
JUDGE_COOKIE = "bs_judge"
DRAFT_COOKIE = "bs_esa_draft"
#: The longest draft kept (a cookie holds ~4 kB with its name and attributes): about 250 marks over the
#: screen's translations. A longer draft is not kept (a reload shows the saved marks).
MAX_DRAFT_LENGTH = 3600
_DRAFT = re.compile(
    r"([A-Z0-9]{1,16}):(\d{1,6}):((?:\d{1,7}-\d{1,7}-[mM]|x-x-[mM])(?:_(?:\d{1,7}-\d{1,7}-[mM]|x-x-[mM]))*)?:(\d{0,3})"
)
#: How long a browser remembers: a term.
MAX_AGE_SECONDS = 120 * 24 * 3600
#: At most this many entries per cookie (the oldest are dropped).
MAX_REMEMBERED = 8
#: The characters a remembered value may hold (campaign codes, URL-safe keys and tokens, ``:`` and ``|``).
COOKIE_VALUE = re.compile(r"[A-Za-z0-9_:|-]*")
_ENTRY = re.compile(r"[A-Za-z0-9_:-]{1,120}")


def parse_entries(value: str | None) -> list[str]:
    """The entries of a cookie value, well-formed ones only, without repeats.

    >>> parse_entries("K7P2QX:abc|bad entry|K7P2QX:abc|HJ3:x_y-z")
    ['K7P2QX:abc', 'HJ3:x_y-z']
    >>> parse_entries(None)
    []
    """
    entries: list[str] = []
    for entry in (value or "").split("|"):
        if _ENTRY.fullmatch(entry) and entry not in entries:
            entries.append(entry)
    return entries[:MAX_REMEMBERED]


def with_entry(entries: list[str], entry: str) -> list[str]:
    """*entries* with *entry* first (moved there if it was already in).

    >>> with_entry(["a:1", "b:2"], "b:2")
    ['b:2', 'a:1']
    """
    return [entry, *(e for e in entries if e != entry)][:MAX_REMEMBERED]


def lesson_entry(code: str, key: str) -> str:
    """One lesson as remembered: ``CODE:key``.

    >>> lesson_entry("K7P2QX", "s3cret-_")
    'K7P2QX:s3cret-_'
    """
    return f"{code}:{key}"


def split_lesson(entry: str) -> tuple[str, str]:
    """``(code, key)`` of a remembered lesson.

    >>> split_lesson("K7P2QX:s3:cret")
    ('K7P2QX', 's3:cret')
    """
    code, _, key = entry.partition(":")
    return code, key


def read_cookie(name: str) -> str:
    """The value of cookie *name* in the request that opened this session ('' when there is none)."""
    try:
        cookies = st.context.cookies
        value = cookies.get(name) if cookies is not None else None
    except Exception:  # noqa: BLE001 - no request (a bare script run): nothing remembered
        return ""
    return value if isinstance(value, str) else ""


def cookie_script(name: str, value: str, max_age: int = MAX_AGE_SECONDS) -> str:
    """The script that stores *value* in cookie *name* (an empty value deletes it).

    >>> 'document.cookie = "bs_judge=K7-1-x; path=/; max-age=60; SameSite=Strict"' in cookie_script(
    ...     "bs_judge", "K7-1-x", 60)
    True
    >>> cookie_script("bs_judge", "a;b")
    Traceback (most recent call last):
    ...
    ValueError: a cookie value may hold only letters, digits and _ : | -, not 'a;b'
    """
    if not COOKIE_VALUE.fullmatch(value) or not re.fullmatch(r"[a-z_]+", name):
        raise ValueError(f"a cookie value may hold only letters, digits and _ : | -, not {value!r}")
    age = max_age if value else 0
    cookie = json.dumps(f"{name}={value}; path=/; max-age={age}; SameSite=Strict")
    return f"<script>document.cookie = {cookie};</script>"


def write_cookie(name: str, entries: list[str]) -> None:
    """Store *entries* in cookie *name* of this browser (none: the cookie is deleted)."""
    st.html(cookie_script(name, "|".join(entries)), unsafe_allow_javascript=True)


def _remembered(state_key: str, cookie: str) -> list[str]:
    state = st.session_state
    if state.get(state_key) is None:
        state[state_key] = parse_entries(read_cookie(cookie))
    return list(state[state_key])


def _store(state_key: str, cookie: str, entries: list[str]) -> None:
    st.session_state[state_key] = entries


#: Runs in which a changed cookie is written (a write lost to an ``st.rerun()`` is made on the next run); after
#: them the script, which holds the value (organiser keys too), is no longer on the page.
WRITE_RUNS = 3


def sync_browser_memory(*, lessons: bool = True) -> None:
    """Write to the cookies what this session remembers differently from them (each page calls it first).

    A changed value is written in the next :data:`WRITE_RUNS` runs, so that a write lost to an ``st.rerun()``
    is made again, and then no more: the cookie script would otherwise stay on every page of the session, the
    organiser keys of the lessons cookie in it. The projector passes ``lessons=False``: a page meant for the
    room never carries a key, not even in a script (the Campaigns page writes the teacher's lessons).
    """
    state = st.session_state
    pending: dict[str, tuple[str | None, int]] = state.setdefault(K.COOKIE_WRITES, {})
    pairs = [(K.RATE_REMEMBERED, JUDGE_COOKIE)] + (
        [(K.CAMP_LESSONS, LESSONS_COOKIE)] if lessons else []
    )
    for state_key, cookie in pairs:
        entries = state.get(state_key)
        if entries is None or entries == parse_entries(read_cookie(cookie)):
            pending.pop(cookie, None)
            continue
        value = "|".join(entries)
        last, left = pending.get(cookie, (None, 0))
        if last != value:
            left = WRITE_RUNS
        if left > 0:
            write_cookie(cookie, entries)
            pending[cookie] = (value, left - 1)
    _write_draft()


def my_lessons() -> list[tuple[str, str]]:
    """The lessons this browser remembers, ``(code, organiser key)``, the latest first."""
    return [split_lesson(e) for e in _remembered(K.CAMP_LESSONS, LESSONS_COOKIE)]


def remember_lesson(code: str, key: str) -> None:
    """Put lesson *code* first in this browser's "my lessons"."""
    entries = _remembered(K.CAMP_LESSONS, LESSONS_COOKIE)
    _store(K.CAMP_LESSONS, LESSONS_COOKIE, with_entry(entries, lesson_entry(code, key)))


def forget_lesson(code: str) -> None:
    """Take lesson *code* out of this browser's "my lessons" (deleted, or its key no longer works)."""
    entries = _remembered(K.CAMP_LESSONS, LESSONS_COOKIE)
    kept = [e for e in entries if split_lesson(e)[0] != code]
    if kept != entries:
        _store(K.CAMP_LESSONS, LESSONS_COOKIE, kept)


def remembered_key(code: str) -> str | None:
    """The organiser key this browser remembers for lesson *code*, if any."""
    return next((key for c, key in my_lessons() if c == code), None)


def remembered_judges() -> list[str]:
    """The resume codes this browser remembers, the latest first."""
    return _remembered(K.RATE_REMEMBERED, JUDGE_COOKIE)


def remember_judge(resume_code: str) -> None:
    """Put *resume_code* first among this browser's judges (a student's way back after a reload)."""
    entries = remembered_judges()
    code = resume_code.partition("-")[0]
    entries = [e for e in entries if e.partition("-")[0] != code]  # one judge per campaign
    _store(K.RATE_REMEMBERED, JUDGE_COOKIE, with_entry(entries, resume_code))


def forget_judge(campaign_code: str) -> None:
    """Forget this browser's judge of *campaign_code* (signed out, or the code no longer works)."""
    entries = remembered_judges()
    kept = [e for e in entries if e.partition("-")[0] != campaign_code]
    if kept != entries:
        _store(K.RATE_REMEMBERED, JUDGE_COOKIE, kept)


def judge_for(campaign_code: str | None) -> str | None:
    """The remembered resume code for *campaign_code* (any campaign: the latest), or None."""
    for entry in remembered_judges():
        if campaign_code is None or entry.partition("-")[0] == campaign_code.strip().upper():
            return entry
    return None


@dataclass(frozen=True)
class Draft:
    """An item's unsaved ESA marks and score (None: not given yet), as this browser keeps them."""

    code: str
    position: int
    marks: tuple[MarkedSpan, ...]
    score: int | None


def draft_value(code: str, position: int, marks: Sequence[MarkedSpan], score: int | None) -> str:
    """One item's draft: ``CODE:POSITION:MARKS:SCORE``, a mark ``start-end-s`` (``m`` minor, ``M``
    major; ``x-x-s`` for ``[missing]``), marks joined by ``_``, the score empty when not given.

    >>> draft_value("K7P2QX", 3, [MarkedSpan(0, 8, "major"), MarkedSpan(None, None, "minor", True)], 70)
    'K7P2QX:3:0-8-M_x-x-m:70'
    >>> parse_draft(draft_value("K7P2QX", 0, [], None))
    Draft(code='K7P2QX', position=0, marks=(), score=None)
    """
    parts = [
        ("x-x" if m.missing else f"{m.start}-{m.end}") + ("-M" if m.severity == "major" else "-m")
        for m in marks
    ]
    return f"{code}:{position}:{'_'.join(parts)}:{'' if score is None else int(score)}"


#: One item of a screen as :func:`remember_draft` takes it: ``(marks, score)`` (None: no score given).
DraftItem = tuple[Sequence[MarkedSpan], int | None]


def screen_draft_value(code: str, items: Mapping[int, DraftItem]) -> str:
    """The draft cookie's value for a screen: the drafts (:func:`draft_value`) of its items that hold a mark
    or a score, by position, joined by ``|``; '' when none does, or when the value would be longer than
    :data:`MAX_DRAFT_LENGTH` (not kept).

    >>> screen_draft_value("K7", {4: ([], 90), 3: ([MarkedSpan(0, 2, "minor")], None), 5: ([], None)})
    'K7:3:0-2-m:|K7:4::90'
    """
    value = "|".join(
        draft_value(code, position, marks, score)
        for position, (marks, score) in sorted(items.items())
        if marks or score is not None
    )
    return value if len(value) <= MAX_DRAFT_LENGTH else ""


def parse_draft(value: str | None) -> Draft | None:
    """The draft of one item a cookie entry holds, or None when it holds none (or is malformed).

    >>> parse_draft("K7P2QX:3:0-8-M_x-x-m:70").marks[1]
    MarkedSpan(start=None, end=None, severity='minor', missing=True)
    >>> parse_draft("K7:1:<script>:") is None
    True
    """
    match = _DRAFT.fullmatch(value or "")
    if match is None:
        return None
    code, position, marks, score = match.groups()
    spans = []
    for part in (marks or "").split("_") if marks else []:
        start, end, sev = part.split("-")
        severity = "major" if sev == "M" else "minor"
        if start == "x":
            spans.append(MarkedSpan(None, None, severity, True))
        else:
            spans.append(MarkedSpan(int(start), int(end), severity))
    return Draft(code, int(position), tuple(spans), int(score) if score else None)


def parse_screen_draft(value: str | None) -> dict[int, Draft]:
    """The drafts of a screen's items a cookie value holds, by position; empty when it holds none, or when
    any entry is malformed or of another campaign than the first (the whole value is then ignored).

    >>> sorted(parse_screen_draft("K7:3:0-2-m:|K7:4::90"))
    [3, 4]
    >>> parse_screen_draft("K7:3:0-2-m:|Q9:4::90"), parse_screen_draft("K7:3::|<b>")
    ({}, {})
    """
    entries = (value or "").split("|") if value else []
    drafts = [d for d in map(parse_draft, entries) if d is not None]
    if not drafts or len(drafts) != len(entries) or any(d.code != drafts[0].code for d in drafts):
        return {}
    return {d.position: d for d in drafts}


def remembered_drafts() -> dict[int, Draft]:
    """This browser's unsaved draft of the screen, by position (read from its cookie on first use)."""
    state = st.session_state
    if state.get(K.RATE_DRAFT) is None:
        cookie = read_cookie(DRAFT_COOKIE)
        state[K.RATE_DRAFT] = cookie if parse_screen_draft(cookie) else ""
    return parse_screen_draft(state[K.RATE_DRAFT])


def draft_for(code: str, position: int) -> Draft | None:
    """This browser's unsaved draft of item *position* of campaign *code*, if it keeps one."""
    draft = remembered_drafts().get(position)
    return draft if draft is not None and draft.code == code else None


def remember_draft(code: str, items: Mapping[int, DraftItem]) -> None:
    """Keep the unsaved marks and scores of the screen's *items* (``{position: (marks, score)}``: one item
    under ESA, the screen's translations under contrastive ESA) in this browser, written to the cookie in
    this run (a reload right after a mark keeps it); items with no mark and no score are not kept."""
    remembered_drafts()
    st.session_state[K.RATE_DRAFT] = screen_draft_value(code, items)
    _write_draft()


def forget_draft() -> None:
    """The screen was saved or skipped: its draft goes (the cookie is emptied on the next run, as a save is
    followed by ``st.rerun()``, which would lose a script written now)."""
    st.session_state[K.RATE_DRAFT] = ""


def _write_draft() -> None:
    """Write this session's draft to the cookie when it differs from the value last written (at first:
    the cookie as the session found it)."""
    state = st.session_state
    draft = state.get(K.RATE_DRAFT)
    writes: dict[str, tuple[str | None, int]] = state.setdefault(K.COOKIE_WRITES, {})
    last = writes[DRAFT_COOKIE][0] if DRAFT_COOKIE in writes else read_cookie(DRAFT_COOKIE)
    if draft is not None and draft != last:
        write_cookie(DRAFT_COOKIE, [draft] if draft else [])
        writes[DRAFT_COOKIE] = (draft, 0)
