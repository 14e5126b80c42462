"""What the host did to a phone is told to that phone, once: its side released, or the host
role handed to it. Nothing is kept in a worker: the phone's cookie says what it last saw."""

from __future__ import annotations

from tests.phones import Phone, seat_of

RELEASED = "The host released Ben from this phone, which now only watches."
HOSTING = "This phone is now the host"


def test_a_released_phone_is_told_once_on_its_next_page(basra: str, host: Phone, guest: Phone):
    assert RELEASED not in guest.get(f"/m/{basra}").shown
    host.post(f"/m/{basra}/release", {"target": 1, "confirmed": "y"})
    page = guest.get(f"/m/{basra}").shown
    assert RELEASED in page
    assert "If Ben is still free you can take it back below; otherwise ask the host." in page
    assert "Ben is watching" not in page and "Watching" in page
    # Once: the next page says nothing more of it, nor does the host's own page.
    assert RELEASED not in guest.get(f"/m/{basra}").shown
    assert RELEASED not in host.get(f"/m/{basra}").shown


def test_the_live_part_says_it_until_the_next_page_does(basra: str, host: Phone, guest: Phone):
    guest.get(f"/m/{basra}")
    host.post(f"/m/{basra}/release", {"target": 1, "confirmed": "y"})
    # An open page learns it live, and keeps saying it as the table moves on.
    assert RELEASED in guest.client.get(f"/m/{basra}/live").get_data(as_text=True)
    host.enter(basra, 1, 0, 12)
    assert RELEASED in guest.client.get(f"/m/{basra}/live").get_data(as_text=True)
    assert RELEASED in guest.get(f"/m/{basra}").shown
    assert RELEASED not in guest.client.get(f"/m/{basra}/live").get_data(as_text=True)
    assert RELEASED not in guest.get(f"/m/{basra}").shown


def test_a_phone_that_takes_its_side_back_is_told_nothing(basra: str, host: Phone, guest: Phone):
    guest.get(f"/m/{basra}")
    host.post(f"/m/{basra}/release", {"target": 1, "confirmed": "y"})
    took = guest.post(f"/m/{basra}/claim", {"target": 1})
    assert "This phone now holds Ben." in took.shown
    assert RELEASED not in took.shown


def test_the_new_host_is_told_what_it_may_do_now(app, basra: str, host: Phone, guest: Phone):
    assert HOSTING not in guest.get(f"/m/{basra}").shown
    host.post(f"/m/{basra}/host", {"target": seat_of(app, guest, basra), "confirmed": "y"})
    page = guest.get(f"/m/{basra}").shown
    assert (
        "This phone is now the host: it can correct any cell, say who dealt first, release a "
        "side whose phone is gone, close the table to new phones, abandon the match and hand "
        "the role on (the Host card below)."
    ) in page
    assert HOSTING not in guest.get(f"/m/{basra}").shown
    # The phone that created the match was the host from the start: nothing to tell it.
    assert HOSTING not in host.get(f"/m/{basra}").shown


def test_it_is_told_whichever_worker_serves_the_page(
    basra: str, host: Phone, guest: Phone, other_worker
):
    guest.get(f"/m/{basra}")
    host.post(f"/m/{basra}/release", {"target": 1, "confirmed": "y"})
    elsewhere = guest.on(other_worker)
    assert RELEASED in elsewhere.get(f"/m/{basra}").shown
