"""The Export zip's README commands: the command lines that rebuild the zip's numbers from the release.

A researcher who opens the zip finds, under "Rebuild", the ``python -m bleu_core`` commands that print the
numbers of its tables from the study's files as given, with every setting that changes them: the pair,
the references, the human-translation choice, the domain, the BLEU options (``--tokenize …``), the seed and
the resample count. ``significance`` prints each system's corpus BLEU (``tables/corpus-bleu.csv``) and the
significance clusters, ``meta`` the system- and document-level correlations (``tables/system-level-fits.csv``
and the BLEU vs human page's granularity table). A WMT24+ release starts every text file with a canary line
that is not test data; the loader drops it, and the plain-file ``score`` command says how to drop it too
(``tail -n +2`` into a file of its own), so that its BLEU is the zip's to the last digit.
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping
from typing import Any

from ui.app import state as K
from ui.app.context import Scores
from ui.app.export import cli_flags
from ui.app.limits import resampling_settings


def study_flags(scores: Scores, state: Mapping[str, Any]) -> str:
    """The flags that choose what ``significance`` and ``meta`` read: pair, references, humans, domain."""
    study = scores.study
    flags = []
    pair = study.metadata.get("pair")
    if pair:
        flags.append(f"--pair {shlex.quote(str(pair))}")
    if study.references:  # the references the numbers were computed with
        flags.append("--references " + shlex.quote(",".join(scores.references)))
    if state.get(K.INCLUDE_HUMANS) and study.human_systems:
        flags.append("--include-human")
    if state.get(K.OPT_DOMAIN):
        flags.append(f"--domain {shlex.quote(str(state[K.OPT_DOMAIN]))}")
    return " ".join(flags)


def rebuild_commands(scores: Scores, state: Mapping[str, Any], label: str) -> str:
    """The README's "Rebuild" section for ``scores``' study opened from ``label`` (a path, zip or demo)."""
    seed, n_resamples = resampling_settings(state)
    bleu = cli_flags(scores.options)
    chosen = study_flags(scores, state)
    resampling = f"--n-resamples {n_resamples} --seed {seed}"
    canary = bool(scores.study.metadata.get("canary_line"))
    lines = [
        f"Rebuild: STUDY is what the study was opened from ({label}).",
        "",
        f"  python -m bleu_core significance STUDY {chosen} {bleu} {resampling} --format json",
        '      "bootstrap" -> "systems" -> "score": each system\'s BLEU (tables/corpus-bleu.csv, BLEU);',
        "      \"clusters\": BLEU's, each criterion's (WMT25's Wilcoxon) and the release's own clusters",
        f"  python -m bleu_core meta STUDY {chosen} {bleu} {resampling} --format json",
        '      "rows": system level (tables/system-level-fits.csv, r), document level',
        "",
        "One system's BLEU from its plain text files:",
        "",
    ]
    if canary:
        lines += [
            "  (line 1 of every file of this release is a canary line, not test data: leave it out)",
            "  tail -n +2 REF > ref.txt && tail -n +2 HYP > hyp.txt && "
            f"python -m bleu_core score -r ref.txt -i hyp.txt {bleu}",
        ]
    else:
        lines.append(f"  python -m bleu_core score -r REF... -i HYP... {bleu}")
    return "\n".join(lines) + "\n"
