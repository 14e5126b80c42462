"""The score sheet as stored: a match, its sides, the phones seated at it, hands and entries."""

from __future__ import annotations

import dataclasses
import secrets
from collections import namedtuple
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from functools import cached_property
from operator import itemgetter
from typing import TYPE_CHECKING, Any, ClassVar

import sqlalchemy as sa
import sqlalchemy.orm as so

from scorekeeper.extensions import Model
from scorekeeper.words import groups, names

# Letters and digits nobody misreads at a table: no 0/O, 1/I/L.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
# The most a match's note holds: a line or two, read on a phone.
NOTE_LENGTH = 200


def new_code() -> str:
    """A fresh join code, read aloud or typed from across the table."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalise_code(typed: str) -> str:
    """A code as typed (any case, spaces or dashes) in the form it is stored."""
    return "".join(ch for ch in typed.upper() if ch.isalnum())


def utcnow() -> datetime:
    """Now, in UTC, for every timestamp we store."""
    return datetime.now(UTC).replace(tzinfo=None)


def columns_of(model: type[Model], *more: str) -> type:
    """The plain values of a row of the model's table, as its pages and checks read it: a
    frozen dataclass whose fields are the model's columns, by their names and in their order,
    then `more` (what a read adds: a match's sides, a seat's side). Made from the model, so a
    new column is read as soon as the model has it, with no second list of fields to keep in
    step. A read model (StoredMatch, StoredSide, StoredSeat, StoredGroup) is a class on this
    that adds its methods; the type checker is told it is its model, whose columns it has with
    the same types.

    Plain values rather than the model's objects: every request to a match reads it with its
    sides and seats, and as ORM objects (select(Match) with selectinload of its sides, then its
    seats) that took 1.18 CPU-ms against 0.44 as plain rows (SQLite, four sides and four
    seats), when the whole sheet page takes some 4.5."""
    return dataclasses.make_dataclass(
        f"{model.__name__}Columns", [(name, Any) for name in [*_keys(model), *more]], frozen=True
    )


def tuple_of(model: type[Model], *more: str) -> type:
    """columns_of's fields as a named tuple, for a read made hundreds of times a page (a
    sheet's cells and hands, a record's results): a frozen dataclass sets each field with a
    call of its own, and took four times a tuple's time to make (a cell's ten fields). Made
    from a row by `picked`: `Read(*picked_values, *more_values)`. A class on it adds
    `__slots__ = ()`, so its objects stay tuples."""
    return namedtuple(f"{model.__name__}Columns", [*_keys(model), *more])


def picked(statement: sa.Select[Any], columns: Iterable[sa.ColumnElement[Any]]) -> Picker:
    """The values of `columns` in a row of `statement`, in their order (a model's table's
    columns: a read model's, as columns_of and tuple_of make it): found by where the statement
    selects each column, once, so a row is never read by a place counted by hand."""
    selected = list(statement.selected_columns)
    places = [next(at for at, one in enumerate(selected) if one is column) for column in columns]
    return itemgetter(*places)


# A row's values of some of its columns, as `picked` found them.
Picker = Callable[[Any], tuple[Any, ...]]


def _keys(model: type[Model]) -> list[str]:
    """The model's table's columns, named as the model's attributes are (every column here is
    named for its attribute); not the mapper's, which would set up relationships to models not
    yet made."""
    return [column.key for column in model.__table__.columns]


class MatchLife:
    """Where a match is in its life: asked alike of its model (Match) and of a match as read
    (StoredMatch)."""

    OPEN = "open"
    ENDED = "ended"
    ABANDONED = "abandoned"

    if TYPE_CHECKING:
        status: str

    @property
    def is_open(self) -> bool:
        """Whether hands can still be entered."""
        return self.status == self.OPEN

    @property
    def is_ended(self) -> bool:
        """Whether End match was pressed once a side had won."""
        return self.status == self.ENDED

    @property
    def is_abandoned(self) -> bool:
        """Whether the host abandoned it unfinished."""
        return self.status == self.ABANDONED


class Match(MatchLife, Model):
    """One game at one table, from the first hand to End match (or abandon)."""

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    code: so.Mapped[str] = so.mapped_column(sa.String(12), unique=True)
    game: so.Mapped[str] = so.mapped_column(sa.String(20))
    table_format: so.Mapped[str] = so.mapped_column(sa.String(10))
    target: so.Mapped[int]
    table_rules: so.Mapped[dict[str, str]] = so.mapped_column(sa.JSON, default=dict)
    status: so.Mapped[str] = so.mapped_column(sa.String(10), default=MatchLife.OPEN, index=True)
    host_phone: so.Mapped[str] = so.mapped_column(sa.String(64))
    winner_side_id: so.Mapped[int | None] = so.mapped_column(
        sa.ForeignKey("side.id", use_alter=True, ondelete="SET NULL")
    )
    # Why the winner won, as End match found it: the rule's code and its numbers (games.Won's
    # stored()), worded by words/ in the reader's language; None unless the match ended.
    win_reason: so.Mapped[dict[str, Any] | None] = so.mapped_column(sa.JSON)
    created_at: so.Mapped[datetime] = so.mapped_column(default=utcnow, index=True)
    ended_at: so.Mapped[datetime | None]
    # Goes up with every change to the match: streams ring on it, ETags name it, writers lock
    # on it.
    version: so.Mapped[int] = so.mapped_column(default=1)
    # The host closed the table: no new phone may take a side (watching stays open).
    closed: so.Mapped[bool] = so.mapped_column(default=False, server_default=sa.false())
    # The code of the rematch started from this match once it ended: its phones are offered
    # their sides there. (A code, as every link to a match is; matches are never deleted.)
    # Indexed (ix_match_rematch_code): a match's series is found by walking these links back
    # (scoresheet/series.py).
    rematch_code: so.Mapped[str | None] = so.mapped_column(sa.String(12))
    # Who dealt the first hand, as a place in the dealing order (scoresheet/dealing.py); None until
    # the host says.
    first_dealer: so.Mapped[int | None]
    # The host's note on the match: where it was played, what was at stake ("" for none).
    note: so.Mapped[str] = so.mapped_column(sa.String(NOTE_LENGTH), default="", server_default="")

    sides: so.Mapped[list[Side]] = so.relationship(
        back_populates="match",
        order_by="Side.position",
        foreign_keys="Side.match_id",
        cascade="all, delete-orphan",
    )
    seats: so.Mapped[list[Seat]] = so.relationship(
        back_populates="match", cascade="all, delete-orphan"
    )
    hands: so.Mapped[list[Hand]] = so.relationship(
        back_populates="match", order_by="Hand.number", cascade="all, delete-orphan"
    )
    corrections: so.Mapped[list[Correction]] = so.relationship(
        back_populates="match", order_by="Correction.id", cascade="all, delete-orphan"
    )
    winner: so.Mapped[Side | None] = so.relationship(foreign_keys=[winner_side_id])

    __table_args__ = (
        sa.CheckConstraint("status IN ('open', 'ended', 'abandoned')", name="status"),
        sa.CheckConstraint("target > 0", name="target_positive"),
        # Only the matches that had a rematch: most never do, and an index mostly of NULLs
        # reads to the planner as one value for every row, so it would scan the table for
        # each link walked instead (SQLite did, 40 times slower on a 1,000-match record).
        sa.Index(
            "ix_match_rematch_code",
            "rematch_code",
            sqlite_where=sa.text("rematch_code IS NOT NULL"),
            postgresql_where=sa.text("rematch_code IS NOT NULL"),
        ),
    )


class Side(Model):
    """One column of the sheet: a player, or a partnership that shares its score."""

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    match_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("match.id", ondelete="CASCADE"))
    position: so.Mapped[int]
    name: so.Mapped[str] = so.mapped_column(sa.String(40))
    players: so.Mapped[str] = so.mapped_column(sa.String(200), default="")

    match: so.Mapped[Match] = so.relationship(back_populates="sides", foreign_keys=[match_id])

    __table_args__ = (sa.UniqueConstraint("match_id", "position"),)


if TYPE_CHECKING:
    # To the type checker a read model is its model, whose columns it has with the same types;
    # at run time it has only those, as plain values (columns_of), and none of the model's
    # relationships or ORM machinery.
    _SideColumns = Side
else:
    _SideColumns = columns_of(Side)


class StoredSide(_SideColumns):
    """A side of a match as read: plain values, as every page and check only reads a side (a
    side is written once, with its match: scoresheet/setup.py)."""

    if TYPE_CHECKING:
        # A dataclass, as columns_of made it (dataclasses.replace takes it).
        __dataclass_fields__: ClassVar[dict[str, dataclasses.Field[Any]]]


if TYPE_CHECKING:
    _MatchColumns = Match
else:
    _MatchColumns = columns_of(Match, "follows", "sides")


class StoredMatch(_MatchColumns, MatchLife):
    """A match as read, with its sides in place order: plain values, for the pages and for
    the checks of every action, which change a match with statements of their own
    (scoresheet/writing.py)."""

    if TYPE_CHECKING:
        # Whether this match is the rematch of another (another's rematch_code names it).
        follows: bool
        sides: tuple[StoredSide, ...]  # type: ignore[assignment]
        __dataclass_fields__: ClassVar[dict[str, dataclasses.Field[Any]]]


class Seat(Model):
    """A phone's place at a match: holding a side, or watching (side is None)."""

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    # Looked up by match through the unique (match_id, phone), by phone through ix_seat_history:
    # neither needs an index of its own for every seat written to keep up.
    match_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("match.id", ondelete="CASCADE"))
    phone: so.Mapped[str] = so.mapped_column(sa.String(64))
    side_id: so.Mapped[int | None] = so.mapped_column(sa.ForeignKey("side.id", ondelete="SET NULL"))
    joined_at: so.Mapped[datetime] = so.mapped_column(default=utcnow)
    # The name of the person with this phone, as they typed it (the phone keeps it too, to
    # offer it at the next match): it tells two partners' phones apart. "" if not given.
    player: so.Mapped[str] = so.mapped_column(sa.String(40), default="", server_default="")
    # False once the phone removed the match from its list, its history and Home (the seat
    # stays, holding its side: seats.remove_from_list).
    listed: so.Mapped[bool] = so.mapped_column(default=True, server_default=sa.true())
    # The match's place in history, copied here (written by seat_at, and kept in step by
    # life._set_status, the one way a match's status changes) so a phone's history pages walk
    # ix_seat_history in order instead of sorting all its matches.
    match_open: so.Mapped[bool]
    match_created_at: so.Mapped[datetime]
    # The place of the side this phone held when the host released it (None if never, or once
    # it holds a side again): its own to take back on a closed table (phones/rules.py).
    released_from: so.Mapped[int | None]

    match: so.Mapped[Match] = so.relationship(back_populates="seats")
    side: so.Mapped[Side | None] = so.relationship()

    __table_args__ = (
        # One seat per phone per match: a phone holds one side, or watches.
        sa.UniqueConstraint("match_id", "phone"),
        # History's order: unfinished first, then the newest (match_id breaks ties).
        sa.Index("ix_seat_history", "phone", "match_open", "match_created_at", "match_id"),
    )


