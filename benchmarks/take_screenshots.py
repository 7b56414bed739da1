"""Take the README's screenshots of the app on the TED en-de demo study.

Writes ``docs/screenshots/explore.png`` and ``docs/screenshots/bleu_vs_human.png`` (committed). Needs
Debian's ``/usr/bin/chromium``. Run: ``.venv/bin/python benchmarks/take_screenshots.py``.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "browser"))

from app_server import CHROMIUM, CHROMIUM_ARGS, streamlit_server, wait_app_idle  # noqa: E402

OUT = ROOT / "docs" / "screenshots"
SHOTS = {
    # page url path → (file name, viewport height, what to show)
    "explore": ("explore.png", 1900),
    "bleu_vs_human": ("bleu_vs_human.png", 2000),
}


def main(argv: list[str] | None = None) -> None:
    import argparse

    from playwright.sync_api import sync_playwright

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--out", type=Path, default=OUT, help=f"folder for the PNG files (default {OUT})"
    )
    out = parser.parse_args(argv).out
    if not CHROMIUM.exists():
        raise SystemExit("needs /usr/bin/chromium")
    out.mkdir(parents=True, exist_ok=True)
    with streamlit_server() as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        for path, (name, height) in SHOTS.items():
            page = browser.new_page(viewport={"width": 1440, "height": height})
            page.goto(f"{url}/{path}")
            wait_app_idle(page)
            if path == "explore":
                # show the highlighting at order 2 with a pop-up open on a matched token
                group = page.locator('[data-testid="stButtonGroup"]').filter(has_text="1")
                group.locator("button").filter(has_text=re.compile(r"^2$")).click()
                wait_app_idle(page)
                page.locator(".bs-table .bs-matched").nth(3).hover()
                page.wait_for_timeout(300)
            page.screenshot(path=str(out / name))
            print("wrote", out / name)
            page.close()
        browser.close()


if __name__ == "__main__":
    main()
