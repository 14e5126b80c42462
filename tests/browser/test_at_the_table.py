"""What a real table stumbled on (issue 13), on 360-px Chromium phones: each test fails on the
app as it was before its fix."""

from __future__ import annotations

from datetime import UTC
from zoneinfo import ZoneInfo

import pytest
import sqlalchemy as sa
from babel.dates import format_skeleton, format_time
from playwright.sync_api import expect

from scorekeeper.extensions import db
from scorekeeper.models import Correction
from tests.browser.moves import LIVE_MS, cell, create_match, enter, join, seat, stay, told

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


# Phones have names.


def test_names_tell_two_partners_apart(new_phone, artifacts):
    """Each phone gives its player's name once; the host's tools, "waiting for", the trail
    and History say "Sara (Us)", not "Us" twice."""
    omar, sara, ben, bo = (new_phone() for _ in range(4))
    code = create_match(omar, "Basra", "4 in 2 partnerships", ["Us", "Them"], player="Omar")
    join(sara, code, "Us", "Sara")
    join(ben, code, "Them", "Ben")
    join(bo, code, "Them", "Bo")
    expect(ben.locator(".code-line")).to_contain_text("Ben holds Them")

    tools = omar.locator(".host-tools")
    for who in ("Sara (Us)", "Ben (Them)", "Bo (Them)"):
        expect(tools.get_by_role("link", name=f"Make {who} host…")).to_be_visible(timeout=LIVE_MS)
    expect(ben.locator(".status")).to_contain_text(
        "Hand 1: waiting for Us (Omar, Sara), Them (Ben, Bo)"
    )

    enter(sara, 1, "Us", 20)
    enter(bo, 1, "Them", 5)
    cell(omar, 1, 1).get_by_role("link").click()
    omar.get_by_label("Points").fill("7")
    omar.get_by_role("button", name="Correct", exact=True).click()
    for phone in (omar, ben):
        expect(phone.locator(".trail")).to_contain_text("by Omar (Us), the host", timeout=LIVE_MS)
    omar.screenshot(path=artifacts / "names-host.png", full_page=True)

    # A name is kept on the phone: the next match offers it, and it can be changed here.
    expect(omar.get_by_role("link", name="Change name")).to_be_visible()
    omar.get_by_role("link", name="Change name").click()
    omar.get_by_label("Your name").fill("Omar K")
    omar.get_by_role("button", name="Save").click()
    told(omar, "This phone is now Omar K (Us).")
    expect(ben.locator(".trail")).to_contain_text("by Omar K (Us), the host", timeout=LIVE_MS)

    ben.get_by_role("link", name="History").click()
    expect(ben.locator(".history .players")).to_have_text("Omar K & Sara (Us) · Ben & Bo (Them)")
    ben.goto("/new/basra")
    expect(ben.get_by_label("Your name")).to_have_value("Ben")


def test_this_phone_plays_on_offers_the_names_just_typed(new_phone):
    """The create form's "This phone plays on" lists the sides by the names typed, and only
    as many as the chosen table seats."""
    page = new_phone()
    page.goto("/new/basra")
    page.get_by_label("2 head to head").check()
    page.get_by_label("Side 1", exact=True).fill("Grandma")
    page.get_by_label("Side 2", exact=True).fill("Kids")
    plays_on = page.get_by_label("This phone plays on")
    offered = plays_on.locator("option:not([hidden])")
    expect(offered).to_have_text(["Grandma", "Kids", "No side: I only keep the sheet"])
    page.get_by_label("3 each for themselves").check()
    expect(offered).to_have_text(["Grandma", "Kids", "Side 3", "No side: I only keep the sheet"])


# The sheet reads like a good paper sheet.


