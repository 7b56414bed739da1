"""TER (sacrebleu's Tercom reimplementation) for every system of a study, computed once and kept on disk.

TER is slow — a beam edit distance with phrase shifts, in pure Python, for every segment and reference — so it
is computed at most once per (system output, references, options): :func:`ter_statistics_table` stores each
system's per-segment statistics in a cache directory (default ``~/.cache/bleu-study/ter/``) under a hash of
exactly those inputs, written atomically (a temporary file renamed into place), so a second call, another
session or a restart reads the file instead of recomputing. A ``progress(done, total, message)`` callback
reports the work, for a background thread to show.

The per-segment statistics are sacrebleu's ``[edits with the best reference, average reference length]``;
they add up, so the corpus TER, sentence TER and resampled TER are :func:`ter_from_stats` of sums of rows.

>>> table = ter_statistics_table({"S": ["the cat sat", "a dog"]}, {"ref": ["the cat sat down", "a dog"]})
>>> table.stats[0].tolist()         # 1 edit (insert "down") against 4 words; 0 against 2
[[1.0, 4.0], [0.0, 2.0]]
>>> round(float(table.corpus()[0]), 2)    # sacrebleu.corpus_ter(...).score: 100 * 1 / 6
16.67
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from bleu_core.errors import BleuOptionError
from bleu_core.metrics.base import MetricSpec, MetricStatistics, ScoringContext
from bleu_core.metrics.per import per_from_stats

Progress = Callable[[int, int, str], None]

DEFAULT_TER_CACHE = Path("~/.cache/bleu-study/ter")
"""Where :func:`ter_statistics_table` keeps its results unless told otherwise (``~`` is expanded)."""

_FORMAT = "ter-stats-v1"  # bump when the file layout or the statistics change


@dataclass(frozen=True)
class TerOptions:
    """sacrebleu's ``TER`` parameters, same names and defaults (so ``case_sensitive=False``: lowercased)."""

    normalized: bool = False
    no_punct: bool = False
    asian_support: bool = False
    case_sensitive: bool = False

    def key(self) -> tuple[object, ...]:
        """Everything the statistics depend on besides the texts (sacrebleu's version included)."""
        import sacrebleu

        return ("TER", self.normalized, self.no_punct, self.asian_support, self.case_sensitive,
                sacrebleu.__version__)  # fmt: skip

    def metric(self) -> object:
        """The sacrebleu ``TER`` object with these options."""
        from sacrebleu.metrics import TER

        return TER(
            normalized=self.normalized,
            no_punct=self.no_punct,
            asian_support=self.asian_support,
            case_sensitive=self.case_sensitive,
        )


def ter_from_stats(stats: np.ndarray) -> np.ndarray:
    """TER (x100) of rows ``[edits, reference length]`` of any leading shape — sacrebleu's
    ``TER._compute_score_from_stats``: an empty reference scores 100 if the hypothesis needs edits, else 0.

    >>> ter_from_stats(np.array([[1.0, 4.0], [2.0, 0.0], [0.0, 0.0]])).tolist()
    [25.0, 100.0, 0.0]
    """
    return 100 * per_from_stats(stats)  # the same pooled rate and empty-reference rule as PER


@dataclass(frozen=True, eq=False)
class TerTable:
    """TER statistics of ``K`` systems on ``S`` segments: ``stats`` is ``(K, S, 2)`` (zeros where a system
    has no output or the segment no reference, where ``scored`` is False); ``from_cache`` names the systems
    read from the disk cache."""

    names: tuple[str, ...]
    stats: np.ndarray
    scored: np.ndarray
    options: TerOptions
    from_cache: tuple[str, ...] = ()

    def corpus(self) -> np.ndarray:
        """Corpus TER of every system (``K``)."""
        return ter_from_stats(self.stats.sum(axis=1))

    def sentence(self) -> np.ndarray:
        """Sentence TER (``K × S``), NaN where not scored."""
        return np.where(self.scored, ter_from_stats(self.stats), np.nan)


