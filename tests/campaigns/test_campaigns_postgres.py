"""Campaign storage on PostgreSQL: the SQLite test suite again, plus what only a server database can get wrong.

A throw-away PostgreSQL cluster (``tests/campaigns/pg_server.py``) is started once for this module on a free port of
127.0.0.1, with one database whose session time zone is ``Asia/Kolkata`` (UTC+05:30) and whose collation is ICU
``en-US`` (``'bo' < 'Cy'``, unlike SQLite), so time zones and sort orders cannot pass by luck. Every test starts
with the campaign tables empty.
The whole module skips, with the reason, when psycopg (``pip install "psycopg[binary]"``) is missing or this
machine cannot run a PostgreSQL server.

* **The SQLite tests, on PostgreSQL**: the storage, access-control and export tests of
  ``test_campaigns_storage.py``, ``test_campaigns_access.py`` and ``test_campaigns_integration.py`` take their
  store from a ``store`` fixture; this module imports them and overrides that fixture, so they run unchanged
  against PostgreSQL. The hypothesis model check of judges' actions runs too.
* **Concurrency**: judges rating at once through ``JudgeSession`` (the load benchmark), one judge in several
  browser tabs hitting the same items, an organiser deleting a campaign while judges rate.
* **Durability**: a rating process killed with SIGKILL, the server crashing and restarting under a live store.
* **Same answers on both backends**: one script of actions on SQLite and on PostgreSQL gives the same ratings,
  progress and CSV export.
"""

from __future__ import annotations

import importlib.util
import random
import signal
import sys
import threading
import time
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import settings
from hypothesis.stateful import run_state_machine_as_test
from sqlalchemy import create_engine, event, func, inspect, select
from sqlalchemy.pool import NullPool

from bleu_core.campaigns import AccessDenied, CampaignError, CampaignStore, ratings_to_csv
from bleu_core.campaigns.storage import (
    items_table,
    judges_table,
    metadata,
    ratings_table,
    skips_table,
)

psycopg = pytest.importorskip(  # ImportError too: psycopg is there but finds no libpq
    "psycopg",
    reason='PostgreSQL tests need psycopg 3: pip install "psycopg[binary]"',
    exc_type=ImportError,
)

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]


def _load(name: str, path: Path) -> ModuleType:
    """A private copy of a sibling module (pytest runs with --import-mode=importlib: no sys.path entry)."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


pg_server = _load("_bleu_pg_server", HERE / "pg_server.py")
storage_tests = _load("_bleu_pg_storage_tests", HERE / "test_campaigns_storage.py")
access_tests = _load("_bleu_pg_access_tests", HERE / "test_campaigns_access.py")
integration_tests = _load("_bleu_pg_integration_tests", HERE / "test_campaigns_integration.py")
load_tests = _load("_bleu_pg_load_tests", HERE / "test_campaigns_load.py")
durability_tests = _load("_bleu_pg_durability_tests", HERE / "test_campaigns_durability.py")
migration_tests = _load("_bleu_pg_migration_tests", HERE / "test_campaigns_migrations.py")
esa_tests = _load("_bleu_pg_esa_tests", HERE / "test_campaigns_esa.py")

#: Session time zone of every test database: far from UTC, with a half-hour offset.
DB_TIMEZONE = "Asia/Kolkata"


# ----------------------------------------------------------------------------------------------- fixtures
@pytest.fixture(scope="module")
def pg():
    """One PostgreSQL server for this module (skips the module if none can run here)."""
    try:
        server = pg_server.PostgresServer.start()
    except pg_server.PostgresUnavailable as exc:
        pytest.skip(f"no PostgreSQL server can run here: {exc}")
    yield server
    server.stop()


@pytest.fixture(scope="module")
def pg_database(pg) -> str:
    """The URL of the module's database (created once: CREATE DATABASE is slow on a busy machine)."""
    return pg.create_database(timezone=DB_TIMEZONE)


@pytest.fixture
def pg_url(pg_database) -> str:
    """The module's database with every campaign table empty (ids restart at 1)."""
    engine = create_engine(pg_database, poolclass=NullPool)
    with engine.begin() as conn:
        tables = [t.name for t in metadata.sorted_tables]
        if inspect(conn).has_table("ratings"):
            conn.exec_driver_sql(f"TRUNCATE {', '.join(tables)} RESTART IDENTITY")
    engine.dispose()
    return pg_database


