"""a group that plays every week: its roster, the phones that joined it, the matches played in
it (by season, counted or taken out), which roster players held each side, its host's trail,
its players' ratings and standings as worked out

Revision ID: e1a4c7b2d9f6
Revises: 0b7d3e9a5c21
Create Date: 2026-12-07 14:51:24

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "e1a4c7b2d9f6"
down_revision = "0b7d3e9a5c21"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "group",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("code", sa.String(length=12), nullable=False),
        sa.Column("name", sa.String(length=40), server_default="", nullable=False),
        sa.Column("host_phone", sa.String(length=64), nullable=False),
        sa.Column("closed", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("rated", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("season", sa.Integer(), server_default="1", nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("version", sa.Integer(), server_default="1", nullable=False),
        sa.Column("made_by", sa.String(length=64), nullable=True),
        sa.CheckConstraint("season > 0", name=op.f("ck_group_season_positive")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_group")),
        sa.UniqueConstraint("code", name=op.f("uq_group_code")),
        sa.UniqueConstraint("made_by", name=op.f("uq_group_made_by")),
    )
    op.create_table(
        "group_match",
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("group_id", sa.Integer(), nullable=False),
        sa.Column("season", sa.Integer(), nullable=False),
        sa.Column("counted", sa.Boolean(), server_default=sa.true(), nullable=False),
        sa.ForeignKeyConstraint(
            ["group_id"],
            ["group.id"],
            name=op.f("fk_group_match_group_id_group"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["match_id"],
            ["match.id"],
            name=op.f("fk_group_match_match_id_match"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("match_id", name=op.f("pk_group_match")),
    )
    with op.batch_alter_table("group_match", schema=None) as batch_op:
        batch_op.create_index("ix_group_match_season", ["group_id", "season"], unique=False)

    op.create_table(
        "group_trail",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("group_id", sa.Integer(), nullable=False),
        sa.Column("what", sa.String(length=20), nullable=False),
        sa.Column("facts", sa.JSON(), nullable=False),
        sa.Column("by_phone", sa.String(length=64), nullable=False),
        sa.Column("made_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["group_id"],
            ["group.id"],
            name=op.f("fk_group_trail_group_id_group"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_group_trail")),
    )
    with op.batch_alter_table("group_trail", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_group_trail_group_id"), ["group_id"], unique=False)

    op.create_table(
        "roster_player",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("group_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("left", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.ForeignKeyConstraint(
            ["group_id"],
            ["group.id"],
            name=op.f("fk_roster_player_group_id_group"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_roster_player")),
        sa.UniqueConstraint("group_id", "name", name=op.f("uq_roster_player_group_id_name")),
    )
    op.create_table(
        "group_phone",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("group_id", sa.Integer(), nullable=False),
        sa.Column("phone", sa.String(length=64), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=True),
        sa.Column("joined_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["group_id"],
            ["group.id"],
            name=op.f("fk_group_phone_group_id_group"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["roster_player.id"],
            name=op.f("fk_group_phone_player_id_roster_player"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_group_phone")),
        sa.UniqueConstraint("group_id", "phone", name=op.f("uq_group_phone_group_id_phone")),
    )
    with op.batch_alter_table("group_phone", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_group_phone_phone"), ["phone"], unique=False)

    op.create_table(
        "rating",
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("group_id", sa.Integer(), nullable=False),
        sa.Column("season", sa.Integer(), nullable=False),
        sa.Column("ended_at", sa.DateTime(), nullable=False),
        sa.Column("mu", sa.Double(), nullable=False),
        sa.Column("sigma", sa.Double(), nullable=False),
        sa.ForeignKeyConstraint(
            ["group_id"], ["group.id"], name=op.f("fk_rating_group_id_group"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["match_id"], ["match.id"], name=op.f("fk_rating_match_id_match"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["roster_player.id"],
            name=op.f("fk_rating_player_id_roster_player"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("match_id", "player_id", name=op.f("pk_rating")),
    )
    with op.batch_alter_table("rating", schema=None) as batch_op:
        batch_op.create_index(
            "ix_rating_order", ["group_id", "season", "ended_at", "match_id"], unique=False
        )
        batch_op.create_index(
            "ix_rating_player",
            ["group_id", "season", "player_id", "ended_at", "match_id"],
            unique=False,
        )

    op.create_table(
        "side_player",
        sa.Column("side_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["match_id"],
            ["match.id"],
            name=op.f("fk_side_player_match_id_match"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["roster_player.id"],
            name=op.f("fk_side_player_player_id_roster_player"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["side_id"], ["side.id"], name=op.f("fk_side_player_side_id_side"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("side_id", "player_id", name=op.f("pk_side_player")),
    )
    with op.batch_alter_table("side_player", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_side_player_match_id"), ["match_id"], unique=False)
    op.create_table(
        "standing",
        sa.Column("group_id", sa.Integer(), nullable=False),
        sa.Column("season", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(length=20), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("played", sa.Integer(), nullable=False),
        sa.Column("won", sa.Integer(), nullable=False),
        sa.Column("hands", sa.Integer(), nullable=False),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.Column("against_hands", sa.Integer(), nullable=False),
        sa.Column("against_points", sa.Integer(), nullable=False),
        sa.Column("streak", sa.Integer(), nullable=False),
        sa.Column("best_streak", sa.Integer(), nullable=False),
        sa.Column("series", sa.Integer(), nullable=False),
        sa.Column("series_won", sa.Integer(), nullable=False),
        sa.Column("best_hand", sa.Integer(), nullable=True),
        sa.Column("best_hand_number", sa.Integer(), nullable=True),
        sa.Column("best_code", sa.String(length=12), nullable=True),
        sa.Column("best_sign", sa.Integer(), nullable=False),
        sa.Column("partners", sa.JSON(), nullable=False),
        sa.Column("met", sa.JSON(), nullable=False),
        sa.Column("rating", sa.Integer(), nullable=True),
        sa.Column("uncertainty", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["group_id"], ["group.id"], name=op.f("fk_standing_group_id_group"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["roster_player.id"],
            name=op.f("fk_standing_player_id_roster_player"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint(
            "group_id", "season", "game", "player_id", name=op.f("pk_standing")
        ),
    )


def downgrade():
    op.drop_table("standing")
    with op.batch_alter_table("side_player", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_side_player_match_id"))

    op.drop_table("side_player")
    with op.batch_alter_table("rating", schema=None) as batch_op:
        batch_op.drop_index("ix_rating_player")
        batch_op.drop_index("ix_rating_order")

    op.drop_table("rating")
    with op.batch_alter_table("group_phone", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_group_phone_phone"))

    op.drop_table("group_phone")
    op.drop_table("roster_player")
    with op.batch_alter_table("group_trail", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_group_trail_group_id"))

    op.drop_table("group_trail")
    with op.batch_alter_table("group_match", schema=None) as batch_op:
        batch_op.drop_index("ix_group_match_season")

    op.drop_table("group_match")
    op.drop_table("group")