def _digest(parts: Sequence[object]) -> str:
    h = hashlib.sha256()
    for part in parts:
        if isinstance(part, (list, tuple)) and all(t is None or isinstance(t, str) for t in part):
            h.update(b"[%d]" % len(part))
            for t in part:
                h.update(b"\x00N" if t is None else b"\x00S" + t.encode("utf-8", "surrogatepass"))
        else:
            h.update(repr(part).encode())
        h.update(b"\x01")
    return h.hexdigest()


def ter_cache_key(
    hypotheses: Sequence[str | None],
    references: Sequence[Sequence[str | None]],
    options: TerOptions | None = None,
) -> str:
    """The hash one system's TER statistics are stored under: its texts, the reference streams' texts (in
    order) and the options — nothing else (names do not matter).

    >>> a = ter_cache_key(["a b"], [["a c"]])
    >>> a == ter_cache_key(["a b"], [["a c"]]), a == ter_cache_key(["a b"], [["a c"]], TerOptions(no_punct=True))
    (True, False)
    """
    options = options or TerOptions()
    return _digest([_FORMAT, options.key(), list(hypotheses), *[list(r) for r in references]])


def _read(path: Path, n: int) -> np.ndarray | None:
    try:
        with np.load(path, allow_pickle=False) as data:
            stats = np.asarray(data["stats"], dtype=np.float64)
    except (OSError, ValueError, KeyError):
        return None  # missing or unreadable (a half-written file never has this name): recompute
    return stats if stats.shape == (n, 3) else None


def _write(path: Path, stats: np.ndarray) -> None:
    """Write atomically: a temporary file in the same directory, renamed over the final name."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".npz")
    try:
        with os.fdopen(fd, "wb") as fh:
            np.savez(fh, stats=stats)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _segment_rows(
    hypotheses: Sequence[str | None], references: Sequence[Sequence[str | None]], options: TerOptions,
    tick: Callable[[int], None],
) -> np.ndarray:  # fmt: skip
    """``(S, 3)``: edits, average reference length, scored (0/1) — sacrebleu's per-segment statistics."""
    metric = options.metric()
    n = len(hypotheses)
    out = np.zeros((n, 3))
    usable = [
        i
        for i in range(n)
        if hypotheses[i] is not None and any(r[i] is not None for r in references)
    ]
    cache = metric._cache_references([[r[i] for i in usable] for r in references])  # type: ignore[attr-defined]
    for j, (i, ref_info) in enumerate(zip(usable, cache, strict=True)):
        hyp = metric._preprocess_segment(hypotheses[i])  # type: ignore[attr-defined]
        edits, ref_len = metric._compute_segment_statistics(hyp, ref_info)  # type: ignore[attr-defined]
        out[i] = (edits, ref_len, 1.0)
        if (j + 1) % 100 == 0:
            tick(100)
    tick(len(usable) % 100)
    return out


def _work(args: tuple) -> np.ndarray:  # a process pool's unit of work: one system
    hyps, refs, options = args
    return _segment_rows(hyps, refs, options, lambda _: None)


def ter_statistics_table(
    systems: Mapping[str, Sequence[str | None]],
    references: Mapping[str, Sequence[str | None]],
    options: TerOptions | None = None,
    *,
    cache_dir: str | os.PathLike[str] | None = None,
    progress: Progress | None = None,
    processes: int = 1,
) -> TerTable:
    """sacrebleu's TER statistics of every system, each read from ``cache_dir`` when it was computed before.

    ``systems`` and ``references`` map names to streams of the same length (``None`` = missing). A system
    that is also a reference stream (same name) is scored without its own stream. ``cache_dir=None`` keeps
    nothing on disk; pass :data:`DEFAULT_TER_CACHE` (or any directory) to share results across calls,
    sessions and restarts. ``progress(done, total, message)`` counts segments. ``processes > 1`` scores
    systems in a process pool. It does not pay on the 2-core development machine: WMT21 zh-en, 4 systems ×
    300 segments took 95 s in one process and 135 s with two (machine shared, load 6-8), so the default is 1.
    """
    options = options or TerOptions()
    names = tuple(systems)
    n = _segment_count(systems, references)
    folder = None if cache_dir is None else Path(cache_dir).expanduser()
    tally = _Tally(n * len(names), progress)
    rows: dict[str, np.ndarray] = {}
    cached: list[str] = []
    todo: list[_Job] = []
    for name in names:
        refs = [list(stream) for r, stream in references.items() if r != name]
        hyps = list(systems[name])
        path = None if folder is None else folder / f"{ter_cache_key(hyps, refs, options)}.npz"
        got = None if path is None or not refs else _read(path, n)
        if got is not None:
            rows[name] = got
            cached.append(name)
        elif not refs:  # nothing to score against
            rows[name] = np.zeros((n, 3))
        else:
            todo.append(_Job(name, hyps, refs, path))
            continue
        tally(n)
    tally.say(f"TER: {len(cached)} systems from the cache, {len(todo)} to score")
    rows.update(_score_jobs(todo, options, processes, n, tally))
    stacked = np.stack([rows[name] for name in names]) if names else np.zeros((0, n, 3))
    return TerTable(names, stacked[..., :2], stacked[..., 2] > 0, options, tuple(cached))


