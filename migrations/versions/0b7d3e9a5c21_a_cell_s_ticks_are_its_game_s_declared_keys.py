"""a cell's ticks are the keys its game declares, in one list, not a column each

Revision ID: 0b7d3e9a5c21
Revises: d7e1a3c5b9f2
Create Date: 2026-12-07 15:00:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0b7d3e9a5c21"
down_revision = "d7e1a3c5b9f2"
branch_labels = None
depends_on = None

# The tick columns as they stood, by the key each game now declares for them (games.Tick).
TICK_COLUMNS = ("even_split", "last_trick", "black_hand")

# In place, not in batch mode (see 3c9d2e7a41f0): SQLite adds and drops these columns itself.


def _tables():
    """The tables this revision reads and writes, as they stand on either side of it."""
    meta = sa.MetaData()
    entry = sa.Table(
        "entry",
        meta,
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("ticks", sa.JSON),
        *(sa.Column(name, sa.Boolean) for name in TICK_COLUMNS),
    )
    correction = sa.Table(
        "correction",
        meta,
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("old_detail", sa.JSON),
        sa.Column("new_detail", sa.JSON),
    )
    return entry, correction


def _detail_as_ticks(detail):
    """A trail's cell values with a key per tick, as one list of the ticked keys."""
    if detail is None:
        return None
    kept = {key: value for key, value in detail.items() if key not in TICK_COLUMNS}
    return {**kept, "ticks": [key for key in TICK_COLUMNS if detail.get(key)]}


def _detail_as_columns(detail):
    """The reverse: a trail's cell values with a yes or no for each of the old columns."""
    if detail is None:
        return None
    ticked = set(detail.get("ticks") or ())
    kept = {key: value for key, value in detail.items() if key != "ticks"}
    return {**kept, **{key: key in ticked for key in TICK_COLUMNS}}


def _rewrite_trail(connection, correction, rewrite):
    """Every correction's old and new cell values, rewritten in the other shape."""
    rows = connection.execute(
        sa.select(correction.c.id, correction.c.old_detail, correction.c.new_detail)
    ).all()
    for correction_id, old, new in rows:
        connection.execute(
            correction.update()
            .where(correction.c.id == correction_id)
            .values(old_detail=rewrite(old), new_detail=rewrite(new))
        )


def upgrade():
    op.add_column(
        "entry",
        sa.Column("ticks", sa.JSON(), nullable=False, server_default=sa.text("'[]'")),
    )
    connection = op.get_bind()
    entry, correction = _tables()
    ticked = connection.execute(
        sa.select(entry.c.id, *(entry.c[name] for name in TICK_COLUMNS)).where(
            sa.or_(*(entry.c[name] for name in TICK_COLUMNS))
        )
    ).all()
    for entry_id, *flags in ticked:
        keys = [name for name, flag in zip(TICK_COLUMNS, flags, strict=True) if flag]
        connection.execute(entry.update().where(entry.c.id == entry_id).values(ticks=keys))
    _rewrite_trail(connection, correction, _detail_as_ticks)
    for name in TICK_COLUMNS:
        op.drop_column("entry", name)


def downgrade():
    for name in TICK_COLUMNS:
        op.add_column(
            "entry", sa.Column(name, sa.Boolean(), nullable=False, server_default=sa.false())
        )
    connection = op.get_bind()
    entry, correction = _tables()
    rows = connection.execute(sa.select(entry.c.id, entry.c.ticks)).all()
    for entry_id, keys in rows:
        if keys:
            connection.execute(
                entry.update()
                .where(entry.c.id == entry_id)
                .values({name: name in keys for name in TICK_COLUMNS})
            )
    _rewrite_trail(connection, correction, _detail_as_columns)
    op.drop_column("entry", "ticks")
