"""The forms of the sheet: a side's entry, and the host's correction of a cell or a hand."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from flask import request
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext
from flask_wtf import FlaskForm
from wtforms import BooleanField, IntegerField, StringField
from wtforms.validators import InputRequired, Length, NumberRange, Optional, ValidationError

from scorekeeper.forms import (
    ENTER_A_NUMBER,
    RELOAD,
    HiddenNumberField,
    KeyedForm,
    PointsField,
    printable,
    reason_field,
)
from scorekeeper.games import EntryFacts, Game, Tick
from scorekeeper.models import NOTE_LENGTH


def points_bounds(game: Game) -> str:
    """What a plain entry for one hand may be, in words, for a refused one."""
    # NOTE: %(noun)s is the game's word for a hand inside a sentence ("hand", or
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


class EntryForm(KeyedForm):
    """A side's plain total for the open hand, with a yes or no for each tick its game asks
    (entry_form makes one for a table's ticks)."""

    hand = HiddenNumberField(
        validators=[InputRequired(message=RELOAD), NumberRange(min=1, max=10_000, message=RELOAD)]
    )
    side = HiddenNumberField(
        validators=[InputRequired(message=RELOAD), NumberRange(min=0, max=7, message=RELOAD)]
    )
    points = PointsField(
        _l("Points"),
        validators=[InputRequired(message=ENTER_A_NUMBER)],
        render_kw={"inputmode": "numeric"},
    )
    # The cell's revision the form was drawn with (0: empty), so a partner's or the host's
    # change made meanwhile is not silently replaced.
    revision = HiddenNumberField(
        validators=[Optional(), NumberRange(min=0, max=10**9, message=RELOAD)]
    )
    # The ticks this form asks, as the game declares them (entry_form sets them).
    ticks: tuple[Tick, ...] = ()

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
            for tick in self.ticks:
                self[tick.key].data = facts.ticked(tick.key)

    def facts(self) -> EntryFacts:
        """What the form says the cell holds: its points and ticks (a tick it doesn't ask is
        unticked)."""
        ticked = frozenset(tick.key for tick in self.ticks if self[tick.key].data)
        return EntryFacts(points=self.points.data or 0, ticks=ticked)


def entry_form(
    game: Game, ticks: tuple[Tick, ...], *args: object, correcting: bool = False, **kwargs: object
) -> EntryForm:
    """A side's entry form (or, `correcting`, the host's correction of one cell) asking the
    given ticks, each by its key, labelled as its game declares it."""
    base = CorrectionForm if correcting else EntryForm
    fields: dict[str, Any] = {tick.key: BooleanField(tick.label) for tick in ticks}
    form_class = type(base.__name__, (base,), {**fields, "ticks": ticks})
    return form_class(game, *args, **kwargs)


def hand_form(
    game: Game,
    sides: int,
    ticks: tuple[Tick, ...],
    positions: Iterable[int] | None = None,
    **kwargs: object,
) -> FlaskForm:
    """The host's form for a whole hand: each side's points and ticks, and the revision of
    each cell the host saw (points_0, revision_0, a tick's key with _0, …), and one reason. Every
    side's, or (the open hand's, which the host fills for the sides no phone holds) the sides
    at `positions`."""

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
            HiddenNumberField(
                validators=[
                    InputRequired(message=RELOAD),
                    NumberRange(min=0, max=10**9, message=RELOAD),
                ]
            ),
        )
        for tick in ticks:
            setattr(HandForm, f"{tick.key}_{at}", BooleanField(tick.label))
    return HandForm(**kwargs)


def posted_positions(sides: int) -> list[int]:
    """The columns a posted whole-hand form carries a total for (points_0, points_2, …)."""
    return [at for at in range(sides) if f"points_{at}" in request.form]


def hand_facts(form: FlaskForm, at: int, ticks: tuple[Tick, ...]) -> EntryFacts:
    """What the whole-hand form says the cell of the side at `at` holds."""
    ticked = frozenset(tick.key for tick in ticks if form[f"{tick.key}_{at}"].data)
    return EntryFacts(points=form[f"points_{at}"].data or 0, ticks=ticked)


class CorrectionForm(EntryForm):
    """The host's new value for a cell, against the revision the host saw."""

    revision = HiddenNumberField(
        validators=[InputRequired(message=RELOAD), NumberRange(min=0, max=10**9, message=RELOAD)]
    )
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
