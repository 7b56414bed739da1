"""The fast usual-mistake detectors and ``Study._segment_scores`` agree exactly with straightforward ones.

The ``_*_oracle`` functions below are the implementations of bleu_core/study/mistakes.py and
``Study._segment_scores`` before they were sped up for 50 systems x 10,000 segments, copied
unchanged except for names. Hypothesis draws small studies (cased, uncased, CJK and odd Unicode texts,
``None`` and blank texts, systems that copy a reference, repeated raters, system-level ratings, unknown
ids) and checks that both give the same warnings, in the same order, with the same messages, the same
``segment_scores`` bit for bit, and the same exceptions.
"""

from __future__ import annotations

import math
import random
import re
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from bleu_core.study import mistakes
from bleu_core.study.demo import load_demo
from bleu_core.study.mistakes import (
    detect_case_mismatch,
    detect_identical_to_reference,
    detect_mistakes,
    detect_off_by_one,
    detect_tokenized,
    detect_unrated,
)
from bleu_core.study.model import Criterion, LoadWarning, Rating, Segment, Study

# ------------------------------------------------------------------ oracles
_TOKENIZED = re.compile(
    r"\w \.$|\w ,( |$)|\w [?!;:]( |$)| n't\b| '(s|re|ve|ll|d|m)\b|@@ |&apos;|&quot;|&amp;|&lt;|&gt;|"
    r" -LRB- | -RRB- |▁"
)
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")


def _words(text: str | None) -> Counter[str]:
    return Counter(text.lower().split()) if text else Counter()


def _overlap_oracle(a: str | None, b: str | None) -> float:
    if a and _CJK.search(a):
        ca, cb = Counter(a.replace(" ", "")), Counter((b or "").replace(" ", ""))
    else:
        ca, cb = _words(a), _words(b)
    total = sum(ca.values()) + sum(cb.values())
    if total == 0:
        return 0.0
    return 2.0 * sum((ca & cb).values()) / total


def _tokenized_oracle(
    study: Study, *, threshold: float = 0.3, sample: Any = 300
) -> list[LoadWarning]:
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


def _case_profile_oracle(texts: Sequence[str | None]) -> tuple[bool, int]:
    joined = " ".join(text for text in texts if text)
    if joined.upper() == joined.lower():  # no cased letters at all (e.g. Chinese)
        return False, 0
    return joined != joined.lower(), len(joined)


def _case_mismatch_oracle(study: Study, *, min_letters: int = 200) -> list[LoadWarning]:
    ref_upper, ref_cased = False, 0
    for texts in study.references.values():
        upper, size = _case_profile_oracle(texts)
        ref_upper, ref_cased = ref_upper or upper, ref_cased + size
    if ref_cased < min_letters:
        return []
    cased_systems = []
    lower_systems = []
    for name, texts in study.systems.items():
        upper, size = _case_profile_oracle(texts)
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


def _identical_oracle(study: Study, *, share: float = 0.9) -> list[LoadWarning]:
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


def _unrated_oracle(study: Study) -> list[LoadWarning]:
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


