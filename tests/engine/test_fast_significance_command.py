"""``bleu-study significance -r … -i …``'s fast path (per-segment 13a statistics in C from the files' bytes)
prints exactly what the general path prints, and leaves every input it does not cover to the general path,
whose errors and warnings stay word for word the same.

``general`` runs switch the fast path off (``segment_rows`` returns ``None``), so each comparison is the same
command, same files, same seed, both ways.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bleu_core.cli import main
from bleu_core.fast import file_bleu
from bleu_core.fast.compiled import available

needs_kernels = pytest.mark.skipif(not available(), reason="the compiled kernels are not built")

REF1 = ["The dog bit the man.", "It was not unexpected.", "The man bit him first.", "A cat sat."]
REF2 = [
    "The dog had bit the man.",
    "No one was surprised.",
    "The man had bitten the dog.",
    "Cats sit.",
]
SYSTEMS = {
    "a.txt": [
        "The dog bit the man.",
        "It wasn't surprising.",
        "The man had just bitten him.",
        "A cat.",
    ],
    "b.txt": ["The dog bit a man.", "It was not surprising.", "The man bit him.", "The cat sat."],
    "c.txt": ["Dog bites man.", "Nobody was surprised.", "The man first bit him.", "A cat sat."],
}


def write(tmp_path: Path, name: str, data: bytes | list[str]) -> str:
    path = tmp_path / name
    path.write_bytes(data if isinstance(data, bytes) else "".join(x + "\n" for x in data).encode())
    return str(path)


def run_both(
    argv: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> tuple[tuple[int, str, str], tuple[int, str, str], int]:
    """``(fast, general, fast rows computed)``: each a ``(exit code, stdout, stderr)`` of ``main(argv)``."""
    calls = []
    real = file_bleu.segment_rows

    def counted(*args, **kwargs):
        rows = real(*args, **kwargs)
        calls.append(rows is not None)
        return rows

    monkeypatch.setattr(file_bleu, "segment_rows", counted)
    fast = (main(argv), *capsys.readouterr())
    monkeypatch.setattr(file_bleu, "segment_rows", lambda *a, **k: None)
    general = (main(argv), *capsys.readouterr())
    return fast, general, sum(calls)


@needs_kernels
@pytest.mark.parametrize("fmt", ["text", "json"])
@pytest.mark.parametrize("n_refs", [1, 2])
@pytest.mark.parametrize("test", ["bs", "ar", "both"])
def test_fast_path_prints_what_the_general_path_prints(
    tmp_path, capsys, monkeypatch, fmt: str, n_refs: int, test: str
) -> None:
    refs = [write(tmp_path, "r1", REF1), write(tmp_path, "r2", REF2)][:n_refs]
    hyps = [write(tmp_path, name, lines) for name, lines in SYSTEMS.items()]
    argv = ["significance", "-r", *refs, "-i", *hyps, "--format", fmt, "--test", test]
    argv += ["--n-resamples", "200", "--n-trials", "200", "--seed", "7"]
    fast, general, used = run_both(argv, capsys, monkeypatch)
    assert used == 1  # the fast path ran (and was not declined)
    assert fast == general
    assert fast[0] == 0 and "a.txt" in fast[1]


@needs_kernels
def test_other_options_take_the_general_path(tmp_path, capsys, monkeypatch) -> None:
    refs = [write(tmp_path, "r1", REF1)]
    hyps = [write(tmp_path, name, lines) for name, lines in SYSTEMS.items()]
    for extra in (["--tokenize", "intl"], ["--lowercase"]):
        argv = ["significance", "-r", *refs, "-i", *hyps, "--n-resamples", "50", *extra]
        fast, general, used = run_both(argv, capsys, monkeypatch)
        assert used == 0
        assert fast == general and fast[0] == 0


@needs_kernels
@pytest.mark.parametrize(
    ("name", "data", "message"),
    [
        ("bom.txt", b"\xef\xbb\xbfThe dog.\nB\nC\nD\n", "byte-order mark"),
        ("blank.txt", b" \n\n\n\n", "all 4 lines are blank"),
        ("short.txt", b"The dog.\n", "has 1 lines but"),
        ("bad.txt", b"The dog.\n\xff\nC\nD\n", "UTF-8"),
    ],
)
def test_declined_inputs_say_what_the_general_path_says(
    tmp_path, capsys, monkeypatch, name: str, data: bytes, message: str
) -> None:
    refs = [write(tmp_path, "r1", REF1)]
    hyps = [write(tmp_path, "a.txt", SYSTEMS["a.txt"]), write(tmp_path, name, data)]
    argv = ["significance", "-r", *refs, "-i", *hyps, "--n-resamples", "50"]
    fast, general, used = run_both(argv, capsys, monkeypatch)
    assert used == 0
    assert fast == general
    assert message in fast[2]
