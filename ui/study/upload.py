"""The Study page's upload form: which uploaded files say their role by name, and the roles the user gives.

Several files uploaded together are a WMT release when one of them is a WMT source file
(``<testset>.<xx-yy>.src.<xx>``); otherwise they are a plain-text study, each file's role read from its name
(:func:`bleu_core.study.file_roles.recognise_files`) or chosen in the form (a select box per file whose name
says nothing). A single file (a table, a saved study, a zip) needs no roles.

>>> plan = upload_plan(["newstest2021.de-en.ref.A.en", "google.txt", "ratings.csv"])
>>> plan.needs_roles, plan.unrecognised
(True, ('google.txt',))
>>> plan.recognised
(('newstest2021.de-en.ref.A.en', 'reference ref-A'), ('ratings.csv', 'ratings'))
>>> upload_plan(["x.de-en.src.de", "x.de-en.ref.A.en", "mine.txt"]).needs_roles   # a WMT release
False
>>> role_key(3, "google.txt")
'study_upload_role_3_google.txt'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bleu_core.study.file_roles import ROLES, recognise_files
from ui.app import state as K

NO_ROLE = ""
"""The select box's first entry: no role chosen yet."""

ROLE_LABELS = {
    NO_ROLE: "choose a role…",
    "reference": "reference translation",
    "system": "system output",
    "human": "human translation (scored as a system)",
    "source": "source text",
    "segments": "segment ids (segments.tsv)",
    "ratings": "human ratings table",
    "ignore": "leave out",
}
"""What each role of :data:`bleu_core.study.file_roles.ROLES` is called in the form."""

assert set(ROLE_LABELS) == {NO_ROLE, *ROLES}


@dataclass(frozen=True)
class UploadPlan:
    """Uploaded file names split by what their names say.

    Attributes:
        recognised: (file, what its name says) for files whose name gives the role.
        unrecognised: files that need a role from the user.
        needs_roles: several files that are not a WMT release (roles matter).
    """

    recognised: tuple[tuple[str, str], ...]
    unrecognised: tuple[str, ...]
    needs_roles: bool


def upload_plan(names: Sequence[str]) -> UploadPlan:
    """What the form should ask about the uploaded ``names`` (see the module docstring)."""
    found = recognise_files(list(names))
    release = any(role.role == "source" and role.pair for role in found.recognised.values())
    needs = len(names) > 1 and not release
    recognised = tuple(
        (name, f"{role.role} {role.name}" if role.name else role.role)
        for name, role in found.recognised.items()
    )
    # one select box a name: two files of one name (refused when loading) must not give two widget keys
    unrecognised = tuple(dict.fromkeys(found.unrecognised)) if needs else ()
    return UploadPlan(recognised, unrecognised, needs)


def role_key(nonce: int, name: str) -> str:
    """The session-state key of the role select box of file ``name`` (fresh for every upload)."""
    return f"{K.STUDY_UPLOAD_ROLE_PREFIX}{nonce}_{name}"


def chosen_roles(
    state: Mapping[str, Any], nonce: int, names: Sequence[str]
) -> tuple[tuple[str, str], ...]:
    """(file, role) for every file the user gave a role in the form.

    >>> chosen_roles({role_key(0, "a.txt"): "reference", role_key(0, "b.txt"): ""}, 0, ["a.txt", "b.txt"])
    (('a.txt', 'reference'),)
    """
    roles = []
    for name in names:
        role = state.get(role_key(nonce, name)) or NO_ROLE
        if role != NO_ROLE:
            roles.append((name, role))
    return tuple(roles)


def role_help(name: str) -> str:
    """A select box's help: what the name would have to look like for its role to be read from it."""
    return (
        f"The name {name!r} does not say what the file is. Names that do: "
        "<testset>.<xx-yy>.ref.<A>.<yy> or NAME.ref (a reference), <testset>.<xx-yy>.hyp.<SYSTEM>.<yy> "
        "or NAME.hyp (a system output), source.txt, segments.tsv, any other .csv/.tsv (ratings)."
    )
