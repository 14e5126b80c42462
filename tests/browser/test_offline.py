"""Café Wi-Fi (issue 45): a page this phone opened reloads with no connection, from the
service worker's copy, said plainly to be not live; an entry typed then survives the browser
closing and is recorded once when the connection is back; the app opened from the home
screen finds this phone's last match, offline too."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from scorekeeper.languages import numbers_in
from tests.browser.conftest import CHROMIUM_ARGS, PHONE_VIEWPORT
from tests.browser.moves import LIVE_MS, PLAIN_TOTAL, cell, seat, told
from tests.browser.test_inputs import seat_in
from tests.browser.test_live_table import stored_entries
from tests.browser.wifi import Wifi
from tests.conftest import CHROMIUM
from tests.waiting import wait_until
from tests.words import words

pytestmark = pytest.mark.browser

KEPT_NOTE = re.compile(r"^As of \d{1,2}:\d{2}( [AP]M)?, no connection: not live\.$")


class Phone:
    """A phone on a café's Wi-Fi whose browser can be closed and opened again on the same
    profile: its storage, service worker and caches outlive the browser, as on a real phone.
    With no connection, the Wi-Fi is down (every connection of the browser fails, its service
    worker's too) and the browser knows it is offline (`navigator.onLine`, the "online" event
    when it is back), as a phone whose Wi-Fi dropped."""

    def __init__(self, browser: Browser, wifi: Wifi, profile: Path) -> None:
        self.browser, self.wifi, self.profile = browser, wifi, profile
        self.context: BrowserContext | None = None

    def open(
        self,
        *,
        offline: bool = False,
        locale: str | None = None,
        dark: bool = False,
        timezone: str = "Europe/Madrid",
    ) -> Page:
        """The browser started again (with no connection from the start if asked), its one
        tab, in the phone's language, time zone and light or dark."""
        if offline:
            self.wifi.drop()
        self.context = self.browser.browser_type.launch_persistent_context(
            self.profile,
            executable_path=str(CHROMIUM),
            args=CHROMIUM_ARGS,
            base_url=self.wifi.url,
            viewport=PHONE_VIEWPORT,
            is_mobile=True,
            has_touch=True,
            timezone_id=timezone,
            locale=locale,
            color_scheme="dark" if dark else "light",
        )
        self.context.set_offline(offline)
        return self.context.pages[0] if self.context.pages else self.context.new_page()

    def offline(self) -> None:
        """The Wi-Fi drops."""
        self.wifi.drop()
        if self.context is not None:
            self.context.set_offline(True)

    def online(self) -> None:
        """The Wi-Fi is back."""
        self.wifi.back()
        if self.context is not None:
            self.context.set_offline(False)

    def close(self) -> None:
        """The browser closed, every tab with it."""
        if self.context is not None:
            self.context.close()
            self.context = None


@pytest.fixture
def phone(browser: Browser, wifi: Wifi, tmp_path: Path) -> Iterator[Phone]:
    """Alice's phone, closed at the end whatever happened."""
    made = Phone(browser, wifi, tmp_path / "profile")
    yield made
    made.close()


def answered(page: Page, script: str, arg: object) -> None:
    """Wait until the page's asynchronous `script` answers true. (Playwright's
    wait_for_function takes the promise itself for a true answer and returns at once, so a
    test waiting on the cache with it went on before the page was kept, one run in four.)"""
    assert wait_until(lambda: page.evaluate(script, arg) is True, LIVE_MS / 1000), script


def kept(page: Page) -> None:
    """Wait until the service worker is in charge and keeps the page shown."""
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    answered(
        page,
        "url => caches.open('scorekeeper-pages').then(c => c.match(url)).then(Boolean)",
        page.url.split("#")[0],
    )


def test_offline_reload_enter_close_reopen_online_records_one_entry(
    live_server, phones, phone, artifacts
):
    keeper, ben = phones(), phones()
    code = keeper.create("basra", table_format="2", side_0="Alice", side_1="Ben", host_side="-1")
    ben.join(code, side=1)
    alice = phone.open()
    seat(alice, code, "Alice")
    kept(alice)
    # A change after the page was kept reaches it live, and its kept copy with it.
    ben.enter(code, 1, 1, 5)
    expect(cell(alice, 1, 1)).to_have_text("5", timeout=LIVE_MS)
    answered(
        alice,
        "url => caches.open('scorekeeper-pages').then(c => c.match(url))"
        ".then(r => r ? r.text() : '')"
        ".then(t => new DOMParser().parseFromString(t, 'text/html')"
        ".querySelectorAll('table.sheet tbody tr td')[1]?.textContent.trim() === '5')",
        f"{phone.wifi.url}/m/{code}",
    )

    phone.offline()
    alice.reload()
    # The sheet as this phone last saw it, said to be no more than that.
    expect(alice.locator("#kept-note")).to_have_text(KEPT_NOTE)
    expect(alice.locator("body")).to_have_class(re.compile(r"\bkept\b"))
    expect(cell(alice, 1, 1)).to_have_text("5")
    alice.get_by_label(PLAIN_TOTAL).fill("40")
    alice.get_by_role("button", name="Enter", exact=True).click()
    expect(alice.locator("#outbox .kept")).to_have_count(1)
    alice.screenshot(path=artifacts / "offline-kept-sheet.png", full_page=True)
    phone.close()
    assert stored_entries(live_server, code, 1, 0) == []

    # Opened again, still with no connection: the sheet and the entry waiting in it.
    alice = phone.open(offline=True)
    alice.goto(f"/m/{code}")
    expect(alice.locator("#kept-note")).to_have_text(KEPT_NOTE)
    expect(alice.locator("#outbox .kept")).to_have_count(1)
    assert stored_entries(live_server, code, 1, 0) == []

    phone.online()
    told(alice, "Hand 1: Alice 40 recorded.")
    expect(alice.locator("#outbox .kept")).to_have_count(0)
    expect(alice.locator("#kept-note")).to_be_hidden()
    expect(alice.locator("table.sheet tr.totals td")).to_have_text(["40", "5"], timeout=LIVE_MS)
    assert [(e.points, e.revision) for e in stored_entries(live_server, code, 1, 0)] == [(40, 1)]


