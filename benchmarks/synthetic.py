"""Realistic synthetic MT corpora of any size, for benchmarks.

Real test sets have a few thousand segments; speed and memory must be measured on 100k-1M. This module grows
text that *looks* like real MT data to a tokenizer and to BLEU:

* a word-level bigram (Markov) chain trained on real English text — the WMT21 news outputs and references and
  the TED talks in ``/work/shared/data`` when present (read at run time, never copied into the repository),
  else a small built-in sample — gives sentences with real words, punctuation glued to words, numbers, quotes
  and a realistic length distribution;
* every segment has a hidden "meaning" (one chain sample); each reference is that sentence with light edits
  (substitutions, deletions, insertions) and the hypothesis with heavier ones, so BLEU lands around 20-35 as for
  real systems, and references differ from each other as real ones do.

Everything is vectorised with numpy (the chain is sampled for all segments at once), so a million segments
with four references take tens of seconds, not hours. Output is deterministic for a given ``seed``.

>>> corpus = make_corpus(5, n_refs=2, seed=1)
>>> len(corpus.hypotheses), len(corpus.references), len(corpus.references[0])
(5, 2, 5)
>>> make_corpus(5, n_refs=2, seed=1).hypotheses == corpus.hypotheses
True
"""

from __future__ import annotations

import glob
import os
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

SHARED_DATA = os.environ.get("BLEU_STUDY_SHARED_DATA", "/work/shared/data")

_FALLBACK_TEXT = """\
The committee said on Tuesday that it would publish its report in March, after a review of 1,250 documents.
"We are not going to change the rules now," the minister told reporters in Berlin.
Prices rose by 3.5% in the second quarter, the fastest increase since 2008.
I want to ask you all to consider for a second the very simple fact that most of what we know comes from light.
She added that the company's new plant - which cost $40 million - would open next year.
Police said two people were injured and taken to hospital; their condition is not known.
It's a question of trust, and trust takes years to build but seconds to break.
The U.S. team won 2-1 in extra time, ending a run of five defeats.
"""


@dataclass(frozen=True)
class Corpus:
    """A synthetic corpus: ``hypotheses[i]`` and reference streams ``references[k][i]``."""

    hypotheses: list[str]
    references: list[list[str]]


def _training_lines() -> list[str]:
    lines: list[str] = []
    wmt = os.path.join(SHARED_DATA, "wmt21-newstest2021-mqm-da", "wmt21-news-systems", "txt")
    for path in sorted(glob.glob(os.path.join(wmt, "*", "*.en"))):
        with open(path, encoding="utf-8") as fh:
            lines.extend(fh.read().split("\n"))
    ted = os.path.join(SHARED_DATA, "google-mqm-ted2021", "ted")
    for path, column in [
        (os.path.join(ted, "zhen", "mqm_ted_zhen.tsv"), 6),
        (os.path.join(ted, "ende", "mqm_ted_ende.tsv"), 5),
    ]:
        if os.path.exists(path):
            with open(path, encoding="utf-8") as fh:
                next(fh, None)
                for row in fh:
                    cells = row.rstrip("\n").split("\t")
                    if len(cells) > column:
                        lines.append(cells[column].replace("<v>", "").replace("</v>", ""))
    lines = list(dict.fromkeys(line for line in lines if line.strip()))
    return lines or _FALLBACK_TEXT.splitlines()


@dataclass(frozen=True)
class _Chain:
    words: np.ndarray  # object array of word strings; 0 = end of sentence
    starts: np.ndarray  # word ids that start sentences (with multiplicity)
    offsets: np.ndarray  # successors of word w: successors[offsets[w]:offsets[w + 1]]
    successors: np.ndarray
    unigram: np.ndarray  # word ids with multiplicity (for substitutions)


@lru_cache(maxsize=1)
def _chain() -> _Chain:
    vocab: dict[str, int] = {"": 0}
    sentences = []
    for line in _training_lines():
        ids = [vocab.setdefault(w, len(vocab)) for w in line.split()]
        if ids:
            sentences.append(ids)
    prev = np.concatenate([np.asarray(s, np.int64) for s in sentences])
    nxt = np.concatenate([np.asarray([*s[1:], 0], np.int64) for s in sentences])
    order = np.argsort(prev, kind="stable")
    prev, nxt = prev[order], nxt[order]
    offsets = np.searchsorted(prev, np.arange(len(vocab) + 1))
    words = np.empty(len(vocab), dtype=object)
    words[:] = list(vocab)
    starts = np.asarray([s[0] for s in sentences], np.int64)
    unigram = np.concatenate([np.asarray(s, np.int64) for s in sentences])
    return _Chain(words, starts, offsets, nxt, unigram)


