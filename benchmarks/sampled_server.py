"""Run ``streamlit run`` in this process with a stack sampler: where the app server spends its time under load.

    BLEU_STUDY_SAMPLES=/tmp/samples.txt python benchmarks/sampled_server.py run app.py --server.port 8501

Every 5 ms a thread looks at the stacks of the other threads (``sys._current_frames``) and counts, for each
thread that is not waiting (its innermost frame is not a lock, a ``select`` or a sleep), the functions on its
stack. At exit (SIGTERM, as ``app_server.running_server`` stops the server) the counts go to ``$BLEU_STUDY_SAMPLES``:
``cumulative`` (the function is anywhere on the stack) and ``own`` (innermost frame), the most frequent first.
Python threads take turns on one interpreter lock, so a sample counts a thread ready to run, not necessarily
running: read the shares as where the work queues, not as CPU time. ``bench_esa_class.py --sample FILE``
starts the server this way.
"""

from __future__ import annotations

import atexit
import os
import signal
import sys
import threading
import time
from collections import Counter

IDLE = {"wait", "_wait_for_tstate_lock", "select", "poll", "sleep", "acquire", "get", "_worker",
        "run_forever", "_run_once", "accept", "readinto", "recv_into", "wait_for"}  # fmt: skip
INTERVAL_S = 0.005


class Sampler(threading.Thread):
    def __init__(self) -> None:
        super().__init__(daemon=True, name="stack-sampler")
        self.cumulative: Counter[str] = Counter()
        self.own: Counter[str] = Counter()
        self.samples = 0

    def run(self) -> None:
        me = threading.get_ident()
        while True:
            time.sleep(INTERVAL_S)
            for ident, frame in sys._current_frames().items():
                if (
                    ident == me
                    or frame.f_code.co_name in IDLE
                    or "watcher" in frame.f_code.co_filename
                ):
                    continue  # waiting, or a file watcher's poll loop (it sleeps in time.sleep)
                self.samples += 1
                self.own[where(frame)] += 1
                seen = set()
                while frame is not None:
                    name = where(frame)
                    if name not in seen:
                        self.cumulative[name] += 1
                        seen.add(name)
                    frame = frame.f_back

    def write(self, path: str) -> None:
        lines = [
            f"{self.samples} busy thread samples every {INTERVAL_S * 1000:.0f} ms",
            "",
            "cumulative:",
        ]
        lines += [
            f"{n:7d} {100 * n / max(1, self.samples):5.1f}% {k}"
            for k, n in self.cumulative.most_common(250)
        ]
        lines += ["", "own:"]
        lines += [
            f"{n:7d} {100 * n / max(1, self.samples):5.1f}% {k}"
            for k, n in self.own.most_common(40)
        ]
        with open(path, "w", encoding="utf-8") as out:
            out.write("\n".join(lines) + "\n")


def where(frame) -> str:
    code = frame.f_code
    path = code.co_filename
    short = (
        path.split("site-packages/")[-1] if "site-packages/" in path else path.split("/main/")[-1]
    )
    return f"{short}:{code.co_name}"


def main() -> None:
    sampler = Sampler()
    sampler.start()
    out = os.environ.get("BLEU_STUDY_SAMPLES", "samples.txt")
    atexit.register(sampler.write, out)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    from streamlit.web.cli import main as streamlit_main

    sys.argv = ["streamlit", *sys.argv[1:]]
    streamlit_main()


if __name__ == "__main__":
    main()
