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


def lines(table: Rules, counts: Mapping[str, int]) -> dict[str, int]:
    """A side's points line by line, keyed as a count to the target names its steps
    (docs/rules/*.md, "Scoring a hand", "Table rules"): sweeps, cards, coins, the 7 of coins
    (all four sevens with Escoba's bonus in its place), setenta or primiera, and Scopa's Napola
    and re bello."""
    n = lambda k: int(counts.get(k, 0))  # noqa: E731
    two = table.sides == 2
    cards = n("cards") >= 21 if two else n("most_cards") == ALONE
    coins = n("coins") >= 6 if two else n("most_coins") == ALONE
    if table.game == "scopa":
        run = n("napola") if table.rule("napola", "off") != "off" else 0
        napola = 0 if run < 3 else min(run, 6) if table.rule("napola", "off") == "to_six" else run
        return {
            "sweeps": n("scope"),
            "cards": int(cards),
            "coins": int(coins),
            "seven_coins": n("seven_coins"),
            "contest": int(n("primiera") == ALONE),
            "re_bello": n("re_bello") if table.rule("re_bello", "off") == "on" else 0,
            "napola": napola,
        }
    method = table.rule("setenta", "sevens")
    if method == "primera" or not two:
        setenta = n("setenta") == ALONE
    elif method == "sevens":
        setenta = n("sevens") >= 3
    else:
        split = [n(k) for k in ("sevens", "sixes", "aces", "fives") if n(k) != 2]
        setenta = bool(split) and split[0] > 2
    bonus = table.rule("bonus", "off") == "on"
    all_sevens = bonus and n("sevens") == 4
    return {
        "sweeps": n("escobas"),
        "cards": 2 if bonus and n("cards") >= 31 else int(cards),
        "coins": 2 if bonus and n("coins") == 10 else int(coins),
        # All four sevens score 3 in place of the velo's and the setenta's 2, at the velo's step.
        "seven_coins": 3 if all_sevens else n("seven_coins"),
        "contest": 0 if all_sevens else int(setenta),
    }


def points(table: Rules, counts: Mapping[str, int]) -> int:
    """A side's points from its counts."""
    return sum(lines(table, counts).values())


# docs/rules/escoba.md and scopa.md, "Table rules": the orders a table may count the last hand
# in, line by line, when several sides pass the target in it; lines an order leaves out
# (Napola, re bello) come last, together.
ORDERS = {
    "escobas_cards": ("sweeps", "cards", "coins", "seven_coins", "contest"),
    "escobas_oros": ("sweeps", "coins", "seven_coins", "contest", "cards"),
    "parlett": ("cards", "coins", "seven_coins", "contest", "sweeps"),
}


def counted_first(
    table: Rules, target: int, totals: Sequence[int], counted: Sequence[Mapping[str, int]]
) -> int | None:
    """The side a count to the target names: of the sides short of it before the hand and
    past it after, the one that reaches it first counting the hand's lines in order (None: the
    table doesn't count, fewer than two crossed, or two reach it on one line)."""
    order = ORDERS.get(table.rule("count_to_target", "off"))
    if order is None:
        return None
    worked = [lines(table, c) for c in counted]
    running = [total - sum(w.values()) for total, w in zip(totals, worked, strict=True)]
    crossed = [s for s, total in enumerate(totals) if total >= target > running[s]]
    if len(crossed) < 2:
        return None
    for step in [(key,) for key in order] + [("re_bello", "napola")]:
        running = [r + sum(w.get(k, 0) for k in step) for r, w in zip(running, worked, strict=True)]
        reached = [s for s in crossed if running[s] >= target]
        if reached:
            return reached[0] if len(reached) == 1 else None
    return None


