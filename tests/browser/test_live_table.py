"""The live table on phones: real Chromium phones at one table, checked by what they show."""

from __future__ import annotations

from typing import TYPE_CHECKING
from urllib.parse import urlsplit

import pytest
import sqlalchemy as sa
from playwright.sync_api import Page, Request, Route, expect

from scorekeeper.extensions import db
from scorekeeper.models import Entry, Hand, Match, Side
from tests.browser.moves import (
    LIVE_MS,
    PLAIN_TOTAL,
    cell,
    create_match,
    enter,
    join,
    not_reloaded,
    seat,
    see_totals,
    stay,
    told,
)
from tests.phones import Phone

if TYPE_CHECKING:
    from tests.browser.conftest import LiveServer, PhoneMaker

pytestmark = pytest.mark.browser

PAGE_BUDGET = 40 * 1024


def luminance(css_colour: str) -> float:
    """Relative luminance (WCAG) of an `rgb(...)` colour: 0 is black, 1 is white."""
    channels = [int(float(c)) for c in css_colour[css_colour.index("(") + 1 : -1].split(",")[:3]]

    def linear(c: int) -> float:
        s = c / 255
        return s / 12.92 if s <= 0.03928 else ((s + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c) for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def colours(page: Page) -> dict[str, float]:
    """The luminance of the page's background and of the sheet's numbers, as painted."""
    painted = page.evaluate(
        """() => ({
            background: getComputedStyle(document.body).backgroundColor,
            text: getComputedStyle(document.body).color,
            sheet: getComputedStyle(document.querySelector("table.sheet tr.totals td")).color,
        })"""
    )
    return {name: luminance(value) for name, value in painted.items()}


# 1. A whole match.


def test_whole_basra_match_in_partnerships_on_four_phones(new_phone, artifacts):
    """Four phones, two per side: entries, a partner's change, a correction, End match, history."""
    host, ann, ben, bo = (new_phone() for _ in range(4))
    code = create_match(
        host, "Basra", "4 in 2 partnerships", ["Alice & Ann", "Ben & Bo"], target="101 points"
    )
    join(ann, code, "Alice & Ann")
    join(ben, code, "Ben & Bo")
    join(bo, code, "Ben & Bo")
    table = [host, ann, ben, bo]

    # Hand 1: the host's side first; the other phones see it arrive and who is awaited.
    enter(host, 1, "Alice & Ann", 20)
    for phone in (ann, ben, bo):
        expect(cell(phone, 1, 0)).to_have_text("20", timeout=LIVE_MS)
        expect(phone.locator(".status")).to_contain_text("Hand 1: waiting for Ben & Bo")
    enter(ben, 1, "Ben & Bo", 5)
    see_totals(table, ["20", "5"])

    # Hand 2: the host enters, the partner's form shows it, and the partner changes it.
    enter(host, 2, "Alice & Ann", 30)
    expect(ann.get_by_label(PLAIN_TOTAL)).to_have_value("30", timeout=LIVE_MS)
    enter(ann, 2, "Alice & Ann", 33, changed=True)
    for phone in (host, ben, bo):
        expect(cell(phone, 2, 0)).to_have_text("33", timeout=LIVE_MS)
    enter(bo, 2, "Ben & Bo", 10)
    see_totals(table, ["53", "15"])

    # The host taps Ben & Bo's first cell and corrects it; every phone sees it and why.
    cell(host, 1, 1).get_by_role("link").click()
    expect(host.locator("h1")).to_have_text("Hand 1: Ben & Bo")
    host.get_by_label("Points").fill("7")
    host.get_by_label("Reason (optional)").fill("miscounted jacks")
    host.get_by_role("button", name="Correct", exact=True).click()
    told(host, "Hand 1: Ben & Bo corrected from 5 to 7.")
    stay(host)
    see_totals(table, ["53", "17"])
    for phone in (ann, ben, bo):
        expect(phone.locator(".trail")).to_contain_text(
            "Hand 1, Ben & Bo: 5 → 7 (miscounted jacks)", timeout=LIVE_MS
        )
        expect(cell(phone, 1, 1)).to_have_text("7✎")

    # Hand 3 takes Alice & Ann past 101: End match is offered on every seated phone.
    enter(ann, 3, "Alice & Ann", 50)
    enter(ben, 3, "Ben & Bo", 12)
    see_totals(table, ["103", "29"])
    end = "End match: Alice & Ann wins"
    for phone in table:
        expect(phone.get_by_role("button", name=end)).to_be_visible(timeout=LIVE_MS)
        expect(phone.locator(".status")).to_contain_text("Alice & Ann has won!")

    # Bo, on the losing side and not the host, ends it; the result reaches every phone.
    bo.get_by_role("button", name=end).click()
    told(bo, "Match over: Alice & Ann won.")
    for phone in table:
        expect(phone.locator(".status .result")).to_contain_text(
            "Alice & Ann won.", timeout=LIVE_MS
        )
        expect(phone.get_by_role("button", name=end)).to_have_count(0)
    for phone in (host, ann, ben):
        not_reloaded(phone)
    expect(host.get_by_role("button", name="Reopen match")).to_be_visible(timeout=LIVE_MS)
    ben.screenshot(path=artifacts / "basra-ended.png", full_page=True)

    ben.get_by_role("link", name="History").click()
    listed = ben.locator(f'.history a[href="/m/{code}"]')
    expect(listed).to_contain_text("Alice & Ann 103 – Ben & Bo 29")
    expect(listed).to_contain_text("Alice & Ann won.")


# 2. Typing is not lost.


def test_a_number_being_typed_survives_live_refreshes(new_phone, phones):
    """The sheet refreshes under a half-typed entry; the digits stay, and the entry goes in."""
    keeper, ben = phones(), phones()
    code = keeper.create("basra", table_format="2", side_0="Alice", side_1="Ben", host_side="-1")
    ben.join(code, side=1)
    alice = new_phone()
    seat(alice, code, "Alice")

    field = alice.get_by_label(PLAIN_TOTAL)
    field.click()
    field.press_sequentially("4")
    ben.enter(code, 1, 1, 5)
    # The live part refreshed on Alice's phone while her thumb was on the keypad.
    expect(cell(alice, 1, 1)).to_have_text("5", timeout=LIVE_MS)
    expect(alice.locator(".status")).to_contain_text("Hand 1: waiting for Alice")
    expect(field).to_have_value("4")
    expect(field).to_be_focused()

    # She looks up at the sheet (the field loses focus) while Ben fixes his number.
    field.blur()
    ben.enter(code, 1, 1, 6)
    expect(cell(alice, 1, 1)).to_have_text("6", timeout=LIVE_MS)
    expect(field).to_have_value("4")
    not_reloaded(alice)

    field.focus()
    field.press("End")
    field.press_sequentially("2")
    alice.get_by_role("button", name="Enter", exact=True).click()
    told(alice, "Hand 1: Alice 42 recorded.")
    expect(alice.locator("table.sheet tr.totals td")).to_have_text(["42", "6"])


# 3. Offline and back.


def reaches_the_table(request: Request) -> bool:
    """Whether a request is one a page makes to follow its match: its stream or its live part."""
    return request.url.endswith("/live") or "/events" in request.url


def test_a_phone_offline_for_a_while_catches_up_by_itself(new_phone, phones):
    """A partner's phone loses the network while the hand is played, then catches up alone."""
    alice, ben = phones(), phones()
    code = alice.create(
        "basra", table_format="2v2", side_0="Alice & Ann", side_1="Ben & Bo", host_side="0"
    )
    ben.join(code, side=1)
    ann = new_phone()
    seat(ann, code, "Alice & Ann")

    ann.context.set_offline(True)
    note = ann.get_by_text("No connection")
    expect(note).to_be_visible(timeout=LIVE_MS)
    alice.enter(code, 1, 0, 20)
    ben.enter(code, 1, 1, 5)
    # The phone keeps trying the server (its stream reconnecting): it misses a try after the
    # hand was played, as it would all through a minute in a pocket, and still shows nothing.
    ann.wait_for_event("requestfailed", reaches_the_table, timeout=LIVE_MS * 2)
    expect(note).to_be_visible()
    expect(ann.locator("table.sheet tbody tr")).to_have_count(0)

    ann.context.set_offline(False)
    see_totals([ann], ["20", "5"])
    expect(note).to_be_hidden()
    expect(ann.locator("#entry h2")).to_have_text("Hand 2: Alice & Ann", timeout=LIVE_MS)
    enter(ann, 2, "Alice & Ann", 11)
    expect(ann.locator(".status")).to_contain_text("Hand 2: waiting for Ben & Bo")


# 4 and 5. Dark mode, and four sides on 360 px.

FOUR_SIDES = ["Grandma Rose", "Uncle Abdelrahman", "Kids", "Zeinab & Omar"]
# Hands of a long evening: three- and four-digit totals, and a negative hand.
HANDS = [
    [120, 85, 240, 60],
    [-40, 310, 95, 125],
    [505, 0, 130, 1150],
]


def play_four_sides(page: Page, code: str, others: list[Phone]) -> None:
    """Play HANDS: three other phones enter first, then this browser phone completes each hand."""
    # Completing each hand itself, the phone gets the next hand's form at once: these tests
    # are about how the sheet looks, so they need not wait for the live refresh.
    for number, points in enumerate(HANDS, start=1):
        for position, other in enumerate(others, start=1):
            other.enter(code, number, position, points[position])
        page.reload()
        enter(page, number, FOUR_SIDES[0], points[0])
    expect(page.locator("table.sheet tr.totals td")).to_have_text(["585", "395", "465", "1,335"])


def test_the_sheet_follows_the_phone_dark_setting(new_phone, phones, artifacts):
    """Dark phone, dark sheet with light numbers; the same sheet light when the phone is."""
    keeper = phones()
    names = {f"side_{i}": name for i, name in enumerate(FOUR_SIDES)}
    code = keeper.create("other", target="5000", host_side="-1", **names)
    others = [phones() for _ in FOUR_SIDES[1:]]
    for position, other in enumerate(others, start=1):
        other.join(code, side=position)
    page = new_phone(dark=True)
    seat(page, code, FOUR_SIDES[0])
    play_four_sides(page, code, others)
    # Looked at as a player picks the phone up: the entry form for the next hand on top.
    page.reload()
    dark = colours(page)
    assert dark["background"] < 0.05, dark
    assert dark["text"] > 0.7 and dark["sheet"] > 0.3, dark
    page.screenshot(path=artifacts / "sheet-dark.png", full_page=True)

    # The phone switches to its day setting: the open page follows without a reload.
    page.emulate_media(color_scheme="light")
    light = colours(page)
    assert light["background"] > 0.85, light
    assert light["text"] < 0.05 and light["sheet"] < 0.3, light
    page.screenshot(path=artifacts / "sheet-light.png", full_page=True)


def test_four_sides_fit_a_360_px_phone(new_phone, phones, artifacts):
    """Four named sides and four-digit totals need no sideways scrolling, on any page of play."""
    page = new_phone()
    code = create_match(page, "Other game", "2 to 8 sides", FOUR_SIDES, target_points=5000)
    others = [phones() for _ in FOUR_SIDES[1:]]
    for position, other in enumerate(others, start=1):
        other.join(code, side=position)
    play_four_sides(page, code, others)
    page.screenshot(path=artifacts / "sheet-host-light.png", full_page=True)
    # No name spills into the next column ("Abdelrahman" is wider than its column alone).
    spilled = page.evaluate(
        """() => [...document.querySelectorAll("table.sheet thead th")]
            .filter((th) => th.scrollWidth > th.clientWidth)
            .map((th) => th.textContent)"""
    )
    assert spilled == [], spilled
    pages = {
        "sheet": f"/m/{code}",
        "correction": f"/m/{code}/hand/3/side/3/correct",
        "home": "/",
        "create": "/new/other",
        "history": "/history",
    }
    wide = {}
    for name, url in pages.items():
        page.goto(url)
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > 360:
            wide[name] = width
    assert wide == {}, f"pages wider than the phone (px): {wide}"


# 6. Page weight.


def test_a_match_page_is_light_and_served_by_the_app_alone(live_server, new_phone, phones):
    """A four-side sheet after ten hands weighs at most 40 KB over the wire, all from the app."""
    host = phones()
    names = {f"side_{i}": name for i, name in enumerate(FOUR_SIDES)}
    code = host.create("other", target="5000", **names)
    players = [host] + [phones() for _ in FOUR_SIDES[1:]]
    for position, player in enumerate(players[1:], start=1):
        player.join(code, side=position)
    for number in range(1, 11):
        for position, player in enumerate(players):
            player.enter(code, number, position, 10 * number + position)

    page = new_phone()
    finished = []
    page.on("requestfinished", lambda request: finished.append(request))
    page.goto(f"/m/{code}", wait_until="networkidle")
    expect(page.locator("table.sheet tbody tr")).to_have_count(10)

    document = next(r for r in finished if r.url == f"{live_server.url}/m/{code}")
    assert "gzip" in document.all_headers()["accept-encoding"]
    encoding = document.response().all_headers().get("content-encoding")
    assert encoding in {"gzip", "br", "zstd"}
    weights = {}
    for request in finished:
        sizes = request.sizes()
        weights[request.url] = sizes["responseBodySize"] + sizes["responseHeadersSize"]
    print(f"\nmatch page over the wire: {sum(weights.values())} bytes ({encoding}) {weights}")
    own = urlsplit(live_server.url).netloc
    assert {urlsplit(url).netloc for url in weights} == {own}
    assert sum(weights.values()) <= PAGE_BUDGET, weights

    # An unchanged sheet costs a fetch nothing but headers: 304, empty body.
    with page.expect_request_finished(lambda r: "if-none-match" in r.headers) as asked_again:
        polled = page.evaluate(
            """async (url) => {
                const first = await fetch(url, {cache: "no-store"});
                const etag = first.headers.get("ETag");
                const firstBody = await first.text();
                const headers = {"If-None-Match": etag};
                const again = await fetch(url, {cache: "no-store", headers: headers});
                return {first: first.status, firstBody: firstBody.length, etag: etag,
                        status: again.status, body: await again.text()};
            }""",
            f"/m/{code}/live",
        )
    assert polled["first"] == 200 and polled["firstBody"] > 0 and polled["etag"], polled
    assert polled["status"] == 304 and polled["body"] == "", polled
    unchanged = asked_again.value.sizes()
    assert unchanged["responseBodySize"] == 0
    print(f"an unchanged fetch: {unchanged['responseHeadersSize']} bytes of headers, no body")

    # The page's own fetch (here as it comes back to the screen) gets that 304 too. (Chromium
    # reports it aborted, not finished: js/live.js leaves the empty body unread, so it is checked
    # by its answer instead.)
    with page.expect_response(lambda r: r.url.endswith(f"/m/{code}/live")) as own_fetch:
        page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    assert own_fetch.value.status == 304


# 7. A double tap.


def stored_entries(live_server: LiveServer, code: str, hand: int, position: int) -> list[Entry]:
    """The stored entries of one side for one hand, read straight from the database."""
    with live_server.app.app_context():
        entries = db.session.scalars(
            sa.select(Entry)
            .join(Hand, Entry.hand_id == Hand.id)
            .join(Side, Entry.side_id == Side.id)
            .join(Match, Hand.match_id == Match.id)
            .where(Match.code == code, Hand.number == hand, Side.position == position)
        ).all()
        db.session.expunge_all()
        return list(entries)


def alice_at_hand_one(new_phone: PhoneMaker, phones) -> tuple[str, Page]:
    """A Basra match kept by a phone off the table: Ben has entered 5 for hand 1, and Alice's
    browser phone holds her side, about to enter hers."""
    keeper, ben = phones(), phones()
    code = keeper.create("basra", table_format="2", side_0="Alice", side_1="Ben", host_side="-1")
    ben.join(code, side=1)
    ben.enter(code, 1, 1, 5)
    alice = new_phone()
    seat(alice, code, "Alice")
    return code, alice


def test_a_double_tap_on_enter_records_once(live_server, new_phone, phones):
    """Enter tapped twice in a row: one post leaves the phone, one entry is stored."""
    code, alice = alice_at_hand_one(new_phone, phones)

    posts: list[str] = []
    alice.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    alice.get_by_label(PLAIN_TOTAL).fill("48")
    alice.get_by_role("button", name="Enter", exact=True).dblclick()
    told(alice, "Hand 1: Alice 48 recorded.")
    expect(alice.locator("table.sheet tbody tr")).to_have_count(1)
    expect(cell(alice, 1, 0)).to_have_text("48")
    expect(alice.locator("table.sheet tr.totals td")).to_have_text(["48", "5"])
    assert posts == [f"{live_server.url}/m/{code}/enter"]
    assert [(e.points, e.revision) for e in stored_entries(live_server, code, 1, 0)] == [(48, 1)]


def test_an_entry_posted_twice_by_a_flaky_connection_records_once(live_server, new_phone, phones):
    """The same post reaching the app twice (a retry) records the hand once, and says so."""
    code, alice = alice_at_hand_one(new_phone, phones)

    def sent_twice(route: Route) -> None:
        """The first answer is lost on the way back; the connection sends the post again."""
        route.fetch(max_redirects=0)
        route.fulfill(response=route.fetch(max_redirects=0))

    alice.route("**/enter", sent_twice)
    alice.get_by_label(PLAIN_TOTAL).fill("48")
    # Her entry completes the hand: a second recording would be refused as late, not repeated.
    alice.get_by_role("button", name="Enter", exact=True).click()
    told(alice, "Already recorded.")
    expect(alice.locator(".flash.error")).to_have_count(0)
    expect(alice.locator("table.sheet tbody tr")).to_have_count(1)
    expect(alice.locator("table.sheet tr.totals td")).to_have_text(["48", "5"])
    assert [(e.points, e.revision) for e in stored_entries(live_server, code, 1, 0)] == [(48, 1)]
