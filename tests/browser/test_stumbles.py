"""Smaller things a new player tripped on (issue 30), on 360-px Chromium phones: each test
fails on the app as it was before its fix."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.moves import LIVE_MS, create_match, not_reloaded, seat

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("javascript", [True, False], ids=["script", "no-script"])
def test_a_tv_watches_without_a_name(new_phone, phones, artifacts, javascript):
    """A TV or laptop has no name to give: its "Just watch" works with the name left empty,
    while the name stays asked for a phone that takes a side."""
    host = phones()
    code = host.create("basra", table_format="2", side_0="Alice", side_1="Ben")
    tv = new_phone(javascript=javascript, viewport={"width": 1280, "height": 720})
    tv.goto(f"/m/{code}")
    expect(tv.get_by_label("Your name")).to_have_value("")
    tv.get_by_role("button", name="Just watch").click()
    expect(tv.locator(".code-line")).to_contain_text("Watching")
    expect(tv.get_by_role("button", name="Just watch")).to_have_count(0)
    tv.screenshot(path=artifacts / f"watching-without-a-name-{tv_kind(javascript)}.png")


def tv_kind(javascript: bool) -> str:
    """The screenshot's name part for a page with or without its script."""
    return "script" if javascript else "no-script"


def test_the_invite_folds_on_the_host_s_page_once_every_side_is_held(new_phone, phones, artifacts):
    """The host's page opens with the QR card unfolded; when the last free side is taken on
    another phone, it folds there live (no reload), so the entry form comes up the screen."""
    host = new_phone(dark=True)
    code = create_match(host, "Basra", "2 head to head", ["Alice", "Ben"])
    invite = host.locator("details.invite")
    expect(invite).to_have_attribute("open", "")
    phones().join(code, side=1)
    expect(invite).not_to_have_attribute("open", "", timeout=LIVE_MS)
    expect(host.locator(".code-line")).to_be_visible()
    expect(host.get_by_label("Your total for this hand")).to_be_in_viewport()
    not_reloaded(host)
    host.screenshot(path=artifacts / "invite-folded.png")


def test_a_released_phone_is_told_live_and_once_more_on_its_next_page(new_phone, phones, artifacts):
    """Ben's page is open when the host releases Ben: it says so live, not only "Watching",
    says it once more on the next page, and then no more."""
    host = phones()
    code = host.create("basra", table_format="2", side_0="Alice", side_1="Ben")
    ben = new_phone(dark=True)
    seat(ben, code, "Ben")
    host.post(f"/m/{code}/release", {"target": 1, "confirmed": "y"})
    released = "The host released Ben from this phone, which now only watches."
    expect(ben.locator("#live .flash.notice")).to_contain_text(released, timeout=LIVE_MS)
    not_reloaded(ben)
    ben.screenshot(path=artifacts / "released-told.png", full_page=True)
    ben.reload()
    expect(ben.locator(".flash.notice").filter(has_text=released)).to_have_count(1)
    ben.reload()
    expect(ben.locator("main")).to_contain_text("Which side is this phone?")
    expect(ben.locator(".flash.notice").filter(has_text=released)).to_have_count(0)
