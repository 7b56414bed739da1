"""MQM error spans: kept by the loader, saved and loaded, validated, mapped onto BLEU tokens and crossed with
BLEU's matches (bleu_core.study.spans, bleu_core.tokenize.token_offsets, bleu_core.study.error_agreement, ``spans`` CLI)."""

from __future__ import annotations

import json
import re
import tempfile
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleu_core.cli import main
from bleu_core.engine.matches import match_provenance
from bleu_core.errors import BleuOptionError, InputError, StudyError
from bleu_core.study.demo import load_demo
from bleu_core.study.error_agreement import (
    COUNT_NAMES,
    AgreementCounts,
    error_agreement,
    error_agreement_by_order,
    segment_token_records,
    token_records,
)
from bleu_core.study.formats.mqm import load_mqm_tsv
from bleu_core.study.model import Segment, Study
from bleu_core.study.spans import (
    ErrorSpan,
    check_error_spans,
    spans_from_columns,
    spans_from_marked_text,
    spans_to_columns,
)
from bleu_core.study.storage import read_saved_study, save_study, study_from_dict, study_to_dict
from bleu_core.study.token_masks import matched_mask, max_reference_counts
from bleu_core.tokenize.token_offsets import _fold, token_offsets, tokens_overlapping
from bleu_core.tokenize.tokenizers import TOKENIZER_NAMES, get_tokenizer

TED = Path("/work/shared/data/google-mqm-ted2021/ted")
needs_shared = pytest.mark.skipif(not TED.is_dir(), reason="/work/shared TED MQM data not present")


# ------------------------------------------------------------------------------ the bundled TED demos
def direct_spans(path: Path, reference: str) -> Counter:
    """Every marked error of the TSV, found without bleu_core: split on tabs, find <v> and </v>."""
    lines = path.read_text(encoding="utf-8").split("\n")
    header = lines[0].split("\t")
    col = {name: header.index(name) for name in header}
    found: Counter = Counter()
    for line in lines[1:]:
        if not line:
            continue
        cells = line.split("\t")
        if cells[col["system"]] == reference or cells[col["category"]] == "No-error":
            continue
        for side in ("target", "source"):
            marked = cells[col[side]]
            if "<v>" not in marked:
                continue
            start = marked.index("<v>")
            end = marked.index("</v>") - 3 if "</v>" in marked else len(marked) - 3
            found[
                (
                    cells[col["system"]],
                    cells[col["seg_id"]],
                    cells[col["rater"]],
                    side,
                    start,
                    end,
                    cells[col["category"]],
                    cells[col["severity"]],
                )
            ] += 1
    return found


@needs_shared
@pytest.mark.parametrize(
    ("demo", "lp", "reference"), [("ted-en-de", "ende", "ref"), ("ted-zh-en", "zhen", "refB")]
)
def test_ted_demo_spans_equal_a_direct_count_from_the_tsv(
    demo: str, lp: str, reference: str
) -> None:
    study = load_demo(demo)
    expected = direct_spans(TED / lp / f"mqm_ted_{lp}.tsv", reference)
    got = Counter(
        (s.system, s.segment_id, s.rater, s.side, s.start, s.end, s.category, s.severity)
        for s in study.error_spans
    )
    assert got == expected
    # every TED error row marks exactly one span (data README); en-de 3824, zh-en 5536 outside the reference
    assert sum(expected.values()) == len(study.error_spans)


def test_ted_demo_span_texts_and_sides() -> None:
    study = load_demo("ted-en-de")
    # counts of the bundled demo, from the direct count above (data/google-mqm-ted2021, ende TSV)
    assert len(study.error_spans) == 3824
    # counted from the TSV (the direct count above): 14 rows mark the source, 2 of them the reference's
    assert Counter(s.side for s in study.error_spans) == {"target": 3812, "source": 12}
    span = study.error_spans[
        0
    ]  # TSV line 2: Facebook-AI, segment 1, "<v>in Betracht zu ziehen</v>"
    i = study.segment_index(span.segment_id)
    assert study.systems[span.system][i][span.start : span.end] == "in Betracht zu ziehen"
    assert (span.category, span.top_category, span.severity) == (
        "Terminology/Inappropriate for context",
        "Terminology",
        "Minor",
    )
    small = study.subset(["Nemo"], 30)
    assert small.error_spans and {s.system for s in small.error_spans} == {"Nemo"}
    assert all(small.segment_index(s.segment_id) < 30 for s in small.error_spans)


