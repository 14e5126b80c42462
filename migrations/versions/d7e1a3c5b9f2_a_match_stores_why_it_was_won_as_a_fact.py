"""a match stores why it was won as a fact (the rule's code and its numbers), not an English
sentence: each page words it in its reader's language

Revision ID: d7e1a3c5b9f2
Revises: c8f2a6d4e9b1
Create Date: 2026-12-03 19:10:00

"""

import re

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "d7e1a3c5b9f2"
down_revision = "c8f2a6d4e9b1"
branch_labels = None
depends_on = None

# The English reasons End match stored after "<side> won. " until now, each read back as its
# rule and numbers. Written out here, not taken from the app, so this revision keeps reading
# the words it was written for.
_HOW_MANY = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8}
_REASONS = (
    (re.compile(r" won\. Early victory$"), lambda m: {"rule": "early_victory"}),
    (
        re.compile(r" won\. Reached (\d+) first$"),
        lambda m: {"rule": "reached_first", "target": int(m[1])},
    ),
    (
        re.compile(r" won\. High(?:er|est) of (\w+) over (\d+)$"),
        lambda m: {
            "rule": "highest_over",
            "target": int(m[2]),
            "sides": _HOW_MANY.get(m[1]) or int(m[1]),
        },
    ),
    (
        re.compile(r" won\. First to (\d+) rounds?$"),
        lambda m: {"rule": "first_to_rounds", "target": int(m[1])},
    ),
    (
        re.compile(r" won\. Lowest when a side reached (\d+)$"),
        lambda m: {"rule": "lowest_at_limit", "target": int(m[1])},
    ),
    (
        re.compile(r" won\. Highest after (\d+) hands?$"),
        lambda m: {"rule": "highest_after_hands", "hands": int(m[1])},
    ),
)


def reason_of(result: str) -> dict | None:
    """The stored English result's reason as a fact (None: it gave none, or none read)."""
    for pattern, fact in _REASONS:
        found = pattern.search(result)
        if found is not None:
            try:
                return fact(found)
            except ValueError:
                return None
    return None


def english(reason: dict | None) -> str:
    """A fact back in the English that End match stored before (for the downgrade)."""
    if not reason:
        return ""
    target, rule = reason.get("target", 0), reason.get("rule")
    if rule == "early_victory":
        return "Early victory"
    if rule == "reached_first":
        return f"Reached {target} first"
    if rule == "highest_over":
        sides = reason.get("sides", 2)
        words = {number: word for word, number in _HOW_MANY.items()}.get(sides, str(sides))
        return f"{'Higher' if sides == 2 else 'Highest'} of {words} over {target}"
    if rule == "first_to_rounds":
        return f"First to {target} round{'' if target == 1 else 's'}"
    if rule == "lowest_at_limit":
        return f"Lowest when a side reached {target}"
    hands = reason.get("hands", 0)
    return f"Highest after {hands} hand{'' if hands == 1 else 's'}"


# Columns are added and dropped in place, never in batch mode: on SQLite a batch copies the
# match table and drops the old one, and with foreign keys on that drop deletes every side, hand
# and seat of every match (ON DELETE CASCADE). SQLite drops a plain column itself since 3.35.


def upgrade():
    op.add_column("match", sa.Column("win_reason", sa.JSON(), nullable=True))
    connection = op.get_bind()
    match = sa.Table("match", sa.MetaData(), autoload_with=connection)
    ended = connection.execute(
        sa.select(match.c.id, match.c.result).where(match.c.status == "ended")
    ).all()
    for row in ended:
        reason = reason_of(row.result or "")
        if reason is not None:
            connection.execute(match.update().where(match.c.id == row.id).values(win_reason=reason))
    # "Abandoned." is the status; the winner's name is its side's: nothing else is lost.
    op.drop_column("match", "result")


def downgrade():
    op.add_column(
        "match", sa.Column("result", sa.String(length=200), nullable=False, server_default="")
    )
    connection = op.get_bind()
    old = sa.MetaData()
    match = sa.Table("match", old, autoload_with=connection)
    side = sa.Table("side", old, autoload_with=connection)
    connection.execute(
        match.update().where(match.c.status == "abandoned").values(result="Abandoned.")
    )
    ended = connection.execute(
        sa.select(match.c.id, match.c.win_reason, side.c.name)
        .join(side, side.c.id == match.c.winner_side_id)
        .where(match.c.status == "ended")
    ).all()
    for row in ended:
        result = f"{row.name} won. {english(row.win_reason)}".strip()
        connection.execute(match.update().where(match.c.id == row.id).values(result=result))
    op.drop_column("match", "win_reason")