def test_the_sheet_says_who_leads_what_is_left_and_why_play_goes_on(new_phone, phones, artifacts):
    """Each hand shows its points and, small, the running total; under the totals, how far
    each side is from the target and who leads by how much; at 50–50 over a 50 target, why
    nobody has won."""
    them = phones()
    page = new_phone()
    code = create_match(page, "Other game", "2 to 8 sides", ["Us", "Them"], target_points=50)
    them.join(code, side=1)
    enter(page, 1, "Us", 30)
    them.enter(code, 1, 1, 25)
    expect(cell(page, 1, 0).get_by_role("link")).to_have_attribute(
        "data-run", "30", timeout=LIVE_MS
    )
    expect(page.locator("tr.to-go td")).to_have_text(["20", "25"])
    expect(page.locator(".standing")).to_have_text("Us ahead by 5 · 50 points wins.")

    enter(page, 2, "Us", 20)
    them.enter(code, 2, 1, 25)
    expect(cell(page, 2, 1).get_by_role("link")).to_have_attribute(
        "data-run", "50", timeout=LIVE_MS
    )
    expect(page.locator(".status .notice")).to_have_text(
        "Us and Them are level at 50, past 50: play on until the tie breaks."
    )
    expect(page.locator(".standing")).to_have_text("Us and Them level at 50 · 50 points wins.")
    expect(page.locator("tr.to-go td")).to_have_text(["✓", "✓"])
    page.screenshot(path=artifacts / "sheet-level-past-target.png", full_page=True)


def test_brisca_says_who_took_the_round_and_refuses_an_impossible_one(new_phone, phones):
    """ "Ben took round 1, 61–59" after a round; an entry the other side's makes impossible
    (70 beside 70 of a 120-point deck) is refused, naming it, and nothing is saved."""
    alice = phones()
    ben = new_phone()
    code = alice.create("brisca", table_format="2", side_0="Alice", side_1="Ben")
    seat(ben, code, "Ben")
    alice.enter(code, 1, 0, 70)
    expect(ben.locator("#entry h2")).to_have_text("Round 1: Ben", timeout=LIVE_MS)
    ben.get_by_label("Card points this round (0–120)").fill("70")
    ben.get_by_role("button", name="Enter", exact=True).click()
    expect(ben.locator(".flash.error")).to_have_text(
        "Round 1: nothing was saved. Alice 70 already: with your 70 the round's card points "
        "come to 140, and the deck holds 120. Yours would be 50. If theirs is wrong, the host "
        "can correct it."
    )
    expect(cell(ben, 1, 1)).to_have_text("…")

    ben.get_by_label("Card points this round (0–120)").fill("50")
    ben.get_by_role("button", name="Enter", exact=True).click()
    told(ben, "Round 1: Ben 50 recorded.")
    expect(ben.locator(".round-taken")).to_have_text("Alice took round 1, 70–50.")


def test_what_a_tap_did_goes_once_the_sheet_moves_on(new_phone, phones):
    """ "Hand 1: Alice 20 recorded." is said, and goes when the next change arrives live."""
    ben = phones()
    alice = new_phone()
    code = ben.create("basra", table_format="2", side_0="Alice", side_1="Ben", host_side="1")
    seat(alice, code, "Alice")
    enter(alice, 1, "Alice", 20)
    ben.enter(code, 1, 1, 5)
    expect(cell(alice, 1, 1)).to_have_text("5", timeout=LIVE_MS)
    expect(alice.locator(".flash")).to_have_count(0)


# Eight sides on a 360-px phone.

EIGHT = ["Grandma Rose", "Grandpa", "Uncle Abdelrahman", "Kids", "Zeinab", "Omar", "Layla", "Bob"]


