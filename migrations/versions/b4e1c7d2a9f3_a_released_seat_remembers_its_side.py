"""a seat the host released remembers the side it held, to take it back on a closed table

Revision ID: b4e1c7d2a9f3
Revises: a6d2f9c4e1b8
Create Date: 2026-12-03 11:05:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "b4e1c7d2a9f3"
down_revision = "a6d2f9c4e1b8"
branch_labels = None
depends_on = None


# In place, not in batch mode (see 3c9d2e7a41f0). A side's place, not a key to it: a match's
# sides keep their places, and a plain column adds and drops in place on SQLite.


def upgrade():
    op.add_column("seat", sa.Column("released_from", sa.Integer(), nullable=True))


def downgrade():
    op.drop_column("seat", "released_from")