@pytest.fixture
def store(pg_url):
    """The fixture the imported SQLite tests ask for, here on PostgreSQL."""
    s = CampaignStore(pg_url)
    yield s
    s.close()


@pytest.fixture(params=["sqlite", "postgresql"])
def any_store(request, tmp_path):
    """A store on each backend, for the tests written for this module."""
    if request.param == "sqlite":
        s = CampaignStore(tmp_path / "campaigns.sqlite")
    else:
        s = CampaignStore(request.getfixturevalue("pg_url"))
    yield s
    s.close()


# ------------------------------------------------------------------- the SQLite suite, against PostgreSQL
# Tests that only use the ``store`` fixture (and fixtures built on it) run here unchanged. Left out: the ones
# about SQLite itself (WAL, file paths, in-memory sharing) and those that open their own SQLite file; their
# PostgreSQL counterparts are below.
REUSED = {
    storage_tests: [
        "created",  # fixtures
        "ana",
        "test_create_and_read_back",
        "test_rate_change_and_timestamps",
        "test_skip_then_rate_clears_the_skip",
        "test_next_unrated_is_none_when_everything_is_rated",
        "test_progress_per_judge",
        "test_display_hides_what_judges_should_not_see",
        "test_close_reopen_and_delete",
        "test_bad_scores_are_refused",
        "test_positions_out_of_range_are_refused",
        "test_move_out_of_range_is_refused",
        "test_join_validation_messages",
        "test_custom_criterion_scale_is_enforced",
    ],
    access_tests: [
        "test_organiser_actions_need_the_key",
        "test_one_campaigns_key_does_not_open_another",
        "test_secrets_are_stored_only_as_hashes",
        "test_a_judge_sees_and_changes_only_their_own_ratings",
        "test_forged_or_foreign_tokens_are_refused",
        "test_hostile_strings_are_stored_verbatim_via_bound_parameters",
    ],
    integration_tests: [
        "test_campaign_ratings_become_study_criteria",
        "test_applying_to_the_wrong_study_names_the_fix",
        "test_csv_export_round_trips_verbatim_without_the_formula_guard",
        "test_csv_export_defuses_spreadsheet_formulas",
        "test_ratings_digest_follows_the_ratings",
        "test_campaign_ratings_feed_the_papers_judge_comparisons",
    ],
}
REUSED[migration_tests] = [
    "test_every_row_survives_and_old_campaigns_still_open",
    "test_the_schema_after_migrating_is_the_schema_of_the_code",
    "test_migrating_twice_changes_nothing",
    "test_migrate_command",
    "test_a_database_from_a_newer_bleu_study_is_refused_with_the_fix",
]

REUSED[esa_tests] = [
    "test_an_esa_campaign_keeps_scores_and_spans",
    "test_bad_spans_are_refused_with_the_fix",
    "test_a_da_campaign_takes_0_to_100_and_no_spans",
    "test_judges_are_checked_and_failing_ones_left_out_unless_kept",
    "test_an_attention_check_is_pending_until_both_copies_are_rated",
    "test_an_esa_campaign_joins_the_study_with_its_spans",
    "test_the_appraise_csv_round_trips_through_the_wmt24_reader",
    "test_the_jsonl_export_reads_back",
    "test_deleting_a_campaign_deletes_its_spans",
]


@pytest.fixture(scope="module")
def legacy_pg_template(pg) -> str:
    """A PostgreSQL database holding the rows of the SQLite file written before migrations, in the schema
    of then, copied once (``legacy_url`` copies it again per test: CREATE DATABASE ... TEMPLATE)."""
    return migration_tests.copy_legacy_rows(pg.create_database(timezone=DB_TIMEZONE))


@pytest.fixture
def legacy_url(pg, legacy_pg_template) -> str:
    """The fixture the migration tests ask for: a fresh copy of the pre-migration database, on PostgreSQL."""
    return pg.create_database(timezone=DB_TIMEZONE, template=legacy_pg_template)


for _module, _names in REUSED.items():
    for _name in _names:
        globals()[_name] = getattr(
            _module, _name
        )  # AttributeError if a test was renamed: fix the list