def test_eight_sides_fit_360_px_without_breaking_a_word_or_a_number(new_phone, phones, artifacts):
    """No name or number wraps mid-word, nothing scrolls sideways, and the cells the host taps
    are a thumb tall."""
    page = new_phone()
    code = create_match(page, "Other game", "2 to 8 sides", EIGHT, target_points=100000)
    others = [phones() for _ in EIGHT[1:]]
    for at, phone in enumerate(others, start=1):
        phone.join(code, side=at)
    for hand, points in enumerate([[4560, -1200, 9999, 7, 310, 45, 0, 1335]] * 2, start=1):
        enter(page, hand, EIGHT[0], points[0])
        for at, phone in enumerate(others, start=1):
            phone.enter(code, hand, at, points[at])
    expect(page.locator("tr.totals td")).to_have_text(
        ["9,120", "-2,400", "19,998", "14", "620", "90", "0", "2,670"], timeout=LIVE_MS
    )
    measured = page.evaluate(
        """() => ({
            wide: document.documentElement.scrollWidth,
            // Each name stands in one line up its column: no wider than one line of text.
            names: [...document.querySelectorAll("table.sheet thead .name")].map((n) => [
                n.textContent,
                n.getBoundingClientRect().width / parseFloat(getComputedStyle(n).lineHeight),
            ]),
            // Each number on one line, inside its own cell.
            numbers: [...document.querySelectorAll("table.sheet td, table.sheet tfoot th")]
                .filter((td) => td.offsetParent !== null)
                .map((td) => [td.textContent, td.scrollWidth - td.clientWidth,
                              td.getBoundingClientRect().height]),
            taps: [...document.querySelectorAll("table.sheet tbody td a")].map(
                (a) => a.getBoundingClientRect().height),
        })"""
    )
    page.screenshot(path=artifacts / "sheet-eight-sides.png", full_page=True)
    assert measured["wide"] <= 360, measured
    assert all(lines <= 1.05 for _, lines in measured["names"]), measured["names"]
    assert [cell for cell in measured["numbers"] if cell[1] > 0] == []
    assert min(measured["taps"]) >= 44, measured["taps"]
    # The chart's target label is read whole, however many digits it has.
    chart = page.locator("figure svg.chart").bounding_box()
    label = page.locator("figure svg.chart text", has_text="100,000").bounding_box()
    assert chart["x"] <= label["x"] and label["x"] + label["width"] <= chart["x"] + chart["width"]


def test_brisca_target_is_a_list_and_the_qr_page_says_what_it_is(new_phone):
    """Brisca's ten targets are one list, not ten radio buttons; the full-screen QR page has a
    heading that says what scanning it does."""
    page = new_phone()
    page.goto("/new/brisca")
    target = page.get_by_label("Target")
    expect(target).to_have_value("3")
    expect(page.locator("input[name=target]")).to_have_count(0)
    code = create_match(page, "Brisca", "2 head to head", ["Ana", "Bea"])
    page.goto(f"/m/{code}/qr")
    expect(page.get_by_role("heading", level=1)).to_have_text("Join the match: Brisca")


# Times in the phone's own zone.


def test_times_show_in_the_phone_zone_and_say_utc_without_javascript(
    live_server, new_phone, phones
):
    """The trail and History show a correction's time where the phone is (Tokyo: UTC+9); a
    phone without JavaScript reads the server's UTC, labelled so."""
    host, ben = phones(), phones()
    code = host.create("basra", table_format="2", side_0="Alice", side_1="Ben")
    ben.join(code, side=1)
    host.enter(code, 1, 0, 20)
    ben.enter(code, 1, 1, 5)
    host.correct(code, 1, 1, 7)
    with live_server.app.app_context():
        made_at = db.session.scalar(sa.select(Correction.made_at))
    made_at = made_at.replace(tzinfo=UTC)
    tokyo = format_time(made_at, "short", tzinfo=ZoneInfo("Asia/Tokyo"), locale="en")

    # The phone's first page tells the server its zone, and fetches the sheet again in it.
    phone = new_phone(timezone="Asia/Tokyo")
    phone.goto(f"/m/{code}")
    trail_time = phone.locator(".trail time")
    expect(trail_time).to_contain_text(tokyo, timeout=LIVE_MS)
    expect(trail_time).not_to_contain_text("UTC")

    plain = new_phone(javascript=False)
    plain.goto(f"/m/{code}")
    day = format_skeleton("MMMd", made_at, tzinfo=UTC, locale="en")
    utc = format_time(made_at, "short", tzinfo=UTC, locale="en")
    expect(plain.locator(".trail time")).to_have_text(f"{day}, {utc} UTC")


