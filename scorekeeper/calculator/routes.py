"""The card-count calculator: a side's counts in, the game's breakdown out, into the same cell."""

from __future__ import annotations

from flask import Blueprint, abort, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_wtf import FlaskForm

from scorekeeper import figures
from scorekeeper.calculator.forms import calculator_form, counts_of, fill, ticked_on
from scorekeeper.errors import Refusal
from scorekeeper.forms import post_of
from scorekeeper.games import Calculation, Conflict, CountError, EntryFacts, Game, Table
from scorekeeper.games.scoring import as_data
from scorekeeper.hand_forms import offers_whole_hand, whole_hand_form
from scorekeeper.languages import number as written
from scorekeeper.matches import answer, match_or_404, side_at
from scorekeeper.models import StoredMatch, StoredSide
from scorekeeper.phones.rules import Action, Viewer
from scorekeeper.phones.seats import viewer_for
from scorekeeper.scoresheet import corrections, entries
from scorekeeper.scoresheet.sheet import Sheet, load_sheet
from scorekeeper.scoresheet.writing import Done
from scorekeeper.terms import listed, say

bp = Blueprint("calculator", __name__, url_prefix="/m")


def _filling(sheet: Sheet, viewer: Viewer, side: StoredSide, number: int, correcting: bool) -> bool:
    """Whether the host's calculator for a cell fills it: the open hand of a side no phone
    holds, filled as that side's own calculator would (worded as its entry, told as it would
    be)."""
    cell = sheet.cell(number, side)
    return correcting and corrections.is_fill(
        sheet, number, side, cell.entry if cell else None, viewer
    )


def _drawn_for(filling: bool, correcting: bool) -> Action:
    """What a phone must be allowed to draw a cell's calculator (or its preview)."""
    return Action.FILL if filling else Action.CORRECT if correcting else Action.ENTER


def _facts(preview: Calculation, form: FlaskForm) -> EntryFacts:
    """The entry the counts typed make."""
    return EntryFacts(preview.total, counts_of(form), ticked_on(form))


def _work_out(
    sheet: Sheet,
    side: StoredSide,
    number: int,
    form: FlaskForm,
    *,
    beside: bool,
    viewer: Viewer,
) -> tuple[Calculation | None, list[Conflict]]:
    """The counts typed worked out for hand `number` (None, the reason on its count's field,
    if they can't be); and, `beside`, every way they can't be beside the other sides' entries
    (the entry's own check, said as the player types, before Enter), in words for `viewer`."""
    try:
        preview = sheet.game.calculate(sheet.table, counts_of(form), sheet.held_going_into(number))
    except CountError as error:
        form[f"n_{error.field}"].errors.append(say(error.reason))
        return None, []
    facts = _facts(preview, form)
    return preview, _beside(sheet, side, number, facts, viewer) if beside else []


