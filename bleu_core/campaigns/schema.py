"""The campaign database's tables, and how their rows become :mod:`bleu_core.campaigns.model` objects.

Six tables (SQLAlchemy Core, portable to SQLite and PostgreSQL), made and changed by the migrations of
:mod:`bleu_core.campaigns.migrations` (:mod:`bleu_core.campaigns.migrate` runs them):

``campaigns``
    One row per campaign: its code, names, protocol (``adequacy-fluency``, ``esa`` or ``da``), the organiser
    key's salt and hash, and a JSON ``settings`` column with what does not need querying (systems, segments,
    criteria, display, groups, seed, quality control, metadata).
``items``
    The translations to rate, in their fixed order (``position``); ``kind`` is ``test``, ``tutorial`` (with its
    expected answer in the JSON ``qc``) or ``attention`` (a translation damaged on purpose, how in ``qc``).
``judges``
    Who joined, in which group, the hash of their token, where they stopped (``cursor``), and whether the
    organiser keeps them in the analyses although they failed the quality control (``qc_keep``).
``ratings``
    One row per (judge, item, criterion) under a unique constraint, so a rating can be changed but never
    duplicated; ``n_changes`` counts how often it was changed.
``skips``
    Items a judge skipped and has not rated since.
``spans``
    The error spans a judge marked in a translation (ESA): character offsets ``start_char``..``end_char``
    (end exclusive) and severity ``minor`` / ``major``, or ``missing`` (an omission, no offsets).

Every time is stored in UTC (:func:`stored_time` reads it back as such on every database).

>>> sorted(metadata.tables)
['campaigns', 'items', 'judges', 'ratings', 'skips', 'spans']
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any, overload

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
    false,
)

from bleu_core.campaigns.model import Campaign, Item, Judge, RatingCriterion
from bleu_core.campaigns.planning import CampaignPlan

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
    Column("protocol", String(24), nullable=False, server_default="adequacy-fluency"),
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
    Column("kind", String(16), nullable=False, server_default="test"),
    Column("qc", Text),  # JSON: a tutorial's expected answer, or how an attention check was damaged
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
    Column("qc_keep", Boolean, nullable=False, server_default=false()),
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

spans_table = Table(
    "spans",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("judge_id", Integer, ForeignKey("judges.id"), nullable=False),
    Column("campaign_code", String(16), nullable=False),
    Column("position", Integer, nullable=False),
    Column("start_char", Integer),
    Column("end_char", Integer),
    Column("severity", String(8), nullable=False),
    Column("missing", Boolean, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Index("ix_spans_judge_item", "judge_id", "position"),
    Index("ix_spans_campaign", "campaign_code"),
)


def now() -> datetime:
    """The current time, in UTC, as stored."""
    return datetime.now(UTC)


@overload
def stored_time(value: datetime) -> datetime: ...
@overload
def stored_time(value: None) -> None: ...
def stored_time(value: datetime | None) -> datetime | None:
    """Every stored time is UTC: SQLite returns naive datetimes, PostgreSQL aware ones in the session's time zone.

    >>> from datetime import timedelta, timezone
    >>> stored_time(datetime(2024, 5, 1, 17, 30, tzinfo=timezone(timedelta(hours=5, minutes=30)))).isoformat()
    '2024-05-01T12:00:00+00:00'
    >>> stored_time(datetime(2024, 5, 1, 12, 0)).isoformat()
    '2024-05-01T12:00:00+00:00'
    """
    if value is None:
        return None
    return value.astimezone(UTC) if value.tzinfo is not None else value.replace(tzinfo=UTC)


def campaign_settings(plan: CampaignPlan) -> dict[str, Any]:
    """What the ``settings`` JSON column of ``campaigns`` holds for *plan*."""
    return {
        "systems": list(plan.systems),
        "segment_ids": list(plan.segment_ids),
        "criteria": [c.to_dict() for c in plan.criteria],
        "display": plan.display,
        "groups": list(plan.groups),
        "seed": plan.seed,
        "reference_stream": plan.reference_stream,
        "metadata": plan.metadata,
        "quality_control": plan.quality_control,
    }


def campaign_from_row(row: Any, settings: dict[str, Any]) -> Campaign:
    """The :class:`Campaign` of a ``campaigns`` row whose ``settings`` JSON is already parsed."""
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
        created_at=stored_time(row.created_at),
        is_open=bool(row.is_open),
        reference_stream=settings.get("reference_stream"),
        metadata=dict(settings.get("metadata") or {}),
        protocol=row.protocol,
        quality_control=dict(settings.get("quality_control") or {}),
    )


def item_from_row(row: Any) -> Item:
    """The :class:`Item` of an ``items`` row (all its texts; hide some with :meth:`Item.visible`)."""
    return Item(
        row.position,
        row.segment_id,
        row.system,
        row.translation,
        row.source,
        row.reference,
        row.kind,
        json.loads(row.qc) if row.qc else None,
    )


def judge_from_row(row: Any) -> Judge:
    """The :class:`Judge` of a ``judges`` row."""
    return Judge(
        row.id,
        row.campaign_code,
        row.name,
        row.group_name,
        stored_time(row.created_at),
        row.cursor,
    )
