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
from tests.groups import keep_whole_hand, new_match, roster_ids

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
    expect(omar.locator("table.grid")).to_be_visible()
    looked_at(omar, "standings", artifacts, part=".standings-card")

    omar.goto(f"/g/{code}/ratings")
    expect(omar.get_by_role("img")).to_have_count(1)
    looked_at(omar, "ratings", artifacts)

    omar.goto(f"/g/{code}/print")
    omar.emulate_media(media="print")
    expect(omar.locator(".no-print")).to_be_hidden()
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
