"""A small generated release in the WMT22 style, zipped in memory, for the app's tests.

de-en has references B and C; its DA file names the human translations ``HUMAN-B`` (with a submission id,
``HUMAN-B.12``) and ``HUMAN-C``; system ``sys1`` starts with a UTF-8 byte-order mark. ``pairs=("de-en",
"cs-en")`` adds a cs-en pair with one reference (a release of several pairs). Every text is made up here.
"""

from __future__ import annotations

import io
import zipfile

SOURCE = ["Der Hund bellt laut .", "Die Katze schläft im Haus .", "Ein Vogel singt am Morgen ."]
REF_B = ["The dog barks loudly .", "The cat sleeps in the house .", "A bird sings in the morning ."]
REF_C = ["The dog is barking .", "The cat is sleeping at home .", "A bird sings every morning ."]
SYSTEMS = {
    "sys1": ["The dog barks loudly .", "A cat sleeps in the house .", "A bird sings ."],
    "sys2": ["Dog bark loud .", "The cat is sleeping at home .", "Bird sing morning ."],
    "sys3": ["The dog is barking loudly .", "Cat sleeps in house .", "A bird is singing ."],
}
DA = {"sys1": 60, "sys2": 40, "sys3": 50, "HUMAN-B.12": 90, "HUMAN-C": 80}
"""Raw DA of each name in the DA file: the base plus the segment number (1-3)."""


def text(lines: list[str], *, bom: bool = False) -> bytes:
    return (b"\xef\xbb\xbf" if bom else b"") + ("\n".join(lines) + "\n").encode("utf-8")


def release_files(pairs: tuple[str, ...] = ("de-en",)) -> dict[str, bytes]:
    """The release's files by path (``txt/...``, ``humaneval/...``)."""
    files: dict[str, bytes] = {}
    for pair in pairs:
        src, tgt = pair.split("-")
        test = "generaltest2022"
        files[f"txt/sources/{test}.{pair}.src.{src}"] = text(SOURCE)
        files[f"txt/references/{test}.{pair}.ref.B.{tgt}"] = text(REF_B)
        if pair == "de-en":
            files[f"txt/references/{test}.{pair}.ref.C.{tgt}"] = text(REF_C)
        for name, lines in SYSTEMS.items():
            files[f"txt/system-outputs/{test}.{pair}.hyp.{name}.{tgt}"] = text(
                lines, bom=name == "sys1"
            )
        rows = ["SYS SID RAW.SCR Z.SCR N"]
        for seg in (1, 2, 3):
            rows += [f"{name} {seg} {base + seg} 0.0 1" for name, base in DA.items()]
        if pair != "de-en":
            rows = [r for r in rows if "HUMAN-C" not in r]
        files[f"humaneval/{test}-to{tgt}/ad-seg-scores-{pair}.csv"] = text(rows)
    return files


def release_zip(pairs: tuple[str, ...] = ("de-en",)) -> bytes:
    """:func:`release_files` as the bytes of a zip (what a user uploads)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for path, data in release_files(pairs).items():
            archive.writestr(path, data)
    return buffer.getvalue()
