"""Tarneeb's hand worked out again in a few plain lines from docs/rules/tarneeb.md ("Scoring a
hand", "Table rules", "Checks across sides"), never from the app's code: what each team scores
for a bid and the tricks the bidders took, and which pairs of results one hand can give."""

from __future__ import annotations

import random
from collections.abc import Mapping
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


def results(table: Rules) -> set[tuple[int, int]]:
    """Every (team 0, team 1) pair one hand can give at this table."""
    doublings = range(3) if table.rule("doubling", "off") == "on" else range(1)
    return {
        tuple(points(table, bidder, bid, took, doubled))  # type: ignore[misc]
        for bidder in (0, 1)
        for bid in range(7, 14)
        for took in range(14)
        for doubled in doublings
    }


def counted(table: Rules, counts: Mapping[str, int]) -> int:
    """A team's points from its calculator: who bid (0 this team, 1 the other), the bid, this
    team's own tricks and the doubling."""
    bidder = 0 if counts.get("bidders", 0) == 0 else 1
    bidders_tricks = counts["tricks"] if bidder == 0 else 13 - counts["tricks"]
    return points(table, bidder, counts["bid"], bidders_tricks, counts.get("doubled", 0))[0]


def disagree(first: Mapping[str, int], second: Mapping[str, int]) -> list[str]:
    """What two teams' calculators say of the contract that can't both be true, and tricks
    past the 13 of a hand."""
    found = []
    if first.get("bidders") == second.get("bidders"):
        found.append("both teams say the same team bid")
    elif first.get("bid") != second.get("bid") or first.get("doubled", 0) != second.get(
        "doubled", 0
    ):
        found.append("two bids, or two doublings, for one contract")
    if first.get("tricks", 0) + second.get("tricks", 0) > 13:
        found.append("tricks past 13")
    return found


def deal(rnd: random.Random, table: Rules) -> list[dict[str, int]]:
    """One hand's contract and tricks as each team's calculator says them: a bid of 13, a
    kaboot, a bid made and one failed each often enough to be played."""
    bidder = rnd.randrange(2)
    bid = rnd.choice([7, 7, 8, 8, 9, 9, 10, 10, 11, 12, 13, 13])
    shape = rnd.choice(["made", "made", "failed", "failed", "all"])
    if shape == "all":
        took = 13
    elif shape == "made":
        took = rnd.randint(bid, 13)
    else:
        took = rnd.randint(max(0, bid - 6), bid - 1)
    doubled = rnd.randrange(3) if table.rule("doubling", "off") == "on" else 0
    teams = []
    for team in (0, 1):
        counts = {
            "bidders": 0 if team == bidder else 1,
            "bid": bid,
            "tricks": took if team == bidder else 13 - took,
        }
        if table.rule("doubling", "off") == "on":
            counts["doubled"] = doubled
        teams.append(counts)
    return teams
