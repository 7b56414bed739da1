"""The class benchmark's phones (``benchmarks/class_judges.py``) against a real ``streamlit run app.py``: three
students join an ESA lesson over the websocket, mark words and save, and the database holds exactly what each
sent. This keeps ``benchmarks/bench_esa_class.py`` honest: if the Rate page's widgets change, this fails
before a benchmark silently measures the wrong pages. No browser is needed.
"""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
BENCHMARKS = HERE.parents[1] / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))
sys.path.insert(0, str(HERE))

pytest.importorskip("websockets")
from app_server import streamlit_server  # noqa: E402
from bench_esa_class import check_database  # noqa: E402
from class_common import ted_lesson  # noqa: E402
from class_judges import Pace, student  # noqa: E402

from bleu_core.campaigns import CampaignStore  # noqa: E402

pytestmark = pytest.mark.browser


async def three_students(url: str, code: str, seconds: float):
    pace = Pace(0.3, 0.6, 0.5, time.time() + seconds)
    return await asyncio.gather(*(student(url, code, k, 7, pace) for k in range(3)))


def test_websocket_students_save_exactly_what_they_sent(tmp_path):
    db = str(tmp_path / "class.sqlite")
    plan = ted_lesson(2, "esa")
    store = CampaignStore(db)
    created = store.create_campaign(plan)
    code, key = created.campaign.code, created.organiser_key
    store.close()
    with streamlit_server(extra_env={"BLEU_STUDY_DB": db}, quiet=True) as url:
        reports = asyncio.run(three_students(url, code, 12.0))
    assert [r.errors for r in reports] == [[], [], []]
    saves = [vars(s) for r in reports for s in r.submitted]
    assert all(r.submitted for r in reports)  # each student saved at least one item
    assert all(s["next_shown"] for s in saves)  # every save brought the next item (or the end)
    check = check_database(db, code, key, plan, saves)
    assert (check["lost"], check["wrong"], check["duplicated"], check["wrong spans"]) == (
        0,
        0,
        0,
        0,
    )
    assert check["stored"] == len(saves)
    assert any(s["first_word"] or s["missing"] for s in saves)  # seed 7: some items carry spans
