"""Check our BLEU against the WMT21 organisers' official scores (``scores/automatic-scores.tsv``).

The organisers computed ``bleu-A``, ``bleu-B`` ... (one reference) and ``bleu-all`` (all references) with sacreBLEU's
defaults. The release has no redistribution licence, so it is read from where it lies, never copied:

    python benchmarks/wmt21_official.py [RELEASE_FOLDER] [--pairs en-de zh-en de-en]

RELEASE_FOLDER defaults to ../shared/data/wmt21-newstest2021-mqm-da/wmt21-news-systems. Prints one line per
(pair, system, metric) and exits with 1 if any |ours - official| >= 1e-9.
"""

from __future__ import annotations

import argparse
import csv
import sys
from pathlib import Path

from bleu_core import corpus_bleu
from bleu_core.io.text import read_lines

DEFAULT = (
    Path(__file__).resolve().parents[2] / "shared/data/wmt21-newstest2021-mqm-da/wmt21-news-systems"
)


def official_scores(folder: Path) -> dict[tuple[str, str, str], float]:
    with open(folder / "scores" / "automatic-scores.tsv", encoding="utf-8") as f:
        return {
            (row["pair"], row["system"], row["metric"]): float(row["score"])
            for row in csv.DictReader(f, delimiter="\t")
            if row["metric"].startswith("bleu-")
        }


def compare(folder: Path, pairs: list[str]) -> list[tuple[str, str, str, float, float]]:
    """(pair, system, metric, ours, official) for every official BLEU score of ``pairs``."""
    official = official_scores(folder)
    rows = []
    for pair in pairs:
        tgt = pair.split("-")[1]
        ref_files = sorted((folder / "txt" / "references").glob(f"newstest2021.{pair}.ref.*.{tgt}"))
        refs = {p.name.split(".ref.")[1].split(".")[0]: read_lines(p) for p in ref_files}
        for (p, system, metric), value in sorted(official.items()):
            if p != pair:
                continue
            hyp_path = folder / "txt" / "system-outputs" / f"newstest2021.{pair}.hyp.{system}.{tgt}"
            if not hyp_path.is_file():
                continue
            which = metric.split("-", 1)[1]
            streams = list(refs.values()) if which == "all" else [refs[which]]
            ours = corpus_bleu(read_lines(hyp_path), streams).score
            rows.append((pair, system, metric, ours, value))
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("folder", nargs="?", type=Path, default=DEFAULT)
    ap.add_argument("--pairs", nargs="+", default=["en-de", "zh-en", "de-en"])
    args = ap.parse_args(argv)
    rows = compare(args.folder, args.pairs)
    bad = 0
    for pair, system, metric, ours, official in rows:
        diff = abs(ours - official)
        bad += diff >= 1e-9
        print(
            f"{pair}\t{system:<22}\t{metric:<9}\tours={ours:.12f}\tofficial={official:.12f}\tdiff={diff:.1e}"
        )
    print(f"{len(rows)} official BLEU scores compared, {bad} differ by 1e-9 or more")
    return 1 if bad or not rows else 0


if __name__ == "__main__":
    sys.exit(main())
