"""seats carry their match's place in history: open or not, created when; indexed in that order

Revision ID: 5d0a3ff06fb1
Revises: 5b0e6f1a9c2d
Create Date: 2026-11-30 23:59:57

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "5d0a3ff06fb1"
down_revision = "5b0e6f1a9c2d"
branch_labels = None
depends_on = None

# The tables as this revision sees them, whatever the models say later.
match = sa.table(
    "match",
    sa.column("id", sa.Integer()),
    sa.column("status", sa.String()),
    sa.column("created_at", sa.DateTime()),
)
seat = sa.table(
    "seat",
    sa.column("match_id", sa.Integer()),
    sa.column("match_open", sa.Boolean()),
    sa.column("match_created_at", sa.DateTime()),
)


def upgrade():
    # Placeholders only, so the existing seats are valid while the columns are added (SQLite
    # cannot add a NOT NULL column without a constant default); the copy below replaces them.
    with op.batch_alter_table("seat", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("match_open", sa.Boolean(), nullable=False, server_default=sa.true())
        )
        batch_op.add_column(
            sa.Column(
                "match_created_at",
                sa.DateTime(),
                nullable=False,
                server_default=sa.text("'1970-01-01 00:00:00'"),
            )
        )

    # A correlated subquery: the same UPDATE runs on SQLite and PostgreSQL.
    of_the_match = match.c.id == seat.c.match_id
    op.execute(
        seat.update().values(
            match_open=sa.select(match.c.status == "open").where(of_the_match).scalar_subquery(),
            match_created_at=sa.select(match.c.created_at).where(of_the_match).scalar_subquery(),
        )
    )

    # No defaults from here on, as in the models: a seat made without them must fail loudly
    # rather than sit in the wrong place in history.
    with op.batch_alter_table("seat", schema=None) as batch_op:
        batch_op.alter_column("match_open", server_default=None)
        batch_op.alter_column("match_created_at", server_default=None)
        batch_op.create_index(
            "ix_seat_history",
            ["phone", "match_open", "match_created_at", "match_id"],
            unique=False,
        )


def downgrade():
    with op.batch_alter_table("seat", schema=None) as batch_op:
        batch_op.drop_index("ix_seat_history")
        batch_op.drop_column("match_created_at")
        batch_op.drop_column("match_open")