# ------------------------------------------------------------------------------ a hand-written TSV
HEADER = "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity\n"


def row(
    system: str, seg: str, source: str, target: str, category: str, severity: str, rater: str = "r1"
) -> str:
    return f"{system}\ttalk.1\t1\t{seg}\t{rater}\t{source}\t{target}\t{category}\t{severity}\n"


TOY = HEADER + (
    row("ref", "1", "le chat est sur le tapis", "the cat is on the mat", "No-error", "No-error")
    + row("ref", "2", "un chien", "a dog barks", "No-error", "No-error")
    + row(
        "A",
        "1",
        "le chat est sur le tapis",
        "the cat is on the <v>sofa</v>",
        "Accuracy/Mistranslation",
        "Major",
    )
    + row(
        "A",
        "1",
        "le chat est sur le tapis",
        "<v>the cat</v> is on the sofa",
        "Fluency/Grammar",
        "Minor",
        "r2",
    )
    + row("A", "2", "un <v>chien</v>", "a barks", "Accuracy/Omission", "Major")
    + row("B", "1", "le chat est sur le tapis", "a cat sits on the mat", "No-error", "No-error")
    + row("B", "2", "un chien", "a dog barks <v>loudly", "Accuracy/Addition", "Minor")
)


def test_hand_written_tsv_spans_and_counts() -> None:
    result = load_mqm_tsv(TOY, "mqm_toy_fren.tsv")
    study = result.study
    assert "unclosed-span" in result.warning_codes()
    assert study.systems == {
        "A": ["the cat is on the sofa", "a barks"],
        "B": ["a cat sits on the mat", "a dog barks loudly"],
    }
    assert [
        (s.system, s.segment_id, s.rater, s.side, s.start, s.end) for s in study.error_spans
    ] == [
        ("A", "1", "r1", "target", 18, 22),
        ("A", "1", "r2", "target", 0, 7),
        ("A", "2", "r1", "source", 3, 8),
        ("B", "2", "r1", "target", 12, 18),  # unclosed <v>: runs to the end of the text
    ]
    agreement = error_agreement(study)
    # Hand count, unigrams against "the cat is on the mat" / "a dog barks":
    # A1: the cat is on the matched, sofa not; "the cat" in error (r2), sofa in error (r1) -> 2, 3, 1, 0
    # A2: a barks both matched and clean (the omission is on the source side) -> 0, 2, 0, 0
    assert agreement.systems["A"].counts == AgreementCounts(2, 5, 1, 0)
    assert agreement.systems["A"].source_spans == 1
    # B1: a, sits unmatched; cat on the mat matched; no span -> 0, 4, 0, 2. B2: loudly in error unmatched.
    assert agreement.systems["B"].counts == AgreementCounts(0, 7, 1, 2)
    assert agreement.systems["A"].by_severity == {
        "Major": AgreementCounts(0, 7, 1, 0),
        "Minor": AgreementCounts(2, 5, 0, 1),
    }
    assert agreement.systems["A"].by_category["Fluency"] == AgreementCounts(2, 5, 0, 1)
    assert agreement.counts == AgreementCounts(2, 12, 2, 2)
    assert agreement.systems["B"].segment_counts.tolist() == [[0, 4, 0, 2], [0, 3, 1, 0]]
    # order 2: A1 bigrams "the cat", "cat is", "is on", "on the" matched, "the sofa" not (as at order 1);
    # A2 "a barks" is not a reference bigram ("a dog", "dog barks"): both tokens unmatched and clean
    assert error_agreement(study, max_order=2).systems["A"].counts == AgreementCounts(2, 3, 1, 2)
    # rater r2 annotated only A1 and marked "the cat"
    only_r2 = error_agreement(study, raters=["r2"]).systems["A"]
    assert (only_r2.counts, only_r2.annotated_segments) == (AgreementCounts(2, 3, 0, 1), 1)
    ranking = agreement.segment_ranking("unmatched_clean", top=1)
    assert (ranking[0].system, ranking[0].segment_id, ranking[0].value) == ("B", "1", 2)
    # the per-token view of the same item, for the Explore page
    seg = segment_token_records(study, "A", "1")
    assert [(t.text, t.status, [s.rater for s in t.spans]) for t in seg.tokens] == [
        ("the", "matched", ["r2"]),
        ("cat", "matched", ["r2"]),
        ("is", "matched", []),
        ("on", "matched", []),
        ("the", "matched", []),
        ("sofa", "unmatched", ["r1"]),
    ]
    assert seg.counts() == AgreementCounts(2, 3, 1, 0)
    assert "".join(p.text for p in seg.pieces()) == "the cat is on the sofa"
    assert [(p.text, p.token) for p in seg.pieces()][:3] == [("the", 0), (" ", None), ("cat", 1)]


