"""The WMT25+ General MT release as JSON lines (folder or ``.zip``) → a study for one language pair.

WMT25 (``wmt-conference/wmt25-general-mt``) and WMT26 (``wmt-conference/wmt26-general-mt``) publish whole
documents, one JSON object per line, instead of WMT24's line-aligned text files::

    data/wmt25-genmt.jsonl              one document per line: doc_id, domain, src_lang, tgt_lang,
                                        src_text, refs ({"refA": {"ref": text}}, or {} without reference)
    data/systems/SYS.jsonl              one document per line: doc_id, hypothesis (the whole document)
                                        and, in WMT25, paragraphs_match
    data/wmt25-genmt-humeval.jsonl      WMT25's human scores, one paragraph per line
                                        (:mod:`bleu_core.study.formats.genmt_scores`)
    data/automatic_scores/SYS.jsonl     five neural metrics, one score per paragraph (attached as metrics)

**Paragraphs are the segments.** WMT25 separates a document's paragraphs by a blank line (``"\\n\\n"``),
WMT26 wraps each in ``<p>…</p>``. Segment ``i`` (0-based) of document ``D`` has the id ``D_#_i`` in
WMT25, the ``doc_id`` of its human-evaluation line; in WMT26 ``DOMAIN_###_DOC_###_i``, the ``item_id``
of the organisers' Pearmut campaigns (``humeval/01-prepare_campaigns.py``). In WMT25 a translation's
``<br>`` and ``</br>`` become ``"\\n"``, as the organisers' ``humeval/04-collect_humeval.py`` converts them
before matching error spans ("Appraise treats <br> as a single character"), so spans land on the
characters the annotator marked; WMT26's Pearmut campaigns show the segmented text as it is (``<br>``
kept), and so does the study.

**Language pairs** are ``SRC-TGT`` from the documents' ``src_lang`` and ``tgt_lang``: WMT25 ``en-cs_CZ``,
WMT26 ISO 639-3 + script ``eng_Latn-ces_Latn`` (its ``doc_id`` is
``WMT26_###_DOMAIN_###_SRC_###_TGT_###_DOC``). The target code picks BLEU's default tokenizer by its
language or script (:func:`bleu_core.tokenize.tokenizers.tokenizer_for_language`: ``ja_JP`` and ``jpn_Jpan`` →
``ja-mecab``, ``zho_Hans`` → ``zh``).

**References** are named ``ref-A`` for ``refA`` (``ref-PE`` for ``refPE``…). Documents without any
reference (``refs`` {}) cannot be scored by BLEU: they are left out with a warning. WMT26 has post-edited
and from-scratch references: each reference's kind is kept in ``metadata["reference_kinds"]`` (stream →
``post-edited``, ``from-scratch`` or ``unknown``) and, where the file names it, the system a post-edited
reference was edited from in ``metadata["reference_sources"]`` (stream → {document → system}); the
public release does not document the reference entries' fields (see docs/formats.md for what is read).

**Mismatched documents.** A system document whose paragraph count differs from the source's (WMT25's
``paragraphs_match`` false) cannot be aligned: its paragraphs count as "no output" for that system, with
a warning naming the file and line.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from bleu_core.errors import InputError, StudyError
from bleu_core.io.cells import json_cell
from bleu_core.io.members import FileTree
from bleu_core.study.formats.release_texts import choose_pair
from bleu_core.study.model import LoadWarning, Segment

__all__ = [
    "GenmtDocument",
    "GenmtRelease",
    "find_genmt",
    "genmt_pairs",
    "is_genmt_release",
    "read_documents",
    "read_system",
    "split_paragraphs",
    "stream_name",
    "target_text",
]

_DOCUMENTS = re.compile(r"(?:^|/)wmt(?P<year>\d\d)-genmt\.jsonl$")
_HUMEVAL = re.compile(r"(?:^|/)wmt\d\d-genmt-humeval\.jsonl$")
_SYSTEM = re.compile(r"(?:^|/)systems/(?P<system>[^/]+)\.jsonl$")
_AUTOMATIC = re.compile(r"(?:^|/)automatic_scores/(?P<system>[^/]+)\.jsonl$")
_PARAGRAPH = re.compile(r"<p>(.*?)</p>", re.DOTALL)
_BREAK = re.compile(r"</?br\s*/?>")
_PE_KEYS = ("post_edited_from", "postedited_from", "pe_system", "source_system", "system")
_KIND_KEYS = ("kind", "type", "method")


@dataclass(frozen=True)
class GenmtDocument:
    """One line of ``wmtYY-genmt.jsonl``: its paragraphs and references (kind and source per name)."""

    doc_id: str
    domain: str
    pair: str
    source: tuple[str, ...]
    references: dict[str, tuple[str, ...]]
    kinds: dict[str, str]
    edited_from: dict[str, str]
    line: int


@dataclass
class GenmtRelease:
    """The files of a WMT25+ JSON-lines release (``layout``: ``wmt25`` or ``wmt26``)."""

    layout: str
    documents: str | None
    systems: dict[str, str] = field(default_factory=dict)
    humeval: str | None = None
    automatic: dict[str, str] = field(default_factory=dict)


def _layout_of(path: str) -> str:
    """``wmt26`` for ``wmt26-genmt.jsonl`` and later years, else ``wmt25``."""
    match = _DOCUMENTS.search(path)
    return "wmt26" if match is not None and int(match["year"]) >= 26 else "wmt25"


def is_genmt_release(files: Sequence[str]) -> bool:
    """True when ``files`` hold a ``wmtYY-genmt.jsonl`` or ``systems/*.jsonl`` (the JSON-lines layout).

    >>> is_genmt_release(["data/wmt25-genmt.jsonl", "data/systems/A.jsonl"])
    True
    >>> is_genmt_release(["txt/sources/en-ja.txt"])
    False
    """
    return any(_DOCUMENTS.search(f) or _SYSTEM.search(f) for f in files)


def find_genmt(tree: FileTree) -> GenmtRelease:
    """The release's files; without ``wmtYY-genmt.jsonl`` (sources, references) a :class:`StudyError`."""
    files = tree.files()
    documents = sorted((f for f in files if _DOCUMENTS.search(f)), key=len)
    release = GenmtRelease(_layout_of(documents[0]) if documents else "wmt25", None)
    release.documents = documents[0] if documents else None
    for path in files:
        if (m := _SYSTEM.search(path)) and not _DOCUMENTS.search(path):
            release.systems[m["system"]] = path
        elif m := _AUTOMATIC.search(path):
            release.automatic[m["system"]] = path
        elif _HUMEVAL.search(path):
            release.humeval = path
    if release.documents is None:
        raise StudyError(
            "this WMT25+ release has system outputs (systems/*.jsonl) but not the test set with the "
            "sources and references (data/wmt25-genmt.jsonl or wmt26-genmt.jsonl, in the organisers' "
            "repository); put it beside data/systems/ — see docs/formats.md",
            file=tree.label,
        )
    if not release.systems:
        raise StudyError(
            "no system outputs: expected data/systems/SYSTEM.jsonl beside the test set (in the app, "
            "upload the release as one .zip: it keeps the folders)",
            file=tree.label,
        )
    return release


def split_paragraphs(text: str, layout: str) -> list[str]:
    """A document's paragraphs: ``<p>…</p>`` (WMT26, when the text has them), else blank-line separated.

    >>> split_paragraphs("One.\\n\\nTwo.", "wmt25")
    ['One.', 'Two.']
    >>> split_paragraphs("<p>One.<br>Still one.</p>\\n<p>Two.</p>\\n", "wmt26")
    ['One.<br>Still one.', 'Two.']
    """
    if layout == "wmt26" and "<p>" in text:
        return _PARAGRAPH.findall(text)
    return text.split("\n\n")


def target_text(paragraph: str) -> str:
    """A translated paragraph as it was rated: ``<br>`` and ``</br>`` as ``"\\n"`` (organisers' rule).

    >>> target_text("a<br>b</br>c")
    'a\\nb\\nc'
    """
    return _BREAK.sub("\n", paragraph)


def as_rated(paragraph: str, layout: str) -> str:
    """A translated paragraph as the annotators' tool showed it: WMT25's Appraise text
    (:func:`target_text`); WMT26's Pearmut items keep the release's text as it is."""
    return target_text(paragraph) if layout == "wmt25" else paragraph


def genmt_pairs(tree: FileTree) -> list[str]:
    """The language pairs of the release's test set, sorted (``[]`` when it has none)."""
    found = sorted((f for f in tree.files() if _DOCUMENTS.search(f)), key=len)
    if not found:
        return []
    return sorted({d.pair for d in read_documents(tree, found[0], _layout_of(found[0]))})


def _object(line: str, file: str, number: int, expected: str) -> dict[str, object]:
    item = json_cell(line, file=file, line=number, expected=expected)
    if not isinstance(item, dict):
        raise InputError(f"each line must be a JSON object ({expected})", file=file, line=number)
    return item


def _text(item: Mapping[str, object], key: str, file: str, number: int) -> str:
    value = item.get(key)
    if not isinstance(value, str):
        raise InputError(
            f"{key!r} must be a text, found {type(value).__name__}", file=file, line=number
        )
    return value


def stream_name(name: str) -> str:
    """The reference stream of a release reference name: ``refA`` → ``ref-A``."""
    return f"ref-{name[3:]}" if name.lower().startswith("ref") and len(name) > 3 else f"ref-{name}"


def _kind(name: str, entry: Mapping[str, object]) -> str:
    """``post-edited``, ``from-scratch`` or ``unknown``: the entry's own field first, else its name."""
    said = next((str(entry[k]) for k in _KIND_KEYS if isinstance(entry.get(k), str)), name)
    lower = said.lower().replace("_", "-")
    if "post" in lower or lower.endswith("pe") or "-pe" in lower:
        return "post-edited"
    if "scratch" in lower or re.fullmatch(r"ref-?[a-z]", lower):
        return "from-scratch"
    return "unknown"


def _references(
    refs: object, layout: str, file: str, number: int
) -> tuple[dict[str, tuple[str, ...]], dict[str, str], dict[str, str]]:
    """Texts (paragraphs, as rated), kinds and post-editing sources of one document's ``refs``."""
    if not isinstance(refs, dict):
        raise InputError("'refs' must be an object ({} without reference)", file=file, line=number)
    texts, kinds, sources = {}, {}, {}
    for name, entry in refs.items():
        if isinstance(entry, str):
            entry = {"ref": entry}
        if not isinstance(entry, dict) or not isinstance(entry.get("ref"), str):
            raise InputError(
                f"reference {name!r} must be an object with its text as 'ref'",
                file=file,
                line=number,
            )
        stream = stream_name(str(name))
        texts[stream] = tuple(as_rated(p, layout) for p in split_paragraphs(entry["ref"], layout))
        kinds[stream] = _kind(str(name), entry)
        source = next((entry[k] for k in _PE_KEYS if isinstance(entry.get(k), str)), None)
        if source is not None:
            sources[stream] = str(source)
    return texts, kinds, sources


def read_documents(tree: FileTree, path: str, layout: str) -> list[GenmtDocument]:
    """Every document of the test set ``path`` (a malformed line: :class:`InputError` naming it)."""
    shown = tree.display(path)
    documents: list[GenmtDocument] = []
    seen: dict[str, int] = {}
    expected = "one document per line with doc_id, src_lang, tgt_lang, src_text and refs"
    for number, line in enumerate(tree.read_lines(path), start=1):
        if not line.strip():
            continue
        item = _object(line, shown, number, expected)
        doc_id = _text(item, "doc_id", shown, number)
        if doc_id in seen:
            raise InputError(
                f"document {doc_id!r} is given twice (first on line {seen[doc_id]})",
                file=shown,
                line=number,
            )
        seen[doc_id] = number
        pair = f"{_text(item, 'src_lang', shown, number)}-{_text(item, 'tgt_lang', shown, number)}"
        texts, kinds, sources = _references(item.get("refs", {}), layout, shown, number)
        documents.append(
            GenmtDocument(
                doc_id,
                str(item.get("domain") or ""),
                pair,
                tuple(split_paragraphs(_text(item, "src_text", shown, number), layout)),
                texts,
                kinds,
                sources,
                number,
            )
        )
    return documents


@dataclass(frozen=True)
class SystemOutput:
    """One system's paragraphs per document of the pair (``None``: no output), and the warnings."""

    texts: list[str | None]
    warnings: list[LoadWarning]


def read_system(
    tree: FileTree, path: str, layout: str, documents: Sequence[GenmtDocument], name: str
) -> SystemOutput | None:
    """``name``'s paragraphs aligned with ``documents`` (``None`` when the file has none of them)."""
    shown = tree.display(path)
    wanted = {d.doc_id: d for d in documents}
    found: dict[str, list[str]] = {}
    warnings: list[LoadWarning] = []
    for number, line in enumerate(tree.read_lines(path), start=1):
        if not line.strip():
            continue
        item = _object(line, shown, number, "one document per line with doc_id and hypothesis")
        doc_id = _text(item, "doc_id", shown, number)
        if doc_id not in wanted:
            continue
        if doc_id in found:
            raise InputError(f"document {doc_id!r} is given twice", file=shown, line=number)
        paragraphs = split_paragraphs(_text(item, "hypothesis", shown, number), layout)
        expected = len(wanted[doc_id].source)
        if len(paragraphs) != expected:
            flag = item.get("paragraphs_match")
            said = "" if flag is None else f" (paragraphs_match: {str(flag).lower()})"
            warnings.append(
                LoadWarning(
                    "paragraph-mismatch",
                    f"{name}: document {doc_id} has {len(paragraphs)} paragraphs, the source "
                    f"{expected}{said}; they cannot be aligned, so its paragraphs count as no output "
                    "of this system",
                    file=shown,
                    line=number,
                )
            )
            found[doc_id] = []
            continue
        found[doc_id] = [as_rated(p, layout) for p in paragraphs]
    if not found:
        return None
    missing = [d.doc_id for d in documents if d.doc_id not in found]
    if missing:
        warnings.append(
            LoadWarning(
                "missing-documents",
                f"{name} has no translation of {len(missing)} of the pair's {len(documents)} "
                f"documents (e.g. {missing[0]}): no output there",
                file=shown,
            )
        )
    texts: list[str | None] = []
    for doc in documents:
        got = found.get(doc.doc_id) or []
        texts.extend(got if got else [None] * len(doc.source))
    return SystemOutput(texts, warnings)


def segment_id(doc: GenmtDocument, index: int, layout: str) -> str:
    """The id of paragraph ``index`` of ``doc`` (see the module docstring)."""
    if layout == "wmt26":
        parts = doc.doc_id.split("_###_")
        short = f"{doc.domain}_###_{parts[-1]}" if len(parts) >= 5 else doc.doc_id
        return f"{short}_###_{index}"
    return f"{doc.doc_id}_#_{index}"


def choose_documents(
    tree: FileTree, release: GenmtRelease, pair: str | None
) -> tuple[str, list[GenmtDocument], list[LoadWarning]]:
    """The pair chosen, its documents that have the main reference, and the note on those left out."""
    assert release.documents is not None
    every = read_documents(tree, release.documents, release.layout)
    if not every:
        raise StudyError("the test set has no document", file=tree.display(release.documents))
    pair = choose_pair(sorted({d.pair for d in every}), pair, tree.label)
    documents = [d for d in every if d.pair == pair]
    counts: dict[str, int] = {}
    for doc in documents:
        for stream in doc.references:
            counts[stream] = counts.get(stream, 0) + 1
    if not counts:
        raise StudyError(
            f"no document of {pair} has a reference ('refs' is {{}} everywhere): BLEU needs one",
            file=tree.display(release.documents),
        )
    main = max(sorted(counts), key=lambda s: counts[s])
    kept = [d for d in documents if main in d.references]
    notes = []
    if len(kept) < len(documents):
        left = len(documents) - len(kept)
        notes.append(
            LoadWarning(
                "documents-without-reference",
                f"{left} of the {len(documents)} documents of {pair} have no {main} reference and are "
                f"left out ({sum(len(d.source) for d in documents if d not in kept)} paragraphs): BLEU "
                "needs a reference",
                file=tree.display(release.documents),
            )
        )
    for doc in kept:
        for stream, texts in doc.references.items():
            if len(texts) != len(doc.source):
                raise InputError(
                    f"reference {stream} of document {doc.doc_id} has {len(texts)} paragraphs, the "
                    f"source {len(doc.source)}",
                    file=tree.display(release.documents),
                    line=doc.line,
                )
    return pair, kept, notes


def build_texts(
    documents: Sequence[GenmtDocument], layout: str
) -> tuple[tuple[Segment, ...], dict[str, list[str | None]]]:
    """The segments (one per paragraph) and the reference streams of ``documents``."""
    segments = tuple(
        Segment(segment_id(doc, i, layout), doc.doc_id, source, doc.domain or None)
        for doc in documents
        for i, source in enumerate(doc.source)
    )
    names = sorted({s for doc in documents for s in doc.references})
    references: dict[str, list[str | None]] = {
        name: [
            text
            for doc in documents
            for text in (doc.references.get(name) or (None,) * len(doc.source))
        ]
        for name in names
    }
    return segments, references


def reference_metadata(documents: Sequence[GenmtDocument]) -> dict[str, object]:
    """``reference_kinds`` and ``reference_sources`` (see the module docstring)."""
    kinds: dict[str, str] = {}
    sources: dict[str, dict[str, str]] = {}
    for doc in documents:
        for stream, kind in doc.kinds.items():
            kinds.setdefault(stream, kind)
        for stream, system in doc.edited_from.items():
            sources.setdefault(stream, {})[doc.doc_id] = system
    return {"reference_kinds": kinds, "reference_sources": sources}


def study_languages(pair: str) -> tuple[str, str]:
    """Source and target language of ``pair`` as the release writes them (``en``, ``cs_CZ``).

    >>> study_languages("en-cs_CZ"), study_languages("eng_Latn-ces_Latn")
    (('en', 'cs_CZ'), ('eng_Latn', 'ces_Latn'))
    """
    source, _, target = pair.partition("-")
    return source, target
