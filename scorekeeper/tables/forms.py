"""Forms for setting up a table: creating a match and joining one by its code."""

from __future__ import annotations

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import pgettext
from flask_wtf import FlaskForm
from wtforms import Field, RadioField, SelectChoice, SelectField, StringField
from wtforms.validators import InputRequired, Length, Optional

from scorekeeper.forms import (
    NOT_A_CHOICE,
    KeyedForm,
    PhoneForm,
    player_field,
    printable,
    table_rule_field,
    target_field,
)
from scorekeeper.games import Game
from scorekeeper.scoresheet.setup import side_name


class JoinForm(PhoneForm):
    """The short code typed in from the host's screen: a match's, or a group's (it opens the
    group's page)."""

    code = StringField(
        _l("Match or group code"),
        validators=[
            InputRequired(message=_l("Type the code shown on the host's phone.")),
            Length(max=20, message=_l("A match code is 6 letters and digits.")),
        ],
        render_kw={"autocapitalize": "characters", "autocomplete": "off", "spellcheck": "false"},
    )


def new_match_form(game: Game, *args: object, **kwargs: object) -> FlaskForm:
    """The create form for one game: its formats, targets and table rules, and the names."""

    # Keyed: a double tap on "Create match", or a resend after a lost answer, makes one match.
    class NewMatchForm(KeyedForm):
        # The form is built for each request, so pgettext (which the extractor knows) will do.
        table_format = RadioField(
            # NOTE: The heading of the choice of how the table is seated (head to head, partners).
            pgettext("how the table is seated", "Table"),
            choices=[SelectChoice(f.key, f.label) for f in game.formats],
            default=game.formats[0].key,
            validators=[InputRequired(message=_l("Choose how the table is seated."))],
            invalid_choice_message=NOT_A_CHOICE,
        )
        player = player_field()
        # Its choices name the sides as typed: given once the form has read them (below).
        host_side = SelectField(
            _l("This phone plays on"), default="0", invalid_choice_message=NOT_A_CHOICE
        )

    NewMatchForm.target = target_field(game)
    for rule in game.table_rules:
        setattr(NewMatchForm, f"rule_{rule.key}", table_rule_field(rule))
    for i in range(game.max_sides):
        setattr(
            NewMatchForm,
            f"side_{i}",
            StringField(
                _l("Side %(number)s", number=i + 1),
                validators=[
                    Optional(),
                    Length(max=40, message=_l("Keep a name under 40 letters.")),
                    printable,
                ],
                render_kw={
                    "placeholder": _l("Side %(number)s", number=i + 1),
                    "autocomplete": "off",
                },
            ),
        )
        setattr(
            NewMatchForm,
            f"players_{i}",
            StringField(
                _l("Players"),
                validators=[
                    Optional(),
                    Length(max=200, message=_l("Keep the names under 200 letters.")),
                    printable,
                ],
                # The field's name alone, as "(optional)" was cut at 360 px; the hint above
                # the sides says they are optional.
                render_kw={"placeholder": _l("Players"), "autocomplete": "off"},
            ),
        )
    form = NewMatchForm(*args, **kwargs)
    # By the names typed, as js/forms.js renames them while the host types: so a form drawn again
    # after a refusal, or on a phone without JavaScript, offers "Grandma", not "Side 1".
    form.host_side.choices = [
        SelectChoice(str(i), side_name(form[f"side_{i}"].data or "", i))
        for i in range(game.max_sides)
    ] + [SelectChoice("-1", _("No side: I only keep the sheet"))]
    return form


def fields(form: FlaskForm, prefix: str) -> list[Field]:
    """The form's fields whose names start with a prefix, in order (side names, table rules)."""
    return [field for field in form if field.name.startswith(prefix)]