# Resume and rematch.


def test_home_resumes_an_open_match_and_an_ended_one_offers_a_rematch(new_phone, artifacts):
    """Home lists this phone's unfinished match, one tap back in. After End match, Rematch
    starts the same game with the same sides, and the other phone takes its side there with
    one tap, its name with it."""
    omar, ben = new_phone(), new_phone()
    code = create_match(omar, "Basra", "2 head to head", ["Omar", "Ben"], player="Omar")
    join(ben, code, "Ben", "Ben")
    ben.goto("/")
    ben.get_by_role("link", name="Basra · Omar – Ben").click()
    expect(ben).to_have_url(f"/m/{code}")
    stay(ben)

    enter(omar, 1, "Omar", 101)
    enter(ben, 1, "Ben", 20)
    ben.get_by_role("button", name="End match: Omar wins").click()
    told(ben, "Match over: Omar won.")
    ben.goto("/")
    expect(ben.locator(".resume")).to_have_count(0)

    omar.get_by_role("button", name="Rematch: the same sides again").click(timeout=LIVE_MS)
    told(omar, "Rematch! Every phone of the last match is asked to take its side.")
    expect(omar.locator(".code-line")).to_have_text("This phone holds Omar · Host · Change name")
    again = omar.locator("summary .code").inner_text()
    assert again != code

    ben.goto(f"/m/{code}")
    ben.screenshot(path=artifacts / "rematch-offered.png", full_page=True)
    ben.get_by_role("button", name="Play the rematch as Ben").click()
    told(ben, "This phone now holds Ben.")
    expect(ben).to_have_url(f"/m/{again}")
    expect(ben.locator(".code-line")).to_contain_text("This phone holds Ben")
    expect(ben.locator("h1")).to_contain_text("Basra to 101 points")


# A whole hand corrected at once.


def test_the_host_fixes_a_26_26_hand_in_one_form(new_phone, phones, artifacts):
    """A 26–26 hand made 27–25: the host opens the hand by its number, changes both cells in
    one form, and the sheet goes from the old hand to the new one with nothing half-fixed in
    between; both changes are in the trail."""
    host = new_phone()
    code = create_match(host, "Basra", "2 head to head", ["Us", "Them"], player="Omar")
    them = phones()
    them.join(code, side=1)
    enter(host, 1, "Us", 26)
    them.enter(code, 1, 1, 26)
    expect(cell(host, 1, 1)).to_have_text("26", timeout=LIVE_MS)

    host.locator("table.sheet tbody th").first.get_by_role("link").click()
    expect(host.locator("h1")).to_have_text("Correct hand 1")
    host.get_by_label("Us: points").fill("27")
    host.get_by_label("Them: points").fill("25")
    host.get_by_label("Reason (optional)").fill("recounted")
    host.screenshot(path=artifacts / "correct-whole-hand.png", full_page=True)
    host.get_by_role("button", name="Save the hand").click()
    told(host, "Hand 1 corrected: Us 26 → 27, Them 26 → 25.")
    expect(host.locator("tr.totals td")).to_have_text(["27", "25"])
    expect(host.locator(".trail li")).to_have_count(2)
    expect(host.locator(".trail")).to_contain_text("Hand 1, Us: 26 → 27 (recounted)")
    expect(host.locator(".trail")).to_contain_text("Hand 1, Them: 26 → 25 (recounted)")


# Other game: lowest wins, or a fixed number of hands.


