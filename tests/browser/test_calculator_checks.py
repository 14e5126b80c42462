"""The calculator beside the other sides' counts as the player types, and with no connection
(issue 30), on 360-px Chromium phones."""

from __future__ import annotations

import re

import pytest
import sqlalchemy as sa
from playwright.sync_api import expect

from scorekeeper.extensions import db
from scorekeeper.models import Entry
from tests.browser.moves import seat, told
from tests.browser.test_inputs import seat_in
from tests.waiting import wait_until
from tests.web.test_calculator import count
from tests.words import words

pytestmark = pytest.mark.browser


def _table(phones, new_phone):
    """A head-to-head Basra kept by a phone with no side; Alice's phone is a test client, and
    Ben's a browser on his calculator."""
    keeper = phones()
    code = keeper.create("basra", table_format="2", side_0="Alice", side_1="Ben", host_side="-1")
    alice = phones()
    alice.join(code, side=0)
    ben = new_phone()
    seat(ben, code, "Ben")
    return code, alice, ben


def test_the_calculator_says_what_cant_be_beside_the_others_as_the_player_types(
    app, phones, new_phone, artifacts
):
    """With Alice's 31 cards and 3 aces in, Ben typing 25 cards is told at once, before any
    Enter, and 2 aces besides: every wrong line named and marked, no total offered."""
    code, alice, ben = _table(phones, new_phone)
    count(alice, code, {"n_cards": 31, "n_aces": 3})
    ben.get_by_role("link", name="Count with the calculator").click()

    cards, aces = ben.locator("#n_cards"), ben.locator("#n_aces")
    cards.click()
    cards.press_sequentially("25")
    reasons = ben.locator("#breakdown .reasons")
    expect(reasons).to_contain_text(
        "Cards: Alice 31 already, and your 25 would make 56; there are only 52."
    )
    expect(ben.get_by_role("button", name="Enter 7")).to_have_count(0)
    aces.click()
    aces.press_sequentially("2")
    expect(reasons).to_contain_text("Aces: Alice 3 already, and your 2 would make 5")
    expect(reasons).to_contain_text("Cards: Alice 31 already")
    expect(cards).to_have_attribute("aria-invalid", "true")
    expect(aces).to_have_attribute("aria-invalid", "true")
    expect(ben.locator("#breakdown button")).to_have_count(0)
    ben.screenshot(path=artifacts / "calculator-beside-the-others.png", full_page=True)

    # Counted again: what fits the pack is offered, and enters.
    cards.fill("21")
    aces.fill("1")
    expect(reasons).to_have_count(0)
    expect(cards).not_to_have_attribute("aria-invalid", "true")
    ben.get_by_role("button", name="Enter 1").click()
    told(ben, "Hand 1: Ben 1 recorded.")


def test_offline_the_calculator_works_the_total_out_and_keeps_the_counts(
    app, phones, new_phone, artifacts
):
    """No connection: the phone works the counts out by the game's declared scoring, the
    breakdown the server would show, said to be checked when the connection is back; counts
    it can't read show no total. Enter keeps the entry on the phone, and it is recorded,
    worked out by the server, once the connection is back."""
    code, _alice, ben = _table(phones, new_phone)
    ben.get_by_role("link", name="Count with the calculator").click()
    # Online, the empty counts come to 0: a total the server did work out.
    expect(ben.locator("#breakdown .calc-total")).to_have_text("0")

    ben.context.set_offline(True)
    ben.locator("#n_cards").fill("20")
    ben.locator("#n_aces").fill("2x")
    breakdown = ben.locator("#breakdown")
    expect(breakdown).to_contain_text("No connection: the total is worked out when the connection")
    expect(breakdown.locator(".calc-total")).to_have_count(0)
    ben.locator("#n_aces").fill("2")
    ben.locator("#n_jacks").fill("2")
    ben.get_by_label("10♦").check()
    expect(breakdown).to_contain_text(
        "No connection: this total is worked out on this phone, and checked when the connection"
    )
    rows = breakdown.locator("tbody tr")
    expect(rows).to_have_text(
        [
            re.compile(r"^Aces\s*2\s*2$"),
            re.compile(r"^Jacks\s*2\s*2$"),
            re.compile(r"^10♦\s*1\s*3$"),
        ]
    )
    expect(breakdown.locator(".calc-total")).to_have_text("7")
    expect(ben.locator("#n_cards")).to_have_value("20")
    ben.screenshot(path=artifacts / "calculator-offline.png", full_page=True)

    ben.get_by_role("button", name="Enter 7", exact=True).click()
    expect(ben.locator("#outbox")).to_contain_text("Kept on this phone, not sent yet")
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Entry)) == 0

    ben.context.set_offline(False)
    told(ben, "Hand 1: Ben 7 recorded.")
    with app.app_context():
        stored = db.session.scalars(sa.select(Entry)).one()
        assert stored.points == 7 and stored.counts["cards"] == 20


