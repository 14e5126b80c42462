"""Forms of a group's pages: its name, a roster player's name, who this phone is, and New match
with its sides filled from the roster."""

from __future__ import annotations

from collections.abc import Sequence

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import IntegerField, SelectChoice, SelectField, StringField
from wtforms.validators import InputRequired, Length, NumberRange, Optional

from scorekeeper.forms import (
    NOT_A_CHOICE,
    RELOAD,
    KeyedForm,
    printable,
    table_rule_field,
    target_field,
)
from scorekeeper.games import Game, TableFormat

# Past any roster player's or phone's id: a larger one is junk, refused before any look-up.
MOST_ID = 10**9


def _name_field(label: object, required: bool) -> StringField:
    """A name of 40 letters at most, as a group or player is called."""
    return StringField(
        label,
        filters=[lambda text: text.strip() if isinstance(text, str) else text],
        validators=[
            InputRequired(message=_l("Type the player's name.")) if required else Optional(),
            Length(max=40, message=_l("Keep a name under 40 letters.")),
            printable,
        ],
        render_kw={"maxlength": 40, "autocomplete": "off"},
    )


class GroupNameForm(KeyedForm):
    """The group's name (Start a group, and the host's rename)."""

    name = _name_field(_l("The group's name"), required=False)


class PlayerForm(KeyedForm):
    """A roster player's name, added or changed by the host; `target` the player changed."""

    name = _name_field(_l("Player's name"), required=True)
    target = IntegerField(validators=[Optional(), NumberRange(min=0, max=MOST_ID, message=RELOAD)])


class PickForm(KeyedForm):
    """A one-button form about a player, a phone or a match of the group: `target` its id (a
    player for "I am", a phone of the group for the host role), `code` a match's."""

    target = IntegerField(validators=[Optional(), NumberRange(min=0, max=MOST_ID, message=RELOAD)])
    code = StringField(validators=[Optional(), Length(max=12, message=RELOAD)])


def seat_name(side: int, slot: int) -> str:
    """The field of one seat of New match: a side's place and the player's place on it."""
    return f"seat_{side}_{slot}"


def group_match_form(
    game: Game,
    table_format: TableFormat,
    sides: int,
    roster: Sequence[tuple[int, str]],
    *args: object,
    **kwargs: object,
) -> FlaskForm:
    """New match in a group: the target, the table rules, and each seat's roster player."""

    class GroupMatchForm(KeyedForm):
        pass

    GroupMatchForm.target = target_field(game)
    for rule in game.table_rules:
        # The table's format is chosen already (a tab of its own): only its rules are offered.
        if rule.applies_to(table_format.key):
            setattr(GroupMatchForm, f"rule_{rule.key}", table_rule_field(rule))
    choices = [SelectChoice("", "—")] + [SelectChoice(str(pid), name) for pid, name in roster]
    for side in range(sides):
        for slot in range(table_format.players_per_side):
            setattr(
                GroupMatchForm,
                seat_name(side, slot),
                SelectField(
                    _l("Side %(number)s", number=side + 1),
                    choices=choices,
                    default="",
                    invalid_choice_message=NOT_A_CHOICE,
                ),
            )
    return GroupMatchForm(*args, **kwargs)
