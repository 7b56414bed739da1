"""What a user waits for, measured honestly: whole-process commands, interleaved, on a quiet machine.

Each figure is the wall time of a fresh process from start to exit (``python -m bleu_core score …`` beside
``python -m sacrebleu …`` and a 5-line bleuscore script), the commands run **in turn** (A B C A B C …) so that a
change of machine load hits them alike, after one untimed warm-up run each (hyperfine's ``--warmup 1``:
``.pyc`` written, files in the page cache). Reported: median and min-max over ``--runs`` runs, the ratio of the
medians, and the machine's load average before and after.

**Quiet machine or no figures.** A competitor running on one core waits longer for it than a two-thread
program does when other jobs load the machine, so ratios measured under load are inflated. The script reads
the 1-minute load average before and after; above the number of cores it refuses to run (exit 3), or, with
``--allow-load``, runs and marks every row "LOADED: not a figure to quote".

The inputs are the synthetic corpora of ``bench_bleu.py`` (a Markov chain trained on the TED/WMT21 English of
``../shared/data``, references and hypotheses as edited copies of hidden sentences; BLEU ≈ 35 with one
reference), written once to ``$BLEU_STUDY_BENCH_CACHE`` (default ``/tmp/bleu-study-bench``). Every pair of
commands must agree on the score (checked).

The public equivalent of one row, with hyperfine (Debian package ``hyperfine``; it runs each command's runs
in a block, not interleaved, so run it on a quiet machine)::

    hyperfine -N --warmup 1 --runs 7 \\
        'python -m bleu_core score -r ref0.txt -i hyp0.txt' \\
        'python -m sacrebleu ref0.txt -i hyp0.txt -b -w 4'

Usage::

    python benchmarks/bench_commands.py                 # every row, 7 runs each, writes nothing
    python benchmarks/bench_commands.py --runs 5 --markdown benchmarks/RESULTS-commands.md
    python benchmarks/bench_commands.py --only score-3k  # one row
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

from bench_bleu import BLEUSCORE_SCRIPT, USER_ENV, cli_corpus_dir  # noqa: E402

QUIET, BUSY = 0, 3  # exit codes: figures taken / machine too busy to take them


@dataclass
class Row:
    """One comparison: named commands run in turn; ``ours`` is the first."""

    key: str
    what: str
    commands: dict[str, list[str]]
    check: str = "score"  # how the outputs must agree
    walls: dict[str, list[float]] = field(default_factory=dict)
    outputs: dict[str, str] = field(default_factory=dict)


def load_average() -> float:
    return os.getloadavg()[0]


def rows(selected: set[str] | None, seed: int) -> list[Row]:
    py = sys.executable
    out: list[Row] = []
    for key, n in [("score-3k", 3_000), ("score-50k", 50_000)]:
        if selected and key not in selected:
            continue
        d = cli_corpus_dir(n, 1, 1, seed)
        ref, hyp = os.path.join(d, "ref0.txt"), os.path.join(d, "hyp0.txt")
        commands = {
            "bleu-study": [py, "-m", "bleu_core", "score", "-r", ref, "-i", hyp],
            "sacrebleu CLI": [py, "-m", "sacrebleu", ref, "-i", hyp, "-b", "-w", "4"],
        }
        if n >= 50_000:
            commands["bleuscore script"] = [py, "-c", BLEUSCORE_SCRIPT, hyp, ref]
        out.append(Row(key, f"`score`, {n:,} segments × 1 reference (13a)", commands))
    if not selected or "significance" in selected:
        d = cli_corpus_dir(3_000, 1, 10, seed)
        hyps = [os.path.join(d, f"hyp{j}.txt") for j in range(10)]
        ref = os.path.join(d, "ref0.txt")
        out.append(
            Row(
                "significance",
                "`significance`, 10 systems × 3,000 segments, 1,000 resamples (paired bootstrap)",
                {
                    "bleu-study": [
                        py,
                        "-m",
                        "bleu_core",
                        "significance",
                        "-r",
                        ref,
                        "-i",
                        *hyps,
                        "--baseline",
                        "first",
                        "--n-resamples",
                        "1000",
                        "--test",
                        "bs",
                    ],
                    "sacrebleu CLI": [
                        py,
                        "-m",
                        "sacrebleu",
                        ref,
                        "-i",
                        *hyps,
                        "--paired-bs",
                        "--paired-bs-n",
                        "1000",
                    ],
                },  # fmt: skip
                check="none",
            )
        )
    return out


def run_once(command: list[str]) -> tuple[float, str]:
    start = time.perf_counter()
    proc = subprocess.run(command, capture_output=True, text=True, check=False, env=USER_ENV)
    seconds = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"failed: {' '.join(command)}\n{proc.stderr[-2000:]}")
    return seconds, proc.stdout


def measure(row: Row, runs: int) -> None:
    """Warm-up once each, then ``runs`` rounds of every command in turn."""
    for name, command in row.commands.items():
        _, row.outputs[name] = run_once(command)
        row.walls[name] = []
    for _ in range(runs):
        for name, command in row.commands.items():
            row.walls[name].append(run_once(command)[0])


def score_of(output: str) -> float:
    """The BLEU score printed by any of the three commands (``BLEU = 35.63 …`` or a bare number)."""
    text = output.split("BLEU = ", 1)[1] if "BLEU = " in output else output
    return float(text.split()[0])


def check_agreement(row: Row) -> None:
    if row.check != "score":
        return
    scores = {name: score_of(out) for name, out in row.outputs.items()}
    ours = scores["bleu-study"]
    for name, value in scores.items():
        if abs(value - ours) > 0.006:
            raise SystemExit(f"{row.key}: {name} scores {value}, bleu-study {ours}")


def fmt(values: list[float]) -> str:
    return f"{statistics.median(values):.2f} s ({min(values):.2f}-{max(values):.2f})"


def table(measured: list[Row], loaded: bool) -> str:
    lines = [
        "| command | bleu-study | competitor | competitor ÷ bleu-study (medians) |",
        "|---|---:|---:|---:|",
    ]
    for row in measured:
        ours = row.walls["bleu-study"]
        for name, walls in row.walls.items():
            if name == "bleu-study":
                continue
            ratio = statistics.median(walls) / statistics.median(ours)
            flag = " LOADED: not a figure to quote" if loaded else ""
            lines.append(
                f"| {row.what} | {fmt(ours)} | {name}: {fmt(walls)} | **{ratio:.1f}×**{flag} |"
            )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--runs", type=int, default=7, help="timed runs of each command (default 7)")
    p.add_argument("--seed", type=int, default=0, help="seed of the synthetic corpora")
    p.add_argument("--only", action="append", choices=["score-3k", "score-50k", "significance"])
    p.add_argument("--allow-load", action="store_true", help="run on a busy machine, rows flagged")
    p.add_argument("--markdown", help="append the table, with the machine and load, to this file")
    args = p.parse_args(argv)
    cores = os.cpu_count() or 1
    selected = set(args.only) if args.only else None
    todo = rows(selected, args.seed)  # corpora written before the first load reading
    before = load_average()
    if before > cores and not args.allow_load:
        print(
            f"The machine is busy (load {before:.2f} on {cores} cores): figures taken now would not "
            "hold. Run again on a quiet machine, or pass --allow-load to record them flagged.",
            file=sys.stderr,
        )
        return BUSY
    for row in todo:
        measure(row, args.runs)
        check_agreement(row)
        print(f"{row.key}: " + ", ".join(f"{n} {fmt(w)}" for n, w in row.walls.items()), flush=True)
    after = load_average()
    loaded = max(before, after) > cores
    header = (
        f"{datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC · {platform.node()} · {cores} cores · "
        f"Python {platform.python_version()} · load (1 min) {before:.2f} before, {after:.2f} after · "
        f"{args.runs} interleaved runs after 1 warm-up, median (min-max)"
        + (" · **LOADED**" if loaded else "")
    )
    text = f"{header}\n\n{table(todo, loaded)}\n"
    print("\n" + text)
    if args.markdown:
        with open(args.markdown, "a", encoding="utf-8") as fh:
            fh.write(f"\n### Whole-process commands, {header.split(' · ')[0]}\n\n{text}")
    return BUSY if loaded and not args.allow_load else QUIET


if __name__ == "__main__":
    raise SystemExit(main())
