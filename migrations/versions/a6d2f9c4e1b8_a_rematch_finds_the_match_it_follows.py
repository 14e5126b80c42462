"""a rematch finds the match it follows (its series, walked back) by an index on rematch_code

Revision ID: a6d2f9c4e1b8
Revises: f3c8a1d5b7e2
Create Date: 2026-12-02 22:20:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "a6d2f9c4e1b8"
down_revision = "f3c8a1d5b7e2"
branch_labels = None
depends_on = None


# In place, not in batch mode (see 3c9d2e7a41f0): an index needs no table copy.


def upgrade():
    # Partial: only matches that had a rematch (models.Match says why).
    op.create_index(
        "ix_match_rematch_code",
        "match",
        ["rematch_code"],
        unique=False,
        sqlite_where=sa.text("rematch_code IS NOT NULL"),
        postgresql_where=sa.text("rematch_code IS NOT NULL"),
    )


def downgrade():
    op.drop_index("ix_match_rematch_code", table_name="match")