def _segment_count(
    systems: Mapping[str, Sequence[str | None]], references: Mapping[str, Sequence[str | None]]
) -> int:
    """The number of segments, after checking that every stream has it."""
    if not references:
        raise BleuOptionError("TER needs at least one reference stream")
    n = len(next(iter(references.values())))
    for what, streams in (("reference", references), ("system", systems)):
        for name, stream in streams.items():
            if len(stream) != n:
                raise BleuOptionError(
                    f"TER: {what} {name!r} has {len(stream)} segments, the references have {n}"
                )
    return n


class _Tally:
    """Segments done out of ``total``, each step reported as ``progress(done, total, message)``."""

    def __init__(self, total: int, progress: Progress | None) -> None:
        self.done, self.total, self.progress = 0, total, progress

    def __call__(self, k: int) -> None:
        self.done += k
        if k:
            self.say(f"TER: {self.done} of {self.total} segments")

    def say(self, message: str) -> None:
        if self.progress is not None:
            self.progress(self.done, self.total, message)


@dataclass(frozen=True)
class _Job:
    """One system to score: its texts, the reference streams it is scored against, where to store it."""

    name: str
    hyps: list[str | None]
    refs: list[list[str | None]]
    path: Path | None


def _score_jobs(
    todo: list[_Job], options: TerOptions, processes: int, n: int, tally: _Tally
) -> dict[str, np.ndarray]:
    """Score every job (in a process pool when ``processes > 1``), storing each result at its path."""
    rows: dict[str, np.ndarray] = {}
    if processes > 1 and len(todo) > 1:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(max_workers=processes) as pool:
            results = pool.map(_work, [(job.hyps, job.refs, options) for job in todo])
            for job, got in zip(todo, results, strict=True):
                rows[job.name] = got
                if job.path is not None:
                    _write(job.path, got)
                tally(n)
        return rows
    for job in todo:
        start = tally.done
        rows[job.name] = got = _segment_rows(job.hyps, job.refs, options, tally)
        if job.path is not None:
            _write(job.path, got)
        tally(start + n - tally.done)  # skipped segments count as done
    return rows


def _registry_statistics(ctx: ScoringContext, spec: MetricSpec) -> MetricStatistics:
    """Every system's TER statistics, read from ``ctx.ter_cache_dir`` when they were computed before."""
    table = ter_statistics_table(
        {s: ctx.study.systems[s] for s in ctx.systems},
        ctx.study.references,
        TerOptions(case_sensitive=not ctx.lowercase),
        cache_dir=ctx.ter_cache_dir,
        progress=ctx.progress,
    )
    return MetricStatistics(table.stats, table.sentence())


def _registry_from_stats(
    ctx: ScoringContext, spec: MetricSpec
) -> Callable[[np.ndarray], np.ndarray]:
    return ter_from_stats


#: The registry's TER: sacrebleu's defaults, case from the study's settings, no word tokenizer.
TER = MetricSpec(
    "TER",
    False,
    "edits incl. phrase shifts per reference word, x100 (sacrebleu)",
    "ter",
    _registry_statistics,
    _registry_from_stats,
    depends_on=("lowercase",),
)
