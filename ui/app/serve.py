"""The server process of ``bleu-study app`` and ``make run``: ``streamlit run``, with the first page's modules
imported and the command-line study loading at once.

``python -m ui.app.serve run app.py [FLAGS] -- PATH [--pair xx-yy] [--references A,B]`` is exactly
``python -m streamlit run …`` (same server, same flags, same arguments after ``--`` for the app), plus two
things: the modules of the first page are imported as soon as the server answers
(:data:`FIRST_PAGE_MODULES`: Streamlit imports a script only when the first session runs it), and the
study named after ``--`` starts loading in a thread as the server starts
(:func:`ui.app.startup.preload`), not when the first browser session connects. A 50 systems × 10,000
segments study takes seconds to open; a user who starts the command and then switches to the browser
finds it loaded, or sees the same progress bar, nearer its end. Then the statistics of the default
settings are counted ahead, as the first BLEU page would count them. ``streamlit run app.py -- PATH`` still
works; it loads the study when the first session asks.
"""

from __future__ import annotations

import socket
import sys
import threading
import time
from functools import partial


def study_request(argv: list[str]):  # -> StartupStudy | None
    """The study after ``--`` in ``streamlit run`` arguments (None: none, or arguments the app will reject
    itself with a message on the Study page).

    >>> study_request(["run", "app.py", "--server.port", "1", "--", "demo:ted-zh-en"]).path
    'demo:ted-zh-en'
    >>> study_request(["run", "app.py"]) is None
    True
    """
    from bleu_core.errors import BleuStudyError
    from ui.app.startup import parse_startup

    if "--" not in argv:
        return None
    try:
        return parse_startup(argv[argv.index("--") + 1 :])
    except BleuStudyError:
        return None


def count_first(loaded) -> None:  # loaded: ui.app.startup.LoadedStartup
    """After the preload: count the statistics of the settings a new session starts with (the default
    options, the tokenizer sacrebleu's command line picks for the study's target language, as the
    sidebar's :func:`ui.app.settings.follow_target_language` sets it), as the Study page has them counted
    (:func:`ui.app.shared_cache.count_current`): the first BLEU page finds this very entry counted or
    counting. Not the other tokenizers: the first page schedules those, and they step aside while it draws
    (one counted here would run during the first page, unchecked)."""
    from bleu_core.engine.options import BleuOptions
    from bleu_core.tokenize.tokenizers import tokenizer_for_language
    from ui.app import shared_cache
    from ui.app.context import STATISTICS_ORDER

    options = BleuOptions()
    order = max(options.statistics_order, STATISTICS_ORDER)
    references = tuple(loaded.study.references)
    shared_cache.count_current(
        loaded.key,
        loaded.study,
        references,
        tokenizer_for_language(loaded.study.target_lang),
        options.lowercase,
        order,
        guesses=False,
    )


def server_port(argv: list[str]) -> int:
    """The ``--server.port`` of ``streamlit run`` arguments (Streamlit's default 8501 without one).

    >>> server_port(["run", "app.py", "--server.port", "8642", "--", "x"]), server_port(["run", "app.py"])
    (8642, 8501)
    """
    options = argv[: argv.index("--")] if "--" in argv else argv
    for flag, value in zip(options, options[1:], strict=False):
        if flag == "--server.port" and value.isdigit():
            return int(value)
    return 8501


def wait_until_serving(port: int, timeout_s: float = 30.0, poll_s: float = 0.1) -> bool:
    """Wait until something accepts connections on ``port`` (the server has started); False after
    ``timeout_s``. Loading a large study holds Python's lock much of the time: started before the server
    answers, it doubled the time to the first answer on a 50 × 10k study."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=poll_s):
                return True
        except OSError:
            time.sleep(poll_s)
    return False


#: What the first page's script run imports (``app.py`` and the Study page, see
#: ``tests/app/test_app_serve_ahead.py``), numpy first: ~0.2 s of CPU that the server spends ahead, while the
#: browser loads Streamlit's scripts, instead of in the first run.
FIRST_PAGE_MODULES = (
    "numpy",
    "bleu_core.errors",
    "bleu_core.study",
    "bleu_core.study.demo",
    "ui.app.context",
    "ui.app.startup",
    "ui.app.warmup",
    "ui.app.state",
    "ui.app.boundary",
    "ui.app.domains",
    "ui.app.markup",
    "ui.app.numbers",
    "ui.app.settings",
    "ui.app.uploads",
    "ui.app.limits",
    "ui.campaigns.judge_link",
    "ui.study.metric_upload",
    "ui.study.overview",
    "ui.study.upload",
)


def import_ahead(port: int, modules: tuple[str, ...] = FIRST_PAGE_MODULES) -> threading.Thread:
    """Import ``modules`` in a thread once the server answers on ``port``: the first session's run then
    finds them loaded (a run that starts meanwhile waits for a module being imported, never imports it
    twice). Returns the thread."""
    import importlib

    def run() -> None:
        wait_until_serving(port)
        for name in modules:
            importlib.import_module(name)

    thread = threading.Thread(target=run, name="bleu-study-import-ahead", daemon=True)
    thread.start()
    return thread


def main(argv: list[str] | None = None) -> None:
    """Start importing the first page's modules and loading the study once the server answers (then
    count its first statistics), and hand over to Streamlit."""
    args = list(sys.argv[1:] if argv is None else argv)
    from ui.app.startup import preload

    port = server_port(args)
    import_ahead(port)
    preload(study_request(args), then=count_first, before=partial(wait_until_serving, port))
    from streamlit.web.cli import main as streamlit_main

    sys.argv = ["streamlit", *args]
    streamlit_main()


if __name__ == "__main__":  # pragma: no cover - the server process
    main()
