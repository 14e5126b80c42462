"""The forms of the sheet: a side's entry, and the host's correction of a cell or a hand."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from typing import TYPE_CHECKING, Any

from flask import request
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext
from flask_wtf import FlaskForm
from wtforms import BooleanField, HiddenField, IntegerField, StringField
from wtforms.validators import InputRequired, Length, NumberRange, Optional, ValidationError

from scorekeeper.calculator.forms import count_field
from scorekeeper.forms import (
    ENTER_A_NUMBER,
    RELOAD,
    KeyedForm,
    PointsField,
    printable,
    reason_field,
)
from scorekeeper.games import EntryFacts, Game, Table
from scorekeeper.models import NOTE_LENGTH

if TYPE_CHECKING:
    from scorekeeper.models import StoredSide
    from scorekeeper.scoresheet.sheet import Sheet


def points_bounds(game: Game) -> str:
    """What a plain entry for one hand may be, in words, for a refused one."""
    # NOTE: %(noun)s is the game's word for a hand inside a sentence ("hand", Brisca's
    # "round"); %(low)s to %(num)d the points one may be worth.
    said = {"noun": game.hand_noun, "low": game.min_points}
    if game.deck_points:
        return ngettext(
            "A %(noun)s is worth %(low)s to %(num)d card point.",
            "A %(noun)s is worth %(low)s to %(num)d card points.",
            game.max_points,
            **said,
        )
    return ngettext(
        "A %(noun)s is worth %(low)s to %(num)d point.",
        "A %(noun)s is worth %(low)s to %(num)d points.",
        game.max_points,
        **said,
    )


def points_in_bounds(game: Game) -> Callable[[object, IntegerField], None]:
    """A validator refusing a total the game cannot produce in one hand, in points_bounds'
    words (worked out when it refuses, in the language of the phone that posted)."""

    def check(form: object, field: IntegerField) -> None:
        # No number at all is said by the field itself (blank, or typed wrong).
        if field.data is not None and not game.min_points <= field.data <= game.max_points:
            raise ValidationError(points_bounds(game))

    return check


# The ticks a cell may carry besides its points, as the forms label them.
TICKS = {
    "even_split": _l("Cards split evenly: nobody took the majority"),
    "last_trick": _l("Took the last trick"),
    "black_hand": _l("Black hand"),
}


class EntryForm(KeyedForm):
    """A side's plain total for the open hand."""

    hand = IntegerField(
        validators=[InputRequired(message=RELOAD), NumberRange(min=1, max=10_000, message=RELOAD)]
    )
    side = IntegerField(
        validators=[InputRequired(message=RELOAD), NumberRange(min=0, max=7, message=RELOAD)]
    )
    points = PointsField(
        _l("Points"),
        validators=[InputRequired(message=ENTER_A_NUMBER)],
        render_kw={"inputmode": "numeric"},
    )
    # The cell's revision the form was drawn with (0: empty), so a partner's or the host's
    # change made meanwhile is not silently replaced.
    revision = IntegerField(validators=[Optional(), NumberRange(min=0, max=10**9, message=RELOAD)])
    even_split = BooleanField(_l("Cards split evenly (26–26): nobody took the majority"))
    black_hand = BooleanField(_l("Black hand: we held Ace, Three and King of trumps"))

    def __init__(self, game: Game, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self.game = game

    def validate_points(self, field: IntegerField) -> None:
        """Refuse a total the game cannot produce in one hand."""
        points_in_bounds(self.game)(self, field)

    def show(self, facts: EntryFacts | None, revision: int) -> None:
        """Draw the form with a cell's values (none: empty), as of the cell's `revision`."""
        self.revision.data = revision
        if facts is not None:
            self.points.data = facts.points
            for tick in TICKS:
                if tick in self:
                    self[tick].data = getattr(facts, tick)

    def facts(self) -> EntryFacts:
        """What the form says the cell holds: its points and ticks (a tick it doesn't carry is
        unticked)."""
        ticked: dict[str, Any] = {tick: tick in self and bool(self[tick].data) for tick in TICKS}
        return EntryFacts(points=self.points.data or 0)._replace(**ticked)


def hand_form(
    game: Game,
    sides: int,
    ticks: tuple[str, ...],
    positions: Iterable[int] | None = None,
    *,
    table: Table | None = None,
    counted: Collection[int] = (),
    **kwargs: object,
) -> FlaskForm:
    """The host's form for a whole hand: each side's points and ticks, and the revision of
    each cell the host saw (points_0, revision_0, even_split_0, …), and one reason. Every
    side's, or (the open hand's, which the host fills for the sides no phone holds) the sides
    at `positions`; the sides at `counted` by their calculator's counts (of `table`)."""

    class HandForm(KeyedForm):
        reason = reason_field()

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
            IntegerField(
                validators=[
                    InputRequired(message=RELOAD),
                    NumberRange(min=0, max=10**9, message=RELOAD),
                ]
            ),
        )
        for tick in ticks:
            setattr(HandForm, f"{tick}_{at}", BooleanField(TICKS[tick]))
        if at in counted:
            # A cell counted with the calculator is corrected by its counts (its total is
            # what they work out to): c0_cards, c0_aces, …, and counted_0 saying so.
            setattr(HandForm, f"counted_{at}", HiddenField(default="1"))
            for calc in game.calculator_fields(table) if table is not None else ():
                setattr(HandForm, f"c{at}_{calc.key}", count_field(calc))
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
            form[f"{tick}_{at}"].data = getattr(facts, tick)
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


def hand_facts(form: FlaskForm, at: int, ticks: tuple[str, ...]) -> EntryFacts:
    """What the whole-hand form says the cell of the side at `at` holds: its points and
    ticks, or its calculator's counts (whose total the caller works out)."""
    ticked: dict[str, Any] = {
        tick: tick in ticks and bool(form[f"{tick}_{at}"].data) for tick in TICKS
    }
    facts = EntryFacts(points=form[f"points_{at}"].data or 0)._replace(**ticked)
    if f"counted_{at}" not in form:
        return facts
    prefix = f"c{at}_"
    counts = {
        field.name.removeprefix(prefix): int(field.data or 0)
        for field in form
        if field.name.startswith(prefix)
    }
    return facts._replace(counts=counts)


class CorrectionForm(EntryForm):
    """The host's new value for a cell, against the revision the host saw."""

    revision = IntegerField(
        validators=[InputRequired(message=RELOAD), NumberRange(min=0, max=10**9, message=RELOAD)]
    )
    last_trick = BooleanField(TICKS["last_trick"])
    reason = reason_field()


class NoteForm(KeyedForm):
    """The host's note on a match: where it was played, what was at stake."""

    note = StringField(
        _l("Note"),
        filters=[lambda text: text.strip() if isinstance(text, str) else text],
        validators=[
            Optional(),
            Length(
                max=NOTE_LENGTH,
                message=_l("Keep the note under %(num)d letters.", num=NOTE_LENGTH),
            ),
            printable,
        ],
    )
