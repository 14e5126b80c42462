"""What a phone may do at a match, and as itself at no match: one rule per Action, asked by
every route (Viewer.may, for its buttons; Viewer.require) and by the write path under its
lock (scoresheet/writing.py)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from enum import Enum

from scorekeeper.errors import Refusal
from scorekeeper.models import StoredMatch, StoredSeat, StoredSide, person
from scorekeeper.words import refusals


class Action(Enum):
    """Everything a phone can do to a match."""

    CLAIM = "claim"
    WATCH = "watch"
    ENTER = "enter"
    FILL = "fill"
    SETTLE = "settle"
    END = "end"
    CORRECT = "correct"
    RELEASE = "release"
    HAND_OVER = "hand_over"
    ABANDON = "abandon"
    REOPEN = "reopen"
    CLOSE_TABLE = "close_table"
    OPEN_TABLE = "open_table"
    RENAME = "rename"
    REMATCH = "rematch"
    REMOVE = "remove"
    DEALER = "dealer"
    NOTE = "note"
    # Keep this table as a group (scoresheet/groups.py): its players become the group's roster.
    KEEP_AS_GROUP = "keep_as_group"


@dataclass(frozen=True)
class Viewer:
    """This phone as a match sees it: its seat (if any), the side it holds (if any), and
    whether it holds the host role. Views and templates ask it what it may do."""

    match: StoredMatch
    phone: str | None
    # Its seat at the match, holding a side or watching; None while it isn't at the table.
    seat_id: int | None
    side: StoredSide | None
    is_host: bool
    # The name its player gave at this match ("" if none).
    player: str = ""
    # The place of the side it held when the host released it: its own to take back on a
    # closed table.
    released_from: int | None = None
    # The ids of the sides some phone at the match holds (this one's included): each enters
    # its own column; the host fills the others'.
    held: frozenset[int] = frozenset()
    # At a rematch not yet open to new phones, the place of the side this phone held at the
    # match before: its own to take (docs/at-the-table.md, "Ending and rematch").
    played_before: int | None = None

    @property
    def label(self) -> str:
        """Who this phone is, as the table says it: "Omar (Us)"."""
        return person(self.player, self.side)

    @property
    def named_apart(self) -> bool:
        """Whether it holds a side and its player gave a name other than the side's ("Omar
        holds Us", not "Us holds Us")."""
        return bool(self.side is not None and self.player and self.player != self.side.name)

    @property
    def is_seated(self) -> bool:
        """Whether this phone holds a side."""
        return self.side is not None

    @property
    def keeps_the_sheet(self) -> bool:
        """Whether this phone is the host's holding no side ("No side: I only keep the sheet"):
        it is not asked which side it is, and fills the columns no phone holds."""
        return self.is_host and self.side is None

    def may(
        self,
        action: Action,
        side: StoredSide | None = None,
        among: Collection[int] = (),
        to: StoredSeat | None = None,
    ) -> bool:
        """Whether this phone may take this action now (for showing its button)."""
        return refusal(self, action, side, among, to) is None

    def may_claim(self, sides: Iterable[StoredSide]) -> tuple[StoredSide, ...]:
        """The sides among these this phone may claim now (the claim card's buttons)."""
        return tuple(side for side in sides if self.may(Action.CLAIM, side))

    def may_fill(self, sides: Iterable[StoredSide]) -> tuple[StoredSide, ...]:
        """The sides among these whose open cell this phone may fill now (the host's)."""
        return tuple(side for side in sides if self.may(Action.FILL, side))

    def asked_for_a_side(self, free: Collection[StoredSide]) -> bool:
        """Whether the page asks this phone which side it is (the claim card): a phone holding
        none while a side is free, or one not at the table yet (to watch). Never the host who
        keeps the sheet: it chose no side, and may take one from its tools."""
        if not self.match.is_open or self.side is not None or self.keeps_the_sheet:
            return False
        return bool(free) or self.seat_id is None

    def require(
        self,
        action: Action,
        side: StoredSide | None = None,
        among: Collection[int] = (),
        to: StoredSeat | None = None,
    ) -> Viewer:
        """This viewer, if it may take this action now; else the Refusal that says why."""
        refused = refusal(self, action, side, among, to)
        if refused is not None:
            raise refused
        return self


def refusal(
    viewer: Viewer,
    action: Action,
    side: StoredSide | None = None,
    among: Collection[int] = (),
    to: StoredSeat | None = None,
) -> Refusal | None:
    """Why this phone may not take this action on its match now, or None if it may: the
    action's rule (RULES).

    `side` is the column an entry goes into, or the side a phone claims; `among` the ids of
    the sides tied on a hand that waits for its settling tick, whose phones (and the host) may
    say who settles it; `to` the seat at this match the host role would go to.
    """
    return RULES[action](viewer, About(side, among, to))


@dataclass(frozen=True)
class About:
    """What an action is about, where its rule asks (refusal)."""

    side: StoredSide | None = None
    among: Collection[int] = ()
    to: StoredSeat | None = None


# The conditions several rules share, each rule calling those it needs, in its order.


