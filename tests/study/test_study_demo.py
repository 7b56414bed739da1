"""The bundled demo studies: manifest, counts, speed-relevant format, and rebuild-equality with the sources."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from bleu_core import corpus_bleu
from bleu_core.errors import StudyError
from bleu_core.study import load_study
from bleu_core.study.demo import data_dir, demo_path, list_demos, load_demo

SHARED = Path(__file__).resolve().parents[3] / "shared"
needs_shared = pytest.mark.skipif(
    not (SHARED / "data" / "google-mqm-ted2021").is_dir(), reason="no /work/shared"
)


def test_manifest_lists_every_bundled_file_with_licence_and_source() -> None:
    demos = list_demos()
    assert [d.name for d in demos] == ["ted-en-de", "ted-zh-en", "paper-examples"]
    for demo in demos:
        assert (data_dir() / demo.file).is_file()
        assert demo.description and demo.source and demo.licence and demo.citation
        assert (data_dir() / demo.file).stat().st_size < 400_000  # small files in the repository
    assert "Apache License" in (data_dir() / "LICENSE-google-mqm-ted2021").read_text()
    manifest = json.loads((data_dir() / "manifest.json").read_text())
    assert {d["name"] for d in manifest["demos"]} == {d.name for d in demos}


def test_ted_demos_counts() -> None:
    # data README (google-mqm-ted2021): 529 rated segments, 5 talks; en-de 13 MT + ref, zh-en 13 MT + ref + refB
    en_de = load_demo("ted-en-de")
    assert (en_de.n_segments, len(en_de.doc_ids()), list(en_de.references)) == (529, 5, ["ref"])
    assert len(en_de.systems) == 13 and not en_de.human_systems
    assert en_de.rated_items("mqm") == 13 * 529
    zh_en = load_demo("ted-zh-en")
    assert (zh_en.n_segments, len(zh_en.doc_ids()), list(zh_en.references)) == (529, 5, ["refB"])
    assert len(zh_en.systems) == 14 and zh_en.human_systems == {"ref"}
    # 9 raters in the TSV, but rater8 rated only refB, the reference (its ratings are set aside).
    assert {r.rater for r in zh_en.ratings} == {f"rater{i}" for i in range(1, 10)} - {"rater8"}
    assert (zh_en.source_lang, zh_en.target_lang) == ("zh", "en")


def test_paper_examples_reproduce_the_papers_counts() -> None:
    study = load_demo("paper-examples")
    refs = study.reference_streams()

    # BLEU paper section 2.1: example 1 candidate 1 modified unigram precision 17/18, candidate 2 8/14;
    # example 2: 2/7; example 3: 2/2 and bigrams 1/1 (counted as the paper does: tokenize="paper").
    def unigram(system: str, i: int) -> tuple[int, int]:
        score = corpus_bleu(
            [study.systems[system][i]], [[r[i]] for r in refs], tokenize="paper", smooth="none"
        )
        return score.counts[0], score.totals[0]

    assert unigram("candidate-1", 0) == (17, 18)
    assert unigram("candidate-2", 0) == (8, 14)
    assert unigram("candidate-1", 1) == (2, 7)
    three = corpus_bleu([study.systems["candidate-1"][2]], [[r[2]] for r in refs], tokenize="paper")
    assert (three.counts[:2], three.totals[:2]) == ((2, 1), (2, 1))


def test_demo_names_work_through_load_study_and_errors_list_them() -> None:
    assert load_study("demo:ted-en-de").study == load_demo("ted-en-de")
    with pytest.raises(
        StudyError, match="no bundled study named 'ted'; bundled studies: ted-en-de, ted-zh-en"
    ):
        demo_path("ted")


@needs_shared
def test_bundled_files_equal_a_fresh_conversion(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location(
        "build_demos", Path(__file__).resolve().parents[2] / "data" / "build_demos.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    built = module.build(SHARED, tmp_path)
    for name, study in built.items():
        assert study == load_demo(name), name
        assert (tmp_path / f"{name}.study.json.gz").read_bytes() == demo_path(name).read_bytes()