def test_the_sheet_a_phone_saw_after_claiming_its_side_is_the_one_kept(phones, phone):
    """Alice opens the app, then the match by its link and claims her side: the sheet she
    first sees is shown once, with "This phone now holds Alice.", and is not kept as it is; the
    worker keeps the sheet as drawn for her, so a reload with no connection finds it."""
    keeper = phones()
    code = keeper.create("basra", table_format="2", side_0="Alice", side_1="Ben", host_side="-1")
    alice = phone.open()
    alice.goto("/")
    kept(alice)
    seat(alice, code, "Alice")
    answered(
        alice,
        "url => caches.open('scorekeeper-pages').then(c => c.match(url))"
        ".then(r => r ? r.text() : '')"
        ".then(t => new DOMParser().parseFromString(t, 'text/html'))"
        ".then(d => d.querySelector('#entry input[name=points]') !== null"
        " && d.querySelector('.flash') === null)",
        f"{phone.wifi.url}/m/{code}",
    )
    phone.offline()
    alice.reload()
    expect(alice.locator("#kept-note")).to_have_text(KEPT_NOTE)
    expect(alice.get_by_label(PLAIN_TOTAL)).to_be_visible()
    expect(alice.locator(".flash")).to_have_count(0)


def test_the_app_from_the_home_screen_opens_the_last_match_online_and_offline(
    live_server, phones, phone
):
    keeper = phones()
    code = keeper.create("basra", table_format="2", side_0="Alice", side_1="Ben", host_side="-1")
    alice = phone.open()
    seat(alice, code, "Alice")
    kept(alice)
    start = alice.evaluate(
        "() => fetch(document.querySelector('link[rel=manifest]').href).then(r => r.json())"
        ".then(m => m.start_url)"
    )
    alice.goto("/")
    alice.goto(start)
    expect(alice).to_have_url(f"{phone.wifi.url}/m/{code}")
    expect(alice.locator("#kept-note")).to_be_hidden()

    phone.close()
    alice = phone.open(offline=True)
    alice.goto(start)
    expect(alice).to_have_url(f"{phone.wifi.url}/m/{code}")
    expect(alice.locator("#kept-note")).to_have_text(KEPT_NOTE)
    expect(alice.locator("table.sheet th").first).to_be_visible()


def test_without_javascript_pages_work_online_as_before(live_server, phones, new_phone):
    keeper = phones()
    code = keeper.create("basra", table_format="2", side_0="Alice", side_1="Ben", host_side="-1")
    alice = new_phone(javascript=False)
    seat(alice, code, "Alice")
    alice.get_by_label(PLAIN_TOTAL).fill("40")
    alice.get_by_role("button", name="Enter", exact=True).click()
    told(alice, "Hand 1: Alice 40 recorded.")
    assert alice.evaluate("() => navigator.serviceWorker.getRegistration()") is None
    assert [(e.points, e.revision) for e in stored_entries(live_server, code, 1, 0)] == [(40, 1)]


def test_the_kept_page_says_its_time_in_the_phone_s_language_and_zone(phones, phone, artifacts):
    keeper = phones()
    code = keeper.create("basra", table_format="2", side_0="عمر", side_1="Ana", host_side="-1")
    keeper.enter(code, 1, 0, 30)
    page = phone.open(locale="ar", dark=True, timezone="Asia/Tokyo")
    page.goto(f"/m/{code}")
    kept(page)
    phone.offline()
    page.reload()
    note = page.locator("#kept-note")
    expect(note).to_be_visible()
    at = int(page.evaluate("() => document.documentElement.dataset.kept"))
    # When it was kept, on Tokyo's clock (nine hours from UTC), as the page writes a time in
    # Arabic: Western digits, the hour on a 12-hour clock.
    tokyo = datetime.fromtimestamp(at / 1000, ZoneInfo("Asia/Tokyo"))
    said = words("ar")("As of %(time)s, no connection: not live.", time="TIME")
    before, after = said.split("TIME")
    text = note.inner_text()
    assert text.startswith(before) and text.endswith(after), text
    assert f"{(tokyo.hour - 1) % 12 + 1}:{tokyo.minute:02d}" in text, text
    page.screenshot(path=artifacts / "offline-kept-sheet-ar-dark.png", full_page=True)


