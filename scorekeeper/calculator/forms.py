"""The calculator form, built from the game's own list of scoring rows."""

from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import BooleanField
from wtforms.validators import InputRequired, NumberRange, Optional

from scorekeeper.forms import RELOAD, HiddenNumberField, KeyedForm, count_input, reason_field
from scorekeeper.games import Game, Table


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
        setattr(CalculatorForm, f"n_{calc.key}", count_input(calc))
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
