"""What a new player stumbled on (issue 22): each test failed on the app before its fix."""

from __future__ import annotations

import re

from tests.phones import stored_match


def dealer_options(page: str) -> list[str]:
    """The names the host's dealer picker offers, in order."""
    picker = page.split('id="first-dealer"')[1].split("</select>")[0]
    return re.findall(r"<option[^>]*>([^<]*)</option>", picker)


def test_the_dealer_picker_names_the_players_the_host_typed(host):
    code = host.create(
        "basra",
        table_format="2v2",
        side_0="Us",
        side_1="Them",
        players_0="Omar, Sara",
        players_1="Ben & Bo",
        player="Omar",
    )
    page = host.get(f"/m/{code}").shown
    # Omar's phone names him; the others are the names typed, not "Them, player 1".
    assert dealer_options(page) == ["Omar (Us)", "Ben (Them)", "Sara (Us)", "Bo (Them)"]


def test_a_rematch_passes_the_deal_on_as_the_next_hand_would(app, host, guest):
    code = host.create("basra", table_format="2", side_0="Us", side_1="Them")
    guest.join(code, side=1)
    host.post(f"/m/{code}/dealer", {"target": 1})
    host.enter(code, 1, 0, 50)
    guest.enter(code, 1, 1, 3)
    host.enter(code, 2, 0, 60)
    guest.enter(code, 2, 1, 3)
    guest.post(f"/m/{code}/end")
    host.post(f"/m/{code}/rematch")
    # Them dealt hand 1, Us hand 2: hand 3, the rematch's first, is Them's deal.
    new = stored_match(app, stored_match(app, code).rematch_code)
    assert new.first_dealer == 1