def test_other_game_lowest_total_wins_like_hearts(new_phone, phones, artifacts):
    """Hearts: the match ends when a side reaches 100 and the lowest total wins; until then the
    sheet shows how much room each side has left under the limit."""
    page = new_phone(dark=True)
    page.goto("/new/other")
    page.get_by_label("The lowest total when a side reaches the target (as in Hearts)").check()
    page.get_by_label("Target (points)").fill("100")
    page.get_by_label("Side 1", exact=True).fill("Omar")
    page.get_by_label("Side 2", exact=True).fill("Ben")
    page.get_by_label("Your name").fill("Omar")
    page.get_by_role("button", name="Create match").click()
    code = page.locator("summary .code").inner_text()
    ben = phones()
    ben.join(code, side=1)
    enter(page, 1, "Omar", 40)
    ben.enter(code, 1, 1, 70)
    expect(page.locator(".standing")).to_have_text(
        "Omar ahead by 30 · The lowest total when a side reaches 100 wins.", timeout=LIVE_MS
    )
    expect(page.locator("tr.to-limit")).to_have_text("To the limit6030")
    page.screenshot(path=artifacts / "sheet-to-limit.png", full_page=True)
    tv = new_phone(viewport=TV, dark=True)
    tv.goto(f"/m/{code}/tv")
    expect(tv.locator(".tv-to-go")).to_have_text(["60 to the limit", "30 to the limit"])
    tv.screenshot(path=artifacts / "tv-to-limit.png")
    enter(page, 2, "Omar", 10)
    ben.enter(code, 2, 1, 35)
    expect(page.locator(".status .result")).to_have_text(
        "Omar has won! Lowest when a side reached 100", timeout=LIVE_MS
    )


def test_other_game_of_a_fixed_number_of_hands(new_phone, phones):
    """Three hands, then the highest total wins; the sheet counts the hands left."""
    page = new_phone()
    page.goto("/new/other")
    page.get_by_label(
        "The highest total after a number of hands: the target is that number"
    ).check()
    page.get_by_label("Target (points)").fill("3")
    page.get_by_label("Side 1", exact=True).fill("Omar")
    page.get_by_label("Side 2", exact=True).fill("Ben")
    page.get_by_label("Your name").fill("Omar")
    page.get_by_role("button", name="Create match").click()
    expect(page.locator("h1")).to_contain_text("to 3 hands")
    code = page.locator("summary .code").inner_text()
    ben = phones()
    ben.join(code, side=1)
    for hand, (mine, his) in enumerate([(500, 10), (5, 20), (5, 20)], start=1):
        enter(page, hand, "Omar", mine)
        ben.enter(code, hand, 1, his)
        if hand == 2:
            expect(page.locator(".standing")).to_contain_text(
                "The highest after 3 hands wins: 1 to go.", timeout=LIVE_MS
            )
    expect(page.locator(".status .result")).to_have_text(
        "Omar has won! Highest after 3 hands", timeout=LIVE_MS
    )


# History: a finished match taken off this phone's list; the whole match exported.


def test_history_removes_a_finished_match_with_two_taps(new_phone, phones, artifacts):
    ben = phones()
    omar = new_phone()
    code = create_match(omar, "Basra", "2 head to head", ["Omar", "Ben"], player="Omar")
    ben.join(code, side=1)
    enter(omar, 1, "Omar", 101)
    ben.enter(code, 1, 1, 5)
    omar.get_by_role("button", name="End match: Omar wins").click(timeout=LIVE_MS)
    told(omar, "Match over: Omar won.")
    with omar.expect_download() as download:
        omar.get_by_role("link", name="The whole match (JSON)").click()
    assert download.value.suggested_filename == f"scorekeeper-basra-{code}.json"

    omar.get_by_role("link", name="History").click()
    omar.get_by_text("Remove…").click()
    omar.screenshot(path=artifacts / "history-remove.png", full_page=True)
    omar.get_by_role("button", name=f"Remove {code} from this phone's list").click()
    told(omar, f"Match {code} is off this phone's list.")
    expect(omar.locator(f'.history a[href="/m/{code}"]')).to_have_count(0)


# Who deals next.