def contradictions(table: Rules, counted: Sequence[Mapping[str, int]]) -> list[str]:
    """What calculator cells entered in one hand can't say beside each other: more of
    something than the pack holds, two sides alone with a contest, one alone beside a side as
    strong or stronger, one tied for the most beside a stronger side or an as strong one that
    answered No (docs/rules/*.md, "Checks across sides"). A side that can't compete (no card in
    some suit) contradicts no claim but another "alone"."""
    found = []
    for key, most in pack_counts(table).items():
        got = sum(c.get(key, 0) for c in counted)
        if got > most:
            found.append(f"{key} come to {got}, past the pack's {most}")
    for key in questions(table):
        alone = [c for c in counted if c.get(key, NO) == ALONE]
        if len(alone) > 1:
            found.append(f"{len(alone)} sides alone with {key}")
        for at, claim in enumerate(counted):
            mine, answer = strength(table, key, claim), claim.get(key, NO)
            for other in [*counted[:at], *counted[at + 1 :]]:
                theirs = strength(table, key, other)
                if mine is None or theirs is None or answer == NO:
                    continue
                if answer == ALONE and theirs >= mine:
                    found.append(f"alone with {key} beside a side as strong")
                if answer == TIED and (
                    theirs > mine or (theirs == mine and other.get(key, NO) == NO)
                ):
                    found.append(f"tied for {key} beside a stronger side, or one that said No")
    return found


def pile_problems(table: Rules, counts: Mapping[str, int]) -> list[str]:
    """What one side's counts say that no pile of the 40 cards holds: refused by the
    calculator (docs/rules/escoba.md and scopa.md, "Calculator"). Counts within each field's
    bounds."""
    n = lambda k: int(counts.get(k, 0))  # noqa: E731
    escoba = table.game == "escoba"
    method = table.rule("setenta", "sevens") if escoba else "primiera"
    found = []
    cards, coins, velo = n("cards"), n("coins"), n("seven_coins")
    if velo and not coins:
        found.append("the 7 of coins without a coin")
    if escoba and velo and not n("sevens"):
        found.append("the 7 of coins without a seven")
    if coins == 10 and not velo or escoba and n("sevens") == 4 and not velo:
        found.append("every coin, or every seven, without the 7 of coins")
    if coins + (n("sevens") - velo if escoba else 0) > cards:
        found.append("more coins and sevens than cards")
    if method == "cascade" and sum(n(k) for k in ("sevens", "sixes", "aces", "fives")) > cards:
        found.append("more sevens, sixes, aces and fives than cards")
    if method in ("primera", "primiera"):
        best = [n(f"best_{suit}") for suit in SUITS]
        if escoba and sum(card == 7 for card in best) != n("sevens"):
            found.append("best cards whose 7s are not the sevens counted")
        if (best[0] == 0) != (coins == 0):
            found.append("a best coin without coins, or coins without one")
        if velo and best[0] != 7:
            found.append("the 7 of coins with another best coin")
        if sum(card != 0 for card in best) > cards:
            found.append("more suits than cards")
        contest = "setenta" if escoba else "primiera"
        if n(contest) == ALONE and 0 in best:
            found.append("a primiera taken with a suit missing")
    if not escoba:
        if velo + n("re_bello") > coins:
            found.append("the settebello and re bello past the coins")
        if table.rule("napola", "off") != "off":
            run = n("napola")
            if run > coins:
                found.append("a run longer than the coins")
            if run >= 7 and not velo:
                found.append("a run past the 6 without the settebello")
            if table.rule("re_bello", "off") == "on" and run == 10 and not n("re_bello"):
                found.append("a run to the king without the re bello")
            if coins == 10 and run != 10:
                found.append("all ten coins, a run short of 10")
    if 2 * n("escobas" if escoba else "scope") > cards:
        found.append("fewer than two cards a sweep")
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


def deal(rnd: random.Random, table: Rules, sweep: str = "") -> list[dict[str, int]]:
    """One hand's piles from a shuffled 40-card pack, counted as each side's calculator asks
    them, with sweeps a pile can hold and the contests' right answers. `sweep`: one side takes
    every coin ("coins"), every seven ("sevens") or nearly the whole pack ("pack"), where the
    rarer lines are (Napoleone, Napola's long runs, the bonus points, cappotto)."""
    pack = [(suit, rank) for suit in SUITS for rank in range(1, 11)]
    rnd.shuffle(pack)
    # Sides as unequal as a hand can leave them, now and then one holding nearly everything.
    weights = [rnd.random() ** 3 + 0.01 for _ in range(table.sides)]
    taker = rnd.randrange(table.sides)
    if sweep == "pack":
        weights = [1.0 if s == taker else 0.02 for s in range(table.sides)]
    owners = rnd.choices(range(table.sides), weights=weights, k=len(pack))
    owners = [
        taker
        if (sweep == "coins" and suit == "coins") or (sweep == "sevens" and rank == 7)
        else owner
        for (suit, rank), owner in zip(pack, owners, strict=True)
    ]
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
