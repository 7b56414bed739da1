"""The SQL of error spans and of the quality-control flags (the companion of :mod:`.queries`).

A judge's spans of one item are replaced as a whole when they submit it again, in the same transaction as
the item's scores, so scores and spans never disagree in the database.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import delete, insert, select, update
from sqlalchemy.engine import Connection

from bleu_core.campaigns.protocols import MarkedSpan, StoredSpan
from bleu_core.campaigns.schema import items_table, judges_table, spans_table


def replace_spans(
    conn: Connection,
    judge_id: int,
    code: str,
    position: int,
    spans: Sequence[MarkedSpan],
    now: datetime,
) -> None:
    """Make *spans* the judge's spans of item *position* (an empty list: no error marked)."""
    s = spans_table.c
    conn.execute(delete(spans_table).where(s.judge_id == judge_id, s.position == position))
    if spans:
        conn.execute(
            insert(spans_table),
            [
                {
                    "judge_id": judge_id,
                    "campaign_code": code,
                    "position": position,
                    "start_char": span.start,
                    "end_char": span.end,
                    "severity": span.severity,
                    "missing": span.missing,
                    "created_at": now,
                }
                for span in spans
            ],
        )


def _span(row: Any) -> MarkedSpan:
    return MarkedSpan(row.start_char, row.end_char, row.severity, bool(row.missing))


def judge_spans(conn: Connection, judge_id: int) -> dict[int, tuple[MarkedSpan, ...]]:
    """One judge's spans: ``{position: spans}`` in the order they were stored."""
    rows = conn.execute(
        select(spans_table).where(spans_table.c.judge_id == judge_id).order_by(spans_table.c.id)
    ).all()
    out: dict[int, list[MarkedSpan]] = {}
    for row in rows:
        out.setdefault(row.position, []).append(_span(row))
    return {pos: tuple(spans) for pos, spans in out.items()}


def campaign_spans(conn: Connection, code: str) -> list[StoredSpan]:
    """Every span of campaign *code* with judge, group, segment, system and item kind."""
    s, j, it = spans_table.c, judges_table.c, items_table.c
    rows = conn.execute(
        select(spans_table, j.name, j.group_name, it.segment_id, it.system, it.kind)
        .select_from(
            spans_table.join(judges_table, j.id == s.judge_id).join(
                items_table, (it.campaign_code == s.campaign_code) & (it.position == s.position)
            )
        )
        .where(s.campaign_code == code)
    ).all()
    rows = sorted(rows, key=lambda row: (row.name, row.position, row.id))
    return [
        StoredSpan(code, r.name, r.group_name, r.position, r.segment_id, r.system, _span(r), r.kind)
        for r in rows
    ]


def judges_with_flags(conn: Connection, code: str) -> list[Any]:
    """``(id, name, group_name, qc_keep)`` of every judge of campaign *code*, in joining order."""
    j = judges_table.c
    return list(
        conn.execute(
            select(j.id, j.name, j.group_name, j.qc_keep)
            .where(j.campaign_code == code)
            .order_by(j.id)
        ).all()
    )


def set_keep(conn: Connection, code: str, name: str, keep: bool) -> int:
    """Set judge *name*'s ``qc_keep`` flag; the number of judges changed (0: no such judge)."""
    j = judges_table.c
    result = conn.execute(
        update(judges_table)
        .where(j.campaign_code == code, j.name == name)
        .values(qc_keep=bool(keep))
    )
    return int(result.rowcount or 0)
