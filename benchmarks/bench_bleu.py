"""Speed and memory of BLEU: bleu-study side by side with sacrebleu, NLTK and bleuscore, in one run.

What is timed (medians of ``--repeats`` runs, wall clock and process CPU time):

* **corpus BLEU**, text in, score out, tokenisation included (13a):
  bleu-study ``corpus_bleu``; sacrebleu ``corpus_bleu``; bleuscore ``compute`` (Rust, tokenises itself, may use
  several threads); NLTK ``corpus_bleu`` — which cannot tokenise 13a, so it gets sacrebleu's 13a tokens
  prepared *outside* the timing, and only up to ``--nltk-max`` segments (it is slow).
* **sentence BLEU of every segment**: bleu-study statistics + one vectorised scoring of all rows; a Python loop
  over ``sacrebleu.sentence_bleu`` (what users call); a loop over ``bleuscore.compute``; a loop over NLTK
  ``sentence_bleu`` (pre-tokenised, capped like corpus BLEU).
* **whole process** (what a user waits for, hyperfine-style: a fresh process per run, wall clock from start to
  exit, median of ``--repeats``): ``python -m bleu_core score`` beside ``python -m sacrebleu`` (the CLI) and a
  5-line bleuscore script, at 3k / 50k × 1 reference and 100k × 4; ``bleu_core significance`` beside
  ``sacrebleu --paired-bs`` (10 systems × 3,000 segments, 1,000 resamples); and the whole-process peak memory of
  ``score`` at ``--memory-segments`` × 4 references. The in-process time of the same work is printed beside.
* **peak memory** (``VmHWM``, the peak resident set) of corpus BLEU on ``--memory-segments`` segments × 4 references, each engine
  in a fresh process that first reads the corpus from disk; the size of the input alone is reported too.

Text is synthetic but realistic (:mod:`synthetic`: a Markov chain trained on the WMT21/TED English in
/work/shared/data, references and hypotheses as edited copies of a hidden sentence; BLEU about 30 with one
reference). Sanity checks are printed: bleu-study's corpus score must equal sacrebleu's exactly.

Usage::

    python benchmarks/bench_bleu.py            # full: 1k/10k/100k × 1 and 4 refs, memory at 1M × 4
    python benchmarks/bench_bleu.py --quick    # 1k/10k, 2 repeats, memory at 100k × 4
    python benchmarks/bench_bleu.py --no-speed --no-memory   # the whole-process table only
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

import numpy as np  # noqa: E402
import synthetic  # noqa: E402

CACHE = os.environ.get("BLEU_STUDY_BENCH_CACHE", "/tmp/bleu-study-bench")


# ------------------------------------------------------------------------------------------------ timing


def cold_caches() -> None:
    """Empty sacrebleu's per-line tokenizer caches (lru_cache): every run starts cold, as on new text.

    bleu-study keeps no cache between calls, bleuscore none at all.
    """
    from sacrebleu.tokenizers import tokenizer_13a, tokenizer_intl, tokenizer_re

    tokenizer_13a.Tokenizer13a.__call__.cache_clear()
    tokenizer_re.TokenizerRegexp.__call__.cache_clear()
    tokenizer_intl.TokenizerV14International.__call__.cache_clear()
    gc.collect()


def measure(fn: Callable[[], Any], repeats: int) -> tuple[float, float, Any]:
    """Median wall and CPU seconds of ``fn()`` over ``repeats`` cold runs, and its last result."""
    walls, cpus, result = [], [], None
    for _ in range(repeats):
        cold_caches()
        w, c = time.perf_counter(), time.process_time()
        result = fn()
        walls.append(time.perf_counter() - w)
        cpus.append(time.process_time() - c)
    return statistics.median(walls), statistics.median(cpus), result


def fmt_seconds(s: float | None) -> str:
    if s is None:
        return "—"
    return f"{s * 1000:.0f} ms" if s < 1 else f"{s:.2f} s"


def fmt_ratio(other: float | None, ours: float) -> str:
    return "—" if other is None else f"{other / ours:.1f}×"


# ------------------------------------------------------------------------------------------------ engines


def corpus_runs(
    hyps: list[str], refs: list[list[str]], nltk_ok: bool
) -> dict[str, Callable[[], float]]:
    import bleuscore
    import sacrebleu

    import bleu_core

    per_segment = [list(r) for r in zip(*refs, strict=True)]
    runs: dict[str, Callable[[], float]] = {
        "bleu-study": lambda: bleu_core.corpus_bleu(hyps, refs).score,
        "sacrebleu": lambda: sacrebleu.corpus_bleu(hyps, refs).score,
        "bleuscore": lambda: (
            100
            * bleuscore.compute(
                references=per_segment, predictions=hyps, max_order=4, ref_len_method="closest"
            )["bleu"]
        ),
    }
    if nltk_ok:
        from nltk.translate.bleu_score import corpus_bleu
        from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

        tok = Tokenizer13a()
        hyp_tokens = [tok(h.rstrip()).split() for h in hyps]
        ref_tokens = [[tok(r.rstrip()).split() for r in rs] for rs in per_segment]
        runs["NLTK (pre-tokenised)"] = lambda: 100 * corpus_bleu(ref_tokens, hyp_tokens)
    return runs


def pure_path(fn: Callable[[], Any]) -> Any:
    """Run ``fn`` on bleu-study's pure numpy/Python path (the compiled kernels switched off)."""
    old = os.environ.get("BLEU_STUDY_PURE")
    os.environ["BLEU_STUDY_PURE"] = "1"
    try:
        return fn()
    finally:
        if old is None:
            del os.environ["BLEU_STUDY_PURE"]
        else:
            os.environ["BLEU_STUDY_PURE"] = old


