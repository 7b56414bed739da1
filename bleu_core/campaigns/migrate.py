"""Bring a campaign database to the current schema with Alembic, keeping every row.

:func:`migrate` runs when a :class:`~bleu_core.campaigns.storage.CampaignStore` opens a database (so the app
migrates on start-up) and from the command line::

    python -m bleu_core campaigns migrate [DB]     # DB: a file path or SQLAlchemy URL; default BLEU_STUDY_DB

Three cases:

* **a new, empty database**: the tables of :mod:`~bleu_core.campaigns.schema` are created at once and stamped
  with the newest revision (Alembic's recipe for a fresh database; a test checks that running every
  migration from nothing gives the same schema);
* **a database made before migrations existed** (the tables are there, no ``alembic_version`` table): it is
  stamped ``0001`` (that revision is exactly the schema of then) and migrated from there;
* **a migrated database**: the revisions it lacks run, oldest first.

Everything runs in one write transaction: on SQLite ``BEGIN IMMEDIATE`` keeps other writers out, on
PostgreSQL a transaction-level advisory lock makes a second app server starting at the same moment wait and
then find the work done. PostgreSQL's DDL is transactional, so a failed migration leaves the database as
it was.

>>> from bleu_core.campaigns.connection import make_engine
>>> engine = make_engine("sqlite://")
>>> migrate(engine)
MigrationResult(before=None, after='0002', created=True)
>>> migrate(engine)
MigrationResult(before='0002', after='0002', created=False)
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from alembic.config import Config
from alembic.runtime.environment import EnvironmentContext
from alembic.runtime.migration import MigrationContext, RevisionStep
from alembic.script import ScriptDirectory
from sqlalchemy import func, inspect, select
from sqlalchemy.engine import Connection, Engine

from bleu_core.campaigns.model import CampaignError
from bleu_core.campaigns.schema import metadata

#: The folder of the revisions (:mod:`bleu_core.campaigns.migrations`).
MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"
#: The revision of the schema of :mod:`~bleu_core.campaigns.schema`.
HEAD = "0002"
#: The revision equal to the schema the store made before migrations existed.
BEFORE_MIGRATIONS = "0001"
#: Key of PostgreSQL's advisory lock held while migrating ("bleu" in ASCII).
ADVISORY_LOCK_KEY = 0x626C6575


@dataclass(frozen=True)
class MigrationResult:
    """The revision before (``None``: no ``alembic_version`` table) and after, and whether the tables were
    created from nothing."""

    before: str | None
    after: str
    created: bool


def script_directory() -> ScriptDirectory:
    """The Alembic script directory of the campaign migrations."""
    folder = str(MIGRATIONS_DIR)
    return ScriptDirectory(folder, version_locations=[folder])


def current_revision(conn: Connection) -> str | None:
    """The revision stamped in the database (``None`` when it has no ``alembic_version`` table)."""
    return MigrationContext.configure(conn).get_current_revision()


def _upgrade(conn: Connection, script: ScriptDirectory, target: str) -> None:
    """Run the revisions from the database's current one up to *target* on *conn*."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))

    def steps(revision: str, _context: object) -> list[RevisionStep]:
        return script._upgrade_revs(target, revision)

    with EnvironmentContext(config, script, fn=steps, destination_rev=target) as env:
        env.configure(connection=conn, target_metadata=metadata)
        env.run_migrations()


def _lock(conn: Connection) -> None:
    """On PostgreSQL, wait for any other process migrating the same database (released at commit)."""
    if conn.dialect.name == "postgresql":
        conn.execute(select(func.pg_advisory_xact_lock(ADVISORY_LOCK_KEY)))


def migrate(engine: Engine, target: str = HEAD) -> MigrationResult:
    """Bring the database of *engine* to revision *target* (default: the newest), in one transaction."""
    script = script_directory()
    with engine.connect() as conn:
        conn.execution_options(bleu_write=True)
        with conn.begin():
            _lock(conn)
            before = current_revision(conn)
            tables = set(inspect(conn).get_table_names())
            if before is None and "campaigns" not in tables and target == HEAD:
                metadata.create_all(conn)
                MigrationContext.configure(conn).stamp(script, HEAD)
                return MigrationResult(None, HEAD, True)
            if before is None and "campaigns" in tables:
                MigrationContext.configure(conn).stamp(script, BEFORE_MIGRATIONS)
            known = {r.revision for r in script.walk_revisions()}
            if before is not None and before not in known:
                raise CampaignError(
                    f"the campaign database is at revision {before!r}, which this bleu-study does not "
                    f"know (it knows {', '.join(sorted(known))}): it was migrated by a newer bleu-study; "
                    "upgrade bleu-study (pip install -U bleu-study)"
                )
            if current_revision(conn) != target:
                _upgrade(conn, script, target)
            return MigrationResult(before, str(current_revision(conn)), False)
