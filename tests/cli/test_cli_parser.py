"""The command line builds only the parser of the command being run, and still lists everything.

``bleu_core.cli.main`` looks at the first word: ``score`` builds the ``score`` parser alone, a command of
:data:`bleu_core.cli.COMMAND_MODULE_OF` imports only the module that registers it, anything else (``--help``,
no word, a typo) builds every parser. These tests check that the table matches what the modules register, and
that help and argparse's own errors are the same as with every parser built.
"""

from __future__ import annotations

import argparse
import importlib

import pytest

from bleu_core import cli
from bleu_core.cli import COMMAND_MODULE_OF, COMMAND_MODULES, build_parser, main


def sub_commands(parser: argparse.ArgumentParser) -> list[str]:
    (action,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return list(action.choices)


def registered_by(module_name: str) -> list[str]:
    parser = argparse.ArgumentParser()
    importlib.import_module(module_name).register(parser.add_subparsers())
    return sub_commands(parser)


@pytest.mark.parametrize("module_name", COMMAND_MODULES)
def test_the_table_names_every_command_a_module_registers(module_name: str) -> None:
    mapped = sorted(c for c, m in COMMAND_MODULE_OF.items() if m == module_name)
    assert sorted(registered_by(module_name)) == mapped


def test_the_full_parser_has_score_and_every_mapped_command() -> None:
    assert sorted(sub_commands(build_parser())) == sorted(["score", *COMMAND_MODULE_OF])


@pytest.mark.parametrize("command", ["score", *COMMAND_MODULE_OF])
def test_one_command_builds_only_its_module(command: str, monkeypatch) -> None:
    imported: list[str] = []
    real = importlib.import_module

    def spy(name: str, package: str | None = None):
        imported.append(name)
        return real(name, package)

    monkeypatch.setattr(cli.importlib, "import_module", spy)
    names = sub_commands(build_parser(command=command))
    expected = [] if command == "score" else [COMMAND_MODULE_OF[command]]
    assert imported == expected
    assert command in names
    assert "score" in names  # score is always there (it lives in cli itself)
    if command == "significance":
        assert "app" not in names and "study" not in names


@pytest.mark.parametrize("command", [None, "--help", "-h", "scroe", "--version"])
def test_anything_else_builds_every_parser(command: str | None) -> None:
    assert sorted(sub_commands(build_parser(command=command))) == sorted(
        ["score", *COMMAND_MODULE_OF]
    )


def test_top_level_help_lists_every_command(capsys) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--help"])
    assert exit_info.value.code == 0
    out = " ".join(capsys.readouterr().out.split())  # argparse wraps the help lines
    for command in ["score", *COMMAND_MODULE_OF]:
        assert command in out
    assert "paired significance tests of BLEU" in out  # the significance help line
    assert "start the app" in out


@pytest.mark.parametrize(
    ("command", "flags"),
    [
        ("significance", ["--n-resamples", "--baseline", "--tokenize"]),
        ("meta", ["--system-scores", "--criteria", "--smooth"]),
        ("study", ["--pair", "--references"]),
        ("app", ["--port", "--print-command"]),
        ("score", ["--sentence-level", "--max-mb", "--lowercase"]),
    ],
)
def test_command_help_describes_its_options(command: str, flags: list[str], capsys) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main([command, "--help"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: bleu-study {command} ")
    for flag in flags:
        assert flag in out


def test_a_mistyped_command_lists_every_choice(capsys) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["signifcance", "-r", "x"])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert "invalid choice: 'signifcance'" in err
    for command in ["score", *COMMAND_MODULE_OF]:
        assert f"'{command}'" in err


def test_no_command_is_an_argparse_error(capsys) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main([])
    assert exit_info.value.code == 2
    assert "the following arguments are required: command" in capsys.readouterr().err


def test_an_option_error_of_one_command_is_reported_as_before(capsys) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["significance", "--test", "xx"])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: bleu-study significance ")
    assert "argument --test: invalid choice: 'xx'" in err
