"""Escoba's and Scopa's sheet worked out again in a few plain lines per rule, from
docs/rules/escoba.md and scopa.md and never from the app's code: a side's points from its
calculator counts, what a hand's cells can't say beside each other, what a complete hand is
flagged for, who has won; and piles dealt from a real 40-card pack, so that entries that agree
exist. tests/oracle.py asks this module for the two games.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

NO, ALONE, TIED = 0, 1, 2
SUITS = ("coins", "cups", "swords", "clubs")
# docs/rules/scopa.md, "Primiera" (escoba.md, "Setenta", the same): the best card's value.
VALUES = {7: 21, 6: 18, 1: 16, 5: 15, 4: 14, 3: 13, 2: 12, 8: 10, 9: 10, 10: 10}
SOUTH = {**VALUES, 9: 9, 8: 8}


class Rules(Protocol):
    """What the oracle reads of a table (tests/oracle.py's Table)."""

    @property
    def game(self) -> str: ...

    @property
    def sides(self) -> int: ...

    def rule(self, key: str, default: str) -> str: ...


def pack_counts(table: Rules) -> dict[str, int]:
    """What a hand's calculator entries add up to (docs/rules/*.md, "Checks across sides")."""
    found = {"cards": 40, "coins": 10, "seven_coins": 1}
    if table.game == "escoba":
        found["sevens"] = 4
    if table.game == "scopa" and table.rule("re_bello", "off") == "on":
        found["re_bello"] = 1
    return found


def primiera(table: Rules, counts: Mapping[str, int]) -> int | None:
    """A side's primiera from its best card in each suit; None with a suit missing."""
    south = table.game == "scopa" and table.rule("pictures", "ten") == "southern"
    values = SOUTH if south else VALUES
    best = [counts.get(f"best_{suit}", 0) for suit in SUITS]
    return None if 0 in best else sum(values[card] for card in best)


def questions(table: Rules) -> list[str]:
    """The contests the calculator asks (No / Yes, alone / Tied for most)."""
    asked = ["most_cards", "most_coins"] if table.sides >= 3 else []
    if table.game == "scopa":
        return [*asked, "primiera"]
    method = table.rule("setenta", "sevens")
    if table.sides >= 3 or method == "primera":
        asked.append("setenta")
    return asked


def strength(table: Rules, key: str, counts: Mapping[str, int]) -> Any:
    """What a contest is decided by: a count, the cascade's four counts, or a primiera."""
    n = lambda k: int(counts.get(k, 0))  # noqa: E731
    if key == "most_cards":
        return n("cards")
    if key == "most_coins":
        return n("coins")
    if key == "primiera" or table.rule("setenta", "sevens") == "primera":
        return primiera(table, counts)
    if table.rule("setenta", "sevens") == "cascade":
        return (n("sevens"), n("sixes"), n("aces"), n("fives"))
    return n("sevens")


def answers(strengths: Sequence[Any]) -> list[int]:
    """Each side's right answer to a contest: alone at the top, tied at the top, or No."""
    valid = [s for s in strengths if s is not None]
    top = [at for at, s in enumerate(strengths) if valid and s is not None and s == max(valid)]
    return [(ALONE if len(top) == 1 else TIED) if at in top else NO for at in range(len(strengths))]


def points(table: Rules, counts: Mapping[str, int]) -> int:
    """A side's points from its counts (docs/rules/*.md, "Scoring a hand", "Table rules")."""
    n = lambda k: int(counts.get(k, 0))  # noqa: E731
    two = table.sides == 2
    cards = n("cards") >= 21 if two else n("most_cards") == ALONE
    coins = n("coins") >= 6 if two else n("most_coins") == ALONE
    if table.game == "scopa":
        run = n("napola") if table.rule("napola", "off") != "off" else 0
        napola = 0 if run < 3 else min(run, 6) if table.rule("napola", "off") == "to_six" else run
        return (
            n("scope")
            + cards
            + coins
            + n("seven_coins")
            + (n("primiera") == ALONE)
            + (n("re_bello") if table.rule("re_bello", "off") == "on" else 0)
            + napola
        )
    method = table.rule("setenta", "sevens")
    if method == "primera" or not two:
        setenta = n("setenta") == ALONE
    elif method == "sevens":
        setenta = n("sevens") >= 3
    else:
        split = [n(k) for k in ("sevens", "sixes", "aces", "fives") if n(k) != 2]
        setenta = bool(split) and split[0] > 2
    bonus = table.rule("bonus", "off") == "on"
    cards_points = 2 if bonus and n("cards") >= 31 else int(cards)
    coins_points = 2 if bonus and n("coins") == 10 else int(coins)
    sevens_points = 3 if bonus and n("sevens") == 4 else n("seven_coins") + setenta
    return n("escobas") + cards_points + coins_points + sevens_points


def contradictions(table: Rules, counted: Sequence[Mapping[str, int]]) -> list[str]:
    """What calculator cells entered in one hand can't say beside each other: two sides alone
    with a contest, or one alone beside a side as strong or stronger (docs/rules/*.md, "Checks
    across sides")."""
    found = []
    for key in questions(table):
        alone = [c for c in counted if c.get(key, NO) == ALONE]
        if len(alone) > 1:
            found.append(f"{len(alone)} sides alone with {key}")
        for claim in alone:
            mine = strength(table, key, claim)
            if mine is not None and any(
                c is not claim and (s := strength(table, key, c)) is not None and s >= mine
                for c in counted
            ):
                found.append(f"alone with {key} beside a side as strong")
    return found


def flags(table: Rules, counted: Sequence[Mapping[str, int]]) -> bool:
    """Whether a hand entered by calculator on every side is flagged: the pack's counts, or
    answers that don't match the counts behind them."""
    if any(sum(c.get(k, 0) for c in counted) != most for k, most in pack_counts(table).items()):
        return True
    return any(
        [c.get(key, NO) for c in counted] != answers([strength(table, key, c) for c in counted])
        for key in questions(table)
    )


def napoleone(table: Rules, counted: Sequence[Mapping[str, int] | None]) -> int | None:
    """Scopa with Napoleone: the side whose calculator counted all ten denari."""
    if table.game != "scopa" or table.rule("napoleone", "off") != "on":
        return None
    all_ten = [at for at, c in enumerate(counted) if c is not None and c.get("coins") == 10]
    return all_ten[0] if len(all_ten) == 1 else None


def cappotto(table: Rules, totals: Sequence[int]) -> int | None:
    """Scopa with cappotto: 7 or more while every other side has nothing."""
    if table.game != "scopa" or table.rule("cappotto", "off") != "on":
        return None
    leaders = [at for at, total in enumerate(totals) if total >= 7]
    rest = [total for at, total in enumerate(totals) if at not in leaders]
    return leaders[0] if len(leaders) == 1 and not any(rest) else None


def deal(rnd: random.Random, table: Rules) -> list[dict[str, int]]:
    """One hand's piles from a shuffled 40-card pack, counted as each side's calculator asks
    them, with sweeps a pile can hold and the contests' right answers."""
    pack = [(suit, rank) for suit in SUITS for rank in range(1, 11)]
    rnd.shuffle(pack)
    # Sides as unequal as a hand can leave them, now and then one holding nearly everything.
    weights = [rnd.random() ** 3 + 0.01 for _ in range(table.sides)]
    owners = rnd.choices(range(table.sides), weights=weights, k=len(pack))
    piles = [
        [card for card, o in zip(pack, owners, strict=True) if o == s] for s in range(table.sides)
    ]
    counts = []
    for pile in piles:
        ranks = lambda r, pile=pile: sum(rank == r for _s, rank in pile)  # noqa: E731
        c = {
            "cards": len(pile),
            "coins": sum(suit == "coins" for suit, _r in pile),
            "seven_coins": int(("coins", 7) in pile),
        }
        for suit in SUITS:
            held = [rank for s, rank in pile if s == suit]
            c[f"best_{suit}"] = max(held, key=lambda r: (VALUES[r], r), default=0)
        sweeps = rnd.randint(0, min(3, len(pile) // 2))
        if table.game == "escoba":
            c |= {"sevens": ranks(7), "sixes": ranks(6), "aces": ranks(1), "fives": ranks(5)}
            c["escobas"] = sweeps
        else:
            c["scope"] = sweeps
            c["re_bello"] = int(("coins", 10) in pile)
            run = 0
            while ("coins", run + 1) in pile:
                run += 1
            c["napola"] = run
        counts.append(c)
    for key in questions(table):
        for side, answer in enumerate(answers([strength(table, key, c) for c in counts])):
            counts[side][key] = answer
    return counts


def fields(table: Rules) -> dict[str, tuple[str, int]]:
    """The calculator's inputs, key -> (kind, most), as docs/rules/*.md, "Calculator", lists
    them."""
    found: dict[str, tuple[str, int]] = {"cards": ("count", 40), "coins": ("count", 10)}
    found["seven_coins"] = ("flag", 1)
    best = {f"best_{suit}": ("choice", 10) for suit in SUITS}
    if table.game == "escoba":
        found["sevens"] = ("count", 4)
        method = table.rule("setenta", "sevens")
        if method == "cascade":
            found |= {"sixes": ("count", 4), "aces": ("count", 4), "fives": ("count", 4)}
        if method == "primera":
            found |= best
        found["escobas"] = ("count", 36 // table.sides + 2)
    else:
        if table.rule("re_bello", "off") == "on":
            found["re_bello"] = ("flag", 1)
        found |= best
        found["scope"] = ("count", 40 // table.sides)
        if table.rule("napola", "off") != "off":
            found["napola"] = ("count", 10)
    for key in questions(table):
        found[key] = ("choice", TIED)
    return found