def _calculator(
    match: StoredMatch,
    sheet: Sheet,
    viewer: Viewer,
    side: StoredSide,
    number: int,
    *,
    correcting: bool,
) -> ResponseReturnValue:
    """Show, work out (a phone without JavaScript), or enter a calculator for one cell: a
    side's own for the open hand, or the host's correction of hand `number`. Counts for a hand
    that completed before they arrived are shown for the open hand, worked out, with why (the
    entry's own check)."""
    # Drawing the page is for the phones that may use it; counts entered are checked by the
    # entry or correction itself, as every write is.
    filling = _filling(sheet, viewer, side, number, correcting)
    drawn_for = _drawn_for(filling, correcting)
    if not _entering():
        viewer.require(drawn_for, side)
    game, table = sheet.game, sheet.table
    if not game.calculator_fields(table):
        abort(404)
    form = calculator_form(game, table)
    preview: Calculation | None = None
    conflicts: list[Conflict] = []
    status = 200
    given_back: str | None = None
    typed: EntryFacts | None = None
    if not form.is_submitted():
        cell = sheet.cell(number, side)
        form.hand.data = number
        form.revision.data = cell.entry.revision if cell and cell.entry else 0
        if cell and cell.entry and cell.entry.facts.counts:
            fill(form, dict(cell.entry.facts.counts))
            for tick in form.ticks:
                form[tick.key].data = cell.entry.facts.ticked(tick.key)
    # What another side's entry already said of this hand (a bid, say): shown as said, sent
    # as it was said, and refused by the entry's own check if a forged page sends another.
    stated = game.stated_counts(table, entries.as_entered(sheet, number), side.position)
    if not form.is_submitted():
        for key, value in stated.items():
            form[f"n_{key}"].data = value
    elif form.validate_on_submit():
        # The host filling a side's cell is told as that side would be, as it types.
        beside = (filling or not correcting) and not _entering()
        preview, conflicts = _work_out(sheet, side, number, form, beside=beside, viewer=viewer)
        if preview is None:
            status = 400
        else:
            facts = _facts(preview, form)
            try:
                if _entering():
                    return answer(match.code, _enter(match, side, number, facts, form, correcting))
                if not correcting:
                    # Worked out for a hand that completed meanwhile: said now, not at Enter.
                    entries.check_open_hand(sheet, form.hand.data, viewer, facts)
            except Refusal as refusal:
                if refusal.given_back is None:
                    raise
                figures.refused("action")
                given_back, typed = refusal.message, refusal.given_back
    else:
        status = 400
    if status == 400 and _entering():
        viewer.require(drawn_for, side)
    if given_back is not None:
        # Drawn again, with the counts as typed (a field draws what was posted before its
        # data: that is forgotten here): a side's own for the open hand as the entry left it,
        # the host's for the cell it was correcting.
        sheet = load_sheet(match, corrections=False)
        if not correcting:
            if sheet.current_hand is None:
                raise entries.no_open_hand(sheet)
            number = sheet.current_hand
        cell = sheet.cell(number, side)
        preview, conflicts = _work_out(sheet, side, number, form, beside=True, viewer=viewer)
        form.hand.data = number
        form.revision.data = cell.entry.revision if cell and cell.entry else 0
        form.hand.raw_data = form.revision.raw_data = []
        status = 409
    offer = None
    if typed is not None and correcting and not filling and offers_whole_hand(sheet, number):
        # Refused because of the cells beside it: the way on is the whole hand's correction,
        # here, with these counts in it (a 26-26 made 27-25 one cell at a time).
        offer = whole_hand_form(sheet, number, (side, typed))
    # Each keystroke's breakdown, asked of the preview of this cell (a side's own or the
    # host's), by the page's script.
    preview_url = (
        url_for(
            "calculator.preview_correction", code=match.code, number=number, position=side.position
        )
        if correcting
        else url_for("calculator.preview_mine", code=match.code)
    )
    return render_template(
        "calculator/calc.html",
        preview_url=preview_url,
        sheet=sheet,
        match=match,
        side=side,
        number=number,
        form=form,
        preview=preview,
        conflicts=conflicts,
        # A fill is worded as the side's own entry: "Enter 40", no reason asked.
        correcting=correcting and not filling,
        held=sheet.held_over_said(number, worth=False),
        offer=offer,
        error=given_back,
        stated=stated,
        stated_by=_stated_by(sheet, side) if stated else None,
        offline=offline_scoring(game, table, sheet.held_going_into(number)),
    ), status


def offline_scoring(game: Game, table: Table, held_over: int) -> dict[str, object]:
    """What a calculator page's script works the counts out with when there is no connection
    (#calc-scoring, js/calculator.js): the game's declared scoring for a hand with `held_over`
    points held over (its labels in the reader's words), the bounds of each count, and how a
    number below zero is written. tests/browser/test_calculator_tables.py works it out in a
    browser as scoring.worked_out does here."""
    scoring = game.scoring(table, held_over)
    # A calculator's numbers stay under 1,000 (a game's max_points): digits, no groups; below
    # zero, as the page writes one, around its digits (the minus, and right to left its marks).
    seven = written(7)
    before, _, after = written(-7).partition(seven)
    return {
        **as_data(scoring, say),
        "fields": [
            [calc.key, calc.minimum, calc.maximum] for calc in game.calculator_fields(table)
        ],
        "minus": [before, after],
    }


def _stated_by(sheet: Sheet, side: StoredSide) -> str:
    """Who stated the counts this side's calculator takes as said: the other sides."""
    others = [other.name for other in sheet.sides if other.position != side.position]
    # NOTE: Beside a count another side already entered for the hand (a bid, say), which
    # this side's calculator shows and does not ask again; %(sides)s names the other side.
    return _("As %(sides)s entered it", sides=listed(others))