def kernel_load_seconds() -> float:
    """Seconds a fresh process needs to load bleu-study's compiled kernels (the C extension built at
    install), bleu_core itself already imported."""
    code = (
        "import time, bleu_core.fast.compiled as c; t = time.perf_counter(); c.load_all(); "
        "assert c.loaded(); print(time.perf_counter() - t)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def sentence_runs(
    hyps: list[str], refs: list[list[str]], nltk_ok: bool
) -> dict[str, Callable[[], list[float]]]:
    import bleuscore
    import sacrebleu

    from bleu_core.engine.bleu import sentence_scores, statistics_for
    from bleu_core.engine.options import BleuOptions

    per_segment = [list(r) for r in zip(*refs, strict=True)]
    options = BleuOptions(effective_order=True)

    def ours() -> list[float]:
        return sentence_scores(statistics_for(hyps, refs, options), options).score.tolist()

    runs: dict[str, Callable[[], list[float]]] = {
        "bleu-study": ours,
        "bleu-study, pure path": lambda: pure_path(ours),
        "sacrebleu loop": lambda: [
            sacrebleu.sentence_bleu(h, r).score for h, r in zip(hyps, per_segment, strict=True)
        ],
        "bleuscore loop": lambda: [
            100 * bleuscore.compute(references=[r], predictions=[h], smooth=True)["bleu"]
            for h, r in zip(hyps, per_segment, strict=True)
        ],
    }
    if nltk_ok:
        from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu
        from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

        tok = Tokenizer13a()
        hyp_tokens = [tok(h.rstrip()).split() for h in hyps]
        ref_tokens = [[tok(r.rstrip()).split() for r in rs] for rs in per_segment]
        smooth = SmoothingFunction().method3  # NIST geometric sequence = sacrebleu's "exp"

        runs["NLTK loop (pre-tokenised)"] = lambda: [
            100 * sentence_bleu(r, h, smoothing_function=smooth)
            for h, r in zip(hyp_tokens, ref_tokens, strict=True)
        ]
    return runs


# ------------------------------------------------------------------------------------------------ memory


def corpus_dir(n_segments: int, n_refs: int, seed: int) -> str:
    """Write (once) a synthetic corpus to disk, in batches so that generating it stays small."""
    directory = os.path.join(CACHE, f"{n_segments}x{n_refs}-seed{seed}")
    done = os.path.join(directory, "DONE")
    if os.path.exists(done):
        return directory
    os.makedirs(directory, exist_ok=True)
    names = ["hyp.txt"] + [f"ref{k}.txt" for k in range(n_refs)]
    files = [open(os.path.join(directory, name), "w", encoding="utf-8") for name in names]
    try:
        batch = 100_000
        for b, start in enumerate(range(0, n_segments, batch)):
            part = synthetic.make_corpus(
                min(batch, n_segments - start), n_refs, seed=seed * 100_003 + b
            )
            for fh, lines in zip(files, [part.hypotheses, *part.references], strict=True):
                fh.write("\n".join(lines) + "\n")
    finally:
        for fh in files:
            fh.close()
    with open(done, "w") as fh:
        fh.write("ok\n")
    return directory


