"""CPU time of the "BLEU vs error spans" page's work when the sidebar's tokenizer changes (issue 27).

    .venv/bin/python benchmarks/bench_error_spans.py                    # WMT24 en-ja, 3 rounds
    .venv/bin/python benchmarks/bench_error_spans.py --repeats 5 --tokenizers ja-mecab,intl,13a,char

A tokenizer change on that page (``pages/error_spans.py``) computes, for the new tokenizer:

* the agreement tables at max orders 1-4 (:func:`bleu_core.study.error_agreement.error_agreement_by_order`,
  what ``ui.explore.agreement.agreement_by_order`` caches), which first tokenises and aligns every annotated
  translation (:func:`bleu_core.tokenize.token_offsets.token_columns_corpus`, remembered for the next call);
* the span scores at the chosen order (:func:`bleu_core.study.span_scores.span_scores`, what
  ``ui.explore.span_scores_view.cached_span_scores`` caches), which finds those tokens remembered.

This script loads the study once, then runs that work for the tokenizers in turn (A, B, C, A, B, C...: each
step is a change to a tokenizer whose texts are not remembered, as in the app), once with each ``method``:
``loop`` (one translation at a time with bit masks: the code before issue 27's speed-up, kept as the tests'
reference) and ``arrays`` (every translation at once with numpy). It reports the median CPU time
(:func:`time.process_time`: this process's user + system time, so other processes on a shared machine
change it little) of each part per tokenizer:

* ``tokenise``: tokenising and aligning the annotated translations alone (measured apart, after the
  remembered texts were pushed out);
* ``agreement``: the agreement call, tokenising included; ``spans``: the span-score call; ``page``: both.

The numbers are CPU seconds of this one thread, not what a browser waits for (that adds Streamlit's
re-run and drawing: ``benchmarks/bench_app.py --pages-only --only WMT24``). The 1-minute load average is
printed before and after.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

WMT24 = ROOT.parent / "shared" / "data" / "wmt24-general-esa"

from bleu_core.study import load_study  # noqa: E402
from bleu_core.study.error_agreement import error_agreement_by_order  # noqa: E402
from bleu_core.study.span_scores import span_scores  # noqa: E402
from bleu_core.tokenize.token_offsets import token_columns_corpus  # noqa: E402

PARTS = ("tokenise", "agreement", "spans", "page")


def annotated_texts(study) -> list[str]:
    """The translations the page tokenises: every system's text of an item with a rating or a span."""
    annotated = {(r.system, r.segment_id) for r in study.ratings if r.segment_id is not None}
    annotated |= {(s.system, s.segment_id) for s in study.error_spans}
    return list(
        dict.fromkeys(
            text
            for name, texts in study.systems.items()
            for segment, text in zip(study.segments, texts, strict=True)
            if text is not None and (name, segment.id) in annotated
        )
    )


def forget_texts() -> None:
    """Push the remembered texts out of :func:`token_columns_corpus` (it remembers the last two settings):
    tokenise one word under two settings the page never uses (lower-cased ``none`` and ``char``)."""
    for tokenize in ("none", "char"):
        token_columns_corpus(["x"], tokenize, True)


def one_change(study, texts: list[str], tokenize: str, method: str, order: int) -> dict[str, float]:
    """CPU seconds of each part of the page's work for ``tokenize`` (its texts not remembered)."""
    references = list(study.references)
    started = time.process_time()
    error_agreement_by_order(
        study, (1, 2, 3, 4), references=references, tokenize=tokenize, method=method
    )
    agreed = time.process_time()
    span_scores(study, references=references, max_order=order, tokenize=tokenize, method=method)
    done = time.process_time()
    forget_texts()
    before = time.process_time()
    token_columns_corpus(texts, tokenize)
    tokenised = time.process_time() - before
    forget_texts()
    return {
        "tokenise": tokenised,
        "agreement": agreed - started,
        "spans": done - agreed,
        "page": done - started,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--study", default=str(WMT24), help="study path (default: WMT24 release)")
    parser.add_argument("--pair", default="en-ja")
    parser.add_argument("--tokenizers", default="ja-mecab,intl,13a")
    parser.add_argument("--methods", default="loop,arrays")
    parser.add_argument("--order", type=int, default=1, help="the span scores' max order (page: 1)")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    if not Path(args.study).exists():
        sys.exit(f"{args.study}: not found (the WMT24 release lives in ../shared/data)")
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    study = load_study(args.study, pair=args.pair).study
    texts = annotated_texts(study)
    tokenizers = args.tokenizers.split(",")
    print(f"{study.name}: {len(study.systems)} systems × {study.n_segments} segments, "
          f"{len(texts)} distinct annotated translations")  # fmt: skip
    for method in args.methods.split(","):
        times: dict[str, dict[str, list[float]]] = {t: {p: [] for p in PARTS} for t in tokenizers}
        one_change(
            study, texts, tokenizers[-1], method, args.order
        )  # warm-up: libraries, dictionaries
        for _ in range(args.repeats):
            for tokenize in tokenizers:
                for part, seconds in one_change(study, texts, tokenize, method, args.order).items():
                    times[tokenize][part].append(seconds)
        for tokenize in tokenizers:
            cells = "  ".join(
                f"{part} {statistics.median(times[tokenize][part]):.3f}" for part in PARTS
            )
            print(f"{method:7} {tokenize:9} CPU s (median of {args.repeats}): {cells}")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
