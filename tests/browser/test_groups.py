"""The group that plays every week on a 360-px Chromium phone (issue 43): Home's "Start a
group", the host's roster, New match filled from the roster, the standings with partners and
the head-to-head grid, the ratings chart, the TV view at 1280×720 and the printed page; each
screen looked at in light and dark, in English, Arabic (right to left), Russian and Spanish,
and none scrolls sideways."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import PHONE_VIEWPORT
from tests.browser.moves import told
from tests.groups import (
    add_players,
    keep_whole_hand,
    new_match,
    play_every_pair,
    roster_ids,
    start_group,
)

pytestmark = pytest.mark.browser

LANGUAGES = ("en", "ar", "ru", "es")
PLAYERS = ("Omar", "Ana", "Alexandra Konstantinou", "Dov")


def speak(page: Page, language: str) -> None:
    """Switch this phone's language with the switch on the page (it stays in it)."""
    page.locator("details.language summary").click()
    page.locator(f'details.language button[value="{language}"]').click()
    expect(page.locator("html")).to_have_attribute("lang", language)


def looked_at(
    page: Page,
    name: str,
    artifacts: Path,
    width: int = PHONE_VIEWPORT["width"],
    part: str | None = None,
) -> None:
    """Screenshots of the page in every language, light and dark; the page never scrolls
    sideways (a wide table scrolls inside its card). Left in English and light."""
    for language in LANGUAGES:
        speak(page, language)
        if language == "ar":
            expect(page.locator("html")).to_have_attribute("dir", "rtl")
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            wide = page.evaluate("document.documentElement.scrollWidth")
            assert wide <= width, f"{name} ({language}, {scheme}) is {wide} px wide"
            page.screenshot(
                path=artifacts / f"group-{name}-{language}-{scheme}.png", full_page=True
            )
            if part is not None:
                # The part to look at closely, at the size the phone shows it.
                shot = artifacts / f"group-{name}-part-{language}-{scheme}.png"
                page.locator(part).first.screenshot(path=shot)
    speak(page, "en")
    page.emulate_media(color_scheme="light")


