"""What a new player stumbled on (issue 22), on 360-px Chromium phones: digits as an Arabic
phone types them, and the words its js draws, from the first paint and in the phone's language."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from flask import Flask
from playwright.sync_api import Page, expect

from scorekeeper.extensions import db
from scorekeeper.models import Entry
from tests.browser.moves import told
from tests.phones import stored_match
from tests.words import words

pytestmark = pytest.mark.browser


def seat_in(page: Page, language: str, code: str, side: str) -> None:
    """Open the match by its QR link and claim a side, reading the page in its language."""
    say = words(language)
    page.goto(f"/j/{code}")
    page.get_by_label(say("Your name")).fill(side)
    page.get_by_role("button", name=say("I'm %(side)s", side=side)).click()
    told(page, say("This phone now holds %(side)s.", side=side))


def recorded(language: str, side: str, points: int) -> str:
    """What the page says once a side's total for hand 1 is recorded."""
    say = words(language)
    return say(
        "%(hand)s %(number)s: %(side)s %(points)s recorded.",
        hand=say("Hand"),
        number=1,
        side=side,
        points=points,
    )


def stored_entries(app: Flask) -> list[tuple[int, int, dict[str, int] | None]]:
    """Every stored cell: its hand's id, its points, the calculator's counts."""
    with app.app_context():
        rows = db.session.execute(
            sa.select(Entry.hand_id, Entry.points, Entry.counts).order_by(Entry.id)
        )
        return [(hand, points, counts) for hand, points, counts in rows]


def test_arabic_indic_digits_are_sent_and_saved_as_numbers(app, new_phone, phones, artifacts):
    """docs/at-the-table.md, "Entering a hand": digits typed Arabic-Indic are read all the
    same. The browser lets ١٢ through to the server (no ASCII-only pattern), in the plain entry
    and in the calculator, and a calculator stepper counts on from an Arabic-Indic digit."""
    say = words("ar")
    keeper = phones()
    code = keeper.create("basra", table_format="2", side_0="عمر", side_1="سامي", host_side="-1")
    omar, sami = new_phone(locale="ar"), new_phone(locale="ar", dark=True)
    seat_in(omar, "ar", code, "عمر")
    seat_in(sami, "ar", code, "سامي")

    # The plain total, typed on an Arabic keypad.
    omar.get_by_label(say("Your total for this hand")).fill("١٢")
    omar.get_by_role("button", name=say("Enter", context="button"), exact=True).click()
    told(omar, recorded("ar", "عمر", 12))

    # The calculator: cards ٣٠ (the majority), aces ١ and one more with the stepper.
    sami.get_by_role("link", name=say("Count with the calculator")).click()
    sami.locator("#n_cards").fill("٣٠")
    sami.locator("#n_aces").fill("١")
    sami.get_by_role("button", name=say("One more: %(what)s", what=say("Aces"))).click()
    expect(sami.locator("#n_aces")).to_have_value("2")
    enter = sami.get_by_role("button", name=say("Enter %(total)s", total=32))
    expect(enter).to_be_visible()
    sami.screenshot(path=artifacts / "inputs-ar-calculator-digits.png", full_page=True)
    enter.click()
    told(sami, recorded("ar", "سامي", 32))

    (_, omar_points, omar_counts), (_, sami_points, sami_counts) = stored_entries(app)
    assert (omar_points, omar_counts) == (12, None)
    assert sami_points == 32
    assert sami_counts is not None and (sami_counts["cards"], sami_counts["aces"]) == (30, 2)


def test_an_arabic_indic_target_is_typed_and_saved(app, new_phone, artifacts):
    """The Other game's typed target takes ٥٠٠ from an Arabic keypad (a type=number field
    dropped those digits as they were typed) and the match is made to 500 points."""
    say = words("ar")
    host = new_phone(locale="ar", dark=True)
    host.goto("/new/other")
    target = host.get_by_label(say("Target (points)"))
    target.fill("")
    target.press_sequentially("٥٠٠")
    expect(target).to_have_value("٥٠٠")
    host.get_by_label(say("Side %(number)s", number=1), exact=True).fill("عمر")
    host.get_by_label(say("Side %(number)s", number=2), exact=True).fill("سامي")
    host.get_by_label(say("Your name")).fill("عمر")
    host.screenshot(path=artifacts / "inputs-ar-new-target.png", full_page=True)
    host.get_by_role("button", name=say("Create match")).click()
    code = host.locator("summary .code").inner_text()
    assert stored_match(app, code).target == 500


@pytest.mark.parametrize("language", ["en", "ar", "ru", "es", "it"])
@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_this_phone_plays_on_reads_the_sides_from_the_first_paint(
    new_phone, language: str, javascript: bool
):
    """Before anything is typed or tapped, "This phone plays on" names the sides as the name
    fields do ("Side 1", in the phone's language), never the script's key for the words."""
    say = words(language)
    page = new_phone(locale=language, javascript=javascript)
    page.goto("/new/basra")
    offered = page.get_by_label(say("This phone plays on")).locator("option:not([hidden])")
    expect(offered).to_have_text(
        [
            say("Side %(number)s", number=1),
            say("Side %(number)s", number=2),
            *([say("Side %(number)s", number=3)] if not javascript else []),
            say("No side: I only keep the sheet"),
        ]
    )


def test_a_refused_form_without_javascript_offers_the_sides_by_the_names_typed(new_phone):
    """Drawn again by the server after a refusal, on a phone without JavaScript, "This phone
    plays on" names the sides as the name fields show them."""
    page = new_phone(javascript=False)
    page.goto("/new/other")
    # One side named where Other game needs two: refused, and drawn again.
    page.get_by_label("Side 1", exact=True).fill("Grandma")
    page.get_by_label("Your name").fill("Omar")
    page.get_by_role("button", name="Create match").click()
    expect(page.get_by_text("Name 2 to 8 sides: one name per side.")).to_be_visible()
    expect(page.get_by_label("This phone plays on").locator("option")).to_have_text(
        ["Grandma", *(f"Side {n}" for n in range(2, 9)), "No side: I only keep the sheet"]
    )


@pytest.mark.parametrize("language", ["en", "ar"])
def test_steppers_and_the_sign_button_are_named_in_the_phones_language(
    new_phone, phones, artifacts, language: str
):
    """A screen reader reads the buttons js/forms.js adds by their translated names: the
    calculator's steppers ("One more: Aces") and Brasta's sign button ("Change sign")."""
    say = words(language)
    keeper = phones()
    basra = keeper.create("basra", table_format="2", side_0="Alice", side_1="Ben", host_side="-1")
    brasta = keeper.create("brasta", table_format="2", side_0="Alice", side_1="Ben", host_side="-1")
    page = new_phone(locale=language)

    seat_in(page, language, basra, "Alice")
    page.get_by_role("link", name=say("Count with the calculator")).click()
    steps = page.locator(".count").filter(has=page.locator("#n_aces")).locator(".steps button")
    aces = say("Aces")
    expect(steps.nth(0)).to_have_attribute("aria-label", say("One less: %(what)s", what=aces))
    expect(steps.nth(1)).to_have_attribute("aria-label", say("One more: %(what)s", what=aces))
    page.screenshot(path=artifacts / f"inputs-{language}-steppers.png", full_page=True)

    seat_in(page, language, brasta, "Alice")
    expect(page.locator("#entry button.sign")).to_have_attribute("aria-label", say("Change sign"))