def _segment_scores_oracle(study: Study, criterion: str) -> np.ndarray:
    systems = {name: i for i, name in enumerate(study.systems)}
    rows: list[int] = []
    cols: list[int] = []
    values: list[float] = []
    for rating in study.ratings:
        if rating.criterion != criterion or rating.segment_id is None:
            continue
        rows.append(systems[rating.system])
        cols.append(study.segment_index(rating.segment_id))
        values.append(rating.score)
    shape = (len(study.systems), len(study.segments))
    total = np.zeros(shape)
    count = np.zeros(shape)
    np.add.at(total, (rows, cols), values)
    np.add.at(count, (rows, cols), 1.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(count > 0, total / np.where(count > 0, count, 1.0), np.nan)


def _pearson(x: np.ndarray, y: np.ndarray) -> float:
    if x.size < 3 or np.std(x) == 0 or np.std(y) == 0:
        return math.nan
    return float(np.corrcoef(x, y)[0, 1])


def _off_by_one_oracle(
    study: Study, *, min_items: int = 50, margin: float = 0.1, sample: int = 600
) -> list[LoadWarning]:
    if not study.references or study.n_segments < 3:
        return []
    reference = next(iter(study.references.values()))
    found = []
    cache: dict[tuple[str, int], float] = {}
    system_rows = {name: i for i, name in enumerate(study.systems)}
    for criterion_name, criterion in study.criteria.items():
        scores = _segment_scores_oracle(study, criterion_name)
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
                    cache[key] = _overlap_oracle(study.systems[name][j], reference[j])
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


def _mistakes_oracle(study: Study) -> list[LoadWarning]:
    return (
        _tokenized_oracle(study)
        + _case_mismatch_oracle(study)
        + _identical_oracle(study)
        + _off_by_one_oracle(study)
        + _unrated_oracle(study)
    )


# ------------------------------------------------------------------ helpers and strategies
def _outcome(run: Callable[[], Any]) -> tuple[Any, ...]:
    """What a call gives: ("ok", result) or ("raised", exception type, exception args)."""
    try:
        return ("ok", run())
    except Exception as error:  # noqa: BLE001 - the point is to compare whatever is raised
        return ("raised", type(error), error.args)


def _same_array(a: np.ndarray, b: np.ndarray) -> bool:
    """Same shape, dtype and bits (so -0.0 differs from 0.0, and NaN equals NaN)."""
    return a.shape == b.shape and a.dtype == b.dtype and a.tobytes() == b.tobytes()


# Pieces of text that exercise every branch: cased and uncased scripts, letters whose upper and lower
# case differ in length or context (ß, İ, final sigma), cased letters without case mappings (ª),
# tokenisation marks, entities, CJK.
PIECES = [
    "The", "the", "CAT", "cat", "sat", "Σ", "σς", "ΣΑΣ", "ß", "İ", "ª", "ǅ", "é", "É", "猫", "坐",
    "한", "カ", "1", ",", ".", "?", "!", ";", ":", "'s", "n't", "don", "@@", "&amp;", "&quot;", "▁x",
    "-LRB-", "-RRB-", "\n", "\t",
]  # fmt: skip
texts = st.one_of(
    st.none(),
    st.sampled_from(["", " ", "  \n"]),
    st.lists(st.sampled_from(PIECES), max_size=8).map(" ".join),
    st.lists(st.sampled_from(PIECES), max_size=6).map("".join),
    st.text(max_size=10),
)
SCORES = st.one_of(
    st.floats(-100, 100, allow_nan=False),
    st.sampled_from([0.0, -0.0, 1e-300, 0.1, 0.2, 0.3, 1e16, -1e16]),
    st.integers(-5, 5),
)


@st.composite
def studies(draw: st.DrawFn, max_segments: int = 8, unknown_ids: bool = True) -> Study:
    n = draw(st.integers(0, max_segments))
    pool = st.sampled_from(["s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", ""])
    if draw(st.integers(0, 9)) == 0:  # now and then duplicate or odd segment ids
        ids = draw(st.lists(pool, min_size=n, max_size=n))
    else:
        ids = [f"s{i}" for i in range(n)]
    stream = st.lists(texts, min_size=n, max_size=n)
    references = draw(st.dictionaries(st.sampled_from(["ref-A", "ref-B"]), stream, max_size=2))
    systems = draw(st.dictionaries(st.sampled_from(["A", "B", "C", "D"]), stream, max_size=4))
    if references and systems and draw(st.booleans()):  # a system that (mostly) copies a reference
        name = draw(st.sampled_from(sorted(systems)))
        ref = references[draw(st.sampled_from(sorted(references)))]
        pad = draw(st.lists(st.sampled_from(["", " ", "\t", "x"]), min_size=n, max_size=n))
        systems[name] = [t if t is None else p + t + p for t, p in zip(ref, pad, strict=True)]
    criteria = {
        name: Criterion(name, higher_is_better=draw(st.booleans()))
        for name in draw(st.lists(st.sampled_from(["da", "mqm", "adequacy"]), unique=True))
    }
    system_names = sorted(systems) + (["unknown-system"] if unknown_ids else [])
    segment_ids = ids + [None, None] + (["s-unknown", ""] if unknown_ids else [])
    if not system_names or not segment_ids:
        return Study(
            "drawn", tuple(Segment(i) for i in ids), references, systems, criteria=criteria
        )
    rating = st.builds(
        Rating,
        system=st.sampled_from(system_names),
        segment_id=st.sampled_from(segment_ids),
        rater=st.sampled_from(["r1", "r2", "r3", None]),
        group=st.none(),
        criterion=st.sampled_from([*criteria, "other"]),
        score=SCORES,
    )
    base = draw(st.lists(rating, max_size=30))
    repeats = draw(st.lists(st.sampled_from(base), max_size=5)) if base else []  # repeated raters
    ratings = tuple(base + [replace(r, rater="r9") for r in repeats])
    segments = tuple(Segment(i) for i in ids)
    return Study("drawn", segments, references, systems, criteria=criteria, ratings=ratings)


@st.composite
def rated_studies(draw: st.DrawFn) -> Study:
    """Studies with known ids and enough segments and ratings for the off-by-one check to run."""
    study = draw(studies(max_segments=12, unknown_ids=False))
    if not study.systems or not study.criteria:
        return study
    extra = draw(
        st.lists(
            st.builds(
                Rating,
                system=st.sampled_from(sorted(study.systems)),
                segment_id=st.sampled_from(study.segment_ids or [None]),
                rater=st.sampled_from(["r1", "r2"]),
                group=st.none(),
                criterion=st.sampled_from(sorted(study.criteria)),
                score=st.floats(0, 100),
            ),
            max_size=60,
        )
    )
    return replace(study, ratings=study.ratings + tuple(extra))


FAST = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# ------------------------------------------------------------------ properties
def test_case_mappings_behave_per_character_on_all_of_unicode() -> None:
    # The fast _case_profile tests texts one by one and stops early; that is exact because, for every
    # code point, (1) when c.lower() != c they differ in the first character, (2) when c.upper() !=
    # c.lower() they differ in the first character, (3) c.lower() != c implies c.upper() != c.lower().
    for code in range(sys.maxunicode + 1):
        c = chr(code)
        lower, upper = c.lower(), c.upper()
        assert lower == c or lower[0] != c, hex(code)
        assert upper == lower or upper[0] != lower[0], hex(code)
        assert lower == c or upper != lower, hex(code)


@FAST
@given(st.lists(texts, max_size=12), st.one_of(st.none(), st.integers(-3, 400)))
# letters that are cased but have no case mapping (ª), or change length (ß, İ) or depend on context (Σ)
@example(["ª"], None)
@example(["猫", "ª 1", None], 1)
@example(["ß", ""], None)
@example(["İ"], 0)
@example(["aΣ", "Σ"], None)
@example(["ǅ"], 1)
def test_case_profile_matches_joining_everything(
    stream: list[str | None], limit: int | None
) -> None:
    upper, size = _case_profile_oracle(stream)
    if limit is None:
        assert mistakes._case_profile(stream) == (upper, size)
    elif limit >= 0:
        assert mistakes._case_profile(stream, limit) == (upper, min(size, limit))


@FAST
@given(
    studies(),
    st.integers(-5, 250),
    st.sampled_from([0.0, 0.1, 0.3, 0.5, 1.0]),
    st.one_of(st.none(), st.integers(-3, 12)),
    st.sampled_from([0.0, 0.5, 0.9, 0.95, 1.0, 1.5, -1.0, math.nan]),
)
def test_detectors_and_segment_scores_are_unchanged(
    study: Study, min_letters: int, threshold: float, sample: int | None, share: float
) -> None:
    # one drawn study for every detector (drawing studies is most of the time of these tests)
    for letters in (min_letters, 0, 1, 3, 20):
        assert _outcome(lambda m=letters: detect_case_mismatch(study, min_letters=m)) == _outcome(
            lambda m=letters: _case_mismatch_oracle(study, min_letters=m)
        )
    for limit, threshold_ in ((sample, threshold), (300, 0.3)):
        assert _outcome(
            lambda n=limit, t=threshold_: detect_tokenized(study, threshold=t, sample=n)
        ) == _outcome(lambda n=limit, t=threshold_: _tokenized_oracle(study, threshold=t, sample=n))
    for share_ in (share, 0.9):
        assert _outcome(lambda s=share_: detect_identical_to_reference(study, share=s)) == _outcome(
            lambda s=share_: _identical_oracle(study, share=s)
        )
    assert _outcome(lambda: detect_unrated(study)) == _outcome(lambda: _unrated_oracle(study))
    for criterion in study.criteria:
        got = _outcome(lambda c=criterion: replace(study)._segment_scores(c))
        want = _outcome(lambda c=criterion: _segment_scores_oracle(replace(study), c))
        if got[0] == want[0] == "ok":
            assert _same_array(got[1], want[1])
        else:
            assert got == want


@FAST
@given(st.lists(texts, min_size=5, max_size=40))
def test_tokenized_counts_lines_like_the_regex(lines: list[str | None]) -> None:
    present = [t for t in lines if t]
    assert mistakes._count_tokenized(present) == sum(1 for t in present if _TOKENIZED.search(t))


@settings(max_examples=60, deadline=None)
@given(
    st.integers(0, 1300),
    st.integers(0, 1300),
    st.integers(0, 200),
    st.sampled_from([0.5, 0.8, 0.9, 0.95]),
    st.randoms(use_true_random=False),
)
# exactly at the share (warned), in the first block and after several blocks
@example(20, 2, 0, 0.9, random.Random(1))
@example(1000, 100, 0, 0.9, random.Random(2))
@example(1000, 50, 0, 0.95, random.Random(3))
@example(1200, 600, 0, 0.5, random.Random(4))
def test_identical_to_reference_near_the_share_over_many_blocks(
    n: int, n_changed: int, n_missing: int, share: float, rnd: Any
) -> None:
    # Long streams (several blocks of the early give-up) where the system copies the reference except
    # on some segments: warned or not exactly as counting everything.
    reference = [f"sentence {i} ." for i in range(n)]
    system: list[str | None] = [f" {t}" for t in reference]
    for i in rnd.sample(range(n), min(n_changed, n)):
        system[i] = "something else"
    for i in rnd.sample(range(n), min(n_missing, n)):
        system[i] = rnd.choice([None, ""])
    study = Study(
        "long",
        tuple(Segment(str(i)) for i in range(n)),
        {"ref": list(reference)},
        {"sys": system, "other": list(reversed(system))},
    )
    assert detect_identical_to_reference(study, share=share) == _identical_oracle(
        study, share=share
    )


def test_identical_to_reference_length_mismatch_raises_like_zip() -> None:
    study = Study("bad", (Segment("1"), Segment("2")), {"ref": ["a", "b"]}, {"A": ["a", "b", "c"]})
    with pytest.raises(ValueError, match=r"zip\(\) argument 2 is shorter than argument 1"):
        detect_identical_to_reference(study)
    with pytest.raises(ValueError, match=r"zip\(\) argument 2 is shorter than argument 1"):
        _identical_oracle(study)


@FAST
@given(
    rated_studies(),
    st.integers(0, 8),
    st.sampled_from([-1.0, 0.0, 0.1, 0.5]),
    st.sampled_from([0, 1, 3, 7, 600]),
)
def test_off_by_one_is_unchanged(study: Study, min_items: int, margin: float, sample: int) -> None:
    def run(detector: Callable[..., list[LoadWarning]]) -> tuple[Any, ...]:
        fresh = replace(study)  # no cached segment scores
        return _outcome(lambda: detector(fresh, min_items=min_items, margin=margin, sample=sample))

    assert run(detect_off_by_one) == run(_off_by_one_oracle)


@FAST
@given(st.lists(texts, min_size=2, max_size=2))
def test_overlap_is_unchanged(pair: list[str | None]) -> None:
    a, b = pair
    assert mistakes._overlap(a, b) == _overlap_oracle(a, b)
    assert mistakes._overlap(b, a) == _overlap_oracle(b, a)


@pytest.mark.parametrize("demo", ["ted-en-de", "ted-zh-en", "paper-examples"])
def test_demo_studies_give_the_same_warnings_and_scores(demo: str) -> None:
    study = load_demo(demo)
    ids = study.segment_ids
    nxt = dict(zip(ids, ids[1:], strict=False))
    shifted = replace(  # ratings moved to the next segment: the off-by-one warning fires
        study,
        ratings=tuple(
            replace(r, segment_id=nxt[r.segment_id]) if r.segment_id in nxt else r
            for r in study.ratings
        ),
    )
    for variant in (study, shifted):
        assert detect_mistakes(replace(variant)) == _mistakes_oracle(replace(variant))
        for criterion in variant.criteria:
            assert _same_array(
                variant._segment_scores(criterion), _segment_scores_oracle(variant, criterion)
            )
    if demo == "ted-en-de":  # the comparison above covered a warning that fires
        assert "ratings-off-by-one" in [w.code for w in detect_off_by_one(replace(shifted))]