make_plan = storage_tests.make_plan


# ------------------------------------------------------------------------------------ PostgreSQL itself
def test_the_store_really_runs_on_postgresql_with_the_native_upsert(store):
    statements: list[str] = []
    event.listen(store.engine, "before_cursor_execute", lambda *args: statements.append(args[2]))
    assert store.dialect == "postgresql"
    created = store.create_campaign(make_plan())
    code = created.campaign.code
    ana = store.join(code, "Ana", "monolingual")
    store.rate(code, ana.token, 0, {"adequacy": 4, "fluency": 5})
    upserts = [s for s in statements if s.lstrip().startswith("INSERT INTO ratings")]
    assert upserts and all(
        "ON CONFLICT (judge_id, position, criterion) DO UPDATE" in s for s in upserts
    )
    with store.engine.connect() as conn:
        assert conn.exec_driver_sql("SHOW server_version_num").scalar_one() >= "150000"
        assert conn.exec_driver_sql("SHOW TimeZone").scalar_one() == DB_TIMEZONE
    unique = inspect(store.engine).get_unique_constraints("ratings")
    assert {"name": "uq_rating", "column_names": ["judge_id", "position", "criterion"]} in [
        {k: u[k] for k in ("name", "column_names")} for u in unique
    ]


def test_times_come_back_in_utc_whatever_the_session_time_zone(store):
    created = store.create_campaign(make_plan())
    code, key = created.campaign.code, created.organiser_key
    ana = store.join(code, "Ana", "monolingual")
    store.rate(code, ana.token, 0, {"adequacy": 4, "fluency": 5})
    times = [created.campaign.created_at, store.get_campaign(code).created_at]
    times += [t for r in store.ratings(code, key) for t in (r.created_at, r.updated_at)]
    times += [p.last_activity for p in store.progress(code, key)]
    assert all(t.utcoffset().total_seconds() == 0 for t in times)
    assert all(t.isoformat().endswith("+00:00") for t in times)


def test_generic_upsert_path_on_postgresql(store):
    """The portable update-else-insert branch (for databases other than SQLite / PostgreSQL), run on a real
    server instead of SQLite: same scores, same change counting."""
    storage_tests.assert_generic_upsert_like_native(store)


def test_resume_where_stopped_with_a_new_store(pg_url):
    s1 = CampaignStore(pg_url)
    created = s1.create_campaign(make_plan())
    code = created.campaign.code
    ana = s1.join(code, "Ana", "monolingual")
    for pos in range(5):
        s1.rate(code, ana.token, pos, {"adequacy": 3, "fluency": 4})
    s1.skip(code, ana.token, 5)
    s1.move(code, ana.token, 4)
    s1.close()
    s2 = CampaignStore(pg_url)  # another app process, or the app after a restart
    judge = s2.resume(code, ana.token)
    assert (judge.name, judge.group, judge.cursor) == ("Ana", "monolingual", 4)
    assert len(s2.my_ratings(code, ana.token)) == 5 and s2.my_skips(code, ana.token) == {5}
    assert s2.next_unrated(code, ana.token) == 5
    s2.close()


def test_judges_against_a_model_on_postgresql(pg_url, monkeypatch):
    """The stateful model check of ``test_campaigns_storage.py`` with its store on PostgreSQL."""
    monkeypatch.setattr(storage_tests, "CampaignStore", lambda _target: CampaignStore(pg_url))
    run_state_machine_as_test(
        storage_tests.JudgesAgainstAModel,
        settings=settings(max_examples=8, stateful_step_count=20, deadline=None),
    )


# ------------------------------------------------------------------------------ bugs found on PostgreSQL
@pytest.mark.parametrize("token_id", ["2147483648", "99999999999", "999999999999"])
def test_token_ids_beyond_the_integer_range_are_refused_not_crashed(any_store, token_id):
    """PostgreSQL's INTEGER stops at 2**31-1; a larger judge id in a token must be a wrong token, not an
    'integer out of range' error."""
    created = any_store.create_campaign(make_plan())
    code = created.campaign.code
    any_store.join(code, "Ana", "monolingual")
    for action in (
        lambda t: any_store.resume(code, t),
        lambda t: any_store.rate(code, t, 0, {"adequacy": 3, "fluency": 3}),
        lambda t: any_store.skip(code, t, 0),
    ):
        with pytest.raises(AccessDenied, match=r"this resume code is not valid for campaign"):
            action(f"{token_id}-secret")