def memory_kib(field: str) -> int:
    """``VmRSS`` (resident now) or ``VmHWM`` (peak resident) of this process from /proc, in KiB (0 if absent).

    ``ru_maxrss`` is not used: Linux carries it over ``execve`` from the parent's memory, so a child started by
    a big benchmark process would report the parent's peak.
    """
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def memory_child(directory: str, engine: str) -> None:
    """Run in a fresh process: read the corpus, score it, print peak memory as JSON."""
    names = sorted(os.listdir(directory))
    hyps = synthetic.read_lines(os.path.join(directory, "hyp.txt"))
    refs = [synthetic.read_lines(os.path.join(directory, n)) for n in names if n.startswith("ref")]
    input_kib = memory_kib("VmHWM")
    resident_kib = memory_kib("VmRSS")
    start = time.perf_counter()
    if engine == "bleu-study":
        import bleu_core

        score = bleu_core.corpus_bleu(hyps, refs).score
    elif engine == "bleuscore":
        import bleuscore

        per_segment = [list(r) for r in zip(*refs, strict=True)]
        del refs
        score = (
            100
            * bleuscore.compute(
                references=per_segment, predictions=hyps, max_order=4, ref_len_method="closest"
            )["bleu"]
        )
    elif engine == "sacrebleu":
        import sacrebleu

        score = sacrebleu.corpus_bleu(hyps, refs).score
    else:
        raise SystemExit(f"unknown engine {engine}")
    seconds = time.perf_counter() - start
    peak_kib = memory_kib("VmHWM")
    print(json.dumps({"engine": engine, "segments": len(hyps), "input_kib": input_kib,
                      "resident_kib": resident_kib, "peak_kib": peak_kib, "seconds": seconds,
                      "score": score}))  # fmt: skip


def run_memory(n_segments: int, engines: list[str], seed: int) -> list[dict[str, Any]]:
    directory = corpus_dir(n_segments, 4, seed)
    out = []
    for engine in engines:
        proc = subprocess.run(
            [
                sys.executable,
                os.path.abspath(__file__),
                "--memory-child",
                directory,
                "--engine",
                engine,
            ],
            capture_output=True,
            text=True,
            check=False,
        )
        if proc.returncode != 0:
            out.append({"engine": engine, "error": proc.stderr.strip().splitlines()[-1:]})
        else:
            out.append(json.loads(proc.stdout.strip().splitlines()[-1]))
    return out


# ------------------------------------------------------------------------------------------------ whole process

#: bleuscore has no command line: the shortest script that scores files with it.
BLEUSCORE_SCRIPT = """
import sys, bleuscore
hyps = open(sys.argv[1], encoding="utf-8").read().split("\\n")[:-1]
refs = [open(p, encoding="utf-8").read().split("\\n")[:-1] for p in sys.argv[2:]]
r = bleuscore.compute(references=[list(x) for x in zip(*refs)], predictions=hyps, max_order=4)
print(100 * r["bleu"])
"""

#: Runs a command and prints the peak resident memory of that command alone (this small process forks it, so
#: the kernel's "maximum RSS of the children" is not inflated by the big benchmark process).
PEAK_WRAPPER = (
    "import resource, subprocess, sys; subprocess.run(sys.argv[1:], check=True, "
    "stdout=subprocess.DEVNULL); print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
)


