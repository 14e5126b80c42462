"""each side's result is stored as a match ends, and a phone's record is read from it

Revision ID: c8f2a6d4e9b1
Revises: 6c2f8e1a4d97
Create Date: 2026-12-03 18:30:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "c8f2a6d4e9b1"
down_revision = "6c2f8e1a4d97"
branch_labels = None
depends_on = None

# Matches ended before this are filled in as End match would have stored them, a batch at a
# time: the game's rules (scoresheet/record.py) work each sheet out once, here.
BATCH = 500


def upgrade():
    side_result = op.create_table(
        "side_result",
        sa.Column("side_id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("won", sa.Boolean(), nullable=False),
        sa.Column("hands", sa.Integer(), nullable=False),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.Column("best_hand", sa.Integer(), nullable=True),
        sa.Column("best_hand_number", sa.Integer(), nullable=True),
        sa.Column("lowest_wins", sa.Boolean(), nullable=False),
        sa.Column("feats", sa.JSON(), nullable=False),
        sa.Column("score", sa.JSON(), nullable=True),
        sa.Column("margin", sa.Integer(), nullable=True),
        sa.Column("comeback", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(["match_id"], ["match.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["side_id"], ["side.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("side_id"),
    )
    op.create_index("ix_side_result_match_id", "side_result", ["match_id"], unique=False)
    _fill(side_result)


def _fill(side_result: sa.Table) -> None:
    """Each ended match's sides' results, worked out from its hands as End match does."""
    # The app's rules, as they are when this runs; the rows read and written are this
    # revision's columns only, so a later change to the models leaves this migration working.
    from scorekeeper.models import Match, Side
    from scorekeeper.scoresheet.record import results_of
    from scorekeeper.scoresheet.sheet import work_out

    connection = op.get_bind()
    old = sa.MetaData()
    match = sa.Table("match", old, autoload_with=connection)
    side = sa.Table("side", old, autoload_with=connection)
    ended = connection.execute(
        sa.select(
            match.c.id,
            match.c.code,
            match.c.game,
            match.c.table_format,
            match.c.target,
            match.c.table_rules,
            match.c.status,
            match.c.winner_side_id,
        )
        .where(match.c.status == "ended", match.c.winner_side_id.is_not(None))
        .order_by(match.c.id)
    ).all()
    for start in range(0, len(ended), BATCH):
        rows = ended[start : start + BATCH]
        ids = [row.id for row in rows]
        sides: dict[int, list[Side]] = {}
        for row in connection.execute(
            sa.select(side.c.id, side.c.match_id, side.c.position, side.c.name, side.c.players)
            .where(side.c.match_id.in_(ids))
            .order_by(side.c.match_id, side.c.position)
        ):
            sides.setdefault(row.match_id, []).append(
                Side(id=row.id, position=row.position, name=row.name, players=row.players)
            )
        hands = _read_hands(ids, connection)
        stored = []
        for row in rows:
            # A match as the rules read it, never added to a session.
            ended_match = Match(
                id=row.id,
                code=row.code,
                game=row.game,
                table_format=row.table_format,
                target=row.target,
                table_rules=row.table_rules or {},
                status=row.status,
                sides=sides.get(row.id, []),
            )
            for result in results_of(work_out(ended_match, hands[row.id]), row.winner_side_id):
                stored.append({c.name: getattr(result, c.name) for c in side_result.columns})
        if stored:
            op.bulk_insert(side_result, stored)


def _read_hands(ids, connection):
    """The started hands of these matches with their entries, as the rules read them, from
    this revision's columns: a cell's ticks were then a column each (0b7d3e9a5c21 made them
    one list)."""
    from scorekeeper.games import EntryFacts
    from scorekeeper.scoresheet.stored import StoredEntry, StoredHand

    old = sa.MetaData()
    hand = sa.Table("hand", old, autoload_with=connection)
    entry = sa.Table("entry", old, autoload_with=connection)
    ticks = ("even_split", "last_trick", "black_hand")
    rows = connection.execute(
        sa.select(
            hand.c.match_id,
            hand.c.id,
            hand.c.number,
            entry.c.id.label("entry_id"),
            entry.c.side_id,
            entry.c.revision,
            entry.c.points,
            entry.c.counts,
            *(entry.c[tick] for tick in ticks),
        )
        .outerjoin(entry, entry.c.hand_id == hand.c.id)
        .where(hand.c.match_id.in_(ids))
        .order_by(hand.c.match_id, hand.c.number)
    ).all()

    def read_as(read_model, **values):
        # The app's read model as it is now (its fields are its model's columns of today),
        # from what this revision stored, by name: a column added since reads as None here,
        # and the rules read none of them.
        return read_model(*(values.get(name) for name in read_model._fields))

    read = {match_id: {} for match_id in ids}
    for row in rows:
        cells = read[row.match_id].setdefault((row.number, row.id, row.match_id), [])
        if row.entry_id is not None:
            ticked = frozenset(tick for tick in ticks if getattr(row, tick))
            facts = EntryFacts(row.points, row.counts, ticked)
            cells.append(
                read_as(
                    StoredEntry,
                    id=row.entry_id,
                    hand_id=row.id,
                    side_id=row.side_id,
                    revision=row.revision,
                    points=row.points,
                    counts=row.counts,
                    ticks=sorted(ticked),
                    facts=facts,
                )
            )
    return {
        match_id: tuple(
            read_as(StoredHand, id=hand_id, match_id=of, number=number, entries=tuple(cells))
            for (number, hand_id, of), cells in sorted(hands.items())
        )
        for match_id, hands in read.items()
    }


def downgrade():
    op.drop_index("ix_side_result_match_id", table_name="side_result")
    op.drop_table("side_result")