def test_two_alone_claims_refused_in_arabic_with_the_counts_given_back(
    app, phones, new_phone, artifacts
):
    """Pastura, three players, in Arabic on a dark phone: Omar answers "Yes, alone" after Ana
    did; the calculator tells him as he chooses it, in both sides' words, with no Enter to
    tap, and nothing is saved (the refusal at Enter: tests/web/test_contradictions.py)."""
    say = words("ar")
    keeper = phones()
    code = keeper.create(
        "pastura", table_format="3", side_0="آنا", side_1="عمر", side_2="سامي", host_side="0"
    )
    count(keeper, code, {"n_cards": 18, "n_most_cards": 1, "n_aces": 2})
    omar = new_phone(locale="ar", dark=True)
    seat_in(omar, "ar", code, "عمر")
    omar.get_by_role("link", name=say("Count with the calculator")).click()
    omar.locator("#n_cards").fill("19")
    omar.locator("#n_jacks").fill("3")
    omar.get_by_label(say("Yes, alone")).check()
    reasons = omar.locator("#breakdown .reasons")
    expect(reasons).to_contain_text("آنا")
    expect(reasons).to_contain_text(say("Yes, alone"))
    expect(omar.locator("#breakdown button")).to_have_count(0)
    omar.screenshot(path=artifacts / "calculator-two-alone-ar-dark.png", full_page=True)
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Entry)) == 1


def test_a_one_sided_split_is_refused_on_the_phone_with_the_total_kept(
    app, phones, new_phone, artifacts
):
    """Alice ticked "Cards split evenly (26–26)" with her 10; Ben types 70 without it: the
    sheet says why, in both sides' words, and his 70 is still in the form to change or send."""
    code, alice, ben = _table(phones, new_phone)
    alice.enter(code, 1, 0, 10, even_split="y")
    ben.get_by_label("Your total for this hand").fill("70")
    ben.get_by_role("button", name="Enter", exact=True).click()
    refusal = ben.locator(".flash.error")
    expect(refusal).to_contain_text("You did not tick “Cards split evenly (26–26)”.")
    expect(refusal).to_contain_text("Alice entered 10 and ticked “Cards split evenly (26–26)”.")
    expect(ben.get_by_label("Your total for this hand")).to_have_value("70")
    ben.screenshot(path=artifacts / "entry-one-sided-split.png", full_page=True)
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Entry)) == 1

    ben.get_by_label("Cards split evenly (26–26): nobody took the majority").check()
    ben.get_by_role("button", name="Enter", exact=True).click()
    told(ben, "Hand 1: Ben 70 recorded.")


def test_while_the_answer_is_on_its_way_no_total_is_shown_for_other_counts(app, phones, new_phone):
    """On a slow connection, the total shown for the counts before a keystroke is not kept
    beside the new counts: it reads "…" and Enter names no number until the answer comes."""
    code, _alice, ben = _table(phones, new_phone)
    ben.get_by_role("link", name="Count with the calculator").click()
    ben.locator("#n_cards").fill("20")
    expect(ben.get_by_role("button", name="Enter 0")).to_be_visible()
    held = []
    ben.route("**/calc/preview**", lambda route: held.append(route))
    ben.locator("#n_aces").fill("2")
    expect(ben.locator("#breakdown .calc-total")).to_have_text("…")
    expect(ben.get_by_role("button", name="Enter", exact=True)).to_be_visible()
    expect(ben.get_by_role("button", name="Enter 0")).to_have_count(0)
    # The route's handler runs as Playwright reads its messages, which each call to the page
    # does: asked until the preview's request is held.
    assert wait_until(lambda: ben.evaluate("true") and held, 10), "the preview was not asked"
    for route in held:
        route.continue_()
    ben.unroute("**/calc/preview**")
    expect(ben.get_by_role("button", name="Enter 2")).to_be_visible()
    expect(ben.locator("#breakdown .calc-total")).to_have_text("2")