def cli_corpus_dir(n_segments: int, n_refs: int, n_systems: int, seed: int) -> str:
    """Write (once) files for the command lines: ``hyp0.txt``... (one per system, edited copies of the same
    hidden sentences, each system with its own error rates) and ``ref0.txt``...; segments with a blank
    reference are left out (bleu-study refuses blank reference lines, as its study loaders do)."""
    directory = os.path.join(CACHE, f"cli-{n_segments}x{n_refs}x{n_systems}-seed{seed}")
    done = os.path.join(directory, "DONE")
    if os.path.exists(done):
        return directory
    os.makedirs(directory, exist_ok=True)
    rng = np.random.default_rng(seed)
    names = [f"hyp{k}.txt" for k in range(n_systems)] + [f"ref{k}.txt" for k in range(n_refs)]
    files = [open(os.path.join(directory, name), "w", encoding="utf-8") for name in names]
    written = 0
    try:
        while written < n_segments:
            batch = min(100_000, int((n_segments - written) * 1.05) + 16)
            base = synthetic._sample_sentences(batch, rng)
            hyps = [
                synthetic._to_lines(synthetic._perturb(base, rng, 0.16 + 0.02 * k, 0.06, 0.06))
                for k in range(n_systems)
            ]
            refs = [
                synthetic._to_lines(synthetic._perturb(base, rng, 0.12, 0.03, 0.03))
                for _ in range(n_refs)
            ]
            keep = [i for i in range(batch) if all(r[i].strip() for r in refs)]
            keep = keep[: n_segments - written]
            for fh, lines in zip(files, [*hyps, *refs], strict=True):
                fh.write("".join(lines[i] + "\n" for i in keep))
            written += len(keep)
    finally:
        for fh in files:
            fh.close()
    with open(done, "w") as fh:
        fh.write("ok\n")
    return directory


#: The environment of the timed commands: as a user's, so Python may cache compiled modules (``.pyc``); with
#: ``PYTHONDONTWRITEBYTECODE`` set (as in some sandboxes) every run would recompile bleu_core from source.
USER_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def run_seconds(command: list[str], repeats: int, warmup: bool = True) -> tuple[float, str]:
    """Median wall time of ``command`` in a fresh process (start to exit), and its last output; with
    ``warmup``, one untimed run first (hyperfine's ``--warmup 1``: ``.pyc`` written, files in the page cache;
    installed packages such as sacrebleu have their ``.pyc`` already)."""
    walls, out = [], ""
    for run in range(repeats + int(warmup)):
        start = time.perf_counter()
        proc = subprocess.run(command, capture_output=True, text=True, check=False, env=USER_ENV)
        seconds = time.perf_counter() - start
        if proc.returncode != 0:
            raise SystemExit(f"failed: {' '.join(command)}\n{proc.stderr[-2000:]}")
        if warmup and run == 0:
            continue
        walls.append(seconds)
        out = proc.stdout
    return statistics.median(walls), out


def interleaved_seconds(
    commands: dict[str, list[str]], repeats: int, warmup: bool = True
) -> dict[str, tuple[float, float]]:
    """``{name: (median wall, median CPU)}`` of fresh processes run in turn (a, b, a, b, ...), so that a change
    of machine load hits every command alike; CPU is user + sys of the process and its threads (children's
    ``rusage``), less sensitive to the load than wall time. ``warmup``: one untimed run of each first."""
    import resource

    walls: dict[str, list[float]] = {name: [] for name in commands}
    cpus: dict[str, list[float]] = {name: [] for name in commands}
    for run in range(repeats + int(warmup)):
        for name, command in commands.items():
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            proc = subprocess.run(
                command, capture_output=True, text=True, check=False, env=USER_ENV
            )
            seconds = time.perf_counter() - start
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            if proc.returncode != 0:
                raise SystemExit(f"failed: {' '.join(command)}\n{proc.stderr[-2000:]}")
            if warmup and run == 0:
                continue
            walls[name].append(seconds)
            cpus[name].append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return {
        name: (statistics.median(walls[name]), statistics.median(cpus[name])) for name in commands
    }


def significance_row(repeats: int, seed: int, n_systems: int) -> dict[str, Any]:
    """``significance`` (paired bootstrap, 1,000 resamples, baseline first) beside ``sacrebleu --paired-bs``
    on ``n_systems`` × 3,000 segments, run in turn; wall and CPU medians."""
    py = sys.executable
    d = cli_corpus_dir(3_000, 1, n_systems, seed)
    hyps = [os.path.join(d, f"hyp{j}.txt") for j in range(n_systems)]
    ref = os.path.join(d, "ref0.txt")
    times = interleaved_seconds(
        {
            "ours": [py, "-m", "bleu_core", "significance", "-r", ref, "-i", *hyps,
                     "--baseline", "first", "--n-resamples", "1000", "--test", "bs"],
            "sacrebleu": [py, "-m", "sacrebleu", ref, "-i", *hyps, "--paired-bs",
                          "--paired-bs-n", "1000"],
        },
        repeats,
    )  # fmt: skip
    return {
        "what": f"significance, {n_systems} systems × 3,000, 1,000 resamples",
        "ours": times["ours"][0],
        "sacrebleu": times["sacrebleu"][0],
        "ours_cpu": times["ours"][1],
        "sacrebleu_cpu": times["sacrebleu"][1],
    }