def _sample_sentences(n: int, rng: np.random.Generator, max_len: int = 120) -> np.ndarray:
    """``(n, max_len)`` word ids from the chain, ``0`` after the end of each sentence."""
    chain = _chain()
    out = np.zeros((n, max_len), dtype=np.int32)
    current = chain.starts[rng.integers(0, len(chain.starts), n)]
    alive = np.ones(n, dtype=bool)
    for t in range(max_len):
        out[:, t] = np.where(alive, current, 0)
        lo, hi = chain.offsets[current], chain.offsets[current + 1]
        has_next = hi > lo
        pick = lo + (rng.random(n) * np.maximum(hi - lo, 1)).astype(np.int64)
        current = np.where(
            has_next, chain.successors[np.minimum(pick, len(chain.successors) - 1)], 0
        )
        alive &= current != 0
        if not alive.any():
            break
    return out


def _perturb(
    base: np.ndarray, rng: np.random.Generator, p_sub: float, p_del: float, p_ins: float
) -> np.ndarray:
    """Edit every sentence: substitute, delete, insert random words (rates per word)."""
    chain = _chain()
    n, width = base.shape
    words = base.astype(np.int64)
    valid = words != 0
    r = rng.random((n, width))
    substitute = valid & (r < p_sub)
    random_words = chain.unigram[rng.integers(0, len(chain.unigram), (n, width))]
    words = np.where(substitute, random_words, words)
    keep = valid & ~((r >= p_sub) & (r < p_sub + p_del))
    insert = valid & (rng.random((n, width)) < p_ins)
    inserted = chain.unigram[rng.integers(0, len(chain.unigram), (n, width))]
    # Interleave (word, inserted word) and keep what survives, row by row, in order.
    both = np.stack([np.where(keep, words, 0), np.where(insert, inserted, 0)], axis=2).reshape(
        n, 2 * width
    )
    lengths = (both != 0).sum(axis=1)
    out = np.zeros((n, int(lengths.max()) if n else 0), dtype=np.int64)
    rows, cols = np.nonzero(both)
    position = np.arange(rows.shape[0]) - np.repeat(np.cumsum(lengths) - lengths, lengths)
    out[rows, position] = both[rows, cols]
    return out


def _to_lines(ids: np.ndarray) -> list[str]:
    chain = _chain()
    newline = np.array(["\n"], dtype=object)
    rows = [chain.words[row[row != 0]] for row in ids] if ids.shape[0] < 64 else None
    if rows is not None:
        return [" ".join(r.tolist()) for r in rows]
    # One join for the whole stream: words with a newline token after every row.
    n, width = ids.shape
    padded = np.concatenate([ids, np.full((n, 1), -1)], axis=1).ravel()
    padded = padded[padded != 0]
    words = np.where(padded == -1, newline[0], chain.words[np.maximum(padded, 0)])
    lines = " ".join(words.tolist()).split("\n")[:-1]  # every row ends with a newline
    return [line.strip() for line in lines]


def make_corpus(
    n_segments: int,
    n_refs: int = 1,
    seed: int = 0,
    *,
    hyp_edits: tuple[float, float, float] = (0.22, 0.06, 0.06),
    ref_edits: tuple[float, float, float] = (0.12, 0.03, 0.03),
) -> Corpus:
    """A corpus of ``n_segments`` hypotheses and ``n_refs`` reference streams (edit rates: sub, del, ins)."""
    rng = np.random.default_rng(seed)
    base = _sample_sentences(n_segments, rng)
    hyps = _to_lines(_perturb(base, rng, *hyp_edits))
    refs = [_to_lines(_perturb(base, rng, *ref_edits)) for _ in range(n_refs)]
    return Corpus(hyps, refs)


def write_corpus(corpus: Corpus, directory: str) -> tuple[str, list[str]]:
    """Write ``hyp.txt`` and ``ref0.txt``... into ``directory``; returns the paths."""
    os.makedirs(directory, exist_ok=True)
    hyp = os.path.join(directory, "hyp.txt")
    with open(hyp, "w", encoding="utf-8") as fh:
        fh.write("\n".join(corpus.hypotheses) + "\n")
    refs = []
    for k, stream in enumerate(corpus.references):
        path = os.path.join(directory, f"ref{k}.txt")
        with open(path, "w", encoding="utf-8") as fh:
            fh.write("\n".join(stream) + "\n")
        refs.append(path)
    return hyp, refs


