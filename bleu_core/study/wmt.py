"""A WMT news-task release (folder or ``.zip``) → a study for one language pair.

The layout is the organisers' (e.g. ``wmt-conference/wmt21-news-systems``)::

    txt/sources/newstest2021.en-de.src.en
    txt/references/newstest2021.en-de.ref.A.de          (one file per reference: A, B, C, ...)
    txt/system-outputs/newstest2021.en-de.hyp.<SYSTEM>.de
    humaneval/newstest2021-toen/ad-seg-scores-de-en.csv (DA per segment: SYS SID RAW.SCR Z.SCR N)
    humaneval/newstest2021-toen/ad-sys-scores-de-en.csv (DA per system:  RAW.SCR Z.SCR N SYS N.ALL)

and, when present anywhere in the folder, Google's MQM scores for the same test set
(``mqm_newstest2021_ende.avg_seg_scores.tsv``: ``system mqm_avg_score seg_id``). All files are line-aligned;
segment ``i`` (1-based) has id ``"i"``, which is also the ``SID``/``seg_id`` of the human scores.

The same file names are recognised without the folders (a flat folder or upload of
``newstest2021.de-en.src.de``, ``newstest2021.de-en.ref.A.en``, ``newstest2021.de-en.hyp.SYSTEM.en``).

References are named ``ref-A``, ``ref-B``, ... By default only the first (``ref-A``, the one the organisers'
``bleu-A`` uses) is a reference stream; the other human translations become human *systems*, so their ratings
can be studied (en-de MQM rates ``ref-C`` and ``ref-D``). Pass ``reference="all"`` for every reference as a
stream (the organisers' ``bleu-all``), or a list of letters/names. Whatever the choice, the study keeps every
reference's texts and human scores, so :func:`bleu_core.study.reference_choice.choose_references` switches to
another choice without reading the release again.

Human scores name systems slightly differently from the files (DA ``Nemo.7``, MQM ``Nemo`` for file
``NVIDIA-NeMo``): the DA ``.N`` suffix is dropped and names are matched case- and punctuation-insensitively,
then by unique containment. Human translations are matched to reference letters (``HUMAN-B``,
``HUMAN-B.12``, ``Human-A.0``, ``ref-B``, ``refB``, ``ref.B`` all mean reference B; a bare ``HUMAN`` means
the reference when the pair has only one). Scores that cannot be attached to a text in the release
(``HUMAN-C`` without a reference C, MQM ``metricsystem1-5``, a bare ``HUMAN`` when there are several
references) are left out and reported in a warning.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from bleu_core.errors import InputError, StudyError
from bleu_core.study.model import Criterion, LoadResult, LoadWarning, Rating, Segment, Study
from bleu_core.study.ratings import KNOWN_CRITERIA
from bleu_core.study.reading import FileTree
from bleu_core.study.reference_choice import choose_references, reference_letter
from bleu_core.study.tables import parse_score
from bleu_core.study.validation import check_blank_lines, check_line_counts

__all__ = ["WmtRelease", "find_release", "release_pairs", "wmt_study"]

_PAIR = r"(?P<pair>[a-z]{2,3}-[a-z]{2,3})"
_SOURCE = re.compile(rf"(?:^|/)(?P<testset>[^/]+)\.{_PAIR}\.src\.(?P<lang>[\w-]+)$")
_REFERENCE = re.compile(
    rf"(?:^|/)(?P<testset>[^/]+)\.{_PAIR}\.ref\.(?P<ref>[^./]+)\.(?P<lang>[\w-]+)$"
)
_SYSTEM = re.compile(
    rf"(?:^|/)(?P<testset>[^/]+)\.{_PAIR}\.hyp\.(?P<system>[^/]+)\.(?P<lang>[\w-]+)$"
)
_DA_SEG = re.compile(r"(?:^|/)ad-seg-scores-(?P<pair>[a-z]{2,3}-[a-z]{2,3})\.csv$")
_DA_SYS = re.compile(r"(?:^|/)ad-sys-scores-(?P<pair>[a-z]{2,3}-[a-z]{2,3})\.csv$")
_MQM_SEG = re.compile(r"(?:^|/)mqm_(?P<testset>[^/]+)_(?P<lp>[a-z]{4,6})\.avg_seg_scores\.tsv$")

DA_CRITERIA = {
    "da": KNOWN_CRITERIA["da"],
    "da_z": KNOWN_CRITERIA["da_z"],
}
MQM_CRITERION = Criterion(
    "mqm",
    True,
    None,
    "Expert MQM (Google): minus the weighted error count, mean over raters; 0 = no error",
)


@dataclass
class WmtRelease:
    """The files of one language pair found in a WMT release."""

    pair: str
    testset: str
    source: str | None = None
    references: dict[str, str] = field(default_factory=dict)  # letter -> path
    systems: dict[str, str] = field(default_factory=dict)  # system -> path
    da_segments: str | None = None
    da_systems: str | None = None
    mqm_segments: str | None = None


def _prefer_txt(paths: list[str]) -> list[str]:
    """Use ``txt/`` (without test suites) when the release also has ``txt-ts/``."""
    plain = [p for p in paths if "txt-ts/" not in p]
    return plain or paths


def release_pairs(tree: FileTree) -> list[str]:
    """The language pairs of a WMT release (pairs with a source file), sorted."""
    return sorted({m["pair"] for p in _prefer_txt(tree.files()) if (m := _SOURCE.search(p))})


def find_release(tree: FileTree, pair: str | None) -> WmtRelease:
    """Locate the files of ``pair`` (or of the only pair) in a WMT release; raise with the pairs found."""
    files = _prefer_txt(tree.files())
    sources = {}
    for path in files:
        match = _SOURCE.search(path)
        if match:
            sources.setdefault(match["pair"], (path, match["testset"]))
    if not sources:
        raise StudyError(
            "no WMT source file found (expected <testset>.<xx-yy>.src.<xx>, e.g. in txt/sources/); "
            "is this a WMT release folder? see docs/formats.md",
            file=tree.label,
        )
    if pair is None:
        if len(sources) > 1:
            raise StudyError(
                f"this WMT release has several language pairs ({', '.join(sorted(sources))}); "
                "choose one with pair='xx-yy' (command line: --pair xx-yy)",
                file=tree.label,
            )
        pair = next(iter(sources))
    if pair not in sources:
        raise StudyError(
            f"this WMT release has no language pair {pair!r}; pairs found: "
            f"{', '.join(sorted(sources))} — choose one of them with --pair",
            file=tree.label,
        )
    source, testset = sources[pair]
    release = WmtRelease(pair=pair, testset=testset, source=source)
    lp = pair.replace("-", "")
    for path in files:
        if (match := _REFERENCE.search(path)) and match["pair"] == pair:
            if match["testset"] == testset:
                release.references[match["ref"]] = path
        elif (match := _SYSTEM.search(path)) and match["pair"] == pair:
            if match["testset"] == testset:
                release.systems[match["system"]] = path
        elif (match := _DA_SEG.search(path)) and match["pair"] == pair:
            release.da_segments = path
        elif (match := _DA_SYS.search(path)) and match["pair"] == pair:
            release.da_systems = path
        elif (match := _MQM_SEG.search(path)) and match["lp"] == lp and match["testset"] == testset:
            release.mqm_segments = path
    if not release.references:
        raise StudyError(
            f"no reference file for {pair} (expected references/{testset}.{pair}.ref.A.<lang>)",
            file=tree.label,
        )
    return release


def _normal(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


class _NameMatcher:
    """Match system names used in human-score files to the names of the translations in the study."""

    def __init__(self, names: Sequence[str]) -> None:
        self.names = list(names)
        self.normal = {_normal(n): n for n in self.names}

    def __call__(self, name: str) -> str | None:
        if name in self.names:
            return name
        key = _normal(name)
        if key in self.normal:
            return self.normal[key]
        if len(key) >= 3:
            hits = [n for k, n in self.normal.items() if key in k or k in key]
            if len(hits) == 1:
                return hits[0]
        return None


def _lines(tree: FileTree, path: str) -> list[str]:
    text = tree.read_text(path)
    return text.split("\n")[:-1] if text.endswith("\n") else text.split("\n")


def _clean(lines: list[str]) -> list[str]:
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def _whitespace_rows(tree: FileTree, path: str, columns: int) -> list[tuple[int, list[str]]]:
    """Rows of a whitespace-separated file (header skipped), with their 1-based line numbers."""
    rows = []
    for number, line in enumerate(_clean(_lines(tree, path)), start=1):
        cells = line.split()
        if number == 1 or not cells:
            continue
        if len(cells) < columns:
            raise InputError(
                f"{len(cells)} fields, expected {columns} (space-separated)",
                file=tree.display(path),
                line=number,
            )
        rows.append((number, cells))
    return rows


def wmt_study(
    tree: FileTree,
    *,
    pair: str | None = None,
    reference: str | Sequence[str] | None = None,
    name: str | None = None,
) -> LoadResult:
    """Load one language pair of a WMT release (see the module docstring for the layout and name rules)."""
    release = find_release(tree, pair)
    pair = release.pair
    source_lang, target_lang = pair.split("-")
    files: dict[str, list[str]] = {}
    assert release.source is not None
    source_lines = _clean(_lines(tree, release.source))
    files[tree.display(release.source)] = source_lines
    ref_lines = {
        letter: _clean(_lines(tree, path)) for letter, path in sorted(release.references.items())
    }
    for letter, path in sorted(release.references.items()):
        files[tree.display(path)] = ref_lines[letter]
    system_lines = {
        system: _clean(_lines(tree, path)) for system, path in sorted(release.systems.items())
    }
    for system, path in sorted(release.systems.items()):
        files[tree.display(path)] = system_lines[system]
    n = check_line_counts(files)
    check_blank_lines(tree.display(release.source), source_lines)
    for letter, path in release.references.items():
        check_blank_lines(tree.display(path), ref_lines[letter])
    warnings: list[LoadWarning] = []
    for system, lines in system_lines.items():
        blank = [i for i, line in enumerate(lines, start=1) if not line.strip()]
        if blank:
            warnings.append(
                LoadWarning(
                    "blank-output-lines",
                    f"system {system!r} has {len(blank)} blank lines (scored as empty outputs)",
                    file=tree.display(release.systems[system]),
                    line=blank[0],
                )
            )

    # Every reference translation is loaded; the chosen ones become streams at the end.
    letters = sorted(ref_lines)
    all_refs = {f"ref-{x}": ref_lines[x] for x in letters}
    systems: dict[str, list[str | None]] = {s: list(t) for s, t in system_lines.items()}
    segments = tuple(Segment(str(i), None, source_lines[i - 1]) for i in range(1, n + 1))
    segment_ids = {segment.id for segment in segments}

    ratings: list[Rating] = []
    criteria: dict[str, Criterion] = {}
    unmatched: dict[str, set[str]] = {}
    ambiguous: dict[str, set[str]] = {}
    match_system = _NameMatcher(list(systems))

    def attach(raw: str, file: str, line: int) -> str | None:
        if raw in systems:
            return raw
        letter = reference_letter(raw)
        if letter == "" and len(letters) == 1:
            letter = letters[0]
        if letter == "":
            ambiguous.setdefault(file, set()).add(raw)
            return None
        if letter is not None and letter in ref_lines:
            return f"ref-{letter}"
        name = None if letter is not None else match_system(raw)
        if name is None:
            unmatched.setdefault(file, set()).add(raw)
        return name

    def check_segment(seg: str, file: str, line: int) -> None:
        if seg not in segment_ids:
            raise InputError(
                f"segment {seg!r} does not exist; the {pair} test set has segments 1-{n}",
                file=file,
                line=line,
                column="SID",
            )

    if release.da_segments:
        file = tree.display(release.da_segments)
        criteria.update(DA_CRITERIA)
        for line, cells in _whitespace_rows(tree, release.da_segments, 4):
            system = attach(re.sub(r"\.\d+$", "", cells[0]), file, line)
            if system is None:
                continue
            check_segment(cells[1], file, line)
            raw = parse_score(cells[2], file=file, line=line, column="RAW.SCR")
            z = parse_score(cells[3], file=file, line=line, column="Z.SCR")
            if not criteria["da"].contains(raw):
                raise InputError(
                    f"DA score {raw:g} outside 0-100", file=file, line=line, column="RAW.SCR"
                )
            ratings.append(Rating(system, cells[1], None, "crowd", "da", raw))
            ratings.append(Rating(system, cells[1], None, "crowd", "da_z", z))
    if release.da_systems:
        file = tree.display(release.da_systems)
        criteria.update(DA_CRITERIA)
        for line, cells in _whitespace_rows(tree, release.da_systems, 4):
            system = attach(re.sub(r"\.\d+$", "", cells[3]), file, line)
            if system is None:
                continue
            raw = parse_score(cells[0], file=file, line=line, column="RAW.SCR")
            z = parse_score(cells[1], file=file, line=line, column="Z.SCR")
            ratings.append(Rating(system, None, None, "crowd", "da", raw))
            ratings.append(Rating(system, None, None, "crowd", "da_z", z))
    if release.mqm_segments:
        file = tree.display(release.mqm_segments)
        criteria["mqm"] = MQM_CRITERION
        for line, cells in _whitespace_rows(tree, release.mqm_segments, 3):
            if cells[1] == "None":
                continue
            system = attach(cells[0], file, line)
            if system is None:
                continue
            check_segment(cells[2], file, line)
            score = parse_score(cells[1], file=file, line=line, column="mqm_avg_score")
            ratings.append(Rating(system, cells[2], None, "expert", "mqm", score))
    for file, names in unmatched.items():
        warnings.append(
            LoadWarning(
                "scores-without-text",
                f"scores for {', '.join(sorted(names))} were left out: their translations are not in "
                "the release, so there is no text to compare with the human scores",
                file=file,
            )
        )
    for file, names in ambiguous.items():
        warnings.append(
            LoadWarning(
                "scores-without-text",
                f"scores for {', '.join(sorted(names))} were left out: the name says a human "
                f"translation but not which one, and {pair} has {len(letters)} references "
                f"({', '.join(all_refs)}), so the scores cannot be attached to a text",
                file=file,
            )
        )
    full = Study(
        name=name or f"{release.testset} {pair}",
        segments=segments,
        references=all_refs,  # type: ignore[arg-type]
        systems=systems,
        human_systems=frozenset(),
        criteria=criteria,
        ratings=tuple(r for r in ratings if r.system not in all_refs),
        source_lang=source_lang,
        target_lang=target_lang,
        metadata={
            "format": "wmt-release",
            "testset": release.testset,
            "pair": pair,
            "release": tree.label,
            "all_references": list(all_refs),
            "reference_ratings": [
                [r.system, r.segment_id, r.rater, r.group, r.criterion, r.score]
                for r in ratings
                if r.system in all_refs
            ],
        },
    )
    view = choose_references(full, list(all_refs)[:1] if reference is None else reference)
    return LoadResult(view.study, tuple(warnings) + view.warnings)