def test_the_deal_passes_round_the_table_across_partners(new_phone, phones, artifacts):
    """The host says who dealt first; the sheet names each next dealer, round the table in
    seating order: a player of each side in turn (docs/rules/README.md, "Who deals")."""
    omar = new_phone()
    code = create_match(omar, "Basra", "4 in 2 partnerships", ["Us", "Them"], player="Omar")
    sara, ben, bo = phones(), phones(), phones()
    ben.post(f"/m/{code}/claim", {"target": 1, "player": "Ben"})
    sara.post(f"/m/{code}/claim", {"target": 0, "player": "Sara"})
    bo.post(f"/m/{code}/claim", {"target": 1, "player": "Bo"})
    omar.reload()

    dealer = omar.get_by_label("Who dealt the first hand?")
    expect(dealer.locator("option")).to_have_text(
        ["Omar (Us)", "Ben (Them)", "Sara (Us)", "Bo (Them)"]
    )
    dealer.select_option(label="Ben (Them)")
    # A change at the table meanwhile (a watcher joins) does not undo the choice not yet set.
    # (The live part waits while a choice in it is not sent: it comes with the next fetch.)
    with omar.expect_response(lambda r: r.url.endswith("/live")) as rung:
        phones().post(f"/m/{code}/watch", {"player": "Grandma"})
    assert rung.value.status == 200
    # The page has done with that answer once it fetches again (a fetch waits for the one
    # before): brought about by the page being seen again.
    with omar.expect_request(lambda r: r.url.endswith("/live")):
        omar.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    expect(dealer).to_have_value("1")
    omar.get_by_role("button", name="Set the dealer").click()
    told(omar, "Ben (Them) dealt the first hand.")
    expect(omar.locator(".dealer")).to_have_text("Ben (Them) deals hand 1.")

    enter(omar, 1, "Us", 20)
    bo.enter(code, 1, 1, 23)
    expect(omar.locator(".dealer")).to_have_text("Sara (Us) deals hand 2.", timeout=LIVE_MS)
    omar.screenshot(path=artifacts / "dealer.png", full_page=True)
    # The README's picture of a sheet at the table (docs/at-the-table-sheet.png).
    omar.locator("#live").scroll_into_view_if_needed()
    omar.screenshot(path=artifacts / "readme-sheet.png")
    sara.enter(code, 2, 0, 10)
    ben.enter(code, 2, 1, 33)
    expect(omar.locator(".dealer")).to_have_text("Bo (Them) deals hand 3.", timeout=LIVE_MS)


# A TV or laptop across the room.

TV = {"width": 1280, "height": 720}


def test_a_tv_shows_big_totals_live_and_the_join_code_while_a_side_is_free(
    new_phone, phones, artifacts
):
    """A laptop watching at 1280×720 is offered the TV view: totals big enough to read across
    a room, the last hand, the chart, and the join QR while a side is free; it follows the
    table live. No "which side is this phone" box once every side is held."""
    host = phones()
    code = host.create("basra", table_format="2", side_0="Alice", side_1="Ben")
    laptop = new_phone(viewport=TV)
    laptop.goto(f"/m/{code}")
    laptop.get_by_label("Your name").fill("Grandma")
    laptop.get_by_role("button", name="Just watch").click()
    told(laptop, "Watching this match.")
    # One side is free: the laptop, watching, is not asked to take it...
    expect(laptop.get_by_role("button", name="I'm Ben")).to_be_visible()
    laptop.get_by_role("link", name="TV view: big numbers for the room").click()
    expect(laptop.locator(".tv-qr")).to_be_visible()
    expect(laptop.locator(".tv-qr .code")).to_have_text(code)

    ben = phones()
    ben.join(code, side=1)
    host.enter(code, 1, 0, 48)
    ben.enter(code, 1, 1, 5)
    expect(laptop.locator(".tv-total")).to_have_text(["48", "5"], timeout=LIVE_MS)
    expect(laptop.locator(".tv-qr")).to_have_count(0)
    expect(laptop.locator(".tv-last")).to_have_text("Hand 1: Alice 48 · Ben 5")
    expect(laptop.locator(".tv-to-go")).to_have_text(["53 to go", "96 to go"])
    size = laptop.locator(".tv-total").first.evaluate(
        "e => parseFloat(getComputedStyle(e).fontSize)"
    )
    assert size >= 80, size
    fits = laptop.evaluate("document.documentElement.scrollHeight <= innerHeight + 1")
    assert fits, "the TV view scrolls at 1280×720"
    laptop.screenshot(path=artifacts / "tv-1280x720.png")

    # Back on the sheet: every side held, so no claim box listing taken sides.
    laptop.goto(f"/m/{code}")
    expect(laptop.locator(".claim")).to_have_count(0)
    expect(laptop.locator(".code-line")).to_contain_text("Grandma is watching")


