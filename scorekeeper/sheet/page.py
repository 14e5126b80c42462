"""What the match page asks beyond the sheet's own figures (who sits where, what this phone is
offered, the words it repeats), worked out once per request in Python, so that its templates
(sheet/_live.html, sheet/_status.html) only print."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from flask_babel import gettext as _
from flask_babel import pgettext
from markupsafe import Markup, escape

from scorekeeper.games import Term
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
class FillLine:
    """The cells the host entered in one side's place, as the page names them once for all
    its hands (a fill is an entry, not a correction): the side, its hands ("hands 1–3, 5"),
    who entered them ("Omar (Us)"; None for a host whose seat is gone), and why if said."""

    side: StoredSide
    hands: str
    by: str | None
    reason: str


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
    # Brisca: whether this phone may say who took the last trick of the tied round.
    says_last_trick: bool
    # The sides yet to enter the open hand, with their players: "Us (Omar, Ben), Them".
    waiting: Markup
    # Where the sides are level at the top: their names, "Us and Them".
    level: str
    # The corrections (a value changed), each on its line; the host's fills, by side.
    trail: tuple[TrailLine, ...]
    filled: tuple[FillLine, ...]


def page_of(
    sheet: Sheet,
    viewer: Viewer,
    seats: Sequence[StoredSeat],
    with_room: Sequence[StoredSide],
    holding: dict[int, int],
    fills: tuple[StoredSide, ...],
) -> Page:
    """What this phone's page shows of the match's table, from the seats as read."""
    # Imported here: the match page's module draws the trail's changes (count_changes).
    from scorekeeper.sheet.routes import count_changes

    match, game = sheet.match, sheet.game
    asked = viewer.asked_for_a_side(with_room)
    claimable = viewer.may_claim(with_room) if asked else ()
    keeps = viewer.keeps_the_sheet and match.is_open
    by_phone = {seat.phone: seat for seat in seats}
    trail = tuple(
        TrailLine(
            c,
            count_changes(c, sheet),
            host_named(by_phone.get(c.by_phone)),
        )
        for c in sheet.corrections
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
        says_last_trick=viewer.may(
            Action.LAST_TRICK, among=[side.id for side in sheet.last_trick_sides]
        )
        if sheet.state.last_trick_at is not None
        else False,
        waiting=waiting_for(sheet, seats) if sheet.current_hand else Markup(""),
        level=level_names(sheet) if sheet.in_play and sheet.state.running else "",
        trail=trail,
        filled=fill_lines(sheet, by_phone),
    )


def host_named(seat: StoredSeat | None) -> str | None:
    """The host who changed or filled a cell, as the trail names them: "Omar (Us)", or the side
    they hold; None for a host whose seat is gone, or who keeps the sheet without a name (not
    "a watching phone": the trail then says "the host")."""
    if seat is None or (not seat.player and seat.side is None):
        return None
    return seat.label


def fill_lines(sheet: Sheet, by_phone: dict[str, StoredSeat]) -> tuple[FillLine, ...]:
    """The host's fills, one line for each side (and each phone that filled it, and each
    reason given), in column order: a sheet kept on one phone names its keeper once a side,
    not once a cell."""
    hands: dict[tuple[int, str, str], list[int]] = {}
    for line in sheet.fills:
        hands.setdefault((line.side.position, line.by_phone, line.reason), []).append(
            line.hand_number
        )
    return tuple(
        FillLine(
            sheet.sides[position],
            say(
                Term.of(
                    sheet.game.rows_numbered.code, num=len(set(numbers)), numbers=in_runs(numbers)
                )
            ),
            host_named(by_phone.get(phone)),
            reason,
        )
        for (position, phone, reason), numbers in sorted(hands.items(), key=lambda kv: kv[0][0])
    )


def in_runs(numbers: Sequence[int]) -> str:
    """Hand numbers as runs, the way a person writes them: "1–3, 5, 6"."""
    runs: list[list[int]] = []
    for number in sorted(set(numbers)):
        if runs and number == runs[-1][-1] + 1:
            runs[-1].append(number)
        else:
            runs.append([number])
    said: list[str] = []
    for run in runs:
        # Two in a row read better apart ("5, 6") than as a run ("5–6").
        said += [f"{run[0]}–{run[-1]}"] if len(run) > 2 else [str(number) for number in run]
    return listed(said)


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
