"""This phone's matches: unfinished first to resume, then the newest."""

from __future__ import annotations

import sqlalchemy as sa
from flask import Blueprint, render_template, request

from scorekeeper.extensions import db
from scorekeeper.models import Match, Seat
from scorekeeper.phones import current_phone
from scorekeeper.sheet.state import load_sheets

bp = Blueprint("history", __name__)

PER_PAGE = 20


@bp.get("/history")
def index():  # type: ignore[no-untyped-def]
    """The matches this phone created, joined or watched."""
    phone = current_phone()
    page = None
    sheets = []
    if phone is not None:
        query = (
            sa.select(Match)
            .join(Seat, Seat.match_id == Match.id)
            .where(Seat.phone == phone)
            .order_by((Match.status == Match.OPEN).desc(), Match.created_at.desc(), Match.id.desc())
        )
        page = db.paginate(
            query, page=request.args.get("page", 1, type=int), per_page=PER_PAGE, error_out=False
        )
        sheets = load_sheets(list(page.items))
    return render_template("history/index.html", page=page, sheets=sheets)
