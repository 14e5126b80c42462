"""a phone takes a match off its history: its seat stays, unlisted

Revision ID: e7b3c5a9d021
Revises: d2a9f4c7e813
Create Date: 2026-12-01 22:10:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "e7b3c5a9d021"
down_revision = "d2a9f4c7e813"
branch_labels = None
depends_on = None


# In place, not in batch mode (see 3c9d2e7a41f0). Every seat so far is listed.


def upgrade():
    op.add_column(
        "seat", sa.Column("listed", sa.Boolean(), nullable=False, server_default=sa.true())
    )


def downgrade():
    op.drop_column("seat", "listed")
