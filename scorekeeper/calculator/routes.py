"""The card-count calculator: a side's counts in, the game's breakdown out, into the same cell."""

from __future__ import annotations

from flask import Blueprint, abort, render_template, request
from flask.typing import ResponseReturnValue
from flask_wtf import FlaskForm

from scorekeeper.calculator.forms import calculator_form, counts_of, fill
from scorekeeper.forms import post_of
from scorekeeper.games import Calculation, CountError, EntryFacts
from scorekeeper.matches import answer, match_or_404, side_at
from scorekeeper.models import Match, Side
from scorekeeper.permissions import Action, Refusal, viewer_for
from scorekeeper.scoresheet import corrections, entries
from scorekeeper.scoresheet.sheet import Sheet, load_sheet
from scorekeeper.scoresheet.writing import Done

bp = Blueprint("calculator", __name__, url_prefix="/m")


def _calculator(
    match: Match, sheet: Sheet, side: Side, number: int, *, correcting: bool
) -> ResponseReturnValue:
    """Show, work out, or enter a calculator for one cell; a side's own or the host's
    correction. Counts an entry gives back (its hand completed before they arrived) are shown
    for the open hand, worked out, with why."""
    game, table = sheet.game, sheet.table
    if not game.calculator_fields(table):
        abort(404)
    cell = sheet.cell(number, side)
    form = calculator_form(game, table)
    preview: Calculation | None = None
    status = 200
    given_back: str | None = None
    if not form.is_submitted():
        form.hand.data = number
        form.revision.data = cell.entry.revision if cell and cell.entry else 0
        if cell and cell.entry and cell.entry.counts:
            fill(form, dict(cell.entry.counts))
            form.black_hand.data = cell.entry.black_hand
    elif form.validate_on_submit():
        counts = counts_of(form)
        try:
            preview = game.calculate(table, counts, sheet.held_going_into(number))
        except CountError as error:
            form[f"n_{error.field}"].errors.append(error.reason)
            status = 400
        else:
            if _entering():
                code = match.code  # read before the action commits (and expires the match)
                facts = EntryFacts(preview.total, counts, black_hand=bool(form.black_hand.data))
                try:
                    done = _enter(match, side, form.hand.data, facts, form, correcting)
                except Refusal as refusal:
                    if refusal.given_back is None:
                        raise
                    given_back = refusal.message
                else:
                    return answer(code, done)
    else:
        status = 400
    if given_back is not None:
        # Drawn again for the open hand and its cell as they stand, with the counts as typed
        # (a field draws what was posted before its data: that is forgotten here).
        form.hand.data = number
        form.revision.data = cell.entry.revision if cell and cell.entry else 0
        form.hand.raw_data = form.revision.raw_data = []
        status = 409
    template = (
        "calculator/_breakdown.html" if request.headers.get("X-Preview") else "calculator/calc.html"
    )
    return render_template(
        template,
        sheet=sheet,
        match=match,
        side=side,
        number=number,
        form=form,
        preview=preview,
        correcting=correcting,
        held=sheet.held_going_into(number),
        error=given_back,
    ), status


def _enter(
    match: Match, side: Side, number: int, facts: EntryFacts, form: FlaskForm, correcting: bool
) -> Done:
    """The worked-out counts into the cell: the side's entry, or the host's correction."""
    post = post_of(form)
    if correcting:
        fix = corrections.Fix(side, facts, form.revision.data or 0)
        return corrections.correct_cell(match, number, fix, form.reason.data or "", post)
    return entries.enter_hand(match, side, number, facts, post, form.revision.data)


@bp.route("/<code>/calc", methods=["GET", "POST"])
def for_my_side(code: str) -> ResponseReturnValue:
    """This phone's side works out its total for the open hand."""
    match = match_or_404(code)
    viewer = viewer_for(match)
    sheet = load_sheet(match)
    side, number = viewer.side, sheet.current_hand
    if side is None or number is None or not _entering():
        # Only this phone's side sees its calculator, for the open hand; counts entered are
        # checked by the entry itself, as every write is.
        viewer.require(Action.ENTER, side)
        if side is None or number is None:
            raise entries.no_open_hand(sheet)
    return _calculator(match, sheet, side, number, correcting=False)


def _entering() -> bool:
    """Whether this post enters the counts (rather than working them out to show)."""
    return request.method == "POST" and request.form.get("intent") == "enter"


@bp.route(
    "/<code>/hand/<int(min=1, max=10000):number>/side/<int(max=7):position>/calc",
    methods=["GET", "POST"],
)
def correct(code: str, number: int, position: int) -> ResponseReturnValue:
    """The host corrects a cell with the calculator (to mend a hand that doesn't add up)."""
    match = match_or_404(code)
    if not _entering():
        # Only the host sees it; a correction entered is checked by the correction itself.
        viewer_for(match).require(Action.CORRECT)
    return _calculator(match, load_sheet(match), side_at(match, position), number, correcting=True)
