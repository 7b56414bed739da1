"""The metric rankings of ``python -m bleu_core meta``: every metric × statistic, ranked, clustered.

:func:`meta_rankings` scores the study's systems with the computed metrics and every metric attached to
the study (``--metric-scores``: scored elsewhere), then ranks them by each statistic for each human
criterion (:func:`bleu_core.evaluation.clusters.study_rankings`); :func:`format_rankings` prints the
tables as the WMT findings do: best first, with the cluster rank and the statistic's bootstrap
confidence interval, ``0.812 [0.790, 0.835]``.

TER is slow (sacrebleu's phrase shifts in pure Python: about an hour of CPU for WMT21 zh-en), so
``meta`` keeps its per-segment statistics in a cache directory (default
:data:`bleu_core.metrics.ter.DEFAULT_TER_CACHE`, ``--ter-cache DIR``, ``--no-ter-cache``) and
reports its progress on stderr (:func:`stderr_progress`) when it has to compute.
"""

from __future__ import annotations

import math
import re
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, TextIO

from ..evaluation.ceiling_flags import FLAG_RULE, ceiling_line, chance_of
from ..evaluation.clusters import DEFAULT_STATISTICS, STATISTICS, MetricRanking, study_rankings
from ..evaluation.errors import StatsInputError
from ..evaluation.statistic_names import ALIASES, statistic_identifier, statistic_name
from ..evaluation.system_sets import SystemSet, common_systems

if TYPE_CHECKING:
    from bleu_core.metrics.study_scores import MetricTable
    from bleu_core.study.model import Study

DEFAULT_COMPUTED = ("BLEU", "chrF")


def parse_statistics(value: str | None) -> list[str]:
    """``--statistics`` names (comma-separated; ``none`` = no rankings), validated, as identifiers: a shown
    name or an older spelling (``acc23``, ``acc*_eq``, ``SPA``, ``tau-like``...) is read as the
    identifier it means (:mod:`bleu_core.evaluation.statistic_names`).

    >>> parse_statistics("pairwise-accuracy, acc23, SPA")
    ['pairwise-accuracy', 'acc-eq', 'soft-pairwise-accuracy']
    """
    if value is None:
        return list(DEFAULT_STATISTICS)
    names = [v.strip() for v in value.split(",") if v.strip()]
    if names == ["none"]:
        return []
    known = {n: statistic_identifier(n) for n in names if _names_statistic(n)}
    unknown = [n for n in names if n not in known]
    if unknown:
        raise StatsInputError(
            f"unknown statistic(s) {', '.join(map(repr, unknown))}; choose from: "
            f"{', '.join(STATISTICS)} (or none; also accepted: {', '.join(ALIASES)})"
        )
    return [known[n] for n in names]


def _names_statistic(text: str) -> bool:
    try:
        return statistic_identifier(text) in STATISTICS
    except StatsInputError:
        return False


def meta_rankings(
    study: Study,
    systems: Sequence[str],
    *,
    metrics: Sequence[str] = DEFAULT_COMPUTED,
    statistics: Sequence[str] = DEFAULT_STATISTICS,
    criteria: Sequence[str] | None = None,
    tokenize: str = "13a",
    lowercase: bool = False,
    n_resamples: int = 1000,
    alpha: float = 0.05,
    seed: int | None = None,
    confidence: float = 0.95,
    ter_cache_dir: Any = None,
    progress: Callable[[int, int, str], None] | None = None,
    chosen: list[SystemSet] | None = None,
    tables: Mapping[str, MetricTable] | None = None,
) -> list[MetricRanking]:
    """Rankings of every metric (computed ``metrics`` and the study's attached ones).

    Every metric is ranked on one set of systems: those of ``systems`` that every metric scores
    (:func:`~bleu_core.evaluation.system_sets.common_systems`); the set, with the systems left out and
    why, is appended to ``chosen`` when given.

    ``ter_cache_dir`` keeps TER's per-segment statistics on disk (``None``: nothing kept);
    ``progress(done, total, message)`` hears TER's progress. ``tables``: the scores of ``metrics``
    and the attached ones on ``systems`` when the caller has them already (``study_metric_scores``),
    so that they are computed once.
    """
    from ..maths.resampling import DEFAULT_SEED
    from ..metrics.study_scores import study_metric_scores

    if not statistics:
        return []

    def score(names: Sequence[str]) -> dict[str, Any]:
        return study_metric_scores(
            study,
            list(metrics),
            systems=names,
            tokenize=tokenize,
            lowercase=lowercase,
            ter_cache_dir=ter_cache_dir,
            progress=progress,
        )

    tables = dict(tables) if tables is not None else score(systems)
    found = common_systems(
        {name: t.system_scores() for name, t in tables.items()},
        systems,
        human=study.human_systems,
    )
    if not study.human_systems & set(systems):  # the human translations were not asked for
        found = replace(found, human_included=False if study.human_systems else None)
    if found.systems != tuple(systems):
        tables = score(found.systems)
    if chosen is not None:
        chosen.append(found)
    return study_rankings(
        study,
        tables,
        criteria=criteria,
        statistics=statistics,
        n_resamples=n_resamples,
        alpha=alpha,
        seed=DEFAULT_SEED if seed is None else seed,
        confidence=confidence,
    )


