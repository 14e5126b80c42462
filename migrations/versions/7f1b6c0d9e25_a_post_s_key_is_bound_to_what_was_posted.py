"""a post's key is bound to what was posted: the same key with other values is refused

Revision ID: 7f1b6c0d9e25
Revises: 3c9d2e7a41f0
Create Date: 2026-12-01 19:45:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "7f1b6c0d9e25"
down_revision = "3c9d2e7a41f0"
branch_labels = None
depends_on = None


# In place, not in batch mode (see 3c9d2e7a41f0): keys recorded before have none, and a post
# resent with one of them is taken as the same post.


def upgrade():
    op.add_column("submission", sa.Column("posted", sa.String(64), nullable=True))


def downgrade():
    op.drop_column("submission", "posted")
