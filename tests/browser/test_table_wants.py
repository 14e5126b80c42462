"""Two things every table wants (issue 30): the phone's screen stays on while a match is open,
unless its player switches that off; and the sheet prints like the paper one."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import Page, expect

from tests.browser.moves import LIVE_MS, create_match, enter, told
from tests.browser.test_record import speak
from tests.phones import Phone

if TYPE_CHECKING:
    from tests.browser.conftest import PhoneMaker

pytestmark = pytest.mark.browser

KEEP_AWAKE = "Keep the screen on"
# Every wake lock the page is given, kept where a test can see it: the browser's own
# (Chromium has the Screen Wake Lock API on 127.0.0.1, a secure context), only recorded.
# (locksAsked counts the requests as they are made, before the browser answers any.)
RECORD_LOCKS = """
window.locksTaken = [];
window.locksAsked = 0;
if (navigator.wakeLock) {
  const request = navigator.wakeLock.request.bind(navigator.wakeLock);
  navigator.wakeLock.request = (...args) => {
    window.locksAsked += 1;
    return request(...args).then((lock) => { window.locksTaken.push(lock); return lock; });
  };
}
"""


def locks_held(page: Page) -> int:
    """How many of the page's wake locks are held now (not released)."""
    return int(page.evaluate("window.locksTaken.filter((lock) => !lock.released).length"))


def awake_page(page: Page) -> Page:
    """A phone whose wake locks are recorded from its next page on."""
    page.add_init_script(RECORD_LOCKS)
    return page


def test_the_match_page_keeps_the_screen_on_until_switched_off(new_phone: PhoneMaker):
    """On a match page the phone holds a screen wake lock; the browser lets it go when the
    page is hidden and the page takes it again once shown; the switch lets it go, and a
    reload remembers the switch is off (and on again)."""
    host = awake_page(new_phone())
    create_match(host, "Basra", "2 head to head", ["Alice", "Ben"], target="101 points")
    switch = host.get_by_label(KEEP_AWAKE)
    expect(switch).to_be_visible()
    expect(switch).to_be_checked()
    host.wait_for_function("window.locksTaken.length === 1")
    assert locks_held(host) == 1
    box = host.locator("label.awake").bounding_box()
    assert box is not None and box["height"] >= 48, box

    # The browser lets the lock go when the page is hidden (simulated by letting it go, as the
    # browser does); shown again, the page takes a new one.
    host.evaluate("window.locksTaken[0].release()")
    assert locks_held(host) == 0
    host.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    host.wait_for_function("window.locksTaken.length === 2")
    assert locks_held(host) == 1

    # Switched off: the lock is let go, and a reload does not take it again.
    switch.uncheck()
    host.wait_for_function("window.locksTaken.every((lock) => lock.released)")
    host.reload()
    expect(host.get_by_label(KEEP_AWAKE)).not_to_be_checked()
    # The page answers the event as it is dispatched: had it asked for a lock, it would have
    # by the time dispatchEvent returns.
    host.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    assert host.evaluate("window.locksAsked") == 0

    # On again: taken at once, and after the next reload too.
    host.get_by_label(KEEP_AWAKE).check()
    host.wait_for_function("window.locksTaken.length === 1")
    host.reload()
    expect(host.get_by_label(KEEP_AWAKE)).to_be_checked()
    host.wait_for_function("window.locksTaken.length === 1")
    assert locks_held(host) == 1


def test_without_javascript_or_wake_locks_there_is_no_switch(new_phone: PhoneMaker):
    """A page without JavaScript, or in a browser without wake locks, shows no switch that
    could not work."""
    host = new_phone()
    code = create_match(host, "Basra", "2 head to head", ["Alice", "Ben"], target="101 points")
    plain = new_phone(javascript=False)
    plain.goto(f"/m/{code}")
    expect(plain.get_by_label(KEEP_AWAKE)).to_be_hidden()
    older = new_phone()
    older.add_init_script("delete Navigator.prototype.wakeLock")
    older.goto(f"/m/{code}")
    expect(older.locator("#live")).to_be_attached()
    expect(older.get_by_label(KEEP_AWAKE)).to_be_hidden()


# The match printed: Hosni's Alice against Bea's Ben, twelve hands of 8 to 5, then Alice's
# 10 takes her past 101; the host corrects one of Ben's cells and writes a note.
HANDS = [(8, 5)] * 12 + [(10, 0)]
NOTE = "Friday night at the café"
REASON = "miscounted"
# Everything a person taps or scans, which a printed sheet has no use for.
NOT_ON_PAPER = (
    "header.bar, button, form, input, select, a.button, details.invite, .qr, label.awake, "
    "#entry, .host-tools, .exports, a.fill"
)
# What a printed page may be drawn in: black on white (or nothing, the white showing through).
INK = "rgb(0, 0, 0)"
PAPER = ("rgb(255, 255, 255)", "rgba(0, 0, 0, 0)")