def peak_kib(command: list[str]) -> int:
    proc = subprocess.run(
        [sys.executable, "-c", PEAK_WRAPPER, *command],
        capture_output=True,
        text=True,
        check=True,
        env=USER_ENV,
    )
    return int(proc.stdout.strip().splitlines()[-1])


def in_process_seconds(directory: str, n_refs: int, repeats: int) -> float:
    """Median in-process time of ``corpus_bleu`` on the files of ``directory`` (read outside the timing)."""
    import bleu_core

    hyps = synthetic.read_lines(os.path.join(directory, "hyp0.txt"))
    refs = [synthetic.read_lines(os.path.join(directory, f"ref{k}.txt")) for k in range(n_refs)]
    bleu_core.corpus_bleu(hyps[:100], [r[:100] for r in refs])  # imports done
    return measure(lambda: bleu_core.corpus_bleu(hyps, refs).score, repeats)[0]


def whole_process(
    repeats: int, seed: int, memory_segments: int, significance_systems: int
) -> list[dict[str, Any]]:
    """Whole-process wall times (and in-process times beside them); rows of the README table."""
    py = sys.executable
    rows: list[dict[str, Any]] = []
    for n, k in [(3_000, 1), (50_000, 1), (100_000, 4)]:
        d = cli_corpus_dir(n, k, 1, seed)
        refs = [os.path.join(d, f"ref{j}.txt") for j in range(k)]
        hyp = os.path.join(d, "hyp0.txt")
        ours, out = run_seconds([py, "-m", "bleu_core", "score", "-r", *refs, "-i", hyp], repeats)
        theirs, out_s = run_seconds(
            [py, "-m", "sacrebleu", *refs, "-i", hyp, "-b", "-w", "4"], repeats
        )
        ours_score = float(out.split("BLEU = ")[1].split()[0])
        assert abs(ours_score - float(out_s.strip())) < 0.006, (out, out_s)
        row = {"what": f"score, {n:,} segments × {k} ref", "ours": ours, "sacrebleu": theirs}
        if n >= 50_000:
            row["bleuscore"] = run_seconds(
                [py, "-c", BLEUSCORE_SCRIPT, hyp, *refs], repeats, warmup=False
            )[0]
        row["in_process"] = in_process_seconds(d, k, repeats)
        rows.append(row)
        print(f"whole process  {row}", flush=True)
    rows.append(significance_row(repeats, seed, significance_systems))
    print(f"whole process  {rows[-1]}", flush=True)
    d = cli_corpus_dir(memory_segments, 4, 1, seed)
    refs = [os.path.join(d, f"ref{j}.txt") for j in range(4)]
    command = [py, "-m", "bleu_core", "score", "-r", *refs, "-i", os.path.join(d, "hyp0.txt")]
    start = time.perf_counter()
    peak = peak_kib(command)
    rows.append(
        {
            "what": f"score, {memory_segments:,} segments × 4 refs: peak memory",
            "peak_kib": peak,
            "ours": time.perf_counter() - start,
        }
    )
    print(f"whole process  {rows[-1]}", flush=True)
    return rows


