"""The table's moves as a person makes them on a phone, for every browser test."""

from __future__ import annotations

from playwright.sync_api import Locator, Page, expect

# A change reaches a phone's stream at once (within a second or so on SQLite with several
# workers); the product promises "within about two seconds".
LIVE_MS = 5_000
PLAIN_TOTAL = "Your total for this hand"


# The table's moves, as a person makes them on a phone.


def told(page: Page, message: str) -> None:
    """The page tells the phone what its tap did (the message shown once the post is through)."""
    # Filtered rather than the only message: a poll racing a post can bring a message already
    # shown back into the session (reported to the app's maintainers), shown again beside it.
    expect(page.locator(".flash").filter(has_text=message)).to_have_count(1)


def stay(page: Page) -> None:
    """Mark the page now shown, so a later check can tell it was never reloaded."""
    page.evaluate("window.sameDocument = true")


def not_reloaded(page: Page) -> None:
    """The page still is the one marked: what changed on it came live, not by a reload."""
    assert page.evaluate("window.sameDocument === true"), f"{page.url} was reloaded"


def fill_new_match(
    page: Page,
    game: str,
    table: str,
    names: list[str],
    *,
    target: str | None = None,
    target_points: int | None = None,
    player: str = "Hosni",
    plays: str | None = None,
) -> None:
    """Fill in the real New match form and create it: this phone's player named `player`, on
    the side labelled `plays` among "This phone plays on" (side 1 if not given)."""
    page.goto("/")
    page.get_by_role("link", name=game, exact=True).click()
    page.get_by_label(table).check()
    if target is not None:
        page.get_by_label(target, exact=True).check()
    if target_points is not None:
        page.get_by_label("Target (points)").fill(str(target_points))
    for slot, name in enumerate(names, start=1):
        page.get_by_label(f"Side {slot}", exact=True).fill(name)
    page.get_by_label("Your name").fill(player)
    plays_on = page.get_by_label("This phone plays on")
    if plays is None:
        plays_on.select_option(index=0)
    else:
        plays_on.select_option(label=plays)
    page.get_by_role("button", name="Create match").click()


def create_match(
    page: Page,
    game: str,
    table: str,
    names: list[str],
    *,
    target: str | None = None,
    target_points: int | None = None,
    player: str = "Hosni",
) -> str:
    """Create a match through the real form, this phone's player (named `player`) on side 1;
    return the code it shows."""
    fill_new_match(
        page, game, table, names, target=target, target_points=target_points, player=player
    )
    # A side named after its player is not said twice ("Omar holds Omar").
    who = "This phone" if player == names[0] else player
    expect(page.locator(".code-line")).to_have_text(f"{who} holds {names[0]} · Host · Change name")
    stay(page)
    return page.locator("summary .code").inner_text()


def join(page: Page, code: str, side: str, player: str | None = None) -> None:
    """Type the code on the home page (lower case, as thumbs do), then give a name (the
    side's, unless `player` is given) and claim a side."""
    page.goto("/")
    page.get_by_label("Match or group code").fill(code.lower())
    page.get_by_role("button", name="Join", exact=True).click()
    claim(page, side, player)


def seat(page: Page, code: str, side: str, player: str | None = None) -> None:
    """Open the match by its QR link, give a name and claim a side."""
    page.goto(f"/j/{code}")
    claim(page, side, player)


def claim(page: Page, side: str, player: str | None) -> None:
    """On the match page: the name asked, then the side's button."""
    page.get_by_label("Your name").fill(player or side)
    page.get_by_role("button", name=f"I'm {side}").click()
    told(page, f"This phone now holds {side}.")
    stay(page)


def enter(page: Page, hand: int, side: str, points: int, *, changed: bool = False) -> None:
    """Enter this phone's total once its form is on the hand (as a player reads the heading)."""
    expect(page.locator("#entry h2")).to_have_text(f"Hand {hand}: {side}", timeout=LIVE_MS)
    page.get_by_label(PLAIN_TOTAL).fill(str(points))
    page.get_by_role("button", name="Enter", exact=True).click()
    # The points as an English page writes them ("4,560").
    said = f"changed to {points:,}." if changed else f"{points:,} recorded."
    told(page, f"Hand {hand}: {side} {said}")
    stay(page)


def see_totals(phones: list[Page], totals: list[str]) -> None:
    """Every phone's totals row reaches these numbers by itself, without a reload."""
    for phone in phones:
        expect(phone.locator("table.sheet tr.totals td")).to_have_text(totals, timeout=LIVE_MS)
        not_reloaded(phone)


def cell(page: Page, hand: int, column: int) -> Locator:
    """One cell of the sheet: a hand's row, a side's column (0 for side 1)."""
    return page.locator("table.sheet tbody tr").nth(hand - 1).locator("td").nth(column)