def test_a_group_from_home_to_its_standings_tv_and_print(new_phone, phones, artifacts, app):
    omar = new_phone()
    omar.goto("/")
    omar.get_by_label("The group's name").fill("Fridays at Omar's")
    omar.get_by_role("button", name="Start a group").click()
    told(omar, "Group started: share its code with the table.")
    expect(omar.locator("h1")).to_have_text("Fridays at Omar's")
    code = omar.url.rstrip("/").split("/")[-1]
    for name in PLAYERS:
        omar.get_by_label("Add a player").fill(name)
        omar.get_by_role("button", name="Add", exact=True).click()
        told(omar, f"{name} joined the roster.")
    omar.get_by_label("I am").select_option(label="Omar")
    omar.get_by_role("button", name="That's me").click()
    told(omar, "This phone is Omar in this group now.")
    omar.get_by_role("button", name="Keep a rating").click()
    told(omar, "The group keeps a rating now.")

    # New match: the sides come filled from the roster, this phone's player first.
    omar.get_by_role("link", name="Basra").click()
    expect(omar.locator("h1")).to_have_text("New match: Basra")
    expect(omar.locator("#seat_0_0")).to_have_value(
        omar.locator("#seat_0_0 option", has_text="Omar").get_attribute("value")
    )
    looked_at(omar, "new-match", artifacts, part="form.new-match")

    # A second phone, the roster's keeper for the night, plays a few tables kept on it alone.
    keeper = phones()
    keeper.get(f"/g/{code}")
    keeper.post(f"/g/{code}/join")
    ids = roster_ids(keeper, code)
    tables = [
        ([["Omar", "Ana"], ["Alexandra Konstantinou", "Dov"]], "2v2", [101, 40]),
        ([["Omar"], ["Dov"]], "2", [30, 101]),
        ([["Ana"], ["Alexandra Konstantinou"]], "2", [101, 99]),
        ([["Omar"], ["Ana"]], "2", [101, 0]),
    ]
    for seats, table_format, points in tables:
        match = new_match(
            keeper,
            code,
            "basra",
            [[ids[n] for n in side] for side in seats],
            table_format=table_format,
        )
        keep_whole_hand(keeper, match, 1, points)
        assert "Match over" in keeper.post(f"/m/{match}/end").shown

    omar.goto(f"/g/{code}")
    rows = omar.locator("table.standings tbody tr")
    expect(rows).to_have_count(4)
    expect(rows.first.locator("th")).to_have_text("Omar")
    expect(omar.locator(".pairs li").first).to_contain_text("Omar & Ana: won 1 of 1 together")
    # The head to head: a line for each two who met on the phone, the grid on a wider screen.
    first_two = omar.locator(".rivalries li").first
    expect(first_two).to_contain_text("Omar against Dov: 1–1 in 2 matches")
    expect(omar.locator("table.grid")).to_be_hidden()
    looked_at(omar, "standings", artifacts, part=".standings-card")

    omar.goto(f"/g/{code}/ratings")
    expect(omar.get_by_role("img")).to_have_count(1)
    looked_at(omar, "ratings", artifacts)

    omar.goto(f"/g/{code}/print")
    omar.emulate_media(media="print")
    expect(omar.locator(".no-print")).to_be_hidden()
    # On paper the head to head is the grid.
    expect(omar.locator("table.grid")).to_be_visible()
    expect(omar.locator(".rivalries")).to_be_hidden()
    omar.emulate_media(media="screen")
    looked_at(omar, "print", artifacts)

    tv = new_phone(viewport={"width": 1280, "height": 720})
    tv.goto(f"/g/{code}/tv")
    expect(tv.locator("table.standings tbody tr")).to_have_count(4)
    for language in LANGUAGES:
        # The TV shows no bar: its language is switched on the group's page, as a laptop
        # would before it is turned to the room.
        tv.goto(f"/g/{code}")
        speak(tv, language)
        tv.goto(f"/g/{code}/tv")
        for scheme in ("light", "dark"):
            tv.emulate_media(color_scheme=scheme)
            # The whole table in the room's view: no scrolling across or down.
            assert tv.evaluate("document.documentElement.scrollWidth") <= 1280
            assert tv.evaluate("document.documentElement.scrollHeight") <= 720
            table = tv.locator("table.standings")
            assert table.evaluate("t => t.getBoundingClientRect().right") <= 1280
            assert table.evaluate("t => t.getBoundingClientRect().left") >= 0
            tv.screenshot(path=artifacts / f"group-tv-{language}-{scheme}.png")

    # Home lists the group for the phone that joined it.
    omar.goto("/")
    expect(omar.get_by_role("link", name=f"Fridays at Omar's {code}")).to_be_visible()
    looked_at(omar, "home", artifacts)


# A roster of long names, as a family or a club names its players: nine, so the head to head
# is a grid of nine, and the longest name has a word of twelve letters after a hyphen.
LONG_ROSTER = [
    "Konstantin Oberhauser-Wittgenstein",
    "Alexandra Konstantinou",
    "عائلة عبد الرحمن الكبيرة",
    "Maximilian Grünewald",
    "Bartholomew Okonkwo",
    "Anastasia Petrovna",
    "Wilhelmina Castellanos",
    "Omar",
    "Ana",
]

# The standings card as shown: each word of a roster name drawn on more than one line
# ("Wittgen/stein"), each box holding a name that cuts it (hidden past its edge, or ended
# "…"), and each box that scrolls sideways or reaches past the screen, the players' table's
# own scroller aside (it scrolls inside the card, its names held at the start).
MEASURE_CARD = """(names) => {
    const card = document.querySelector(".standings-card");
    const words = new Set(names.flatMap((name) => name.match(/[\\p{L}\\p{M}]+/gu)));
    const broken = [];
    const walker = document.createTreeWalker(card, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (const found of node.data.matchAll(/[\\p{L}\\p{M}]+/gu)) {
            if (!words.has(found[0])) continue;
            const range = document.createRange();
            range.setStart(node, found.index);
            range.setEnd(node, found.index + found[0].length);
            if (range.getClientRects().length > 1) broken.push(found[0]);
        }
    }
    const cut = [], across = [];
    const scroller = card.querySelector("table.standings").closest(".scroll");
    for (const e of card.querySelectorAll("*")) {
        const text = e.textContent.trim();
        const style = getComputedStyle(e);
        const holdsName = names.some((name) => text === name);
        if (holdsName && (e.scrollWidth > e.clientWidth + 1 || style.textOverflow === "ellipsis")
            && e.clientWidth > 0) {
            cut.push([text, e.clientWidth, e.scrollWidth]);
        }
        if (scroller.contains(e)) continue;
        const box = e.getBoundingClientRect();
        if ((e.clientWidth > 0 && e.scrollWidth > e.clientWidth + 1)
            || box.left < -0.5 || box.right > innerWidth + 0.5) {
            across.push([e.tagName + "." + e.className, text.slice(0, 30), e.clientWidth,
                         e.scrollWidth, box.left, box.right]);
        }
    }
    return {broken, cut, across, wide: document.documentElement.scrollWidth};
}"""


