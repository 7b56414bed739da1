"""The member reader of the input boundary (``bleu_core.io.members``): a folder, a zip and an upload read
alike; zip members that are links, point outside the archive or decompress too far are refused."""

from __future__ import annotations

import stat
import zipfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bleu_core.errors import InputError, StudyError
from bleu_core.io import (
    FolderTree,
    MemoryTree,
    SubTree,
    ZipTree,
    is_symlink,
    open_tree,
    single_top_folder,
)

# Relative paths of up to three levels; no path is also a folder of another
NAME = st.from_regex(r"[a-z]{1,5}(/[a-z]{1,5}){0,2}\.txt", fullmatch=True)
TEXT = st.lists(st.text("ab \r\u00e9", max_size=5), max_size=4).map(
    lambda lines: "".join(line + "\r\n" for line in lines)
)
FILES = st.dictionaries(NAME, TEXT, min_size=1, max_size=5).filter(
    lambda files: not any(b.startswith(a[:-4] + "/") for a in files for b in files)
)


def write_zip(path: Path, members: dict[str, bytes], links: dict[str, str] | None = None) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
        for name, target in (links or {}).items():
            info = zipfile.ZipInfo(name)
            info.create_system = 3  # Unix: the mode bits live in the high 16 bits
            info.external_attr = (stat.S_IFLNK | 0o777) << 16
            archive.writestr(info, target)
    return path


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(files=FILES)
def test_a_folder_a_zip_and_an_upload_give_the_same_files_and_lines(
    files: dict[str, str], tmp_path_factory: pytest.TempPathFactory
) -> None:
    root = tmp_path_factory.mktemp("tree")
    data = {name: text.encode("utf-8") for name, text in files.items()}
    for name, content in data.items():
        (root / "folder" / name).parent.mkdir(parents=True, exist_ok=True)
        (root / "folder" / name).write_bytes(content)
    trees = [
        open_tree(root / "folder"),
        open_tree(write_zip(root / "a.zip", data)),
        MemoryTree(data),
    ]
    assert isinstance(trees[0], FolderTree) and isinstance(trees[1], ZipTree)
    for tree in trees:
        with tree:
            assert tree.files() == sorted(files)
            for name, text in files.items():
                assert tree.read_lines(name) == text.split("\r\n")[:-1]


def test_a_zip_symlink_member_is_an_error_not_the_file_it_points_to(tmp_path: Path) -> None:
    (tmp_path / "secret.txt").write_text("not part of the study\n")
    archive = write_zip(
        tmp_path / "s.zip", {"s/ref.txt": b"a\n"}, links={"s/hyp.txt": str(tmp_path / "secret.txt")}
    )
    with ZipTree(archive, label="s.zip") as tree:
        assert tree.read_lines("s/ref.txt") == ["a"]  # the other members stay readable
        with pytest.raises(
            StudyError, match=r"^s\.zip: archive member 's/hyp\.txt' is a symbolic link, not a file"
        ):
            tree.read_text("s/hyp.txt")
        sub = SubTree(tree, "s")
        with pytest.raises(StudyError, match=r"is a symbolic link"):
            sub.read_bytes("hyp.txt")


def test_is_symlink_reads_the_unix_mode_bits() -> None:
    link, regular, folder = zipfile.ZipInfo("l"), zipfile.ZipInfo("f"), zipfile.ZipInfo("d/")
    link.external_attr = (stat.S_IFLNK | 0o777) << 16
    regular.external_attr = (stat.S_IFREG | 0o644) << 16
    folder.external_attr = (stat.S_IFDIR | 0o755) << 16 | 0x10
    assert [is_symlink(i) for i in (link, regular, folder)] == [True, False, False]


@pytest.mark.parametrize("member", ["../evil.txt", "/etc/passwd", "C:/x.txt", "a/../../b.txt"])
def test_a_member_outside_the_archive_is_refused_on_opening(tmp_path: Path, member: str) -> None:
    archive = write_zip(tmp_path / "s.zip", {member: b"x\n"})
    with pytest.raises(StudyError, match=r"points outside the archive"):
        ZipTree(archive)


def test_the_decompressed_total_is_capped(tmp_path: Path) -> None:
    archive = write_zip(tmp_path / "s.zip", {"a.txt": b"0" * 600_000, "b.txt": b"0" * 600_000})
    with pytest.raises(
        StudyError,
        match=r"archive decompresses to more than 1\.0 MiB \(reached at member 'b\.txt'\)",
    ):
        ZipTree(archive, max_bytes=1024 * 1024)


def test_boms_are_noted_and_names_shown_as_the_user_knows_them(tmp_path: Path) -> None:
    archive = write_zip(
        tmp_path / "x.zip", {"top/a.txt": b"\xef\xbb\xbfone\n", "top/b.txt": b"two\n"}
    )
    with open_tree(archive, label="upload.zip", aliases={"top/b.txt": "b.txt"}) as tree:
        assert single_top_folder(tree) == "top"
        assert tree.read_lines("top/a.txt") == ["one"] and tree.read_lines("top/b.txt") == ["two"]
        assert tree.bom_files == ["upload.zip!top/a.txt"]
        assert tree.display("top/b.txt") == "b.txt"
    upload = MemoryTree({"x.txt": b"ok\n\xff\n"}, label="the upload")
    with pytest.raises(InputError, match=r"^x\.txt, line 2, column 1: bytes that are not UTF-8"):
        upload.read_text("x.txt")


def test_neither_folder_nor_zip(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("x")
    with pytest.raises(StudyError, match=r"shown: neither a folder nor a zip archive"):
        open_tree(tmp_path / "a.txt", label="shown")
