"""a match carries the host's note (where, what was at stake); rematches are found by code

Revision ID: f3c8a1d5b7e2
Revises: e7b3c5a9d021
Create Date: 2026-12-02 20:15:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "f3c8a1d5b7e2"
down_revision = "e7b3c5a9d021"
branch_labels = None
depends_on = None


# In place, not in batch mode (see 3c9d2e7a41f0).


def upgrade():
    op.add_column(
        "match", sa.Column("note", sa.String(length=200), server_default="", nullable=False)
    )


def downgrade():
    op.drop_column("match", "note")
