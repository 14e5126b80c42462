"""A player's history on another phone, on 360-px Chromium phones: the old phone shows a code
and its QR from History; a tablet with a match of its own opens the link and is warned what
joining does, then keeps both histories; the old phone's page says the code was opened, and
its History tells it once. Each screen looked at in light and dark, English and Arabic."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.moves import LIVE_MS, create_match, told
from tests.browser.test_record import looked_at, play, speak

pytestmark = pytest.mark.browser

OPENED = "Your history was opened on another phone"


def test_the_old_phone_shows_a_code_and_the_tablet_opens_it(new_phone, phones, artifacts):
    """Omar's phone played a match; his tablet hosted one of its own. The phone shows a code
    and QR (typed or scanned, it is the same link); the tablet opens it, is warned its own
    match joins, and then keeps both; the phone's code page says it was opened (without a
    reload by hand), and its History says so once."""
    omar, tablet, ben = new_phone(), new_phone(dark=True), phones()
    code = create_match(
        omar, "Basra", "2 head to head", ["Cats", "Dogs"], target="101 points", player="Omar"
    )
    ben.post("/join", {"code": code})
    ben.post(f"/m/{code}/claim", {"target": 1, "player": "Ben"})
    play(omar, ben, code, [(101, 0)], "Cats")
    create_match(tablet, "Basra", "2 head to head", ["Omar", "Rania"], player="Omar")

    omar.get_by_role("link", name="History", exact=True).click()
    omar.get_by_role("link", name="Your history on another phone").click()
    expect(omar.locator("h1")).to_have_text("Your history on another phone")
    omar.get_by_role("button", name="Show a code").click()
    told(omar, "Open this code on your other phone within 5 minutes.")
    shown = omar.locator(".history-code .code").inner_text()
    assert len(shown) == 9 and shown[4] == "-"
    qr = omar.locator(".history-code .qr svg")
    expect(qr).to_be_visible()
    # Big enough to scan from a hand's length, and inside the screen.
    box = qr.bounding_box()
    assert box is not None and box["width"] >= 200 and box["x"] >= 0
    assert box["x"] + box["width"] <= 360
    looked_at(omar, "move-code", artifacts)

    # The tablet opens the QR code's link: the code filled in, and a warning of what joining
    # does to its own match.
    tablet.goto(f"/history/join/{shown}")
    expect(tablet.get_by_label("Code from your other phone")).to_have_value(shown)
    expect(tablet.locator(".notice")).to_contain_text("This phone's own match joins that history")
    looked_at(tablet, "move-join", artifacts)
    tablet.get_by_role("button", name="Open my history here").click()
    told(tablet, "Your two histories are one now: 2 matches, on both phones.")
    expect(tablet.locator(".history > li")).to_have_count(2)

    # The phone's code page looks again by itself, and says the code was opened.
    expect(omar.locator(".history-code .notice")).to_contain_text(
        "Opened on another phone", timeout=LIVE_MS + 5_000
    )
    looked_at(omar, "move-opened", artifacts)
    # Its History lists both, and says it too, where its player looks next (issue 42).
    omar.get_by_role("link", name="History", exact=True).click()
    expect(omar.locator(".history > li")).to_have_count(2)
    expect(omar.locator(".notice").filter(has_text=OPENED)).to_have_count(1)


def test_the_old_phone_is_told_on_history(new_phone, phones, artifacts):
    """A phone that showed a code and went back to History before it was opened is told there,
    once, when it was."""
    omar, new = new_phone(), new_phone()
    omar.goto("/history/move")
    omar.get_by_role("button", name="Show a code").click()
    shown = omar.locator(".history-code .code").inner_text()
    omar.get_by_role("link", name="Back to the history.").click()
    new.goto("/history/join")
    new.get_by_label("Code from your other phone").fill(shown.lower().replace("-", ""))
    new.get_by_role("button", name="Open my history here").click()
    told(new, "This phone now keeps your history: 0 matches, with your sides and record.")
    omar.reload()
    expect(omar.locator(".notice").filter(has_text=OPENED)).to_have_count(1)
    omar.screenshot(path=artifacts / "move-told-en-light.png", full_page=True)
    omar.reload()
    expect(omar.locator(".notice").filter(has_text=OPENED)).to_have_count(0)
    # Told once per opening: a second code opened is said again (here in Arabic, in the dark).
    speak(omar, "ar")
    omar.emulate_media(color_scheme="dark")
    omar.goto("/history/move")
    omar.locator("form[action='/history/move'] button").click()
    again = omar.locator(".history-code .code").inner_text()
    third = new_phone()
    third.goto(f"/history/join/{again}")
    third.get_by_role("button", name="Open my history here").click()
    told(third, "This phone now keeps your history: 0 matches, with your sides and record.")
    omar.goto("/history")
    expect(omar.locator(".notice")).to_have_count(1)
    wide = omar.evaluate("document.documentElement.scrollWidth")
    assert wide <= 360
    omar.screenshot(path=artifacts / "move-told-ar-dark.png", full_page=True)
