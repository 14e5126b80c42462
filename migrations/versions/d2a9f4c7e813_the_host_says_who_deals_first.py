"""the host says who deals first: the sheet shows who deals each next hand

Revision ID: d2a9f4c7e813
Revises: b4e8d1f2c6a7
Create Date: 2026-12-01 21:55:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "d2a9f4c7e813"
down_revision = "b4e8d1f2c6a7"
branch_labels = None
depends_on = None


# In place, not in batch mode (see 3c9d2e7a41f0).


def upgrade():
    op.add_column("match", sa.Column("first_dealer", sa.Integer(), nullable=True))


def downgrade():
    op.drop_column("match", "first_dealer")
