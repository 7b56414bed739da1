"""Keep campaigns, judges and ratings in a real database (SQLAlchemy Core; SQLite by default).

Where the data lives
    By default a SQLite file ``campaigns.sqlite`` in the user's data directory (``$XDG_DATA_HOME/bleu-study`` or
    ``~/.local/share/bleu-study`` on Linux, ``~/Library/Application Support/bleu-study`` on macOS,
    ``%LOCALAPPDATA%\\bleu-study`` on Windows). The environment variable ``BLEU_STUDY_DB`` overrides it with a file
    path or any SQLAlchemy URL (e.g. ``postgresql+psycopg://user@host/db`` for a shared deployment).

Safety for a class of judges rating at once
    SQLite runs in WAL mode (readers never block the writer) with a busy timeout, and every write transaction starts
    with ``BEGIN IMMEDIATE`` so concurrent writers queue instead of failing with "database is locked". Each rating
    is one row per (judge, item, criterion) under a unique constraint, written by an upsert: re-submitting or
    changing a rating can never duplicate it. A rating is on disk when :meth:`CampaignStore.rate` returns, so
    nothing is lost when a browser tab closes or the server is killed.

On a database server (PostgreSQL)
    Transactions run concurrently there, so writes take row locks, always in the order campaign row, then judge
    rows. A judge's write locks that judge's row (``FOR NO KEY UPDATE``): one judge's actions from several
    browser tabs queue instead of racing, while different judges never wait for each other. Joining locks the
    campaign row ``FOR KEY SHARE``; deleting a campaign locks it ``FOR UPDATE`` and then all its judges' rows, so
    it waits for the writes in flight (and is queued ahead of later ones), and those later writes then fail
    cleanly with "no campaign" / "not valid" instead of a database error.
    PostgreSQL text cannot hold NUL characters (``\\x00``): a campaign with such a text is refused with a message
    naming the item. Times come back in UTC whatever the connection's time zone. Ratings are listed in code
    point order of the judges' names, as on SQLite, whatever the database's collation.

Who may do what
    Creating a campaign returns an *organiser key*; only its salted SHA-256 hash is stored and keys are compared
    with :func:`hmac.compare_digest`. Organiser actions (progress, all ratings, export, closing) need the key.
    Joining returns a *judge token* (``"<judge id>-<secret>"``, also stored only as a hash); every judge action
    needs it and touches only that judge's own rows. All SQL uses bound parameters; the only literal SQL is the
    fixed PRAGMA / BEGIN statements below.

>>> store = CampaignStore("sqlite://")            # in memory, for this example
>>> from bleu_core.campaigns.planning import plan_campaign
>>> plan = plan_campaign(name="demo", study_name="toy", segment_ids=["s1", "s2"],
...                      translations={"A": ["a one", "a two"]}, sources=None, references=None,
...                      systems=["A"], n_segments=2, seed=0)
>>> created = store.create_campaign(plan)
>>> access = store.join(created.campaign.code, "Ana", "monolingual")
>>> store.rate(created.campaign.code, access.token, 0, {"adequacy": 4, "fluency": 5})
1
>>> [(r.judge, r.criterion, r.score) for r in store.ratings(created.campaign.code, created.organiser_key)]
[('Ana', 'adequacy', 4), ('Ana', 'fluency', 5)]
>>> store.ratings(created.campaign.code, "wrong key")
Traceback (most recent call last):
...
bleu_core.campaigns.model.AccessDenied: wrong organiser key for this campaign; use the key shown when the campaign was created
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
import sys
import threading
from collections.abc import Iterator, Mapping
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, ClassVar

from sqlalchemy import (
    Boolean,
    Column,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    case,
    create_engine,
    delete,
    event,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.exc import ArgumentError, IntegrityError
from sqlalchemy.pool import StaticPool

from bleu_core.campaigns.model import (
    AccessDenied,
    Campaign,
    CampaignError,
    Item,
    Judge,
    JudgeAccess,
    JudgeProgress,
    RatingCriterion,
    StoredRating,
    check_name,
)
from bleu_core.campaigns.planning import CampaignPlan

#: Environment variable naming the database: a file path or an SQLAlchemy URL.
DB_ENV_VAR = "BLEU_STUDY_DB"
DB_FILENAME = "campaigns.sqlite"
#: How long a SQLite writer waits for the lock before giving up (seconds).
BUSY_TIMEOUT_S = 30.0
#: Campaign codes: 6 characters without look-alikes (no 0/O, 1/I/L).
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
#: Largest judge id a token may name: the top of a 32-bit INTEGER column (PostgreSQL, MySQL).
MAX_JUDGE_ID = 2**31 - 1

metadata = MetaData()

campaigns_table = Table(
    "campaigns",
    metadata,
    Column("code", String(16), primary_key=True),
    Column("name", Text, nullable=False),
    Column("study_name", Text, nullable=False),
    Column(
        "settings", Text, nullable=False
    ),  # JSON: systems, segments, criteria, display, groups, seed...
    Column("n_items", Integer, nullable=False),
    Column("is_open", Boolean, nullable=False, default=True),
    Column("key_salt", String(64), nullable=False),
    Column("key_hash", String(64), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

items_table = Table(
    "items",
    metadata,
    Column("campaign_code", String(16), ForeignKey("campaigns.code"), primary_key=True),
    Column("position", Integer, primary_key=True),
    Column("segment_id", Text, nullable=False),
    Column("system", Text, nullable=False),
    Column("translation", Text, nullable=False),
    Column("source", Text),
    Column("reference", Text),
)

judges_table = Table(
    "judges",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("campaign_code", String(16), ForeignKey("campaigns.code"), nullable=False),
    Column("name", Text, nullable=False),
    Column("group_name", Text, nullable=False),
    Column("token_hash", String(64), nullable=False),
    Column("cursor", Integer, nullable=False, default=0),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("last_seen_at", DateTime(timezone=True), nullable=False),
    UniqueConstraint("campaign_code", "name", name="uq_judge_name"),
)

ratings_table = Table(
    "ratings",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("judge_id", Integer, ForeignKey("judges.id"), nullable=False),
    Column("campaign_code", String(16), nullable=False),
    Column("position", Integer, nullable=False),
    Column("criterion", Text, nullable=False),
    Column("score", Integer, nullable=False),
    Column("n_changes", Integer, nullable=False, default=0),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    UniqueConstraint("judge_id", "position", "criterion", name="uq_rating"),
    Index("ix_ratings_campaign", "campaign_code"),
)

skips_table = Table(
    "skips",
    metadata,
    Column("judge_id", Integer, ForeignKey("judges.id"), primary_key=True),
    Column("position", Integer, primary_key=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
)


def default_data_dir() -> Path:
    """The per-user data directory of bleu-study (not created here)."""
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


def _now() -> datetime:
    return datetime.now(UTC)


def _utc(value: datetime | None) -> datetime | None:
    """Every stored time is UTC: SQLite returns naive datetimes, PostgreSQL aware ones in the session's time zone.

    >>> from datetime import timedelta, timezone
    >>> _utc(datetime(2024, 5, 1, 17, 30, tzinfo=timezone(timedelta(hours=5, minutes=30)))).isoformat()
    '2024-05-01T12:00:00+00:00'
    >>> _utc(datetime(2024, 5, 1, 12, 0)).isoformat()
    '2024-05-01T12:00:00+00:00'
    """
    if value is None:
        return None
    return value.astimezone(UTC) if value.tzinfo is not None else value.replace(tzinfo=UTC)


def _sha256(*parts: str) -> str:
    return hashlib.sha256("\x1f".join(parts).encode("utf-8")).hexdigest()


def _normalise_code(code: object) -> str:
    if not isinstance(code, str) or not code.strip():
        raise CampaignError(
            "campaign code is empty; type the code the organiser gave you (e.g. K7P2QX)"
        )
    return code.strip().upper()


@dataclass(frozen=True)
class CampaignCreated:
    """The new campaign and its organiser key (shown once; only a hash is stored)."""

    campaign: Campaign
    organiser_key: str


def _make_engine(url: str) -> Engine:
    try:
        parsed = make_url(url)
    except ArgumentError as exc:
        raise CampaignError(
            f"database {url!r} is not a file path or SQLAlchemy URL; set {DB_ENV_VAR} to e.g. "
            "/path/to/ratings.sqlite or postgresql://user@host/db"
        ) from exc
    if parsed.get_backend_name() != "sqlite":
        return create_engine(parsed, pool_pre_ping=True)
    memory = parsed.database in (None, "", ":memory:")
    if not memory:
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


def _write_lock_for(url: str) -> threading.Lock:
    """One lock per SQLite database in this process, shared by every store opened on it."""
    with _WRITE_LOCKS_GUARD:
        return _WRITE_LOCKS.setdefault(url, threading.Lock())


class CampaignStore:
    """Campaigns, judges and ratings in one database. Thread-safe; one instance per process is enough.

    ``target`` is a file path, an SQLAlchemy URL, or ``None`` for :func:`resolve_database_url`'s default.
    Use :meth:`shared` to get one store per URL in a long-running app.
    """

    _shared: ClassVar[dict[str, CampaignStore]] = {}
    _shared_lock: ClassVar[threading.Lock] = threading.Lock()

    def __init__(self, target: str | os.PathLike[str] | None = None) -> None:
        self.url = resolve_database_url(target)
        self.engine = _make_engine(self.url)
        self.dialect = self.engine.dialect.name
        # SQLite serialises writers (lock + BEGIN IMMEDIATE); a server database needs row locks instead
        self._row_locks = self.engine.dialect.name != "sqlite"
        self._write_lock: AbstractContextManager[Any] = (
            _write_lock_for(self.url) if self.dialect == "sqlite" else nullcontext()
        )
        metadata.create_all(self.engine)
        self._settings_cache: dict[str, dict[str, Any]] = {}

    @classmethod
    def shared(cls, target: str | os.PathLike[str] | None = None) -> CampaignStore:
        """One store per database URL for the whole process (the app calls this on every rerun)."""
        url = resolve_database_url(target)
        with cls._shared_lock:
            store = cls._shared.get(url)
            if store is None:
                store = cls._shared[url] = cls(url)
            return store

    @property
    def display_url(self) -> str:
        """The URL with any password hidden, for showing to people."""
        return display_database_url(self.url)

    def close(self) -> None:
        self.engine.dispose()

    # -- transactions ---------------------------------------------------------------------------------------------
    @contextmanager
    def _read(self) -> Iterator[Connection]:
        with self.engine.connect() as conn, conn.begin():
            yield conn

    @contextmanager
    def _write(self) -> Iterator[Connection]:
        # SQLite has one writer at a time. Within this process, writers queue on a lock (prompt hand-over)
        # instead of polling in SQLite's busy handler, whose growing sleeps starve unlucky threads; other
        # processes are still kept out by BEGIN IMMEDIATE and the busy timeout.
        with self._write_lock, self.engine.connect() as conn:
            conn.execution_options(bleu_write=True)
            with conn.begin():
                yield conn

    def _lock_campaign(self, conn: Connection, code: str, *, delete: bool = False) -> None:
        """On a server database, lock campaign *code*'s row first thing in a write transaction (no-op on SQLite).

        Joining takes ``FOR KEY SHARE`` (joins do not block each other, nor closing/reopening). Deleting takes
        ``FOR UPDATE`` on the campaign and then on every judge of it (in id order), so it waits for the writes in
        flight and the writes that come later find no campaign / no judge. Judges' own writes lock only their
        judge row (:meth:`_judge_row`), so the lock order is always campaign, then judges: no deadlocks.
        """
        if not self._row_locks:
            return
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

    def _refuse_nul(self, plan: CampaignPlan) -> None:
        """PostgreSQL text cannot hold NUL (0x00): say which text has one, instead of a driver error."""
        if self.engine.dialect.name != "postgresql":
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

    # -- campaigns ------------------------------------------------------------------------------------------------
    def create_campaign(self, plan: CampaignPlan) -> CampaignCreated:
        """Store *plan* under a fresh campaign code; return the campaign and its organiser key."""
        self._refuse_nul(plan)
        key = secrets.token_urlsafe(18)
        salt = secrets.token_hex(16)
        now = _now()
        settings = {
            "systems": list(plan.systems),
            "segment_ids": list(plan.segment_ids),
            "criteria": [c.to_dict() for c in plan.criteria],
            "display": plan.display,
            "groups": list(plan.groups),
            "seed": plan.seed,
            "reference_stream": plan.reference_stream,
            "metadata": plan.metadata,
        }
        for _attempt in range(20):
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            try:
                with self._write() as conn:
                    conn.execute(
                        insert(campaigns_table).values(
                            code=code,
                            name=plan.name,
                            study_name=plan.study_name,
                            settings=json.dumps(settings, ensure_ascii=False),
                            n_items=len(plan.items),
                            is_open=True,
                            key_salt=salt,
                            key_hash=_sha256(salt, key),
                            created_at=now,
                        )
                    )
                    conn.execute(
                        insert(items_table),
                        [
                            {
                                "campaign_code": code,
                                "position": it.position,
                                "segment_id": it.segment_id,
                                "system": it.system,
                                "translation": it.translation,
                                "source": it.source,
                                "reference": it.reference,
                            }
                            for it in plan.items
                        ],
                    )
            except IntegrityError:  # code already taken: draw another
                continue
            return CampaignCreated(self.get_campaign(code), key)
        raise CampaignError("could not find a free campaign code; try again")  # pragma: no cover

    def _campaign_row(self, conn: Connection, code: str) -> Any:
        row = conn.execute(select(campaigns_table).where(campaigns_table.c.code == code)).first()
        if row is None:
            raise CampaignError(
                f"no campaign with code {code!r}; check the code the organiser gave you"
            )
        return row

    def _to_campaign(self, row: Any) -> Campaign:
        settings = self._settings_cache.get(row.code)
        if settings is None:
            settings = json.loads(row.settings)
            self._settings_cache[row.code] = settings
        return Campaign(
            code=row.code,
            name=row.name,
            study_name=row.study_name,
            systems=tuple(settings["systems"]),
            segment_ids=tuple(settings["segment_ids"]),
            criteria=tuple(RatingCriterion.from_dict(c) for c in settings["criteria"]),
            display=settings["display"],
            groups=tuple(settings["groups"]),
            seed=int(settings["seed"]),
            n_items=int(row.n_items),
            created_at=_utc(row.created_at),
            is_open=bool(row.is_open),
            reference_stream=settings.get("reference_stream"),
            metadata=dict(settings.get("metadata") or {}),
        )

    def get_campaign(self, code: str) -> Campaign:
        """The public description of campaign *code* (what judges need: criteria, groups, display, size)."""
        code = _normalise_code(code)
        with self._read() as conn:
            return self._to_campaign(self._campaign_row(conn, code))

    def _check_key(self, conn: Connection, code: str, key: object) -> Any:
        row = self._campaign_row(conn, code)
        given = key if isinstance(key, str) else ""
        if not hmac.compare_digest(_sha256(row.key_salt, given.strip()), row.key_hash):
            raise AccessDenied(
                "wrong organiser key for this campaign; use the key shown when the campaign was created"
            )
        return row

    def check_organiser(self, code: str, key: str) -> Campaign:
        """The campaign if *key* is its organiser key, else :class:`AccessDenied`."""
        code = _normalise_code(code)
        with self._read() as conn:
            return self._to_campaign(self._check_key(conn, code, key))

    def set_open(self, code: str, key: str, is_open: bool) -> Campaign:
        """Open or close the campaign to judges (organiser only). Closed campaigns refuse joins and ratings."""
        code = _normalise_code(code)
        with self._write() as conn:
            self._check_key(conn, code, key)
            conn.execute(
                update(campaigns_table)
                .where(campaigns_table.c.code == code)
                .values(is_open=bool(is_open))
            )
        return self.get_campaign(code)

    def delete_campaign(self, code: str, key: str) -> None:
        """Delete the campaign with all its items, judges and ratings (organiser only)."""
        code = _normalise_code(code)
        with self._write() as conn:
            self._lock_campaign(conn, code, delete=True)
            self._check_key(conn, code, key)
            judge_ids = select(judges_table.c.id).where(judges_table.c.campaign_code == code)
            conn.execute(delete(skips_table).where(skips_table.c.judge_id.in_(judge_ids)))
            conn.execute(delete(ratings_table).where(ratings_table.c.campaign_code == code))
            conn.execute(delete(judges_table).where(judges_table.c.campaign_code == code))
            conn.execute(delete(items_table).where(items_table.c.campaign_code == code))
            conn.execute(delete(campaigns_table).where(campaigns_table.c.code == code))
        self._settings_cache.pop(code, None)

    def items(self, code: str, key: str) -> list[Item]:
        """Every item with all its texts, in the fixed order (organiser only)."""
        code = _normalise_code(code)
        with self._read() as conn:
            self._check_key(conn, code, key)
            rows = conn.execute(
                select(items_table)
                .where(items_table.c.campaign_code == code)
                .order_by(items_table.c.position)
            ).all()
        return [self._to_item(r) for r in rows]

    @staticmethod
    def _to_item(row: Any) -> Item:
        return Item(
            row.position, row.segment_id, row.system, row.translation, row.source, row.reference
        )

    # -- judges ---------------------------------------------------------------------------------------------------
    def join(self, code: str, name: str, group: str) -> JudgeAccess:
        """Register judge *name* in *group*; return the judge and their secret token (their resume code).

        A name can join a campaign once; to come back later the judge uses :meth:`resume` with the token.
        """
        code = _normalise_code(code)
        name = check_name(name, "judge name")
        group = check_name(group, "group name")
        secret = secrets.token_urlsafe(12)
        now = _now()
        try:
            with self._write() as conn:
                self._lock_campaign(conn, code)
                row = self._campaign_row(conn, code)
                campaign = self._to_campaign(row)
                if not campaign.is_open:
                    raise CampaignError(
                        f"campaign {code} is closed; ask the organiser to reopen it"
                    )
                if group not in campaign.groups:
                    raise CampaignError(
                        f"group {group!r} is not one of this campaign's groups; choose one of "
                        + ", ".join(repr(g) for g in campaign.groups)
                    )
                result = conn.execute(
                    insert(judges_table).values(
                        campaign_code=code,
                        name=name,
                        group_name=group,
                        token_hash="",
                        cursor=0,
                        created_at=now,
                        last_seen_at=now,
                    )
                )
                judge_id = int(result.inserted_primary_key[0])
                conn.execute(
                    update(judges_table)
                    .where(judges_table.c.id == judge_id)
                    .values(token_hash=_sha256(str(judge_id), secret))
                )
        except IntegrityError as exc:
            raise CampaignError(
                f"the name {name!r} is already taken in campaign {code}; if it is you, resume with your "
                "resume code, otherwise choose another name"
            ) from exc
        judge = Judge(judge_id, code, name, group, _utc(now), 0)
        return JudgeAccess(judge, f"{judge_id}-{secret}")

    def _judge_row(self, conn: Connection, code: str, token: object, *, lock: bool = False) -> Any:
        """The judge owning *token* in campaign *code*, else :class:`AccessDenied`. With *lock* (in write
        transactions) the row stays locked until commit on a server database, so one judge's writes queue."""
        denied = AccessDenied(
            f"this resume code is not valid for campaign {code}; check it, or join with a new name"
        )
        if not isinstance(token, str) or "-" not in token:
            raise denied
        id_text, secret = token.strip().split("-", 1)
        if not (id_text.isascii() and id_text.isdigit()) or len(id_text) > 12:
            raise denied
        if int(id_text) > MAX_JUDGE_ID:  # would overflow an INTEGER parameter on PostgreSQL
            raise denied
        stmt = select(judges_table).where(
            judges_table.c.id == int(id_text), judges_table.c.campaign_code == code
        )
        if lock and self._row_locks:
            stmt = stmt.with_for_update(key_share=True)  # FOR NO KEY UPDATE on PostgreSQL
        row = conn.execute(stmt).first()
        if row is None or not hmac.compare_digest(_sha256(id_text, secret), row.token_hash):
            raise denied
        return row

    @staticmethod
    def _to_judge(row: Any) -> Judge:
        return Judge(
            row.id, row.campaign_code, row.name, row.group_name, _utc(row.created_at), row.cursor
        )

    def resume(self, code: str, token: str) -> Judge:
        """The judge owning *token* in campaign *code* (with the position where they stopped)."""
        code = _normalise_code(code)
        with self._read() as conn:
            return self._to_judge(self._judge_row(conn, code, token))

    def item(self, code: str, token: str, position: int) -> Item:
        """Item *position* as this judge may see it (source / reference hidden per the campaign's display)."""
        code = _normalise_code(code)
        with self._read() as conn:
            self._judge_row(conn, code, token)
            campaign = self._to_campaign(self._campaign_row(conn, code))
            self._check_position(campaign, position)
            row = conn.execute(
                select(items_table).where(
                    items_table.c.campaign_code == code, items_table.c.position == int(position)
                )
            ).one()
        return self._to_item(row).visible(campaign.display)

    @staticmethod
    def _check_position(campaign: Campaign, position: object) -> int:
        if (
            isinstance(position, bool)
            or not isinstance(position, int)
            or not 0 <= position < campaign.n_items
        ):
            raise CampaignError(
                f"item {position!r} does not exist in campaign {campaign.code}; "
                f"items are numbered 0 to {campaign.n_items - 1}"
            )
        return position

    def my_ratings(self, code: str, token: str) -> dict[int, dict[str, int]]:
        """This judge's own ratings: ``{position: {criterion: score}}``. Never anyone else's."""
        code = _normalise_code(code)
        with self._read() as conn:
            judge = self._judge_row(conn, code, token)
            rows = conn.execute(
                select(
                    ratings_table.c.position, ratings_table.c.criterion, ratings_table.c.score
                ).where(ratings_table.c.judge_id == judge.id)
            ).all()
        out: dict[int, dict[str, int]] = {}
        for pos, crit, score in rows:
            out.setdefault(pos, {})[crit] = score
        return out

    def my_skips(self, code: str, token: str) -> set[int]:
        """Positions this judge skipped and has not rated since."""
        code = _normalise_code(code)
        with self._read() as conn:
            judge = self._judge_row(conn, code, token)
            rows = conn.execute(
                select(skips_table.c.position).where(skips_table.c.judge_id == judge.id)
            ).all()
        return {r[0] for r in rows}

    def _open_campaign_for(self, conn: Connection, code: str, token: str) -> tuple[Any, Campaign]:
        """In a write transaction: lock the judge's row, check the token and that the campaign is open."""
        judge = self._judge_row(conn, code, token, lock=True)
        campaign = self._to_campaign(self._campaign_row(conn, code))
        if not campaign.is_open:
            raise CampaignError(f"campaign {code} is closed; ask the organiser to reopen it")
        return judge, campaign

    def rate(self, code: str, token: str, position: int, scores: Mapping[str, int]) -> int:
        """Save (or change) this judge's *scores* ``{criterion: score}`` for item *position*.

        Every criterion of the campaign must be given. Returns the next position (``n_items`` when the judge has
        reached the end), which is also stored as where the judge resumes.
        """
        code = _normalise_code(code)
        with self._write() as conn:
            judge, campaign = self._open_campaign_for(conn, code, token)
            self._check_position(campaign, position)
            clean = self._check_scores(campaign, scores)
            now = _now()
            for crit, score in clean.items():
                self._upsert_rating(conn, judge.id, code, position, crit, score, now)
            conn.execute(
                delete(skips_table).where(
                    skips_table.c.judge_id == judge.id, skips_table.c.position == position
                )
            )
            nxt = min(position + 1, campaign.n_items)
            conn.execute(
                update(judges_table)
                .where(judges_table.c.id == judge.id)
                .values(cursor=nxt, last_seen_at=now)
            )
        return nxt

    @staticmethod
    def _check_scores(campaign: Campaign, scores: Mapping[str, int]) -> dict[str, int]:
        if not isinstance(scores, Mapping):
            raise CampaignError("scores must map each criterion name to a score")
        unknown = [c for c in scores if c not in campaign.criterion_names]
        if unknown:
            raise CampaignError(
                f"unknown criterion {unknown[0]!r}; use "
                + ", ".join(repr(c) for c in campaign.criterion_names)
            )
        missing = [c for c in campaign.criterion_names if scores.get(c) is None]
        if missing:
            raise CampaignError(
                f"no score for {', '.join(repr(c) for c in missing)}; rate every criterion or skip the item"
            )
        return {
            c: campaign.criterion(c).validate_score(scores[c]) for c in campaign.criterion_names
        }

    def _upsert_rating(
        self,
        conn: Connection,
        judge_id: int,
        code: str,
        position: int,
        crit: str,
        score: int,
        now: datetime,
    ) -> None:
        values = {
            "judge_id": judge_id,
            "campaign_code": code,
            "position": position,
            "criterion": crit,
            "score": score,
            "n_changes": 0,
            "created_at": now,
            "updated_at": now,
        }
        r = ratings_table.c
        if self.dialect in ("sqlite", "postgresql"):
            if self.dialect == "sqlite":
                from sqlalchemy.dialects.sqlite import insert as dialect_insert
            else:
                from sqlalchemy.dialects.postgresql import insert as dialect_insert
            stmt = dialect_insert(ratings_table).values(**values)
            changed = r.score != stmt.excluded.score
            conn.execute(
                stmt.on_conflict_do_update(
                    index_elements=[r.judge_id, r.position, r.criterion],
                    set_={
                        "score": stmt.excluded.score,
                        "n_changes": case((changed, r.n_changes + 1), else_=r.n_changes),
                        "updated_at": case((changed, stmt.excluded.updated_at), else_=r.updated_at),
                    },
                )
            )
            return
        # other databases: update, else insert (the unique constraint still forbids duplicates)
        where = (r.judge_id == judge_id) & (r.position == position) & (r.criterion == crit)
        old = conn.execute(select(r.score).where(where)).first()
        if old is None:
            conn.execute(insert(ratings_table).values(**values))
        elif old[0] != score:
            conn.execute(
                update(ratings_table)
                .where(where)
                .values(score=score, n_changes=r.n_changes + 1, updated_at=now)
            )

    def skip(self, code: str, token: str, position: int) -> int:
        """Skip item *position* (recorded only if the judge has not rated it). Returns the next position."""
        code = _normalise_code(code)
        with self._write() as conn:
            judge, campaign = self._open_campaign_for(conn, code, token)
            self._check_position(campaign, position)
            now = _now()
            rated = conn.execute(
                select(func.count())
                .select_from(ratings_table)
                .where(ratings_table.c.judge_id == judge.id, ratings_table.c.position == position)
            ).scalar_one()
            already = conn.execute(
                select(skips_table.c.position).where(
                    skips_table.c.judge_id == judge.id, skips_table.c.position == position
                )
            ).first()
            if not rated and already is None:
                conn.execute(
                    insert(skips_table).values(judge_id=judge.id, position=position, created_at=now)
                )
            nxt = min(position + 1, campaign.n_items)
            conn.execute(
                update(judges_table)
                .where(judges_table.c.id == judge.id)
                .values(cursor=nxt, last_seen_at=now)
            )
        return nxt

    def move(self, code: str, token: str, position: int) -> int:
        """Go to *position* (0 .. n_items; n_items = "finished"), e.g. for *back*; stored for resuming."""
        code = _normalise_code(code)
        with self._write() as conn:
            judge = self._judge_row(conn, code, token, lock=True)
            campaign = self._to_campaign(self._campaign_row(conn, code))
            if (
                isinstance(position, bool)
                or not isinstance(position, int)
                or not 0 <= position <= campaign.n_items
            ):
                raise CampaignError(
                    f"position {position!r} does not exist; use 0 to {campaign.n_items}"
                )
            conn.execute(
                update(judges_table)
                .where(judges_table.c.id == judge.id)
                .values(cursor=position, last_seen_at=_now())
            )
        return position

    def next_unrated(self, code: str, token: str) -> int | None:
        """The first position this judge has not fully rated (skipped ones included), or ``None`` if all are."""
        campaign = self.get_campaign(code)
        mine = self.my_ratings(code, token)
        need = len(campaign.criteria)
        for pos in range(campaign.n_items):
            if len(mine.get(pos, {})) < need:
                return pos
        return None

    # -- organiser views ------------------------------------------------------------------------------------------
    def ratings(self, code: str, key: str) -> list[StoredRating]:
        """Every rating of the campaign with judge, group, segment and system (organiser only)."""
        code = _normalise_code(code)
        r, j, it = ratings_table.c, judges_table.c, items_table.c
        with self._read() as conn:
            self._check_key(conn, code, key)
            rows = conn.execute(
                select(
                    j.name,
                    j.group_name,
                    r.position,
                    it.segment_id,
                    it.system,
                    r.criterion,
                    r.score,
                    r.created_at,
                    r.updated_at,
                    r.n_changes,
                )
                .select_from(
                    ratings_table.join(judges_table, j.id == r.judge_id).join(
                        items_table,
                        (it.campaign_code == r.campaign_code) & (it.position == r.position),
                    )
                )
                .where(r.campaign_code == code)
            ).all()
        # sorted here, not by ORDER BY: code point order of names on every database, whatever its collation
        rows = sorted(rows, key=lambda row: (row[0], row[2], row[5]))
        return [
            StoredRating(
                code, row[0], row[1], row[2], row[3], row[4], row[5], row[6],
                _utc(row[7]), _utc(row[8]), row[9],
            )
            for row in rows
        ]  # fmt: skip

    def progress(self, code: str, key: str) -> list[JudgeProgress]:
        """How far each judge has got (organiser only), in joining order."""
        code = _normalise_code(code)
        r, j = ratings_table.c, judges_table.c
        with self._read() as conn:
            campaign = self._to_campaign(self._check_key(conn, code, key))
            judges = conn.execute(
                select(judges_table).where(j.campaign_code == code).order_by(j.id)
            ).all()
            per_item = conn.execute(
                select(r.judge_id, r.position, func.count(), func.max(r.updated_at))
                .where(r.campaign_code == code)
                .group_by(r.judge_id, r.position)
            ).all()
            skips = conn.execute(
                select(skips_table.c.judge_id, func.count())
                .where(skips_table.c.judge_id.in_(select(j.id).where(j.campaign_code == code)))
                .group_by(skips_table.c.judge_id)
            ).all()
        need = len(campaign.criteria)
        done: dict[int, int] = {}
        for judge_id, _pos, count, _last in per_item:
            if count >= need:
                done[judge_id] = done.get(judge_id, 0) + 1
        skipped = dict(skips)
        return [
            JudgeProgress(
                judge=row.name,
                group=row.group_name,
                n_rated=done.get(row.id, 0),
                n_skipped=int(skipped.get(row.id, 0)),
                n_items=campaign.n_items,
                cursor=row.cursor,
                last_activity=_utc(row.last_seen_at),
            )
            for row in judges
        ]
