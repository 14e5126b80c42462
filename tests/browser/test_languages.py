"""A whole hand in each of the players' languages, on two 360-px phones whose browsers ask for
it: create, join, the calculator, an entry, End match. Each game in the language it is played
in most: Basra in Arabic (right to left), Pastura in Russian, Brisca in Spanish, Scopa in
Italian. The words are asserted as each language's catalog has them."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from playwright.sync_api import Page, expect

from tests.browser.moves import LIVE_MS, stay, told
from tests.words import words

pytestmark = pytest.mark.browser


@dataclass(frozen=True)
class Table:
    language: str
    game: str
    sides: tuple[str, str]
    # The host's plain entry for hand 1, enough to win.
    winning: int
    # The other side's calculator counts (field key → count) and the total they come to.
    counts: dict[str, int]
    total: int
    # The entry field's label, and the target to pick (by value) if not the game's default.
    entry_label: tuple[str, dict[str, int]]
    target: str | None = None
    # The calculator's choices and ticks to pick (field key → the input's value).
    picked: dict[str, str] = field(default_factory=dict)


TABLES = [
    Table(
        "ar",
        "Basra",
        ("عمر", "سامي"),
        101,
        {"cards": 30, "aces": 2, "basras": 1},
        42,  # the majority 30, two aces, one basra 10
        ("Your total for this hand", {}),
    ),
    Table(
        "ru",
        "Pastura",
        ("Иван", "Пётр"),
        60,
        {"cards": 30, "aces": 2, "pasturas": 1},
        6,  # most cards 3, two aces, one pastura
        ("Your total for this hand", {}),
    ),
    Table(
        "es",
        "Brisca",
        ("Lucía", "Pablo"),
        76,
        {"aces": 4},
        44,  # four aces, 11 each: with 76, the deck's 120
        ("Card points this round (0–%(most)s)", {"most": 120}),
        target="1",
    ),
    # Italy's players play Scopa: denari, settebello, primiera and scope as they say them.
    Table(
        "it",
        "Scopa",
        ("Giulia", "Marco"),
        11,
        {"cards": 17, "coins": 3, "scope": 2},
        3,  # two scope and the settebello; 17 cards, 3 denari and the primiera (No) score nothing
        ("Your total for this hand", {}),
        picked={
            "seven_coins": "y",
            "best_coins": "7",
            "best_cups": "7",
            "best_swords": "6",
            "best_clubs": "10",
        },
    ),
]


def says_its_language(page: Page, language: str) -> None:
    """The page says its language and direction, and lays itself out in it."""
    html = page.locator("html")
    expect(html).to_have_attribute("lang", language)
    expect(html).to_have_attribute("dir", "rtl" if language == "ar" else "ltr")


@pytest.mark.parametrize("table", TABLES, ids=[t.language for t in TABLES])
def test_a_whole_hand_in_the_players_language(new_phone, artifacts, table: Table):
    say = words(table.language)
    host_side, guest_side = table.sides
    # The Arabic table's second phone is in dark mode: right to left, dark, 360 px at once.
    host = new_phone(locale=table.language)
    guest = new_phone(locale=table.language, dark=table.language == "ar")

    # The host creates the match: the game's name and every label in the language.
    host.goto("/")
    says_its_language(host, table.language)
    # Not the English: the page is in the language, not its catalog's fallback.
    assert say("New match") != "New match" and say("Create match") != "Create match"
    expect(host.get_by_role("heading", name=say("New match"))).to_be_visible()
    host.get_by_role("link", name=say(table.game), exact=True).click()
    expect(host.get_by_role("heading", level=1)).to_have_text(
        say("New match: %(game)s", game=say(table.game))
    )
    host.get_by_label(say("2 head to head")).check()
    if table.target is not None:
        host.locator("select[name=target]").select_option(table.target)
    host.get_by_label(say("Side %(number)s", number=1), exact=True).fill(host_side)
    host.get_by_label(say("Side %(number)s", number=2), exact=True).fill(guest_side)
    host.get_by_label(say("Your name")).fill(host_side)
    host.get_by_label(say("This phone plays on")).select_option(index=0)
    host.screenshot(path=artifacts / f"language-{table.language}-new.png", full_page=True)
    host.get_by_role("button", name=say("Create match")).click()
    expect(host.locator(".code-line")).to_contain_text(host_side)
    code = host.locator("summary .code").inner_text()
    stay(host)

    # The other phone joins by the code, in the same language.
    guest.goto("/")
    guest.get_by_label(say("Match or group code")).fill(code.lower())
    guest.get_by_role("button", name=say("Join"), exact=True).click()
    guest.get_by_label(say("Your name")).fill(guest_side)
    guest.get_by_role("button", name=say("I'm %(side)s", side=guest_side)).click()
    told(guest, say("This phone now holds %(side)s.", side=guest_side))
    says_its_language(guest, table.language)

    # The host enters a plain total.
    hand = say("Round") if table.game == "Brisca" else say("Hand")
    heading = say("%(hand)s %(number)s: %(side)s", hand=hand, number=1, side=host_side)
    expect(host.locator("#entry h2")).to_have_text(heading)
    label, fill = table.entry_label
    host.get_by_label(say(label, **fill)).fill(str(table.winning))
    host.get_by_role("button", name=say("Enter", context="button"), exact=True).click()
    told(
        host,
        say(
            "%(hand)s %(number)s: %(side)s %(points)s recorded.",
            hand=hand,
            number=1,
            side=host_side,
            points=table.winning,
        ),
    )

    # The other side counts its pile with the calculator.
    guest.get_by_role("link", name=say("Count with the calculator")).click()
    says_its_language(guest, table.language)
    for key, count in table.counts.items():
        guest.locator(f"#n_{key}").fill(str(count))
    for key, value in table.picked.items():
        guest.locator(f"input[name=n_{key}][value='{value}']").check()
    enter = guest.get_by_role("button", name=say("Enter %(total)s", total=table.total))
    expect(enter).to_be_visible()
    guest.screenshot(path=artifacts / f"language-{table.language}-calculator.png", full_page=True)
    enter.click()
    told(
        guest,
        say(
            "%(hand)s %(number)s: %(side)s %(points)s recorded.",
            hand=hand,
            number=1,
            side=guest_side,
            points=table.total,
        ),
    )

    # The host's side has won: End match, on the other phone, in its words.
    end = guest.get_by_role("button", name=say("End match: %(side)s wins", side=host_side))
    end.click(timeout=LIVE_MS)
    told(guest, say("Match over: %(side)s won.", side=host_side))
    rematch = host.get_by_role("button", name=say("Rematch: the same sides again"))
    expect(rematch).to_be_visible(timeout=LIVE_MS)
    host.screenshot(path=artifacts / f"language-{table.language}-ended.png", full_page=True)

    if table.language == "ar":
        # Right to left: the first side's column stands right of the second's, the brand at
        # the right of the bar, and the sheet's text starts at the right.
        first, second = (host.locator("table.sheet thead th").nth(i) for i in (1, 2))
        assert first.bounding_box()["x"] > second.bounding_box()["x"]
        brand, history = host.locator(".bar .brand"), host.locator(".bar a").nth(1)
        assert brand.bounding_box()["x"] > history.bounding_box()["x"]
        assert host.evaluate("getComputedStyle(document.body).direction") == "rtl"

        # The TV view, mirrored too.
        tv = new_phone(locale="ar", viewport={"width": 1280, "height": 720})
        tv.goto(f"/m/{code}/tv")
        says_its_language(tv, "ar")
        tv.screenshot(path=artifacts / "language-ar-tv.png")

    # The switch on the page: one tap to another language, and this phone stays in it.
    host.locator("details.language summary").click()
    host.screenshot(path=artifacts / f"language-{table.language}-switch.png")
    host.get_by_role("button", name="English", exact=True).click()
    says_its_language(host, "en")
    expect(host.get_by_role("button", name="Rematch: the same sides again")).to_be_visible()
    host.goto("/history")
    says_its_language(host, "en")
