"""a seat carries its player's name: two partners' phones are told apart

Revision ID: 9a7c3e5b1d40
Revises: 7f1b6c0d9e25
Create Date: 2026-12-01 21:10:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "9a7c3e5b1d40"
down_revision = "7f1b6c0d9e25"
branch_labels = None
depends_on = None


# In place, not in batch mode (see 3c9d2e7a41f0). Seats taken before have no name: the sheet
# shows their side's name, as it did.


def upgrade():
    op.add_column("seat", sa.Column("player", sa.String(40), nullable=False, server_default=""))


def downgrade():
    op.drop_column("seat", "player")
