"""A side's total and the host's corrections: one cell or a whole hand at a time."""

from __future__ import annotations

from flask import (
    redirect,
    render_template,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from scorekeeper import figures
from scorekeeper.errors import Refusal
from scorekeeper.forms import post_of
from scorekeeper.games import CountError, EntryFacts, get_game
from scorekeeper.hand_forms import (
    counted_positions,
    hand_facts,
    hand_form,
    offers_whole_hand,
    posted_positions,
    whole_hand_form,
)
from scorekeeper.matches import answer, match_or_404, side_at
from scorekeeper.phones.rules import Action
from scorekeeper.phones.seats import viewer_for
from scorekeeper.scoresheet import corrections, entries
from scorekeeper.scoresheet.corrections import Fix, check_started
from scorekeeper.scoresheet.sheet import Sheet, load_sheet, table_of
from scorekeeper.sheet.blueprint import bp
from scorekeeper.sheet.forms import (
    entry_form,
)
from scorekeeper.sheet.render import render_match
from scorekeeper.terms import say


@bp.post("/<code>/enter")
def enter(code: str) -> ResponseReturnValue:
    """A side's total for the open hand."""
    match = match_or_404(code)
    game = get_game(match.game)
    form = entry_form(game, game.entry_ticks(table_of(match)))
    if not form.validate_on_submit():
        return render_match(
            match, entry_form=form, error=_("Nothing was saved: see below."), status=400
        )
    side = side_at(match, form.side.data)
    done = entries.enter_hand(
        match, side, form.hand.data, form.facts(), post_of(form), form.revision.data
    )
    return answer(match.code, done)


@bp.post("/<code>/hand/<int(min=1, max=10000):number>/enter")
def enter_whole_hand(code: str, number: int) -> ResponseReturnValue:
    """The host's one form for the open hand: every side it may enter or fill, at once."""
    match = match_or_404(code)
    sheet = load_sheet(match, corrections=False)
    ticks = sheet.entry_ticks
    positions = posted_positions(len(sheet.sides))
    form = hand_form(sheet.game, len(sheet.sides), ticks, positions)
    # Only a phone the sheet draws this form for (hand_entry_of: a hand open, a side it may
    # fill) is answered with it, even refused.
    if sheet.current_hand is None:
        raise entries.no_open_hand(sheet)
    viewer = viewer_for(match)
    if not viewer.may_fill(sheet.sides):
        viewer.require(Action.FILL, sheet.sides[positions[0] if positions else 0])
    if not positions or not form.validate_on_submit():
        # Drawn again for the hand open now (the one its page offers), as typed.
        form.number, form.offered = sheet.current_hand, [sheet.sides[at] for at in positions]
        return render_match(
            match, hand_entry=form, error=_("Nothing was saved: see below."), status=400
        )
    fixes = [
        Fix(sheet.sides[at], hand_facts(form, at, ticks), form[f"revision_{at}"].data)
        for at in positions
    ]
    try:
        done = corrections.fill_hand(match, number, fixes, post_of(form))
    except Refusal as refusal:
        figures.refused("action")
        # Refused as a whole: what was typed goes back into the form, to mend and enter again.
        typed = {fix.side.position: fix.facts for fix in fixes}
        return render_match(match, error=refusal.message, status=refusal.status, typed=typed)
    return answer(match.code, done)


@bp.route(
    "/<code>/hand/<int(min=1, max=10000):number>/side/<int(max=7):position>/correct",
    methods=["GET", "POST"],
)
def correct(code: str, number: int, position: int) -> ResponseReturnValue:
    """The host's correction of one cell (or filling a cell a side cannot)."""
    match = match_or_404(code)
    side = side_at(match, position)
    game = get_game(match.game)
    form = entry_form(game, game.ticks(table_of(match)), correcting=True)
    refused: Refusal | None = None
    if form.validate_on_submit():
        fix = Fix(side, form.facts(), form.revision.data)
        try:
            done = corrections.correct_cell(
                match, number, fix, form.reason.data or "", post_of(form)
            )
        except Refusal as refusal:
            if refusal.given_back is None:
                raise
            figures.refused("action")
            # Cells that can't stand together: this cell's form again as the host typed it,
            # saying why (not the open hand's entry form, where the value would be another
            # hand's).
            refused = refusal
        else:
            return answer(match.code, done)
    viewer = viewer_for(match).require(Action.CORRECT)
    sheet = load_sheet(match)
    cell = sheet.cell(number, side)
    filling = corrections.is_fill(sheet, number, side, cell.entry if cell else None, viewer)
    if filling:
        # The open hand's cell of a side a phone holds is that phone's to enter.
        viewer.require(Action.FILL, side)
    offer = None
    typed = refused.given_back if refused is not None else None
    if typed is not None and not filling and offers_whole_hand(sheet, number):
        # Refused because of the cells beside it: the way on is the whole hand's correction,
        # here, with what was typed for this cell (a 26-26 made 27-25 one cell at a time).
        offer = whole_hand_form(sheet, number, (side, typed))
    if not form.is_submitted():
        entry = cell.entry if cell else None
        form.hand.data = number
        form.side.data = position
        form.show(entry.facts if entry else None, entry.revision if entry else 0)
    return render_template(
        "sheet/correct.html",
        sheet=sheet,
        match=match,
        side=side,
        number=number,
        cell=cell,
        form=form,
        filling=filling,
        offer=offer,
        error=refused.message if refused else None,
    ), (refused.status if refused else 400 if form.is_submitted() else 200)


@bp.route("/<code>/hand/<int(min=1, max=10000):number>/correct", methods=["GET", "POST"])
def correct_hand(code: str, number: int) -> ResponseReturnValue:
    """The host corrects every side's cell of one hand in one form."""
    match = match_or_404(code)
    sheet = load_sheet(match)
    ticks = sheet.ticks
    if request.method == "POST":
        counted = counted_positions(len(sheet.sides))
        form = hand_form(sheet.game, len(sheet.sides), ticks, table=sheet.table, counted=counted)
    else:
        form = whole_hand_form(sheet, number)
    if form.validate_on_submit():
        try:
            fixes = [
                Fix(
                    side,
                    _counted(sheet, number, hand_facts(form, at, ticks)),
                    form[f"revision_{at}"].data,
                )
                for at, side in enumerate(sheet.sides)
            ]
            done = corrections.correct_hand(
                match, number, fixes, form.reason.data or "", post_of(form)
            )
        except Refusal as refusal:
            if refusal.given_back is None:
                raise
            figures.refused("action")
            # Cells that can't stand together: the form again as the host filled it, saying why.
            return render_template(
                "sheet/hand.html",
                sheet=load_sheet(match),
                match=match,
                number=number,
                form=form,
                ticks=ticks,
                error=refusal.message,
            ), refusal.status
        return answer(match.code, done)
    viewer_for(match).require(Action.CORRECT)
    if number == sheet.current_hand:
        # The open hand is entered, not corrected: the sheet's form does it, for the sides
        # this phone may enter (its own) or fill (those no phone holds).
        return redirect(url_for("sheet.match", code=match.code, _anchor="entry"))
    check_started(sheet, number, len(sheet.hands))
    return render_template(
        "sheet/hand.html", sheet=sheet, match=match, number=number, form=form, ticks=ticks
    ), (400 if form.is_submitted() else 200)


def _counted(sheet: Sheet, number: int, facts: EntryFacts) -> EntryFacts:
    """A whole hand's cell as it will be stored: where the form corrects it by its counts
    (offered beside a refused correction), the total they work out to, not the number in the
    field; counts that can't be are refused, the form given back."""
    if facts.counts is None:
        return facts
    try:
        worked = sheet.game.calculate(sheet.table, facts.counts, sheet.held_going_into(number))
    except CountError as error:
        raise Refusal(say(error.reason), 400, sheet.match, given_back=facts) from None
    return facts._replace(points=worked.total)
