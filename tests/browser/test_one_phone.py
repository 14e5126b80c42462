"""One phone keeps the sheet (issue 30), on a 360-px Chromium phone: a table whose only phone is
the host's plays a whole match of each game to its end, every hand from the sheet's one form
(and a side's calculator), and End match tapped."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.moves import LIVE_MS, enter, fill_new_match, not_reloaded, seat, stay, told

pytestmark = pytest.mark.browser

KEEP_ONLY = "No side: I only keep the sheet"


def keep_a_match(
    page: Page,
    game: str,
    table: str,
    names: list[str],
    *,
    target: str | None = None,
    target_points: int | None = None,
    plays: str | None = None,
) -> str:
    """Create a match through the real form, this phone keeping the sheet with no side (or
    playing `plays`); return its code."""
    fill_new_match(
        page,
        game,
        table,
        names,
        target=target,
        target_points=target_points,
        plays=plays or KEEP_ONLY,
    )
    expect(page.locator("#entry h2")).to_contain_text(": each side's total")
    # The host who keeps the sheet is not asked which side it is, and says what it does.
    expect(page.get_by_text("Which side is this phone?")).to_have_count(0)
    if plays is None:
        expect(page.locator(".code-line")).to_have_text(
            "Hosni keeps the sheet · Host · Change name"
        )
    stay(page)
    return page.locator("summary .code").inner_text()


def side_line(page: Page, side: str):
    """One side's line in the host's form for the whole hand."""
    return page.get_by_role("group", name=side, exact=True)


def enter_hand(
    page: Page,
    hand: int,
    totals: dict[str, int],
    *,
    ticked: tuple[tuple[str, str], ...] = (),
    word: str = "Hand",
) -> None:
    """Type every side's total of the open hand into the one form, tick what is ticked (side,
    tick's words), and tap Enter once."""
    expect(page.locator("#entry h2")).to_have_text(f"{word} {hand}: each side's total")
    for side, points in totals.items():
        page.get_by_label(f"{side}: points").fill(str(points))
    for side, tick in ticked:
        side_line(page, side).get_by_label(tick).check()
    page.get_by_role("button", name="Enter", exact=True).click()
    said = ", ".join(f"{side} {points}" for side, points in totals.items())
    told(page, f"{word} {hand}: {said} recorded.")


def end_match(page: Page, winner: str) -> None:
    """End match, as the sheet offers it once a side has won."""
    page.get_by_role("button", name=f"End match: {winner} wins").click()
    told(page, f"Match over: {winner} won.")
    expect(page.locator(".status .result")).to_contain_text(f"{winner} won.")


def totals_are(page: Page, totals: list[str]) -> None:
    """The totals row under the sheet."""
    expect(page.locator("table.sheet tr.totals td")).to_have_text(totals)


def fits(page: Page) -> None:
    """Nothing on the page is wider than the phone."""
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


def test_basra_kept_on_one_phone_through_the_calculators(new_phone, artifacts: Path):
    """Hand 1 through each side's calculator (docs/rules/basra.md, "Worked hand": 48 and 5), hand 2
    an even split ticked on both lines, hand 3 in plain totals past the target."""
    page = new_phone()
    keep_a_match(page, "Basra", "2 head to head", ["Alice", "Ben"], target="101 points")
    # The open hand's row is on the sheet, each cell the host's to fill.
    expect(page.locator("table.sheet a.fill")).to_have_count(2)
    fits(page)
    page.screenshot(path=artifacts / "one-phone-basra-form.png", full_page=True)

    page.get_by_role("link", name="Count Alice with the calculator").click()
    expect(page.get_by_text("Reason (optional)")).to_have_count(0)
    for field, count in (("#n_cards", 30), ("#n_aces", 3), ("#n_jacks", 2), ("#n_basras", 1)):
        page.locator(field).fill(str(count))
    page.locator("#n_ten_diamonds").check()
    page.get_by_role("button", name="Enter 48").click()
    told(page, "Hand 1: Alice 48 recorded.")

    page.get_by_role("link", name="Count Ben with the calculator").click()
    for field, count in (("#n_cards", 22), ("#n_aces", 1), ("#n_jacks", 2)):
        page.locator(field).fill(str(count))
    page.locator("#n_two_clubs").check()
    page.get_by_role("button", name="Enter 5").click()
    told(page, "Hand 1: Ben 5 recorded.")
    totals_are(page, ["48", "5"])

    split = "Cards split evenly (26–26): nobody took the majority"
    enter_hand(page, 2, {"Alice": 10, "Ben": 6}, ticked=(("Alice", split), ("Ben", split)))
    expect(page.locator(".status")).to_contain_text("Next majority worth 60")
    totals_are(page, ["58", "11"])
    enter_hand(page, 3, {"Alice": 70, "Ben": 4})
    totals_are(page, ["128", "15"])
    # The trail names the host's fills as entries, once a side: nothing is a correction.
    expect(page.locator(".trail.filled")).to_contain_text("Ben, hands 1–3: by Hosni, the host")
    expect(page.get_by_role("heading", name="Corrections")).to_have_count(0)
    end_match(page, "Alice")
    page.screenshot(path=artifacts / "one-phone-basra-ended.png", full_page=True)


