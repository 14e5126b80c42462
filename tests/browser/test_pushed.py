"""The pushed table on real phones: an entry reaches every phone through its stream with no
timer; a stream dropped without a word (iOS in the background) comes back when the page is
seen again; an entry typed offline, or whose answer never came, is kept and sent once; a form
follows the sheet when the hand it was drawn for completes under the player's thumb."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import Page, Route, expect

from scorekeeper import live
from tests.browser.moves import LIVE_MS, PLAIN_TOTAL, cell, not_reloaded, seat, stay, told
from tests.browser.test_live_table import stored_entries
from tests.streams import Stream, close_all
from tests.words import words

if TYPE_CHECKING:
    from tests.browser.conftest import LiveServer, PhoneMaker
    from tests.phones import Phone

pytestmark = pytest.mark.browser

# No safety fetch in these tests: what arrives, arrives by the stream.
NO_TIMER_SECONDS = 600
# Every EventSource the page opens, kept where a test can reach it.
RECORD_STREAMS = """
window.streamsOpened = [];
const Real = window.EventSource;
window.EventSource = class extends Real {
  constructor(...args) { super(...args); window.streamsOpened.push(this); }
};
"""


def live_fetches(page: Page) -> list[str]:
    """The URLs of every fetch of the live part the page makes from now on."""
    fetched: list[str] = []
    page.on("request", lambda r: fetched.append(r.url) if r.url.endswith("/live") else None)
    return fetched


def streaming(page: Page, count: int = 1) -> None:
    """Wait until the page has opened `count` streams and the last one is open."""
    page.wait_for_function(
        "n => window.streamsOpened.length >= n && window.streamsOpened[n - 1].readyState === 1",
        arg=count,
        timeout=LIVE_MS,
    )


@pytest.fixture
def no_timer(live_server: LiveServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """The page's safety fetch set to minutes: only the stream can bring a change in time."""
    monkeypatch.setitem(live_server.app.config, "SAFETY_FETCH_SECONDS", NO_TIMER_SECONDS)


def watching(page: Page, code: str) -> Page:
    """A phone that opens the match and watches it."""
    page.add_init_script(RECORD_STREAMS)
    page.goto(f"/m/{code}")
    page.get_by_label("Your name").fill("Grandpa")
    page.get_by_role("button", name="Just watch").click()
    told(page, "Watching this match.")
    stay(page)
    return page


def basra_table(new_phone: PhoneMaker, phones) -> tuple[str, Page, Phone]:
    """Alice's browser phone and Ben's at a Basra match kept by a phone off the table."""
    keeper, ben = phones(), phones()
    code = keeper.create("basra", table_format="2", side_0="Alice", side_1="Ben", host_side="-1")
    ben.join(code, side=1)
    alice = new_phone()
    alice.add_init_script(RECORD_STREAMS)
    seat(alice, code, "Alice")
    streaming(alice)
    return code, alice, ben


def test_another_phone_s_entry_arrives_by_the_stream_with_no_timer(
    live_server, no_timer, new_phone, phones
):
    code, alice, ben = basra_table(new_phone, phones)
    watcher = watching(new_phone(), code)
    streaming(watcher)
    fetched = live_fetches(alice)

    ben.enter(code, 1, 1, 5)
    for phone in (alice, watcher):
        expect(cell(phone, 1, 1)).to_have_text("5", timeout=LIVE_MS)
        not_reloaded(phone)
    # One ring, one fetch of the live part: nothing polls.
    assert len(fetched) == 1
    ben.enter(code, 1, 1, 7)
    expect(cell(alice, 1, 1)).to_have_text("7", timeout=LIVE_MS)
    assert len(fetched) == 2


def test_a_stream_dropped_without_a_word_comes_back_when_the_page_is_seen(
    live_server, no_timer, new_phone, phones
):
    code, alice, ben = basra_table(new_phone, phones)
    # Grandpa's page keeps its stream: it shows when the ring went out.
    grandpa = watching(new_phone(), code)
    streaming(grandpa)
    # In the background iOS closes the stream and says nothing: no error, no reconnect.
    alice.evaluate("window.streamsOpened.forEach(s => s.close())")
    fetched = live_fetches(alice)
    ben.enter(code, 1, 1, 5)
    # Rung with Grandpa's, a page that still had its stream would have fetched by now.
    expect(cell(grandpa, 1, 1)).to_have_text("5", timeout=LIVE_MS)
    assert fetched == []
    expect(alice.locator("table.sheet tbody tr")).to_have_count(0)

    # The phone comes back to the page: a new stream, and the sheet as it now stands.
    alice.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    expect(cell(alice, 1, 1)).to_have_text("5", timeout=LIVE_MS)
    streaming(alice, 2)
    # The new stream rings for the next change by itself.
    ben.enter(code, 1, 1, 6)
    expect(cell(alice, 1, 1)).to_have_text("6", timeout=LIVE_MS)
    not_reloaded(alice)


