"""What a new player stumbled on (issue 22), measured on 360-px Chromium phones: tap targets,
the charts' labels, long names at five sides, the New match form's placeholders. Each test
failed on the app before its fix."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, ViewportSize, expect

from tests.browser.moves import LIVE_MS, create_match, enter, join, told

pytestmark = pytest.mark.browser

# Material's 48 dp, WCAG's target size: a thumb's width.
THUMB = 48

# Everything a thumb taps on a page, as it is drawn: a radio button or a tick is tapped
# through its label, so the label is what is measured. Nothing is left out, not even a link
# in a line of text: the app is made for a phone held in one hand, so every tap target is a
# thumb's width, and "Change name" in the line over the sheet was the first thing missed.
MEASURE_TAPS = """() => [...document.querySelectorAll(
        "a, button, summary, select, label.choice,"
        + " input:not([type=hidden]):not([type=radio]):not([type=checkbox])")]
    .filter((e) => e.getClientRects().length > 0)
    .map((e) => {
        const box = e.getBoundingClientRect();
        const text = (e.innerText || e.value || e.getAttribute("aria-label") || "").trim();
        // A control with no word on it (a number, a sign) is icon-like: a thumb wide too.
        return {text: text.slice(0, 40), tall: box.height, wide: box.width,
                icon: !/\\p{L}/u.test(text)};
    })"""


def too_small(page: Page) -> list[dict[str, object]]:
    """Every tappable control shown on the page that is under a thumb's size."""
    return [
        tap
        for tap in page.evaluate(MEASURE_TAPS)
        if tap["tall"] < THUMB - 0.5 or (tap["icon"] and tap["wide"] < THUMB - 0.5)
    ]


def open_every_details(page: Page) -> None:
    """Open every folded part (the invite, the language switch, Remove…) to measure its
    controls too."""
    page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })")


def test_every_control_on_the_main_pages_is_a_thumb_big(new_phone, artifacts):
    """The sheet as host and as a player, the calculator, New match, Home and History: no
    control under 48×48 CSS px ("Change name" was 23 px tall, "Remove…" 32 px)."""
    omar, ben = new_phone(), new_phone(dark=True)
    code = create_match(omar, "Basra", "2 head to head", ["Omar", "Ben"], player="Omar")
    join(ben, code, "Ben")
    enter(omar, 1, "Omar", 20)
    enter(ben, 1, "Ben", 12)
    expect(omar.locator("tr.totals td")).to_have_text(["20", "12"], timeout=LIVE_MS)

    pages: dict[str, list[dict[str, object]]] = {}
    open_every_details(omar)
    pages["sheet, host"] = too_small(omar)
    omar.screenshot(path=artifacts / "taps-sheet-host.png", full_page=True)
    open_every_details(ben)
    pages["sheet, player"] = too_small(ben)
    ben.screenshot(path=artifacts / "taps-sheet-player-dark.png", full_page=True)
    ben.get_by_role("link", name="Count with the calculator").click()
    pages["calculator"] = too_small(ben)
    omar.goto("/new/other")
    pages["new match"] = too_small(omar)
    omar.goto("/")
    pages["home"] = too_small(omar)

    # A finished match, so History offers to remove it.
    omar.goto(f"/m/{code}")
    ben.goto(f"/m/{code}")
    enter(omar, 2, "Omar", 90)
    enter(ben, 2, "Ben", 3)
    omar.get_by_role("button", name="End match: Omar wins").click(timeout=LIVE_MS)
    told(omar, "Match over: Omar won.")
    omar.get_by_role("link", name="History").click()
    open_every_details(omar)
    pages["history"] = too_small(omar)
    omar.screenshot(path=artifacts / "taps-history.png", full_page=True)

    small = {name: taps for name, taps in pages.items() if taps}
    assert small == {}, "\n".join(f"{name}: {taps}" for name, taps in small.items())


# Five sides at 360 px.

FIVE = ["Charlie", "Alexandra", "Maximilian", "Grandma Rose", "Bob"]

# Each word of each side's name in the sheet's head, as the lines it is drawn on: a word
# split across two lines ("Charli/e") is drawn on two. And whether the name shows whole.
MEASURE_NAMES = """() => [...document.querySelectorAll("table.sheet thead .name")].map((name) => {
        const text = name.firstChild;
        const words = [];
        for (const found of text.data.matchAll(/\\S+/g)) {
            const range = document.createRange();
            range.setStart(text, found.index);
            range.setEnd(text, found.index + found[0].length);
            words.push([found[0], range.getClientRects().length]);
        }
        return {words, whole: name.scrollWidth <= name.clientWidth + 0.5
                              && name.scrollHeight <= name.clientHeight + 0.5};
    })"""


