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
import operator
import re
from bisect import bisect_right
from collections import Counter, deque
from collections.abc import Iterable, Sequence
from itertools import islice

import numpy as np

from bleu_core.errors import StudyError
from bleu_core.maths.correlation import pearson_r
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
# Every match of _TOKENIZED contains one of these literal strings ("&" for the entities, "RB- " for -LRB-
# and -RRB-): a line without any of them cannot match, so only the (few) lines that contain one are given
# to the regex (str.find is far faster than the regex).
_TOKENIZED_KEYS = (" .", " ,", " ?", " !", " ;", " :", " n't", " '", "@@ ", "&", "RB- ", "▁")
# Stands for a missing reference text: equal to nothing but itself (so not to a missing system text).
_NO_TEXT = object()


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


def _overlap(a: str | None, b: str | None) -> float:
    """Unigram F1 between two texts (lower-cased, split on whitespace); CJK split by character.

    >>> _overlap("The cat sat", "the cat the mat"), _overlap("猫 坐着", "猫坐"), _overlap(None, "")
    (0.5714285714285714, 0.8, 0.0)
    """
    units_a: Sequence[str]
    units_b: Sequence[str]
    if a and _CJK.search(a):
        units_a, units_b = a.replace(" ", ""), (b or "").replace(" ", "")
    else:
        units_a = a.lower().split() if a else []
        units_b = b.lower().split() if b else []
    total = len(units_a) + len(units_b)
    if total == 0:
        return 0.0
    count_a, count_b = Counter(units_a), Counter(units_b)
    # the size of the multiset intersection, sum((count_a & count_b).values()), without building it
    both = count_a.keys() & count_b.keys()
    common = sum(map(min, map(count_a.__getitem__, both), map(count_b.__getitem__, both)))
    return 2.0 * common / total


def detect_tokenized(
    study: Study, *, threshold: float = 0.3, sample: int = 300
) -> list[LoadWarning]:
    """Warn for each stream where most lines look tokenised (``word ,``, `` n't``, ``@@``, ``&apos;``)."""
    found = []
    streams = [("reference", n, t) for n, t in study.references.items()]
    streams += [("system", n, t) for n, t in study.systems.items()]
    for kind, name, texts in streams:
        if sample is None or sample >= 0:
            lines = list(islice(filter(None, texts), sample))  # the first `sample` non-empty lines
        else:
            lines = [t for t in texts if t][:sample]
        if len(lines) < 5 or all(_CJK.search(t) for t in lines[:20]):
            continue
        share = _count_tokenized(lines) / len(lines)
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


def _count_tokenized(lines: list[str]) -> int:
    """How many of ``lines`` match ``_TOKENIZED``: the regex runs only on lines holding one of its keys."""
    joined = "\n".join(lines)  # no key contains a newline, so every hit lies inside one line
    starts: list[int] = []
    position = 0
    for line in lines:
        starts.append(position)
        position += len(line) + 1
    candidates: set[int] = set()
    for key in _TOKENIZED_KEYS:
        at = joined.find(key)
        while at >= 0:
            i = bisect_right(starts, at) - 1
            candidates.add(i)
            at = joined.find(key, starts[i] + len(lines[i]))  # on to the next line
    return sum(1 for i in candidates if _TOKENIZED.search(lines[i]))


def _case_profile(
    texts: Sequence[str | None], limit: float | None = None
) -> tuple[bool, int | float]:
    """(has an upper-case letter, number of characters in the texts) for texts in a cased script.

    The texts count as in a cased script when ``joined.upper() != joined.lower()`` for ``joined``, the
    non-empty texts joined by spaces, and have an upper-case letter when ``joined != joined.lower()``; the
    size is then ``len(joined)`` (0 for texts without cased letters). Both tests are per character:
    ``s.lower() != s`` exactly when some character ``c`` of ``s`` has ``c.lower() != c``, and
    ``s.upper() != s.lower()`` exactly when some ``c.upper() != c.lower()`` (for every code point the
    two mappings differ in their first character when they differ at all, and a ``c`` with
    ``c.lower() != c`` also has ``c.upper() != c.lower()``; tests/study/test_study_mistakes_fast.py checks this
    on all of Unicode). So the texts are tested one by one instead of lower- and upper-casing the whole
    stream, and with a ``limit`` (>= 0) the size is counted only up to it, ``min(size, limit)``, so that
    the scan stops at the first upper-case letter once ``limit`` characters are seen.

    >>> _case_profile(["Hello", None, "world"]), _case_profile(["hello", ""]), _case_profile(["你好", "1"])
    ((True, 11), (False, 5), (False, 0))
    >>> _case_profile(["Hello", "world"], limit=3), _case_profile(["hello", "world"], limit=3)
    ((True, 3), (False, 3))
    """
    size = -1  # len(" ".join(non-empty texts)) so far
    cased = upper = False
    for text in texts:
        if not text:
            continue
        size += len(text) + 1
        if not upper:
            lower = text.lower()
            if lower != text:  # an upper-case letter (which is also a cased one)
                upper = cased = True
            elif not cased and text.upper() != lower:
                cased = True
        if upper and limit is not None and size >= limit:
            return True, limit
    if not cased:
        return False, 0
    return upper, size if limit is None else min(size, limit)