# The TV's player column: each word of a name drawn on more than one line, each name cut.
MEASURE_TV_NAMES = """(names) => {
    const broken = [], cut = [];
    for (const cell of document.querySelectorAll("table.standings .who")) {
        const ellipsis = getComputedStyle(cell).textOverflow === "ellipsis";
        if (cell.scrollWidth > cell.clientWidth + 1 || ellipsis) {
            cut.push(cell.textContent);
        }
        const text = cell.firstChild;
        for (const found of text.data.matchAll(/[\\p{L}\\p{M}]+/gu)) {
            const range = document.createRange();
            range.setStart(text, found.index);
            range.setEnd(text, found.index + found[0].length);
            if (range.getClientRects().length > 1) broken.push(found[0]);
        }
    }
    return {broken, cut};
}"""


@pytest.mark.parametrize("language", ["ar", "en", "ru", "es", "it"])
def test_long_names_read_whole_and_the_head_to_head_fits_a_phone(
    new_phone, phones, artifacts, language
):
    """Nine players with long names on a 360-px phone, dark, in every language (Arabic right
    to left): every name in the standings and the head to head is read whole, wrapped between
    its words and never inside one nor cut with "…", and the head to head fits the screen:
    nothing in it scrolls sideways. On the TV at 1280×720 too, the nine in the room's view."""
    keeper = phones()
    code = start_group(keeper, "Fridays at Omar's")
    add_players(keeper, code, *LONG_ROSTER)
    play_every_pair(keeper, code, LONG_ROSTER, apart=(1, 2))

    page = new_phone(locale=language, dark=True)
    page.goto(f"/g/{code}")
    expect(page.locator("table.standings tbody tr")).to_have_count(len(LONG_ROSTER))
    measured = page.evaluate(MEASURE_CARD, LONG_ROSTER)
    page.screenshot(path=artifacts / f"group-long-names-{language}-dark.png", full_page=True)
    page.locator(".standings-card").screenshot(
        path=artifacts / f"group-long-names-card-{language}-dark.png"
    )
    assert measured["wide"] <= PHONE_VIEWPORT["width"]
    assert measured["broken"] == []
    assert measured["cut"] == []
    assert measured["across"] == []

    # The TV between matches: every name whole there too, nine players in the room's view.
    tv = new_phone(locale=language, dark=True, viewport={"width": 1280, "height": 720})
    tv.goto(f"/g/{code}/tv")
    expect(tv.locator("table.standings tbody tr")).to_have_count(len(LONG_ROSTER))
    names = tv.evaluate(MEASURE_TV_NAMES, LONG_ROSTER)
    tv.screenshot(path=artifacts / f"group-long-names-tv-{language}-dark.png")
    assert names["broken"] == [] and names["cut"] == []
    assert tv.evaluate("document.documentElement.scrollWidth") <= 1280
    assert tv.evaluate("document.documentElement.scrollHeight") <= 720


# A printed A4 page's width for its content, in CSS pixels (210 mm less Chromium's margins).
A4_CONTENT = 718


def test_a_printed_head_to_head_of_sixteen_stays_on_the_paper(new_phone, phones, artifacts):
    """The printed standings of sixteen players, long names among them: the head-to-head
    grid, its columns numbered as its rows, fits the paper's width (a column a name wide ran
    1,691 px, off the page)."""
    keeper = phones()
    code = start_group(keeper, "Fridays at Omar's")
    names = LONG_ROSTER + [f"Player {letter}" for letter in "ABCDEFG"]
    add_players(keeper, code, *names)
    play_every_pair(keeper, code, names, apart=(1, 2, 3))
    page = new_phone(viewport={"width": A4_CONTENT, "height": 1000})
    page.goto(f"/g/{code}/print")
    page.emulate_media(media="print")
    expect(page.locator("table.grid tbody tr")).to_have_count(len(names))
    page.screenshot(path=artifacts / "group-print-sixteen.png", full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= A4_CONTENT
