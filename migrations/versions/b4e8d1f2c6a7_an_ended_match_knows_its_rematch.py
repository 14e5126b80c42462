"""an ended match knows its rematch's code: its phones are offered their sides there

Revision ID: b4e8d1f2c6a7
Revises: 9a7c3e5b1d40
Create Date: 2026-12-01 21:40:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "b4e8d1f2c6a7"
down_revision = "9a7c3e5b1d40"
branch_labels = None
depends_on = None


# In place, not in batch mode (see 3c9d2e7a41f0).


def upgrade():
    op.add_column("match", sa.Column("rematch_code", sa.String(12), nullable=True))


def downgrade():
    op.drop_column("match", "rematch_code")