def test_error_rows_without_marks_are_reported() -> None:
    text = (
        HEADER
        + row("ref", "1", "x", "y", "No-error", "No-error")
        + row("A", "1", "x", "z", "Other", "Minor")
    )
    result = load_mqm_tsv(text, "mqm_toy_fren.tsv")
    assert result.study.error_spans == ()
    assert "errors-without-span" in result.warning_codes()


@pytest.mark.parametrize(
    ("target", "message"),
    [
        (
            "a <v>b <v>c</v></v>",
            r"toy\.tsv, line 3, column target: an error span opens with <v> at character 7 inside another span",
        ),
        ("a b</v>", r"line 3, column target: </v> at character 3 closes no span"),
    ],
)
def test_bad_marks_in_a_tsv(target: str, message: str) -> None:
    text = (
        HEADER
        + row("ref", "1", "x", "a b", "No-error", "No-error")
        + row("A", "1", "x", target, "Other", "Minor")
    )
    with pytest.raises(InputError, match=message):
        load_mqm_tsv(text, "toy.tsv")


def test_unclosed_mark_is_an_error_unless_asked() -> None:
    with pytest.raises(InputError, match=r"never closed with </v>"):
        spans_from_marked_text("a <v>b")
    assert spans_from_marked_text("a <v>b", unclosed="to-end") == ("a b", [(2, 3)])


# ------------------------------------------------------------------------------ validation
def toy_study(**changes: object) -> Study:
    study = Study(
        "toy",
        (Segment("1", None, "ein Hund"), Segment("2")),
        {"ref": ["a dog", "a cat"]},
        {"A": ["the dog", None]},
    )
    return replace(study, **changes)


@pytest.mark.parametrize(
    ("span", "message"),
    [
        (
            ErrorSpan("B", "1", None, "target", 0, 1, "Other", "Minor"),
            r"\(system 'B', segment '1'\) is for unknown system 'B'; known systems: A",
        ),
        (
            ErrorSpan("A", "9", "r", "target", 0, 1, "Other", "Minor"),
            r"segment '9', rater 'r'\) is for unknown segment '9'",
        ),
        (
            ErrorSpan("A", "1", None, "middle", 0, 1, "Other", "Minor"),
            r"has side 'middle'; use 'target'",
        ),  # type: ignore[arg-type]
        (ErrorSpan("A", "1", None, "target", 0, 1, " ", "Minor"), r"has no category"),
        (ErrorSpan("A", "1", None, "target", 0, 1, "Other", ""), r"has no severity"),
        (
            ErrorSpan("A", "2", None, "target", 0, 1, "Other", "Minor"),
            r"no target text for this segment",
        ),
        (
            ErrorSpan("A", "2", None, "source", 0, 1, "Other", "Minor"),
            r"no source text for this segment",
        ),
        (
            ErrorSpan("A", "1", None, "target", 3, 2, "Other", "Minor"),
            r"runs from character 3 to 2; offsets need 0 <= start <= end",
        ),
        (ErrorSpan("A", "1", None, "target", -1, 2, "Other", "Minor"), r"runs from character -1"),
        (
            ErrorSpan("A", "1", None, "target", 0, 8, "Other", "Minor"),
            r"ends at character 8, but the target text has 7 characters",
        ),
        (
            ErrorSpan("A", "1", None, "source", 0, 9, "Other", "Minor"),
            r"the source text has 8 characters",
        ),
        (
            ErrorSpan("A", "1", None, "target", 0.0, 2, "Other", "Minor"),
            r"offsets must be integers",
        ),  # type: ignore[arg-type]
    ],
)
def test_span_validation_messages(span: ErrorSpan, message: str) -> None:
    with pytest.raises(StudyError, match=r"^toy: error span 1 .*" + message):
        check_error_spans(toy_study(error_spans=(span,)))


