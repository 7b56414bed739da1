"""The SQL of the campaign store: each function one query (or one small group) on an open connection.

Access checks and transactions are the caller's job (:class:`~bleu_core.campaigns.storage.CampaignStore`
checks the organiser key or judge token first, in a read or write transaction); these functions only read and
write rows, always with bound parameters. Ratings are written by an upsert on the unique (judge, item,
criterion) key, so re-submitting or changing a rating never duplicates it.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from sqlalchemy import case, delete, func, insert, select, update
from sqlalchemy.engine import Connection

from bleu_core.campaigns.model import CampaignError, JudgeProgress, StoredRating
from bleu_core.campaigns.planning import CampaignPlan
from bleu_core.campaigns.schema import (
    campaign_settings,
    campaigns_table,
    items_table,
    judges_table,
    ratings_table,
    skips_table,
    spans_table,
    stored_time,
)

# -- campaigns and items ----------------------------------------------------------------------------------------


def insert_campaign(
    conn: Connection, code: str, plan: CampaignPlan, key_salt: str, key_hash: str, now: datetime
) -> None:
    """Store *plan* with its items under *code* (an IntegrityError if the code is taken)."""
    conn.execute(
        insert(campaigns_table).values(
            code=code,
            name=plan.name,
            study_name=plan.study_name,
            settings=json.dumps(campaign_settings(plan), ensure_ascii=False),
            n_items=len(plan.items),
            is_open=True,
            protocol=plan.protocol,
            key_salt=key_salt,
            key_hash=key_hash,
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
                "kind": it.kind,
                "qc": json.dumps(it.qc, ensure_ascii=False) if it.qc is not None else None,
            }
            for it in plan.items
        ],
    )


def campaign_row(conn: Connection, code: str) -> Any:
    """The ``campaigns`` row of *code*, else :class:`CampaignError`."""
    row = conn.execute(select(campaigns_table).where(campaigns_table.c.code == code)).first()
    if row is None:
        raise CampaignError(
            f"no campaign with code {code!r}; check the code the organiser gave you"
        )
    return row


def set_campaign_open(conn: Connection, code: str, is_open: bool) -> None:
    conn.execute(
        update(campaigns_table).where(campaigns_table.c.code == code).values(is_open=bool(is_open))
    )


def delete_campaign_rows(conn: Connection, code: str) -> None:
    """Delete campaign *code* with its items, judges, ratings and skips (children first)."""
    judge_ids = select(judges_table.c.id).where(judges_table.c.campaign_code == code)
    conn.execute(delete(skips_table).where(skips_table.c.judge_id.in_(judge_ids)))
    conn.execute(delete(spans_table).where(spans_table.c.campaign_code == code))
    conn.execute(delete(ratings_table).where(ratings_table.c.campaign_code == code))
    conn.execute(delete(judges_table).where(judges_table.c.campaign_code == code))
    conn.execute(delete(items_table).where(items_table.c.campaign_code == code))
    conn.execute(delete(campaigns_table).where(campaigns_table.c.code == code))


def item_rows(conn: Connection, code: str) -> list[Any]:
    """Every ``items`` row of campaign *code*, in position order."""
    return list(
        conn.execute(
            select(items_table)
            .where(items_table.c.campaign_code == code)
            .order_by(items_table.c.position)
        ).all()
    )


def item_row(conn: Connection, code: str, position: int) -> Any:
    """The ``items`` row at *position* (which the caller has checked exists)."""
    return conn.execute(
        select(items_table).where(
            items_table.c.campaign_code == code, items_table.c.position == int(position)
        )
    ).one()


# -- judges -----------------------------------------------------------------------------------------------------


def insert_judge(conn: Connection, code: str, name: str, group: str, now: datetime) -> int:
    """A new ``judges`` row (token hash still empty: it needs the id); returns the judge id."""
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
    return int(result.inserted_primary_key[0])  # type: ignore[index]  # None only for a non-insert


def set_token_hash(conn: Connection, judge_id: int, token_hash: str) -> None:
    conn.execute(
        update(judges_table).where(judges_table.c.id == judge_id).values(token_hash=token_hash)
    )


def judge_row(conn: Connection, code: str, judge_id: int, *, lock: bool = False) -> Any | None:
    """The ``judges`` row of *judge_id* in campaign *code*, or ``None``.

    With *lock* (in write transactions on a server database) the row stays locked until commit
    (``FOR NO KEY UPDATE`` on PostgreSQL), so one judge's writes from several tabs queue.
    """
    stmt = select(judges_table).where(
        judges_table.c.id == judge_id, judges_table.c.campaign_code == code
    )
    if lock:
        stmt = stmt.with_for_update(key_share=True)
    return conn.execute(stmt).first()


def set_cursor(conn: Connection, judge_id: int, position: int, now: datetime) -> None:
    """Remember where the judge is (for resuming) and when they were last seen."""
    conn.execute(
        update(judges_table)
        .where(judges_table.c.id == judge_id)
        .values(cursor=position, last_seen_at=now)
    )


def judge_ratings(conn: Connection, judge_id: int) -> dict[int, dict[str, int]]:
    """One judge's ratings: ``{position: {criterion: score}}``."""
    rows = conn.execute(
        select(ratings_table.c.position, ratings_table.c.criterion, ratings_table.c.score).where(
            ratings_table.c.judge_id == judge_id
        )
    ).all()
    out: dict[int, dict[str, int]] = {}
    for pos, crit, score in rows:
        out.setdefault(pos, {})[crit] = score
    return out