_TO_SCORE = re.compile(r"(\d+) to score")


def stderr_progress(
    stream: TextIO | None = None, every: float = 10.0, clock: Callable[[], float] = time.monotonic
) -> Callable[[int, int, str], None]:
    """A ``progress(done, total, message)`` callback for TER that writes to stderr only when TER has
    to compute: silent while systems come from the cache, then one line every ``every`` seconds and
    one at the end.

    >>> import io
    >>> out = io.StringIO()
    >>> p = stderr_progress(out, every=0.0)
    >>> p(10, 20, "TER: 1 systems from the cache, 0 to score")
    >>> out.getvalue()
    ''
    >>> p = stderr_progress(out, every=0.0)
    >>> p(0, 20, "TER: 0 systems from the cache, 2 to score"); p(20, 20, "TER: 20 of 20 segments")
    >>> print(out.getvalue().strip())
    bleu-study: TER: 0 systems from the cache, 2 to score (computing; cached for next time)
    bleu-study: TER: 20 of 20 segments (0 s)
    """
    start = clock()
    state = {"on": False, "last": -math.inf}

    def progress(done: int, total: int, message: str) -> None:
        out = sys.stderr if stream is None else stream
        found = _TO_SCORE.search(message)
        if found:  # the summary after the cache was read: is there work to do?
            state["on"] = int(found[1]) > 0
            if state["on"]:
                print(f"bleu-study: {message} (computing; cached for next time)", file=out)
                state["last"] = clock()
            return
        now = clock()
        if state["on"] and (now - state["last"] >= every or done >= total):
            print(f"bleu-study: {message} ({now - start:.0f} s)", file=out, flush=True)
            state["last"] = now

    return progress


def value_with_interval(value: float | None, ci: tuple[float, float] | None) -> str:
    """``0.812 [0.790, 0.835]`` (``n/a`` for an undefined value; no brackets without an interval).

    >>> value_with_interval(0.8123, (0.79, 0.835)), value_with_interval(0.5, None)
    ('0.812 [0.790, 0.835]', '0.500')
    """
    if value is None or math.isnan(value):
        return "n/a"
    if ci is None:
        return f"{value:.3f}"
    return f"{value:.3f} [{ci[0]:.3f}, {ci[1]:.3f}]"


def chance_cell(line: dict[str, Any] | None) -> str:
    """A metric's chance line as a table cell: the random metric's mean and range, the constant's.

    >>> chance_cell({"random": 0.5012, "random_range": [0.31, 0.69], "constant": 0.0})
    '0.501 [0.310, 0.690] / 0.000'
    >>> chance_cell({"random": 0.1, "random_range": [0.0, 0.2], "constant": None})
    '0.100 [0.000, 0.200] / n/a'
    """
    if not line:
        return ""
    low, high = line["random_range"]
    random = value_with_interval(
        math.nan if line["random"] is None else line["random"],
        None if low is None else (low, high),
    )
    constant = line["constant"]
    return f"{random} / {value_with_interval(math.nan if constant is None else constant, None)}"