if TYPE_CHECKING:
    _SeatColumns = Seat
else:
    _SeatColumns = columns_of(Seat, "side")


class StoredSeat(_SeatColumns):
    """A phone's seat at a match as read, holding a side (one of the match's as read) or
    watching: plain values, for the pages and the permission checks that only read it; a write
    changes a seat through its model (Seat)."""

    if TYPE_CHECKING:
        side: StoredSide | None
        __dataclass_fields__: ClassVar[dict[str, dataclasses.Field[Any]]]

    @cached_property
    def label(self) -> str:
        """Who this phone is, as the table says it: "Omar (Us)". Worded once, however many
        places a page names it (its players, who deals, the host's tools, the trail)."""
        return person(self.player, self.side)


def person(player: str, side: Side | StoredSide | None) -> str:
    """A phone at the table as everyone reads it: the player's name with the side they hold
    ("Omar (Us)"), the side's name alone for a phone that gave no name, and a watcher's name."""
    if side is None:
        return player or names.watching_phone()
    # A side named after its one player ("Omar") is said once.
    if player and player != side.name:
        return names.player_on_side(player, side.name)
    return side.name


def history_order(match: Match | StoredMatch) -> dict[str, Any]:
    """What a phone's history is ordered by, as every seat at the match carries it."""
    return {"match_open": match.is_open, "match_created_at": match.created_at}


