"""What a new player stumbled on (issue 22), measured on 360-px Chromium phones: tap targets,
the charts' labels, long names at five sides, the New match form's placeholders. Each test
failed on the app before its fix."""

from __future__ import annotations

import os
import subprocess

import pytest
from playwright.sync_api import Page, ViewportSize, expect

from tests.browser.conftest import SUB_PIXEL
from tests.browser.moves import LIVE_MS, create_match, enter, join, told
from tests.phones import plain

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

# Each word (its letters) of each side's name in the sheet's head, as the lines it is drawn
# on: a word split across two lines ("Charli/e") is drawn on two. And whether the name shows
# whole: its text drawn inside its column, measured in the fractions of a pixel it is drawn at (the
# element's scroll sizes are rounded to whole pixels, and were a pixel apart in Noto with
# nothing cut), allowing what a person cannot see (SUB_PIXEL), no more.
MEASURE_NAMES = """(subPixel) => [...document.querySelectorAll("table.sheet thead .name")]
    .map((name) => {
        const text = name.firstChild;
        const words = [];
        // A word is its letters: a name may wrap after its hyphen ("Oberhauser-/Wittgenstein").
        for (const found of text.data.matchAll(/[\\p{L}\\p{M}]+/gu)) {
            const range = document.createRange();
            range.setStart(text, found.index);
            range.setEnd(text, found.index + found[0].length);
            words.push([found[0], range.getClientRects().length]);
        }
        const column = name.closest("th").getBoundingClientRect();
        const all = document.createRange();
        all.selectNodeContents(text);
        const whole = [...all.getClientRects()].every((line) =>
            column.left - subPixel <= line.left && line.right <= column.right + subPixel
            && column.top - subPixel <= line.top && line.bottom <= column.bottom + subPixel);
        return {words, whole};
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

    measured = page.evaluate(MEASURE_NAMES, SUB_PIXEL)
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


# Long words in the sheet's column heads, at every width of column.

LONG_WORDS = ["Alexandra Konstantinou", "Oberhauser-Wittgenstein", "Bartholomew", "Ana"]


@pytest.mark.parametrize("locale", ["en", "ar"])
@pytest.mark.parametrize("sides", [2, 3, 4, 8])
def test_long_words_in_column_heads_are_never_cut(new_phone, phones, artifacts, sides, locale):
    """A sheet of two, three, four and eight sides with long names: no word of a name is cut
    across lines in its column's head ("Konstantin/ou", "Oberhause/r-/Wittgenste/in"), each
    name drawn inside its column, nothing scrolls sideways; in Arabic and dark too."""
    host = phones()
    names = [LONG_WORDS[at % len(LONG_WORDS)] for at in range(sides)]
    code = host.create("other", target="500", **{f"side_{at}": n for at, n in enumerate(names)})
    host.enter(code, 1, 0, -1250)
    page = new_phone(locale=locale, dark=locale == "ar")
    page.goto(f"/m/{code}")
    expect(page.locator("table.sheet thead .name")).to_have_text(names)
    measured = page.evaluate(MEASURE_NAMES, SUB_PIXEL)
    page.screenshot(path=artifacts / f"sheet-long-words-{sides}-{locale}.png", full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert [word for name in measured for word in name["words"] if word[1] != 1] == []
    assert all(name["whole"] for name in measured), measured


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


@pytest.mark.parametrize("locale", ["en", "ar", "ru", "es"])
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


# The fonts phones draw with (static/app.css names them first); .ci/run installs them.
PHONE_FONTS = {"Roboto", "Noto Sans Arabic"}


def drawn_with(page: Page, selector: str) -> set[str]:
    """The fonts Chromium drew an element's text with, as its DevTools say (each glyph's)."""
    devtools = page.context.new_cdp_session(page)
    devtools.send("DOM.enable")
    devtools.send("CSS.enable")
    root = devtools.send("DOM.getDocument")["root"]["nodeId"]
    node = devtools.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
    fonts = devtools.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
    return {font["familyName"] for font in fonts}


def installed_fonts() -> set[str]:
    """The families this machine's fontconfig offers (FONTCONFIG_FILE may narrow them)."""
    listed = subprocess.run(["fc-list", ":", "family"], capture_output=True, text=True).stdout
    return {family for line in listed.splitlines() for family in line.split(",")}