@pytest.mark.parametrize("token", ["²-x", "١-x", "1²-x", "+1-x", " 1-x"])
def test_non_ascii_digits_in_token_ids_are_refused(any_store, token):
    created = any_store.create_campaign(make_plan())
    code = created.campaign.code
    any_store.join(code, "Ana", "monolingual")
    with pytest.raises(AccessDenied, match=r"this resume code is not valid"):
        any_store.resume(code, token)


def test_texts_with_nul_characters_are_refused_on_postgresql_with_the_fix(store):
    """PostgreSQL cannot store NUL (0x00) in text; the organiser gets a message naming the item and the fix
    instead of a driver error, and nothing is half-written."""
    plan = make_plan(
        translations={
            "A": ["a1", "a2", "a3", "a4"],
            "B": ["b1", "b\x002", "b3", "b4"],
            "C": ["c1", "c2", "c3", "c4"],
        }
    )
    with pytest.raises(
        CampaignError,
        match=r"item \d+ \(segment 's2', system 'B'\): the translation contains a NUL character "
        r"\(\\x00\), which PostgreSQL cannot store; remove it from the input file",
    ):
        store.create_campaign(plan)
    with pytest.raises(
        CampaignError, match=r"the study name contains a NUL character .* remove it"
    ):
        store.create_campaign(make_plan(study_name="to\x00y"))
    with store.engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(items_table)).scalar_one() == 0


def test_nul_characters_are_still_stored_verbatim_on_sqlite(tmp_path):
    s = CampaignStore(tmp_path / "c.sqlite")
    plan = make_plan(references=["r1", "r\x002", "r3", "r4"])
    created = s.create_campaign(plan)
    items = s.items(created.campaign.code, created.organiser_key)
    assert sorted(it.reference for it in items if it.segment_id == "s2") == ["r\x002"] * 3
    s.close()


NAMES = ["Ana", "bo", "Cy", "Émile", "zoë", "ana"]  # byte order differs from en-US collation order


def run_script(store: CampaignStore) -> tuple[object, ...]:
    """The same actions on any store; returns what the organiser sees (times left out)."""
    created = store.create_campaign(make_plan())
    code, key = created.campaign.code, created.organiser_key
    rng = random.Random(7)
    tokens = {}
    for i, name in enumerate(NAMES):
        tokens[name] = store.join(code, name, ("monolingual", "bilingual")[i % 2]).token
    for _ in range(120):
        name = rng.choice(NAMES)
        pos = rng.randrange(created.campaign.n_items)
        if rng.random() < 0.2:
            store.skip(code, tokens[name], pos)
        elif rng.random() < 0.1:
            store.move(code, tokens[name], rng.randrange(created.campaign.n_items + 1))
        else:
            store.rate(code, tokens[name], pos, {"adequacy": rng.randint(1, 5), "fluency": 3})
    ratings = store.ratings(code, key)
    rows = [
        (r.judge, r.group, r.position, r.segment_id, r.system, r.criterion, r.score, r.n_changes)
        for r in ratings
    ]
    progress = [
        (p.judge, p.group, p.n_rated, p.n_skipped, p.n_items, p.cursor)
        for p in store.progress(code, key)
    ]
    csv_lines = [line.split(",")[:8] for line in ratings_to_csv(ratings).splitlines()]
    skips = {name: store.my_skips(code, tok) for name, tok in tokens.items()}
    return rows, progress, csv_lines, skips


def test_sqlite_and_postgresql_give_the_same_answers(tmp_path, pg_url, monkeypatch):
    results = []
    for target in (tmp_path / "same.sqlite", pg_url):
        s = CampaignStore(target)
        # the same campaign code on both, so that exports are comparable line by line
        monkeypatch.setattr("secrets.choice", lambda seq: seq[0])
        results.append(run_script(s))
        s.close()
    sqlite_result, pg_result = results
    rows = sqlite_result[0]
    assert len(rows) > 40 and any(r[-1] > 0 for r in rows)  # the script did change ratings
    assert [r[0] for r in rows] == sorted(r[0] for r in rows)  # by judge, code point order
    assert {r[0] for r in rows} == set(NAMES)
    for a, b in zip(sqlite_result, pg_result, strict=True):
        assert a == b


