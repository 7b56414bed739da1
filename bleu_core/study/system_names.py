"""How a system is shown: a human translation by both of its names, ``HUMAN-B (ref-B)``.

A release names one human translation twice: its file is reference B (``ref-B`` here, the study's
name), and its human scores say ``HUMAN-B`` (WMT's DA and MQM tables). A reader who searches for
"HUMAN" must find it, and one who knows it as ref-B too, so every page, command and export labels a
human translation ``HUMAN-<letter> (<name>)`` (``HUMAN (<name>)`` when its name has no letter) and a
search matches either part. Machine systems keep their name.

>>> human = {"ref-B", "ref"}
>>> system_label("ref-B", human), system_label("ref", human), system_label("Online-B", human)
('HUMAN-B (ref-B)', 'HUMAN (ref)', 'Online-B')
>>> [s for s in ["Online-B", "ref-B", "Facebook-AI"] if matches_system("human", s, human)]
['ref-B']
>>> matches_system("REF-b", "ref-B", human), matches_system("online", "Online-B", human)
(True, True)
"""

from __future__ import annotations

from collections.abc import Collection

from .reference_choice import reference_letter


def system_label(name: str, human: Collection[str]) -> str:
    """``name`` as shown: ``HUMAN-B (ref-B)`` for a human translation, else ``name`` itself."""
    if name not in human:
        return name
    letter = reference_letter(name)
    return f"HUMAN-{letter} ({name})" if letter else f"HUMAN ({name})"


def matches_system(query: str, name: str, human: Collection[str]) -> bool:
    """Whether a case-insensitive search ``query`` finds system ``name`` (by its label or its name)."""
    needle = query.strip().lower()
    return needle in system_label(name, human).lower()
