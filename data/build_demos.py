"""Rebuild the bundled demo studies in this folder from the shared source material.

Usage (from the repository root)::

    .venv/bin/python data/build_demos.py /work/shared

* ``ted-en-de.study.json.gz`` / ``ted-zh-en.study.json.gz`` are converted from Google's MQM TSVs
  (``data/google-mqm-ted2021/ted/<lp>/mqm_ted_<lp>.tsv``, Apache-2.0) with
  :func:`bleu_core.study.formats.mqm.load_mqm_tsv`: en-de with ``ref`` as reference; zh-en with ``refB`` as reference
  and ``ref`` kept as a human system. The raters' error spans (``<v>…</v>`` in the TSV) are kept as
  ``study.error_spans`` (character offsets, category, severity, rater; :mod:`bleu_core.study.spans`), about
  20 kB per file.
* ``paper-examples.study.json.gz`` holds the worked examples 1-4 of the BLEU paper, parsed from
  ``seeds/000_*.txt`` (Papineni et al. 2002, section 2).

The test ``tests/study/test_study_demo.py`` rebuilds each study from the shared data and checks it equals the
bundled file.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from bleu_core.study.formats.mqm import load_mqm_tsv
from bleu_core.study.model import Segment, Study
from bleu_core.study.storage import save_study
from bleu_core.study.validation import validate_study

HERE = (
    Path(__file__).resolve().parents[1] / "bleu_core" / "demos"
)  # the package data the demos ship as

#: (demo name, language-pair folder, reference translation, study name)
TED = (
    ("ted-en-de", "ende", "ref", "WMT21 TED talks en-de (MQM)"),
    ("ted-zh-en", "zhen", "refB", "WMT21 TED talks zh-en (MQM)"),
)


def ted_study(shared: Path, lp: str, reference: str, name: str) -> Study:
    """Convert one TED MQM TSV to a study."""
    path = shared / "data" / "google-mqm-ted2021" / "ted" / lp / f"mqm_ted_{lp}.tsv"
    result = load_mqm_tsv(
        path.read_text(encoding="utf-8"), path.name, name=name, reference=reference
    )
    study = result.study
    study.metadata.update(
        {
            "source": "https://github.com/google/wmt-mqm-human-evaluation "
            "(commit 7fadea281aff8db61cc72fc3d469a4dca78b82a6), ted/" + f"{lp}/mqm_ted_{lp}.tsv",
            "licence": "Apache-2.0",
        }
    )
    return study


_EXAMPLE = re.compile(r"^Example (\d)\b", re.MULTILINE)
_LINE = re.compile(r"(Candidate(?: \d)?|Reference \d): (.*?)\s*\|")


def paper_examples_study(shared: Path) -> Study:
    """Examples 1-4 of the BLEU paper: one segment per example, references as streams, candidates as systems."""
    (seed,) = sorted((shared / "seeds").glob("000_*.txt"))
    text = seed.read_text(encoding="utf-8")
    starts = [(int(m.group(1)), m.start()) for m in _EXAMPLE.finditer(text)]
    examples: dict[int, dict[str, str]] = {}
    for (number, start), (_, end) in zip(starts, starts[1:] + [(0, len(text))], strict=True):
        block = text[start:end]
        if number == 4:  # the block ends with the paper's comment on the example
            block = block.split("The first candidate", 1)[0]
        found = {label: sentence for label, sentence in _LINE.findall(block)}
        examples[number] = found
    # Example 3 uses the references of example 1 (the paper repeats them verbatim).
    assert sorted(examples) == [1, 2, 3, 4], sorted(examples)
    segments = tuple(Segment(f"example-{n}", "BLEU paper section 2", None) for n in (1, 2, 3, 4))
    references: dict[str, list[str | None]] = {}
    systems: dict[str, list[str | None]] = {"candidate-1": [], "candidate-2": []}
    for k in (1, 2, 3):
        references[f"reference-{k}"] = [examples[n].get(f"Reference {k}") for n in (1, 2, 3, 4)]
    for n in (1, 2, 3, 4):
        found = examples[n]
        systems["candidate-1"].append(found.get("Candidate 1") or found.get("Candidate"))
        systems["candidate-2"].append(found.get("Candidate 2"))
    study = Study(
        name="BLEU paper examples 1-4",
        segments=segments,
        references=references,
        systems=systems,
        source_lang="zh",
        target_lang="en",
        metadata={
            "source": "Papineni, Roukos, Ward, Zhu (2002), BLEU: a Method for Automatic Evaluation of "
            "Machine Translation, ACL, section 2, examples 1-4",
            "notes": {
                "example-1": "Candidate 1 (good) shares many n-grams with the references; Candidate 2 "
                "(bad) few. Modified unigram precision 17/18 vs 8/14 (paper).",
                "example-2": "Over-generation: 'the' x7; modified unigram precision 2/7 although "
                "standard precision is 7/7 (paper).",
                "example-3": "A too-short candidate: modified unigram precision 2/2, bigram 1/1 "
                "(paper) — why BLEU needs the brevity penalty.",
                "example-4": "Candidate 1 recalls more reference words but is worse: why BLEU uses "
                "no recall.",
            },
        },
    )
    validate_study(study)
    return study


def build(shared: Path, out: Path = HERE) -> dict[str, Study]:
    """Build every demo study into ``out``; returns them by demo name."""
    studies = {name: ted_study(shared, lp, ref, title) for name, lp, ref, title in TED}
    studies["paper-examples"] = paper_examples_study(shared)
    for name, study in studies.items():
        save_study(study, out / f"{name}.study.json.gz")
    return studies


if __name__ == "__main__":
    shared_dir = Path(sys.argv[1] if len(sys.argv) > 1 else "/work/shared")
    for demo_name, built in build(shared_dir).items():
        size = (HERE / f"{demo_name}.study.json.gz").stat().st_size
        print(
            f"{demo_name}: {built.n_segments} segments, {len(built.systems)} systems, {size} bytes"
        )
