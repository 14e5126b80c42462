"""Numbers and names as a right-to-left page draws them (issue 42, point 7): in Arabic a list
of Latin or Cyrillic names read backwards, with its comma between «بانتظار» and the first
name, and a typed -5 read "5-" beside an Arabic name."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import SUB_PIXEL
from tests.browser.moves import told
from tests.words import words

pytestmark = pytest.mark.browser

# Sides named in Latin and Cyrillic letters, in the order they sit.
NAMES = ["Ana", "Ben", "Бора", "Cleo"]

# The waiting line's first word, each name (as drawn, on which line), and every comma drawn
# in the line (Arabic's "،" or a Latin ","), each as its box.
MEASURE_WAITING = """(first) => {
    const line = [...document.querySelectorAll(".status p")]
        .find((p) => p.textContent.includes(first));
    const box = (range) => {
        const r = range.getBoundingClientRect();
        return {left: r.left, right: r.right, top: r.top, bottom: r.bottom};
    };
    const found = {first: null, names: [], commas: []};
    const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const range = document.createRange();
        const at = node.data.indexOf(first);
        if (at >= 0) {
            range.setStart(node, at);
            range.setEnd(node, at + first.length);
            found.first = box(range);
        }
        for (const comma of node.data.matchAll(/[,\\u060c]/g)) {
            range.setStart(node, comma.index);
            range.setEnd(node, comma.index + 1);
            found.commas.push(box(range));
        }
    }
    found.names = [...line.querySelectorAll(".missing")].map((name) => ({
        name: name.textContent, ...box(name)}));
    return found;
}"""


def same_line(one: dict[str, float], other: dict[str, float]) -> bool:
    """Whether two boxes are drawn on one line."""
    return abs(one["top"] - other["top"]) < 2


def test_latin_and_cyrillic_names_read_in_order_in_arabic(new_phone, phones, artifacts):
    """ "Waiting for Ana, Ben, Бора, Cleo" in Arabic: read right to left, the first name
    right after «بانتظار» (no comma between them), each next name to the left of the one
    before it (or on the next line)."""
    say = words("ar")
    host = phones()
    code = host.create(
        "other", target="500", **{f"side_{at}": name for at, name in enumerate(NAMES)}
    )
    page = new_phone(locale="ar", dark=True)
    page.goto(f"/m/{code}")
    expect(page.locator(".status .missing")).to_have_text(NAMES)
    first = say("%(hand)s %(number)s: waiting for %(sides)s", hand="", number="", sides="")
    first = first.replace(":", "").strip()
    measured = page.evaluate(MEASURE_WAITING, first)
    page.locator(".status").screenshot(path=artifacts / "waiting-names-ar-dark.png")
    names, said = measured["names"], measured["first"]
    assert [name["name"] for name in names] == NAMES
    # The first name next after the first word: to its left, on its line, nothing between.
    assert same_line(names[0], said) and names[0]["right"] <= said["left"] + SUB_PIXEL, measured
    between = [
        comma
        for comma in measured["commas"]
        if same_line(comma, said)
        and names[0]["right"] - SUB_PIXEL <= comma["left"]
        and comma["right"] <= said["left"] + SUB_PIXEL
    ]
    assert between == [], measured
    for one, other in zip(names, names[1:], strict=False):
        if same_line(one, other):
            assert other["right"] <= one["left"] + SUB_PIXEL, (one, other)
        else:
            assert other["top"] > one["top"], (one, other)


# Where a number's minus sign is drawn beside its digits, for each number with a sign in the
# element's text: its left edge and its first digit's.
MEASURE_SIGNS = """(selector) => {
    const signs = [];
    const element = document.querySelector(selector);
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (const found of node.data.matchAll(/-(\\d+)/g)) {
            const range = document.createRange();
            range.setStart(node, found.index);
            range.setEnd(node, found.index + 1);
            const minus = range.getBoundingClientRect().left;
            range.setStart(node, found.index + 1);
            range.setEnd(node, found.index + 2);
            signs.push([found[0], minus, range.getBoundingClientRect().left]);
        }
    }
    return signs;
}"""


def test_a_total_typed_below_zero_reads_its_way_round_in_arabic(new_phone, phones, artifacts):
    """A side with an Arabic name types -5: its field reads "-5", left to right, and so does
    the line saying it is kept on the phone while the connection is gone ("5-" beside the
    name)."""
    say = words("ar")
    keeper = phones()
    code = keeper.create("other", target="500", side_0="عائلة", side_1="Ben", host_side="-1")
    page = new_phone(locale="ar", dark=True)
    page.goto(f"/j/{code}")
    page.get_by_label(say("Your name")).fill("ليلى")
    page.get_by_role("button", name=say("I'm %(side)s", side="عائلة")).click()
    told(page, say("This phone now holds %(side)s.", side="عائلة"))
    field = page.locator("#entry input[name=points]")
    field.fill("-5")
    assert field.evaluate("(input) => getComputedStyle(input).direction") == "ltr"
    page.context.set_offline(True)
    page.get_by_role("button", name=say("Enter", context="button"), exact=True).click()
    expect(page.locator("#outbox .kept")).to_contain_text("-5")
    page.screenshot(path=artifacts / "outbox-minus-ar-dark.png", full_page=True)
    signs = page.evaluate(MEASURE_SIGNS, "#outbox .kept")
    assert signs and all(minus < digit for _, minus, digit in signs), signs
    page.context.set_offline(False)
    told(
        page,
        say(
            "%(hand)s %(number)s: %(side)s %(points)s recorded.",
            hand=say("Hand"),
            number=1,
            side="عائلة",
            points="\u2066-5\u2069",
        ),
    )