def read_lines(path: str) -> list[str]:
    """The lines of a text file written by :func:`write_corpus` (without the final newline)."""
    with open(
        path, encoding="utf-8", newline="\n"
    ) as fh:  # line by line: no copy of the whole file
        return [line[:-1] if line.endswith("\n") else line for line in fh]


def make_systems(
    n_segments: int, n_systems: int, n_refs: int = 1, seed: int = 0
) -> tuple[dict[int, list[str]], list[list[str]], list[float]]:
    """``n_systems`` outputs of the same segments: ``({k: hypotheses}, references, edit rates)``.

    Every system perturbs the same hidden sentences, system ``k`` with a substitution rate rising with
    ``k`` (0.10 to 0.45), so BLEU falls with ``k`` and a human score drawn from the edit rate tracks it.

    >>> systems, refs, rates = make_systems(4, 3, seed=2)
    >>> len(systems), len(systems[0]), len(refs[0]), rates[0] < rates[2]
    (3, 4, 4, True)
    """
    rng = np.random.default_rng(seed)
    base = _sample_sentences(n_segments, rng)
    refs = [_to_lines(_perturb(base, rng, 0.12, 0.03, 0.03)) for _ in range(n_refs)]
    rates = [0.10 + 0.35 * k / max(1, n_systems - 1) for k in range(n_systems)]
    systems = {k: _to_lines(_perturb(base, rng, rate, 0.05, 0.05)) for k, rate in enumerate(rates)}
    return systems, refs, rates


def write_study_folder(
    directory: str,
    n_systems: int = 50,
    n_segments: int = 10_000,
    n_refs: int = 2,
    *,
    seed: int = 14,
    doc_size: int = 20,
    n_raters: int = 10,
) -> list[str]:
    """Write a plain-text study folder (docs/formats.md §1) for app benchmarks; return the system names.

    ``references/ref-A.txt`` …, ``systems/sys-00.txt`` …, ``segments.tsv`` (documents of ``doc_size``
    segments) and ``ratings.csv``: a DA-like ``da`` score (0-100) for every system on every segment, from one
    of ``n_raters`` raters per document (a rater rates every system of a document, as in WMT's DA), drawn
    from the system's edit rate plus noise, so human scores track BLEU as they do in real data.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     names = write_study_folder(tmp, n_systems=3, n_segments=4, seed=1)
    ...     sorted(os.listdir(tmp)), names
    (['ratings.csv', 'references', 'segments.tsv', 'systems'], ['sys-00', 'sys-01', 'sys-02'])
    """
    systems, refs, rates = make_systems(n_segments, n_systems, n_refs=n_refs, seed=seed)
    names = [f"sys-{k:02d}" for k in range(n_systems)]
    for sub in ("references", "systems"):
        os.makedirs(os.path.join(directory, sub), exist_ok=True)
    for r, stream in enumerate(refs):
        with open(os.path.join(directory, "references", f"ref-{'ABCDEFGH'[r]}.txt"), "w") as fh:
            fh.write("\n".join(line or "." for line in stream) + "\n")  # no blank lines
    for k, name in enumerate(names):
        with open(os.path.join(directory, "systems", f"{name}.txt"), "w", encoding="utf-8") as fh:
            fh.write("\n".join(line or "." for line in systems[k]) + "\n")
    docs = np.arange(n_segments) // doc_size
    with open(os.path.join(directory, "segments.tsv"), "w", encoding="utf-8") as fh:
        fh.write("segment_id\tdoc_id\n")
        fh.writelines(f"s{i + 1}\td{docs[i] + 1}\n" for i in range(n_segments))
    rng = np.random.default_rng(seed + 1)
    raters = docs % n_raters
    with open(os.path.join(directory, "ratings.csv"), "w", encoding="utf-8") as fh:
        fh.write("system,segment_id,rater,criterion,score\n")
        for k, name in enumerate(names):
            scores = np.clip(95 - 120 * rates[k] + rng.normal(0, 15, n_segments), 0, 100).round(1)
            fh.writelines(
                f"{name},s{i + 1},r{raters[i] + 1},da,{scores[i]}\n" for i in range(n_segments)
            )
    return names
