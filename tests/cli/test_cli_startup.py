"""``bleu-study score``'s start-up: the standard-library modules it no longer imports, and what replaces them
behaves as they did.

Start-up was most of a small ``score`` (``benchmarks/RESULTS-bleu.md``, "start-up"): :mod:`dataclasses` with
:mod:`inspect` (for ``BleuOptions`` and ``BleuScore``, now :class:`~bleu_core.engine.options.FrozenRecord`),
:mod:`shutil` (argparse's help width, now :func:`bleu_core.cli.terminal_columns`), :mod:`pathlib`,
:mod:`json` (only ``--format json`` needs it) and :mod:`threading` (a lock). Each test of the first kind runs a
fresh interpreter, as ``tests/cli/test_cli_imports.py`` does.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bleu_core import cli

#: Imported by nothing ``score`` runs (text output, 13a, one reference).
NOT_ON_THE_SCORE_PATH = ("dataclasses", "inspect", "shutil", "json", "threading", "pathlib")
#: setuptools' editable finder (``pip install -e .`` in its default mode) imports pathlib itself.
EDITABLE_FINDER = "__editable___bleu_study_0_1_0_finder"


def modules_after_score(tmp_path: Path, *flags: str) -> set[str]:
    ref, hyp = tmp_path / "ref.txt", tmp_path / "hyp.txt"
    ref.write_text("The cat sat on the mat.\nIt is raining.\n" * 20, encoding="utf-8")
    hyp.write_text("The cat is on the mat.\nIt rains.\n" * 20, encoding="utf-8")
    program = (
        "import sys\nfrom bleu_core.cli import main\n"
        f"assert main(['score', '-r', {str(ref)!r}, '-i', {str(hyp)!r}, *{list(flags)!r}]) == 0\n"
        "print(' '.join(sorted(sys.modules)))"
    )
    out = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, check=True
    )
    return set(out.stdout.strip().splitlines()[-1].split())


def test_score_imports_none_of_the_heavy_standard_modules(tmp_path: Path) -> None:
    modules = modules_after_score(tmp_path)
    expected_absent = [m for m in NOT_ON_THE_SCORE_PATH if m != "pathlib"]
    if EDITABLE_FINDER not in modules:
        expected_absent.append("pathlib")
    assert sorted(modules.intersection(expected_absent)) == []
    assert "bleu_core.fast.file_bleu" in modules  # the probe ran the fast path


def test_json_output_loads_json(tmp_path: Path) -> None:
    """The probe can fail: ``--format json`` does import json."""
    assert "json" in modules_after_score(tmp_path, "--format", "json")


@pytest.mark.parametrize("columns", ["57", "213", None, "0", "wide"])
def test_terminal_columns_is_shutils_width(
    monkeypatch: pytest.MonkeyPatch, columns: str | None
) -> None:
    if columns is None:
        monkeypatch.delenv("COLUMNS", raising=False)
    else:
        monkeypatch.setenv("COLUMNS", columns)
    assert cli.terminal_columns() == shutil.get_terminal_size().columns


@pytest.mark.parametrize("command", ["score", "significance"])
def test_help_reads_as_with_argparses_formatter(
    monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    monkeypatch.setenv("COLUMNS", "71")
    parser = cli.build_parser(command=command)
    ours = parser._subparsers._group_actions[0].choices[command]  # type: ignore[union-attr]
    assert ours.formatter_class is cli._Formatter
    stock = argparse.HelpFormatter(prog=ours.prog)
    assert cli._Formatter(prog=ours.prog)._width == stock._width == 69
    ours.formatter_class = argparse.HelpFormatter
    expected = ours.format_help()
    ours.formatter_class = cli._Formatter
    assert ours.format_help() == expected
