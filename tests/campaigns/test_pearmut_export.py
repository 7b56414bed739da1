"""Writing Pearmut's files (``bleu_core/campaigns/pearmut_export.py``) without Pearmut: the shapes and every
refusal. The real Pearmut reads them in ``test_pearmut_roundtrip.py``."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import zipfile
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bleu_core.campaigns.integration import plan_from_study
from bleu_core.campaigns.model import CampaignError, Item, StoredRating
from bleu_core.campaigns.pearmut_export import pearmut_bundle, pearmut_campaign, pearmut_existing
from bleu_core.campaigns.protocols import MarkedSpan, StoredSpan
from bleu_core.campaigns.storage import CampaignStore
from bleu_core.errors import InputError, StudyError
from bleu_core.io.members import open_tree
from bleu_core.study.formats.pearmut import read_pearmut
from bleu_core.study.formats.pearmut_study import PearmutFiles, pearmut_files, pearmut_study
from bleu_core.study.loading import load_study

T0 = datetime(2026, 11, 29, tzinfo=UTC)
ITEMS = [
    Item(0, "s1", "A", "ab😀\ncd", source="x", reference="r"),
    Item(1, "s1", "B", "cd", source="x", reference="r"),
    Item(
        2,
        "t1",
        "A",
        "the cat",
        kind="tutorial",
        qc={"expected_spans": [MarkedSpan(4, 7, "major").to_dict()]},
    ),  # fmt: skip
    Item(
        3,
        "s1",
        "A",
        "ab😀\nXd",
        kind="attention",
        qc={"start": 4, "end": 5, "phrase": "X", "original": 0},
    ),  # fmt: skip
]


def test_the_campaign_file_has_pearmuts_shape() -> None:
    c = pearmut_campaign(ITEMS, campaign_id="c", users=["u1", "u2"], protocol="cESA")
    assert c["info"]["special_tokens"] == ["[missing]", "[instructions fault]"]
    assert len(c["data"]) == 2 and c["data"][0] == [[{"item_id": "s1", "src": "x", "ref": "r", "tgt": {"A": "ab😀\ncd", "B": "cd"}}]]  # fmt: skip
    # the tutorial: an overlap of "cat" (units 4-6 of "the cat"): start_i in 0-6, end_i in 4-6
    assert c["data_welcome"][0][0]["validation"] == {"A": {"error_spans": [{"start_i": [0, 6], "end_i": [4, 6]}]}}  # fmt: skip
    # the attention check: "X" is character 4 = unit 5 (the emoji takes 2 units, the line break 1)
    assert c["data_random"][0][0]["validation"]["A"]["error_spans"] == [
        {"start_i": [0, 5], "end_i": [5, 6]}
    ]
    assert c["info"]["data_random_prob"] == 0.1
    esa = pearmut_campaign(ITEMS, campaign_id="c", users=3, assignment="dynamic", protocol="cESA")
    assert (
        esa["data"][0][0]["tgt"] == {"A": "ab😀\ncd", "B": "cd"}
        and esa["info"]["dynamic_models"] == 2
    )


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"protocol": "MQM"}, r"protocol 'MQM': write one of ESA, cESA"),
        (
            {"assignment": "single-stream"},
            r"assignment 'single-stream': write one of task-based, dynamic",
        ),
        ({"users": 2}, r"a task-based Pearmut campaign needs the annotators' ids"),
        (
            {"assignment": "dynamic", "users": 2},
            r"a dynamic Pearmut campaign needs every system on every segment",
        ),  # fmt: skip
    ],
)
def test_bad_campaign_choices_are_refused(kwargs: dict, message: str) -> None:
    with pytest.raises(CampaignError, match=message):
        pearmut_campaign(
            ITEMS[:1] + [Item(1, "s2", "B", "z")], campaign_id="c", **{"users": ["u"], **kwargs}
        )


def test_only_quality_control_items_are_refused() -> None:
    with pytest.raises(CampaignError, match=r"no test item to write"):
        pearmut_campaign(ITEMS[2:3], campaign_id="c", users=["u"])


def test_ratings_are_written_for_users_of_a_task_based_campaign_only() -> None:
    campaign = pearmut_campaign(ITEMS, campaign_id="c", users=["u1"])
    stranger = [StoredRating("K", "zoe", "g", 0, "s1", "A", "esa", 5, T0, T0)]
    with pytest.raises(
        CampaignError, match=r"judge 'zoe' is not a user of the Pearmut campaign; users: u1"
    ):
        pearmut_existing(campaign, stranger, [])
    dynamic = pearmut_campaign(
        ITEMS[:2], campaign_id="c", users=1, assignment="dynamic", protocol="cESA"
    )
    with pytest.raises(
        CampaignError, match=r"ratings can be written for a task-based Pearmut campaign only"
    ):
        pearmut_existing(dynamic, [], [])


def test_the_bundle_reads_back() -> None:
    ratings = [StoredRating("K", "u1", "g", 0, "s1", "A", "esa", 40, T0, T0), StoredRating("K", "u1", "g", 1, "s1", "B", "esa", 90, T0, T0)]  # fmt: skip
    spans = [
        StoredSpan("K", "u1", "g", 0, "s1", "A", MarkedSpan(2, 5, "major"))
    ]  # the emoji, \n and "c"
    with zipfile.ZipFile(io.BytesIO(pearmut_bundle(ITEMS, ratings, spans, campaign_id="c"))) as z:
        files = {n: json.loads(z.read(n)) for n in z.namelist()}
    assert sorted(files) == ["annotations.json", "campaign.json", "campaigns.json", "progress.json"]
    assert files["progress.json"]["c"]["u1"]["progress"] == [
        "completed",
        "completed",
    ]  # ESA: one page each
    got = read_pearmut(
        [("annotations.json", json.dumps(files["annotations.json"], ensure_ascii=False))]
    )
    a = {x.system: x for x in got.answers}
    assert (a["A"].scores, a["B"].scores) == ({"esa": 40.0}, {"esa": 90.0})
    assert [(s.start, s.end) for s in a["A"].spans] == [(2, 5)]


def test_pearmut_files_that_are_not_enough_say_why(tmp_path: Path) -> None:
    log = '{"annotation": [{"A": {"score": 5}}], "item": [{"item_id": "s", "tgt": {"A": "a"}}], "user_id": "u", "item_i": 0}'  # fmt: skip
    with pytest.raises(StudyError, match=r"these Pearmut items show no reference \('ref'\)"):
        pearmut_study(PearmutFiles((), (("log.jsonl", log),)))
    (tmp_path / "log.jsonl").write_text(log)
    (tmp_path / "campaign.json").write_text('{"campaign_id": "c", "info": {}, "data": [oops')
    with (
        open_tree(tmp_path) as tree,
        pytest.raises(InputError, match=r"campaign\.json.*not valid JSON"),
    ):
        pearmut_files(tree)
    (tmp_path / "campaign.json").write_text(
        '[{"campaign_id": "c", "info": {}, "data": []}, {"campaign_id": "d"}]'
    )
    with (
        open_tree(tmp_path) as tree,
        pytest.raises(InputError, match=r"not a Pearmut campaign file"),
    ):
        pearmut_files(tree)


def test_esa_option_on_a_folder_without_pearmut_files(tmp_path: Path) -> None:
    from bleu_core.cli.options import with_esa_files

    (tmp_path / "notes.json").write_text("{}")
    with pytest.raises(InputError, match=r"no Pearmut annotation log or download here"):
        with_esa_files(None, [str(tmp_path)])


def test_an_attention_checks_marks_stay_off_its_original() -> None:
    # item 3 is the damaged copy of item 0 (same segment and system, another text): its mark on "X"
    # (character 4) must not be written on item 0, whose own mark is the emoji (characters 2-3)
    campaign = pearmut_campaign(ITEMS, campaign_id="c", users=["u1"])
    ratings = [StoredRating("K", "u1", "g", p, "s1", "A", "esa", 50, T0, T0, kind=k) for p, k in ((0, "test"), (3, "attention"))]  # fmt: skip
    spans = [StoredSpan("K", "u1", "g", 0, "s1", "A", MarkedSpan(2, 3, "minor")),
             StoredSpan("K", "u1", "g", 3, "s1", "A", MarkedSpan(4, 5, "major"), "attention")]  # fmt: skip
    _, _, annotations = pearmut_existing(campaign, ratings, spans)
    (entry,) = annotations["c"]
    assert entry["annotation"][0]["A"]["error_spans"] == [{"start_i": 2, "end_i": 3, "category": None, "severity": "minor"}]  # fmt: skip


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bleu_core", "campaigns", *args], capture_output=True, text=True, timeout=300)  # fmt: skip


def test_export_pearmut_from_a_study_and_from_a_stored_campaign(tmp_path: Path) -> None:
    done = _cli("export-pearmut", "demo:ted-en-de", "--out", str(tmp_path / "c.json"), "--users", "a,b",
                "--segments", "2", "--protocol", "cESA", "--systems", "Online-W,UEdin")  # fmt: skip
    assert done.returncode == 0, done.stderr
    campaign = json.loads((tmp_path / "c.json").read_text())
    # two users, each the same 2 documents of one segment with both systems side by side
    assert [len(task) for task in campaign["data"]] == [2, 2]
    assert all(set(doc[0]["tgt"]) == {"Online-W", "UEdin"} for doc in campaign["data"][0])
    store = CampaignStore(tmp_path / "db.sqlite")
    plan = plan_from_study(load_study("demo:ted-en-de").study, systems=["Online-W"], n_segments=2, seed=1, protocol="esa")  # fmt: skip
    created = store.create_campaign(plan)
    code, key = created.campaign.code, created.organiser_key
    token = store.join(code, "ana", plan.groups[0]).token
    store.rate(code, token, 0, {"esa": 80}, [MarkedSpan(0, 1, "minor")])
    store.close()
    done = _cli("export-pearmut", "--campaign", code, "--key", key, "--database", str(tmp_path / "db.sqlite"), "--out", str(tmp_path / "b.zip"))  # fmt: skip
    assert done.returncode == 0, done.stderr
    with zipfile.ZipFile(tmp_path / "b.zip") as z:
        annotations = json.loads(z.read("annotations.json"))
    (entry,) = annotations[code]
    assert entry["user_id"] == "ana" and next(iter(entry["annotation"][0].values()))["score"] == 80


def test_export_pearmut_of_a_stored_contrastive_campaign_keeps_its_screens(tmp_path: Path) -> None:
    from bleu_core.campaigns.contrastive import contrastive_plan, submit_screen
    from bleu_core.campaigns.session import JudgeSession

    store = CampaignStore(tmp_path / "db.sqlite")
    study = load_study("demo:ted-en-de").study
    plan = plan_from_study(
        study, systems=["Online-W", "UEdin"], n_segments=2, seed=1, protocol="esa"
    )
    created = store.create_campaign(contrastive_plan(plan))
    code, key = created.campaign.code, created.organiser_key
    items = store.items(code, key)
    session = JudgeSession.join(store, code, "ana", plan.groups[0])
    submit_screen(session, {items[0].position: (90, []), items[1].position: (40, [MarkedSpan(0, 1, "major")])})  # fmt: skip
    store.close()
    done = _cli("export-pearmut", "--campaign", code, "--key", key, "--database", str(tmp_path / "db.sqlite"), "--out", str(tmp_path / "b.zip"))  # fmt: skip
    assert done.returncode == 0, done.stderr
    with zipfile.ZipFile(tmp_path / "b.zip") as z:
        campaign, annotations = (
            json.loads(z.read(n)) for n in ("campaign.json", "annotations.json")
        )
    assert campaign["info"]["protocol"] == "cESA"
    assert [set(doc[0]["tgt"]) for doc in campaign["data"][0]] == [{"Online-W", "UEdin"}] * 2
    (entry,) = annotations[code]  # the saved screen: one page, both systems
    scores = {system: answer["score"] for system, answer in entry["annotation"][0].items()}
    assert scores == {items[0].system: 90, items[1].system: 40}


def test_export_pearmut_says_what_it_needs(tmp_path: Path) -> None:
    done = _cli("export-pearmut", "demo:ted-en-de", "--out", str(tmp_path / "c.json"))
    assert done.returncode == 2 and "export-pearmut needs a STUDY and --users a,b" in done.stderr
    done = _cli("export-pearmut", "--campaign", "ABCDEF", "--out", str(tmp_path / "c.zip"))
    assert (
        done.returncode == 2
        and "--campaign needs the campaign's organiser key: --key KEY" in done.stderr
    )
