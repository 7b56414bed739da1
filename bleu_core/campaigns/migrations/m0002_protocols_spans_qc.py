"""A protocol per campaign, error spans, quality-control items and the organiser's keep flag.

Revision ID: 0002

Every existing campaign gets protocol ``adequacy-fluency`` (what it collects), every existing item kind
``test`` and every judge ``qc_keep`` false; no row is changed otherwise.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # plain ADD COLUMN (with a constant default) on every database: SQLite does it in place, without the
    # copy-and-rename of Alembic's batch mode, which foreign keys pointing at the table would refuse
    op.add_column(
        "campaigns",
        sa.Column("protocol", sa.String(24), nullable=False, server_default="adequacy-fluency"),
    )
    op.add_column("items", sa.Column("kind", sa.String(16), nullable=False, server_default="test"))
    op.add_column("items", sa.Column("qc", sa.Text))
    op.add_column(
        "judges", sa.Column("qc_keep", sa.Boolean, nullable=False, server_default=sa.false())
    )
    op.create_table(
        "spans",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("judge_id", sa.Integer, sa.ForeignKey("judges.id"), nullable=False),
        sa.Column("campaign_code", sa.String(16), nullable=False),
        sa.Column("position", sa.Integer, nullable=False),
        sa.Column("start_char", sa.Integer),
        sa.Column("end_char", sa.Integer),
        sa.Column("severity", sa.String(8), nullable=False),
        sa.Column("missing", sa.Boolean, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_spans_judge_item", "spans", ["judge_id", "position"])
    op.create_index("ix_spans_campaign", "spans", ["campaign_code"])


def downgrade() -> None:
    op.drop_index("ix_spans_campaign", "spans")
    op.drop_index("ix_spans_judge_item", "spans")
    op.drop_table("spans")
    for table, column in (
        ("judges", "qc_keep"),
        ("items", "qc"),
        ("items", "kind"),
        ("campaigns", "protocol"),
    ):
        op.drop_column(table, column)
