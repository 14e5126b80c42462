"""This phone's matches: unfinished first to resume, then the newest."""

from __future__ import annotations

import sqlalchemy as sa
from flask import Blueprint, render_template, request
from flask.blueprints import BlueprintSetupState
from markupsafe import Markup

from scorekeeper.extensions import db
from scorekeeper.history.cards import EXTENSION, CardCache, cards_for
from scorekeeper.models import Match, Seat
from scorekeeper.phones import current_phone

bp = Blueprint("history", __name__)

PER_PAGE = 20
# Far beyond any real history: a page past it is shown empty without asking the database, so
# a forged ?page= cannot push an offset past what the database accepts.
LAST_PAGE = 1_000_000


@bp.record_once
def _keep_cards(state: BlueprintSetupState) -> None:
    """Each app its own kept cards."""
    state.app.extensions[EXTENSION] = CardCache()


def page_asked() -> int:
    """The page in ?page=, from 1 (the newest); a missing, junk or negative one means 1."""
    return max(request.args.get("page", 1, type=int), 1)


def page_of(phone: str, page: int) -> sa.Select[tuple[int, int]]:
    """The id and version of the matches on one page of a phone's history, and one more.

    In ix_seat_history's order: the database reads a page's worth of the index however long
    the history, and nothing counts the whole history. The one more says whether there is an
    older page.
    """
    return (
        sa.select(Match.id, Match.version)
        .join(Seat, Seat.match_id == Match.id)
        .where(Seat.phone == phone)
        .order_by(Seat.match_open.desc(), Seat.match_created_at.desc(), Seat.match_id.desc())
        .offset((page - 1) * PER_PAGE)
        .limit(PER_PAGE + 1)
    )


@bp.get("/history")
def index():  # type: ignore[no-untyped-def]
    """The matches this phone created, joined or watched, a page at a time."""
    phone = current_phone()
    page = page_asked()
    cards: list[Markup] = []
    older = False
    if phone is not None and page <= LAST_PAGE:
        listed = db.session.execute(page_of(phone, page)).all()
        older = len(listed) > PER_PAGE
        cards = cards_for(listed[:PER_PAGE])
    return render_template("history/index.html", cards=cards, page=page, older=older)
