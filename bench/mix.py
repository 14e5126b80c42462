"""A table's load with the live table pushed (the load the app is built for), and the cycle
of requests the mixed run repeats.

A table is four phones, each holding its match's stream open (a ring for each new version, a
heartbeat comment every 20 s) and fetching its live part once a minute to be safe, with its
ETag: answered 304 while nothing changed. A hand takes about three minutes, and in it each of
the four sides posts its entry once; the post is answered with a redirect to the sheet page,
which the phone then loads (its stream stays open, and a ring while the post is on its way
waits for the answer: js/live.js), and each write rings every other phone's stream, on which the
phone fetches its live part (200, drawn for it). The figures
below are the model's; everything else is worked out from them, so a change to the model
changes the mix, the per-table rate and the tables played (bench/tables.py) alike.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from scorekeeper.live.stream import HEARTBEAT

PHONES = 4
SIDES = 4
HAND_SECONDS = 180
# Every phone's safety fetch of its live part, whatever its stream said.
SAFETY_SECONDS = 60
# The app's own default (static/js/live.js, live/stream.py): a comment on each stream this often.
HEARTBEAT_SECONDS = HEARTBEAT

# One letter a request, as load.lua reads the cycle.
SAFETY, RUNG, ENTRY, SHEET = "u", "c", "e", "s"
# The answer each is meant to get: another means the run measured something else.
EXPECTED = {SAFETY: 304, RUNG: 200, ENTRY: 302, SHEET: 200}
NAMES = {
    SAFETY: "safety fetch or a poster's, unchanged (304)",
    RUNG: "fetch after a ring (200, the live part)",
    ENTRY: "entry post (302)",
    SHEET: "sheet page after a post (200)",
}


@dataclass(frozen=True)
class Hand:
    """What one table does in one hand: its requests by kind, and on its streams."""

    safety: int
    rung: int
    entries: int
    sheets: int
    # Rings sent and heartbeats sent.
    rings: int
    heartbeats: int

    @property
    def requests(self) -> int:
        """Every request but the streams' opening."""
        return self.safety + self.rung + self.entries + self.sheets

    def counts(self) -> dict[str, int]:
        """The requests, by letter."""
        return {
            SAFETY: self.safety,
            RUNG: self.rung,
            ENTRY: self.entries,
            SHEET: self.sheets,
        }


def one_hand() -> Hand:
    """A table's hand: 4 entries ringing 4 phones each; the 12 others fetch the new live part,
    and each poster, whose ring waited for its answer, fetches it against the page the answer
    brought (304, with the 12 safety fetches); the 4 sheet pages; 36 heartbeats."""
    rings = PHONES * SIDES
    return Hand(
        safety=PHONES * HAND_SECONDS // SAFETY_SECONDS + SIDES,
        rung=rings - SIDES,
        entries=SIDES,
        sheets=SIDES,
        rings=rings,
        heartbeats=int(PHONES * HAND_SECONDS // HEARTBEAT_SECONDS),
    )


HAND = one_hand()
# Requests per second one table makes besides its streams: 36 / 180, 0.2.
TABLE_RATE = HAND.requests / HAND_SECONDS


def cycle(hand: Hand = HAND) -> str:
    """The shortest cycle of requests in the hand's proportions (9 for the model: 4 unchanged
    fetches, 3 fetches after a ring, 1 post and its sheet page), spread out rather than bunched.

    Each post comes straight before its sheet page, since the phone follows the redirect; the
    fetches after a ring are spread between posts, so a connection's fetches are never all 304
    or all 200 for long.
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
    for i in range(counts[RUNG]):
        at = int((i + 0.5) * length / counts[RUNG])
        while slots[at % length] is not None:
            at += 1
        slots[at % length] = RUNG
    laid = "".join(slot or SAFETY for slot in slots)
    assert all(laid.count(kind) == n for kind, n in counts.items()), laid
    return laid
