"""Smaller things a new player tripped on (issue 30), on 360-px Chromium phones: each test
fails on the app as it was before its fix."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.moves import LIVE_MS, create_match, not_reloaded, seat
from tests.phones import Phone, stored_match
from tests.words import words

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


def same_phone(page, app) -> Phone:
    """A test client holding this browser's cookie: the same phone, for moves that are not
    what the test looks at."""
    cookie = next(c for c in page.context.cookies() if c["name"] == "session")
    phone = Phone(app)
    phone.client.set_cookie(cookie["name"], cookie["value"])
    return phone


def test_an_ended_rematch_is_a_link_on_the_match_before_it_in_arabic(
    new_phone, phones, app, artifacts
):
    """Ben's phone, in Arabic, is offered its side in the rematch while it can take it there;
    once the rematch has ended, a link to it instead of a button a tap would refuse."""
    say = words("ar")
    host, stand_in = phones(), phones()
    code = host.create("basra", table_format="2", side_0="Alice", side_1="Ben")
    ben = new_phone(locale="ar", dark=True)
    ben.goto(f"/j/{code}")
    ben.get_by_label(say("Your name")).fill("Ben")
    ben.get_by_role("button", name=say("I'm %(side)s", side="Ben")).click()
    expect(ben.locator(".code-line")).to_contain_text("Ben")
    host.enter(code, 1, 0, 101)
    same_phone(ben, app).enter(code, 1, 1, 20)
    host.post(f"/m/{code}/end")
    host.post(f"/m/{code}/rematch")
    second = stored_match(app, code).rematch_code
    play = ben.get_by_role("button", name=say("Play the rematch as %(side)s", side="Ben"))
    expect(play).to_be_visible(timeout=LIVE_MS)
    ben.screenshot(path=artifacts / "rematch-offered-ar.png", full_page=True)
    # The host opens the rematch to new phones, another plays Ben there, and it ends.
    host.post(f"/m/{second}/open")
    stand_in.post(f"/m/{second}/claim", {"target": 1})
    host.enter(second, 1, 0, 101)
    stand_in.enter(second, 1, 1, 20)
    host.post(f"/m/{second}/end")
    ben.reload()
    expect(play).to_have_count(0)
    expect(ben.locator(".rematch")).to_contain_text(say("The rematch has ended."))
    ben.get_by_role("link", name=say("Open the rematch")).click()
    expect(ben).to_have_url(re.compile(f"/m/{second}$"))
    ben.go_back()
    ben.screenshot(path=artifacts / "rematch-ended-ar.png", full_page=True)