def play_and_annotate(host: Page, phones: Callable[[], Phone]) -> str:
    """Create, play and end the match, the host on its page and Bea on her phone; its code."""
    code = create_match(host, "Basra", "2 head to head", ["Alice", "Ben"], target="101 points")
    bea = phones()
    bea.post("/join", {"code": code})
    bea.post(f"/m/{code}/claim", {"target": 1, "player": "Bea"})
    for number, (alice, ben) in enumerate(HANDS, start=1):
        assert bea.enter(code, number, 1, ben).status_code == 200
        enter(host, number, "Alice", alice)
    host.goto(f"/m/{code}/hand/2/side/1/correct")
    host.get_by_label("Points", exact=True).fill("7")
    host.get_by_label("Reason").fill(REASON)
    host.get_by_role("button", name="Correct").click()
    told(host, "corrected from 5 to 7")
    host.get_by_role("link", name="Write a note…").click()
    host.get_by_label("Note", exact=True).fill(NOTE)
    host.get_by_role("button", name="Save").click()
    told(host, "Note saved.")
    host.get_by_role("button", name="End match: Alice wins").click(timeout=LIVE_MS)
    told(host, "Match over: Alice won.")
    return code


def test_the_sheet_prints_like_the_paper_one(
    new_phone: PhoneMaker, phones: Callable[[], Phone], artifacts: Path
):
    """The host's page of an ended match, printed from a phone in dark mode: the game, its
    day, the sides and players, every hand with its running total, the totals, the result,
    the corrections and the note, black on white; nothing to tap or scan; no row cut in two."""
    host = new_phone(dark=True)
    play_and_annotate(host, phones)
    host.emulate_media(media="print", color_scheme="dark")
    printed = host.locator("main").inner_text()

    assert "Basra to 101 points" in printed
    expect(host.locator(".played time")).to_be_visible()
    assert str(datetime.now(UTC).year) in host.locator(".played").inner_text()
    expect(host.locator("table.sheet thead th")).to_have_text(["#", "Alice", "Ben"])
    assert "Players: Hosni (Alice), Bea (Ben)" in printed

    # Every hand, its points and, under them, the running total after it.
    rows = host.evaluate(
        """() => [...document.querySelectorAll("table.sheet tbody tr")].map((row) =>
            [row.querySelector("th").innerText.trim()].concat([...row.querySelectorAll("td a")]
                .map((cell) => [cell.firstChild.textContent.trim(),
                                getComputedStyle(cell, "::after").content])))"""
    )
    alice = ben = 0
    expected = []
    for number, (a, b) in enumerate(HANDS, start=1):
        b = 7 if number == 2 else b
        alice, ben = alice + a, ben + b
        expected.append([str(number), [str(a), f'"{alice}"'], [str(b), f'"{ben}"']])
    assert rows == expected
    assert host.locator("table.sheet tr.totals").inner_text().split() == ["Total", "106", "62"]
    expect(host.locator(".result")).to_be_visible()
    assert "Alice" in host.locator(".result").inner_text()
    assert f"Hand 2, Ben: 5 → 7 ({REASON})" in printed
    assert f"Note: {NOTE}" in printed

    on_screen_only = host.evaluate(
        f"""() => [...document.querySelectorAll({NOT_ON_PAPER!r})]
            .filter((e) => e.getClientRects().length > 0).map((e) => e.outerHTML.slice(0, 80))"""
    )
    assert on_screen_only == []
    assert host.locator("main").get_by_text(KEEP_AWAKE).is_hidden()

    # Black on white, though the phone is dark; each row and correction kept whole on a page.
    colours = host.evaluate(
        """() => [...document.querySelectorAll("body, body *")]
            .filter((e) => e.getClientRects().length > 0 && !(e instanceof SVGElement))
            .map((e) => [e.tagName + "." + e.className, getComputedStyle(e).color,
                         getComputedStyle(e).backgroundColor])"""
    )
    assert [c for c in colours if c[1] != INK or c[2] not in PAPER] == []
    breaks = host.evaluate(
        """() => [...document.querySelectorAll("table.sheet tr, .trail li")]
            .map((e) => getComputedStyle(e).breakInside)"""
    )
    assert set(breaks) == {"avoid"}

    host.screenshot(path=artifacts / "print-sheet-dark.png", full_page=True)
    pdf = host.pdf(path=artifacts / "print-sheet.pdf", format="A4")
    assert pdf.startswith(b"%PDF") and len(pdf) > 10_000
    assert len(re.findall(rb"/Type\s*/Page\b", pdf)) >= 1

    # The same sheet printed in Arabic, right to left, for a person to look at.
    host.emulate_media(media="screen")
    speak(host, "ar")
    host.emulate_media(media="print", color_scheme="dark")
    host.screenshot(path=artifacts / "print-sheet-ar.png", full_page=True)
