"""Where the campaign database lives and how it is opened so that a class of judges can write at once.

Where the data lives
    By default a SQLite file ``campaigns.sqlite`` in the user's data directory (:func:`default_data_dir`). The
    environment variable ``BLEU_STUDY_DB`` overrides it with a file path or any SQLAlchemy URL (e.g.
    ``postgresql+psycopg://user@host/db`` for a shared deployment); see :func:`resolve_database_url`.

SQLite
    :func:`make_engine` turns on WAL mode (readers never block the writer) with ``synchronous=FULL`` (a commit
    is on disk before ``rate`` returns) and a busy timeout, and makes every
    write transaction start with ``BEGIN IMMEDIATE`` (a connection opened with the execution option
    ``bleu_write=True``), so concurrent writers queue instead of failing with "database is locked". Within one
    process, writers also queue on :func:`write_lock_for` (prompt hand-over instead of SQLite's growing sleeps).

A database server (PostgreSQL)
    Transactions run concurrently there, so writes take row locks, always in the order campaign row, then judge
    rows (:func:`lock_campaign`; a judge's own writes lock that judge's row). PostgreSQL text cannot hold NUL
    characters: :func:`refuse_nul` names the text that has one instead of letting the driver fail.
"""

from __future__ import annotations

import os
import sys
import threading
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, event, select
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.exc import ArgumentError
from sqlalchemy.pool import StaticPool

from bleu_core.campaigns.model import CampaignError
from bleu_core.campaigns.planning import CampaignPlan
from bleu_core.campaigns.schema import campaigns_table, judges_table

#: Environment variable naming the database: a file path or an SQLAlchemy URL.
DB_ENV_VAR = "BLEU_STUDY_DB"
DB_FILENAME = "campaigns.sqlite"
#: How long a SQLite writer waits for the lock before giving up (seconds).
BUSY_TIMEOUT_S = 30.0


def default_data_dir() -> Path:
    """The per-user data directory of bleu-study (not created here).

    ``$XDG_DATA_HOME/bleu-study`` or ``~/.local/share/bleu-study`` on Linux,
    ``~/Library/Application Support/bleu-study`` on macOS, ``%LOCALAPPDATA%\\bleu-study`` on Windows.
    """
    home = Path.home()
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or home / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = home / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or home / ".local" / "share")
    return base / "bleu-study"


def resolve_database_url(target: str | os.PathLike[str] | None = None) -> str:
    """The SQLAlchemy URL for *target*: an URL (kept), a file path (→ ``sqlite:///path``), or ``None`` (→ the
    ``BLEU_STUDY_DB`` environment variable, else the default file in :func:`default_data_dir`).

    >>> resolve_database_url("postgresql://u@h/db")
    'postgresql://u@h/db'
    >>> resolve_database_url("/tmp/x/ratings.sqlite")
    'sqlite:////tmp/x/ratings.sqlite'
    """
    value = os.fspath(target) if target is not None else os.environ.get(DB_ENV_VAR, "").strip()
    if not value:
        return f"sqlite:///{default_data_dir() / DB_FILENAME}"
    if "://" in value:
        return value
    return f"sqlite:///{Path(value).expanduser().resolve()}"


def display_database_url(target: str | os.PathLike[str] | None = None) -> str:
    """:func:`resolve_database_url` with any password hidden, for showing to people (opens nothing).

    >>> display_database_url("postgresql://ana:s3cret@db.example/ratings")
    'postgresql://ana:***@db.example/ratings'
    """
    try:
        return make_url(resolve_database_url(target)).render_as_string(hide_password=True)
    except ArgumentError:
        return "(not a valid database URL)"


