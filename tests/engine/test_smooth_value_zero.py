"""A smoothing value of 0 for ``floor`` and ``add-k``, as sacrebleu accepts it (issue 31).

sacrebleu's ``BLEU(smooth_method="floor", smooth_value=0)`` leaves a zero n-gram count at 0 (the score of
``none``) and ``add-k`` with k = 0 adds nothing; ``BleuOptions`` accepts both and scores them as sacrebleu does,
corpus and sentence level, from Python and from ``bleu-study score --smooth-value 0``. A negative value, and 0
for a Chen & Cherry method (NLTK divides by method 4's k; method 1's epsilon 0 is no smoothing at all), are
still refused.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sacrebleu.metrics import BLEU

from bleu_core import BleuOptionError, BleuOptions, corpus_bleu, sentence_bleu
from bleu_core.cli import main

#: sacrebleu's README example (two references) and two short segments: most segments have no matching
#: 4-gram (or 3-gram), so floor 0 gives other numbers than floor's default 0.1.
HYPS = [
    "The dog bit the man.",
    "It wasn't surprising.",
    "The man had just bitten him.",
    "A cat.",
    "Nothing matches here at all",
]
REFS = [
    [
        "The dog bit the man.",
        "It was not unexpected.",
        "The man bit him first.",
        "A cat sat.",
        "Something else entirely",
    ],
    [
        "The dog had bit the man.",
        "No one was surprised.",
        "The man had bitten the dog.",
        "The cat.",
        "Other words",
    ],
]
#: The first three segments: every order is matched somewhere, so corpus BLEU is not 0 whatever the smoothing.
REFS_3 = [refs[:3] for refs in REFS]


@pytest.mark.parametrize("method", ["floor", "add-k"])
def test_corpus_bleu_with_value_zero_is_sacrebleus(method: str) -> None:
    theirs = BLEU(smooth_method=method, smooth_value=0)
    expected = theirs.corpus_score(HYPS[:3], REFS_3)
    ours = corpus_bleu(HYPS[:3], REFS_3, smooth=method, smooth_value=0)
    assert ours.score == pytest.approx(expected.score, rel=1e-12, abs=1e-12)
    assert list(ours.counts) == expected.counts and list(ours.totals) == expected.totals
    # the signature reads as sacrebleu's (but for the version field)
    assert ours.signature.rsplit("|", 1)[0] == theirs.get_signature().format().rsplit("|", 1)[0]


@pytest.mark.parametrize("method", ["floor", "add-k"])
def test_sentence_bleu_with_value_zero_is_sacrebleus(method: str) -> None:
    theirs = BLEU(smooth_method=method, smooth_value=0, effective_order=True)
    for k, hyp in enumerate(HYPS):
        refs = [r[k] for r in REFS]
        expected = theirs.sentence_score(hyp, refs).score
        ours = sentence_bleu(hyp, refs, smooth=method, smooth_value=0).score
        assert ours == pytest.approx(expected, rel=1e-12, abs=1e-12), (k, hyp)


def test_floor_zero_scores_as_none_and_differs_from_the_default() -> None:
    """What floor 0 means: the score of no smoothing, not of the default floor 0.1."""
    hyp, refs = HYPS[3], [r[3] for r in REFS]
    zero = sentence_bleu(hyp, refs, smooth="floor", smooth_value=0).score
    assert zero == sentence_bleu(hyp, refs, smooth="none").score
    assert zero != sentence_bleu(hyp, refs, smooth="floor").score


def write(tmp_path: Path, name: str, lines: list[str]) -> str:
    path = tmp_path / name
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("method", ["floor", "add-k"])
@pytest.mark.parametrize("level", ["corpus", "sentence"])
def test_score_command_with_smooth_value_zero_is_sacrebleus(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], method: str, level: str
) -> None:
    refs = [write(tmp_path, f"ref{k}", r) for k, r in enumerate(REFS)]
    hyp = write(tmp_path, "hyp", HYPS)
    argv = ["score", "-r", *refs, "-i", hyp, "--format", "json"]
    argv += ["--smooth", method, "--smooth-value", "0"]
    if level == "sentence":
        argv.append("--sentence-level")
    assert main(argv) == 0
    got = [row["score"] for row in json.loads(capsys.readouterr().out)]
    if level == "corpus":
        expected = [BLEU(smooth_method=method, smooth_value=0).corpus_score(HYPS, REFS).score]
    else:
        theirs = BLEU(smooth_method=method, smooth_value=0, effective_order=True)
        expected = [
            theirs.sentence_score(h, [r[k] for r in REFS]).score for k, h in enumerate(HYPS)
        ]
    assert got == pytest.approx(expected, rel=1e-12, abs=1e-12)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        (
            {"smooth": "floor", "smooth_value": -0.5},
            r"must be a positive number or zero, got -0\.5",
        ),
        ({"smooth": "add-k", "smooth_value": -1}, r"must be a positive number or zero, got -1"),
        (
            {"smooth": "chen-cherry-1", "smooth_value": 0},
            r"must be a positive number, got 0 \(0 is accepted for floor and add-k only",
        ),
        ({"smooth": "chen-cherry-4", "smooth_value": 0.0}, r"must be a positive number, got 0\.0"),
        (
            {"smooth": "chen-cherry-6", "smooth_value": -2.0},
            r"must be a positive number, got -2\.0",
        ),
        ({"smooth": "exp", "smooth_value": 0}, r"smoothing 'exp' takes no value, got 0"),
    ],
)
def test_what_is_still_refused(kwargs: dict, message: str) -> None:
    with pytest.raises(BleuOptionError, match=message):
        BleuOptions(**kwargs)


def test_the_command_line_refuses_a_negative_value(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ref, hyp = write(tmp_path, "ref", REFS[0]), write(tmp_path, "hyp", HYPS)
    argv = ["score", "-r", ref, "-i", hyp, "--smooth", "floor", "--smooth-value", "-1"]
    assert main(argv) == 2
    assert "bleu-study: error: smoothing value must be a positive number or zero, got -1.0" in (
        capsys.readouterr().err
    )
