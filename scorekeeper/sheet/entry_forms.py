"""This phone's entry forms for the open hand, filled before the page is drawn: its side's
form, or the host's one form for the hand with every cell it may enter or fill."""

from __future__ import annotations

from flask_wtf import FlaskForm

from scorekeeper.games import EntryFacts
from scorekeeper.hand_forms import (
    hand_form,
)
from scorekeeper.models import StoredSide
from scorekeeper.phones.rules import Action, Viewer
from scorekeeper.scoresheet.sheet import Sheet
from scorekeeper.sheet.forms import (
    EntryForm,
    entry_form,
)


def entry_form_of(
    sheet: Sheet, viewer: Viewer, given_back: EntryFacts | None = None
) -> EntryForm | None:
    """This phone's entry form for the open hand, filled with what its side entered so far,
    or with what its player typed for a hand that completed first (`given_back`)."""
    side = viewer.side
    if sheet.current_hand is None or side is None or not viewer.may(Action.ENTER, side):
        return None
    form = entry_form(sheet.game, sheet.entry_ticks, formdata=None)
    form.hand.data = sheet.current_hand
    form.side.data = side.position
    cell = sheet.cell(sheet.current_hand, side)
    entry = cell.entry if cell is not None else None
    form.show(given_back or (entry.facts if entry else None), entry.revision if entry else 0)
    return form


def hand_entry_of(
    sheet: Sheet,
    viewer: Viewer,
    fills: tuple[StoredSide, ...],
    typed: dict[int, EntryFacts] | None = None,
) -> FlaskForm | None:
    """The host's one form for the open hand, when it may fill a side no phone holds (`fills`):
    that side's total (and its own side's, if it holds one), filled with what the cells hold,
    or with what the host typed in a form that was refused (`typed`, by column)."""
    number = sheet.current_hand
    if number is None or not fills:
        return None
    own = [viewer.side] if viewer.side is not None and viewer.may(Action.ENTER, viewer.side) else []
    offered = sorted([*own, *fills], key=lambda side: side.position)
    ticks = sheet.entry_ticks
    form = hand_form(
        sheet.game, len(sheet.sides), ticks, [side.position for side in offered], formdata=None
    )
    form.number = number
    form.offered = offered
    for side in offered:
        at = side.position
        cell = sheet.cell(number, side)
        entry = cell.entry if cell is not None else None
        form[f"revision_{at}"].data = entry.revision if entry else 0
        facts = (typed or {}).get(at) or (entry.facts if entry else None)
        if facts is not None:
            form[f"points_{at}"].data = facts.points
            for tick in ticks:
                form[f"{tick.key}_{at}"].data = facts.ticked(tick.key)
    return form
