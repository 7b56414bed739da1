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

:func:`wmt_study` reads in three steps: the texts (:func:`_read_texts`: every file line-aligned, blank
source and reference lines refused), the human scores (:class:`_HumanScores`, one reader per kind of score
file, each row attached to a text of the release or counted as left out), then the study with every
reference and the view of the chosen ones (:func:`~bleu_core.study.reference_choice.choose_references`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from bleu_core.errors import InputError, StudyError
from bleu_core.io.cells import number
from bleu_core.io.members import FileTree
from bleu_core.study.formats.release_texts import blank_output_warnings, choose_pair, read_aligned
from bleu_core.study.model import Criterion, LoadResult, LoadWarning, Rating, Segment, Study
from bleu_core.study.ratings import KNOWN_CRITERIA
from bleu_core.study.reference_choice import choose_references, reference_letter

__all__ = ["WMT_SOURCE_FILE", "WmtRelease", "find_release", "release_pairs", "wmt_study"]

_PAIR = r"(?P<pair>[a-z]{2,3}-[a-z]{2,3})"
#: A WMT release's source file (``<testset>.<pair>.src.<lang>``): also how a folder is recognised as one.
WMT_SOURCE_FILE = re.compile(rf"(?:^|/)(?P<testset>[^/]+)\.{_PAIR}\.src\.(?P<lang>[\w-]+)$")
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
    return sorted(
        {m["pair"] for p in _prefer_txt(tree.files()) if (m := WMT_SOURCE_FILE.search(p))}
    )


def find_release(tree: FileTree, pair: str | None) -> WmtRelease:
    """Locate the files of ``pair`` (or of the only pair) in a WMT release; raise with the pairs found."""
    files = _prefer_txt(tree.files())
    sources: dict[str, tuple[str, str]] = {}
    for path in files:
        match = WMT_SOURCE_FILE.search(path)
        if match:
            sources.setdefault(match["pair"], (path, match["testset"]))
    if not sources:
        raise StudyError(
            "no WMT source file found (expected <testset>.<xx-yy>.src.<xx>, e.g. in txt/sources/); "
            "is this a WMT release folder? see docs/formats.md",
            file=tree.label,
        )
    pair = choose_pair(sorted(sources), pair, tree.label)
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


def _whitespace_rows(tree: FileTree, path: str, columns: int) -> list[tuple[int, list[str]]]:
    """Rows of a whitespace-separated file (header skipped), with their 1-based line numbers."""
    rows = []
    for line_no, line in enumerate(tree.read_lines(path), start=1):
        cells = line.split()
        if line_no == 1 or not cells:
            continue
        if len(cells) < columns:
            raise InputError(
                f"{len(cells)} fields, expected {columns} (space-separated)",
                file=tree.display(path),
                line=line_no,
            )
        rows.append((line_no, cells))
    return rows


@dataclass
class _Texts:
    """The release's texts for one pair: source lines, references by letter, systems by name."""

    source: list[str]
    references: dict[str, list[str]]
    systems: dict[str, list[str]]
    warnings: list[LoadWarning]


def _read_texts(tree: FileTree, release: WmtRelease) -> _Texts:
    """Every text file of the pair, checked line-aligned; blank source or reference lines are errors,
    blank system lines a warning."""
    assert release.source is not None
    texts = read_aligned(tree, release.source, release.references, release.systems)
    warnings = blank_output_warnings(tree, release.systems, texts.systems)
    return _Texts(texts.source, texts.references, texts.systems, warnings)


@dataclass
class _HumanScores:
    """The human scores of a release, each row attached to a text of the study (a system or a reference
    ``ref-X``) or left out and remembered for the warning."""

    pair: str
    n_segments: int
    systems: list[str]
    letters: list[str]
    ratings: list[Rating] = field(default_factory=list)
    criteria: dict[str, Criterion] = field(default_factory=dict)
    unmatched: dict[str, set[str]] = field(default_factory=dict)
    ambiguous: dict[str, set[str]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._match_system = _NameMatcher(self.systems)
        self._segment_ids = {str(i) for i in range(1, self.n_segments + 1)}

    def attach(self, raw: str, file: str) -> str | None:
        """The study's name for the translation a score file calls ``raw``, or ``None`` (left out)."""
        if raw in self.systems:
            return raw
        letter = reference_letter(raw)
        if letter == "" and len(self.letters) == 1:
            letter = self.letters[0]
        if letter == "":
            self.ambiguous.setdefault(file, set()).add(raw)
            return None
        if letter is not None and letter in self.letters:
            return f"ref-{letter}"
        name = None if letter is not None else self._match_system(raw)
        if name is None:
            self.unmatched.setdefault(file, set()).add(raw)
        return name

    def check_segment(self, seg: str, file: str, line: int) -> None:
        if seg not in self._segment_ids:
            raise InputError(
                f"segment {seg!r} does not exist; the {self.pair} test set has segments "
                f"1-{self.n_segments}",
                file=file,
                line=line,
                column="SID",
            )

    def read_da_segments(self, tree: FileTree, path: str) -> None:
        """``ad-seg-scores-xx-yy.csv``: SYS SID RAW.SCR Z.SCR N, one row per rated segment."""
        self._read_da(tree, path, system=0, segment=1, raw=2)

    def read_da_systems(self, tree: FileTree, path: str) -> None:
        """``ad-sys-scores-xx-yy.csv``: RAW.SCR Z.SCR N SYS N.ALL, one row per system."""
        self._read_da(tree, path, system=3, segment=None, raw=0)

    def _read_da(
        self, tree: FileTree, path: str, *, system: int, segment: int | None, raw: int
    ) -> None:
        """DA rows: the system name (its ``.N`` suffix dropped) in column ``system``, the raw score in
        column ``raw`` and the z-score right after it; the segment id in column ``segment`` (``None``: one
        row per system). A segment's raw score must lie in 0-100."""
        file = tree.display(path)
        self.criteria.update(DA_CRITERIA)
        for line, cells in _whitespace_rows(tree, path, 4):
            name = self.attach(re.sub(r"\.\d+$", "", cells[system]), file)
            if name is None:
                continue
            seg = None if segment is None else cells[segment]
            if seg is not None:
                self.check_segment(seg, file, line)
            score = number(cells[raw], file=file, line=line, column="RAW.SCR")
            z = number(cells[raw + 1], file=file, line=line, column="Z.SCR")
            if seg is not None and not self.criteria["da"].contains(score):
                raise InputError(
                    f"DA score {score:g} outside 0-100", file=file, line=line, column="RAW.SCR"
                )
            self.ratings.append(Rating(name, seg, None, "crowd", "da", score))
            self.ratings.append(Rating(name, seg, None, "crowd", "da_z", z))

    def read_mqm_segments(self, tree: FileTree, path: str) -> None:
        """Google's ``mqm_*.avg_seg_scores.tsv``: system mqm_avg_score seg_id (``None``: not rated)."""
        file = tree.display(path)
        self.criteria["mqm"] = MQM_CRITERION
        for line, cells in _whitespace_rows(tree, path, 3):
            if cells[1] == "None":
                continue
            system = self.attach(cells[0], file)
            if system is None:
                continue
            self.check_segment(cells[2], file, line)
            score = number(cells[1], file=file, line=line, column="mqm_avg_score")
            self.ratings.append(Rating(system, cells[2], None, "expert", "mqm", score))

    def warnings(self) -> list[LoadWarning]:
        """One warning per score file with rows that could not be attached to a text."""
        found = [
            LoadWarning(
                "scores-without-text",
                f"scores for {', '.join(sorted(names))} were left out: their translations are not in "
                "the release, so there is no text to compare with the human scores",
                file=file,
            )
            for file, names in self.unmatched.items()
        ]
        refs = ", ".join(f"ref-{x}" for x in self.letters)
        return found + [
            LoadWarning(
                "scores-without-text",
                f"scores for {', '.join(sorted(names))} were left out: the name says a human "
                f"translation but not which one, and {self.pair} has {len(self.letters)} references "
                f"({refs}), so the scores cannot be attached to a text",
                file=file,
            )
            for file, names in self.ambiguous.items()
        ]


def wmt_study(
    tree: FileTree,
    *,
    pair: str | None = None,
    reference: str | Sequence[str] | None = None,
    name: str | None = None,
) -> LoadResult:
    """Load one language pair of a WMT release (see the module docstring for the layout and name rules)."""
    release = find_release(tree, pair)
    texts = _read_texts(tree, release)
    n = len(texts.source)
    scores = _HumanScores(release.pair, n, list(texts.systems), sorted(texts.references))
    for path, read in (
        (release.da_segments, scores.read_da_segments),
        (release.da_systems, scores.read_da_systems),
        (release.mqm_segments, scores.read_mqm_segments),
    ):
        if path:
            read(tree, path)
    # Every reference translation is loaded; the chosen ones become streams at the end.
    all_refs = {f"ref-{x}": texts.references[x] for x in sorted(texts.references)}
    source_lang, target_lang = release.pair.split("-")
    full = Study(
        name=name or f"{release.testset} {release.pair}",
        segments=tuple(Segment(str(i), None, texts.source[i - 1]) for i in range(1, n + 1)),
        references=all_refs,  # type: ignore[arg-type]
        systems={s: list(t) for s, t in texts.systems.items()},
        human_systems=frozenset(),
        criteria=scores.criteria,
        ratings=tuple(r for r in scores.ratings if r.system not in all_refs),
        source_lang=source_lang,
        target_lang=target_lang,
        metadata={
            "format": "wmt-release",
            "testset": release.testset,
            "pair": release.pair,
            "release": tree.label,
            "all_references": list(all_refs),
            "reference_ratings": [
                [r.system, r.segment_id, r.rater, r.group, r.criterion, r.score]
                for r in scores.ratings
                if r.system in all_refs
            ],
        },
    )
    view = choose_references(full, list(all_refs)[:1] if reference is None else reference)
    return LoadResult(view.study, tuple(texts.warnings + scores.warnings()) + view.warnings)
