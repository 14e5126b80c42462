"""A phone past the limit on creating matches (scorekeeper/new_matches.py) is told so on the New
match form, in its language, right to left in Arabic, with what it chose kept."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import expect

from scorekeeper import new_matches
from tests.words import plural, words

if TYPE_CHECKING:
    from pathlib import Path

    from tests.browser.conftest import LiveServer, PhoneMaker


@pytest.mark.parametrize(("locale", "dark"), [("en", False), ("ar", True)])
def test_a_phone_past_the_limit_on_new_matches_is_told_how_long_to_wait(
    live_server: LiveServer,
    new_phone: PhoneMaker,
    monkeypatch: pytest.MonkeyPatch,
    artifacts: Path,
    locale: str,
    dark: bool,
):
    app = live_server.app
    monkeypatch.setitem(app.config, "RATELIMIT_ENABLED", True)
    monkeypatch.setitem(app.config, "NEW_MATCHES_PER_PHONE", "1 per minute")
    new_matches.init_app(app)
    say = words(locale)
    phone = new_phone(locale=locale, dark=dark)
    phone.goto("/new/basra")
    phone.get_by_label(say("Your name")).fill("Ana")
    phone.get_by_role("button", name=say("Create match")).click()
    expect(phone.locator(".code-line")).to_be_visible()

    phone.goto("/new/basra")
    phone.locator("input[name=side_0]").fill("Omar")
    phone.get_by_label(say("Your name")).fill("Ana")
    phone.get_by_role("button", name=say("Create match")).click()
    refused = phone.locator(".flash.error")
    expect(refused).to_have_text(
        plural(
            locale,
            "This phone, or this network, made many matches in a short time. Wait %(num)d "
            "minute, then create this one: what you chose is kept below.",
            "This phone, or this network, made many matches in a short time. Wait %(num)d "
            "minutes, then create this one: what you chose is kept below.",
            1,
        )
    )
    expect(phone.locator("input[name=side_0]")).to_have_value("Omar")
    direction = phone.evaluate("getComputedStyle(document.querySelector('main')).direction")
    assert direction == ("rtl" if locale == "ar" else "ltr")
    phone.screenshot(path=artifacts / f"new-match-limit-{locale}.png", full_page=True)
    new_matches.init_app(app)