def test_validation_runs_when_saving_and_loading(tmp_path: Path) -> None:
    bad = toy_study(error_spans=(ErrorSpan("A", "1", None, "target", 0, 8, "Other", "Minor"),))
    with pytest.raises(StudyError, match=r"ends at character 8"):
        save_study(bad, tmp_path / "x.study.json")
    data = study_to_dict(
        toy_study(error_spans=(ErrorSpan("A", "1", None, "target", 0, 3, "Other", "Minor"),))
    )
    data["error_spans"]["end"] = [99]
    with pytest.raises(StudyError, match=r"toy: error span 1 .* ends at character 99"):
        study_from_dict(json.loads(json.dumps(data)), file="x.json")


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda c: c.pop("raters"), r"error_spans\.raters is missing"),
        (lambda c: c.__setitem__("start", "0"), r"error_spans\.start must be a list"),
        (
            lambda c: c["end"].append(3),
            r"the error_spans columns have different lengths \(system 1, segment 1, rater 1, side 1, start 1, end 2",
        ),
        (lambda c: c.__setitem__("segment", [5]), r"error_spans\.segment\[0\] = 5 is out of range"),
        (lambda c: c.__setitem__("side", [2]), r"error_spans\.side\[0\] = 2 is out of range"),
        (lambda c: c.__setitem__("rater", [-2]), r"error_spans\.rater\[0\] = -2 is out of range"),
        (
            lambda c: c.__setitem__("start", [True]),
            r"error_spans\.start\[0\] must be a whole number, got True",
        ),
        (
            lambda c: c.__setitem__("categories", [3]),
            r"error_spans\.categories\[0\] must be a text, got 3",
        ),
    ],
)
def test_damaged_span_columns(damage, message: str) -> None:  # noqa: ANN001
    columns = spans_to_columns(
        [ErrorSpan("A", "1", "r", "target", 0, 3, "Other", "Minor")], ["1", "2"]
    )
    damage(columns)
    with pytest.raises(StudyError, match=r"^s\.json: saved study: " + message):
        spans_from_columns(columns, ["1", "2"], file="s.json")
    with pytest.raises(StudyError, match=r"error_spans must be an object"):
        spans_from_columns([], ["1"], file="s.json")


def test_older_saved_studies_load_and_files_without_spans_are_unchanged() -> None:
    data = study_to_dict(toy_study())
    assert (
        "error_spans" not in data
    )  # a study without spans is saved exactly as before spans existed
    assert study_from_dict(data).error_spans == ()
    assert load_demo("paper-examples").error_spans == ()


# ------------------------------------------------------------------------------ property: load/save
texts = st.text(alphabet="ab cİΣς&;<>vé猫.,", min_size=1, max_size=20)


@st.composite
def studies_with_spans(draw: st.DrawFn) -> Study:
    n = draw(st.integers(1, 3))
    sources = [draw(texts) for _ in range(n)]
    systems = {name: [draw(texts) for _ in range(n)] for name in ("A", "B")}
    spans = []
    for _ in range(draw(st.integers(0, 6))):
        system = draw(st.sampled_from(["A", "B"]))
        i = draw(st.integers(0, n - 1))
        side = draw(st.sampled_from(["target", "source"]))
        text = systems[system][i] if side == "target" else sources[i]
        start = draw(st.integers(0, len(text)))
        end = draw(st.integers(start, len(text)))
        spans.append(
            ErrorSpan(
                system,
                str(i + 1),
                draw(st.sampled_from([None, "r1", "r2"])),
                side,
                start,
                end,
                draw(st.sampled_from(["Accuracy/Omission", "Fluency/Grammar", "Other"])),
                draw(st.sampled_from(["Major", "Minor"])),
            )
        )
    return Study(
        "prop",
        tuple(Segment(str(i + 1), None, sources[i]) for i in range(n)),
        {"ref": ["x y"] * n},
        systems,
        error_spans=tuple(spans),
    )


