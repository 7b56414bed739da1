"""Campaign storage: round trips, rating/changing/skipping/resuming, progress, WAL, validation messages.

Every test uses a SQLite file under pytest's ``tmp_path`` or an in-memory database, never the user's data
directory. The last test checks random interleavings of judges' actions against a plain-dict model.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule
from sqlalchemy import func, select

from bleu_core.campaigns import (
    CampaignError,
    CampaignStore,
    RatingCriterion,
    display_database_url,
    plan_campaign,
    resolve_database_url,
)
from bleu_core.campaigns.storage import CODE_ALPHABET, DB_ENV_VAR, default_data_dir, ratings_table
from bleu_core.errors import BleuStudyError

SEGMENTS = ["s1", "s2", "s3", "s4"]


def make_plan(display: str = "both", **kwargs):
    args = dict(
        name="class test",
        study_name="toy",
        segment_ids=SEGMENTS,
        translations={
            "A": ["a1", "a2", "a3", "a4"],
            "B": ["b1", "b2", "b3", "b4"],
            "C": ["c1", "c2", "c3", "c4"],
        },
        sources=["x1", "x2", "x3", "x4"],
        references=["r1", "r2", "r3", "r4"],
        systems=["A", "B", "C"],
        n_segments=4,
        seed=11,
        display=display,
    )
    args.update(kwargs)
    return plan_campaign(**args)


@pytest.fixture
def created(store):
    return store.create_campaign(make_plan())


def test_sqlite_runs_in_wal_mode_with_busy_timeout(store):
    with store.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar() == 30000
        assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
        # synchronous FULL (2): fsync on every commit
        assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == 2


def test_database_location_env_var_and_default(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv(DB_ENV_VAR, raising=False)
    assert default_data_dir() == tmp_path / "xdg" / "bleu-study"
    assert (
        resolve_database_url()
        == f"sqlite:///{tmp_path / 'xdg' / 'bleu-study' / 'campaigns.sqlite'}"
    )
    monkeypatch.setenv(DB_ENV_VAR, str(tmp_path / "mine.db"))
    assert resolve_database_url() == f"sqlite:///{tmp_path / 'mine.db'}"
    monkeypatch.setenv(DB_ENV_VAR, "postgresql+psycopg://u:secret@h/db")
    assert resolve_database_url() == "postgresql+psycopg://u:secret@h/db"


def test_store_creates_missing_directories_and_hides_password(tmp_path):
    s = CampaignStore(tmp_path / "deep" / "er" / "c.sqlite")
    assert (tmp_path / "deep" / "er" / "c.sqlite").exists()
    assert s.display_url == f"sqlite:///{tmp_path / 'deep' / 'er' / 'c.sqlite'}"
    s.close()
    assert display_database_url("postgresql://u:secret@h/db") == "postgresql://u:***@h/db"


def test_bad_database_url_names_the_fix():
    with pytest.raises(
        CampaignError, match=r"not a file path or SQLAlchemy URL; set BLEU_STUDY_DB"
    ):
        CampaignStore("::not a url://")


def test_create_and_read_back(store, created):
    camp = created.campaign
    assert re.fullmatch(f"[{CODE_ALPHABET}]{{6}}", camp.code)
    again = store.get_campaign(camp.code.lower())  # codes are case-insensitive
    assert again == camp
    assert camp.n_items == 12
    assert camp.systems == ("A", "B", "C")
    assert camp.groups == ("monolingual", "bilingual")
    assert camp.criterion_names == ("adequacy", "fluency")
    assert camp.criteria[0].labels[0] == "very bad" and camp.criteria[0].labels[-1] == "very good"
    assert camp.seed == 11 and camp.display == "both" and camp.is_open
    assert camp.created_at.tzinfo is not None
    # the stored order is the planned order, texts included
    assert store.items(camp.code, created.organiser_key) == list(make_plan().items)


def test_rate_change_and_timestamps(store, created):
    code = created.campaign.code
    before = datetime.now(UTC)
    ana = store.join(code, "Ana", "bilingual")
    assert store.rate(code, ana.token, 0, {"adequacy": 4, "fluency": 5}) == 1
    assert store.my_ratings(code, ana.token) == {0: {"adequacy": 4, "fluency": 5}}
    store.rate(code, ana.token, 0, {"adequacy": 2, "fluency": 5})  # change one score
    store.rate(code, ana.token, 0, {"adequacy": 2, "fluency": 5})  # same again: not a change
    rows = store.ratings(code, created.organiser_key)
    assert [(r.criterion, r.score, r.n_changes) for r in rows] == [
        ("adequacy", 2, 1),
        ("fluency", 5, 0),
    ]
    after = datetime.now(UTC)
    for r in rows:
        assert before <= r.created_at <= r.updated_at <= after
    item0 = store.items(code, created.organiser_key)[0]
    assert (rows[0].segment_id, rows[0].system) == (item0.segment_id, item0.system)
    with store.engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(ratings_table)).scalar() == 2


def test_skip_then_rate_clears_the_skip(store, created):
    code = created.campaign.code
    ana = store.join(code, "Ana", "bilingual")
    assert store.skip(code, ana.token, 3) == 4
    assert store.my_skips(code, ana.token) == {3}
    store.rate(code, ana.token, 3, {"adequacy": 3, "fluency": 3})
    assert store.my_skips(code, ana.token) == set()
    store.skip(code, ana.token, 3)  # skipping a rated item records nothing
    assert store.my_skips(code, ana.token) == set()


def test_resume_where_stopped_after_restart(tmp_path):
    path = tmp_path / "c.sqlite"
    s1 = CampaignStore(path)
    created = s1.create_campaign(make_plan())
    code = created.campaign.code
    ana = s1.join(code, "Ana", "monolingual")
    for pos in range(5):
        s1.rate(code, ana.token, pos, {"adequacy": 3, "fluency": 4})
    s1.skip(code, ana.token, 5)
    s1.move(code, ana.token, 4)  # went back one item
    s1.close()
    s2 = CampaignStore(path)  # a new process would do the same
    judge = s2.resume(code, ana.token)
    assert (judge.name, judge.group, judge.cursor) == ("Ana", "monolingual", 4)
    assert len(s2.my_ratings(code, ana.token)) == 5
    assert s2.next_unrated(code, ana.token) == 5
    s2.close()


def test_next_unrated_is_none_when_everything_is_rated(store, created):
    code = created.campaign.code
    ana = store.join(code, "Ana", "monolingual")
    for pos in range(created.campaign.n_items):
        store.rate(code, ana.token, pos, {"adequacy": 1, "fluency": 1})
    assert store.next_unrated(code, ana.token) is None
    assert store.resume(code, ana.token).cursor == created.campaign.n_items


def test_progress_per_judge(store, created):
    code, key = created.campaign.code, created.organiser_key
    ana = store.join(code, "Ana", "monolingual")
    bo = store.join(code, "Bo", "bilingual")
    store.join(code, "Cy", "bilingual")
    for pos in range(3):
        store.rate(code, ana.token, pos, {"adequacy": 3, "fluency": 4})
    store.skip(code, ana.token, 3)
    store.rate(code, bo.token, 0, {"adequacy": 5, "fluency": 5})
    prog = {p.judge: p for p in store.progress(code, key)}
    assert (prog["Ana"].n_rated, prog["Ana"].n_skipped, prog["Ana"].cursor) == (3, 1, 4)
    assert (prog["Bo"].n_rated, prog["Bo"].group) == (1, "bilingual")
    assert prog["Cy"].n_rated == 0 and prog["Cy"].fraction == 0.0
    assert prog["Ana"].fraction == pytest.approx(3 / 12)
    assert list(prog) == ["Ana", "Bo", "Cy"]


def test_display_hides_what_judges_should_not_see(store):
    mono = store.create_campaign(make_plan(display="neither"))
    code = mono.campaign.code
    ana = store.join(code, "Ana", "monolingual")
    item = store.item(code, ana.token, 0)
    assert item.translation and item.source is None and item.reference is None
    full = store.items(code, mono.organiser_key)[0]
    assert full.source is not None and full.reference is not None  # kept for the organiser
    src = store.create_campaign(make_plan(display="source"))
    bo = store.join(src.campaign.code, "Bo", "bilingual")
    item = store.item(src.campaign.code, bo.token, 0)
    assert item.source is not None and item.reference is None


def test_close_reopen_and_delete(store, created):
    code, key = created.campaign.code, created.organiser_key
    ana = store.join(code, "Ana", "monolingual")
    assert not store.set_open(code, key, False).is_open
    with pytest.raises(
        CampaignError, match=r"campaign .* is closed; ask the organiser to reopen it"
    ):
        store.rate(code, ana.token, 0, {"adequacy": 1, "fluency": 1})
    with pytest.raises(CampaignError, match=r"is closed; ask the organiser to reopen it"):
        store.join(code, "Bo", "monolingual")
    store.set_open(code, key, True)
    store.rate(code, ana.token, 0, {"adequacy": 1, "fluency": 1})
    store.delete_campaign(code, key)
    with pytest.raises(
        CampaignError, match=r"no campaign with code .*; check the code the organiser gave you"
    ):
        store.get_campaign(code)
    with store.engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(ratings_table)).scalar() == 0


def test_in_memory_store_is_shared_between_threads():
    import threading

    s = CampaignStore("sqlite://")
    created = s.create_campaign(make_plan())
    code = created.campaign.code
    ana = s.join(code, "Ana", "monolingual")
    t = threading.Thread(target=s.rate, args=(code, ana.token, 0, {"adequacy": 2, "fluency": 2}))
    t.start()
    t.join()
    assert s.my_ratings(code, ana.token) == {0: {"adequacy": 2, "fluency": 2}}


def test_shared_returns_one_store_per_url(tmp_path):
    a = CampaignStore.shared(tmp_path / "x.sqlite")
    b = CampaignStore.shared(str(tmp_path / "x.sqlite"))
    assert a is b


# ----------------------------------------------------------------------------- validation messages
@pytest.fixture
def ana(store, created):
    return store.join(created.campaign.code, "Ana", "monolingual")


@pytest.mark.parametrize(
    ("scores", "message"),
    [
        (
            {"adequacy": 6, "fluency": 3},
            r"score 6 is outside the scale 1-5; give a whole number from 1 to 5",
        ),
        ({"adequacy": 0, "fluency": 3}, r"score 0 is outside the scale 1-5"),
        ({"adequacy": 2.5, "fluency": 3}, r"score 2.5 is not a whole number"),
        ({"adequacy": "4", "fluency": 3}, r"score '4' is not a whole number"),
        ({"adequacy": True, "fluency": 3}, r"score True is not a whole number"),
        ({"adequacy": 3}, r"no score for 'fluency'; rate every criterion or skip the item"),
        (
            {"adequacy": 3, "fluency": 3, "style": 2},
            r"unknown criterion 'style'; use 'adequacy', 'fluency'",
        ),
    ],
)
def test_bad_scores_are_refused(store, created, ana, scores, message):
    with pytest.raises(CampaignError, match=message):
        store.rate(created.campaign.code, ana.token, 0, scores)
    assert store.my_ratings(created.campaign.code, ana.token) == {}  # nothing half-written


@pytest.mark.parametrize("position", [-1, 12, 99, "3", None, True])
def test_positions_out_of_range_are_refused(store, created, ana, position):
    with pytest.raises(
        CampaignError, match=r"does not exist in campaign \w+; items are numbered 0 to 11"
    ):
        store.rate(created.campaign.code, ana.token, position, {"adequacy": 1, "fluency": 1})


def test_move_out_of_range_is_refused(store, created, ana):
    with pytest.raises(CampaignError, match=r"position 13 does not exist; use 0 to 12"):
        store.move(created.campaign.code, ana.token, 13)


def test_join_validation_messages(store, created):
    code = created.campaign.code
    with pytest.raises(CampaignError, match=r"judge name is empty; type a name"):
        store.join(code, "   ", "monolingual")
    with pytest.raises(CampaignError, match=r"judge name is 81 characters long; use at most 80"):
        store.join(code, "x" * 81, "monolingual")
    with pytest.raises(CampaignError, match=r"judge name contains a line break"):
        store.join(code, "a\nb", "monolingual")
    with pytest.raises(
        CampaignError,
        match=r"group 'experts' is not one of this campaign's groups; choose one of 'monolingual', 'bilingual'",
    ):
        store.join(code, "Ana", "experts")
    with pytest.raises(CampaignError, match=r"campaign code is empty; type the code"):
        store.join("  ", "Ana", "monolingual")
    with pytest.raises(CampaignError, match=r"no campaign with code 'ZZZZZZ'"):
        store.join("zzzzzz", "Ana", "monolingual")
    store.join(code, "Ana", "monolingual")
    with pytest.raises(
        CampaignError,
        match=r"the name 'Ana' is already taken .*resume code, otherwise choose another name",
    ):
        store.join(code, "Ana", "bilingual")


def test_campaign_errors_are_bleu_study_errors():
    assert issubclass(CampaignError, BleuStudyError) and issubclass(CampaignError, ValueError)


def test_custom_criterion_scale_is_enforced(store):
    crit = RatingCriterion("overall", "Overall quality?", ("poor", "ok", "great"), low=0)
    created = store.create_campaign(make_plan(criteria=[crit]))
    code = created.campaign.code
    ana = store.join(code, "Ana", "monolingual")
    store.rate(code, ana.token, 1, {"overall": 0})
    with pytest.raises(CampaignError, match=r"score 3 is outside the scale 0-2"):
        store.rate(code, ana.token, 1, {"overall": 3})
    assert store.get_campaign(code).criteria == (crit,)


def assert_generic_upsert_like_native(store: CampaignStore) -> None:
    """Force the portable update-else-insert branch of ``_upsert_rating`` on ``store``: same scores, same change
    counting as the native upserts."""
    store.dialect = "generic"
    created = store.create_campaign(make_plan())
    code = created.campaign.code
    ana = store.join(code, "Ana", "monolingual")
    store.rate(code, ana.token, 2, {"adequacy": 1, "fluency": 2})
    store.rate(code, ana.token, 2, {"adequacy": 1, "fluency": 4})
    store.rate(code, ana.token, 2, {"adequacy": 1, "fluency": 4})
    rows = store.ratings(code, created.organiser_key)
    assert [(r.criterion, r.score, r.n_changes) for r in rows] == [
        ("adequacy", 1, 0),
        ("fluency", 4, 1),
    ]


def test_generic_upsert_path_behaves_like_the_native_one(tmp_path):
    """Databases other than SQLite/PostgreSQL use update-else-insert; same results, same change counting."""
    s = CampaignStore(tmp_path / "generic.sqlite")
    assert_generic_upsert_like_native(s)
    s.close()


# ----------------------------------------------------------------------------- stateful model check


class JudgesAgainstAModel(RuleBasedStateMachine):
    """Random interleavings of two judges' rate / skip / move calls against a plain-dict model of the rules:
    one score per (judge, item, criterion), the last one wins, changes are counted, a skip is pending until
    the item is rated, and each judge's cursor is where the last call left it."""

    def __init__(self):
        super().__init__()
        self.store = CampaignStore("sqlite://")
        created = self.store.create_campaign(make_plan(n_segments=2, systems=["A", "B"]))
        self.code, self.key = created.campaign.code, created.organiser_key
        self.n = created.campaign.n_items
        self.tokens = [
            self.store.join(self.code, name, "monolingual").token for name in ("ana", "bo")
        ]
        self.scores: dict[tuple[int, int, str], tuple[int, int]] = {}  # -> (score, n_changes)
        self.skips: set[tuple[int, int]] = set()
        self.cursor = [0, 0]

    judge = st.integers(0, 1)
    position = st.integers(0, 3)
    score = st.integers(1, 5)

    @rule(j=judge, pos=position, a=score, f=score)
    def rate(self, j, pos, a, f):
        assert (
            self.store.rate(self.code, self.tokens[j], pos, {"adequacy": a, "fluency": f})
            == pos + 1
        )
        for crit, s in (("adequacy", a), ("fluency", f)):
            old = self.scores.get((j, pos, crit))
            changes = 0 if old is None else old[1] + (old[0] != s)
            self.scores[(j, pos, crit)] = (s, changes)
        self.skips.discard((j, pos))
        self.cursor[j] = pos + 1

    @rule(j=judge, pos=position)
    def skip(self, j, pos):
        self.store.skip(self.code, self.tokens[j], pos)
        if (j, pos, "adequacy") not in self.scores:
            self.skips.add((j, pos))
        self.cursor[j] = pos + 1

    @rule(j=judge, pos=st.integers(0, 4))
    def move(self, j, pos):
        self.store.move(self.code, self.tokens[j], pos)
        self.cursor[j] = pos

    @invariant()
    def database_matches_the_model(self):
        names = ("ana", "bo")
        got = {
            (names.index(r.judge), r.position, r.criterion): (r.score, r.n_changes)
            for r in self.store.ratings(self.code, self.key)
        }
        assert got == self.scores
        for j, token in enumerate(self.tokens):
            assert self.store.my_skips(self.code, token) == {p for (k, p) in self.skips if k == j}
            assert self.store.resume(self.code, token).cursor == self.cursor[j]
            mine = self.store.my_ratings(self.code, token)
            assert mine == {
                p: {c: s for (k, q, c), (s, _) in self.scores.items() if k == j and q == p}
                for (k, p, _c) in self.scores
                if k == j
            }

    def teardown(self):
        self.store.close()


JudgesAgainstAModel.TestCase.settings = settings(
    max_examples=25, stateful_step_count=25, deadline=None
)
test_judges_against_a_model = JudgesAgainstAModel.TestCase
