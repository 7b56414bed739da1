"""Keep campaigns, judges and ratings in a real database (SQLAlchemy Core; SQLite by default).

This is the public face of the campaign database: :class:`CampaignStore`. Behind it, each job has its module:
:mod:`~bleu_core.campaigns.schema` (the tables, rows → objects), :mod:`~bleu_core.campaigns.connection` (where
the database lives, SQLite and PostgreSQL locking policy), :mod:`~bleu_core.campaigns.access` (codes, keys,
tokens, hashing) and :mod:`~bleu_core.campaigns.queries` (the SQL). Their public names used by tests and tools
are re-exported here.

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
    fixed PRAGMA / BEGIN statements of :func:`~bleu_core.campaigns.connection.make_engine`.

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

import json
import os
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass
from typing import Any, ClassVar

from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from bleu_core.campaigns import queries, span_queries
from bleu_core.campaigns.access import (
    CODE_ALPHABET,
    CODE_LENGTH,
    MAX_JUDGE_ID,
    check_judge_secret,
    check_organiser_key,
    check_viewer_token,
    judge_token,
    judge_token_hash,
    new_campaign_code,
    new_judge_secret,
    new_organiser_key,
    normalise_code,
    parse_judge_token,
    viewer_token,
)
from bleu_core.campaigns.connection import (
    BUSY_TIMEOUT_S,
    DB_ENV_VAR,
    DB_FILENAME,
    default_data_dir,
    display_database_url,
    lock_campaign,
    make_engine,
    refuse_nul,
    resolve_database_url,
    write_lock_for,
)
from bleu_core.campaigns.migrate import migrate
from bleu_core.campaigns.model import (
    AlreadySaved,
    Campaign,
    CampaignError,
    Item,
    Judge,
    JudgeAccess,
    JudgeProgress,
    StoredRating,
    check_name,
)
from bleu_core.campaigns.planning import CampaignPlan
from bleu_core.campaigns.protocols import (
    SPAN_PROTOCOLS,
    MarkedSpan,
    check_protocol,
    check_spans,
)
from bleu_core.campaigns.schema import (
    campaign_from_row,
    campaigns_table,
    item_from_row,
    items_table,
    judge_from_row,
    judges_table,
    metadata,
    now,
    ratings_table,
    skips_table,
    stored_time,
)
from bleu_core.campaigns.span_store import SpanQualityMixin

__all__ = [  # CampaignStore and CampaignCreated live here; the rest is re-exported for tests and tools
    "BUSY_TIMEOUT_S",
    "CODE_ALPHABET",
    "CODE_LENGTH",
    "DB_ENV_VAR",
    "DB_FILENAME",
    "MAX_JUDGE_ID",
    "CampaignCreated",
    "CampaignStore",
    "campaigns_table",
    "default_data_dir",
    "display_database_url",
    "items_table",
    "judges_table",
    "metadata",
    "ratings_table",
    "resolve_database_url",
    "skips_table",
]


@dataclass(frozen=True)
class CampaignCreated:
    """The new campaign and its organiser key (shown once; only a hash is stored)."""

    campaign: Campaign
    organiser_key: str


class CampaignStore(SpanQualityMixin):
    """Campaigns, judges and ratings in one database. Thread-safe; one instance per process is enough.

    ``target`` is a file path, an SQLAlchemy URL, or ``None`` for :func:`resolve_database_url`'s default.
    Use :meth:`shared` to get one store per URL in a long-running app.
    """

    _shared: ClassVar[dict[str, CampaignStore]] = {}
    _resolved: ClassVar[dict[tuple[str | None, ...], str]] = {}
    _shared_lock: ClassVar[threading.Lock] = threading.Lock()

    def __init__(self, target: str | os.PathLike[str] | None = None) -> None:
        self.url = resolve_database_url(target)
        self.engine = make_engine(self.url)
        self.dialect = self.engine.dialect.name
        # SQLite serialises writers (lock + BEGIN IMMEDIATE); a server database needs row locks instead
        self._row_locks = self.engine.dialect.name != "sqlite"
        self._write_lock: AbstractContextManager[Any] = (
            write_lock_for(self.url) if self.dialect == "sqlite" else nullcontext()
        )
        migrate(self.engine)  # creates the tables, or brings an older database up to date
        self._settings_cache: dict[str, dict[str, Any]] = {}

    @classmethod
    def shared(cls, target: str | os.PathLike[str] | None = None) -> CampaignStore:
        """One store per database URL for the whole process (the app calls this on every rerun). What
        *target* resolves to is remembered with everything the resolution reads (``BLEU_STUDY_DB``, the
        working directory, the home and data directories): resolving a file path walks the file system."""
        env = tuple(
            os.environ.get(v) for v in (DB_ENV_VAR, "HOME", "XDG_DATA_HOME", "LOCALAPPDATA")
        )
        asked = (os.fspath(target) if target is not None else None, os.getcwd(), *env)
        url = cls._resolved.get(asked)
        if url is None:
            url = cls._resolved[asked] = resolve_database_url(target)
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
        """Row-lock campaign *code* on a server database (see :func:`connection.lock_campaign`)."""
        if self._row_locks:
            lock_campaign(conn, code, delete=delete)

    # -- campaigns ------------------------------------------------------------------------------------------------
    def create_campaign(self, plan: CampaignPlan) -> CampaignCreated:
        """Store *plan* under a fresh campaign code; return the campaign and its organiser key."""
        refuse_nul(self.dialect, plan)
        check_protocol(plan.protocol)
        key, salt, key_hash = new_organiser_key()
        created_at = now()
        for _attempt in range(20):
            code = new_campaign_code()
            try:
                with self._write() as conn:
                    queries.insert_campaign(conn, code, plan, salt, key_hash, created_at)
            except IntegrityError:  # code already taken: draw another
                continue
            return CampaignCreated(self.get_campaign(code), key)
        raise CampaignError("could not find a free campaign code; try again")  # pragma: no cover

    def _to_campaign(self, row: Any) -> Campaign:
        settings = self._settings_cache.get(row.code)
        if settings is None:
            settings = json.loads(row.settings)
            self._settings_cache[row.code] = settings
        return campaign_from_row(row, settings)

    def get_campaign(self, code: str) -> Campaign:
        """The public description of campaign *code* (what judges need: criteria, groups, display, size)."""
        code = normalise_code(code)
        with self._read() as conn:
            return self._to_campaign(queries.campaign_row(conn, code))

    def _check_key(self, conn: Connection, code: str, key: object) -> Any:
        row = queries.campaign_row(conn, code)
        check_organiser_key(row, key)
        return row

    def check_organiser(self, code: str, key: str) -> Campaign:
        """The campaign if *key* is its organiser key, else :class:`AccessDenied`."""
        code = normalise_code(code)
        with self._read() as conn:
            return self._to_campaign(self._check_key(conn, code, key))

    def viewer_token(self, code: str, key: str) -> str:
        """The view-only token of the campaign (organiser only): a projector link carrying it shows the class's
        numbers (:meth:`class_view`) and grants nothing else."""
        code = normalise_code(code)
        with self._read() as conn:
            return viewer_token(self._check_key(conn, code, key))

    def class_view(
        self, code: str, view: str
    ) -> tuple[Campaign, list[StoredRating], list[JudgeProgress]]:
        """The campaign, its ratings and its judges' progress for a view-only *view* token (the projector)."""
        code = normalise_code(code)
        with self._read() as conn:
            row = queries.campaign_row(conn, code)
            check_viewer_token(row, view)
            campaign = self._to_campaign(row)
            ratings = queries.campaign_ratings(conn, code)
            progress = queries.campaign_progress(
                conn, code, campaign.n_items, len(campaign.criteria)
            )
            return campaign, ratings, progress

    def set_open(self, code: str, key: str, is_open: bool) -> Campaign:
        """Open or close the campaign to judges (organiser only). Closed campaigns refuse joins and ratings."""
        code = normalise_code(code)
        with self._write() as conn:
            self._check_key(conn, code, key)
            queries.set_campaign_open(conn, code, is_open)
        return self.get_campaign(code)

    def delete_campaign(self, code: str, key: str) -> None:
        """Delete the campaign with all its items, judges and ratings (organiser only)."""
        code = normalise_code(code)
        with self._write() as conn:
            self._lock_campaign(conn, code, delete=True)
            self._check_key(conn, code, key)
            queries.delete_campaign_rows(conn, code)
        self._settings_cache.pop(code, None)

    def items(self, code: str, key: str) -> list[Item]:
        """Every item with all its texts, in the fixed order (organiser only)."""
        code = normalise_code(code)
        with self._read() as conn:
            self._check_key(conn, code, key)
            rows = queries.item_rows(conn, code)
        return [item_from_row(r) for r in rows]

    # -- judges ---------------------------------------------------------------------------------------------------
    def join(self, code: str, name: str, group: str) -> JudgeAccess:
        """Register judge *name* in *group*; return the judge and their secret token (their resume code).

        A name can join a campaign once; to come back later the judge uses :meth:`resume` with the token.
        """
        code = normalise_code(code)
        name = check_name(name, "judge name")
        group = check_name(group, "group name")
        secret = new_judge_secret()
        joined_at = now()
        try:
            with self._write() as conn:
                self._lock_campaign(conn, code)
                campaign = self._to_campaign(queries.campaign_row(conn, code))
                if not campaign.is_open:
                    raise CampaignError(
                        f"campaign {code} is closed; ask the organiser to reopen it"
                    )
                if group not in campaign.groups:
                    raise CampaignError(
                        f"group {group!r} is not one of this campaign's groups; choose one of "
                        + ", ".join(repr(g) for g in campaign.groups)
                    )
                judge_id = queries.insert_judge(conn, code, name, group, joined_at)
                queries.set_token_hash(conn, judge_id, judge_token_hash(judge_id, secret))
        except IntegrityError as exc:
            raise CampaignError(
                f"the name {name!r} is already taken in campaign {code}; if it is you, resume with your "
                "resume code, otherwise choose another name"
            ) from exc
        judge = Judge(judge_id, code, name, group, stored_time(joined_at), 0)
        return JudgeAccess(judge, judge_token(judge_id, secret))

    def _judge_row(self, conn: Connection, code: str, token: object, *, lock: bool = False) -> Any:
        """The judge owning *token* in campaign *code*, else :class:`AccessDenied`. With *lock* (in write
        transactions) the row stays locked until commit on a server database, so one judge's writes queue."""
        judge_id, secret = parse_judge_token(code, token)
        row = queries.judge_row(conn, code, judge_id, lock=lock and self._row_locks)
        return check_judge_secret(code, row, judge_id, secret)

    def resume(self, code: str, token: str) -> Judge:
        """The judge owning *token* in campaign *code* (with the position where they stopped)."""
        code = normalise_code(code)
        with self._read() as conn:
            return judge_from_row(self._judge_row(conn, code, token))

    def item(self, code: str, token: str, position: int) -> Item:
        """Item *position* as this judge may see it (source / reference hidden per the campaign's display)."""
        code = normalise_code(code)
        with self._read() as conn:
            self._judge_row(conn, code, token)
            campaign = self._to_campaign(queries.campaign_row(conn, code))
            self._check_position(campaign, position)
            row = queries.item_row(conn, code, position)
        return item_from_row(row).visible(campaign.display)

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
        code = normalise_code(code)
        with self._read() as conn:
            judge = self._judge_row(conn, code, token)
            return queries.judge_ratings(conn, judge.id)

    def my_skips(self, code: str, token: str) -> set[int]:
        """Positions this judge skipped and has not rated since."""
        code = normalise_code(code)
        with self._read() as conn:
            judge = self._judge_row(conn, code, token)
            return queries.judge_skips(conn, judge.id)

    def _open_campaign_for(self, conn: Connection, code: str, token: str) -> tuple[Any, Campaign]:
        """In a write transaction: lock the judge's row, check the token and that the campaign is open."""
        judge = self._judge_row(conn, code, token, lock=True)
        campaign = self._to_campaign(queries.campaign_row(conn, code))
        if not campaign.is_open:
            raise CampaignError(f"campaign {code} is closed; ask the organiser to reopen it")
        return judge, campaign

    def rate(
        self,
        code: str,
        token: str,
        position: int,
        scores: Mapping[str, int],
        spans: Sequence[MarkedSpan] | None = None,
        *,
        at_cursor: bool = False,
    ) -> int:
        """Save (or change) this judge's *scores* ``{criterion: score}`` for item *position*.

        Every criterion of the campaign must be given. In an ESA campaign *spans* are the errors marked in the
        translation (they replace the ones stored; ``None`` keeps them; ``[]``: no error); other protocols take
        none. Returns the next position (``n_items`` when the judge has reached the end), which is also stored
        as where the judge resumes.

        With *at_cursor* (the Rate page) the save must be for the item the judge is on (their stored position,
        checked in the same transaction): a second submit of an item already saved and moved past raises
        :class:`AlreadySaved` and changes nothing; a submit for any other item is refused.
        """
        code = normalise_code(code)
        with self._write() as conn:
            judge, campaign = self._open_campaign_for(conn, code, token)
            self._check_position(campaign, position)
            if at_cursor:
                self._check_cursor(conn, judge, position)
            clean = self._check_scores(campaign, scores)
            rated_at = now()
            if spans is not None:
                if campaign.protocol not in SPAN_PROTOCOLS and spans:
                    raise CampaignError(
                        f"campaign {code} uses protocol {campaign.protocol!r}, which has no error "
                        "spans; send the scores only"
                    )
                text = queries.item_row(conn, code, position).translation
                checked = check_spans(spans, text)
                span_queries.replace_spans(conn, judge.id, code, position, checked, rated_at)
            for crit, score in clean.items():
                queries.upsert_rating(
                    conn, self.dialect, judge.id, code, position, crit, score, rated_at
                )
            queries.forget_skip(conn, judge.id, position)
            nxt = min(position + 1, campaign.n_items)
            queries.set_cursor(conn, judge.id, nxt, rated_at)
        return nxt

    @staticmethod
    def _check_cursor(conn: Connection, judge: Any, position: int) -> None:
        """Refuse a save of item *position* when the judge is on another item (see :meth:`rate`)."""
        if judge.cursor == position:
            return
        if queries.judge_ratings(conn, judge.id).get(position):
            raise AlreadySaved(
                f"item {position + 1} is already saved; this second save changed nothing"
            )
        raise CampaignError(
            f"item {position + 1} is not the item you are on (item {judge.cursor + 1}); nothing was saved"
        )

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

    def skip(self, code: str, token: str, position: int) -> int:
        """Skip item *position* (recorded only if the judge has not rated it). Returns the next position."""
        code = normalise_code(code)
        with self._write() as conn:
            judge, campaign = self._open_campaign_for(conn, code, token)
            self._check_position(campaign, position)
            skipped_at = now()
            queries.record_skip(conn, judge.id, position, skipped_at)
            nxt = min(position + 1, campaign.n_items)
            queries.set_cursor(conn, judge.id, nxt, skipped_at)
        return nxt

    def move(self, code: str, token: str, position: int) -> int:
        """Go to *position* (0 .. n_items; n_items = "finished"), e.g. for *back*; stored for resuming."""
        code = normalise_code(code)
        with self._write() as conn:
            judge = self._judge_row(conn, code, token, lock=True)
            campaign = self._to_campaign(queries.campaign_row(conn, code))
            if (
                isinstance(position, bool)
                or not isinstance(position, int)
                or not 0 <= position <= campaign.n_items
            ):
                raise CampaignError(
                    f"position {position!r} does not exist; use 0 to {campaign.n_items}"
                )
            queries.set_cursor(conn, judge.id, position, now())
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
        code = normalise_code(code)
        with self._read() as conn:
            self._check_key(conn, code, key)
            return queries.campaign_ratings(conn, code)

    def progress(self, code: str, key: str) -> list[JudgeProgress]:
        """How far each judge has got (organiser only), in joining order."""
        code = normalise_code(code)
        with self._read() as conn:
            campaign = self._to_campaign(self._check_key(conn, code, key))
            return queries.campaign_progress(conn, code, campaign.n_items, len(campaign.criteria))