def test_go_on_the_keyboard_after_a_name_claims_no_side(new_phone, phones):
    """The name box shares its form with the side buttons: Enter (Go) sends nothing, so a
    thumb finishing its name does not take the first side by mistake."""
    host = phones()
    code = host.create("basra", table_format="2", side_0="Alice", side_1="Ben", host_side="-1")
    page = new_phone()
    page.goto(f"/m/{code}")
    page.get_by_label("Your name").fill("Ben")
    # A form sent by Go says so at once, before anything goes out: its submit event.
    page.evaluate(
        "window.submitted = 0;document.addEventListener('submit', () => window.submitted++, true)"
    )
    page.get_by_label("Your name").press("Enter")
    assert page.evaluate("window.submitted") == 0, "Go sent the form"
    expect(page.locator(".code-line")).to_have_text("Not at the table yet")
    expect(page.get_by_role("button", name="I'm Alice")).to_be_visible()


def test_a_released_side_s_own_phone_takes_it_back_on_a_closed_table(new_phone, phones, artifacts):
    """The host released Ben by mistake and closed the table: Ben's phone is offered Ben again
    with one tap; a phone that only watches is told the table is closed, and asked for no name
    it could not send (here in Arabic, right to left, in the dark)."""
    host = phones()
    code = host.create("basra", table_format="2", side_0="Alice", side_1="Ben", host_side="0")
    ben = new_phone(dark=True)
    seat(ben, code, "Ben")
    host.enter(code, 1, 0, 40)
    enter(ben, 1, "Ben", 12)
    host.post(f"/m/{code}/release", {"target": 1, "confirmed": "y"})
    host.post(f"/m/{code}/close")

    ben.reload()
    card = ben.locator(".claim")
    expect(card.get_by_label("Your name")).to_have_value("Ben")
    expect(card.locator(".notice")).to_have_count(0)
    ben.screenshot(path=artifacts / "claim-taken-back.png", full_page=True)
    ben.get_by_role("button", name="I'm Ben").click()
    told(ben, "This phone now holds Ben.")
    enter(ben, 2, "Ben", 7)

    watcher = new_phone(dark=True, locale="ar")
    watcher.goto(f"/m/{code}")
    expect(watcher.locator("html")).to_have_attribute("dir", "rtl")
    watcher.locator("#player").fill("جدّة")
    watcher.locator(".claim button[formaction]").click()
    expect(watcher.locator(".code-line")).to_contain_text("جدّة")
    # Ben is free again: the watcher sees why it cannot take Ben, and no name field.
    host.post(f"/m/{code}/release", {"target": 1, "confirmed": "y"})
    watcher.reload()
    claim_card = watcher.locator(".claim")
    expect(claim_card.locator(".notice")).to_be_visible()
    expect(claim_card.locator("input[name=player]")).to_have_count(0)
    expect(claim_card.get_by_role("button")).to_have_count(0)
    watcher.screenshot(path=artifacts / "claim-closed-watcher-ar.png", full_page=True)
