"""What a real table stumbled on (issue 13), on 360-px Chromium phones: each test fails on the
app as it was before its fix."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.moves import seat, told

pytestmark = pytest.mark.browser


# A refused count says why, and counts start blank.


def test_a_refused_count_says_why_while_the_player_types(new_phone, phones, artifacts):
    """With JavaScript on, the calculator's live preview names what is wrong and marks the
    count to fix; the counts start blank, so a tap and "30" is 30."""
    keeper = phones()
    code = keeper.create("basra", table_format="2", side_0="Alice", side_1="Ben", host_side="-1")
    alice = new_phone()
    seat(alice, code, "Alice")
    alice.get_by_role("link", name="Count with the calculator").click()

    cards, basras = alice.locator("#n_cards"), alice.locator("#n_basras")
    expect(cards).to_have_value("")
    expect(cards).to_have_attribute("placeholder", "0")
    cards.click()
    cards.press_sequentially("4")
    basras.click()
    basras.press_sequentially("3")

    reasons = alice.locator("#breakdown .reasons")
    expect(reasons).to_contain_text("3 basras take at least 6 cards, but the cards captured say 4.")
    expect(basras).to_have_attribute("aria-invalid", "true")
    expect(cards).not_to_have_attribute("aria-invalid", "true")
    alice.screenshot(path=artifacts / "calculator-refused.png", full_page=True)

    # Fixed: the reason and the mark go, the total comes, and it enters in one tap.
    cards.fill("30")
    basras.fill("1")
    expect(reasons).to_have_count(0)
    expect(basras).not_to_have_attribute("aria-invalid", "true")
    alice.get_by_role("button", name="Enter 40").click()
    told(alice, "Hand 1: Alice 40 recorded.")
