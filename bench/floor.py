"""The floors: the sheet page's own statements and bytes, and an entry post's own statements,
and nothing else of the app.

What a page like the loaded sheet page costs on this stack before Scorekeeper does anything of
its own: Flask under the same gunicorn command line, the page's four statements through
SQLAlchemy Core on the same database, and one Jinja template that writes the same bytes (the
real page, saved by the bench, with its rows drawn from the rows read), compressed as the
app's are. No session, CSRF, languages, forms, ORM, permissions or rules. The bench loads it
beside the real page, so the cold page's share of bare can be read against the least a page
like it can cost here.

The post floor (POST /m/<code>/enter) is an entry post's writes alone, through Core: take the
match's lock by bumping its version (announcing it, as the app's lock does), record the post's
idempotency key, insert the entry (and its hand, the first time the hand is posted to), commit,
and redirect to the sheet. No form, CSRF, session, seat, sheet read, check or flash message.
"""

from __future__ import annotations

import os

import sqlalchemy as sa
from flask import Flask, redirect, request
from flask_compress import Compress
from sqlalchemy.dialects import postgresql, sqlite
from werkzeug.wrappers import Response

from scorekeeper import _driver_url, _engine_options
from scorekeeper.extensions import Model
from scorekeeper.live.fanout import announced
from scorekeeper.models import Correction, Entry, Hand, Match, Seat, Side, Submission, utcnow
from scorekeeper.scoresheet.series import WALKED_BACK
from scorekeeper.scoresheet.stored import HANDS_OF

# The real page as the app served it (the bench writes it): everything but its rows is kept.
PAGE_FILE = "SCOREKEEPER_FLOOR_PAGE"


# The match with its sides, every column, as the app's first statement reads them (through
# the ORM); the match's id and each side's first.
def _table(model: type[Model]) -> sa.Table:
    """A model's table, as Core's update() and insert() take it."""
    table = model.__table__
    assert isinstance(table, sa.Table)
    return table


_match, _side = Match.__table__.c, Side.__table__.c
_before = Match.__table__.alias("before")
MATCH_WITH_SIDES = (
    sa.select(
        _match.id,
        _side.id,
        # Whether the match follows another, as the app's first statement asks.
        sa.exists().where(_before.c.rematch_code == _match.code).label("follows"),
        Match.__table__,
        Side.__table__,
    )
    .join(Side.__table__, _side.match_id == _match.id)
    .where(_match.code == sa.bindparam("code"))
    .order_by(_side.position)
)
# The match's seats and its corrections, every column, as the app reads them (through the ORM).
SEATS_AT = sa.select(Seat.__table__).where(Seat.match_id == sa.bindparam("match_id"))
TRAIL_OF = sa.select(Correction.__table__).where(Correction.match_id == sa.bindparam("match_id"))

# One row of the sheet as _status.html draws it for the host: each cell links to its
# correction and carries the running total.
ROWS = (
    '{% for number, cells in rows %}<tr class="complete"><th scope="row">'
    '<a href="/m/{{ code }}/hand/{{ number }}/correct" title="Correct the whole hand">'
    '{{ number }}</a></th>{% for points, run in cells %}<td class="">'
    '<a href="/m/{{ code }}/hand/{{ number }}/side/{{ loop.index0 }}/correct" '
    'data-run="{{ run }}">{{ points }}</a></td>{% endfor %}</tr>{% endfor %}'
)


