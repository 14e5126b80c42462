"""Two things every table wants (issue 30): the phone's screen stays on while a match is open,
unless its player switches that off; and the sheet prints like the paper one."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import Page, expect

from tests.browser.moves import create_match

if TYPE_CHECKING:
    from tests.browser.conftest import PhoneMaker

pytestmark = pytest.mark.browser

KEEP_AWAKE = "Keep the screen on"
# Every wake lock the page is given, kept where a test can see it: the browser's own
# (Chromium has the Screen Wake Lock API on 127.0.0.1, a secure context), only recorded.
RECORD_LOCKS = """
window.locksTaken = [];
if (navigator.wakeLock) {
  const request = navigator.wakeLock.request.bind(navigator.wakeLock);
  navigator.wakeLock.request = (...args) =>
    request(...args).then((lock) => { window.locksTaken.push(lock); return lock; });
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
    host.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    host.wait_for_timeout(300)
    assert host.evaluate("window.locksTaken.length") == 0

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