def test_pages_draw_with_the_fonts_phones_draw_with(new_phone):
    """The page's words are drawn in Roboto, and Arabic in Noto Sans Arabic, as on an Android
    phone, wherever the machine has them (CI installs them: .ci/run); without them, in the
    machine's own sans-serif, the stack's last word."""
    page = new_phone(locale="ar")
    page.goto("/")
    stack = [
        name.strip().strip('"')
        for name in page.evaluate("getComputedStyle(document.body).fontFamily").split(",")
    ]
    assert stack[:2] == ["Roboto", "system-ui"] and "Noto Sans Arabic" in stack, stack
    fonts = drawn_with(page, "h1") | drawn_with(page, ".bar .brand")
    if os.environ.get("SCOREKEEPER_REQUIRE_CHROMIUM") or PHONE_FONTS <= installed_fonts():
        # Arabic words in Noto Sans Arabic; the Latin "Scorekeeper" of the bar in Roboto.
        assert PHONE_FONTS <= fonts, fonts
    else:
        assert fonts and not fonts & PHONE_FONTS, fonts


# The chart's labels apart, however far below zero the totals go.

# Every label drawn on a chart, as the box it is drawn in, and the chart's box (CSS px).
MEASURE_LABELS = """(selector) => {
    const chart = document.querySelector(selector + " svg.chart");
    const edges = (box) => [box.left, box.top, box.right, box.bottom];
    return {chart: edges(chart.getBoundingClientRect()),
            labels: [...chart.querySelectorAll("text")].map(
                (label) => [label.textContent, ...edges(label.getBoundingClientRect())])};
}"""


def overlapping(labels: list[list[object]]) -> list[tuple[object, object]]:
    """The pairs of labels whose boxes overlap by more than a person can see."""
    found = []
    for at, (one, left, top, right, bottom) in enumerate(labels):
        for other, left2, top2, right2, bottom2 in labels[at + 1 :]:
            across = min(right, right2) - max(left, left2)  # type: ignore[call-overload]
            down = min(bottom, bottom2) - max(top, top2)  # type: ignore[call-overload]
            if across > SUB_PIXEL and down > SUB_PIXEL:
                found.append((one, other))
    return found


@pytest.mark.parametrize(
    ("locale", "hands"),
    [
        # Far below zero under a target of 201 (issue 42: 0, the target and 201 on each other).
        ("en", [(-500, 100), (-687, 90)]),
        ("ar", [(-500, 100), (-687, 90)]),
        # Just below zero, and below the target by as much: every label close to another.
        ("en", [(-20, 180), (-5, 15)]),
        ("ru", [(-2000, 5), (-693, 5)]),
    ],
)
def test_the_charts_labels_never_sit_on_each_other(new_phone, phones, artifacts, locale, hands):
    """The sheet's chart, History's and the TV's: zero, the target and the lowest total each
    labelled, each label inside the chart and clear of every other, however far below zero the
    totals go; in Arabic (the chart mirrored) and dark too."""
    host, guest = phones(), phones()
    code = host.create("other", target="201", side_0="Ana", side_1="Ben")
    guest.join(code, 1)
    for number, (ours, theirs) in enumerate(hands, start=1):
        host.enter(code, number, 0, ours)
        guest.enter(code, number, 1, theirs)
    lowest = min(sum(points[0] for points in hands), sum(points[1] for points in hands))
    page = new_phone(locale=locale, dark=locale == "ar", javascript=False)
    shown: dict[str, list[list[object]]] = {}
    for where, url, selector in [
        ("sheet", f"/m/{code}", "figure.chart-box"),
        ("tv", f"/m/{code}/tv", ".tv-chart"),
    ]:
        page.goto(url)
        measured = page.evaluate(MEASURE_LABELS, selector)
        page.locator(f"{selector} svg.chart").screenshot(
            path=artifacts / f"chart-labels-{where}-{locale}-{-lowest}.png"
        )
        shown[where] = measured["labels"]
        chart_left, chart_top, chart_right, chart_bottom = measured["chart"]
        for _, left, top, right, bottom in shown[where]:
            assert chart_left - SUB_PIXEL <= left and right <= chart_right + SUB_PIXEL, measured
            assert chart_top - SUB_PIXEL <= top and bottom <= chart_bottom + SUB_PIXEL, measured
        assert overlapping(shown[where]) == [], shown[where]
    labelled = {str(text) for text, *_ in shown["sheet"]}
    # Zero, the target and the lowest total, as the page writes numbers.
    assert {"0", "201"} <= labelled, labelled
    assert str(lowest) in {plain(text) for text in labelled}, (lowest, labelled)
