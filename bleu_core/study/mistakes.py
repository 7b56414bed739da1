"""Detectors for the usual mistakes people make when they bring data to a BLEU study.

Each detector returns :class:`~bleu_core.study.model.LoadWarning` objects (with the fix in the message);
nothing is printed. :func:`detect_mistakes` runs all of them on a loaded study; every loader calls it.

* **transposed references** — sacrebleu wants *reference streams* (``refs[k][i]`` = reference ``k`` of
  segment ``i``); passing one list per segment instead is a classic mistake (sacrebleu issues #220, #272,
  #275). :func:`check_reference_shape` raises when the shapes prove it, and warns when the texts suggest it.
* **already tokenised text** scored with the ``13a`` tokenizer (``don 't`` , ``word ,``, ``@@``, ``&apos;``).
* **already lower-cased text** (references lower-cased while systems are not, or everything lower-cased).
* **a system identical to a reference** (the reference file passed as a system output).
* **ratings off by one** — segment ids of the ratings shifted against the outputs: the human scores agree
  better with the neighbouring segments' text than with their own.
* **unrated segments** — the share of segments no one rated, per criterion.

>>> check_reference_shape([["ref of seg 1", "other ref of seg 1"], ["ref of seg 2", "other ref 2"],
...                        ["ref of seg 3", "other ref 3"]], n_segments=3)
Traceback (most recent call last):
  ...
bleu_core.errors.StudyError: the references look transposed: ...
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence

import numpy as np

from bleu_core.errors import StudyError
from bleu_core.study.model import LoadWarning, Study

__all__ = [
    "check_reference_shape",
    "detect_case_mismatch",
    "detect_identical_to_reference",
    "detect_mistakes",
    "detect_off_by_one",
    "detect_tokenized",
    "detect_unrated",
]

# Signs of Moses/PTB tokenisation or subword segmentation in detokenised-looking text.
_TOKENIZED = re.compile(
    r"\w \.$|\w ,( |$)|\w [?!;:]( |$)| n't\b| '(s|re|ve|ll|d|m)\b|@@ |&apos;|&quot;|&amp;|&lt;|&gt;|"
    r" -LRB- | -RRB- |▁"
)
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")


def check_reference_shape(
    references: Sequence[Sequence[str | None]], n_segments: int
) -> list[LoadWarning]:
    """Check that ``references`` is a list of reference streams for ``n_segments`` segments.

    Raises :class:`~bleu_core.errors.StudyError` when the shapes show the references are transposed (one
    list per segment) or a bare list of strings was passed; returns a warning when the shapes are square
    (as many references as segments) and the texts look transposed.
    """
    if isinstance(references, str) or (len(references) > 0 and isinstance(references[0], str)):
        raise StudyError(
            "references must be a list of reference streams (a list of lists of strings), but a "
            "single list of strings was given; wrap it: references=[refs] (sacrebleu convention)"
        )
    lengths = [len(stream) for stream in references]
    if all(length == n_segments for length in lengths):
        if len(references) == n_segments and n_segments > 1:
            return _square_check(references)
        return []
    if len(references) == n_segments:
        raise StudyError(
            f"the references look transposed: got {len(references)} lists (one per segment) of "
            f"{sorted(set(lengths))} references each, but {n_segments} segments; pass one stream per "
            "reference instead: references = [list(s) for s in zip(*references)] "
            "(sacrebleu issues #220, #272, #275)"
        )
    raise StudyError(
        f"reference streams have {sorted(set(lengths))} lines, but there are {n_segments} "
        "segments; each stream needs exactly one line per segment"
    )


def _square_check(references: Sequence[Sequence[str | None]]) -> list[LoadWarning]:
    """As many references as segments: compare similarity within streams against across them."""
    # In a correct layout, texts in the same *column* (same segment) are translations of one sentence and
    # so overlap far more than texts in the same *row* (same stream).
    same_segment, same_stream = [], []
    k = len(references)
    for i in range(k):
        for j in range(k):
            if i == j:
                continue
            a, b = references[i][0], references[j][0]
            same_segment.append(_overlap(a, b))
            same_stream.append(_overlap(references[0][i], references[0][j]))
    if same_stream and np.mean(same_stream) > np.mean(same_segment) + 0.2:
        return [
            LoadWarning(
                "references-transposed",
                "the references may be transposed: texts in the same stream resemble each other more "
                "than the references of one segment do; pass streams (refs[k][i] = reference k of "
                "segment i): references = [list(s) for s in zip(*references)]",
            )
        ]
    return []


def _words(text: str | None) -> Counter[str]:
    return Counter(text.lower().split()) if text else Counter()


def _overlap(a: str | None, b: str | None) -> float:
    """Unigram F1 between two texts (lower-cased, split on whitespace); CJK split by character."""
    if a and _CJK.search(a):
        ca, cb = Counter(a.replace(" ", "")), Counter((b or "").replace(" ", ""))
    else:
        ca, cb = _words(a), _words(b)
    total = sum(ca.values()) + sum(cb.values())
    if total == 0:
        return 0.0
    return 2.0 * sum((ca & cb).values()) / total


def detect_tokenized(
    study: Study, *, threshold: float = 0.3, sample: int = 300
) -> list[LoadWarning]:
    """Warn for each stream where most lines look tokenised (``word ,``, `` n't``, ``@@``, ``&apos;``)."""
    found = []
    streams = [("reference", n, t) for n, t in study.references.items()]
    streams += [("system", n, t) for n, t in study.systems.items()]
    for kind, name, texts in streams:
        lines = [t for t in texts if t][:sample]
        if len(lines) < 5 or all(_CJK.search(t) for t in lines[:20]):
            continue
        share = sum(1 for t in lines if _TOKENIZED.search(t)) / len(lines)
        if share >= threshold:
            found.append(
                LoadWarning(
                    "looks-tokenized",
                    f"{kind} {name!r} looks already tokenised ({share:.0%} of lines have split "
                    "punctuation, escaped entities or subword marks); the 13a tokenizer expects "
                    "detokenised text — detokenise it (e.g. sacremoses) or score with tokenize='none' "
                    "and report that BLEU is not comparable to published scores",
                )
            )
    return found


def _case_profile(texts: Sequence[str | None]) -> tuple[bool, int]:
    """(has an upper-case letter, number of characters in the texts) for texts in a cased script."""
    joined = " ".join(text for text in texts if text)
    if joined.upper() == joined.lower():  # no cased letters at all (e.g. Chinese)
        return False, 0
    return joined != joined.lower(), len(joined)


def detect_case_mismatch(study: Study, *, min_letters: int = 200) -> list[LoadWarning]:
    """Warn when references are all lower-case but systems are not (or everything is lower-case)."""
    ref_upper, ref_cased = False, 0
    for texts in study.references.values():
        upper, size = _case_profile(texts)
        ref_upper, ref_cased = ref_upper or upper, ref_cased + size
    if ref_cased < min_letters:
        return []
    cased_systems = []
    lower_systems = []
    for name, texts in study.systems.items():
        upper, size = _case_profile(texts)
        if size >= min_letters:
            (cased_systems if upper else lower_systems).append(name)
    found = []
    if not ref_upper and cased_systems:
        found.append(
            LoadWarning(
                "lowercased-references",
                "the references are entirely lower-case but systems "
                f"{', '.join(cased_systems[:5])} are not; case-sensitive BLEU will count every "
                "capitalised word as a miss — use lowercase=True or the original cased references",
            )
        )
    elif not ref_upper and lower_systems:
        found.append(
            LoadWarning(
                "all-lowercased",
                "every text is lower-case: BLEU will be case-insensitive in effect, which is not "
                "comparable to published (cased) scores; report it as lowercase BLEU",
            )
        )
    elif ref_upper and lower_systems:
        found.append(
            LoadWarning(
                "lowercased-systems",
                f"systems {', '.join(lower_systems[:5])} are entirely lower-case while the references "
                "are cased; use lowercase=True or recase the outputs",
            )
        )
    return found


def detect_identical_to_reference(study: Study, *, share: float = 0.9) -> list[LoadWarning]:
    """Warn when a system's output equals a reference stream on at least ``share`` of its segments."""
    found = []
    for name, texts in study.systems.items():
        for ref_name, ref in study.references.items():
            pairs = [(h, r) for h, r in zip(texts, ref, strict=True) if h and r]
            if len(pairs) < 2:
                continue
            same = sum(1 for h, r in pairs if h.strip() == r.strip()) / len(pairs)
            if same >= share:
                found.append(
                    LoadWarning(
                        "system-is-reference",
                        f"system {name!r} is identical to reference {ref_name!r} on {same:.0%} of "
                        "segments (BLEU near 100); was the reference file passed as a system output?",
                    )
                )
    return found


def detect_unrated(study: Study) -> list[LoadWarning]:
    """Per criterion with segment ratings: the share of segments nobody rated (when above zero)."""
    found = []
    for criterion in study.criteria:
        rated = {r.segment_id for r in study.ratings if r.criterion == criterion and r.segment_id}
        if not rated:
            continue
        missing = study.n_segments - len(rated)
        if missing:
            found.append(
                LoadWarning(
                    "unrated-segments",
                    f"{missing / study.n_segments:.0%} of segments ({missing} of {study.n_segments}) "
                    f"have no {criterion} rating; correlations with {criterion} use only the rated "
                    "segments (select them when comparing BLEU with human scores)",
                )
            )
    return found


def _pearson(x: np.ndarray, y: np.ndarray) -> float:
    if x.size < 3 or np.std(x) == 0 or np.std(y) == 0:
        return math.nan
    return float(np.corrcoef(x, y)[0, 1])


def detect_off_by_one(
    study: Study, *, min_items: int = 50, margin: float = 0.1, sample: int = 600
) -> list[LoadWarning]:
    """Warn when human scores agree better with a neighbouring segment's output than with their own.

    For each criterion with segment ratings, correlates the ratings of item (system, segment ``i``) with
    the word overlap between the system output and the first reference at segment ``i + shift`` for shift
    -1, 0, +1 (pooled over systems). If a shift of one beats shift 0 by ``margin``, the ids probably do not
    line up.
    """
    if not study.references or study.n_segments < 3:
        return []
    reference = next(iter(study.references.values()))
    found = []
    cache: dict[tuple[str, int], float] = {}
    system_rows = {name: i for i, name in enumerate(study.systems)}
    for criterion_name, criterion in study.criteria.items():
        scores = study.segment_scores(criterion_name)
        rated = np.argwhere(~np.isnan(scores))
        if len(rated) < min_items:
            continue
        if len(rated) > sample:  # an evenly spread sample is plenty to see a shift
            rated = rated[np.linspace(0, len(rated) - 1, sample).astype(int)]
        names = list(system_rows)
        sign = 1.0 if criterion.higher_is_better else -1.0
        correlations = {}
        for shift in (-1, 0, 1):
            xs, ys = [], []
            for row, col in rated:
                j = col + shift
                if not 0 <= j < study.n_segments:
                    continue
                name = names[row]
                key = (name, int(j))
                if key not in cache:
                    cache[key] = _overlap(study.systems[name][j], reference[j])
                xs.append(cache[key])
                ys.append(sign * scores[row, col])
            correlations[shift] = _pearson(np.asarray(xs), np.asarray(ys))
        base = correlations[0]
        best = max(
            (-1, 1), key=lambda s: -math.inf if math.isnan(correlations[s]) else correlations[s]
        )
        if not math.isnan(correlations[best]) and (
            math.isnan(base) or correlations[best] > base + margin
        ):
            found.append(
                LoadWarning(
                    "ratings-off-by-one",
                    f"{criterion_name} ratings agree better with the outputs of the segment "
                    f"{'after' if best > 0 else 'before'} (r = {correlations[best]:.2f}) than with their "
                    f"own (r = {base:.2f}); the segment ids of the ratings are probably shifted by one "
                    "(0-based vs 1-based?) — check the segment_id column",
                )
            )
    return found


def detect_mistakes(study: Study) -> list[LoadWarning]:
    """Run every detector on ``study`` and return the warnings, in a stable order."""
    return (
        detect_tokenized(study)
        + detect_case_mismatch(study)
        + detect_identical_to_reference(study)
        + detect_off_by_one(study)
        + detect_unrated(study)
    )
