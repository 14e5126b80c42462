"""the host can close the table: no new phone may take a side (watching stays open)

Revision ID: 3c9d2e7a41f0
Revises: 8e41c7d2a5b3
Create Date: 2026-12-01 19:30:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "3c9d2e7a41f0"
down_revision = "8e41c7d2a5b3"
branch_labels = None
depends_on = None


# Not in batch mode: on SQLite that copies "match" into a new table and drops the old one, and
# with foreign keys on, dropping it would delete every side, seat, hand and entry with it.
# SQLite adds and drops a column in place (ALTER TABLE … ADD / DROP COLUMN).


def upgrade():
    # Every match played so far stays open to new phones.
    op.add_column(
        "match", sa.Column("closed", sa.Boolean(), nullable=False, server_default=sa.false())
    )


def downgrade():
    op.drop_column("match", "closed")