def create_floor() -> Flask:
    """The floor app, serving the page saved in PAGE_FILE from the database in DATABASE_URL."""
    app = Flask(__name__)
    # Compressed as the app's pages are, for a browser that asks (the bench's load does).
    Compress(app)
    # Reads without BEGIN and ROLLBACK, as the app's GETs do; the app's own connection
    # settings (its JSON reader among them), so the floor is this stack's least.
    url = _driver_url(os.environ["DATABASE_URL"])
    engine = sa.create_engine(url, isolation_level="AUTOCOMMIT", **_engine_options(url))
    with open(os.environ[PAGE_FILE], encoding="utf-8") as saved:
        text = saved.read()
    # The saved page is text around the rows, not a template: it goes out as it is.
    first, last = (
        text.index("<tr", text.index("<tbody>")),
        text.rindex("</tr>", 0, text.index("</tbody>")),
    )
    before, after = text[:first], text[last + len("</tr>") :]
    page = app.jinja_env.from_string("{{ before|safe }}" + ROWS + "{{ after|safe }}")

    @app.get("/")
    def ready() -> str:
        """What the bench asks to know the server is up."""
        return "ok"

    @app.get("/m/<code>")
    def sheet(code: str) -> str:
        """The page's statements (four; five for a rematch), its rows worked out (running
        totals), the same bytes."""
        with engine.connect() as connection:
            sides = connection.execute(MATCH_WITH_SIDES, {"code": code}).all()
            match_id = sides[0][0]
            connection.execute(SEATS_AT, {"match_id": match_id}).all()
            hands = connection.execute(HANDS_OF, {"ids": [match_id]}).all()
            connection.execute(TRAIL_OF, {"match_id": match_id}).all()
            # The series the match is in, walked back as the app walks it: only for a rematch.
            if sides[0][2]:
                connection.execute(WALKED_BACK, {"ids": [match_id]}).all()
        column = {side[1]: at for at, side in enumerate(sides)}
        totals = [0] * len(sides)
        rows: dict[int, list[tuple[int, int]]] = {}
        for hand in hands:
            if hand.entry_side_id is None:
                continue
            at, points = column[hand.entry_side_id], hand.entry_points
            totals[at] += points
            rows.setdefault(hand.hand_number, [(0, 0)] * len(sides))[at] = (points, totals[at])
        return page.render(before=before, after=after, code=code, rows=sorted(rows.items()))

    writes = sa.create_engine(url, **_engine_options(url))
    dialect = writes.dialect.name
    insert = sqlite.insert if dialect == "sqlite" else postgresql.insert
    lock = announced(
        sa.update(_table(Match))
        .where(_match.code == sa.bindparam("match_code"))
        .values(version=_match.version + 1)
        .returning(Match.__table__),
        dialect,
    )
    key = (
        insert(_table(Submission))
        .values(
            key=sa.bindparam("key"), match_id=sa.bindparam("match_id"), made_at=sa.bindparam("now")
        )
        .on_conflict_do_nothing(index_elements=["key"])
        .returning(Submission.__table__.c.key)
    )
    hand = (
        insert(_table(Hand))
        .values(
            match_id=sa.bindparam("match_id"),
            number=sa.bindparam("number"),
            started_at=sa.bindparam("now"),
        )
        .on_conflict_do_nothing(index_elements=["match_id", "number"])
    )
    _hand = Hand.__table__.c
    entry = sa.insert(_table(Entry)).values(
        hand_id=sa.select(_hand.id)
        .where(_hand.match_id == sa.bindparam("match_id"), _hand.number == sa.bindparam("number"))
        .scalar_subquery(),
        side_id=sa.select(_side.id)
        .where(_side.match_id == sa.bindparam("match_id"), _side.position == sa.bindparam("side"))
        .scalar_subquery(),
        points=sa.bindparam("points"),
        counts=None,
        ticks=[],
        entered_by="bench-floor",
        entered_at=sa.bindparam("now"),
        revision=1,
    )

    @app.post("/m/<code>/enter")
    def enter(code: str) -> Response:
        """An entry post's writes and nothing else: lock, key, entry (and hand), commit."""
        form, now = request.form, utcnow()
        with writes.begin() as connection:
            match_id = connection.execute(lock, {"match_code": code}).one()[0]
            mine = {"match_id": match_id, "now": now}
            if connection.execute(key, {**mine, "key": form["key"]}).first():
                number = {**mine, "number": int(form["hand"])}
                connection.execute(hand, number)
                connection.execute(
                    entry, {**number, "side": int(form["side"]), "points": int(form["points"])}
                )
        return redirect(f"/m/{code}")

    return app
