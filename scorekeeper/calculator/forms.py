"""The calculator form, built from the game's own list of scoring rows."""

from __future__ import annotations

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import BooleanField, Field, IntegerField, RadioField, SelectChoice
from wtforms.validators import InputRequired, NumberRange, Optional
from wtforms.widgets import TextInput

from scorekeeper.forms import RELOAD, HiddenNumberField, KeyedForm, reason_field, whole_number
from scorekeeper.games import CalcField, Game, Table


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


def _field_for(calc: CalcField) -> Field:
    """The form field for one scoring row."""
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


def calculator_form(game: Game, table: Table, *args: object, **kwargs: object) -> FlaskForm:
    """The calculator for this table: one field per scoring row of its game."""
    calc_fields = game.calculator_fields(table)

    class CalculatorForm(KeyedForm):
        # Hidden: a page that sends them wrong is out of date (_breakdown.html says so).
        hand = HiddenNumberField(
            validators=[
                InputRequired(message=RELOAD),
                NumberRange(min=1, max=10_000, message=RELOAD),
            ]
        )
        revision = HiddenNumberField(
            validators=[Optional(), NumberRange(min=0, max=10**9, message=RELOAD)]
        )
        reason = reason_field()

    for calc in calc_fields:
        setattr(CalculatorForm, f"n_{calc.key}", _field_for(calc))
    # The ticks the counts cannot say, by their keys, as on the entry form.
    ticks = game.calculator_ticks(table)
    for tick in ticks:
        setattr(CalculatorForm, tick.key, BooleanField(tick.label))
    form = CalculatorForm(*args, **kwargs)
    form.calc_fields = calc_fields
    form.ticks = ticks
    return form


def ticked_on(form: FlaskForm) -> frozenset[str]:
    """The keys of the ticks ticked on a calculator form."""
    return frozenset(tick.key for tick in form.ticks if form[tick.key].data)


def counts_of(form: FlaskForm) -> dict[str, int]:
    """The counts typed into a calculator form, by scoring-row key."""
    return {calc.key: int(form[f"n_{calc.key}"].data or 0) for calc in form.calc_fields}


def fill(form: FlaskForm, counts: dict[str, int]) -> None:
    """Put stored counts back into the fields (reopening a calculator entry)."""
    for calc in form.calc_fields:
        field = form[f"n_{calc.key}"]
        value = counts.get(calc.key, 0)
        field.data = bool(value) if calc.kind == "flag" else value