def _settled(match: StoredMatch) -> Refusal | None:
    """A match ended or abandoned: nothing on it changes until the host reopens it."""
    if match.is_open:
        return None
    if match.is_ended:
        return Refusal(refusals.MATCH_ENDED, 409, match)
    return Refusal(refusals.MATCH_ABANDONED, 409, match)


def _not_the_host(viewer: Viewer) -> Refusal | None:
    """A host's tool, asked for by another phone."""
    if viewer.is_host:
        return None
    return Refusal(refusals.HOST_ONLY, match=viewer.match)


# One rule per action: why this phone may not take it now, or None.


def _claim(viewer: Viewer, about: About) -> Refusal | None:
    """A phone takes a side: one that holds none, at a table open to it."""
    match = viewer.match
    if refused := _settled(match):
        return refused
    if viewer.side is not None:
        return Refusal(
            refusals.holds_already(viewer.side.name),
            409,
            match,
        )
    # A closed table keeps newcomers out, not the phones that played a side the host released
    # (by mistake, or for a phone that died and came back), nor at a rematch (which starts
    # closed) the phones that played a side at the match before, nor the host.
    side = about.side
    if (
        match.closed
        and not viewer.is_host
        and (side is None or side.position not in (viewer.released_from, viewer.played_before))
    ):
        return Refusal(
            refusals.TABLE_CLOSED,
            409,
            match,
        )
    return None


def _watch(viewer: Viewer, about: About) -> Refusal | None:
    """A phone watches, on a match in any state: one that holds no side."""
    if viewer.side is not None:
        # It would give up its side without a word: release is the host's to do.
        return Refusal(
            refusals.holds_not_watching(viewer.side.name),
            409,
            viewer.match,
        )
    return None


def _enter(viewer: Viewer, about: About) -> Refusal | None:
    """A phone enters the total of the side it holds, and no other's."""
    match = viewer.match
    if refused := _settled(match):
        return refused
    side = about.side
    if side is not None and viewer.side is not None and viewer.side.id == side.id:
        return None
    if viewer.side is None:
        return Refusal(refusals.CLAIM_FIRST, match=match)
    return Refusal(
        refusals.holds_another(viewer.side.name),
        match=match,
    )


def _fill(viewer: Viewer, about: About) -> Refusal | None:
    """The host fills the open hand's cell of a side no phone holds, as one phone keeps a
    paper sheet; a side a phone holds enters its own (docs/at-the-table.md, "One phone keeps
    the whole sheet")."""
    match = viewer.match
    if refused := _settled(match) or _not_the_host(viewer):
        return refused
    side = about.side
    if side is None:
        return Refusal(refusals.NO_SUCH_SIDE, 404, match)
    if viewer.side is not None and side.id == viewer.side.id:
        return Refusal(
            refusals.holds_fill_in_the_form(side.name),
            409,
            match,
        )
    if side.id in viewer.held:
        return Refusal(
            refusals.held_by_a_phone(side.name),
            409,
            match,
        )
    return None


def _settle(viewer: Viewer, about: About) -> Refusal | None:
    """Who settles a hand tied on its game's settling tick (who took the last trick):
    a phone of a side in the tie, or the host."""
    match = viewer.match
    if refused := _settled(match):
        return refused
    if viewer.is_host or (viewer.side is not None and viewer.side.id in about.among):
        return None
    return Refusal(refusals.TIE_ONLY, match=match)


def _end(viewer: Viewer, about: About) -> Refusal | None:
    """End match: a phone at the table (holding a side), or the host."""
    match = viewer.match
    if refused := _settled(match):
        return refused
    if viewer.is_seated or viewer.is_host:
        return None
    return Refusal(refusals.SEATED_TO_END, match=match)


def _host_tool(viewer: Viewer, about: About) -> Refusal | None:
    """A host's tool on a match in play: correct, release a side, say who dealt first,
    abandon."""
    return _settled(viewer.match) or _not_the_host(viewer)


def _hand_over(viewer: Viewer, about: About) -> Refusal | None:
    """The host hands its role to another phone at the match that holds a side."""
    match = viewer.match
    if refused := _settled(match) or _not_the_host(viewer):
        return refused
    if about.to is None or about.to.phone == viewer.phone:
        return Refusal(refusals.PICK_ANOTHER_PHONE, 409, match)
    if about.to.side_id is None:
        # A watching phone may be a TV across the room: the host's tools go to a player.
        return Refusal(refusals.HOST_GOES_TO_A_SIDE, 409, match)
    return None


def _reopen(viewer: Viewer, about: About) -> Refusal | None:
    """The host reopens a match ended or abandoned."""
    match = viewer.match
    if not viewer.is_host:
        return Refusal(refusals.HOST_REOPENS, match=match)
    if match.is_open:
        return Refusal(refusals.OPEN_ALREADY, 409, match)
    return None


def _close_table(viewer: Viewer, about: About) -> Refusal | None:
    """The host closes an open table to new phones."""
    match = viewer.match
    if refused := _settled(match) or _not_the_host(viewer):
        return refused
    if match.closed:
        return Refusal(refusals.TABLE_CLOSED_ALREADY, 409, match)
    return None


