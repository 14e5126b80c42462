"""What every form here shares: numbers as phones type them, names and reasons, the
idempotency key, the one-button action form, the post as an action takes it, New match's target
and table rules, a hand's points in bounds and a calculator row's field."""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Callable

from flask import request
from flask_babel import LazyString, ngettext
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import (
    BooleanField,
    Field,
    HiddenField,
    IntegerField,
    RadioField,
    SelectChoice,
    SelectField,
    StringField,
)
from wtforms.validators import (
    InputRequired,
    Length,
    NumberRange,
    Optional,
    Regexp,
    ValidationError,
)
from wtforms.widgets import HiddenInput, TextInput

from scorekeeper.games import CalcField, Game, TableRule
from scorekeeper.languages import language
from scorekeeper.phones.identity import current_phone
from scorekeeper.scoresheet.writing import Post
from scorekeeper.words import setup as setup_words

# Lazy: each becomes words in the language of the phone that reads them (compare with str()).
WHOLE_NUMBER = _l("Type the total as a whole number, like 48.")
ENTER_A_NUMBER = _l("Enter a number.")
# What a field the page fills in itself (a hidden one, a button's) says when it came back
# wrong: only a page from an older version, or tampering, sends one.
RELOAD = _l("Reload the page.")

# The digits the players' keyboards type: ASCII; Arabic-Indic, as Egyptian and Levantine
# phones type them; Extended Arabic-Indic, as Persian and Urdu keyboards do.
# Nothing else reads as a digit (int() alone would take fullwidth or Devanagari digits and
# "4_5"), and a space inside a number is a typo, not a separator. In runs of ten, 0 to 9: the
# calculator's steppers read a digit's value from its place (static/js/forms.js).
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


def post_of(form: KeyedForm, phone: str | None = None) -> Post:
    """This request's post as an action takes it: the phone that sent it (this request's, or
    `phone` just made for it), the form's key, and a hash of where it went and every value it
    carried but its key and CSRF token. A resent post gives the same hash; the same key with
    other values does not."""
    values = sorted(
        (name, value)
        for name, value in request.form.items(multi=True)
        if name not in ("key", "csrf_token")
    )
    seen = json.dumps([request.path, values], ensure_ascii=False)
    digest = hashlib.blake2s(seen.encode(), digest_size=16).hexdigest()
    return Post(phone or current_phone(), form.key.data or None, digest)


class PointsField(IntegerField):
    """A whole number as a phone types it (whole_number): blank, or anything but a number,
    is refused in our own words."""

    # Typed as text with the number pad (inputmode), not type=number (Chromium's drops the
    # Arabic-Indic digits the server reads): a text field, which carries no min or max.
    widget = TextInput()

    def process_formdata(self, valuelist: list[str]) -> None:
        """Read the typed value."""
        self.data = None
        if valuelist and valuelist[0] is not None:
            self.data = whole_number(str(valuelist[0]))


class HiddenNumberField(IntegerField):
    """A number the page itself fills in (a hand, a side, a cell's revision), in a hidden
    field: its bounds are the server's to check, not the field's (a hidden field carries no
    min, max or required)."""

    widget = HiddenInput()


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

    target = HiddenNumberField(
        validators=[Optional(), NumberRange(min=0, max=10**9, message=RELOAD)]
    )
    # The hand a button is about, where it matters: the tied hand a tap settles.
    hand = HiddenNumberField(
        validators=[Optional(), NumberRange(min=1, max=10_000, message=RELOAD)]
    )
    # The second tap an action that can't be taken back asks for (its confirm page's button).
    confirmed = BooleanField()
    # Who is taking a side or watching (claim, watch).
    player = player_field()


# What a choice field says of a value that is none of its choices (a forged or stale form).
NOT_A_CHOICE = _l("Not a valid choice.")
# More targets than this are a list to pick from rather than a column of radio buttons.
MOST_TARGET_BUTTONS = 5


class TargetField(PointsField):
    """A free target as the host types it: read as every number here is (whole_number)."""

    def process_formdata(self, valuelist: list[str]) -> None:
        """Read the typed target, in words about a target."""
        try:
            super().process_formdata(valuelist)
        except ValueError as error:
            if str(error) == ENTER_A_NUMBER:
                raise
            raise ValueError(_("Type the points that win as a whole number, like 500.")) from None


