"""The study formats read the same study alike: one study written as a plain-text folder, a zip of it and a
long table loads to the same segments, texts and ratings (``bleu_core.study.formats``, all reading through
``bleu_core.io``)."""

from __future__ import annotations

import csv
import io
import zipfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bleu_core.study import load_study

# Texts as files hold them: no line breaks, not blank; quotes, commas, tabs and non-ASCII included
WORD = st.text(
    st.characters(codec="utf-8", categories=("L", "N", "P", "Zs")), min_size=1, max_size=6
)
TEXT = st.lists(WORD, min_size=1, max_size=4).map(" ".join).filter(lambda t: t.strip() == t and t)


@st.composite
def studies(draw: st.DrawFn) -> dict:
    n = draw(st.integers(1, 4))
    systems = draw(
        st.lists(st.sampled_from(["A", "B", "sys-3"]), min_size=1, max_size=3, unique=True)
    )
    return {
        "ref": [draw(TEXT) for _ in range(n)],
        "systems": {s: [draw(TEXT) for _ in range(n)] for s in systems},
        "scores": {
            (s, i): draw(st.integers(1, 5))
            for s in systems
            for i in range(1, n + 1)
            if draw(st.booleans())
        },
    }


def plain_files(study: dict) -> dict[str, bytes]:
    files = {"references/ref.txt": "".join(t + "\r\n" for t in study["ref"]).encode()}
    for name, texts in study["systems"].items():
        files[f"systems/{name}.txt"] = "".join(t + "\n" for t in texts).encode()
    if study["scores"]:
        rows = "".join(f"{s},{i},adequacy,{v}\n" for (s, i), v in study["scores"].items())
        files["ratings.csv"] = ("system,segment_id,criterion,score\n" + rows).encode()
    return files


def long_table(study: dict) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["segment_id", "system", "role", "text", "criterion", "score"])
    for i, text in enumerate(study["ref"], start=1):
        writer.writerow([i, "ref", "reference", text, "", ""])
    for name, texts in study["systems"].items():
        for i, text in enumerate(texts, start=1):
            score = study["scores"].get((name, i))
            writer.writerow([i, name, "system", text, "adequacy" if score else "", score or ""])
    return ("\ufeff" + out.getvalue()).encode()


def essentials(path: Path) -> tuple:
    study = load_study(path, detect=False).study
    return (
        [s.id for s in study.segments],
        study.references,
        study.systems,
        sorted((r.system, r.segment_id, r.criterion, r.score) for r in study.ratings),
    )


@settings(
    max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(study=studies())
def test_folder_zip_and_long_table_give_the_same_study(
    study: dict, tmp_path_factory: pytest.TempPathFactory
) -> None:
    root = tmp_path_factory.mktemp("formats")
    for name, data in plain_files(study).items():
        (root / "s" / name).parent.mkdir(parents=True, exist_ok=True)
        (root / "s" / name).write_bytes(data)
    with zipfile.ZipFile(root / "s.zip", "w") as archive:
        for name, data in plain_files(study).items():
            archive.writestr(f"s/{name}", data)
    (root / "s.csv").write_bytes(long_table(study))
    folder = essentials(root / "s")
    assert folder[1] == {"ref": study["ref"]} and folder[2] == study["systems"]
    assert len(folder[3]) == len(study["scores"])
    assert essentials(root / "s.zip") == folder
    assert essentials(root / "s.csv") == folder
