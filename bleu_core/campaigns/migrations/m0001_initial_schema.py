"""The campaign tables as the store created them before migrations (bleu-study 0.1.0).

Revision ID: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "campaigns",
        sa.Column("code", sa.String(16), primary_key=True),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("study_name", sa.Text, nullable=False),
        sa.Column("settings", sa.Text, nullable=False),
        sa.Column("n_items", sa.Integer, nullable=False),
        sa.Column("is_open", sa.Boolean, nullable=False),
        sa.Column("key_salt", sa.String(64), nullable=False),
        sa.Column("key_hash", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "items",
        sa.Column(
            "campaign_code", sa.String(16), sa.ForeignKey("campaigns.code"), primary_key=True
        ),
        sa.Column("position", sa.Integer, primary_key=True),
        sa.Column("segment_id", sa.Text, nullable=False),
        sa.Column("system", sa.Text, nullable=False),
        sa.Column("translation", sa.Text, nullable=False),
        sa.Column("source", sa.Text),
        sa.Column("reference", sa.Text),
    )
    op.create_table(
        "judges",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("campaign_code", sa.String(16), sa.ForeignKey("campaigns.code"), nullable=False),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("group_name", sa.Text, nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("cursor", sa.Integer, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("campaign_code", "name", name="uq_judge_name"),
    )
    op.create_table(
        "ratings",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("judge_id", sa.Integer, sa.ForeignKey("judges.id"), nullable=False),
        sa.Column("campaign_code", sa.String(16), nullable=False),
        sa.Column("position", sa.Integer, nullable=False),
        sa.Column("criterion", sa.Text, nullable=False),
        sa.Column("score", sa.Integer, nullable=False),
        sa.Column("n_changes", sa.Integer, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("judge_id", "position", "criterion", name="uq_rating"),
    )
    op.create_index("ix_ratings_campaign", "ratings", ["campaign_code"])
    op.create_table(
        "skips",
        sa.Column("judge_id", sa.Integer, sa.ForeignKey("judges.id"), primary_key=True),
        sa.Column("position", sa.Integer, primary_key=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    for table in ("skips", "ratings", "judges", "items", "campaigns"):
        op.drop_table(table)