def seat_at(
    match: Match | StoredMatch, phone: str, side_id: int | None = None, player: str = ""
) -> Seat:
    """A new seat for a phone at a match, holding a side or watching, in its history's order."""
    return Seat(
        match_id=match.id, phone=phone, side_id=side_id, player=player, **history_order(match)
    )


class Hand(Model):
    """One row of the sheet: one hand dealt, played and counted (a round, in some games)."""

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    match_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("match.id", ondelete="CASCADE"))
    number: so.Mapped[int]
    started_at: so.Mapped[datetime] = so.mapped_column(default=utcnow)

    match: so.Mapped[Match] = so.relationship(back_populates="hands")
    entries: so.Mapped[list[Entry]] = so.relationship(
        back_populates="hand", cascade="all, delete-orphan"
    )

    __table_args__ = (
        sa.UniqueConstraint("match_id", "number"),
        sa.CheckConstraint("number > 0", name="number_positive"),
    )


class Entry(Model):
    """One cell: a side's total for one hand, and the calculator's counts if it used it."""

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    hand_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("hand.id", ondelete="CASCADE"))
    side_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("side.id", ondelete="CASCADE"))
    points: so.Mapped[int]
    counts: so.Mapped[dict[str, int] | None] = so.mapped_column(sa.JSON)
    # The keys of the ticks its game declares that the side ticked (games.Tick): a list, so a
    # game that declares a new tick needs no new column.
    ticks: so.Mapped[list[str]] = so.mapped_column(
        sa.JSON, default=list, server_default=sa.text("'[]'")
    )
    entered_by: so.Mapped[str] = so.mapped_column(sa.String(64))
    entered_at: so.Mapped[datetime] = so.mapped_column(default=utcnow)
    # Goes up with every change, so a correction made from a stale page is caught.
    revision: so.Mapped[int] = so.mapped_column(default=1)

    hand: so.Mapped[Hand] = so.relationship(back_populates="entries")
    side: so.Mapped[Side] = so.relationship()

    # The database itself refuses a second entry for the same side in the same hand.
    __table_args__ = (sa.UniqueConstraint("hand_id", "side_id"),)


