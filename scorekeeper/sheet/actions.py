"""The match page's other buttons: claiming a side or watching, a name and the note, settling
a tie, End match and the other taps, the dealer, and the host's tools that ask for a second
tap (abandon, release, hand over)."""

from __future__ import annotations

from collections.abc import Callable

from flask import (
    render_template,
    request,
)
from flask.typing import ResponseReturnValue

from scorekeeper.errors import Refusal
from scorekeeper.forms import ActionForm, post_of
from scorekeeper.matches import answer, match_or_404, side_at
from scorekeeper.models import StoredMatch, StoredSeat
from scorekeeper.phones.identity import ensure_phone, remember_name
from scorekeeper.phones.rules import Action
from scorekeeper.phones.seats import viewer_for
from scorekeeper.scoresheet import entries, life, seats
from scorekeeper.scoresheet.writing import Done, Post
from scorekeeper.sheet.blueprint import bp
from scorekeeper.sheet.forms import (
    NoteForm,
)
from scorekeeper.words import confirming, refusals


def _action_form(match: StoredMatch) -> ActionForm:
    """A one-button form, validated (CSRF, key, target) or refused on the match page."""
    form = ActionForm()
    if not form.validate_on_submit():
        if form.player.errors:
            raise Refusal(refusals.name_refused(form.player.errors[0]), 400, match)
        raise Refusal(refusals.form_incomplete(), 400, match)
    return form


@bp.post("/<code>/claim")
def claim(code: str) -> ResponseReturnValue:
    """This phone claims a side."""
    match = match_or_404(code)
    form = _action_form(match)
    side = side_at(match, form.target.data)
    player = form.player.data or ""
    done = seats.claim_side(match, side, post_of(form, ensure_phone()), player)
    remember_name(player)
    return answer(match.code, done)


@bp.post("/<code>/watch")
def watch(code: str) -> ResponseReturnValue:
    """This phone watches read-only."""
    match = match_or_404(code)
    form = _action_form(match)
    player = form.player.data or ""
    done = seats.watch(match, post_of(form, ensure_phone()), player)
    remember_name(player)
    return answer(match.code, done)


@bp.route("/<code>/name", methods=["GET", "POST"])
def rename(code: str) -> ResponseReturnValue:
    """The person with this phone gives or changes their name at this match."""
    match = match_or_404(code)
    if request.method == "POST":
        form = _action_form(match)
        player = form.player.data or ""
        done = seats.rename_player(match, player, post_of(form))
        remember_name(player)
        return answer(match.code, done)
    viewer = viewer_for(match).require(Action.RENAME)
    return render_template("sheet/name.html", match=match, viewer=viewer)


@bp.route("/<code>/note", methods=["GET", "POST"])
def note(code: str) -> ResponseReturnValue:
    """The host writes the match's note: where it was played, what was at stake."""
    match = match_or_404(code)
    form = NoteForm()
    if form.validate_on_submit():
        return answer(match.code, life.write_note(match, form.note.data or "", post_of(form)))
    viewer_for(match).require(Action.NOTE)
    if not form.is_submitted():
        form.note.data = match.note
    return render_template("sheet/note.html", match=match, form=form), (
        400 if form.is_submitted() else 200
    )


@bp.post("/<code>/settle")
def settle(code: str) -> ResponseReturnValue:
    """Which tied side settles a hand that waits for its game's settling tick (who took
    the last trick of a round tied at the top)."""
    match = match_or_404(code)
    form = _action_form(match)
    taker = side_at(match, form.target.data)
    # The hand the button was drawn for: under the lock, the action refuses it unless that
    # very hand still waits (a page from before another hand tied is out of date).
    number = form.hand.data or 0
    return answer(match.code, entries.settle_tie(match, number, taker, post_of(form)))


# The one-button actions that need nothing but the tap, by the last part of their path: End
# match (offered once the game's rule says a side has won), the host's Reopen match, Rematch
# (the same settings and names again), and the host closing the table to new phones and
# opening it again.
TAPS: dict[str, Callable[[StoredMatch, Post], Done]] = {
    "end": life.end_match,
    "reopen": life.reopen_match,
    "rematch": life.rematch,
    "close": seats.close_table,
    "open": seats.open_table,
}


@bp.post("/<code>/<any(end, reopen, rematch, close, open):tap>")
def tapped(code: str, tap: str) -> ResponseReturnValue:
    """A one-button action of the match page (TAPS)."""
    match = match_or_404(code)
    return answer(match.code, TAPS[tap](match, post_of(_action_form(match))))


@bp.post("/<code>/dealer")
def dealer(code: str) -> ResponseReturnValue:
    """The host says who dealt the first hand."""
    match = match_or_404(code)
    form = _action_form(match)
    return answer(match.code, seats.pick_dealer(match, form.target.data, post_of(form)))


@bp.route("/<code>/abandon", methods=["GET", "POST"])
def abandon(code: str) -> ResponseReturnValue:
    """The host abandons the match, with a second tap on its confirm page."""
    match = match_or_404(code)
    form = _confirmed_form(match)
    if form is None:
        return _confirm_page(match, Action.ABANDON, confirming.abandon())
    return answer(match.code, life.abandon_match(match, post_of(form)))


@bp.route("/<code>/release", methods=["GET", "POST"])
def release(code: str) -> ResponseReturnValue:
    """The host frees a side whose phone is gone, with a second tap on its confirm page."""
    match = match_or_404(code)
    form = _confirmed_form(match)
    if form is None:
        side = side_at(match, _target())
        return _confirm_page(
            match,
            Action.RELEASE,
            confirming.release(side.name, match.closed),
            target=side.position,
        )
    side = side_at(match, form.target.data)
    return answer(match.code, seats.release_side(match, side, post_of(form)))


@bp.route("/<code>/host", methods=["GET", "POST"])
def hand_over(code: str) -> ResponseReturnValue:
    """The host hands the host role to another phone at the match, with a second tap on its
    confirm page."""
    match = match_or_404(code)
    form = _confirmed_form(match)
    if form is None:
        seat = seats.seat_of(match, _target())
        who = seat.label if seat is not None else ""
        return _confirm_page(
            match,
            Action.HAND_OVER,
            confirming.hand_over(who),
            target=seat.id if seat is not None else None,
            to=seat,
        )
    return answer(match.code, seats.hand_over_host(match, form.target.data, post_of(form)))


# Past any side position or seat id: a larger "target" is junk, refused before any lookup.
MOST_TARGET = 10**9


def _target() -> int | None:
    """The side or seat an action is about, as its page gave it (a link, or a posted form);
    None for junk."""
    given = request.form if request.method == "POST" else request.args
    target = given.get("target", type=int)
    return target if target is not None and 0 <= target <= MOST_TARGET else None


def _confirmed_form(match: StoredMatch) -> ActionForm | None:
    """The posted form of an action that can't be taken back, if it carries its second tap;
    None for a first tap (a link, or a post from a page that didn't ask)."""
    if request.method != "POST":
        return None
    form = _action_form(match)
    return form if form.confirmed.data else None


def _confirm_page(
    match: StoredMatch,
    action: Action,
    asked: confirming.Asked,
    *,
    target: int | None = None,
    to: StoredSeat | None = None,
) -> str:
    """The page that asks for the second tap: what will happen, the button that does it, and
    the way back to the sheet. Only a phone that may take the action is asked (`to`: the seat
    the host role would go to)."""
    viewer_for(match).require(action, to=to)
    return render_template(
        "sheet/confirm.html",
        match=match,
        question=asked.question,
        consequence=asked.consequence,
        yes=asked.yes,
        target=target,
    )
