"""A table's load (product.md, "Load and speed"), and the cycle of requests the mixed run repeats.

A table is four phones, each asking every 2 s whether the match changed, with the ETag it was
last given: answered 304 while nothing did. A hand takes about three minutes, and in it each of
the four sides posts its entry once; the post is answered with a redirect to the sheet page,
which the phone then loads, and after each write every phone's next poll finds the match
changed (200 with the live fragment). The figures below are the model's; everything else is
worked out from them, so a change to the model changes the mix, the per-table rate and the
tables counted alike.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

PHONES = 4
SIDES = 4
POLL_SECONDS = 2
HAND_SECONDS = 180

# One letter a request, as load.lua reads the cycle.
UNCHANGED, CHANGED, ENTRY, SHEET = "u", "c", "e", "s"
# The answer each is meant to get: another means the run measured something else.
EXPECTED = {UNCHANGED: 304, CHANGED: 200, ENTRY: 302, SHEET: 200}
NAMES = {
    UNCHANGED: "unchanged poll (304)",
    CHANGED: "changed poll (200, the live fragment)",
    ENTRY: "entry post (302)",
    SHEET: "sheet page after a post (200)",
}


@dataclass(frozen=True)
class Hand:
    """The requests one table makes in one hand, by kind."""

    unchanged: int
    changed: int
    entries: int
    sheets: int

    @property
    def requests(self) -> int:
        """All of them."""
        return self.unchanged + self.changed + self.entries + self.sheets

    def counts(self) -> dict[str, int]:
        """By letter."""
        return {
            UNCHANGED: self.unchanged,
            CHANGED: self.changed,
            ENTRY: self.entries,
            SHEET: self.sheets,
        }


def one_hand() -> Hand:
    """A table's requests in one hand: 344 unchanged polls, 16 changed, 4 posts, 4 pages."""
    polls = PHONES * HAND_SECONDS // POLL_SECONDS
    # Every phone's next poll after each side's write.
    changed = PHONES * SIDES
    return Hand(unchanged=polls - changed, changed=changed, entries=SIDES, sheets=SIDES)


HAND = one_hand()
# Requests per second one table makes: (360 + 8) / 180, about 2.04.
TABLE_RATE = HAND.requests / HAND_SECONDS


def cycle(hand: Hand = HAND) -> str:
    """The shortest cycle of requests in the hand's proportions (92 for the model: 86 unchanged
    polls, 4 changed, 1 post and its sheet page), spread out rather than bunched.

    Each post comes straight before its sheet page, since the phone follows the redirect; the
    changed polls fall halfway between posts, so a connection's polls are never all 304 or all
    200 for long.
    """
    counts = hand.counts()
    common = math.gcd(*counts.values())
    counts = {kind: n // common for kind, n in counts.items()}
    length = sum(counts.values())
    if counts[ENTRY] != counts[SHEET]:
        raise ValueError("every post leads to one sheet page")
    slots: list[str | None] = [None] * length
    for i in range(counts[ENTRY]):
        at = i * length // counts[ENTRY]
        slots[at], slots[at + 1] = ENTRY, SHEET
    for i in range(counts[CHANGED]):
        at = int((i + 0.5) * length / counts[CHANGED])
        while slots[at % length] is not None:
            at += 1
        slots[at % length] = CHANGED
    laid = "".join(slot or UNCHANGED for slot in slots)
    assert all(laid.count(kind) == n for kind, n in counts.items()), laid
    return laid