@settings(max_examples=60, deadline=None)
@given(study=studies_with_spans(), gz=st.booleans())
def test_offsets_stay_inside_texts_through_save_and_load(study: Study, gz: bool) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / ("s.study.json.gz" if gz else "s.study.json")
        save_study(study, path)
        loaded = read_saved_study(path)
    assert loaded == study
    for span in loaded.error_spans:
        i = loaded.segment_index(span.segment_id)
        text = (
            loaded.systems[span.system][i] if span.side == "target" else loaded.segments[i].source
        )
        assert 0 <= span.start <= span.end <= len(text)


@settings(max_examples=80, deadline=None)
@given(
    pieces=st.lists(st.tuples(st.text(alphabet="ab <>/vé", max_size=5), st.booleans()), max_size=6)
)
def test_marks_give_back_the_marked_text(pieces: list[tuple[str, bool]]) -> None:
    plain_pieces = [p.replace("<v>", "").replace("</v>", "") for p, _ in pieces]
    joined = "".join(plain_pieces)
    if "<v>" in joined or "</v>" in joined:
        return  # pieces that spell a mark together (two or more: "<", "v", ">") are not plain text
    marked = "".join(
        f"<v>{p}</v>" if m else p for p, (_, m) in zip(plain_pieces, pieces, strict=True)
    )
    plain, spans = spans_from_marked_text(marked)
    assert plain == "".join(plain_pieces)
    wanted = [p for p, (_, m) in zip(plain_pieces, pieces, strict=True) if m]
    assert [plain[s:e] for s, e in spans] == wanted


# ------------------------------------------------------------------------------ tokens in the text
token_texts = st.text(alphabet="Ab c,.'-&quot;amp;İΣς猫の\"$5", max_size=30)


