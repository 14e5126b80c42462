"""A series of rematches played on a 360-px Chromium phone (issue 22): the series line on the
sheet and in History, the host's note, and the phone's record page that adds it all up; each
screen looked at in light and dark, in English and in Arabic (right to left)."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import PHONE_VIEWPORT, SUB_PIXEL
from tests.browser.moves import LIVE_MS, create_match, enter, told
from tests.phones import Phone
from tests.words import words

pytestmark = pytest.mark.browser

NOTE = "At Omar's, loser buys the tea"
COUNTED = (
    "Counted: the ended matches this phone played on a side. Not counted: unfinished and "
    "abandoned matches, matches only watched, and matches taken off this phone's list."
)


def play(omar: Page, ben: Phone, code: str, hands: list[tuple[int, int]], winner: str) -> None:
    """Omar (Cats) enters on his phone, Ben (Dogs) on his; Omar ends the match."""
    for number, (cats, dogs) in enumerate(hands, start=1):
        enter(omar, number, "Cats", cats)
        ben.enter(code, number, 1, dogs)
    omar.get_by_role("button", name=f"End match: {winner} wins").click(timeout=LIVE_MS)
    told(omar, f"Match over: {winner} won.")


def rematch(omar: Page, ben: Phone) -> str:
    """Omar taps Rematch and holds Cats there at once; Ben takes Dogs with his tap. Its code."""
    omar.get_by_role("button", name="Rematch: the same sides again").click(timeout=LIVE_MS)
    told(omar, "Rematch! Every phone of the last match is asked to take its side.")
    expect(omar.locator(".code-line")).to_have_text("Omar holds Cats · Host · Change name")
    code = omar.locator("summary .code").inner_text()
    ben.post(f"/m/{code}/claim", {"target": 1, "player": "Ben"})
    return code


def figures(page: Page, heading: str) -> dict[str, str]:
    """The figures of one card of the record page (its heading), as a phone reads them."""
    card = page.locator("section.card").filter(has=page.get_by_role("heading", name=heading))
    names = card.locator("dl.record dt").all_inner_texts()
    values = card.locator("dl.record dd").all_inner_texts()
    return dict(zip(names, values, strict=True))


def reads_whole(page: Page) -> None:
    """Every figure of the record and its name stand whole in their own boxes: no name runs
    under its value, and no value spills out of the card."""
    spilled = page.evaluate(
        """() => [...document.querySelectorAll("dl.record dt, dl.record dd")]
            .filter((e) => e.scrollWidth > e.clientWidth)
            .map((e) => [e.textContent.trim(), e.clientWidth, e.scrollWidth])"""
    )
    assert spilled == [], spilled


def speak(page: Page, language: str) -> None:
    """Switch this phone's language with the switch on the page (it stays in it)."""
    page.locator("details.language summary").click()
    page.locator(f'details.language button[value="{language}"]').click()
    expect(page.locator("html")).to_have_attribute("lang", language)


def looked_at(page: Page, name: str, artifacts: Path) -> None:
    """Screenshots of the page as it is now, in light and dark, in English and in Arabic; in
    none of them does the page scroll sideways at 360 px. Left in English and light."""
    for language in ("en", "ar"):
        if language == "ar":
            speak(page, "ar")
            expect(page.locator("html")).to_have_attribute("dir", "rtl")
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            wide = page.evaluate("document.documentElement.scrollWidth")
            assert wide <= PHONE_VIEWPORT["width"], f"{name} ({language}, {scheme}) is {wide} px"
            page.screenshot(path=artifacts / f"{name}-{language}-{scheme}.png", full_page=True)
    speak(page, "en")
    page.emulate_media(color_scheme="light")