# --------------------------------------------------------------------------------------------- concurrency
def test_ten_concurrent_judges_every_rating_exactly_once(pg_url):
    """``benchmarks/load_ratings.py`` (the Rate page's code path, one thread per judge) against PostgreSQL."""
    bench = load_tests.load_benchmark()
    report = bench.run_load(pg_url, n_judges=10, seconds=2.0, seed=3, n_segments=30)
    assert report.errors == [] and report.n_errors == 0
    assert report.n_submits > 10 and report.n_changes > 0 and report.n_skips > 0
    assert report.n_rows == report.n_expected_ratings > 0
    assert (
        report.n_duplicate_keys
        == report.n_missing
        == report.n_wrong_score
        == report.n_unexpected
        == 0
    )
    assert report.skips_match and report.ok


def test_one_judge_in_several_tabs_at_once(any_store):
    """Six threads share one judge's token and rate / skip / move over the same few items. Each call is one
    transaction on that judge's row, so none fails, and the rules still hold afterwards: one row per (item,
    criterion), and no pending skip for an item that is rated."""
    created = any_store.create_campaign(make_plan())
    code, key = created.campaign.code, created.organiser_key
    token = any_store.join(code, "Ana", "monolingual").token
    errors: list[BaseException] = []
    start = threading.Barrier(6)

    def tab(i: int) -> None:
        rng = random.Random(i)
        start.wait()
        try:
            for _ in range(25):
                pos = rng.randrange(4)
                if rng.random() < 0.5:
                    any_store.skip(code, token, pos)
                elif rng.random() < 0.8:
                    any_store.rate(code, token, pos, {"adequacy": rng.randint(1, 5), "fluency": 2})
                else:
                    any_store.move(code, token, pos)
        except BaseException as exc:  # noqa: BLE001 - collected and asserted below
            errors.append(exc)

    threads = [threading.Thread(target=tab, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    rated = set(any_store.my_ratings(code, token))
    assert rated and any_store.my_skips(code, token).isdisjoint(rated)
    keys = [(r.position, r.criterion) for r in any_store.ratings(code, key)]
    assert len(keys) == len(set(keys)) == 2 * len(rated)


def test_deleting_a_campaign_while_judges_rate(any_store):
    """The organiser deletes the campaign while five judges are rating: the delete succeeds, judges get a
    campaign error (never a database error), and nothing of the campaign is left."""
    created = any_store.create_campaign(make_plan())
    code, key = created.campaign.code, created.organiser_key
    tokens = [any_store.join(code, f"judge {i}", "monolingual").token for i in range(5)]
    stop = threading.Event()
    unexpected: list[BaseException] = []
    refused = [0]
    rated = threading.Event()

    def judge(token: str) -> None:
        pos = 0
        while not stop.is_set():
            try:
                any_store.rate(code, token, pos % 12, {"adequacy": 3, "fluency": 3})
                any_store.skip(code, token, (pos + 5) % 12)
                rated.set()
            except CampaignError:  # AccessDenied or "no campaign": the campaign is gone
                refused[0] += 1
                time.sleep(0.005)
            except BaseException as exc:  # noqa: BLE001 - collected and asserted below
                unexpected.append(exc)
                return
            pos += 1

    threads = [threading.Thread(target=judge, args=(t,)) for t in tokens]
    for t in threads:
        t.start()
    assert rated.wait(30)
    time.sleep(0.3)
    any_store.delete_campaign(code, key)
    time.sleep(0.3)
    stop.set()
    for t in threads:
        t.join()
    assert unexpected == []
    assert refused[0] > 0
    with any_store.engine.connect() as conn:
        for table in (ratings_table, judges_table, skips_table, items_table):
            assert conn.execute(select(func.count()).select_from(table)).scalar_one() == 0


# ---------------------------------------------------------------------------------------------- durability
@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_ratings_committed_before_a_kill_survive_it(pg_url):
    """``test_campaigns_durability.py``'s kill test with the database on PostgreSQL: a forked process rating
    item after item is killed with SIGKILL at random points over three rounds; every rating it reported as
    done is in the database, and the judge resumes right after what is stored."""
    rng = random.Random(7)
    store = CampaignStore(pg_url)
    created = store.create_campaign(durability_tests.small_plan(60))
    code, key = created.campaign.code, created.organiser_key
    n = created.campaign.n_items
    for round_ in range(3):
        token = store.join(code, f"judge {round_}", "monolingual").token
        after, delay = rng.randrange(0, 20), rng.choice([0.0, rng.uniform(0, 0.02)])
        reported = durability_tests.kill_at(pg_url, code, token, n, round_, after, delay)
        mine = {
            (r.position, r.criterion): r.score
            for r in store.ratings(code, key)
            if r.judge == f"judge {round_}"
        }
        for pos in reported:
            assert (
                mine.get((pos, "adequacy")) == durability_tests.scores_for(pos, round_)["adequacy"]
            )
        stored = sorted({pos for pos, _ in mine})
        assert stored == list(range(len(stored))) and len(stored) - len(reported) in (0, 1)
        assert store.resume(code, token).cursor == len(stored)
    store.close()


def test_a_live_store_survives_a_server_crash_and_restart(pg, pg_url):
    """The server is stopped the hard way (no checkpoint: crash recovery on restart) under a store with open
    pooled connections. Committed ratings are all there afterwards and the same store keeps working (stale
    connections are detected by the pool's pre-ping)."""
    store = CampaignStore(pg_url)
    created = store.create_campaign(make_plan())
    code, key = created.campaign.code, created.organiser_key
    token = store.join(code, "Ana", "monolingual").token
    for pos in range(6):
        store.rate(code, token, pos, {"adequacy": 1 + pos % 5, "fluency": 2})
    pg.crash()
    with pytest.raises(Exception):  # noqa: B017 - any driver error: the server is down
        store.rate(code, token, 6, {"adequacy": 1, "fluency": 1})
    pg.restart()
    assert store.resume(code, token).cursor == 6
    assert store.rate(code, token, 6, {"adequacy": 5, "fluency": 5}) == 7
    got = {(r.position, r.criterion): r.score for r in store.ratings(code, key)}
    assert got == {
        **{(p, "adequacy"): 1 + p % 5 for p in range(6)},
        **{(p, "fluency"): 2 for p in range(6)},
        (6, "adequacy"): 5,
        (6, "fluency"): 5,
    }
    store.close()


# One app server (a Streamlit process holding one CampaignStore) serving some judges of an ESA campaign: each
# judge in turn submits every item with a span, the judges of both servers interleaved.
APP_SERVER = """
import sys
from bleu_core.campaigns import CampaignStore, JudgeSession, MarkedSpan
url, code, names = sys.argv[1], sys.argv[2], sys.argv[3].split(",")
store = CampaignStore(url)
sessions = [JudgeSession.join(store, code, name, "bilingual") for name in names]
for pos in range(sessions[0].n_items):
    for k, session in enumerate(sessions):
        session.submit(pos, {"esa": (13 * pos + 7 * k) % 101}, [MarkedSpan(0, 1, "major")])
store.close()
"""


def test_two_app_servers_sharing_one_postgresql_serve_one_campaign(pg_url):
    """Two processes, each with its own store (its own connection pool), rate one ESA campaign at once:
    every rating and span of both is stored once, and each server sees the other's judges."""
    import subprocess

    store = CampaignStore(pg_url)
    created = store.create_campaign(esa_tests.esa_plan())
    code, key = created.campaign.code, created.organiser_key
    servers = [
        subprocess.Popen(
            [sys.executable, "-c", APP_SERVER, pg_url, code, names],
            cwd=ROOT,
            stderr=subprocess.PIPE,
            text=True,
        )  # fmt: skip
        for names in ("a1,a2,a3", "b1,b2,b3")
    ]
    for server in servers:
        assert server.wait(timeout=300) == 0, server.stderr.read()
    n_items = store.get_campaign(code).n_items
    ratings = store.ratings(code, key)
    assert len(ratings) == 6 * n_items
    assert len({(r.judge, r.position) for r in ratings}) == 6 * n_items
    assert len(store.spans(code, key)) == 6 * n_items
    assert [p.n_rated for p in store.progress(code, key)] == [n_items] * 6
    store.close()
