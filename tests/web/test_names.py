"""Names at the table: asked when a phone takes a side or watches, kept on the phone, shown
beside the side."""

from __future__ import annotations

import sqlalchemy as sa

from scorekeeper.extensions import db
from scorekeeper.models import Seat
from tests.phones import snapshot


def names_at(app, code: str) -> list[str]:
    """The players' names stored at a match, in the order they sat down."""
    with app.app_context():
        return list(
            db.session.scalars(
                sa.select(Seat.player)
                .join(Seat.match)
                .where(Seat.match.has(code=code))
                .order_by(Seat.id)
            )
        )


def test_names_given_on_create_claim_and_watch_are_stored(app, host, guest, watcher):
    code = host.create("basra", table_format="2", side_0="Us", side_1="Them", player="Omar")
    guest.post(f"/m/{code}/claim", {"target": 1, "player": "  Ben  "})
    watcher.post(f"/m/{code}/watch", {"player": "Grandma"})
    assert names_at(app, code) == ["Omar", "Ben", "Grandma"]
    page = host.get(f"/m/{code}").shown
    assert "Make Ben (Them) host…" in page


def test_the_phone_offers_its_name_at_the_next_match(app, host, guest):
    first = host.create("basra", side_0="Us", side_1="Them")
    guest.post(f"/m/{first}/claim", {"target": 1, "player": "Ben"})
    second = host.create("basra", side_0="Us", side_1="Them")
    assert 'name="player" value="Ben"' in guest.get(f"/m/{second}").get_data(as_text=True)


def test_a_name_is_changed_at_the_match_and_a_bad_one_changes_nothing(app, host, guest, phones):
    code = host.create("basra", side_0="Us", side_1="Them", player="Omar")
    assert (
        "This phone is now Omar K (Us)." in host.post(f"/m/{code}/name", {"player": "Omar K"}).shown
    )
    assert names_at(app, code) == ["Omar K"]
    before = snapshot(app)
    too_long = host.post(f"/m/{code}/name", {"player": "O" * 41})
    assert too_long.status_code == 400
    assert "Your name: Keep your name under 40 letters." in too_long.shown
    stranger = phones().post(f"/m/{code}/name", {"player": "Mallory"})
    assert stranger.status_code == 403
    assert "claim a side or watch first" in stranger.shown
    assert snapshot(app) == before


def test_a_tv_watches_with_its_name_left_empty(app, host, watcher):
    code = host.create("basra", table_format="2", side_0="Us", side_1="Them", player="Omar")
    page = watcher.post(f"/m/{code}/watch", {"player": "   "})
    assert page.status_code == 200
    assert "Watching this match." in page.shown
    assert names_at(app, code) == ["Omar", ""]