def target_field(game: Game) -> Field:
    """New match's target, for a match made from Home or from a group's page alike: the game's
    targets to pick from, or a target typed where the game leaves it free."""
    if not game.target_typed:
        # A few targets are radio buttons to tap; a game's ten or more are a list.
        choice_field = RadioField if len(game.targets) <= MOST_TARGET_BUTTONS else SelectField
        return choice_field(
            _l("Target"),
            choices=[SelectChoice(str(t), game.target_label(t)) for t in game.targets],
            default=str(game.default_target),
            # Worded once, as the refusal of a target the game doesn't offer is.
            validators=[InputRequired(message=LazyString(setup_words.choose_the_target))],
            invalid_choice_message=NOT_A_CHOICE,
            # A list always has one chosen (the default), so it is not marked required: HTML
            # asks a required list to open on an empty choice, which this one has none of.
            render_kw={"required": False},
        )
    return TargetField(
        _l("Target (points)"),
        default=game.default_target,
        validators=[
            InputRequired(message=_l("Type the points that win, like 500.")),
            NumberRange(
                min=1,
                max=100_000,
                # NOTE: %(least)s and %(most)s are the lowest and highest targets.
                message=_l("A target is %(least)s to %(most)s points.", least=1, most=100_000),
            ),
        ],
        render_kw={"inputmode": "numeric"},
    )


def table_rule_field(rule: TableRule) -> RadioField:
    """One of the game's table rules, as New match offers it (the table agrees on it)."""
    return RadioField(
        rule.label,
        choices=[SelectChoice(value, label) for value, label in rule.choices],
        default=rule.default,
        invalid_choice_message=NOT_A_CHOICE,
    )


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


class CountField(IntegerField):
    """A count from a side's pile: blank means none, anything but a whole number is refused.

    None is shown blank (with a grey "0" placeholder) rather than as a "0" the player must
    delete first: a thumb tapping the field and typing 30 would make it "300"."""

    # A text field with the number pad, as every number here is typed (forms.PointsField):
    # its bounds go to the steppers as data-min and data-max, a text field having no min/max.
    widget = TextInput()

    data: int | None

    def _value(self) -> str:
        """The count as the field shows it: blank for none, what was typed if it was refused."""
        if self.raw_data:
            return str(self.raw_data[0])
        return str(self.data) if self.data else ""

    def process_formdata(self, valuelist: list[str]) -> None:
        """Read the typed count in our own words."""
        text = str(valuelist[0]).strip() if valuelist and valuelist[0] is not None else ""
        if not text:
            self.data = 0
            return
        try:
            self.data = whole_number(text)
        except ValueError:
            self.data = None
            raise ValueError(_("Type a count as a whole number, like 3.")) from None


def count_input(calc: CalcField) -> Field:
    """The form field for one scoring row of a game's calculator (games.CalcField): the
    calculator's own, and the whole-hand correction's for a cell counted with it."""
    if calc.kind == "flag":
        return BooleanField(calc.label, description=calc.hint)
    if calc.kind == "choice":
        return RadioField(
            calc.label,
            choices=[SelectChoice(str(value), label) for value, label in calc.choices],
            coerce=int,
            default=calc.choices[0][0],
            description=calc.hint,
            validators=[InputRequired(message=_l("Choose one."))],
            invalid_choice_message=_l("Not a valid choice."),
        )
    return CountField(
        calc.label,
        default=0,
        description=calc.hint,
        validators=[
            NumberRange(
                min=calc.minimum,
                max=calc.maximum,
                # NOTE: A count out of its bounds: "Aces: 0 to 4." (%(label)s is the row's
                # name, %(minimum)s and %(maximum)s the fewest and most it can be).
                message=_l(
                    "%(label)s: %(minimum)s to %(maximum)s.",
                    label=calc.label,
                    minimum=calc.minimum,
                    maximum=calc.maximum,
                ),
            )
        ],
        render_kw={
            "inputmode": "numeric",
            "data-min": calc.minimum,
            "data-max": calc.maximum,
            "placeholder": "0",
        },
    )
