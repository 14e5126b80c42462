"""The card-count calculator: a side's counts in, the game's breakdown out, into the same cell."""

from __future__ import annotations

from flask import Blueprint, abort, render_template, request
from flask_babel import gettext as _

from scorekeeper.calculator.forms import calculator_form, counts_of, fill
from scorekeeper.games import Calculation, CountError, EntryFacts
from scorekeeper.matches import answer, match_or_404, side_at
from scorekeeper.models import Match, Side
from scorekeeper.permissions import Action, Refusal, viewer_for
from scorekeeper.sheet import actions
from scorekeeper.sheet.state import Sheet, load_sheet

bp = Blueprint("calculator", __name__, url_prefix="/m")


def held_going_into(sheet: Sheet, number: int) -> int:
    """Majority points held over into a hand (Basra's carry-over; 0 for other games)."""
    if number <= len(sheet.state.hands):
        return sheet.state.hands[number - 1].held_over
    return sheet.state.held_over


def _calculator(  # type: ignore[no-untyped-def]
    match: Match,
    sheet: Sheet,
    side: Side,
    number: int,
    *,
    correcting: bool,
    moved_on: str | None = None,
):
    """Show, work out, or enter a calculator for one cell; a side's own or the host's
    correction. `moved_on` says why counts posted for another hand are shown for this one,
    worked out and not entered."""
    game, table = sheet.game, sheet.table
    if not game.calculator_fields(table):
        abort(404)
    cell = sheet.cell(number, side)
    form = calculator_form(game, table)
    preview: Calculation | None = None
    status = 200
    if not form.is_submitted():
        form.hand.data = number
        form.revision.data = cell.entry.revision if cell and cell.entry else 0
        if cell and cell.entry and cell.entry.counts:
            fill(form, dict(cell.entry.counts))
            form.black_hand.data = cell.entry.black_hand
    elif form.validate_on_submit():
        counts = counts_of(form)
        try:
            preview = game.calculate(table, counts, held_going_into(sheet, number))
        except CountError as error:
            form[f"n_{error.field}"].errors.append(error.reason)
            status = 400
        else:
            if request.form.get("intent") == "enter" and moved_on is None:
                code = match.code  # read before the action commits (and expires the match)
                facts = EntryFacts(
                    points=preview.total, counts=counts, black_hand=bool(form.black_hand.data)
                )
                if correcting:
                    done = actions.correct_cell(
                        match,
                        side,
                        number,
                        facts,
                        form.revision.data or 0,
                        form.reason.data or "",
                        form.key.data,
                    )
                else:
                    done = actions.enter_hand(
                        match, side, number, facts, form.key.data, form.revision.data
                    )
                return answer(code, done)
    else:
        status = 400
    if moved_on is not None:
        # Drawn again for this hand and its cell as they stand, with the counts as typed (a
        # field draws what was posted before its data: that is forgotten here).
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
        held=held_going_into(sheet, number),
        error=moved_on,
    ), status


@bp.route("/<code>/calc", methods=["GET", "POST"])
def for_my_side(code: str):  # type: ignore[no-untyped-def]
    """This phone's side works out its total for the open hand."""
    match = match_or_404(code)
    viewer = viewer_for(match)
    viewer.require(Action.ENTER, viewer.side)
    sheet = load_sheet(match)
    number = sheet.current_hand
    if number is None:
        raise Refusal(_("No hand is open for entries."), 409, match)
    posted = request.form.get("hand", type=int)
    if request.method == "POST" and posted is not None and posted != number:
        # The hand completed while this phone was counting: the counts would land in the wrong
        # row, so they are shown again for the open hand, to enter if they are its own.
        said = {
            "hand": sheet.game.hand_word,
            "noun": sheet.game.hand_noun,
            "posted": posted,
            "number": number,
        }
        if viewer.is_host:
            # NOTE: %(hand)s is the game's word for a hand ("Hand", Brisca's "Round"), %(noun)s
            # the same inside a sentence; %(posted)s and %(number)s are hand numbers.
            moved_on = _(
                "%(hand)s %(posted)s was complete before your counts arrived, so they were not "
                "saved. They are below for %(noun)s %(number)s: enter them if they are that "
                "%(noun)s's; to change %(noun)s %(posted)s, tap its cell on the sheet.",
                **said,
            )
        else:
            # NOTE: as the message before, to a phone that is not the host's.
            moved_on = _(
                "%(hand)s %(posted)s was complete before your counts arrived, so they were not "
                "saved: only the host can change %(noun)s %(posted)s now. They are below for "
                "%(noun)s %(number)s: enter them if they are that %(noun)s's.",
                **said,
            )
        return _calculator(match, sheet, viewer.side, number, correcting=False, moved_on=moved_on)
    return _calculator(match, sheet, viewer.side, number, correcting=False)


@bp.route(
    "/<code>/hand/<int(min=1, max=10000):number>/side/<int(max=7):position>/calc",
    methods=["GET", "POST"],
)
def correct(code: str, number: int, position: int):  # type: ignore[no-untyped-def]
    """The host corrects a cell with the calculator (to mend a hand that doesn't add up)."""
    match = match_or_404(code)
    viewer_for(match).require(Action.CORRECT)
    return _calculator(match, load_sheet(match), side_at(match, position), number, correcting=True)
