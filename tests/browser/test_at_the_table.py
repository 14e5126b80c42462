"""What a real table stumbled on (issue 13), on 360-px Chromium phones: each test fails on the
app as it was before its fix."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.moves import create_match, seat, told

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


# What can't be undone asks twice.


def test_abandon_asks_a_second_tap_and_the_host_can_reopen(new_phone, phones, artifacts):
    """Abandon match is a link to a page that says what it does; backing out changes nothing,
    and an abandoned match can be reopened by the host."""
    host = new_phone()
    code = create_match(host, "Basra", "2 head to head", ["Alice", "Ben"], target="101 points")
    ben = phones()
    ben.join(code, side=1)
    host.reload()

    host.get_by_role("link", name="Abandon match…").click()
    expect(host.locator("h1")).to_have_text("Abandon this match?")
    host.screenshot(path=artifacts / "confirm-abandon.png", full_page=True)
    host.get_by_role("link", name="No, back to the sheet").click()
    expect(host.locator(".status")).to_contain_text("Hand 1: waiting for")

    host.get_by_role("link", name="Abandon match…").click()
    host.get_by_role("button", name="Yes, abandon it").click()
    told(host, "Match abandoned.")
    expect(host.locator(".status .result")).to_have_text("Abandoned.")
    host.get_by_role("button", name="Reopen match").click()
    told(host, "Match reopened.")
    expect(host.locator(".status")).to_contain_text("Hand 1: waiting for")


def test_release_and_hand_over_ask_a_second_tap(new_phone, phones):
    """Release a side and hand over host each name what they do before doing it."""
    host = new_phone()
    code = create_match(host, "Basra", "2 head to head", ["Alice", "Ben"], target="101 points")
    ben = phones()
    ben.join(code, side=1)
    host.reload()

    host.get_by_role("link", name="Release Ben…").click()
    expect(host.locator("h1")).to_have_text("Release Ben?")
    host.get_by_role("button", name="Yes, release Ben").click()
    told(host, "Ben is free to be claimed again.")

    ben.post(f"/m/{code}/claim", {"target": 1})
    host.reload()
    host.get_by_role("link", name="Make Ben host…").click()
    expect(host.locator("h1")).to_have_text("Make Ben the host?")
    host.get_by_role("button", name="Yes, make Ben the host").click()
    told(host, "The host role went to Ben.")
    expect(host.locator(".host-tools")).to_have_count(0)