@settings(max_examples=150, deadline=None)
@given(text=token_texts, tokenize=st.sampled_from(TOKENIZER_NAMES), lowercase=st.booleans())
def test_every_token_is_found_in_order(text: str, tokenize: str, lowercase: bool) -> None:
    offsets = token_offsets(text, tokenize, lowercase)
    assert [t for t, _, _ in offsets] == get_tokenizer(tokenize, lowercase)(text)
    previous = (0, 0)
    for token, start, end in offsets:
        assert previous <= (start, end) and 0 <= start < end <= len(text)
        original = text[start:end]
        for entity, char in (("&quot;", '"'), ("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">")):
            if tokenize in ("13a", "paper"):
                original = original.replace(entity, char)
        # usually equal; a token may be part of one character: "İ" lower-cases to "i" + U+0307, two
        # char tokens, both placed on "İ"
        assert _fold(token) in _fold(original)
        previous = (start, end)


@pytest.mark.parametrize("tokenize", TOKENIZER_NAMES)
def test_every_ted_token_is_aligned(tokenize: str) -> None:
    study = load_demo("ted-zh-en")
    for texts_ in [*study.systems.values(), *study.references.values()]:
        for text in texts_[:60]:
            offsets = token_offsets(text, tokenize)
            assert all(start < end for _, start, end in offsets), text


def test_overlap_rule() -> None:
    offsets = token_offsets("New York, new-york", "13a")  # New York , new-york
    assert tokens_overlapping(offsets, 0, 1) == [0]  # one character is enough
    assert tokens_overlapping(offsets, 3, 4) == []  # the space between New and York
    assert tokens_overlapping(offsets, 3, 9) == [1, 2]
    assert tokens_overlapping(offsets, 5, 5) == []  # an empty span covers nothing


# ------------------------------------------------------------------------------ BLEU side
words = st.lists(st.sampled_from("a b c d the".split()), min_size=0, max_size=12).map(" ".join)


@settings(max_examples=150, deadline=None)
@given(hyp=words, refs=st.lists(words, min_size=1, max_size=3), n=st.integers(1, 4))
def test_fast_matched_mask_equals_match_provenance(hyp: str, refs: list[str], n: int) -> None:
    provenance = match_provenance(hyp, refs, max_order=n, tokenize="13a")
    clip = max_reference_counts([r.split() for r in refs], n)
    mask = matched_mask(tuple(hyp.split()), clip, n)
    assert [bool(mask >> t & 1) for t in range(len(hyp.split()))] == [
        s == "matched" for s in provenance.token_status(n)
    ]


def test_study_counts_agree_with_per_token_records_and_add_up() -> None:
    study = load_demo("ted-en-de").subset(["Nemo", "UEdin"], 40)
    by_order = error_agreement_by_order(study, (1, 3))
    assert by_order[3] == error_agreement(study, max_order=3)
    for n, result in by_order.items():
        for name, system in result.systems.items():
            rows = system.segment_counts
            assert AgreementCounts(*map(int, rows[rows[:, 0] >= 0].sum(axis=0))) == system.counts
            for i in range(0, 40, 7):
                seg = segment_token_records(study, name, study.segment_ids[i], max_order=n)
                assert seg.counts() == AgreementCounts(*map(int, rows[i])), (name, i)
        assert (
            result.counts.tokens == by_order[1].counts.tokens
        )  # the order moves tokens, never drops them
    major = error_agreement(study, severities=["major"])
    assert major.counts == major.by_severity["Major"]
    assert major.counts.matched_in_error < by_order[1].counts.matched_in_error


def test_agreement_option_errors() -> None:
    study = load_demo("ted-en-de").subset(["Nemo"], 3)
    with pytest.raises(
        BleuOptionError, match=r"max order must be a whole number from 1 to 9, got 0"
    ):
        error_agreement(study, max_order=0)
    with pytest.raises(StudyError, match=r"unknown reference 'refX'; the study has: ref"):
        error_agreement(study, references=["refX"])
    with pytest.raises(StudyError, match=r"unknown system 'X'; the study has: Nemo"):
        error_agreement(study, systems=["X"])
    with pytest.raises(
        BleuOptionError, match=r"unknown count 'x'; choose one of: " + ", ".join(COUNT_NAMES)
    ):
        error_agreement(study).segment_ranking("x")
    with pytest.raises(StudyError, match=r"unknown segment '999'"):
        segment_token_records(study, "Nemo", "999")
    with pytest.raises(StudyError, match=r"token_records needs at least one reference text"):
        token_records("a b", [None])  # type: ignore[list-item]


# ------------------------------------------------------------------------------ command line
def test_cli_json_equals_the_library(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(
            [
                "spans",
                "demo:ted-en-de",
                "--system",
                "Nemo",
                "--max-order",
                "2",
                "--format",
                "json",
                "--examples",
                "2",
            ]
        )
        == 0
    )
    printed = json.loads(capsys.readouterr().out)
    study = load_demo("ted-en-de")
    expected = error_agreement(study, systems=["Nemo"], max_order=2)
    assert printed["systems"][0] == {**expected.systems["Nemo"].to_dict()}
    assert printed["overall"]["matched_in_error"] == expected.counts.matched_in_error
    top = expected.segment_ranking("matched_in_error", top=2)
    assert [e["segment_id"] for e in printed["examples"]["rewarded_errors"]] == [
        r.segment_id for r in top
    ]


def test_cli_text_and_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["spans", "demo:ted-zh-en", "--system", "SMU", "--severity", "Major"]) == 0
    out = capsys.readouterr().out
    counts = error_agreement(load_demo("ted-zh-en"), systems=["SMU"], severities=["Major"]).counts
    assert re.search(
        rf"^SMU\s+{counts.matched_in_error}\s+{counts.matched_clean}\s", out, re.MULTILINE
    )
    assert "severity Major" in out and "severity Minor" not in out
    assert main(["spans", "demo:paper-examples"]) == 2
    assert "demo:paper-examples: this study has no error spans" in capsys.readouterr().err