def test_pastura_for_three_kept_on_one_phone(new_phone):
    page = new_phone()
    keep_a_match(
        page, "Pastura", "3 each for themselves", ["Ana", "Omar", "Sami"], target="51 points"
    )
    enter_hand(page, 1, {"Ana": 20, "Omar": 5, "Sami": 4})
    enter_hand(page, 2, {"Ana": 18, "Omar": 9, "Sami": 2})
    enter_hand(page, 3, {"Ana": 15, "Omar": 3, "Sami": 6})
    totals_are(page, ["53", "17", "12"])
    end_match(page, "Ana")


def test_brisca_kept_on_one_phone_with_a_tied_round(new_phone):
    """Card points per round; a 60–60 round asks the host who took the last trick."""
    page = new_phone()
    keep_a_match(page, "Brisca", "2 head to head", ["Ana", "Bea"])
    enter_hand(page, 1, {"Ana": 70, "Bea": 50}, word="Round")
    enter_hand(page, 2, {"Ana": 60, "Bea": 60}, word="Round")
    page.locator(".status").get_by_role("button", name="Bea", exact=True).click()
    told(page, "Round 2: Bea took the last trick.")
    enter_hand(page, 3, {"Ana": 90, "Bea": 30}, word="Round")
    enter_hand(page, 4, {"Ana": 61, "Bea": 59}, word="Round")
    totals_are(page, ["3", "1"])
    end_match(page, "Ana")


def test_brasta_kept_on_one_phone_with_negative_totals(new_phone):
    page = new_phone()
    keep_a_match(page, "Brasta", "2 head to head", ["Ana", "Bea"], target="201 Quick")
    enter_hand(page, 1, {"Ana": 120, "Bea": -10})
    enter_hand(page, 2, {"Ana": 95, "Bea": 30})
    totals_are(page, ["215", "20"])
    end_match(page, "Ana")


def test_other_game_kept_by_a_host_who_plays_a_side(new_phone, artifacts: Path):
    """Four sides, one phone: the host plays Us and fills the three others in the same form;
    its own side is its entry, the others' its fills."""
    page = new_phone()
    names = ["Us", "Them", "You", "Others"]
    keep_a_match(page, "Other game", "2 to 8 sides", names, target_points=100, plays="Us")
    enter_hand(page, 1, {"Us": 60, "Them": 10, "You": 20, "Others": 0})
    enter_hand(page, 2, {"Us": 45, "Them": 30, "You": 5, "Others": 12})
    totals_are(page, ["105", "40", "25", "12"])
    trail = page.locator(".trail")
    expect(trail).to_contain_text("Them, hands 1, 2: by Hosni (Us), the host")
    expect(trail).not_to_contain_text("Us, hand")
    end_match(page, "Us")


