"""A 40-card pack dealt out card by card, for Escoba's and Scopa's tests: what each pile holds,
counted here independently of the rules (an oracle a few lines long), so a Hypothesis deal can
be entered through the calculator and its totals checked against the pack."""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import strategies as st

SUITS = ("coins", "cups", "swords", "clubs")
# Ace 1 to 7, then jack 8, horse 9, king 10.
RANKS = tuple(range(1, 11))
PACK = tuple((suit, rank) for suit in SUITS for rank in RANKS)
# The primiera's values by rank (scopa.txt, "Primiera values"; escoba.txt, method (c)).
VALUES = {7: 21, 6: 18, 1: 16, 5: 15, 4: 14, 3: 13, 2: 12, 8: 10, 9: 10, 10: 10}
SOUTH = {**VALUES, 9: 9, 8: 8}

Pile = list[tuple[str, int]]


def deals(sides: int) -> st.SearchStrategy[list[Pile]]:
    """Every card of the pack to one of the sides: the sides' piles."""

    def piles(owners: Sequence[int]) -> list[Pile]:
        return [
            [card for card, owner in zip(PACK, owners, strict=True) if owner == side]
            for side in range(sides)
        ]

    return st.lists(st.integers(0, sides - 1), min_size=len(PACK), max_size=len(PACK)).map(piles)


def counts_of(pile: Pile) -> dict[str, int]:
    """What a side counts in its pile for the calculator (the contests' answers apart)."""
    counts = {
        "cards": len(pile),
        "coins": sum(suit == "coins" for suit, _rank in pile),
        "sevens": sum(rank == 7 for _suit, rank in pile),
        "sixes": sum(rank == 6 for _suit, rank in pile),
        "aces": sum(rank == 1 for _suit, rank in pile),
        "fives": sum(rank == 5 for _suit, rank in pile),
        "seven_coins": int(("coins", 7) in pile),
        "re_bello": int(("coins", 10) in pile),
    }
    for suit in SUITS:
        ranks = [rank for card_suit, rank in pile if card_suit == suit]
        # The best card: the highest value, the highest rank among equal pictures.
        counts[f"best_{suit}"] = max(ranks, key=lambda rank: (VALUES[rank], rank), default=0)
    run = 0
    while ("coins", run + 1) in pile:
        run += 1
    counts["napola"] = run
    return counts


def primiera_of(pile: Pile, values: dict[int, int] = VALUES) -> int | None:
    """A pile's primiera from its cards: the best value in each suit added; None if a suit is
    missing."""
    best = [max((values[r] for s, r in pile if s == suit), default=None) for suit in SUITS]
    return None if None in best else sum(v for v in best if v is not None)


def most(values: Sequence[int | tuple[int, ...] | None]) -> list[int]:
    """Each side's answer to "the most?": 1 alone at the top, 2 tied at the top, 0 otherwise
    (None can't compete)."""
    valid = [v for v in values if v is not None]
    if not valid:
        return [0] * len(values)
    top = max(valid)
    at_top = [v is not None and v == top for v in values]
    answer = 1 if sum(at_top) == 1 else 2
    return [answer if here else 0 for here in at_top]


def ties(values: Sequence[int | tuple[int, ...] | None]) -> int:
    """1 when a contest goes to nobody (a tie at the top, or nobody can compete), else 0."""
    return int(most(values).count(1) != 1)