@pytest.mark.parametrize("locale", ["en", "ar"])
def test_five_long_names_are_never_split_inside_a_word(new_phone, phones, artifacts, locale):
    """An Other game of five sides: each name is read whole, no word broken across lines,
    nothing scrolls sideways; in Arabic (right to left) and dark mode as well."""
    host = phones()
    names = {f"side_{at}": name for at, name in enumerate(FIVE)}
    code = host.create("other", target="500", **names)
    host.enter(code, 1, 0, 125)
    page = new_phone(locale=locale, dark=locale == "ar")
    page.goto(f"/m/{code}")
    expect(page.locator("table.sheet thead .name")).to_have_text(FIVE)

    measured = page.evaluate(MEASURE_NAMES)
    page.screenshot(path=artifacts / f"sheet-five-sides-{locale}.png", full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert [word for name in measured for word in name["words"] if word[1] != 1] == []
    assert all(name["whole"] for name in measured), measured
    # The hands' column, a thumb wide for the host, still holds its words ("Total").
    cut = page.evaluate(
        """() => [...document.querySelectorAll("table.sheet tr > :first-child")]
            .filter((cell) => cell.scrollWidth > cell.clientWidth).map((cell) => cell.innerText)"""
    )
    assert cut == []


# The New match form's placeholders at 360 px.

# Each shown field's placeholder, measured in the field's own font, against the room inside
# the field (its width less its padding).
MEASURE_PLACEHOLDERS = """() => {
    const pen = document.createElement("canvas").getContext("2d");
    return [...document.querySelectorAll("input[placeholder]")]
        .filter((field) => field.getClientRects().length > 0)
        .map((field) => {
            const words = getComputedStyle(field, "::placeholder");
            pen.font = `${words.fontWeight} ${words.fontSize} ${words.fontFamily}`;
            const box = getComputedStyle(field);
            const room = field.clientWidth - parseFloat(box.paddingInlineStart)
                - parseFloat(box.paddingInlineEnd);
            return [field.placeholder, pen.measureText(field.placeholder).width, room];
        });
}"""


@pytest.mark.parametrize("locale", ["en", "ar", "ru", "es", "it"])
@pytest.mark.parametrize("game", ["basra", "other"])
def test_new_match_placeholders_read_whole(new_phone, artifacts, locale, game):
    """Every placeholder of the New match form fits its field at 360 px in every language
    ("Players (optional)" was cut)."""
    page = new_phone(locale=locale, dark=locale == "ar")
    page.goto(f"/new/{game}")
    measured = page.evaluate(MEASURE_PLACEHOLDERS)
    page.screenshot(path=artifacts / f"new-{game}-{locale}.png", full_page=True)
    assert len(measured) >= 3, measured
    assert [shown for shown in measured if shown[1] > shown[2]] == []


# The charts' words, as big as they are shown.

# Each word drawn on or under a chart, in CSS px as shown: an SVG label's size is its font
# size in the chart's units times the chart's scale on screen.
MEASURE_CHART_WORDS = """() => ({
    labels: [...document.querySelectorAll("svg.chart text")].map((label) => [
        label.textContent,
        parseFloat(getComputedStyle(label).fontSize) * label.getScreenCTM().a]),
    keys: [...document.querySelectorAll(".chart-key .key")].map((key) => [
        key.textContent.trim(), parseFloat(getComputedStyle(key).fontSize)]),
})"""

TV: ViewportSize = {"width": 1280, "height": 720}


def smallest(measured: dict[str, list[list[object]]]) -> tuple[float, float]:
    """The smallest label on the charts and the smallest word of their keys, in CSS px."""
    return (
        min(float(size) for _, size in measured["labels"]),  # type: ignore[arg-type]
        min(float(size) for _, size in measured["keys"]),  # type: ignore[arg-type]
    )


def test_the_charts_words_read_on_a_phone_and_across_the_room(new_phone, phones, artifacts):
    """The sheet's chart and History's at 360 px: labels of 12 CSS px at least, a key naming
    each side; the TV's at 1280×720 twice as big, and the TV still fits its screen. In
    Arabic and dark mode too."""
    omar = new_phone(dark=True)
    code = create_match(omar, "Basra", "2 head to head", ["Omar", "Ben"], player="Omar")
    ben = phones()
    ben.join(code, side=1)
    for hand, (ours, theirs) in enumerate([(20, 12), (35, 8), (14, 30)], start=1):
        enter(omar, hand, "Omar", ours)
        ben.enter(code, hand, 1, theirs)
    expect(omar.locator("tr.totals td")).to_have_text(["69", "50"], timeout=LIVE_MS)

    sheet = omar.evaluate(MEASURE_CHART_WORDS)
    assert [name for name, _ in sheet["keys"]] == ["Omar", "Ben", "target 101"]
    assert min(smallest(sheet)) >= 12, sheet
    omar.locator("figure.chart-box").screenshot(path=artifacts / "chart-sheet-dark.png")

    omar.get_by_role("link", name="History").click()
    # Measured once History is shown, not the sheet the click leaves (a slow machine's race).
    omar.wait_for_url("**/history")
    history = omar.evaluate(MEASURE_CHART_WORDS)
    assert [name for name, _ in history["keys"]] == ["Omar", "Ben", "target 101"]
    assert min(smallest(history)) >= 12, history
    omar.locator(".language summary").click()
    omar.get_by_role("button", name="العربية").click()
    expect(omar.locator("html")).to_have_attribute("dir", "rtl")
    omar.screenshot(path=artifacts / "chart-history-ar-dark.png", full_page=True)
    omar.goto(f"/m/{code}")
    omar.locator("figure.chart-box").screenshot(path=artifacts / "chart-sheet-ar-dark.png")

    laptop = new_phone(viewport=TV)
    laptop.goto(f"/m/{code}/tv")
    tv = laptop.evaluate(MEASURE_CHART_WORDS)
    assert [name for name, _ in tv["keys"]] == ["Omar", "Ben", "target 101"]
    assert min(smallest(tv)) >= 20, tv
    laptop.screenshot(path=artifacts / "chart-tv-1280x720.png", full_page=True)
    assert laptop.evaluate("document.documentElement.scrollHeight <= innerHeight + 1")