def test_the_one_form_in_arabic_and_dark(new_phone, artifacts: Path):
    """The form as an Arabic phone in dark mode draws it: Basra's, with its calculators and
    ticks, and eight sides' at 360 px."""
    page = new_phone(dark=True)
    basra = keep_a_match(page, "Basra", "3 each for themselves", ["Alice", "Ben", "Cy"])
    names = [f"Side {n}" for n in range(1, 9)]
    keep_a_match(page, "Other game", "2 to 8 sides", names, target_points=500)
    page.screenshot(path=artifacts / "one-phone-eight-sides-dark.png", full_page=True)
    fits(page)
    page.locator("details.language summary").click()
    page.get_by_role("button", name="العربية", exact=True).click()
    expect(page.locator("html")).to_have_attribute("dir", "rtl")
    expect(page.locator("#entry h2")).to_have_text("اليد 1: مجموع كل فريق")
    fits(page)
    page.screenshot(path=artifacts / "one-phone-eight-sides-ar-dark.png", full_page=True)
    page.goto(f"/m/{basra}")
    expect(page.get_by_role("link", name="احسب Alice بالحاسبة")).to_be_visible()
    fits(page)
    page.screenshot(path=artifacts / "one-phone-basra-ar-dark.png", full_page=True)


def test_one_phone_without_javascript(new_phone):
    """The form posts and the page comes back, as without JavaScript every page does."""
    page = new_phone(javascript=False)
    keep_a_match(page, "Pastura", "2 head to head", ["Ana", "Omar"], target="51 points")
    enter_hand(page, 1, {"Ana": 30, "Omar": 2})
    enter_hand(page, 2, {"Ana": 25, "Omar": 4})
    totals_are(page, ["55", "6"])
    end_match(page, "Ana")


def test_a_phone_that_takes_a_side_takes_it_from_the_keepers_form(new_phone):
    """Ben's player opens the match on his own phone: the keeper's form drops Ben by itself
    (live), Ben's phone enters Ben's total, and the keeper's form completes the hand."""
    keeper = new_phone()
    code = keep_a_match(keeper, "Basra", "2 head to head", ["Alice", "Ben"], target="101 points")
    ben = new_phone()
    seat(ben, code, "Ben")
    expect(keeper.get_by_label("Ben: points")).to_have_count(0, timeout=LIVE_MS)
    expect(keeper.locator("#entry")).to_contain_text("A side with a phone enters its own total.")
    not_reloaded(keeper)
    enter(ben, 1, "Ben", 12)
    enter_hand(keeper, 1, {"Alice": 40})
    totals_are(keeper, ["40", "12"])
    expect(ben.locator("table.sheet tr.totals td")).to_have_text(["40", "12"], timeout=LIVE_MS)


@pytest.mark.parametrize("arabic", [False, True], ids=["en-light", "ar-dark"])
def test_a_miscounted_hand_corrected_from_the_cell_that_was_refused(
    new_phone, artifacts: Path, arabic: bool
):
    """Issue 42, point 4: a 26–26 hand counted on both calculators was 27–25. Alice's cell
    first is refused (Ben's 26 beside her 27 is 53 cards); the page offers the whole hand
    with her counts in it, Ben's beside them: 25 there, and both are saved together."""
    page = new_phone(dark=arabic)
    code = keep_a_match(page, "Basra", "2 head to head", ["Alice", "Ben"])
    if arabic:
        page.locator("details.language summary").click()
        page.get_by_role("button", name="العربية", exact=True).click()
        expect(page.locator("html")).to_have_attribute("dir", "rtl")
    enter = page.locator("button[name=intent][value=enter]")
    for position in (0, 1):
        page.goto(f"/m/{code}/hand/1/side/{position}/calc")
        page.locator("#n_cards").fill("26")
        page.locator("#n_aces").fill("2")
        enter.click()
        expect(page.locator("table.sheet")).to_be_visible()
    totals_are(page, ["2", "2"])

    page.goto(f"/m/{code}/hand/1/side/0/calc")
    page.locator("#n_cards").fill("27")
    enter.click()
    offer = page.locator("#whole-hand")
    expect(page.locator(".flash.error")).to_contain_text("27")
    expect(offer.locator("#c0_cards")).to_have_value("27")
    expect(offer.locator("#c1_cards")).to_have_value("26")
    fits(page)
    name = "whole-hand-offer-ar-dark.png" if arabic else "whole-hand-offer.png"
    offer.scroll_into_view_if_needed()
    page.screenshot(path=artifacts / name, full_page=True)
    offer.locator("#c1_cards").fill("25")
    offer.locator("button[type=submit]").click()
    totals_are(page, ["32", "2"])
    # The sheet after: the marks keyed, the correction in its trail, the fills apart.
    expect(page.locator(".marks-key .mark")).to_have_count(2)
    fits(page)
    page.screenshot(path=artifacts / name.replace("offer", "saved"), full_page=True)
