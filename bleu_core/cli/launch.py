"""The ``app`` sub-command: start the Streamlit app with a study open for every new session.

``bleu-study app [PATH] [--pair xx-yy] [--references A,B|all] [--port N]`` runs the same Streamlit server and
settings as ``make run`` (the options of the app's ``.streamlit/config.toml`` are passed as command-line flags, so
it works from any working directory) and hands ``PATH`` and its options to the app after ``--``, exactly as
``streamlit run app.py -- PATH --pair xx-yy`` does. Without ``PATH`` the app opens the bundled TED demo.

``bleu_core`` never imports streamlit: this module only builds the command line and replaces the process with it
(``python -m ui.app.serve run app.py …``: ``streamlit run`` that starts loading the study at once).

>>> streamlit_command(Path("/srv/app.py"), ["demo:ted-zh-en"], port=8600, config={})[-4:]
['--server.port', '8600', '--', 'demo:ted-zh-en']
>>> config_flags({"server": {"headless": True, "port": 1}, "runner": {"magicEnabled": False}})
['--server.headless', 'true', '--server.port', '1', '--runner.magicEnabled', 'false']
"""

from __future__ import annotations

import argparse
import os
import sys
import tomllib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..errors import InputError

__all__ = ["app_script", "config_flags", "register", "streamlit_command", "study_arguments"]

DEMO_PREFIX = "demo:"


def app_script() -> Path:
    """The app's entry point: ``ui/_app/app.py`` in an installed wheel, else ``app.py`` beside the ``ui``
    package (a checkout, installed editable or not at all)."""
    import importlib.util

    spec = importlib.util.find_spec("ui")
    if spec is None or not spec.submodule_search_locations:
        raise InputError("the app is not installed: the 'ui' package cannot be found")
    ui_dir = Path(next(iter(spec.submodule_search_locations)))
    for candidate in (ui_dir / "_app" / "app.py", ui_dir.parent / "app.py"):
        if candidate.is_file():
            return candidate
    raise InputError(f"the app's entry point is missing (looked for app.py beside {ui_dir})")


def _flag_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def config_flags(config: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """``--section.option value`` for every option of a parsed Streamlit ``config.toml``."""
    flags: list[str] = []
    for section, options in config.items():
        for option, value in options.items():
            flags += [f"--{section}.{option}", _flag_value(value)]
    return flags


def read_config(script: Path) -> dict[str, dict[str, Any]]:
    """The ``.streamlit/config.toml`` beside the app (empty when there is none)."""
    path = script.parent / ".streamlit" / "config.toml"
    if not path.is_file():
        path = script.parent / "streamlit_config.toml"
    if not path.is_file():
        return {}
    with path.open("rb") as handle:
        return tomllib.load(handle)


def study_arguments(path: str | None, pair: str | None, references: str | None) -> list[str]:
    """The arguments after ``--`` that the app reads (:mod:`ui.app.startup`); paths made absolute."""
    args: list[str] = []
    if path:
        args.append(path if path.startswith(DEMO_PREFIX) else os.path.abspath(path))
    if pair:
        args += ["--pair", pair]
    if references:
        args += ["--references", references]
    return args


def streamlit_command(
    script: Path, study_args: Sequence[str], *, port: int, config: Mapping[str, Mapping[str, Any]]
) -> list[str]:
    """The full command line that starts the server: ``streamlit run`` through :mod:`ui.app.serve`, which
    also starts loading the study as the server starts."""
    flags = [f for f in config_flags(config) if f != "--server.port"]
    return [
        sys.executable,
        "-m",
        "ui.app.serve",
        "run",
        str(script),
        *flags,
        "--server.port",
        str(port),
        "--",
        *study_args,
    ]


def _check_path(path: str | None) -> None:
    if path is None:
        return
    if path.startswith(DEMO_PREFIX):
        from ..study.demo import list_demos

        names = [d.name for d in list_demos()]
        if path[len(DEMO_PREFIX) :] not in names:
            raise InputError(f"no bundled demo named {path!r}; the demos are: {', '.join(names)}")
        return
    if not os.path.exists(path):
        raise InputError(
            f"{path}: no such file or folder (give a study file, folder, .zip or demo:NAME)"
        )


def _port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--port takes a whole number, not {text!r}") from None
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"--port must be between 1 and 65535, not {port}")
    return port


#: glibc's malloc keeps up to 8 arenas per core, one per thread that allocates at once; the app server's
#: threads (Tornado, each session's script run, the counting ahead) then hold memory they freed in arenas of
#: their own. Two arenas kept the server's RSS after a WMT24 en-ja page tour at 508-591 MB against 657-734 MB
#: (benchmarks/RESULTS-app.md, "Memory after a WMT24 page tour"), pages as fast. A value the user set wins.
MALLOC_ARENAS = "2"


def server_environment(environ: Mapping[str, str]) -> dict[str, str]:
    """The environment the app server starts with: ``environ`` and :data:`MALLOC_ARENAS` unless it sets its own.

    >>> server_environment({"HOME": "/h"})["MALLOC_ARENA_MAX"], server_environment({"MALLOC_ARENA_MAX": "8"})
    ('2', {'MALLOC_ARENA_MAX': '8'})
    """
    return {"MALLOC_ARENA_MAX": MALLOC_ARENAS, **environ}


def handler(args: argparse.Namespace) -> int:
    _check_path(args.path)
    script = app_script()
    command = streamlit_command(
        script,
        study_arguments(args.path, args.pair, args.references),
        port=args.port,
        config=read_config(script),
    )
    if args.print_command:
        print(" ".join(command))
        return 0
    sys.stdout.flush()
    env = server_environment(os.environ)
    os.execve(command[0], command, env)  # pragma: no cover - replaces this process with the server
    return 0  # pragma: no cover


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "app", help="start the app with a study open (default: the bundled TED demo)"
    )
    p.add_argument("path", nargs="?", metavar="PATH", help="study file, folder, .zip or demo:NAME")
    p.add_argument("--pair", metavar="xx-yy", help="language pair of a multi-pair release")
    p.add_argument(
        "--references", "--reference", metavar="A,B|all", help="reference streams (default: ref A)"
    )
    p.add_argument("--port", type=_port, default=8501, help="server port (default 8501)")
    p.add_argument(
        "--print-command",
        action="store_true",
        help="print the server command instead of running it",
    )
    p.set_defaults(func=handler)
