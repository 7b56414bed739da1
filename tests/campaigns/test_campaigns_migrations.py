"""The campaign database grows by Alembic migrations without losing anything.

``data/campaigns-before-migrations.sqlite`` was written by the campaign store as it was before migrations
existed (bleu-study 0.1.0: ``metadata.create_all``, no ``alembic_version`` table): two campaigns, one open
with three judges (ratings changed, a skip, a hostile name) and one closed with a 0-2 criterion. Its keys and
tokens are below. ``data/README.md`` says how it was made.

Here the tests run on copies of that file; ``test_campaigns_postgres.py`` runs the same tests on a PostgreSQL
database holding the same rows in the schema of then (revision ``0001``), by overriding ``legacy_url``.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from datetime import UTC
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import MetaData, create_engine, func, inspect, select
from sqlalchemy.pool import NullPool

from bleu_core.campaigns import CampaignError, CampaignStore
from bleu_core.campaigns.connection import make_engine
from bleu_core.campaigns.migrate import HEAD, current_revision, migrate
from bleu_core.campaigns.planning import plan_campaign, with_protocol
from bleu_core.campaigns.protocols import MarkedSpan
from bleu_core.campaigns.schema import metadata

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
LEGACY_FILE = HERE / "data" / "campaigns-before-migrations.sqlite"
#: What the store printed when it wrote the file (see data/README.md).
OPEN_CODE, OPEN_KEY = "XV58GX", "vyS7o4JSoV4aBrk5hlCE_eHP"
CLOSED_CODE, CLOSED_KEY = "PX4VD3", "qGRpbOFdTnrSCGssO0mrRuhB"
TOKENS = {
    "Ana": "1-f2IjxFNny7EMeLm4",
    "Bo'; DROP TABLE ratings;--": "2-AnH7PfreIx6OISJZ",
    "Zoë": "3-qVwXf6SWUBU1iGL-",
    "Solo": "4-IFRhwGvhuOtY1WlH",
}
TABLES = ("campaigns", "items", "judges", "ratings", "skips")


@pytest.fixture
def legacy_url(tmp_path: Path) -> str:
    """A copy of the database written before migrations existed."""
    target = tmp_path / "campaigns.sqlite"
    shutil.copyfile(LEGACY_FILE, target)
    return f"sqlite:///{target}"


def copy_legacy_rows(url: str) -> str:
    """Fill the empty database *url* as the old code would have: the schema of then (revision ``0001``, no
    ``alembic_version`` table) and the rows of :data:`LEGACY_FILE`, with PostgreSQL's id sequences moved
    past the copied ids."""
    engine = make_engine(url)
    migrate(engine, "0001")
    stamp = MetaData()
    stamp.reflect(engine, only=["alembic_version"])
    stamp.drop_all(engine)  # the old code kept no revision
    source = create_engine(f"sqlite:///{LEGACY_FILE}", poolclass=NullPool)
    old = MetaData()
    old.reflect(source, only=TABLES)
    target = MetaData()
    target.reflect(engine, only=TABLES)
    with source.connect() as read, engine.begin() as write:
        for name in TABLES:
            rows = [dict(row._mapping) for row in read.execute(select(old.tables[name]))]
            for row in rows:
                for key, value in row.items():
                    if key.endswith("_at"):
                        row[key] = value.replace(tzinfo=UTC)
            write.execute(target.tables[name].insert(), rows)
        if engine.dialect.name == "postgresql":
            for name in ("judges", "ratings"):
                top = select(func.max(target.tables[name].c.id)).scalar_subquery()
                write.execute(select(func.setval(func.pg_get_serial_sequence(name, "id"), top)))
    source.dispose()
    engine.dispose()
    return url


def raw_rows(url: str) -> dict[str, list[tuple]]:
    """Every row of the five old tables, read with plain SQLAlchemy (no store, no migration)."""
    engine = create_engine(url, poolclass=NullPool)
    old = MetaData()
    old.reflect(engine, only=TABLES)
    with engine.connect() as conn:
        rows = {
            name: sorted(
                tuple(str(v) if v is not None else None for v in row)
                for row in conn.execute(select(*[old.tables[name].c[c] for c in columns(name)]))
            )
            for name in TABLES
        }
    engine.dispose()
    return rows


def columns(table: str) -> list[str]:
    """The columns a table had before migrations (times left out: their text form differs by backend)."""
    return [
        c.name
        for c in metadata.tables[table].columns
        if c.name not in ("protocol", "kind", "qc", "qc_keep") and not c.name.endswith("_at")
    ]


def test_every_row_survives_and_old_campaigns_still_open(legacy_url):
    before = raw_rows(legacy_url)
    assert len(before["ratings"]) == 26 and len(before["judges"]) == 4
    store = CampaignStore(legacy_url)  # migrates on opening
    try:
        with store.engine.connect() as conn:
            assert current_revision(conn) == HEAD
        assert raw_rows(legacy_url) == before
        ratings = store.ratings(OPEN_CODE, OPEN_KEY)
        assert len(ratings) == 24
        ana = [(r.position, r.criterion, r.score, r.n_changes) for r in ratings if r.judge == "Ana"]
        assert ana[:2] == [(0, "adequacy", 5, 1), (0, "fluency", 5, 1)]
        assert {r.kind for r in ratings} == {"test"}
        assert [(r.position, r.score) for r in store.ratings(CLOSED_CODE, CLOSED_KEY)] == [
            (0, 0),
            (1, 2),
        ]
        campaign = store.get_campaign(OPEN_CODE)
        assert (campaign.is_open, campaign.protocol, campaign.display) == (
            True,
            "adequacy-fluency",
            "both",
        )
        assert store.get_campaign(CLOSED_CODE).is_open is False
        # judges resume with the tokens of then, where they stopped, and go on rating
        zoe = store.resume(OPEN_CODE, TOKENS["Zoë"])
        assert (zoe.name, zoe.cursor) == ("Zoë", 6)
        assert store.my_skips(OPEN_CODE, TOKENS["Zoë"]) == {5}
        store.rate(OPEN_CODE, TOKENS["Zoë"], 4, {"adequacy": 2, "fluency": 3})
        with pytest.raises(CampaignError, match=r"campaign PX4VD3 is closed"):
            store.rate(CLOSED_CODE, TOKENS["Solo"], 0, {"overall": 1})
        store.set_open(CLOSED_CODE, CLOSED_KEY, True)
        store.rate(CLOSED_CODE, TOKENS["Solo"], 0, {"overall": 1})
        # new judges and new (ESA) campaigns live beside the old ones
        new = store.join(OPEN_CODE, "Neu", "bilingual")
        assert new.judge.id == 5
        esa = store.create_campaign(with_protocol(small_plan(), "esa"))
        judge = store.join(esa.campaign.code, "Ana", "g")
        store.rate(esa.campaign.code, judge.token, 0, {"esa": 70}, [MarkedSpan(0, 3, "minor")])
        assert [s.span for s in store.spans(esa.campaign.code, esa.organiser_key)] == [
            MarkedSpan(0, 3, "minor")
        ]
        assert len(store.ratings(OPEN_CODE, OPEN_KEY)) == 26
    finally:
        store.close()


def small_plan():
    return plan_campaign(
        name="esa", study_name="toy", segment_ids=["s1"], translations={"A": ["the cat"]},
        sources=None, references=None, systems=["A"], n_segments=1, seed=0, groups=["g"],
    )  # fmt: skip


def test_the_schema_after_migrating_is_the_schema_of_the_code(legacy_url):
    engine = make_engine(legacy_url)
    migrate(engine)
    with engine.connect() as conn:
        assert compare_metadata(MigrationContext.configure(conn), metadata) == []
    engine.dispose()


def schema_of(url: str) -> dict[str, object]:
    """Tables, columns (name, type, nullable, primary key), unique constraints and indexes, as reflected."""
    engine = create_engine(url, poolclass=NullPool)
    found = inspect(engine)
    shape: dict[str, object] = {}
    for table in sorted(t for t in found.get_table_names() if t != "alembic_version"):
        shape[table] = (
            [(c["name"], str(c["type"]), c["nullable"]) for c in found.get_columns(table)],
            found.get_pk_constraint(table)["constrained_columns"],
            sorted((u["name"], tuple(u["column_names"])) for u in found.get_unique_constraints(table)),
            sorted((i["name"], tuple(i["column_names"])) for i in found.get_indexes(table)),
            sorted((f["referred_table"], tuple(f["constrained_columns"])) for f in found.get_foreign_keys(table)),
        )  # fmt: skip
    engine.dispose()
    return shape


def test_the_first_revision_is_the_schema_the_old_code_made(tmp_path):
    url = f"sqlite:///{tmp_path / 'first.sqlite'}"
    engine = make_engine(url)
    assert migrate(engine, "0001").after == "0001"
    engine.dispose()
    assert schema_of(url) == schema_of(f"sqlite:///{LEGACY_FILE}")


def test_every_migration_from_nothing_gives_what_a_new_database_gets(tmp_path):
    by_steps, at_once = make_engine(f"sqlite:///{tmp_path / 'a.sqlite'}"), make_engine("sqlite://")
    assert migrate(by_steps, "0001").created is False
    assert migrate(by_steps).before == "0001"
    assert migrate(at_once).created is True
    for engine in (by_steps, at_once):
        with engine.connect() as conn:
            assert compare_metadata(MigrationContext.configure(conn), metadata) == []
            assert current_revision(conn) == HEAD
    by_steps.dispose()


def test_migrating_twice_changes_nothing(legacy_url):
    engine = make_engine(legacy_url)
    first, second = migrate(engine), migrate(engine)
    assert (first.before, first.after) == (None, HEAD)
    assert (second.before, second.after, second.created) == (HEAD, HEAD, False)
    with engine.connect() as conn:
        assert (
            conn.execute(select(func.count()).select_from(metadata.tables["ratings"])).scalar()
            == 26
        )
    engine.dispose()


def test_migrate_command(legacy_url):
    before = raw_rows(legacy_url)
    run = subprocess.run(
        [sys.executable, "-m", "bleu_core", "campaigns", "migrate", legacy_url],
        capture_output=True, text=True, cwd=ROOT, check=False,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert f"from revision (none: made before migrations) to {HEAD}" in run.stdout
    assert raw_rows(legacy_url) == before
    again = subprocess.run(
        [sys.executable, "-m", "bleu_core", "campaigns", "migrate", legacy_url],
        capture_output=True, text=True, cwd=ROOT, check=False,
    )  # fmt: skip
    assert again.returncode == 0 and f"already at revision {HEAD}" in again.stdout


def test_migrate_command_names_a_bad_database():
    run = subprocess.run(
        [sys.executable, "-m", "bleu_core", "campaigns", "migrate", "not a url://"],
        capture_output=True, text=True, cwd=ROOT, check=False,
    )  # fmt: skip
    assert run.returncode == 2
    assert "database 'not a url://' is not a file path or SQLAlchemy URL" in run.stderr


def test_a_database_from_a_newer_bleu_study_is_refused_with_the_fix(legacy_url):
    engine = make_engine(legacy_url)
    migrate(engine)
    with engine.begin() as conn:
        conn.execute(version_table().update().values(version_num="9999"))
    with pytest.raises(
        CampaignError, match=r"at revision '9999', which this bleu-study does not know"
    ):
        migrate(engine)
    engine.dispose()
    with pytest.raises(CampaignError, match=r"upgrade bleu-study"):
        CampaignStore(legacy_url)


def version_table():
    from sqlalchemy import Column, String, Table

    return Table("alembic_version", MetaData(), Column("version_num", String(32)))
