"""The forms of the sheet: a side's entry, the host's correction, and the one-button actions."""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Callable

from flask import request
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext
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
from scorekeeper.languages import language

# Lazy: each becomes words in the language of the phone that reads them (compare with str()).
WHOLE_NUMBER = _l("Type the total as a whole number, like 48.")
ENTER_A_NUMBER = _l("Enter a number.")
# What a field the page fills in itself (a hidden one, a button's) says when it came back
# wrong: only a page from an older version, or tampering, sends one.
RELOAD = _l("Reload the page.")

# The digits the players' keyboards type: ASCII; Arabic-Indic, as Egyptian and Levantine
# phones type them (the Basra tables); Extended Arabic-Indic, as Persian and Urdu keyboards do.
# Nothing else reads as a digit (int() alone would take fullwidth or Devanagari digits and
# "4_5"), and a space inside a number is a typo, not a separator.
DIGITS = {
    **{chr(ord("0") + d): d for d in range(10)},
    **{chr(0x0660 + d): d for d in range(10)},
    **{chr(0x06F0 + d): d for d in range(10)},
}
# A plain hyphen, or the typographic minus some keyboards give.
MINUS = ("-", "\u2212")
# More digits than any score: a longer "number" is a finger left on a key.
MOST_DIGITS = 7


def whole_number(typed: str) -> int:
    """A whole number as a phone types it, in any of DIGITS with a leading minus, spaces
    around it trimmed; ValueError with the words to show for anything else (ENTER_A_NUMBER
    for nothing at all)."""
    text = typed.strip()
    if not text:
        raise ValueError(ENTER_A_NUMBER)
    sign = 1
    if text.startswith(MINUS):
        sign, text = -1, text[1:]
    if not text or len(text) > MOST_DIGITS or any(ch not in DIGITS for ch in text):
        raise ValueError(WHOLE_NUMBER)
    value = 0
    for ch in text:
        value = value * 10 + DIGITS[ch]
    return sign * value


# Invisible but meant: the zero-width non-joiner and joiner of Persian names and of emoji
# sequences (a family, a flag).
JOINERS = {"\u200c", "\u200d"}


def printable(form: object, field: StringField) -> None:
    """Refuse control characters in a name or reason: they show as nothing and break storage."""
    if field.data and any(not ch.isprintable() and ch not in JOINERS for ch in field.data):
        raise ValidationError(_("Use letters, digits and punctuation only."))


def new_key() -> str:
    """An idempotency key for one rendering of a form: a resent post carries the same one."""
    return uuid.uuid4().hex


def what_was_posted() -> str:
    """A hash of this post: where it went and every value it carried but its key and CSRF
    token. A resent post gives the same; the same key with other values does not."""
    values = sorted(
        (name, value)
        for name, value in request.form.items(multi=True)
        if name not in ("key", "csrf_token")
    )
    seen = json.dumps([request.path, values], ensure_ascii=False)
    return hashlib.blake2s(seen.encode(), digest_size=16).hexdigest()


class PointsField(IntegerField):
    """A whole number as a phone types it (whole_number): blank, or anything but a number,
    is refused in our own words."""

    def process_formdata(self, valuelist: list[str]) -> None:
        """Read the typed value."""
        self.data = None
        if valuelist and valuelist[0] is not None:
            self.data = whole_number(str(valuelist[0]))


class PhoneForm(FlaskForm):
    """Every form here. WTForms' own few messages (a number field given letters) come in the
    phone's language from WTForms' catalogs, each read once per language (WTForms' cache), not
    on every request as Flask-WTF would (WTF_I18N_ENABLED is off in create_app)."""

    class Meta:
        @property
        def locales(self) -> list[str]:
            """The phone's language for WTForms' own messages; English if WTForms has no
            catalog for it (a language added here before WTForms speaks it)."""
            return [language(), "en"]


class KeyedForm(PhoneForm):
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
        validators=[Optional(), Regexp(r"^[A-Za-z0-9_-]{1,64}$", message=RELOAD)],
    )


def player_field() -> StringField:
    """The name of the person with this phone, as the claim, watch and create forms ask it."""
    return StringField(
        _l("Your name"),
        filters=[lambda text: text.strip() if isinstance(text, str) else text],
        validators=[
            Optional(),
            Length(max=40, message=_l("Keep your name under 40 letters.")),
            printable,
        ],
        render_kw={
            "autocomplete": "given-name",
            "maxlength": 40,
            "placeholder": _l("Your name"),
        },
    )


class ActionForm(KeyedForm):
    """A one-button action: end, reopen, abandon, release, claim, last trick, hand over."""

    target = IntegerField(validators=[Optional(), NumberRange(min=0, max=10**9, message=RELOAD)])
    # The hand (Brisca's round) a button is about, where it matters: who took its last trick.
    hand = IntegerField(validators=[Optional(), NumberRange(min=1, max=10_000, message=RELOAD)])
    # The second tap an action that can't be taken back asks for (its confirm page's button).
    confirmed = BooleanField()
    # Who is taking a side or watching (claim, watch).
    player = player_field()


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
        low, high = self.game.min_points, self.game.max_points
        if field.data is not None and not low <= field.data <= high:
            raise ValidationError(points_bounds(self.game))


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
        # As NumberRange: no number at all (one typed wrong) is out of bounds too.
        if field.data is None or not game.min_points <= field.data <= game.max_points:
            raise ValidationError(points_bounds(game))

    return check


def reason_field() -> StringField:
    """The host's optional reason for a correction, kept in the trail."""
    return StringField(
        _l("Reason (optional)"),
        validators=[
            Optional(),
            Length(max=200, message=_l("Keep the reason under 200 letters.")),
            printable,
        ],
    )


# The ticks a cell may carry besides its points, as the forms label them.
TICKS = {
    "even_split": _l("Cards split evenly: nobody took the majority"),
    "last_trick": _l("Took the last trick"),
    "black_hand": _l("Black hand"),
}


def hand_form(game: Game, sides: int, ticks: tuple[str, ...], **kwargs: object) -> FlaskForm:
    """The host's form for a whole hand: each side's points and ticks, and the revision of
    each cell the host saw (points_0, revision_0, even_split_0, …), and one reason."""

    class HandForm(KeyedForm):
        reason = reason_field()

    for at in range(sides):
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
    return HandForm(**kwargs)


class CorrectionForm(EntryForm):
    """The host's new value for a cell, against the revision the host saw."""

    revision = IntegerField(
        validators=[InputRequired(message=RELOAD), NumberRange(min=0, max=10**9, message=RELOAD)]
    )
    last_trick = BooleanField(TICKS["last_trick"])
    reason = reason_field()