def chance_note(rows: Sequence[Any]) -> str:
    """How the chance column of ``meta``'s correlation rows (``MetaRow``) was drawn, one line.

    >>> class R: chance = {"n_permutations": 20, "grouping": "all scored translations", "seed": 7}
    >>> print(chance_note([R()]))
    chance: a random metric is BLEU's own scores permuted (20 permutations within all scored translations), seed 7; a constant metric gives every translation the same score (a correlation is undefined for it: n/a; WMT's tau-like counts its every pair discordant: -1)
    """
    lines = [r.chance for r in rows if getattr(r, "chance", None)]
    if not lines:
        return ""
    how = dict.fromkeys(f"{c['n_permutations']} permutations within {c['grouping']}" for c in lines)
    return (
        f"chance: a random metric is BLEU's own scores permuted ({'; '.join(how)}), seed "
        f"{lines[0]['seed']}; a constant metric gives every translation the same score (a "
        "correlation is undefined for it: n/a; WMT's tau-like counts its every pair discordant: -1)"
    )


def chance_header(chance: dict[str, dict[str, Any]]) -> str:
    """How the chance lines of a ranking were drawn, for its header line (empty without them)."""
    first = next(iter(chance.values()), None)
    if first is None:
        return ""
    return (
        f"; chance line: the metric's scores permuted within {first['grouping']} "
        f"({first['n_permutations']} permutations, seed {first['seed']}) and a constant metric"
    )


def format_rankings(rankings: Sequence[MetricRanking]) -> str:
    """Text tables: one per criterion × statistic, best metric first, with its cluster rank."""
    blocks = []
    for r in rankings:
        name = statistic_name(r.statistic)
        head = (
            f"{name} ({r.level} level) against {r.criterion}: {r.describe_systems()}; "
            f"clusters: {r.test}, {r.n_resamples} resamples, alpha {r.alpha}, seed {r.seed}"
            + (f"; {r.confidence:.0%} CI: {r.interval}" if r.interval else "")
        )
        value = f"{name} [{r.confidence:.0%} CI]" if r.interval else name
        if r.extra.get("tau_like"):  # kendall-wmt: which pairs were counted, and why
            head += f"; {r.extra['tau_like']['said']}"
        chance = r.extra.get("chance", {})
        head += chance_header(chance)
        chance_column = ["random [95%] / constant"] if chance else []
        rows = [["rank", "metric", value, *chance_column, "tie threshold", "pairs", "kind", "note"]]
        for m in r.rows:
            rows.append(
                [
                    "-" if m.rank is None else str(m.rank),
                    m.metric,
                    value_with_interval(m.statistic, m.confidence_interval),
                    *([chance_cell(chance.get(m.metric))] if chance else []),
                    "" if m.threshold is None else f"{m.threshold:.4g}",
                    str(m.n),
                    m.kind,
                    m.note,
                ]
            )
        widths = [max(len(row[j]) for row in rows) for j in range(len(rows[0]))]
        table = "\n".join(
            "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip() for row in rows
        )
        ceiling = r.extra.get("ceiling")
        if ceiling:  # with its interval, its n and why to read it with care
            table += f"\nhuman ceiling: {ceiling_line(ceiling, chance_of(chance))}"
        blocks.append(head + "\n" + table + (f"\n{r.note}" if r.note else ""))
    if any(r.extra.get("ceiling") for r in rankings):  # the flags' thresholds, said once
        blocks.append(FLAG_RULE[0].upper() + FLAG_RULE[1:] + ".")
    return "\n\n".join(blocks)


def print_latex(rankings: Sequence[MetricRanking], study: str) -> int:
    """``meta PATH --latex``: the study's rankings as one LaTeX table in the findings' layout
    (:func:`bleu_core.evaluation.ranking_latex.findings_latex`, the Metric ranking page's table)."""
    from ..evaluation.ranking_latex import findings_latex

    if not rankings:
        raise StatsInputError("--latex prints the rankings: give --statistics (not none)")
    print(findings_latex(rankings, caption=f"Metrics ranked against human judgment ({study})"))
    return 0