def test_an_entry_typed_offline_is_kept_then_recorded_once_on_every_phone(
    live_server, new_phone, phones, artifacts
):
    code, alice, ben = basra_table(new_phone, phones)
    grandpa = watching(new_phone(), code)
    ben.enter(code, 1, 1, 5)
    expect(cell(alice, 1, 1)).to_have_text("5", timeout=LIVE_MS)

    alice.context.set_offline(True)
    alice.get_by_label(PLAIN_TOTAL).fill("40")
    alice.get_by_role("button", name="Enter", exact=True).click()
    kept = alice.locator("#outbox .kept")
    expect(kept).to_have_text(
        # The number typed set apart left to right (as it reads its way beside an Arabic name).
        "Kept on this phone, not sent yet: Hand 1: Alice · \u206640\u2069. "
        "It goes as soon as the connection is back."
    )
    # Still the sheet, with what was typed: not the browser's error page.
    expect(alice.get_by_label(PLAIN_TOTAL)).to_have_value("40")
    alice.screenshot(path=artifacts / "outbox-kept.png")
    assert stored_entries(live_server, code, 1, 0) == []

    alice.context.set_offline(False)
    told(alice, "Hand 1: Alice 40 recorded.")
    expect(kept).to_have_count(0)
    for phone in (alice, grandpa):
        expect(phone.locator("table.sheet tr.totals td")).to_have_text(["40", "5"], timeout=LIVE_MS)
    not_reloaded(alice)
    assert [(e.points, e.revision) for e in stored_entries(live_server, code, 1, 0)] == [(40, 1)]


def test_a_kept_entry_goes_when_the_page_is_opened_again_even_with_a_stale_token(
    live_server, new_phone, phones
):
    code, alice, ben = basra_table(new_phone, phones)
    ben.enter(code, 1, 1, 5)
    alice.context.set_offline(True)
    alice.get_by_label(PLAIN_TOTAL).fill("40")
    alice.get_by_role("button", name="Enter", exact=True).click()
    expect(alice.locator("#outbox .kept")).to_have_count(1)
    # Its security token is no longer good by the time it goes (a new secret, a new session):
    # the phone fetches a fresh one rather than lose the entry.
    alice.evaluate(
        """() => {
            const items = JSON.parse(localStorage.getItem("scorekeeper.outbox"));
            items[0].fields = items[0].fields.map(f => f[0] === "csrf_token" ? [f[0], "stale"] : f);
            localStorage.setItem("scorekeeper.outbox", JSON.stringify(items));
        }"""
    )
    alice.close()
    alice.context.set_offline(False)

    again = alice.context.new_page()
    again.goto(f"/m/{code}")
    told(again, "Hand 1: Alice 40 recorded.")
    expect(again.locator("table.sheet tr.totals td")).to_have_text(["40", "5"], timeout=LIVE_MS)
    assert [(e.points, e.revision) for e in stored_entries(live_server, code, 1, 0)] == [(40, 1)]


def test_an_entry_whose_answer_never_came_is_sent_again_and_recorded_once(
    live_server, new_phone, phones
):
    code, alice, ben = basra_table(new_phone, phones)
    ben.enter(code, 1, 1, 5)

    def answer_lost(route: Route) -> None:
        """The post reaches the app; its answer never reaches the phone."""
        route.fetch(max_redirects=0)
        route.abort("connectionreset")

    alice.route("**/enter", answer_lost)
    alice.get_by_label(PLAIN_TOTAL).fill("40")
    alice.get_by_role("button", name="Enter", exact=True).click()
    expect(alice.locator("#outbox .kept")).to_have_count(1)
    alice.unroute_all(behavior="wait")
    # Sent again (here at once, as when the page is seen again): its key says it went through.
    alice.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    told(alice, "Already recorded.")
    expect(alice.locator("table.sheet tr.totals td")).to_have_text(["40", "5"])
    assert [(e.points, e.revision) for e in stored_entries(live_server, code, 1, 0)] == [(40, 1)]


