"""A side released on a closed table: the phones that played it (and the host) take it back;
a stranger still cannot."""

from __future__ import annotations

import pytest

from tests.phones import Phone, seat_of, snapshot

NAME_FIELD = 'name="player"'


@pytest.fixture
def released(host: Phone, guest: Phone, basra: str) -> str:
    """Alice (host) and Ben (guest) played hand 1; then the host released Ben (by mistake,
    or Ben's phone died) and closed the table."""
    host.enter(basra, 1, 0, 40)
    guest.enter(basra, 1, 1, 12)
    host.post(f"/m/{basra}/release", {"target": 1, "confirmed": "y"})
    assert "The table is closed" in host.post(f"/m/{basra}/close").shown
    return basra


def test_the_phone_that_played_a_released_side_takes_it_back_on_a_closed_table(
    released: str, guest: Phone
) -> None:
    page = guest.get(f"/m/{released}").shown
    assert "I'm Ben" in page
    assert "closed the table" not in page
    assert "This phone now holds Ben" in guest.post(f"/m/{released}/claim", {"target": 1}).shown
    assert "Hand 2: Ben 7 recorded." in guest.enter(released, 2, 1, 7).shown


def test_a_stranger_still_cannot_take_a_released_side_on_a_closed_table(
    app, released: str, phones, watcher: Phone
) -> None:
    stranger = phones()
    page = stranger.get(f"/m/{released}").shown
    assert "I'm Ben" not in page and "The host has closed the table" in page
    watcher.join(released, side=None)
    # A watcher is offered nothing to type: a name field with no button to send it.
    page = watcher.get(f"/m/{released}").shown
    assert "I'm Ben" not in page and "The host has closed the table" in page
    assert NAME_FIELD not in page
    before = snapshot(app)
    for phone in (stranger, watcher):
        refused = phone.post(f"/m/{released}/claim", {"target": 1})
        assert refused.status_code == 409
        assert "closed the table" in refused.shown
    assert snapshot(app) == before


def test_a_phone_takes_back_only_the_side_it_played(app, host: Phone, phones) -> None:
    code = host.create(
        "basra", table_format="3", side_0="Alice", side_1="Ben", side_2="Cleo", host_side="0"
    )
    ben, cleo = phones(), phones()
    ben.join(code, side=1)
    cleo.join(code, side=2)
    host.enter(code, 1, 0, 30)
    ben.enter(code, 1, 1, 10)
    cleo.enter(code, 1, 2, 5)
    for side in (1, 2):
        host.post(f"/m/{code}/release", {"target": side, "confirmed": "y"})
    host.post(f"/m/{code}/close")
    page = ben.get(f"/m/{code}").shown
    assert "I'm Ben" in page and "I'm Cleo" not in page
    before = snapshot(app)
    refused = ben.post(f"/m/{code}/claim", {"target": 2})
    assert refused.status_code == 409 and "closed the table" in refused.shown
    assert snapshot(app) == before


def kept_by_a_host_apart(phones) -> tuple[Phone, Phone, Phone, str]:
    """A Basra match whose host runs the table from a phone that plays no side, Alice's and
    Ben's phones at their sides: the host's, Alice's and Ben's phones, and the code."""
    host, alice, ben = phones(), phones(), phones()
    code = host.create("basra", table_format="2", side_0="Alice", side_1="Ben", host_side="-1")
    alice.join(code, side=0)
    ben.join(code, side=1)
    return host, alice, ben, code


def test_the_host_takes_a_released_side_on_a_closed_table(app, phones) -> None:
    host, alice, ben, code = kept_by_a_host_apart(phones)
    alice.enter(code, 1, 0, 40)
    ben.enter(code, 1, 1, 12)
    host.post(f"/m/{code}/release", {"target": 1, "confirmed": "y"})
    host.post(f"/m/{code}/close")
    page = host.get(f"/m/{code}").shown
    # The host keeps the sheet: it is not asked which side it is, its tools offer Ben.
    assert "Play a side on this phone" in page and "The host has closed the table" not in page
    # The side the tools offer is the one the server takes.
    assert '<option value="1">Ben</option>' in page
    assert "This phone now holds Ben" in host.post(f"/m/{code}/claim", {"target": 1}).shown
    assert "Hand 2: Ben 3 recorded." in host.enter(code, 2, 1, 3).shown


def test_releasing_a_side_on_a_closed_table_says_who_can_take_it_again(
    host: Phone, guest: Phone, basra: str
) -> None:
    asked = host.get(f"/m/{basra}/release?target=1").shown
    assert "any phone can claim Ben" in asked
    host.post(f"/m/{basra}/close")
    asked = host.get(f"/m/{basra}/release?target=1").shown
    assert "only a phone that played Ben, or you, can take it again" in asked
    assert "any phone can claim" not in asked


def test_a_phone_released_before_its_first_entry_takes_its_side_back(
    host: Phone, guest: Phone, basra: str
) -> None:
    # Ben's phone died before he typed anything; the host let his side go and closed the table.
    host.post(f"/m/{basra}/release", {"target": 1, "confirmed": "y"})
    host.post(f"/m/{basra}/close")
    assert "I'm Ben" in guest.get(f"/m/{basra}").shown
    assert "This phone now holds Ben" in guest.post(f"/m/{basra}/claim", {"target": 1}).shown


def test_a_host_who_filled_a_side_s_cell_has_not_played_it(app, phones) -> None:
    old_host, alice, ben, code = kept_by_a_host_apart(phones)
    # Ben's phone died: the host releases Ben and fills his cell, then hands the role to
    # Alice and watches; Alice closes the table.
    old_host.post(f"/m/{code}/release", {"target": 1, "confirmed": "y"})
    old_host.correct(code, 1, 1, 12)
    old_host.post(f"/m/{code}/host", {"target": seat_of(app, alice, code), "confirmed": "y"})
    alice.post(f"/m/{code}/close")
    assert "I'm Ben" not in old_host.get(f"/m/{code}").shown
    before = snapshot(app)
    refused = old_host.post(f"/m/{code}/claim", {"target": 1})
    assert refused.status_code == 409 and "closed the table" in refused.shown
    assert snapshot(app) == before
    assert "This phone now holds Ben" in ben.post(f"/m/{code}/claim", {"target": 1}).shown
