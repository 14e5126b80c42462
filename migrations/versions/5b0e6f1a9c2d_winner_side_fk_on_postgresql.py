"""match.winner_side_id references side on PostgreSQL too

Revision ID: 5b0e6f1a9c2d
Revises: c195516f5dd4
Create Date: 2026-11-30 20:30:00

"""

from alembic import op

# revision identifiers, used by Alembic.
revision = "5b0e6f1a9c2d"
down_revision = "c195516f5dd4"
branch_labels = None
depends_on = None


def upgrade():
    # c195516f5dd4 declared this key with use_alter=True inside create_table: SQLite wrote it
    # inline, PostgreSQL left it out waiting for an ALTER that never came.
    if op.get_bind().dialect.name != "sqlite":
        op.create_foreign_key(
            op.f("fk_match_winner_side_id_side"),
            "match",
            "side",
            ["winner_side_id"],
            ["id"],
            ondelete="SET NULL",
        )


def downgrade():
    if op.get_bind().dialect.name != "sqlite":
        op.drop_constraint(op.f("fk_match_winner_side_id_side"), "match", type_="foreignkey")
