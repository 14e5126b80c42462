"""Setting a table: a new match with its sides, and the host's seat."""

from __future__ import annotations

from dataclasses import dataclass

import sqlalchemy as sa
import sqlalchemy.orm as so
from flask import Flask, current_app
from sqlalchemy.exc import IntegrityError

from scorekeeper.extensions import db
from scorekeeper.games import Game
from scorekeeper.models import MATCH_CHANGING_COLUMNS, Match, Seat, Side, new_code
from scorekeeper.sheet.actions import history_order
from scorekeeper.versions import RecentlyUsed


class SetupError(ValueError):
    """A create form that cannot make a match, tied to the field to show it on."""

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(reason)
        self.field = field
        self.reason = reason


@dataclass(frozen=True)
class NewMatch:
    """What the host chose on the create form."""

    table_format: str
    target: int
    rules: dict[str, str]
    # (side name, players) as typed; blank names get "Side N".
    names: list[tuple[str, str]]
    # Column the host's phone plays on, or None for a host who only keeps the sheet.
    host_side: int | None


def sides_for(game: Game, choice: NewMatch) -> list[tuple[str, str]]:
    """The sides this table seats, named: a fixed count, or (Other game) every name typed."""
    if not game.targets:
        named = [(n.strip(), p.strip()) for n, p in choice.names if n.strip()]
        low = getattr(game, "min_sides", 2)
        high = getattr(game, "max_sides", 8)
        if not low <= len(named) <= high:
            raise SetupError("side_0", f"Name {low} to {high} sides: one name per side.")
        return named
    table_format = next(f for f in game.formats if f.key == choice.table_format)
    return [
        (name.strip() or f"Side {i + 1}", players.strip())
        for i, (name, players) in enumerate(choice.names[: table_format.sides])
    ]


def create_match(game: Game, choice: NewMatch, host_phone: str) -> Match:
    """Store a new match with its sides and seat the host's phone; a fresh code each time."""
    sides = sides_for(game, choice)
    if choice.host_side is not None and choice.host_side >= len(sides):
        raise SetupError("host_side", f"This table has {len(sides)} sides.")
    rules = {
        rule.key: choice.rules.get(rule.key, rule.default)
        for rule in game.table_rules
        if rule.applies_to(choice.table_format)
    }
    for _attempt in range(10):
        match = Match(
            code=new_code(),
            game=game.key,
            table_format=choice.table_format,
            target=choice.target,
            table_rules=rules,
            host_phone=host_phone,
        )
        match.sides = [
            Side(position=i, name=name, players=players) for i, (name, players) in enumerate(sides)
        ]
        db.session.add(match)
        try:
            db.session.flush()
        except IntegrityError:
            # A code already in use: draw another.
            db.session.rollback()
            continue
        host_side = match.sides[choice.host_side].id if choice.host_side is not None else None
        db.session.add(
            Seat(match_id=match.id, phone=host_phone, side_id=host_side, **history_order(match))
        )
        db.session.commit()
        return match
    raise RuntimeError("no free match code after 10 draws")


# Built once, as every post to a match runs it: building a statement costs more than running it.
MATCH_BY_CODE = (
    sa.select(Match).where(Match.code == sa.bindparam("code")).options(so.joinedload(Match.sides))
)


def find_match(code: str) -> Match | None:
    """The match with this code, as stored (callers normalise what was typed), with its sides:
    nearly every caller goes on to them."""
    return db.session.scalars(MATCH_BY_CODE, {"code": code}).unique().first()


# Matches a worker keeps a copy of; the least recently used go first.
MAX_KEPT_MATCHES = 1000


class KeptMatches(RecentlyUsed[str, Match]):
    """Each recently used match as this worker first found it, for one app: its settings and
    sides, which never change after setup, without what actions change.

    A request takes a copy into its session (Session.merge without loading) instead of reading
    the match and its sides again. What an action can change is left unloaded in the copy, so
    it is read afresh when first asked for: by the write lock, which returns it with the new
    version (sheet/actions.py), or by a page, in one statement for the match's own row.
    """

    def __init__(self, capacity: int = MAX_KEPT_MATCHES) -> None:
        super().__init__(capacity)

    def copy_of(self, code: str) -> Match | None:
        """The match with this code (as stored), in this request's session; None if none."""
        kept = self.recall(code)
        if kept is None:
            kept = find_match(code)
            if kept is None:
                return None
            db.session.expire(kept, [c.key for c in MATCH_CHANGING_COLUMNS])
            # Out of this session: kept detached, and never changed, as other requests copy it.
            db.session.expunge(kept)
            self.remember(code, kept)
        return db.session.merge(kept, load=False)


def init_app(app: Flask) -> None:
    """Give the app its kept matches."""
    app.extensions["kept_matches"] = KeptMatches()


def kept_matches() -> KeptMatches:
    """The current app's kept matches."""
    kept: KeptMatches = current_app.extensions["kept_matches"]
    return kept
