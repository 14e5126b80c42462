"""The forms of the sheet: a side's entry, and the host's correction of a cell or a note (the
whole hand's correction is shared with the calculator: scorekeeper/hand_forms.py)."""

from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext as _l
from wtforms import BooleanField, IntegerField, StringField
from wtforms.validators import InputRequired, Length, NumberRange, Optional

from scorekeeper.forms import (
    ENTER_A_NUMBER,
    RELOAD,
    HiddenNumberField,
    KeyedForm,
    PointsField,
    points_in_bounds,
    printable,
    reason_field,
)
from scorekeeper.games import EntryFacts, Game, Tick
from scorekeeper.models import NOTE_LENGTH


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