def test_an_entry_recorded_while_its_answer_was_lost_is_not_carried_to_the_next_hand(
    live_server, new_phone, phones
):
    # The flood's case (issue 46): Alice's entry completes hand 1, but its answers never come
    # back. The ring of her own entry redraws the sheet meanwhile: the form for hand 2 comes
    # empty (her 40 is not offered again as hand 2's), and the kept post goes again at once;
    # once an answer comes, its key tells her it was recorded, never a refusal she could not
    # act on.
    code, alice, ben = basra_table(new_phone, phones)
    ben.enter(code, 1, 1, 5)
    stay(alice)
    losing = [True]
    lost: list[int] = []

    def answers_lost(route: Route) -> None:
        """The post reaches the app; while `losing`, its answer never reaches the phone."""
        if not losing[0]:
            route.continue_()
            return
        lost.append(route.fetch(max_redirects=0).status)
        route.abort("timedout")

    alice.route("**/enter", answers_lost)
    alice.get_by_label(PLAIN_TOTAL).fill("40")
    alice.get_by_role("button", name="Enter", exact=True).click()
    # The sheet moved on with her entry in it; the outbox still waits to hear of it.
    expect(alice.locator("table.sheet tr.totals td")).to_have_text(["40", "5"], timeout=LIVE_MS)
    expect(alice.locator("#entry h2")).to_have_text("Hand 2: Alice")
    expect(alice.get_by_label(PLAIN_TOTAL)).to_have_value("")
    expect(alice.locator("#entry .moved")).to_have_count(0)
    expect(alice.locator("#outbox .kept")).to_have_count(1)
    # The table plays on: Ben's next entry rings, her sheet is drawn again, and the kept post
    # goes with it (not a while later), answered this time.
    losing[0] = False
    ben.enter(code, 2, 1, 7)
    # What became of it, said once each: the first post's words, kept in her session since.
    told(alice, "Already recorded.")
    told(alice, "Hand 1: Alice 40 recorded.")
    assert set(lost) == {302}
    expect(alice.locator("#outbox .outbox-item")).to_have_count(0)
    # Her next entry is hand 2's, recorded as any other.
    alice.get_by_label(PLAIN_TOTAL).fill("12")
    alice.get_by_role("button", name="Enter", exact=True).click()
    told(alice, "Hand 2: Alice 12 recorded.")
    assert [(e.points, e.revision) for e in stored_entries(live_server, code, 1, 0)] == [(40, 1)]
    assert [e.points for e in stored_entries(live_server, code, 2, 0)] == [12]
    not_reloaded(alice)


def test_an_entry_the_server_could_not_read_in_time_is_sent_again_and_recorded_once(
    live_server, new_phone, phones
):
    # A weak connection: the body stalled past the server's client timeout, which answered
    # 408 (scorekeeper/gunicorn.conf.py, errors.too_slow) with nothing recorded.
    code, alice, ben = basra_table(new_phone, phones)
    ben.enter(code, 1, 1, 5)

    def too_slow(route: Route) -> None:
        """The server gave up on the post's body: 408, and nothing reached the app."""
        route.fulfill(status=408, content_type="text/html", body="<main>Too slow.</main>")

    alice.route("**/enter", too_slow)
    alice.get_by_label(PLAIN_TOTAL).fill("40")
    alice.get_by_role("button", name="Enter", exact=True).click()
    expect(alice.locator("#outbox .kept")).to_have_count(1)
    assert stored_entries(live_server, code, 1, 0) == []
    alice.unroute_all(behavior="wait")
    alice.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    told(alice, "Hand 1: Alice 40 recorded.")
    expect(alice.locator("table.sheet tr.totals td")).to_have_text(["40", "5"])
    assert [(e.points, e.revision) for e in stored_entries(live_server, code, 1, 0)] == [(40, 1)]


def test_a_refused_resend_shows_why_and_what_was_typed(live_server, new_phone, phones, artifacts):
    keeper, ben = phones(), phones()
    code = keeper.create("basra", table_format="2", side_0="Alice", side_1="Ben", host_side="-1")
    ben.join(code, side=1)
    alice = new_phone()
    seat(alice, code, "Alice")
    alice.context.set_offline(True)
    alice.get_by_label(PLAIN_TOTAL).fill("40")
    alice.get_by_role("button", name="Enter", exact=True).click()
    expect(alice.locator("#outbox .kept")).to_have_count(1)
    # Meanwhile the keeper ends the table for good.
    assert "Match abandoned" in keeper.post(f"/m/{code}/abandon", {"confirmed": "y"}).shown
    alice.context.set_offline(False)
    refused = alice.locator("#outbox .error")
    expect(refused).to_contain_text(
        "Not recorded: Hand 1: Alice · \u206640\u2069. This match was abandoned"
    )
    # It stays said until she has seen it.
    alice.screenshot(path=artifacts / "outbox-refused.png")
    refused.get_by_role("button", name="OK").click()
    expect(refused).to_have_count(0)
    assert stored_entries(live_server, code, 1, 0) == []


