"""Setting a table: a new match with its sides, and the host's seat."""

from __future__ import annotations

from dataclasses import dataclass

import sqlalchemy as sa

from scorekeeper.extensions import db
from scorekeeper.games import Game
from scorekeeper.models import Match, Side, new_code, seat_at
from scorekeeper.phones.rules import PhoneAction
from scorekeeper.scoresheet.writing import Clash, Done, Post, act_as_phone
from scorekeeper.words import setup as words


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
    # (side name, players) as typed; blank names get "Side N" (in the host's language).
    names: list[tuple[str, str]]
    # Column the host's phone plays on, or None for a host who only keeps the sheet.
    host_side: int | None
    # The host's own name, as they typed it ("" if not given).
    host_player: str = ""


def sides_for(game: Game, choice: NewMatch) -> list[tuple[str, str]]:
    """The sides this table seats, named: a fixed count, or (Other game) every name typed."""
    if game.sides_named_freely:
        named = [(n.strip(), p.strip()) for n, p in choice.names if n.strip()]
        low, high = game.min_sides, game.max_sides
        if not low <= len(named) <= high:
            raise SetupError("side_0", words.name_the_sides(low, high))
        return named
    table_format = game.format(choice.table_format)
    return [
        (side_name(name, i), players.strip())
        for i, (name, players) in enumerate(choice.names[: table_format.sides])
    ]


def side_name(typed: str, place: int) -> str:
    """A side's name as the host typed it; one left unnamed is called as the form's placeholder
    calls it, in the host's language: stored, it is the side's name from then on, the same on
    every phone."""
    return typed.strip() or words.unnamed_side(place + 1)


def add_match(
    game: Game, choice: NewMatch, host_phone: str, seated_phone: str | None = None
) -> Match:
    """A new match with its sides and a first seat (the host's, or `seated_phone`'s: a
    rematch asked for by another phone) on choice.host_side, added to the session and flushed
    (the caller commits): a code no match has, drawn again while taken."""
    if not game.accepts_target(choice.target):
        # The form offers only the game's targets: a post made by hand, or an older page.
        raise SetupError("target", words.choose_the_target())
    sides = sides_for(game, choice)
    if choice.host_side is not None and choice.host_side >= len(sides):
        raise SetupError("host_side", words.sides_at_the_table(len(sides)))
    rules = {
        rule.key: choice.rules.get(rule.key, rule.default)
        for rule in game.table_rules
        if rule.applies_to(choice.table_format)
    }
    match = Match(
        code=free_code(),
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
    db.session.flush()
    host_side = match.sides[choice.host_side].id if choice.host_side is not None else None
    db.session.add(seat_at(match, seated_phone or host_phone, host_side, choice.host_player))
    return match


def free_code() -> str:
    """A join code no match has yet. (Two phones drawing the same one at the same moment is
    left to the unique index: one of them draws again, create_match.)"""
    for _attempt in range(10):
        code = new_code()
        if db.session.scalar(sa.select(Match.id).where(Match.code == code)) is None:
            return code
    raise RuntimeError("no free match code after 10 draws")


def create_match(game: Game, choice: NewMatch, post: Post) -> Done:
    """Store a new match with its sides and seat the host's phone (the one that posted); on to
    its sheet. A create resent (the same key, the same values) makes nothing and goes on to
    the match the first one made."""

    def work() -> Done:
        match = add_match(game, choice, post.phone or "")
        # Nothing to say: the new match's sheet, with its code and QR code, says it all.
        return Done("", go_to=match.code)

    for _attempt in range(3):
        try:
            return act_as_phone(post, PhoneAction.START, work)
        except Clash:
            # Another match took the code drawn at the same moment: draw again.
            continue
    raise RuntimeError("the match could not be stored after 3 tries")
