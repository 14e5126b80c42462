"""seats lose two indexes that others already serve: by match (the unique match_id, phone) and
by phone (ix_seat_history, which leads with it)

Revision ID: 8e41c7d2a5b3
Revises: 5d0a3ff06fb1
Create Date: 2026-12-01 08:30:00

"""

from alembic import op

# revision identifiers, used by Alembic.
revision = "8e41c7d2a5b3"
down_revision = "5d0a3ff06fb1"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("seat", schema=None) as batch_op:
        batch_op.drop_index("ix_seat_phone")
        batch_op.drop_index("ix_seat_match_id")


def downgrade():
    with op.batch_alter_table("seat", schema=None) as batch_op:
        batch_op.create_index("ix_seat_match_id", ["match_id"], unique=False)
        batch_op.create_index("ix_seat_phone", ["phone"], unique=False)
