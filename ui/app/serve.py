"""The server process of ``bleu-study app``: ``streamlit run``, with the command-line study loading at once.

``python -m ui.app.serve run app.py [FLAGS] -- PATH [--pair xx-yy] [--references A,B]`` is exactly
``python -m streamlit run …`` (same server, same flags, same arguments after ``--`` for the app), plus one
thing: the study named after ``--`` starts loading in a thread as the server starts
(:func:`ui.app.startup.preload`), not when the first browser session connects. A 50 systems × 10,000
segments study takes seconds to open; a user who starts the command and then switches to the browser
finds it loaded, or sees the same progress bar, nearer its end. Then the statistics of the default
settings are counted ahead, as the first BLEU page would count them. ``streamlit run app.py -- PATH`` still
works; it loads the study when the first session asks.
"""

from __future__ import annotations

import socket
import sys
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
    (:func:`ui.app.statistics_store.count_current`): the first BLEU page finds this very entry counted or
    counting. Not the other tokenizers: the first page schedules those, and they step aside while it draws
    (one counted here would run during the first page, unchecked)."""
    from bleu_core.options import BleuOptions
    from bleu_core.tokenizers import tokenizer_for_language
    from ui.app import statistics_store
    from ui.app.context import STATISTICS_ORDER

    options = BleuOptions()
    order = max(options.statistics_order, STATISTICS_ORDER)
    references = tuple(loaded.study.references)
    statistics_store.count_current(
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


def main(argv: list[str] | None = None) -> None:
    """Start loading the study once the server answers (then count its first statistics), and hand
    over to Streamlit."""
    args = list(sys.argv[1:] if argv is None else argv)
    from ui.app.startup import preload

    port = server_port(args)
    preload(study_request(args), then=count_first, before=partial(wait_until_serving, port))
    from streamlit.web.cli import main as streamlit_main

    sys.argv = ["streamlit", *args]
    streamlit_main()


if __name__ == "__main__":  # pragma: no cover - the server process
    main()
