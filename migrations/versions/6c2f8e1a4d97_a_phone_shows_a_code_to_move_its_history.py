"""a phone shows a one-time code that another browser opens to become the same player

Revision ID: 6c2f8e1a4d97
Revises: b4e1c7d2a9f3
Create Date: 2026-12-03 18:00:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "6c2f8e1a4d97"
down_revision = "b4e1c7d2a9f3"
branch_labels = None
depends_on = None


# A new table: the same statements on SQLite and PostgreSQL, no batch mode needed.


def upgrade():
    op.create_table(
        "history_code",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("digest", sa.String(length=64), nullable=False),
        sa.Column("phone", sa.String(length=64), nullable=False),
        sa.Column("made_at", sa.DateTime(), nullable=False),
        sa.Column("expires_at", sa.DateTime(), nullable=False),
        sa.Column("used_at", sa.DateTime(), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_history_code")),
        sa.UniqueConstraint("digest", name=op.f("uq_history_code_digest")),
    )
    op.create_index(op.f("ix_history_code_phone"), "history_code", ["phone"], unique=False)


def downgrade():
    op.drop_index(op.f("ix_history_code_phone"), table_name="history_code")
    op.drop_table("history_code")
