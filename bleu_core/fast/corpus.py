"""Corpus statistics end to end: batched tokenisation and vectorised counting, chunk by chunk.

:func:`corpus_statistics` is what :func:`bleu_core.engine.statistics.compute_statistics` runs. It walks the corpus in
chunks of segments; for each chunk it tokenises the hypotheses and every reference stream with one
:class:`~bleu_core.fast.batch_tokenizers.BatchTokenizer` (so equal tokens get equal ids), and counts with
:func:`~bleu_core.fast.counting.rows_from_ids`. Only the output array (8 bytes × (4 + 2N) per segment) grows with
the corpus; everything else is freed after each chunk.

>>> array, n_refs = corpus_statistics(["the cat sat"], [["the cat sat down"]], max_order=2)
>>> array.tolist(), n_refs
([[3.0, 4.0, 4.0, 4.0, 3.0, 2.0, 3.0, 2.0]], 1)
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Sequence
from functools import partial
from typing import cast

import numpy as np

from ..tokenize.line_tokenizers import LineTokenizer
from .batch_tokenizers import BatchTokenizer
from .compiled import use_compiled
from .counting import CHUNK_POSITIONS, rows_from_ids
from .segment_counts import segment_row

#: Characters per token position assumed when sizing chunks: English text averages 5-6 characters a token;
#: ``char`` (and ``zh`` on Chinese) makes about one token per character.
_CHARS_PER_POSITION = {"char": 1.0, "zh": 1.0}
_DEFAULT_CHARS_PER_POSITION = 5.0


def _mean_chars(hypotheses: Sequence[str]) -> float:
    sample = hypotheses[: min(len(hypotheses), 2000)]
    return sum(len(h) for h in sample if isinstance(h, str)) / max(len(sample), 1)


def _chunk_size(hypotheses: Sequence[str], n_streams: int, tokenize: str) -> int:
    """Segments per chunk so that a chunk holds roughly :data:`CHUNK_POSITIONS` token positions."""
    chars = _mean_chars(hypotheses)
    per_position = _CHARS_PER_POSITION.get(tokenize, _DEFAULT_CHARS_PER_POSITION)
    positions_per_segment = max(chars / per_position, 1.0) * n_streams
    return max(64, int(CHUNK_POSITIONS / positions_per_segment))


#: Up to this many segments, the per-line reference path is faster than setting up the batched one (a single
#: ``sentence_bleu`` call, for instance).
SMALL_CORPUS = 4


def _small_corpus(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str | None]],
    max_order: int,
    tokenize: str,
    lowercase: bool,
) -> tuple[np.ndarray, int]:
    tokenizer = LineTokenizer(tokenize, lowercase)
    rows, ref_counts = [], set()
    for i, hypothesis in enumerate(hypotheses):
        refs = [tokenizer(ref) for stream in references if (ref := stream[i]) is not None]
        ref_counts.add(len(refs))
        rows.append(segment_row(tokenizer(hypothesis), refs, max_order))
    array = np.array(rows, dtype=np.float64).reshape(len(rows), 4 + 2 * max_order)
    return array, ref_counts.pop() if len(ref_counts) == 1 else -1


def _encode_chunk(
    tokenizer: BatchTokenizer,
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str | None]],
    start: int,
    end: int,
) -> tuple[list[np.ndarray], list[np.ndarray], list[np.ndarray]]:
    """Token ids and line lengths of segments ``start:end``, hypotheses first, then each reference stream; and
    which references are present. One tokenizer call: the distinct words they share are looked up once."""
    n = end - start
    lines = list(hypotheses[start:end])
    ref_present = []
    for stream in references:
        part = stream[start:end]
        present = np.fromiter((r is not None for r in part), bool, len(part))
        lines.extend(
            cast("Sequence[str]", part)
            if present.all()
            else [r if r is not None else "" for r in part]
        )
        ref_present.append(present)
    encoded = tokenizer.encode(lines)
    line_ends = np.cumsum(encoded.lengths)
    bounds = [0, *(int(line_ends[k * n - 1]) for k in range(1, len(references) + 2))]
    ids = [encoded.ids[a:b] for a, b in zip(bounds[:-1], bounds[1:], strict=True)]
    lengths = [encoded.lengths[k * n : (k + 1) * n] for k in range(len(references) + 1)]
    return ids, lengths, ref_present


class _Worker:
    """One background thread running one job; :meth:`result` waits for it and re-raises its exception.

    (A thread per chunk rather than ``concurrent.futures``, whose import, with ``logging``, costs more start-up
    time than all the threads of a corpus.)
    """

    def __init__(self, job: Callable[[], None]) -> None:
        self._error: BaseException | None = None

        def run() -> None:
            try:
                job()
            except BaseException as exc:  # handed to the main thread by result()
                self._error = exc

        self._thread = threading.Thread(target=run, name="bleu-core-counting", daemon=True)
        self._thread.start()

    def result(self) -> None:
        self._thread.join()
        if self._error is not None:
            raise self._error


def _count_chunk(
    out: np.ndarray,
    start: int,
    end: int,
    ids: list[np.ndarray],
    lengths: list[np.ndarray],
    ref_present: list[np.ndarray],
    max_order: int,
) -> None:
    out[start:end] = rows_from_ids(ids[0], lengths[0], ids[1:], lengths[1:], ref_present, max_order)


def corpus_statistics(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str | None]],
    *,
    max_order: int = 4,
    tokenize: str = "13a",
    lowercase: bool = False,
    chunk_segments: int | None = None,
) -> tuple[np.ndarray, int]:
    """Statistics rows of a corpus and its number of references (``-1`` if it varies from segment to segment).

    ``references`` are reference streams (``references[k][i]`` is reference ``k`` of segment ``i``; ``None`` marks
    a missing one). Inputs are assumed validated (see :func:`bleu_core.engine.statistics.check_corpus`).
    """
    n_segments = len(hypotheses)
    if n_segments <= SMALL_CORPUS:
        return _small_corpus(hypotheses, references, max_order, tokenize, lowercase)
    tokenizer = BatchTokenizer(tokenize, lowercase)
    compiled = use_compiled()
    step = chunk_segments or _chunk_size(hypotheses, len(references) + 1, tokenize)
    out = np.empty((n_segments, 4 + 2 * max_order), dtype=np.float64)
    ref_counts: set[int] = set()
    # With the compiled kernels (which release the GIL), chunk i is counted in a second thread while chunk
    # i + 1 is tokenised; at most one chunk waits to be counted, so memory stays bounded.
    pipelined = compiled and n_segments > step and (os.cpu_count() or 1) > 1
    counting: _Worker | None = None
    try:
        for start in range(0, n_segments, step):
            end = min(n_segments, start + step)
            ids, lengths, ref_present = _encode_chunk(tokenizer, hypotheses, references, start, end)
            if ref_present:
                # (bincount, not np.unique: numpy 2's unique imports numpy.ma, 30-200 ms per process)
                per_segment = np.sum(ref_present, axis=0)
                ref_counts.update(np.flatnonzero(np.bincount(per_segment)).tolist())
            else:
                ref_counts.add(0)
            args = (out, start, end, ids, lengths, ref_present, max_order)
            if not pipelined:
                _count_chunk(*args)
                continue
            if counting is not None:
                counting.result()
            counting = _Worker(partial(_count_chunk, *args))
        if counting is not None:
            counting.result()
            counting = None
    finally:
        if (
            counting is not None
        ):  # an error while tokenising: let the last chunk's count finish first
            counting._thread.join()
    n_refs = ref_counts.pop() if len(ref_counts) == 1 else -1
    return out, n_refs