def make_engine(url: str) -> Engine:
    """An engine for *url*: on SQLite with WAL, a busy timeout and ``BEGIN IMMEDIATE`` for writers.

    The only literal SQL of the campaign store is here: the fixed PRAGMA and BEGIN statements.

    >>> make_engine("not a url://")
    Traceback (most recent call last):
    ...
    bleu_core.campaigns.model.CampaignError: database 'not a url://' is not a file path or SQLAlchemy URL; set BLEU_STUDY_DB to e.g. /path/to/ratings.sqlite or postgresql://user@host/db
    """
    try:
        parsed = make_url(url)
    except ArgumentError as exc:
        raise CampaignError(
            f"database {url!r} is not a file path or SQLAlchemy URL; set {DB_ENV_VAR} to e.g. "
            "/path/to/ratings.sqlite or postgresql://user@host/db"
        ) from exc
    if parsed.get_backend_name() != "sqlite":
        return create_engine(parsed, pool_pre_ping=True)
    memory = not parsed.database or parsed.database == ":memory:"
    if parsed.database and not memory:
        Path(parsed.database).expanduser().parent.mkdir(parents=True, exist_ok=True)
    kwargs: dict[str, Any] = {
        "connect_args": {"timeout": BUSY_TIMEOUT_S, "check_same_thread": False}
    }
    if memory:  # one shared connection, so every thread sees the same in-memory database
        kwargs["poolclass"] = StaticPool
    else:
        kwargs.update(pool_size=8, max_overflow=40, pool_timeout=60)
    engine = create_engine(parsed, **kwargs)

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # let the "begin" hook below emit BEGIN itself
        cursor = dbapi_connection.cursor()
        if not memory:
            cursor.execute("PRAGMA journal_mode=WAL")
            # FULL: the WAL is synced at every commit, so a rating acknowledged to a judge survives a
            # crash of the process and of the machine (NORMAL could lose the last commits on power loss).
            cursor.execute("PRAGMA synchronous=FULL")
        cursor.execute(f"PRAGMA busy_timeout={int(BUSY_TIMEOUT_S * 1000)}")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Connection) -> None:
        mode = "IMMEDIATE" if connection.get_execution_options().get("bleu_write") else "DEFERRED"
        connection.exec_driver_sql(f"BEGIN {mode}")

    return engine


_WRITE_LOCKS: dict[str, threading.Lock] = {}
_WRITE_LOCKS_GUARD = threading.Lock()


def write_lock_for(url: str) -> threading.Lock:
    """One lock per SQLite database in this process, shared by every store opened on it.

    >>> write_lock_for("sqlite:///a.db") is write_lock_for("sqlite:///a.db")
    True
    """
    with _WRITE_LOCKS_GUARD:
        return _WRITE_LOCKS.setdefault(url, threading.Lock())


def lock_campaign(conn: Connection, code: str, *, delete: bool = False) -> None:
    """On a server database, lock campaign *code*'s row first thing in a write transaction.

    Call it only when the database needs row locks (not SQLite, whose writers are serialised anyway).
    Joining takes ``FOR KEY SHARE`` (joins do not block each other, nor closing/reopening). Deleting takes
    ``FOR UPDATE`` on the campaign and then on every judge of it (in id order), so it waits for the writes in
    flight and the writes that come later find no campaign / no judge. Judges' own writes lock only their judge
    row, so the lock order is always campaign, then judges: no deadlocks.
    """
    stmt = select(campaigns_table.c.code).where(campaigns_table.c.code == code)
    if not delete:
        conn.execute(stmt.with_for_update(read=True, key_share=True))
        return
    conn.execute(stmt.with_for_update())
    conn.execute(
        select(judges_table.c.id)
        .where(judges_table.c.campaign_code == code)
        .order_by(judges_table.c.id)
        .with_for_update()
    )


def refuse_nul(dialect: str, plan: CampaignPlan) -> None:
    """PostgreSQL text cannot hold NUL (0x00): say which text has one, instead of a driver error.

    >>> from bleu_core.campaigns.planning import plan_campaign
    >>> plan = plan_campaign(name="demo", study_name="toy", segment_ids=["s1"],
    ...                      translations={"A": ["a\\x00b"]}, sources=None, references=None,
    ...                      systems=["A"], n_segments=1, seed=0)
    >>> refuse_nul("sqlite", plan)   # SQLite stores NUL fine
    >>> refuse_nul("postgresql", plan)
    Traceback (most recent call last):
    ...
    bleu_core.campaigns.model.CampaignError: item 0 (segment 's1', system 'A'): the translation contains a NUL character (\\x00), which PostgreSQL cannot store; remove it from the input file
    """
    if dialect != "postgresql":
        return
    fix = "contains a NUL character (\\x00), which PostgreSQL cannot store; remove it from the input file"
    for what, value in (("campaign name", plan.name), ("study name", plan.study_name)):
        if "\x00" in value:
            raise CampaignError(f"the {what} {fix}")
    for it in plan.items:
        for field in ("segment_id", "system", "translation", "source", "reference"):
            value = getattr(it, field)
            if value is not None and "\x00" in value:
                raise CampaignError(
                    f"item {it.position} (segment {it.segment_id!r}, system {it.system!r}): "
                    f"the {field.replace('_', ' ')} {fix}"
                )
