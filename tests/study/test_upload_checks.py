"""Uploaded files (``load_files`` / ``list_pairs``, the Study page's upload): a damaged zip and two files of
one name give a message naming the file, not a traceback or a file silently dropped."""

from __future__ import annotations

import pytest

from bleu_core.errors import StudyError
from bleu_core.study.loading import list_pairs, load_files


@pytest.mark.parametrize("data", [b"hello", b"PK\x03\x04garbage"])
def test_the_pairs_of_a_damaged_zip_are_none_and_loading_it_names_the_file(data):
    # The Study page asks for the pairs as soon as files are chosen, before anything is loaded.
    assert list_pairs([("release.zip", data)]) == []
    with pytest.raises(StudyError, match=r"^release\.zip: "):
        load_files([("release.zip", data)])


def test_two_uploaded_files_of_one_name_are_an_error_not_one_file_dropped():
    files = [("a.ref", b"the cat\n"), ("a.ref", b"a dog\n"), ("b.hyp", b"the cat\n")]
    with pytest.raises(StudyError, match=r"^a\.ref: given twice \(files 1 and 2\)"):
        load_files(files)


def test_distinct_names_still_load():
    result = load_files([("a.ref", b"the cat\n"), ("b.hyp", b"the cat\n")])
    assert list(result.study.systems) == ["b"]


def _zip(members: list[tuple[str, str]]) -> bytes:
    import io
    import warnings
    import zipfile

    buffer = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # zipfile warns of the duplicate name it is asked to write
        with zipfile.ZipFile(buffer, "w") as archive:
            for name, text in members:
                archive.writestr(name, text)
    return buffer.getvalue()


@pytest.mark.parametrize("second", ["systems/s.txt", "systems\\s.txt"])
def test_a_zip_member_stored_twice_is_an_error_not_one_copy_dropped(second):
    data = _zip([("references/ref-A.txt", "a\n"), ("systems/s.txt", "a\n"), (second, "b\n")])
    with pytest.raises(
        StudyError, match=r"^s\.zip: archive member 'systems/s\.txt' is in the archive twice"
    ):
        load_files([("s.zip", data)])


def test_the_upload_form_asks_once_for_a_name_given_twice():
    # Two select boxes with one widget key would stop the Study page with a Streamlit exception before
    # "Open" could say what is wrong.
    from ui.study.upload import upload_plan

    assert upload_plan(["mine.txt", "mine.txt", "x.ref"]).unrecognised == ("mine.txt",)
