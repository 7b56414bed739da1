"""The app's Streamlit settings (.streamlit/config.toml) are the ones every way of starting it uses.

`make run`, the browser tests, benchmarks/bench_app.py and AppTest must all run the app with the same
settings, above all ``runner.postScriptGC = false`` (Streamlit's after-run ``gc.collect()`` cost 130-290 ms
on every widget change; benchmarks/RESULTS-app.md).
"""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / ".streamlit" / "config.toml"
sys.path.insert(0, str(ROOT / "tests" / "browser"))
from app_server import CONFIG as SERVER_CONFIG  # noqa: E402
from app_server import streamlit_command  # noqa: E402

EXPECTED = {
    "runner.postScriptGC": False,
    "runner.magicEnabled": False,
    "server.fileWatcherType": "none",
    "server.runOnSave": False,
    "server.headless": True,
    "browser.gatherUsageStats": False,
    "client.toolbarMode": "minimal",
    "client.showErrorDetails": "none",  # no traceback or server path on the page
}

# What `streamlit run APP --flags` does before it starts the server (streamlit/web/cli.py: main_run):
# note the script's path (a .streamlit/config.toml next to it is read), then parse the config files
# (global, working directory, script folder) and the command-line flags.
RESOLVE = """
import json, sys
from streamlit import config
from streamlit.web import bootstrap
config._main_script_path = sys.argv[1]
flags = dict(zip(sys.argv[2::2], sys.argv[3::2]))
bootstrap.load_config_options(
    flag_options={k.removeprefix("--").replace(".", "_"): v for k, v in flags.items()}
)
print(json.dumps({k: config.get_option(k) for k in json.loads(sys.stdin.read())}))
"""


def resolved(cwd: Path, app: Path = ROOT / "app.py") -> dict[str, object]:
    """The settings a server started by tests/browser/app_server.py resolves, from working dir ``cwd``."""
    command = streamlit_command(app, 8599)
    flags = command[command.index(str(app)) + 1 :]
    out = subprocess.run(
        [sys.executable, "-c", RESOLVE, str(app), *flags],
        input=json.dumps(list(EXPECTED)),
        capture_output=True,
        text=True,
        cwd=cwd,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_the_config_file_sits_next_to_app_py_and_holds_the_speed_settings():
    assert CONFIG.is_file() and SERVER_CONFIG == CONFIG
    data = tomllib.loads(CONFIG.read_text(encoding="utf-8"))
    flat = {
        f"{section}.{key}": value for section, opts in data.items() for key, value in opts.items()
    }
    assert {k: flat.get(k) for k in EXPECTED} == EXPECTED


def test_the_test_and_benchmark_server_runs_with_it():
    # app_server.streamlit_command adds only the port and address: nothing overrides the file
    command = streamlit_command(ROOT / "app.py", 8599)
    assert {a for a in command if a.startswith("--")} == {"--server.port", "--server.address"}
    assert resolved(ROOT) == EXPECTED


def test_the_server_finds_it_from_any_working_directory(tmp_path):
    # `streamlit run /path/to/app.py` started elsewhere reads the file next to app.py
    assert resolved(tmp_path) == EXPECTED


def test_make_run_adds_no_flag_that_overrides_it():
    recipe = (ROOT / "Makefile").read_text(encoding="utf-8").split("\nrun:", 1)[1].split("\n\n")[0]
    # streamlit run through ui.app.serve, which imports the first page's modules ahead
    assert "-m ui.app.serve run app.py" in recipe
    assert not any(key.split(".")[1] in recipe for key in EXPECTED)


def test_apptest_sees_it_when_run_from_the_repository_root(tmp_path):
    # AppTest (no `streamlit run`) reads .streamlit/config.toml of the working directory; `make test`
    # and benchmarks/bench_app.py run from the repository root
    script = tmp_path / "probe.py"
    script.write_text(
        "import json\nimport streamlit as st\n"
        f"st.write(json.dumps({{k: st.get_option(k) for k in {list(EXPECTED)!r}}}))\n",
        encoding="utf-8",
    )
    code = (
        "import json, sys\nfrom streamlit.testing.v1 import AppTest\n"
        "at = AppTest.from_file(sys.argv[1]).run()\n"
        "print(at.markdown[0].value)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(script)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    seen = json.loads(out.stdout.strip().splitlines()[-1])
    assert {k: seen[k] for k in ("runner.postScriptGC", "runner.magicEnabled")} == {
        "runner.postScriptGC": False,
        "runner.magicEnabled": False,
    }