def test_a_series_of_rematches_its_note_and_the_record_that_counts_it(new_phone, phones, artifacts):
    """Three matches, each a rematch of the last: the sheet, the TV and History say the
    series' score; the host's note shows on the sheet and in History; the record page counts
    the matches and the series, names the bests, draws the chart with labels a thumb-holder
    can read, and says what it leaves out. Nothing spills sideways at 360 px, in light or dark,
    in English or Arabic."""
    omar, ben = new_phone(), phones()
    first = create_match(
        omar, "Basra", "2 head to head", ["Cats", "Dogs"], target="101 points", player="Omar"
    )
    ben.post("/join", {"code": first})
    ben.post(f"/m/{first}/claim", {"target": 1, "player": "Ben"})

    # Three matches: Cats come back from 30 behind, Dogs win one, Cats win big.
    play(omar, ben, first, [(10, 40), (95, 0)], "Cats")
    expect(omar.locator(".status .series")).to_have_count(0)
    second = rematch(omar, ben)
    expect(omar.locator(".status .series")).to_have_text("Series: Cats ahead, 1–0")
    play(omar, ben, second, [(0, 101)], "Dogs")
    expect(omar.locator(".status .series")).to_have_text("Series: level, 1–1")
    third = rematch(omar, ben)
    play(omar, ben, third, [(70, 0), (40, 5)], "Cats")
    expect(omar.locator(".status .series")).to_have_text("Series: Cats ahead, 2–1")
    omar.goto(f"/m/{third}/tv")
    expect(omar.locator(".tv-series")).to_have_text("Series: Cats ahead, 2–1")
    omar.goto(f"/m/{third}")

    # The host writes the match's note; the sheet shows it beside the series.
    omar.get_by_role("link", name="Write a note…").click()
    omar.get_by_label("Note", exact=True).fill(NOTE)
    omar.get_by_role("button", name="Save").click()
    told(omar, "Note saved.")
    expect(omar.locator(".status .note")).to_have_text(f"Note: {NOTE}")
    looked_at(omar, "record-sheet-series", artifacts)

    # History: each card the series as it stood after that match, the note on its own.
    omar.get_by_role("link", name="History").click()
    cards = omar.locator(".history > li")
    expect(cards.locator(".series")).to_have_text(
        ["Series: Cats ahead, 2–1", "Series: level, 1–1", "Series: Cats ahead, 1–0"]
    )
    expect(cards.locator(".note")).to_have_text([NOTE])
    expect(cards.first.locator(".note")).to_have_text(NOTE)
    expect(cards.first.locator(".players")).to_have_text("Omar (Cats) · Ben (Dogs)")
    looked_at(omar, "record-history-note", artifacts)

    # The record: the three matches, the series, the bests, and the sentence saying what counts.
    omar.get_by_role("link", name="Your record").click()
    expect(omar.locator("h1")).to_have_text("Your record")
    expect(omar.locator(".counted")).to_have_text(COUNTED)
    assert figures(omar, "In all") == {
        "Matches": "3",
        "Wins": "2",
        "Win share": "67%",
        "Current streak": "1 win",
        "Best streak": "1 win",
        "Series won": "1 of 1",
    }
    assert figures(omar, "Basra") == {
        "Matches": "3",
        "Wins": "2",
        "Win share": "67%",
        "Current streak": "1 win",
        "Best streak": "1 win",
        "Series won": "1 of 1",
        # 10 + 95 + 0 + 70 + 40 over five hands.
        "Average points per hand": "43.0",
        "Best hand": f"95, hand 2 of {first}",
        "Biggest win": f"110–5 in {third}",
        "Biggest comeback": f"won from 30 behind, {first}",
        # Plain totals: no basra or majority is known, and none is made up.
        "Basras": "0",
        "Double basras": "0",
        "Majorities taken": "0",
    }
    reads_whole(omar)
    expect(omar.locator(".met")).to_have_count(1)
    expect(omar.locator(".met h2")).to_have_text("Opponents met most")
    expect(omar.locator(".met li")).to_have_text(["Ben: 2–1 in 3 matches"])

    # The chart of wins and losses: there, named, its labels whole inside it and readable.
    chart = omar.get_by_role("img", name="Wins and losses, match by match")
    expect(chart).to_be_visible()
    expect(omar.locator(".chart-box figcaption .key")).to_have_text(["Wins", "Losses"])
    expect(chart.locator("text")).to_have_text(["0", "match 3"])
    box = chart.bounding_box()
    for label in chart.locator("text").all():
        seen = label.bounding_box()
        # Inside it to what a person can see (a label's box is its font's whole height,
        # whose descent reaches a tenth of a pixel further in Noto than in DejaVu).
        assert box["x"] - SUB_PIXEL <= seen["x"]
        assert seen["x"] + seen["width"] <= box["x"] + box["width"] + SUB_PIXEL
        assert box["y"] - SUB_PIXEL <= seen["y"]
        assert seen["y"] + seen["height"] <= box["y"] + box["height"] + SUB_PIXEL
        # Readable on a phone held in one hand: the size it is drawn at on the screen (the
        # chart is scaled to its card) no smaller than 11 px.
        drawn = label.evaluate("t => t.getScreenCTM().a * parseFloat(getComputedStyle(t).fontSize)")
        assert drawn >= 11, (label.text_content(), drawn)
    looked_at(omar, "record-page", artifacts)

    # In Arabic, the sentence that says what counts is in Arabic.
    speak(omar, "ar")
    expect(omar.locator(".counted")).to_have_text(words("ar")(COUNTED))
    reads_whole(omar)
    speak(omar, "en")

    # Ben's name on a History card opens his record: the same series, the other way round.
    omar.get_by_role("link", name="History").click()
    omar.locator(".history > li").first.get_by_role("link", name="Ben", exact=True).click()
    expect(omar.locator("h1")).to_have_text("The record of Ben")
    ben_in_all = figures(omar, "In all")
    assert ben_in_all["Matches"] == "3" and ben_in_all["Wins"] == "1"
    assert ben_in_all["Series won"] == "0 of 1"