def detect_case_mismatch(study: Study, *, min_letters: int = 200) -> list[LoadWarning]:
    """Warn when references are all lower-case but systems are not (or everything is lower-case)."""
    # Sizes are only compared with min_letters (summed over references): counting them up to it is enough.
    limit = max(min_letters, 0)
    ref_upper, ref_cased = False, 0.0
    for texts in study.references.values():
        upper, size = _case_profile(texts, limit)
        ref_upper, ref_cased = ref_upper or upper, ref_cased + size
    if ref_cased < min_letters:
        return []
    cased_systems: list[str] = []
    lower_systems: list[str] = []
    for name, texts in study.systems.items():
        upper, size = _case_profile(texts, limit)
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


# Segments compared first (then twice as many, and so on) in detect_identical_to_reference.
_FIRST_BLOCK = 256


def _stripped(texts: Iterable[str | None], missing: object) -> list[object]:
    """The texts stripped of surrounding whitespace, ``missing`` for empty ones (``None``, ``""``).

    A missing reference is marked with ``_NO_TEXT``, which equals nothing else, so that counting equal
    stripped texts counts only pairs of two non-empty texts.
    """
    return [text.strip() if text else missing for text in texts]


def detect_identical_to_reference(study: Study, *, share: float = 0.9) -> list[LoadWarning]:
    """Warn when a system's output equals a reference stream on at least ``share`` of its segments.

    The share is counted over the segments where both texts are non-empty, comparing stripped texts.
    """
    found: list[LoadWarning] = []
    if not study.references:
        return found
    references = {
        name: (ref, _stripped(ref, _NO_TEXT), list(map(bool, ref)))
        for name, ref in study.references.items()
    }
    for name, texts in study.systems.items():
        n = len(texts)
        for ref_name, (ref, ref_stripped, ref_present) in references.items():
            if n != len(ref):
                deque(zip(texts, ref, strict=True), maxlen=0)  # raises zip's ValueError
            # Count in growing blocks, and give up as soon as the mismatches seen so far rule the share
            # out: same / n_pairs <= (n_pairs - mismatches) / n_pairs <= (n - mismatches) / n, and
            # rounded division keeps that order, so a system given up on could not have been warned about.
            same = n_pairs = 0
            start, block = 0, _FIRST_BLOCK
            while start < n:
                stop = start + block
                same += sum(
                    map(operator.eq, _stripped(texts[start:stop], None), ref_stripped[start:stop])
                )
                n_pairs += sum(
                    map(operator.and_, map(bool, texts[start:stop]), ref_present[start:stop])
                )
                if (n - (n_pairs - same)) / n < share:
                    break
                start, block = stop, 2 * block
            else:
                if n_pairs < 2:
                    continue
                identical = same / n_pairs
                if identical >= share:
                    found.append(
                        LoadWarning(
                            "system-is-reference",
                            f"system {name!r} is identical to reference {ref_name!r} on {identical:.0%} of "
                            "segments (BLEU near 100); was the reference file passed as a system output?",
                        )
                    )
    return found


def detect_unrated(study: Study) -> list[LoadWarning]:
    """Per criterion with segment ratings: the share of segments nobody rated (when above zero)."""
    found = []
    rated_by: dict[str, set[str]] = {criterion: set() for criterion in study.criteria}
    if len(rated_by) == 1:  # a set comprehension is the fastest single pass
        (only,) = rated_by
        rated_by[only] = {
            r.segment_id for r in study.ratings if r.criterion == only and r.segment_id
        }
    elif rated_by:
        for rating in study.ratings:  # one pass for all criteria
            if rating.segment_id:
                bucket = rated_by.get(rating.criterion)
                if bucket is not None:
                    bucket.add(rating.segment_id)
    for criterion in study.criteria:
        rated = rated_by[criterion]
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
        # plain Python ints and floats: looping over numpy rows and scalars is far slower
        items = list(zip(rated[:, 0].tolist(), rated[:, 1].tolist(), strict=True))
        human = (sign * scores[rated[:, 0], rated[:, 1]]).tolist()
        correlations = {}
        for shift in (-1, 0, 1):
            xs, ys = [], []
            for (row, col), y in zip(items, human, strict=True):
                j = col + shift
                if not 0 <= j < study.n_segments:
                    continue
                name = names[row]
                key = (name, j)
                if key not in cache:
                    cache[key] = _overlap(study.systems[name][j], reference[j])
                xs.append(cache[key])
                ys.append(y)
            correlations[shift] = pearson_r(xs, ys)  # nan below 3 items or without spread
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