def print_whole_process(rows: list[dict[str, Any]]) -> None:
    print("\n## Whole process: a fresh process per run, start to exit (median wall time)\n")
    print("| command | bleu-study | sacrebleu CLI | bleuscore script | sacrebleu ÷ ours | "
          "bleuscore ÷ ours | bleu-study in-process |")  # fmt: skip
    print("|---|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        if "peak_kib" in r:
            print(f"| {r['what']} | {r['peak_kib'] / 2**20:.2f} GiB peak RSS ({fmt_seconds(r['ours'])}) "
                  "| | | | | |")  # fmt: skip
            continue
        print(f"| {r['what']} | {fmt_seconds(r['ours'])} | {fmt_seconds(r.get('sacrebleu'))} | "
              f"{fmt_seconds(r.get('bleuscore'))} | {fmt_ratio(r.get('sacrebleu'), r['ours'])} | "
              f"{fmt_ratio(r.get('bleuscore'), r['ours'])} | {fmt_seconds(r.get('in_process'))} |")  # fmt: skip
        if "ours_cpu" in r:
            print(f"| (same runs, CPU time: user + sys) | {fmt_seconds(r['ours_cpu'])} | "
                  f"{fmt_seconds(r['sacrebleu_cpu'])} | | "
                  f"{fmt_ratio(r['sacrebleu_cpu'], r['ours_cpu'])} | | |")  # fmt: skip


# ------------------------------------------------------------------------------------------------ main


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument(
        "--quick", action="store_true", help="1k and 10k segments, 2 repeats, memory at 100k × 4"
    )
    p.add_argument(
        "--sizes", type=int, nargs="+", default=None, help="segment counts (default 1k 10k 100k)"
    )
    p.add_argument(
        "--refs", type=int, nargs="+", default=[1, 4], help="reference counts (default 1 4)"
    )
    p.add_argument(
        "--repeats", type=int, default=None, help="runs per measurement (median; default 3)"
    )
    p.add_argument("--nltk-max", type=int, default=10_000, help="largest size NLTK is run on")
    p.add_argument(
        "--sentence-loop-max", type=int, default=100_000, help="largest size for the loops"
    )
    p.add_argument(
        "--memory-segments", type=int, default=None, help="segments × 4 refs (default 1M)"
    )
    p.add_argument("--memory-engines", nargs="+", default=["bleu-study", "bleuscore"])
    p.add_argument("--no-memory", action="store_true")
    p.add_argument("--no-speed", action="store_true")
    p.add_argument("--no-whole-process", action="store_true")
    p.add_argument("--significance-systems", type=int, default=10)
    p.add_argument(
        "--significance-only",
        action="store_true",
        help="only `significance` beside `sacrebleu --paired-bs` (run in turn; wall and CPU)",
    )
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--memory-child", help=argparse.SUPPRESS)
    p.add_argument("--engine", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.memory_child:
        memory_child(args.memory_child, args.engine)
        return 0
    sizes = args.sizes or ([1_000, 10_000] if args.quick else [1_000, 10_000, 100_000])
    repeats = args.repeats or (2 if args.quick else 3)
    memory_segments = args.memory_segments or (100_000 if args.quick else 1_000_000)
    print(f"# bench_bleu: python {sys.version.split()[0]}, {os.cpu_count()} CPUs, "
          f"load average {os.getloadavg()[0]:.1f} at start, {repeats} repeats (medians)")  # fmt: skip
    if args.significance_only:
        row = significance_row(repeats, args.seed, args.significance_systems)
        print(f"whole process  {row}")
        print(f"# load average {os.getloadavg()[0]:.1f} at the end")
        print_whole_process([row])
        return 0

    if not args.no_speed:
        load = kernel_load_seconds()
        print(f"# compiled kernels (C extension): {load * 1000:.2f} ms to load in a fresh process; "
              "'pure path' = BLEU_STUDY_PURE=1")  # fmt: skip
        corpus_rows, sentence_rows = [], []
        for n_refs in args.refs:
            for n in sizes:
                data = synthetic.make_corpus(n, n_refs, seed=args.seed)
                hyps, refs = data.hypotheses, data.references
                nltk_ok = n <= args.nltk_max
                results = {}
                for name, fn in corpus_runs(hyps, refs, nltk_ok).items():
                    wall, cpu, score = measure(fn, repeats)
                    results[name] = (wall, cpu, score)
                    print(f"corpus   {n:>7} segs {n_refs} ref  {name:<22} {wall:8.3f} s wall "
                          f"{cpu:8.3f} s cpu  BLEU {score:.4f}", flush=True)  # fmt: skip
                ours = results["bleu-study"]
                assert abs(ours[2] - results["sacrebleu"][2]) < 1e-9, "bleu-study != sacrebleu"
                corpus_rows.append((n, n_refs, results))
                results = {}
                for name, fn in sentence_runs(hyps, refs, nltk_ok).items():
                    if not name.startswith("bleu-study") and n > args.sentence_loop_max:
                        continue
                    reps = repeats if name.startswith("bleu-study") or n <= 10_000 else 1
                    wall, cpu, scores = measure(fn, reps)
                    results[name] = (wall, cpu, scores)
                    print(f"sentence {n:>7} segs {n_refs} ref  {name:<22} {wall:8.3f} s wall "
                          f"{cpu:8.3f} s cpu", flush=True)  # fmt: skip
                if "sacrebleu loop" in results:
                    diff = max(
                        abs(a - b)
                        for a, b in zip(
                            results["bleu-study"][2], results["sacrebleu loop"][2], strict=True
                        )
                    )
                    assert diff < 1e-9, f"sentence scores differ from sacrebleu by {diff}"
                if "bleu-study, pure path" in results:
                    assert results["bleu-study, pure path"][2] == results["bleu-study"][2], (
                        "compiled and pure paths differ"
                    )
                sentence_rows.append((n, n_refs, results))
        print_tables(corpus_rows, sentence_rows)

    if not args.no_whole_process:
        print_whole_process(
            whole_process(repeats, args.seed, memory_segments, args.significance_systems)
        )

    if not args.no_memory:
        print(f"\n## Peak memory, corpus BLEU, {memory_segments:,} segments × 4 references (13a)\n")
        print("| engine | peak RSS (whole process) | resident after reading the text | peak while scoring "
              "minus that | time |")  # fmt: skip
        print("|---|---:|---:|---:|---:|")
        gib = 2**20
        for r in run_memory(memory_segments, args.memory_engines, args.seed):
            if "error" in r:
                print(f"| {r['engine']} | failed: {r['error']} | | | |")
                continue
            print(f"| {r['engine']} | {r['peak_kib'] / gib:.2f} GiB | {r['resident_kib'] / gib:.2f} GiB | "
                  f"{(r['peak_kib'] - r['resident_kib']) / gib:.2f} GiB | {r['seconds']:.1f} s |",
                  flush=True)  # fmt: skip
    return 0


def print_tables(corpus_rows: list, sentence_rows: list) -> None:
    print("\n## Corpus BLEU (13a, tokenisation included), median wall time\n")
    print(
        "| segments | refs | bleu-study | sacrebleu | bleuscore | NLTK* | sacrebleu ÷ ours | bleuscore ÷ ours |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    for n, k, res in corpus_rows:
        ours = res["bleu-study"][0]
        get = {name: v[0] for name, v in res.items()}
        print(f"| {n:,} | {k} | {fmt_seconds(ours)} | {fmt_seconds(get.get('sacrebleu'))} | "
              f"{fmt_seconds(get.get('bleuscore'))} | {fmt_seconds(get.get('NLTK (pre-tokenised)'))} | "
              f"{fmt_ratio(get.get('sacrebleu'), ours)} | {fmt_ratio(get.get('bleuscore'), ours)} |")  # fmt: skip
    print("\n## Sentence BLEU of every segment, median wall time\n")
    print(
        "| segments | refs | bleu-study | bleu-study CPU | pure path | sacrebleu loop | bleuscore loop "
        "| NLTK loop* | sacrebleu ÷ ours (wall) | sacrebleu ÷ ours (CPU) |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for n, k, res in sentence_rows:
        ours, ours_cpu = res["bleu-study"][0], res["bleu-study"][1]
        get = {name: v[0] for name, v in res.items()}
        cpu = {name: v[1] for name, v in res.items()}
        print(f"| {n:,} | {k} | {fmt_seconds(ours)} | {fmt_seconds(ours_cpu)} | "
              f"{fmt_seconds(get.get('bleu-study, pure path'))} | {fmt_seconds(get.get('sacrebleu loop'))} | "
              f"{fmt_seconds(get.get('bleuscore loop'))} | "
              f"{fmt_seconds(get.get('NLTK loop (pre-tokenised)'))} | "
              f"{fmt_ratio(get.get('sacrebleu loop'), ours)} | "
              f"{fmt_ratio(cpu.get('sacrebleu loop'), ours_cpu)} |")  # fmt: skip
    print("\n## CPU time (all threads), corpus BLEU\n")
    print("| segments | refs | bleu-study | sacrebleu | bleuscore |")
    print("|---:|---:|---:|---:|---:|")
    for n, k, res in corpus_rows:
        get = {name: v[1] for name, v in res.items()}
        print(f"| {n:,} | {k} | {fmt_seconds(get['bleu-study'])} | {fmt_seconds(get.get('sacrebleu'))} | "
              f"{fmt_seconds(get.get('bleuscore'))} |")  # fmt: skip


if __name__ == "__main__":
    raise SystemExit(main())