class Correction(Model):
    """The host changing or filling a cell: who, when, old value, new value, why."""

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    match_id: so.Mapped[int] = so.mapped_column(
        sa.ForeignKey("match.id", ondelete="CASCADE"), index=True
    )
    hand_number: so.Mapped[int]
    side_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("side.id", ondelete="CASCADE"))
    old_points: so.Mapped[int | None]
    new_points: so.Mapped[int]
    old_detail: so.Mapped[dict[str, Any] | None] = so.mapped_column(sa.JSON)
    new_detail: so.Mapped[dict[str, Any]] = so.mapped_column(sa.JSON)
    reason: so.Mapped[str] = so.mapped_column(sa.String(200), default="")
    by_phone: so.Mapped[str] = so.mapped_column(sa.String(64))
    made_at: so.Mapped[datetime] = so.mapped_column(default=utcnow)

    match: so.Mapped[Match] = so.relationship(back_populates="corrections")
    side: so.Mapped[Side] = so.relationship()


class Submission(Model):
    """A form post already carried out, by its idempotency key: a resent post records once."""

    key: so.Mapped[str] = so.mapped_column(sa.String(64), primary_key=True)
    match_id: so.Mapped[int | None] = so.mapped_column(
        sa.ForeignKey("match.id", ondelete="CASCADE")
    )
    made_at: so.Mapped[datetime] = so.mapped_column(default=utcnow)
    # A hash of where it was posted and what (forms.post_of): the same key with
    # other values is another post, refused rather than taken for this one.
    posted: so.Mapped[str | None] = so.mapped_column(sa.String(64))


class SideResult(Model):
    """How a side came out of an ended match, stored by End match (scoresheet/life.py) and
    cleared when the match is reopened: a fact of the match, like its winner, from which a
    phone's record is read (scoresheet/record.py) without working every sheet out again. A
    phone's result at a match is its side's: partners share it, and no phone takes or leaves
    a side of an ended match."""

    side_id: so.Mapped[int] = so.mapped_column(
        sa.ForeignKey("side.id", ondelete="CASCADE"), primary_key=True
    )
    match_id: so.Mapped[int] = so.mapped_column(
        sa.ForeignKey("match.id", ondelete="CASCADE"), index=True
    )
    won: so.Mapped[bool]
    # Its complete hands, the points they scored (card points where the
    # hands are rounds), its best hand's points
    # and number (the lowest where the lowest total wins; None before any complete hand).
    hands: so.Mapped[int]
    points: so.Mapped[int]
    best_hand: so.Mapped[int | None]
    best_hand_number: so.Mapped[int | None]
    # Whether its table played for the lowest total (Hearts): its best hand is its lowest.
    lowest_wins: so.Mapped[bool]
    # What its calculator entries took, by the game's feat keys (Game.feats).
    feats: so.Mapped[dict[str, int]] = so.mapped_column(sa.JSON)
    # The winner's: the totals at the hand that decided the match (its own first, then the
    # others' in place order), how far it led the best other side there (below zero after an
    # early victory from behind), and the most it trailed by up to then (0: never behind).
    score: so.Mapped[list[int] | None] = so.mapped_column(sa.JSON)
    margin: so.Mapped[int | None]
    comeback: so.Mapped[int | None]


