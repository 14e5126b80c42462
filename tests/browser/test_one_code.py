"""One code shows one match (issue 31), on 360-px Chromium phones: another player's record as
a watcher and as a stranger see it, and a rematch that waits for the last match's phones (the
offer on Sam's phone, the newcomer's card, the host's button that opens it); each page looked
at in light and dark, in English and Arabic."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.moves import LIVE_MS, told
from tests.browser.test_record import looked_at
from tests.browser.test_stumbles import same_phone
from tests.phones import stored_match
from tests.web.test_one_code import KEPT, NOTHING_SHARED, WAITS, play_out, seat_three

pytestmark = pytest.mark.browser


def test_a_stranger_s_view_of_sam_and_the_rematch_kept_for_the_table(
    new_phone, phones, app, artifacts
):
    """A watcher sees Sam's record over the one match it watched, a stranger a page saying it
    shared none; the rematch offers Sam his side in one tap, tells a newcomer it waits for the
    last match's phones, and tells the host how to open it."""
    omar, sam, watcher, stranger = new_phone(), new_phone(dark=True), new_phone(), new_phone()
    for page in (omar, sam):
        page.goto("/")
    table = same_phone(omar, app), same_phone(sam, app), phones()
    code = seat_three(*table)
    # The watcher taps Just watch while they play; after the match, Sam's name: his record
    # over that one match.
    watcher.goto(f"/m/{code}")
    watcher.get_by_role("button", name="Just watch").click()
    told(watcher, "Watching this match.")
    play_out(code, table, (101, 10, 5))
    watcher.reload()
    watcher.locator(".sheet-players").get_by_role("link", name="Sam", exact=True).click()
    expect(watcher.locator("h1")).to_have_text("The record of Sam")
    expect(watcher.locator(".shared")).to_have_text(
        "Counted over the 1 ended match your phone shared with Sam, and no other."
    )
    looked_at(watcher, "record-shared", artifacts)

    # The stranger only opened the page: Sam's name leads to a page that says why it is bare.
    stranger.goto(f"/m/{code}")
    stranger.locator(".sheet-players").get_by_role("link", name="Sam", exact=True).click()
    expect(stranger.locator("main")).to_contain_text(NOTHING_SHARED % {"name": "Sam"})
    looked_at(stranger, "record-nothing-shared", artifacts)

    # Omar asks for the rematch: Sam's phone is offered his side, live.
    sam.goto(f"/m/{code}")
    same_phone(omar, app).post(f"/m/{code}/rematch")
    rematch = stored_match(app, code).rematch_code
    offer = sam.get_by_role("button", name="Play the rematch as Sam")
    expect(offer).to_be_visible(timeout=LIVE_MS)
    looked_at(sam, "rematch-kept-offer", artifacts)

    # A newcomer with the rematch's code is told the sides wait; the host, how to open them.
    stranger.goto(f"/m/{rematch}")
    expect(stranger.locator(".claim .notice")).to_have_text(KEPT)
    expect(stranger.get_by_role("button", name="I'm Zed")).to_have_count(0)
    looked_at(stranger, "rematch-kept-newcomer", artifacts)
    omar.goto(f"/m/{rematch}")
    expect(omar.locator(".host-tools")).to_contain_text(WAITS)
    looked_at(omar, "rematch-kept-host", artifacts)

    # Sam takes his side in one tap; the host opens the table, and the newcomer may sit.
    offer.click()
    told(sam, "This phone now holds Sam.")
    omar.get_by_role("button", name="Open the table").click()
    told(omar, "The table is open: a new phone can take a free side.")
    stranger.reload()
    expect(stranger.get_by_role("button", name="I'm Zed")).to_be_visible()
    expect(stranger.get_by_role("button", name="I'm Sam")).to_have_count(0)
