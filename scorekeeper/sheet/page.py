"""What the match page asks beyond the sheet's own figures (who sits where, what this phone is
offered, the words it repeats), worked out once per request in Python, so that its templates
(sheet/_live.html, sheet/_status.html) only print."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from flask import url_for
from flask_babel import gettext as _
from flask_babel import pgettext
from markupsafe import Markup, escape

from scorekeeper.games import Term
from scorekeeper.models import StoredSeat, StoredSide
from scorekeeper.phones.rules import Action, Viewer
from scorekeeper.scoresheet.sheet import Sheet
from scorekeeper.scoresheet.stored import Corrected
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


class HandLinks(NamedTuple):
    """One hand's links on the sheet: its whole correction (the host's), each cell's page (the
    host's: its correction), and each cell's fill (the host's, where no phone holds the side),
    by column."""

    correct: str
    cells: tuple[str, ...]
    fills: tuple[str, ...]


def hand_links(sheet: Sheet, correcting: bool) -> tuple[HandLinks, ...]:
    """The links of every hand of the sheet (sheet.rows' order), each joined to one url_for: a
    long sheet is thousands of cells, and a url_for for each would cost more than drawing them."""
    hand = url_for("sheet.match", code=sheet.match.code) + "/hand/"
    return tuple(_links(hand, number, len(sheet.sides), correcting) for number in _numbers(sheet))


def _numbers(sheet: Sheet) -> list[int]:
    """The numbers of the sheet's started hands, then the open hand's if it is not started."""
    numbers = [stored.number for stored in sheet.hands]
    if sheet.current_hand is not None and sheet.current_hand not in numbers:
        numbers.append(sheet.current_hand)
    return numbers


def _links(hand: str, number: int, sides: int, correcting: bool) -> HandLinks:
    """One hand's links, from the sheet's link to its hands."""
    row = f"{hand}{number}"
    fills = tuple(f"{row}/side/{at}/correct" for at in range(sides))
    cells = fills if correcting else tuple(f"{row}/side/{at}" for at in range(sides))
    return HandLinks(f"{row}/correct", cells, fills)


@dataclass(frozen=True)
class Page:
    """The table as this phone's page shows it."""

    # The game's words the page repeats, looked up once.
    hand_word: str
    hand_noun: str
    total_word: str
    # The actions this page offers this phone a button or link for, as the permission rules
    # answer them now (the rules decide again, under the lock, when one is posted).
    offers: frozenset[Action]
    # The claim card: whether it is shown (a side free, or a phone not yet at the table),
    # whether it asks which side this phone is (and its name), and the sides it may take; the
    # host who keeps the sheet: the sides it may play on this phone.
    asked_for_a_side: bool
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
    level: Markup
    # The corrections (a value changed), each on its line; the host's fills, by side.
    trail: tuple[TrailLine, ...]
    filled: tuple[FillLine, ...]
    # Each tick's mark as a cell draws it beside its points (by the tick's key), and the key to
    # every mark the sheet shows now: what it means, for the phones, the TV and the print.
    tick_marks: dict[str, Markup]
    marks_key: tuple[tuple[str, str], ...]
    # Whether the sheet's column heads stand up their columns (heads_stand).
    heads_stand: bool
    # Each hand's links, in sheet.rows' order, then the open hand's if no side entered it yet
    # (hand_links): the template prints them.
    links: tuple[HandLinks, ...]


# The longest word a column's head holds across on a 360-px phone, by the number of sides:
# a column's room (some 135, 88 and 64 px at two, three and four) over the widest bold letter
# drawn at the head's size (about 16 px: "W", "m"), so any word that short fits whatever its
# letters. From five sides every head stands up its column.
ACROSS = {2: 8, 3: 5, 4: 4}
# A name's words, as a head may wrap it: between words, and after a hyphen.
WORDS = re.compile(r"[^\s\-\u2010]+")


def heads_stand(names: Sequence[str]) -> bool:
    """Whether the sheet's heads stand up their columns, as along a paper sheet's narrow
    columns: from five sides, and wherever a name has a word longer than a column holds
    across. A word is then never cut inside (issue 42: "Konstantin/ou"): standing, a head is
    as tall as its longest word."""
    most = ACROSS.get(len(names), 0)
    return any(len(word) > most for name in names for word in WORDS.findall(name))


# The actions the match page offers by a button or a link of their own, beyond a cell's entry.
OFFERED = (
    Action.RENAME,
    Action.CORRECT,
    Action.DEALER,
    Action.RELEASE,
    Action.NOTE,
    Action.CLOSE_TABLE,
    Action.OPEN_TABLE,
    Action.ABANDON,
    Action.REOPEN,
    Action.END,
    Action.REMATCH,
    Action.KEEP_AS_GROUP,
)


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
            count_changes(c, sheet),
            host_named(by_phone.get(c.by_phone)),
        )
        for c in sheet.corrections
    )
    is_host = viewer.is_host
    return Page(
        offers=frozenset(action for action in OFFERED if viewer.may(action)),
        asked_for_a_side=asked,
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
        level=level_names(sheet) if sheet.in_play and sheet.state.running else Markup(""),
        trail=trail,
        filled=fill_lines(sheet, by_phone),
        tick_marks={tick.key: _mark(tick.mark, say(tick.noted)) for tick in sheet.ticks},
        marks_key=marks_key(sheet),
        heads_stand=heads_stand([side.name for side in sheet.sides]),
        links=hand_links(sheet, viewer.may(Action.CORRECT)),
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


# The marks a cell carries besides a tick's: how it was entered and whether the host changed it.
FROM_CALCULATOR, CORRECTED = "≡", "✎"


def _mark(sign: str, meaning: str) -> Markup:
    """A mark beside a cell's points, saying what it means when touched or read aloud."""
    return Markup('<span class="mark tick" title="%s">%s</span>') % (meaning, sign)


def marks_key(sheet: Sheet) -> tuple[tuple[str, str], ...]:
    """Each mark the sheet's cells show now, with what it means, in the order a cell draws them:
    entered with the calculator, corrected by the host, then the game's ticks."""
    cells = [cell for row in sheet.rows for cell in row.cells if cell.entry is not None]
    shown: list[tuple[str, str]] = []
    if any(cell.breakdown for cell in cells):
        # NOTE: the key under the sheet: a cell entered with the calculator.
        shown.append((FROM_CALCULATOR, _("from the calculator")))
    if any(cell.corrections for cell in cells):
        # NOTE: the key under the sheet: a cell the host changed.
        shown.append((CORRECTED, _("corrected by the host")))
    ticked = {tick.key for cell in cells for tick in cell.ticks}
    shown += [(tick.mark, say(tick.noted)) for tick in sheet.ticks if tick.key in ticked]
    return tuple(shown)


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


# A name in a line of words, set apart (<bdi>): in Arabic a list of Latin or Cyrillic names
# ran together as one left-to-right run, read backwards, with the list's comma drawn between
# the first word and the first name ("بانتظار ، Ana"). Apart, each name reads its own way
# and the list runs the line's.
APART = Markup("<bdi>%s</bdi>")


def waiting_for(sheet: Sheet, seats: Sequence[StoredSeat]) -> Markup:
    """The sides yet to enter the open hand, each with the players whose phones hold it where
    they gave a name other than the side's: "Us (Omar, Ben), Them", each name set apart."""
    # What goes between the items of a list ("Omar, Ben"), as every list of names says it.
    between = pgettext("list separator", ", ")
    said = []
    for side in sheet.missing():
        names = [
            seat.player
            for seat in seats
            if seat.side_id == side.id and seat.player and seat.player != side.name
        ]
        name = Markup('<strong class="missing">%s</strong>') % (APART % side.name)
        players = escape(between).join(APART % player for player in names)
        said.append(name + Markup(" (%s)") % players if names else name)
    return escape(between).join(said)


def level_names(sheet: Sheet) -> Markup:
    """The sides level at the top, "Us and Them", each name set apart ("" when one side
    leads)."""
    leaders = sheet.leaders
    if len(leaders) < 2:
        return Markup("")
    # NOTE: joins the names of the sides level at the top: "Us and Them and You"; keep the
    # spaces around it.
    return escape(_(" and ")).join(APART % side.name for side in leaders)
