"""The forms of the sheet: a side's entry, the host's correction, and the one-button actions."""

from __future__ import annotations

import uuid

from flask_wtf import FlaskForm
from wtforms import BooleanField, HiddenField, IntegerField, StringField
from wtforms.validators import (
    InputRequired,
    Length,
    NumberRange,
    Optional,
    Regexp,
    ValidationError,
)

from scorekeeper.games import Game

WHOLE_NUMBER = "Type the total as a whole number, like 48."


def printable(form: object, field: StringField) -> None:
    """Refuse control characters in a name or reason: they show as nothing and break storage."""
    if field.data and any(not ch.isprintable() for ch in field.data):
        raise ValidationError("Use letters, digits and punctuation only.")


def new_key() -> str:
    """An idempotency key for one rendering of a form: a resent post carries the same one."""
    return uuid.uuid4().hex


class PointsField(IntegerField):
    """A whole number as a phone types it: spaces trimmed, a typographic minus accepted."""

    def process_formdata(self, valuelist: list[str]) -> None:
        """Read the typed value, with our own words when it is not a whole number."""
        if not valuelist or valuelist[0] is None or not str(valuelist[0]).strip():
            self.data = None
            return
        text = str(valuelist[0]).strip().replace("\u2212", "-").replace(" ", "")
        try:
            self.data = int(text)
        except ValueError:
            self.data = None
            raise ValueError(WHOLE_NUMBER) from None
        if abs(self.data) > 10**6:
            self.data = None
            raise ValueError(WHOLE_NUMBER)


class KeyedForm(FlaskForm):
    """A form that carries its idempotency key, so a double tap records once.

    Its CSRF token is checked by CSRFProtect before any view runs (extensions.csrf), so the
    form itself neither checks it again nor signs a fresh one on every post; pages put the
    token in with csrf_token() (the form_secrets macro).
    """

    class Meta:
        csrf = False

    # The posted key; a fresh one for a form about to be shown (or a post from an old page).
    key = HiddenField(
        default=new_key,
        validators=[Optional(), Regexp(r"^[A-Za-z0-9_-]{1,64}$", message="Reload the page.")],
    )


class ActionForm(KeyedForm):
    """A one-button action: end, reopen, abandon, release, claim, last trick, hand over."""

    target = IntegerField(validators=[Optional(), NumberRange(min=0, max=10**9)])
    # The hand (Brisca's round) a button is about, where it matters: who took its last trick.
    hand = IntegerField(validators=[Optional(), NumberRange(min=1, max=10_000)])


class EntryForm(KeyedForm):
    """A side's plain total for the open hand."""

    hand = IntegerField(validators=[InputRequired(), NumberRange(min=1, max=10_000)])
    side = IntegerField(validators=[InputRequired(), NumberRange(min=0, max=7)])
    points = PointsField(
        "Points",
        validators=[InputRequired(message=WHOLE_NUMBER)],
        render_kw={"inputmode": "numeric"},
    )
    even_split = BooleanField("Cards split evenly (26–26): nobody took the majority")
    black_hand = BooleanField("Black hand: we held Ace, Three and King of trumps")

    def __init__(self, game: Game, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self.game = game

    def validate_points(self, field: IntegerField) -> None:
        """Refuse a total the game cannot produce in one hand."""
        low, high = self.game.min_points, self.game.max_points
        if field.data is not None and not low <= field.data <= high:
            unit = "card points" if self.game.target_unit == "rounds" else "points"
            raise ValidationError(f"A hand is worth {low} to {high} {unit}.")


class CorrectionForm(EntryForm):
    """The host's new value for a cell, against the revision the host saw."""

    revision = IntegerField(validators=[InputRequired(), NumberRange(min=0, max=10**9)])
    last_trick = BooleanField("Took the last trick")
    reason = StringField("Reason (optional)", validators=[Optional(), Length(max=200), printable])
