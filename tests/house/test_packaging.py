"""Installable as a package: the built wheel carries the demo studies and the app itself.

The test builds the wheel (no build isolation: setuptools and wheel come with the test extra), installs it
into a fresh virtual environment without its dependencies (those are made visible from this environment
through a ``.pth`` file, so no download is needed; the project's own editable install is *not* visible there,
since ``.pth`` files of an added path are not executed), and from a directory outside the checkout runs
``bleu-study score``, ``bleu-study study demo:ted-en-de`` and ``bleu-study app``, far enough to answer its
health check. Each command must run the installed copy, not the checkout.
"""

from __future__ import annotations

import json
import os
import signal
import site
import subprocess
import sys
import venv
from pathlib import Path

import pytest

from tests.browser.app_server import free_port, wait_healthy

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
         "-w", str(tmp / "dist"), str(ROOT)],
        check=True, cwd=tmp,
    )  # fmt: skip
    [wheel] = (tmp / "dist").glob("bleu_study-*.whl")
    env_dir = tmp / "env"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    python = env_dir / "bin" / "python"
    purelib = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True, capture_output=True, text=True,
    ).stdout.strip()  # fmt: skip
    # dependencies from this environment, appended after the fresh environment's own site-packages
    Path(purelib, "_deps.pth").write_text(
        "\n".join(site.getsitepackages()) + "\n", encoding="utf-8"
    )
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", purelib, str(wheel)],
        check=True,
    )  # fmt: skip
    # pip --target writes the console script under purelib/bin; call it through python -m instead
    return python, tmp


def run(python: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "BLEU_STUDY_DATA")}
    return subprocess.run(
        [str(python), "-m", "bleu_core", *args], cwd=cwd, env=env, capture_output=True, text=True
    )


def test_the_installed_copy_is_used(installed):
    python, tmp = installed
    out = subprocess.run(
        [python, "-c", "import bleu_core, ui; print(bleu_core.__file__); print(ui.__file__)"],
        cwd=tmp, capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    assert str(ROOT) not in out and str(tmp) in out


def test_score_and_the_bundled_demo_from_the_wheel(installed):
    python, tmp = installed
    (tmp / "ref.txt").write_text("the cat sat on the mat\n", encoding="utf-8")
    (tmp / "hyp.txt").write_text("the cat sat on the mat\n", encoding="utf-8")
    score = run(python, tmp, "score", "-r", "ref.txt", "-i", "hyp.txt", "--format", "json")
    assert score.returncode == 0, score.stderr
    assert json.loads(score.stdout)[0]["score"] == pytest.approx(100.0)
    study = run(python, tmp, "study", "demo:ted-en-de", "--format", "json")
    assert study.returncode == 0, study.stderr
    summary = json.loads(study.stdout)
    assert summary["segments"] == 529 and len(summary["systems"]) == 13


def test_app_starts_from_the_wheel(installed):
    python, tmp = installed
    printed = run(python, tmp, "app", "--print-command")
    assert printed.returncode == 0, printed.stderr
    assert "/ui/_app/app.py" in printed.stdout and str(ROOT) not in printed.stdout
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    process = subprocess.Popen(
        [str(python), "-m", "bleu_core", "app", "demo:paper-examples", "--port", str(port)],
        cwd=tmp, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        start_new_session=True,
    )  # fmt: skip
    try:
        wait_healthy(f"http://127.0.0.1:{port}", timeout=90)
        assert process.poll() is None
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=30)
