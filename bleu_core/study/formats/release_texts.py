"""What the two WMT release layouts read the same way: the language pair, the line-aligned texts, blank outputs.

The organisers' releases come in two layouts, WMT up to 2023 (:mod:`bleu_core.study.formats.wmt`) and WMT24+
(:mod:`bleu_core.study.formats.wmt24`). File names, human scores and the WMT24 canary line differ; these
steps do not:

* :func:`choose_pair`: the pair asked for, or the only one, with one message for each way that fails;
* :func:`read_aligned`: the source, every reference and every system output of the pair, checked
  line-aligned, a blank source or reference line an error;
* :func:`blank_output_warnings`: a warning per system with blank lines (they are scored as empty outputs).

>>> choose_pair(["de-en"], None, "release")
'de-en'
>>> choose_pair(["de-en", "zh-en"], "fr-en", "release")
Traceback (most recent call last):
...
bleu_core.errors.StudyError: release: this WMT release has no language pair 'fr-en'; pairs found: de-en, zh-en — choose one of them with --pair
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from bleu_core.errors import StudyError
from bleu_core.io.members import FileTree
from bleu_core.study.model import LoadWarning
from bleu_core.study.validation import check_blank_lines, check_line_counts


def choose_pair(pairs: Sequence[str], pair: str | None, label: str) -> str:
    """``pair`` when the release has it; with ``pair=None`` the release's only pair. ``pairs`` is sorted."""
    if pair is None:
        if len(pairs) > 1:
            raise StudyError(
                f"this WMT release has several language pairs ({', '.join(pairs)}); choose one with "
                "pair='xx-yy' (command line: --pair xx-yy)",
                file=label,
            )
        pair = pairs[0]
    if pair not in pairs:
        raise StudyError(
            f"this WMT release has no language pair {pair!r}; pairs found: {', '.join(pairs)} — "
            "choose one of them with --pair",
            file=label,
        )
    return pair


@dataclass(frozen=True)
class AlignedTexts:
    """The texts of one pair: ``n`` lines each; references by letter and systems by name, both sorted."""

    source: list[str]
    references: dict[str, list[str]]
    systems: dict[str, list[str]]
    n: int


def read_aligned(
    tree: FileTree,
    source: str,
    references: Mapping[str, str],
    systems: Mapping[str, str],
    read: Callable[[str], list[str]] | None = None,
) -> AlignedTexts:
    """Read the files (``read(path)``, default ``tree.read_lines``), in the order source, references,
    systems; then check that they have the same number of lines and that no source or reference line is
    blank (:mod:`bleu_core.study.validation` raises, naming the file)."""
    read = read or tree.read_lines
    source_lines = read(source)
    refs = {letter: read(path) for letter, path in sorted(references.items())}
    outputs = {system: read(path) for system, path in sorted(systems.items())}
    files = {tree.display(source): source_lines}
    files.update({tree.display(references[x]): lines for x, lines in refs.items()})
    files.update({tree.display(systems[s]): lines for s, lines in outputs.items()})
    n = check_line_counts(files)
    check_blank_lines(tree.display(source), source_lines)
    for letter, lines in refs.items():
        check_blank_lines(tree.display(references[letter]), lines)
    return AlignedTexts(source_lines, refs, outputs, n)


def blank_output_warnings(
    tree: FileTree,
    paths: Mapping[str, str],
    systems: Mapping[str, Sequence[str]],
    line_offset: int = 0,
) -> list[LoadWarning]:
    """One ``blank-output-lines`` warning per system with blank lines, pointing at the first (its line in
    the file: ``line_offset`` lines come before segment 1, as WMT24's canary line does)."""
    warnings = []
    for system, lines in systems.items():
        blank = [i for i, line in enumerate(lines, start=1) if not line.strip()]
        if blank:
            warnings.append(
                LoadWarning(
                    "blank-output-lines",
                    f"system {system!r} has {len(blank)} blank lines (scored as empty outputs)",
                    file=tree.display(paths[system]),
                    line=blank[0] + line_offset,
                )
            )
    return warnings
