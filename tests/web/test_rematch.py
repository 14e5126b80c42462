"""Rematch: the next match of an ended one, started once however many phones tap it."""

from __future__ import annotations

import sqlalchemy as sa

from scorekeeper.extensions import db
from scorekeeper.models import Match
from tests.phones import stored_match


def test_a_rematch_copies_the_settings_and_is_started_once(app, host, guest):
    code = host.create(
        "basra", table_format="2", target="121", side_0="Us", side_1="Them", player="Omar"
    )
    guest.join(code, side=1)
    host.enter(code, 1, 0, 121)
    guest.enter(code, 1, 1, 3)
    guest.post(f"/m/{code}/end")

    first = guest.post(f"/m/{code}/rematch")
    assert "Rematch! Every phone of the last match is asked to take its side." in first.shown
    again = host.post(f"/m/{code}/rematch")
    assert "The rematch is ready." in again.shown

    old = stored_match(app, code)
    new = stored_match(app, old.rematch_code)
    assert (new.game, new.table_format, new.target, new.status) == ("basra", "2", 121, "open")
    # The host of the last match hosts this one; the guest, who asked, holds its side.
    assert new.host_phone == old.host_phone
    assert "This phone holds <strong>Them</strong>" in guest.get(f"/m/{new.code}").get_data(
        as_text=True
    )
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Match)) == 2
        names = [side.name for side in db.session.get(Match, new.id).sides]
    assert names == ["Us", "Them"]
    # The host takes its side there with the old match's one-tap form.
    took = host.post(f"/m/{new.code}/claim", {"target": 0, "player": "Omar"})
    assert "This phone now holds Us." in took.shown
