"""What a new player stumbled on (issue 22), in the words the app says, on 360-px Chromium
phones: each test fails on the app as it was before its fix."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.moves import PLAIN_TOTAL, seat

pytestmark = pytest.mark.browser

NOT_RECOGNISED = "This phone was not recognised (its cookie could not be read)"


def test_a_cookie_gone_unreadable_under_an_open_page_is_told_to_the_player(
    new_phone, phones, artifacts
):
    """The server's key changed (or the cookie was garbled) while Ben's page was open: his
    entry goes as a new phone's, and the page says why this phone no longer holds Ben, though
    the page the script fetched for a fresh token was the one that carried the message."""
    host = phones()
    code = host.create("basra", table_format="2", side_0="Alice", side_1="Ben")
    ben = new_phone(dark=True)
    seat(ben, code, "Ben")
    # In place of the cookie the app set (the site's, for every path).
    site = ben.url.split("/m/")[0] + "/"
    ben.context.add_cookies([{"name": "session", "value": "garbled", "url": site}])
    ben.get_by_label(PLAIN_TOTAL).fill("12")
    ben.get_by_role("button", name="Enter", exact=True).click()
    expect(ben.locator(".flash").filter(has_text=NOT_RECOGNISED)).to_have_count(1)
    ben.screenshot(path=artifacts / "cookie-not-recognised.png", full_page=True)
    # Said once: the next page the phone opens does not say it again.
    ben.reload()
    expect(ben.locator("main")).to_contain_text("Not at the table yet")
    expect(ben.locator(".flash").filter(has_text=NOT_RECOGNISED)).to_have_count(0)