def _open_table(viewer: Viewer, about: About) -> Refusal | None:
    """The host opens a closed table to new phones."""
    match = viewer.match
    if refused := _settled(match) or _not_the_host(viewer):
        return refused
    if not match.closed:
        return Refusal(refusals.TABLE_OPEN_ALREADY, 409, match)
    return None


def _rename(viewer: Viewer, about: About) -> Refusal | None:
    """A phone at the match (holding a side or watching) gives its player's name."""
    match = viewer.match
    if refused := _settled(match):
        return refused
    if viewer.seat_id is None:
        return Refusal(refusals.NOT_AT_THE_MATCH, match=match)
    return None


def _rematch(viewer: Viewer, about: About) -> Refusal | None:
    """Starting the rematch, or going on to it: its code is shown to the phones of this match
    only, the host and those that held a side. Not to watchers: anyone with this code may
    watch, and the rematch's sides wait for this match's players (docs/at-the-table.md,
    "Ending and rematch")."""
    match = viewer.match
    if not match.is_ended:
        return Refusal(refusals.REMATCH_AFTER_THE_END, 409, match)
    if not (viewer.is_seated or viewer.is_host):
        return Refusal(refusals.REMATCH_BY_PLAYERS, match=match)
    return None


def _remove(viewer: Viewer, about: About) -> Refusal | None:
    """A phone takes a match off its list: one it is at, and no longer playing."""
    match = viewer.match
    if viewer.seat_id is None:
        return Refusal(refusals.NOT_IN_THE_LIST, 404, match)
    if match.is_open and (viewer.side is not None or viewer.is_host):
        return Refusal(
            refusals.STILL_PLAYING,
            409,
            match,
        )
    return None


def _note(viewer: Viewer, about: About) -> Refusal | None:
    """The host writes the match's note: after the last hand as often as before the first,
    on a match in any state."""
    if viewer.is_host:
        return None
    return Refusal(refusals.HOST_WRITES_THE_NOTE, match=viewer.match)


def _keep_as_group(viewer: Viewer) -> Refusal | None:
    """Keep this table as a group: once the match has ended, a phone that played it or the
    host."""
    match = viewer.match
    if not match.is_ended:
        return Refusal(refusals.GROUP_AFTER_THE_END, 409, match)
    if not (viewer.is_seated or viewer.is_host):
        return Refusal(
            refusals.GROUP_BY_PLAYERS,
            match=match,
        )
    return None


# Why a phone may not take an action now (None: it may), from what the action is about.
Rule = Callable[[Viewer, About], Refusal | None]

RULES: dict[Action, Rule] = {
    Action.CLAIM: _claim,
    Action.WATCH: _watch,
    Action.ENTER: _enter,
    Action.FILL: _fill,
    Action.SETTLE: _settle,
    Action.END: _end,
    Action.CORRECT: _host_tool,
    Action.RELEASE: _host_tool,
    Action.HAND_OVER: _hand_over,
    Action.ABANDON: _host_tool,
    Action.REOPEN: _reopen,
    Action.CLOSE_TABLE: _close_table,
    Action.OPEN_TABLE: _open_table,
    Action.RENAME: _rename,
    Action.REMATCH: _rematch,
    Action.REMOVE: _remove,
    Action.DEALER: _host_tool,
    Action.NOTE: _note,
    Action.KEEP_AS_GROUP: lambda viewer, about: _keep_as_group(viewer),
}


class PhoneAction(Enum):
    """What a phone does as itself, at no match: every write through the one write path names
    its action (scoresheet/writing.py), these as a match's do."""

    # Start a match, hosting it.
    START = "start"
    # Start a group, hosting it.
    START_GROUP = "start_group"
    # Show a one-time code that moves this phone's history to another browser.
    SHOW_HISTORY_CODE = "show_history_code"
    # Become the player whose phone showed a code.
    TAKE_HISTORY = "take_history"


def _a_phone_of_its_own(phone: str | None) -> Refusal | None:
    """Only a phone with its cookie (every page gives one before it draws a form): what it
    starts or shows is kept as its own, and a phone with none would own nothing."""
    if phone:
        return None
    return Refusal(refusals.COOKIE_MISSING, 400)


def _any_browser(phone: str | None) -> Refusal | None:
    """Any browser, a new one without a cookie too: taking a history gives it the player's."""
    return None


PHONE_RULES: dict[PhoneAction, Callable[[str | None], Refusal | None]] = {
    PhoneAction.START: _a_phone_of_its_own,
    PhoneAction.START_GROUP: _a_phone_of_its_own,
    PhoneAction.SHOW_HISTORY_CODE: _a_phone_of_its_own,
    PhoneAction.TAKE_HISTORY: _any_browser,
}


def phone_refusal(action: PhoneAction, phone: str | None) -> Refusal | None:
    """Why this phone may not take one of its own actions now, or None if it may."""
    return PHONE_RULES[action](phone)