def test_a_form_follows_the_sheet_when_its_hand_completes_under_the_thumb(
    live_server, new_phone, phones, artifacts
):
    keeper = phones()
    code = keeper.create(
        "brisca", table_format="2", target="3", side_0="Ana", side_1="Omar", host_side="-1"
    )
    omar = phones()
    omar.join(code, side=1)
    ana = new_phone()
    seat(ana, code, "Ana")
    field = ana.get_by_label("Card points this round (0–120)")
    field.fill("70")
    ana.get_by_role("button", name="Enter", exact=True).click()
    told(ana, "Round 1: Ana 70 recorded.")
    stay(ana)

    # Ana starts on round 2's points in the form still drawn for round 1 as Omar finishes it.
    field.click()
    field.fill("6")
    omar.enter(code, 1, 1, 50)
    expect(ana.locator("#entry h2")).to_have_text("Round 2: Ana", timeout=LIVE_MS)
    expect(ana.locator("#entry .moved")).to_have_text(
        "Round 1 is complete: what you typed is now for round 2."
    )
    expect(field).to_have_value("6")
    expect(field).to_be_focused()
    ana.screenshot(path=artifacts / "form-follows-the-sheet.png")
    field.press_sequentially("0")
    ana.get_by_role("button", name="Enter", exact=True).click()
    told(ana, "Round 2: Ana 60 recorded.")
    expect(cell(ana, 2, 0)).to_have_text("60")
    assert [e.points for e in stored_entries(live_server, code, 1, 0)] == [70]
    not_reloaded(ana)


def test_a_page_of_an_older_release_reloads_when_a_new_one_serves_the_match(
    live_server, new_phone, phones, monkeypatch
):
    code, alice, ben = basra_table(new_phone, phones)
    stay(alice)
    # A deploy: the old server ends its streams, and the new one serves another release.
    app = live_server.app
    monkeypatch.setattr(live.of(app), "release", "a-new-release")
    monkeypatch.setitem(app.jinja_env.globals, "release", "a-new-release")
    live.stop(app)
    alice.wait_for_function("() => window.sameDocument === undefined", timeout=LIVE_MS * 2)
    expect(alice.locator(".code-line")).to_contain_text("holds Alice")


def test_the_outbox_speaks_the_phone_s_language_right_to_left_in_the_dark(
    live_server, new_phone, phones, artifacts
):
    say = words("ar")
    keeper, ben = phones(), phones()
    code = keeper.create("basra", table_format="2", side_0="علي", side_1="بن", host_side="-1")
    ben.join(code, side=1)
    ali = new_phone(locale="ar", dark=True)
    ali.goto(f"/j/{code}")
    ali.get_by_label(say("Your name")).fill("علي")
    ali.get_by_role("button", name=say("I'm %(side)s", side="علي")).click()
    told(ali, say("This phone now holds %(side)s.", side="علي"))
    ali.context.set_offline(True)
    ali.get_by_label(say("Your total for this hand")).fill("40")
    ali.get_by_role("button", name=say("Enter", context="button"), exact=True).click()
    hand = say("%(hand)s %(number)s: %(side)s", hand=say("Hand"), number=1, side="علي")
    kept = ali.locator("#outbox .kept")
    expect(kept).to_have_text(
        say(
            "Kept on this phone, not sent yet: %(what)s. "
            "It goes as soon as the connection is back.",
            what=f"{hand} · \u206640\u2069",
        )
    )
    assert ali.evaluate("getComputedStyle(document.querySelector('#outbox')).direction") == "rtl"
    ali.screenshot(path=artifacts / "outbox-ar-dark-kept.png", full_page=True)
    ali.context.set_offline(False)
    told(
        ali,
        say(
            "%(hand)s %(number)s: %(side)s %(points)s recorded.",
            hand=say("Hand"),
            number=1,
            side="علي",
            points=40,
        ),
    )
    ali.screenshot(path=artifacts / "outbox-ar-dark-recorded.png", full_page=True)


