"""What the match page asks beyond the sheet's own figures (who sits where, what this phone is
offered, the words it repeats), worked out once per request in Python, so that its templates
(sheet/_live.html, sheet/_status.html) only print."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from flask_babel import gettext as _
from flask_babel import pgettext
from markupsafe import Markup, escape

from scorekeeper.models import StoredSeat, StoredSide
from scorekeeper.permissions import Action, Viewer
from scorekeeper.scoresheet.sheet import Corrected, Sheet
from scorekeeper.terms import listed, say


@dataclass(frozen=True)
class TrailLine:
    """A correction as the trail shows it: what changed besides the total, and who made it
    ("Omar (Us)"; None for a host whose seat is gone)."""

    correction: Corrected
    changes: str
    by: str | None


@dataclass(frozen=True)
class Page:
    """The table as this phone's page shows it."""

    # The game's words the page repeats, looked up once.
    hand_word: str
    hand_noun: str
    total_word: str
    # The claim card: whether it asks which side this phone is (and its name), and the sides
    # it may take; the host who keeps the sheet: the sides it may play on this phone.
    asks_name: bool
    claimable: tuple[StoredSide, ...]
    takeable: tuple[StoredSide, ...]
    # The open hand's cells this phone may fill (the host's, of the sides no phone holds).
    fills: tuple[StoredSide, ...]
    # The host's tools: the sides a phone holds (to release), the seats the role may go to,
    # and how many other phones watch.
    releasable: tuple[StoredSide, ...]
    hand_overs: tuple[StoredSeat, ...]
    watching: int
    # The seats holding a side, each a link to its player's record.
    players: tuple[StoredSeat, ...]
    # A hand whose tie waits for its settling tick (Game.settles: who took the last trick): the
    # question the sheet asks ("" if none waits), and whether this phone may answer it.
    tie_asked: str
    settles_tie: bool
    # The sides yet to enter the open hand, with their players: "Us (Omar, Ben), Them".
    waiting: Markup
    # Where the sides are level at the top: their names, "Us and Them".
    level: str
    trail: tuple[TrailLine, ...]


def page_of(
    sheet: Sheet,
    viewer: Viewer,
    seats: Sequence[StoredSeat],
    with_room: Sequence[StoredSide],
    holding: dict[int, int],
    fills: tuple[StoredSide, ...],
) -> Page:
    """What this phone's page shows of the match's table, from the seats as read."""
    match, game = sheet.match, sheet.game
    asked = viewer.asked_for_a_side(with_room)
    claimable = viewer.may_claim(with_room) if asked else ()
    keeps = viewer.keeps_the_sheet and match.is_open
    by_phone = {seat.phone: seat for seat in seats}
    trail = tuple(
        TrailLine(
            c,
            count_changes(c, sheet) if c.old_points is not None else "",
            by_phone[c.by_phone].label if c.by_phone in by_phone else None,
        )
        for c in sheet.trail
    )
    is_host = viewer.is_host
    return Page(
        hand_word=str(game.hand_word),
        hand_noun=sheet.hand_noun,
        total_word=str(game.total_word),
        asks_name=asked and (bool(claimable) or viewer.seat_id is None),
        claimable=claimable,
        takeable=viewer.may_claim(with_room) if is_host and keeps else (),
        fills=fills,
        releasable=tuple(side for side in sheet.sides if holding.get(side.id, 0))
        if is_host and viewer.may(Action.RELEASE)
        else (),
        hand_overs=tuple(seat for seat in seats if viewer.may(Action.HAND_OVER, to=seat))
        if is_host
        else (),
        # Not this phone's own seat: a host keeping the sheet is not watching.
        watching=sum(1 for seat in seats if seat.side_id is None and seat.phone != viewer.phone),
        players=tuple(seat for seat in seats if seat.side_id is not None),
        tie_asked=tie_asked(sheet),
        settles_tie=viewer.may(Action.SETTLE, among=[side.id for side in sheet.waiting_sides])
        if sheet.state.waiting_at is not None
        else False,
        waiting=waiting_for(sheet, seats) if sheet.current_hand else Markup(""),
        level=level_names(sheet) if sheet.in_play and sheet.state.running else "",
        trail=trail,
    )


def tie_asked(sheet: Sheet) -> str:
    """The question a hand tied on its settling tick asks ("Round 3 is tied. Who took the last
    trick?"), or "" where no hand waits."""
    row, settling = sheet.waiting_row, sheet.game.settles
    if row is None or settling is None:
        return ""
    return say(settling.say(settling.asked, row.number))


def count_changes(correction: Corrected, sheet: Sheet) -> str:
    """What a correction changed besides the total, in words: calculator counts, named as the
    calculator names them, and ticks."""
    # Worded only for the counts that changed: a label is a lookup in the phone's language.
    named = {calc.key: calc.label for calc in sheet.game.calculator_fields(sheet.table)}
    old = correction.old_detail or {}
    new = correction.new_detail or {}
    old_counts, new_counts = old.get("counts") or {}, new.get("counts") or {}
    # Counts are compared only between two calculator cells: a cell that became a plain total
    # (or came from one) had no counts on that side, not counts of 0.
    compared = sorted(set(old_counts) | set(new_counts)) if old_counts and new_counts else []
    changes = [
        # NOTE: a count a correction changed: what it counts, before → after ("aces 3 → 4").
        _(
            "%(what)s %(old)s → %(new)s",
            what=str(named[key]) if key in named else key.replace("_", " "),
            old=old_counts.get(key, 0),
            new=new_counts.get(key, 0),
        )
        for key in compared
        if old_counts.get(key, 0) != new_counts.get(key, 0)
    ]
    if old and bool(old_counts) != bool(new_counts):
        # NOTE: a correction changed how a cell was entered: with the calculator, or as a total.
        changes.append(
            _("now from the calculator") if new.get("counts") else _("now a plain total")
        )
    old_ticks, new_ticks = set(old.get("ticks") or ()), set(new.get("ticks") or ())
    for tick in sheet.ticks:
        if (tick.key in old_ticks) != (tick.key in new_ticks):
            # NOTE: a tick a correction changed, as its list of changes says it: %(tick)s is
            # what the tick says ("cards split evenly", "black hand").
            noted = say(tick.noted)
            ticked = tick.key in new_ticks
            changes.append(
                _("%(tick)s ticked", tick=noted) if ticked else _("%(tick)s unticked", tick=noted)
            )
    return listed(changes)


def waiting_for(sheet: Sheet, seats: Sequence[StoredSeat]) -> Markup:
    """The sides yet to enter the open hand, each with the players whose phones hold it where
    they gave a name other than the side's: "Us (Omar, Ben), Them"."""
    # What goes between the items of a list ("Omar, Ben"), as every list of names says it.
    between = pgettext("list separator", ", ")
    said = []
    for side in sheet.missing():
        names = [
            seat.player
            for seat in seats
            if seat.side_id == side.id and seat.player and seat.player != side.name
        ]
        name = Markup('<strong class="missing">%s</strong>') % side.name
        said.append(name + Markup(" (%s)") % between.join(names) if names else name)
    return escape(between).join(said)


def level_names(sheet: Sheet) -> str:
    """The sides level at the top, "Us and Them" ("" when one side leads)."""
    leaders = sheet.leaders
    if len(leaders) < 2:
        return ""
    # NOTE: joins the names of the sides level at the top: "Us and Them and You"; keep the
    # spaces around it.
    return _(" and ").join(side.name for side in leaders)