def judge_skips(conn: Connection, judge_id: int) -> set[int]:
    """Positions one judge skipped and has not rated since."""
    rows = conn.execute(
        select(skips_table.c.position).where(skips_table.c.judge_id == judge_id)
    ).all()
    return {r[0] for r in rows}


# -- ratings and skips ------------------------------------------------------------------------------------------


def upsert_rating(
    conn: Connection,
    dialect: str,
    judge_id: int,
    code: str,
    position: int,
    crit: str,
    score: int,
    now: datetime,
) -> None:
    """Insert the rating, or change its score (counting the change) if the judge already rated it."""
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
    if dialect in ("sqlite", "postgresql"):
        from sqlalchemy.dialects import postgresql, sqlite

        dialect_insert = sqlite.insert if dialect == "sqlite" else postgresql.insert
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


def forget_skip(conn: Connection, judge_id: int, position: int) -> None:
    conn.execute(
        delete(skips_table).where(
            skips_table.c.judge_id == judge_id, skips_table.c.position == position
        )
    )


def record_skip(conn: Connection, judge_id: int, position: int, now: datetime) -> None:
    """Record that the judge skipped *position*, unless they rated it or skipped it before."""
    rated = conn.execute(
        select(func.count())
        .select_from(ratings_table)
        .where(ratings_table.c.judge_id == judge_id, ratings_table.c.position == position)
    ).scalar_one()
    already = conn.execute(
        select(skips_table.c.position).where(
            skips_table.c.judge_id == judge_id, skips_table.c.position == position
        )
    ).first()
    if not rated and already is None:
        conn.execute(
            insert(skips_table).values(judge_id=judge_id, position=position, created_at=now)
        )


# -- organiser views --------------------------------------------------------------------------------------------


def campaign_ratings(conn: Connection, code: str) -> list[StoredRating]:
    """Every rating of campaign *code* with judge, group, segment and system, by judge name, item, criterion."""
    r, j, it = ratings_table.c, judges_table.c, items_table.c
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
            it.kind,
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
            stored_time(row[7]), stored_time(row[8]), row[9], row[10],
        )
        for row in rows
    ]  # fmt: skip


def campaign_progress(
    conn: Connection, code: str, n_items: int, n_criteria: int
) -> list[JudgeProgress]:
    """How far each judge of campaign *code* has got, in joining order (an item counts once fully rated)."""
    r, j = ratings_table.c, judges_table.c
    judges = conn.execute(select(judges_table).where(j.campaign_code == code).order_by(j.id)).all()
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
    done: dict[int, int] = {}
    for judge_id, _pos, count, _last in per_item:
        if count >= n_criteria:
            done[judge_id] = done.get(judge_id, 0) + 1
    skipped: dict[int, int] = dict(skips)
    return [
        JudgeProgress(
            judge=row.name,
            group=row.group_name,
            n_rated=done.get(row.id, 0),
            n_skipped=int(skipped.get(row.id, 0)),
            n_items=n_items,
            cursor=row.cursor,
            last_activity=stored_time(row.last_seen_at),
        )
        for row in judges
    ]
