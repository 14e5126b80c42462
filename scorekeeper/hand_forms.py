"""The host's correction of a whole hand: drawn on the sheet's hand page, and offered by the
calculator beside a cell's correction refused because of the cells beside it (so it lives
below both blueprints)."""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import TYPE_CHECKING

from flask import request
from flask_wtf import FlaskForm
from wtforms import BooleanField, HiddenField
from wtforms.validators import InputRequired, NumberRange

from scorekeeper.forms import (
    ENTER_A_NUMBER,
    RELOAD,
    HiddenNumberField,
    KeyedForm,
    PointsField,
    count_input,
    points_in_bounds,
    reason_field,
)
from scorekeeper.games import EntryFacts, Game, Table, Tick

if TYPE_CHECKING:
    from scorekeeper.models import StoredSide
    from scorekeeper.scoresheet.sheet import Sheet


def hand_form(
    game: Game,
    sides: int,
    ticks: tuple[Tick, ...],
    positions: Iterable[int] | None = None,
    *,
    table: Table | None = None,
    counted: Collection[int] = (),
    **kwargs: object,
) -> FlaskForm:
    """The host's form for a whole hand: each side's points and ticks, and the revision of
    each cell the host saw (points_0, revision_0, a tick's key with _0, …), and one reason. Every
    side's, or (the open hand's, which the host fills for the sides no phone holds) the sides
    at `positions`; the sides at `counted` by their calculator's counts (of `table`)."""

    class HandForm(KeyedForm):
        reason = reason_field()
        # The calculator's rows a counted cell is corrected by, for the page to draw (a
        # template asks no game).
        calc_fields = game.calculator_fields(table) if counted and table is not None else ()

    for at in range(sides) if positions is None else positions:
        setattr(
            HandForm,
            f"points_{at}",
            PointsField(
                validators=[
                    InputRequired(message=ENTER_A_NUMBER),
                    # Not NumberRange: it would %-format the words, as translated.
                    points_in_bounds(game),
                ],
            ),
        )
        setattr(
            HandForm,
            f"revision_{at}",
            HiddenNumberField(
                validators=[
                    InputRequired(message=RELOAD),
                    NumberRange(min=0, max=10**9, message=RELOAD),
                ]
            ),
        )
        for tick in ticks:
            setattr(HandForm, f"{tick.key}_{at}", BooleanField(tick.label))
        if at in counted:
            # A cell counted with the calculator is corrected by its counts (its total is
            # what they work out to): c0_cards, c0_aces, …, and counted_0 saying so.
            setattr(HandForm, f"counted_{at}", HiddenField(default="1"))
            for calc in HandForm.calc_fields:
                setattr(HandForm, f"c{at}_{calc.key}", count_input(calc))
    return HandForm(**kwargs)


def offers_whole_hand(sheet: Sheet, number: int) -> bool:
    """Whether a cell's refused correction offers hand `number`'s whole correction: a hand
    every side entered (the open one is entered from the sheet's one form)."""
    return number <= len(sheet.hands) and number != sheet.current_hand


def whole_hand_form(
    sheet: Sheet, number: int, typed: tuple[StoredSide, EntryFacts] | None = None
) -> FlaskForm:
    """The whole hand's correction as drawn: every side's cell as it stands; or, offered
    beside a cell's correction refused because of the cells beside it (`typed`), that cell as
    the host typed it, to change the others beside it and save them together, every
    calculator cell by its counts (a 26–26 made 27–25 changes counts, not only totals)."""
    ticks = sheet.ticks
    shown: dict[int, tuple[EntryFacts | None, int]] = {}
    for side in sheet.sides:
        cell = sheet.cell(number, side)
        entry = cell.entry if cell is not None else None
        facts = typed[1] if typed and typed[0].id == side.id else entry.facts if entry else None
        shown[side.position] = (facts, entry.revision if entry else 0)
    counted = [
        at for at, (facts, _) in shown.items() if typed and facts and facts.counts is not None
    ]
    form = hand_form(
        sheet.game, len(sheet.sides), ticks, table=sheet.table, counted=counted, formdata=None
    )
    for at, (facts, revision) in shown.items():
        form[f"revision_{at}"].data = revision
        if facts is None:
            continue
        form[f"points_{at}"].data = facts.points
        for tick in ticks:
            form[f"{tick.key}_{at}"].data = facts.ticked(tick.key)
        for key, count in (facts.counts or {}).items():
            if f"c{at}_{key}" in form:
                field = form[f"c{at}_{key}"]
                field.data = bool(count) if isinstance(field, BooleanField) else count
    return form


def posted_positions(sides: int) -> list[int]:
    """The columns a posted whole-hand form carries a total for (points_0, points_2, …)."""
    return [at for at in range(sides) if f"points_{at}" in request.form]


def counted_positions(sides: int) -> list[int]:
    """The columns a posted whole-hand form corrects by their counts (counted_0, …)."""
    return [at for at in range(sides) if request.form.get(f"counted_{at}")]


def hand_facts(form: FlaskForm, at: int, ticks: tuple[Tick, ...]) -> EntryFacts:
    """What the whole-hand form says the cell of the side at `at` holds: its points and
    ticks, or its calculator's counts (whose total the caller works out)."""
    ticked = frozenset(tick.key for tick in ticks if form[f"{tick.key}_{at}"].data)
    facts = EntryFacts(points=form[f"points_{at}"].data or 0, ticks=ticked)
    if f"counted_{at}" not in form:
        return facts
    prefix = f"c{at}_"
    counts = {
        field.name.removeprefix(prefix): int(field.data or 0)
        for field in form
        if field.name.startswith(prefix)
    }
    return facts._replace(counts=counts)