class HistoryCode(Model):
    """A one-time code a phone shows so another browser becomes the same player: the phone's
    token, the code's keyed hash (scoresheet/moving.py), when it stops working, and when it
    was used (kept, so the phone is told its history was opened elsewhere)."""

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    digest: so.Mapped[str] = so.mapped_column(sa.String(64), unique=True)
    phone: so.Mapped[str] = so.mapped_column(sa.String(64), index=True)
    made_at: so.Mapped[datetime] = so.mapped_column(default=utcnow)
    expires_at: so.Mapped[datetime]
    used_at: so.Mapped[datetime | None]


# The group that plays every week (docs/groups.md): its roster of players (names, not phones),
# the matches played in it, the phones that opened it, and what its host did.


class Group(Model):
    """A group that meets to play: a code and QR code like a match's, a host (the phone that
    made it, or the one it was handed to), a roster, and the season its standings count."""

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    code: so.Mapped[str] = so.mapped_column(sa.String(12), unique=True)
    name: so.Mapped[str] = so.mapped_column(sa.String(40), default="", server_default="")
    host_phone: so.Mapped[str] = so.mapped_column(sa.String(64))
    # No new phone may join (say who it is, start a match); its code still shows the standings.
    closed: so.Mapped[bool] = so.mapped_column(default=False, server_default=sa.false())
    # Whether the group keeps a rating (openskill): opt-in, as a rating is not every table's taste.
    rated: so.Mapped[bool] = so.mapped_column(default=False, server_default=sa.false())
    # The season new matches count for: 1 until the host starts another.
    season: so.Mapped[int] = so.mapped_column(default=1, server_default="1")
    created_at: so.Mapped[datetime] = so.mapped_column(default=utcnow)
    # Goes up with every change to the group: its writers lock on it, as a match's do.
    version: so.Mapped[int] = so.mapped_column(default=1, server_default="1")
    # The idempotency key of the post that made it: a resent "Start a group" goes on to it.
    made_by: so.Mapped[str | None] = so.mapped_column(sa.String(64), unique=True)

    __table_args__ = (sa.CheckConstraint("season > 0", name="season_positive"),)


if TYPE_CHECKING:
    _GroupColumns = Group
else:
    _GroupColumns = columns_of(Group)


class StoredGroup(_GroupColumns):
    """A group as read: plain values for its pages and the checks of its actions."""

    @property
    def title(self) -> str:
        """The group as its pages name it: its name, or its code before it has one."""
        return self.name or groups.untitled(self.code)


class RosterPlayer(Model):
    """A player of a group's roster: a name, not a phone. A player taken off the roster
    (`left`) keeps their name in the standings of the matches they played."""

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    group_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("group.id", ondelete="CASCADE"))
    name: so.Mapped[str] = so.mapped_column(sa.String(40))
    left: so.Mapped[bool] = so.mapped_column(default=False, server_default=sa.false())

    __table_args__ = (sa.UniqueConstraint("group_id", "name"),)


class GroupPhone(Model):
    """A phone that opened a group and joined it: listed on its Home, and able to say which
    roster player it is (`player_id`), from which all its seats at the group's matches count
    for that player. Leaving the group deletes the row."""

    # Its own id: the host's page names another phone by it, never by its token.
    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    group_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("group.id", ondelete="CASCADE"))
    phone: so.Mapped[str] = so.mapped_column(sa.String(64), index=True)
    player_id: so.Mapped[int | None] = so.mapped_column(
        sa.ForeignKey("roster_player.id", ondelete="SET NULL")
    )
    joined_at: so.Mapped[datetime] = so.mapped_column(default=utcnow)

    __table_args__ = (sa.UniqueConstraint("group_id", "phone"),)


class GroupMatch(Model):
    """A match played in a group: the season it counts for, and whether the host took it out
    of the standings (kept, and put back as easily)."""

    match_id: so.Mapped[int] = so.mapped_column(
        sa.ForeignKey("match.id", ondelete="CASCADE"), primary_key=True
    )
    group_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("group.id", ondelete="CASCADE"))
    season: so.Mapped[int]
    counted: so.Mapped[bool] = so.mapped_column(default=True, server_default=sa.true())

    __table_args__ = (sa.Index("ix_group_match_season", "group_id", "season"),)