def test_with_no_page_open_the_worker_sends_the_kept_entry_when_the_connection_is_back(
    live_server, phones, phone
):
    keeper, ben = phones(), phones()
    code = keeper.create("basra", table_format="2", side_0="Alice", side_1="Ben", host_side="-1")
    ben.join(code, side=1)
    # A browser's own profile: Chromium has no Background Sync in a private one (the other
    # tests' phones).
    alice = phone.open()
    alice.context.grant_permissions(["background-sync"], origin=phone.wifi.url)
    seat(alice, code, "Alice")
    kept(alice)
    phone.offline()
    alice.get_by_label(PLAIN_TOTAL).fill("40")
    alice.get_by_role("button", name="Enter", exact=True).click()
    expect(alice.locator("#outbox .kept")).to_have_count(1)
    context = alice.context
    alice.close()
    assert stored_entries(live_server, code, 1, 0) == []
    phone.online()

    # No page of the app is open. The browser syncs once it sees the connection back; it is
    # also told to here, as it would be later (a second sync sends nothing twice).
    blank = context.new_page()
    devtools = context.new_cdp_session(blank)
    registrations: list[dict] = []
    devtools.on(
        "ServiceWorker.workerRegistrationUpdated",
        lambda event: registrations.extend(event["registrations"]),
    )
    devtools.send("ServiceWorker.enable")
    # Asking the page anything lets the browser's events in meanwhile.
    assert wait_until(lambda: blank.evaluate("true") and registrations, LIVE_MS / 1000)
    devtools.send(
        "ServiceWorker.dispatchSyncEvent",
        {
            "origin": phone.wifi.url,
            "registrationId": registrations[0]["registrationId"],
            "tag": "outbox",
            "lastChance": False,
        },
    )
    assert wait_until(lambda: stored_entries(live_server, code, 1, 0), LIVE_MS / 1000)
    assert [(e.points, e.revision) for e in stored_entries(live_server, code, 1, 0)] == [(40, 1)]

    # Opened again: nothing left to send, nothing sent twice.
    alice = context.new_page()
    alice.goto(f"/m/{code}")
    expect(cell(alice, 1, 0)).to_have_text("40", timeout=LIVE_MS)
    expect(alice.locator("#outbox .outbox-item")).to_have_count(0)
    assert [(e.points, e.revision) for e in stored_entries(live_server, code, 1, 0)] == [(40, 1)]


def test_a_kept_calculator_works_the_total_out_offline_as_the_server_does(phones, phone, artifacts):
    """Ben's Brasta calculator, kept by his Arabic phone: reloaded with no connection, the
    counts he types are worked out on the phone (a hand below zero among them) into the lines
    and total the server shows for the same counts once the connection is back."""
    say = words("ar")
    keeper = phones()
    code = keeper.create("brasta", table_format="2", side_0="Alice", side_1="Ben", host_side="-1")
    ben = phone.open(locale="ar", dark=True)
    seat_in(ben, "ar", code, "Ben")
    ben.goto(f"/m/{code}/calc")
    kept(ben)
    phone.offline()
    ben.reload()
    expect(ben.locator("#kept-note")).to_be_visible()
    totals = []
    for hand in ({"cards": "10", "aces": "1", "failed_builds": "3"}, {"cards": "30", "aces": "4"}):
        phone.offline()
        for key in ("cards", "aces", "failed_builds"):
            ben.locator(f"#n_{key}").fill(hand.get(key, ""))
        breakdown = ben.locator("#breakdown")
        expect(breakdown).to_have_attribute("data-offline", "1")
        worked_here = breakdown.locator("tbody tr").all_inner_texts()
        total_here = breakdown.locator(".calc-total").inner_text()
        totals.append(total_here)
        ben.screenshot(path=artifacts / "calculator-kept-offline-ar-dark.png", full_page=True)

        phone.online()
        # Back online, the server's own breakdown of the same counts takes its place.
        expect(breakdown).not_to_have_attribute("data-offline", "1")
        expect(breakdown.locator(".calc-total")).to_have_text(total_here)
        # Waited for, as the total is (it failed once read at once).
        expect(breakdown.locator("tbody tr")).to_have_text(worked_here, use_inner_text=True)
        enter = say("Enter %(total)s", total=total_here)
        expect(ben.get_by_role("button", name=enter, exact=True)).to_be_visible()
    # 10 cards, an ace 5 and three failed builds -30; 30 cards 10, four aces 20 and all of
    # them 10: written as every number is in Arabic (the minus kept at the digits' left).
    assert totals == [numbers_in("ar")(-25), numbers_in("ar")(40)]
