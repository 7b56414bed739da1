"""The projector of a lesson in headless Chromium, watched while the class rates.

The Projector page redraws its live part, a fragment, every 2 s (``st.fragment(run_every=2)``, the browser asks
for each re-run). A script in the page (:data:`WATCH_JS`) looks every 25 ms at two things and writes down when
they change (``performance.timeOrigin + performance.now()``, the same clock as ``time.time()`` on this
machine): the app's script state (``data-test-script-state``: ``running`` while the fragment re-runs, then
``notRunning``) and the number under "Ratings so far". From that log:

* **fragment re-run**: the time from ``running`` to ``notRunning``, the server's run of the fragment and the
  delivery of what it drew (:func:`rerun_seconds`);
* **save to screen**: for each rating, from the student pressing "Save and next" to the projector's count
  first reaching that rating's rank (:func:`lag_seconds`): the 2-s period, the re-run and the drawing.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "browser"))
from app_server import CHROMIUM, CHROMIUM_ARGS, wait_app_idle  # noqa: E402

WATCH_JS = """() => {
  window.__bsLog = [];
  let state = null, value = null;
  setInterval(() => {
    const app = document.querySelector('[data-testid="stApp"]');
    const s = app ? app.getAttribute('data-test-script-state') : null;
    let v = null;
    for (const m of document.querySelectorAll('[data-testid="stMetric"]')) {
      if (m.innerText.includes('Ratings so far')) {
        const el = m.querySelector('[data-testid="stMetricValue"]');
        v = el ? el.innerText.trim() : null;
      }
    }
    const t = (performance.timeOrigin + performance.now()) / 1000;
    if (s !== state) { window.__bsLog.push(['state', t, s]); state = s; }
    if (v !== value) { window.__bsLog.push(['value', t, v]); value = v; }
  }, 25);
}"""


def projector_process(url: str, stop, out) -> None:
    """Open *url* in Chromium, start :data:`WATCH_JS`, and hand its log to *out* once *stop* is set."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1600, "height": 1000})
        page.goto(url)
        wait_app_idle(page, timeout_ms=120_000)
        page.evaluate(WATCH_JS)
        while not stop.is_set():
            page.wait_for_timeout(500)
        log = page.evaluate("() => window.__bsLog")
        browser.close()
    out.put(json.dumps(log))


def rerun_seconds(log: list) -> list[float]:
    """Each ``running`` → ``notRunning`` stretch of the script state, in seconds.

    >>> rerun_seconds([["state", 1.0, "running"], ["value", 1.1, "3"], ["state", 1.4, "notRunning"],
    ...                ["state", 3.0, "running"], ["state", 3.25, "notRunning"]])
    [0.4, 0.25]
    """
    out, began = [], None
    for kind, t, value in log:
        if kind != "state":
            continue
        if value == "running":
            began = t
        elif value == "notRunning" and began is not None:
            out.append(round(t - began, 6))
            began = None
    return out


def lag_seconds(log: list, saved_at: list[float]) -> tuple[list[float], int]:
    """For the k-th rating saved (``saved_at``: when each "Save and next" was sent, ``time.time()``), the
    seconds until the projector first showed a count of at least k; also how many it never showed.

    >>> lag_seconds([["value", 5.0, "1"], ["value", 7.0, "3"]], [4.0, 4.5, 6.0, 9.0])
    ([1.0, 2.5, 1.0], 1)
    """
    shown = [
        (t, int(v.replace(",", "")))
        for kind, t, v in log
        if kind == "value" and v and v.replace(",", "").isdigit()
    ]
    first_at: list[float] = []  # first_at[c - 1]: when the count first reached c
    for t, count in shown:
        while len(first_at) < count:
            first_at.append(t)
    ordered = sorted(saved_at)
    lags = [first_at[k] - s for k, s in enumerate(ordered) if k < len(first_at)]
    return [round(x, 6) for x in lags], len(ordered) - len(lags)
