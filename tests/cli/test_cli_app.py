"""``bleu-study app [PATH] [--pair] [--references] [--port]``: the app with a study open.

Unit checks of the command line it builds, the app's reading of the study arguments (AppTest with
``sys.argv`` as Streamlit leaves it), and one real server started through the command from another
working directory, answering its health check with the study open for a new browser session.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from bleu_core.cli import main
from bleu_core.cli.launch import app_script, config_flags, read_config, streamlit_command
from ui.app import startup
from ui.app import state as K

ROOT = Path(__file__).resolve().parents[2]


def test_print_command_passes_the_study_and_the_app_settings(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # any working directory
    study = tmp_path / "study.tsv"
    study.write_text("x", encoding="utf-8")
    assert main(["app", "study.tsv", "--pair", "zh-en", "--references", "A,B", "--port", "8642",
                 "--print-command"]) == 0  # fmt: skip
    command = capsys.readouterr().out.split()
    # streamlit run, through ui.app.serve: the study starts loading as the server starts
    assert command[1:5] == ["-m", "ui.app.serve", "run", str(ROOT / "app.py")]
    # the settings of .streamlit/config.toml travel as flags (the working directory has none)
    assert "--runner.postScriptGC" in command and "--server.fileWatcherType" in command
    tail = command[command.index("--") :]
    assert tail == ["--", str(study), "--pair", "zh-en", "--references", "A,B"]
    assert command[command.index("--server.port") + 1] == "8642"


def test_no_path_means_the_demo(capsys):
    assert main(["app", "--print-command"]) == 0
    assert capsys.readouterr().out.split()[-1] == "--"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["app", "no/such/study"], r"no/such/study: no such file or folder"),
        (["app", "demo:nope"], r"no bundled demo named 'demo:nope'; the demos are: .*ted-en-de"),
    ],
)
def test_bad_study_is_one_clear_message(argv, message, capsys):
    assert main([*argv, "--print-command"]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    import re

    assert re.search(message, err)


@pytest.mark.parametrize(
    ("port", "message"),
    [("x", r"--port takes a whole number, not 'x'"), ("0", r"between 1 and 65535, not 0")],
)
def test_bad_port(port, message, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["app", "--port", port])
    assert exit_info.value.code == 2
    import re

    assert re.search(message, capsys.readouterr().err)


def test_config_of_the_app_is_read_and_flattened():
    config = read_config(app_script())
    assert config["runner"]["postScriptGC"] is False
    flags = config_flags(config)
    assert flags[flags.index("--runner.postScriptGC") + 1] == "false"
    command = streamlit_command(app_script(), [], port=1, config={"server": {"port": 9}})
    assert command.count("--server.port") == 1


def test_startup_arguments_are_validated():
    with pytest.raises(startup.InputError, match="the app's command-line arguments: unrecognized"):
        startup.parse_startup(["x", "--colour", "red"])
    assert startup.parse_startup(["x", "--references", "all"]).reference_choice == "all"


def _app_with_argv(monkeypatch, argv: list[str]) -> AppTest:
    monkeypatch.setattr(sys, "argv", [str(ROOT / "app.py"), *argv])
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_app_opens_the_study_named_after_the_double_dash(monkeypatch):
    at = _app_with_argv(monkeypatch, ["demo:ted-zh-en"])
    assert at.session_state[K.STUDY].name == "WMT21 TED talks zh-en (MQM)"
    assert at.session_state[K.STUDY_KEY] == "demo:ted-zh-en"


def test_app_shows_a_startup_error_on_the_study_page(monkeypatch, tmp_path):
    broken = tmp_path / "broken.tsv"
    broken.write_text("not a study\n", encoding="utf-8")
    at = _app_with_argv(monkeypatch, [str(broken)])
    shown = " ".join(e.value for e in at.error)
    assert "The study named on the command line could not be opened" in shown
    assert "Traceback" not in shown


@pytest.mark.slow
def test_server_started_by_the_command_from_another_directory(tmp_path):
    from tests.browser.app_server import free_port, wait_healthy

    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "bleu_core", "app", "demo:ted-zh-en", "--port", str(port)],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        wait_healthy(f"http://127.0.0.1:{port}", timeout=90)
        assert process.poll() is None
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=30)
