"""Tarneeb's hand worked out again in a few plain lines from docs/rules/tarneeb.md ("Scoring a
hand", "Table rules", "Checks across sides"), never from the app's code: what each team scores
for a bid and the tricks the bidders took, and which pairs of results one hand can give."""

from __future__ import annotations

from typing import Protocol

# Egyptian doubling: not doubled, doubled, redoubled.
MULTIPLIERS = (1, 2, 4)


class Rules(Protocol):
    """What the oracle reads of a table (tests/oracle.py's Table)."""

    def rule(self, key: str, default: str) -> str: ...


def scored(bid: int, took: int, mult: int = 1, always: bool = False) -> tuple[int, int]:
    """(bidders, other team) for a bid and the bidders' tricks."""
    other = 13 - took
    if bid == 13:
        return (26 * mult, 0) if took == 13 else (-16 * mult, 2 * other)
    if took == 13:
        return 16 * mult, 0
    if took >= bid:
        return took * mult, other if always else 0
    return -bid * mult, other


def points(table: Rules, bidder: int, bid: int, took: int, doubled: int = 0) -> list[int]:
    """Each team's points (team 0 first), team `bidder` having bid and taken `took` tricks."""
    mult = MULTIPLIERS[doubled] if table.rule("doubling", "off") == "on" else 1
    always = table.rule("defenders", "on_fail") == "always"
    bidders, others = scored(bid, took, mult, always)
    return [bidders, others] if bidder == 0 else [others, bidders]


def one_hand(table: Rules, first: int, second: int) -> bool:
    """Whether two teams' results can come from one hand, either team having bid."""
    doublings = range(3) if table.rule("doubling", "off") == "on" else range(1)
    return any(
        [first, second] == points(table, bidder, bid, took, doubled)
        for bidder in (0, 1)
        for bid in range(7, 14)
        for took in range(14)
        for doubled in doublings
    )