def _beside(
    sheet: Sheet, side: StoredSide, number: int, facts: EntryFacts, viewer: Viewer
) -> list[Conflict]:
    """Every way a side's counts can't stand beside what the other sides entered in hand
    `number` so far (the entry's own check, asked before Enter): to the host, who may write
    every cell, naming the side counted (entries.names_the_side)."""
    hand = entries.as_entered(sheet, number)
    me = side.name if entries.names_the_side(viewer) else None
    return sheet.game.entry_conflicts(sheet.table, hand, side.position, facts, me)


def _enter(
    match: StoredMatch,
    side: StoredSide,
    number: int,
    facts: EntryFacts,
    form: FlaskForm,
    correcting: bool,
) -> Done:
    """The worked-out counts into the cell: the host's correction of hand `number`, or the
    side's entry for the hand its form was drawn for."""
    post = post_of(form)
    if correcting:
        fix = corrections.Fix(side, facts, form.revision.data or 0)
        return corrections.correct_cell(match, number, fix, form.reason.data or "", post)
    return entries.enter_hand(match, side, form.hand.data, facts, post, form.revision.data)


@bp.route("/<code>/calc", methods=["GET", "POST"])
def for_my_side(code: str) -> ResponseReturnValue:
    """This phone's side works out its total for the open hand."""
    match = match_or_404(code)
    viewer = viewer_for(match)
    sheet, side, number = _my_cell(match, viewer)
    return _calculator(match, sheet, viewer, side, number, correcting=False)


def _my_cell(match: StoredMatch, viewer: Viewer) -> tuple[Sheet, StoredSide, int]:
    """The sheet (without the corrections trail, which the calculator doesn't show), this
    phone's side and the open hand; else the refusal that says why there is none."""
    sheet = load_sheet(match, corrections=False)
    side, number = viewer.side, sheet.current_hand
    if side is None or number is None:
        # No side of its own, or no hand open: the page says why (the entry would too).
        viewer.require(Action.ENTER, side)
        raise entries.no_open_hand(sheet)
    return sheet, side, number


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
    viewer, side = viewer_for(match), side_at(match, position)
    sheet = load_sheet(match, corrections=False)
    return _calculator(match, sheet, viewer, side, number, correcting=True)


@bp.route("/<code>/calc/preview")
def preview_mine(code: str) -> ResponseReturnValue:
    """The breakdown of the counts as this phone's side types them, for the open hand."""
    match = match_or_404(code)
    viewer = viewer_for(match)
    sheet, side, number = _my_cell(match, viewer)
    return _preview(sheet, viewer, side, number, correcting=False)


@bp.route("/<code>/hand/<int(min=1, max=10000):number>/side/<int(max=7):position>/calc/preview")
def preview_correction(code: str, number: int, position: int) -> ResponseReturnValue:
    """The breakdown of the counts as the host types them, correcting a cell."""
    match = match_or_404(code)
    viewer, side = viewer_for(match), side_at(match, position)
    return _preview(load_sheet(match, corrections=False), viewer, side, number, correcting=True)


def _preview(
    sheet: Sheet, viewer: Viewer, side: StoredSide, number: int, *, correcting: bool
) -> ResponseReturnValue:
    """Each keystroke's breakdown (calculator/_breakdown.html, all the page redraws): the
    counts in the query worked out and checked beside the others, as the calculator's page
    would, writing nothing. Counts it can't read are said in the breakdown (400)."""
    filling = _filling(sheet, viewer, side, number, correcting)
    viewer.require(_drawn_for(filling, correcting), side)
    game, table = sheet.game, sheet.table
    if not game.calculator_fields(table):
        abort(404)
    form = calculator_form(game, table, formdata=request.args)
    preview: Calculation | None = None
    conflicts: list[Conflict] = []
    status = 400
    if form.validate():
        beside = filling or not correcting
        preview, conflicts = _work_out(sheet, side, number, form, beside=beside, viewer=viewer)
    if preview is not None:
        status = 200
        if not correcting:
            try:
                entries.check_open_hand(sheet, form.hand.data, viewer, _facts(preview, form))
            except Refusal as refusal:
                if refusal.given_back is None:
                    raise
                # Drawn for a hand that completed meanwhile: worked out for the open one,
                # and Enter says why (the page's post, given back).
                status = 409
    page = render_template(
        "calculator/_breakdown.html",
        form=form,
        preview=preview,
        conflicts=conflicts,
        correcting=correcting and not filling,
    )
    # Of this moment's sheet and this phone: never kept to be shown again.
    return page, status, {"Cache-Control": "no-store"}