def test_a_value_given_back_by_a_refusal_stays_through_the_next_ring(
    live_server, new_phone, phones
):
    keeper = phones()
    code = keeper.create("basra", table_format="2", side_0="Alice", side_1="Ben", host_side="-1")
    ben = phones()
    ben.join(code, side=1)
    alice = new_phone()
    seat(alice, code, "Alice")
    alice.get_by_label(PLAIN_TOTAL).fill("40")
    alice.get_by_role("button", name="Enter", exact=True).click()
    told(alice, "Hand 1: Alice 40 recorded.")
    # Her phone is held off the stream while she types hand 2's 12 into the old form, and
    # Ben completes hand 1: her 12 arrives for hand 1.
    alice.route("**/live", lambda route: route.abort())
    field = alice.get_by_label(PLAIN_TOTAL)
    field.fill("12")
    with alice.expect_event("requestfailed", lambda r: r.url.endswith("/live")):
        ben.enter(code, 1, 1, 5)
    alice.unroute_all(behavior="wait")
    alice.get_by_role("button", name="Enter", exact=True).click()
    expect(alice.locator(".flash.error")).to_contain_text("Hand 1 was complete before your 12")
    expect(field).to_have_value("12")
    # Ben changes nothing of hers, but his entry rings her phone: her 12 stays in the form.
    ben.enter(code, 2, 1, 3)
    expect(cell(alice, 2, 1)).to_have_text("3", timeout=LIVE_MS)
    expect(field).to_have_value("12")
    alice.get_by_role("button", name="Enter", exact=True).click()
    told(alice, "Hand 2: Alice 12 recorded.")


def test_without_event_source_the_page_fetches_on_a_slow_timer(
    live_server, new_phone, phones, monkeypatch
):
    # A browser with no EventSource (or a proxy that kills every stream): the timer brings it.
    monkeypatch.setitem(live_server.app.config, "SAFETY_FETCH_SECONDS", 4)
    keeper, ben = phones(), phones()
    code = keeper.create("basra", table_format="2", side_0="Alice", side_1="Ben", host_side="-1")
    ben.join(code, side=1)
    alice = new_phone()
    alice.add_init_script("delete window.EventSource;")
    seat(alice, code, "Alice")
    ben.enter(code, 1, 1, 5)
    # Without a stream the page fetches four times as often as its safety fetch: every 1 s.
    expect(cell(alice, 1, 1)).to_have_text("5", timeout=LIVE_MS)
    not_reloaded(alice)
    assert alice.evaluate("typeof window.EventSource") == "undefined"


def test_a_page_whose_stream_is_refused_keeps_up_by_its_safety_fetch_then_streams_again(
    live_server, new_phone, phones, monkeypatch
):
    # The worker's budget is one stream, held by a stranger (issue 46): Alice's page is
    # refused its stream (429), fetches its live part at its slow pace instead (a quarter of
    # the safety fetch's period: 1 s here), and opens its stream once there is room.
    app = live_server.app
    monkeypatch.setitem(app.config, "SAFETY_FETCH_SECONDS", 4)
    monkeypatch.setitem(app.config, "STREAMS_PER_WORKER", 1)
    # A stream closed by its reader ends at its next chunk: soon.
    monkeypatch.setitem(app.config, "STREAM_HEARTBEAT", 0.2)
    keeper, ben = phones(), phones()
    code = keeper.create("basra", table_format="2", side_0="Alice", side_1="Ben", host_side="-1")
    ben.join(code, side=1)
    stranger = phones().client.get(f"/m/{code}/events")
    assert stranger.status_code == 200
    held = Stream(stranger.response, stranger.close)
    try:
        alice = new_phone()
        alice.add_init_script(RECORD_STREAMS)
        refused = []
        alice.on("response", lambda r: refused.append(r.status) if "/events" in r.url else None)
        seat(alice, code, "Alice")
        stay(alice)
        alice.wait_for_function("() => window.streamsOpened.some(s => s.readyState === 2)")
        assert 429 in refused
        ben.enter(code, 1, 1, 5)
        expect(cell(alice, 1, 1)).to_have_text("5", timeout=LIVE_MS)
    finally:
        close_all([held])
    # Room again: the page asks for its stream at that pace, and holds it.
    alice.wait_for_function(
        "() => window.streamsOpened.some(s => s.readyState === 1)", timeout=LIVE_MS
    )
    ben.enter(code, 1, 1, 6)
    expect(cell(alice, 1, 1)).to_have_text("6", timeout=LIVE_MS)
    not_reloaded(alice)