class SidePlayer(Model):
    """A roster player holding a side of a group's match, as the group's New match filled it
    (a table kept on one phone counts for every player at it)."""

    side_id: so.Mapped[int] = so.mapped_column(
        sa.ForeignKey("side.id", ondelete="CASCADE"), primary_key=True
    )
    player_id: so.Mapped[int] = so.mapped_column(
        sa.ForeignKey("roster_player.id", ondelete="CASCADE"), primary_key=True
    )
    match_id: so.Mapped[int] = so.mapped_column(
        sa.ForeignKey("match.id", ondelete="CASCADE"), index=True
    )


class GroupTrail(Model):
    """What a group's host did, in the order it was done: a match taken out of the standings
    or put back, a new season, the roster changed, the host role handed over. `what` is the
    deed's code and `facts` its values, worded on the page in its reader's language."""

    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    group_id: so.Mapped[int] = so.mapped_column(
        sa.ForeignKey("group.id", ondelete="CASCADE"), index=True
    )
    what: so.Mapped[str] = so.mapped_column(sa.String(20))
    facts: so.Mapped[dict[str, Any]] = so.mapped_column(sa.JSON, default=dict)
    by_phone: so.Mapped[str] = so.mapped_column(sa.String(64))
    made_at: so.Mapped[datetime] = so.mapped_column(default=utcnow)


class Rating(Model):
    """A roster player's rating after a match of a rated group's season (openskill's mu and
    sigma), in the order the matches ended: stored as worked out, and worked out again from
    the first match a change touches (scoresheet/ratings.py)."""

    match_id: so.Mapped[int] = so.mapped_column(
        sa.ForeignKey("match.id", ondelete="CASCADE"), primary_key=True
    )
    player_id: so.Mapped[int] = so.mapped_column(
        sa.ForeignKey("roster_player.id", ondelete="CASCADE"), primary_key=True
    )
    group_id: so.Mapped[int] = so.mapped_column(sa.ForeignKey("group.id", ondelete="CASCADE"))
    season: so.Mapped[int]
    # The match's place in the order: when it ended, then its id.
    ended_at: so.Mapped[datetime]
    mu: so.Mapped[float]
    sigma: so.Mapped[float]

    __table_args__ = (
        # A player's latest rating, one seek (ratings.LATEST); and a season's from a match on.
        sa.Index("ix_rating_player", "group_id", "season", "player_id", "ended_at", "match_id"),
        sa.Index("ix_rating_order", "group_id", "season", "ended_at", "match_id"),
    )


class Standing(Model):
    """A roster player's figures over a season's counted matches, of one game or of all
    (`game` ""), their partners and rivals among them, and their rating, as scoresheet/
    standings.py worked them out from the stored results: written in the same transaction as
    every change that moves them (a match that ends or is reopened, taken out or put back, a
    phone that says which player it is), so a group's page reads a row a player instead of
    adding a season up again."""

    group_id: so.Mapped[int] = so.mapped_column(
        sa.ForeignKey("group.id", ondelete="CASCADE"), primary_key=True
    )
    season: so.Mapped[int] = so.mapped_column(primary_key=True)
    game: so.Mapped[str] = so.mapped_column(sa.String(20), primary_key=True)
    player_id: so.Mapped[int] = so.mapped_column(
        sa.ForeignKey("roster_player.id", ondelete="CASCADE"), primary_key=True
    )
    played: so.Mapped[int]
    won: so.Mapped[int]
    hands: so.Mapped[int]
    points: so.Mapped[int]
    against_hands: so.Mapped[int]
    against_points: so.Mapped[int]
    streak: so.Mapped[int]
    best_streak: so.Mapped[int]
    series: so.Mapped[int]
    series_won: so.Mapped[int]
    # The game's best hand: its points, its number, its match's code, and -1 where it is best
    # for being the lowest.
    best_hand: so.Mapped[int | None]
    best_hand_number: so.Mapped[int | None]
    best_code: so.Mapped[str | None] = so.mapped_column(sa.String(12))
    best_sign: so.Mapped[int] = so.mapped_column(default=1)
    # The players they played with on one side, and against (head to head: their wins), by
    # roster id: {"12": [played, won]}. Kept on their row: a page reads a row a player.
    partners: so.Mapped[dict[str, list[int]]] = so.mapped_column(sa.JSON, default=dict)
    met: so.Mapped[dict[str, list[int]]] = so.mapped_column(sa.JSON, default=dict)
    # Their rating after their latest match of the season (all games' row, a rated group), as
    # shown with its uncertainty (ratings.shown), copied from Rating as it is worked out.
    rating: so.Mapped[int | None]
    uncertainty: so.Mapped[int | None]
