"""What a sheet must say, worked out again from what it shows, in a few plain lines per rule.

Written from docs/rules/ (each game's "Table", "Target and winning", "Calculator", Basra's
"Carry-over") and never from the app's own code: the stateful test (test_tables_played)
holds the sheet a phone is shown (its JSON export) against it. A hand here is the export's
"hands" item: {"number", "complete", "cells": [{"side", "points", "counts", and its ticks}]};
a cell's ticks are read through `ticked` alone, and made by `cell`, so that how a cell says
them is written in one place.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tests import oracle_forty, oracle_tarneeb

PACK = 52
# Brisca's Spanish deck: the counting cards and what each is worth; 120 in all.
BRISCA_VALUES = {"aces": 11, "threes": 10, "kings": 4, "horses": 3, "jacks": 2}
DECK_POINTS = 120
# The calculator's answer to "Most cards" with three or more sides.
NO, ALONE, TIED = 0, 1, 2
# What a hand entered by calculator on every side must add up to (docs/rules/*.md, "Checks
# across sides").
PACK_COUNTS = {
    "basra": {"cards": 52, "aces": 4, "jacks": 4, "two_clubs": 1, "ten_diamonds": 1},
    "pastura": {"cards": 52, "aces": 4, "jacks": 4, "two_clubs": 1, "ten_diamonds": 1},
    "brasta": {
        "cards": 52,
        "aces": 4,
        "clubs": 13,
        "two_clubs": 1,
        "ten_diamonds": 1,
        "last_hand": 1,
    },
    "brisca": {key: 4 for key in BRISCA_VALUES},
    "other": {},
    # Escoba's and Scopa's in tests/oracle_forty.py, Tarneeb's tricks in tests/oracle_tarneeb.py.
    "escoba": {},
    "scopa": {},
    "tarneeb": {},
}
# The 40-card fishing games, whose rules tests/oracle_forty.py holds.
FORTY = ("escoba", "scopa")
# Basra's basras scored by their card: twice the face value, pictures 10.
BASRA_CARDS = {"basra_ace": 1, **{f"basra_{rank}": rank for rank in range(2, 11)}}
BASRA_CARDS["basra_picture"] = 10


@dataclass(frozen=True)
class Table:
    """A match's settings, as its export gives them."""

    game: str
    sides: int
    target: int
    rules: Mapping[str, str] = field(default_factory=dict)

    @staticmethod
    def of(export: Mapping[str, Any]) -> Table:
        """The table of an exported match."""
        return Table(export["game"], len(export["sides"]), export["target"], export["rules"])

    def rule(self, key: str, default: str) -> str:
        """The table's choice of one rule."""
        return self.rules.get(key, default)


# The ticks a plain entry may carry: Basra's 26–26 split (or tie for the most with three),
# Brisca's black hand and last trick (docs/rules/basra.md, "Carry-over"; brisca.md).
TICKS = ("even_split", "black_hand", "last_trick")


def ticked(cell: Mapping[str, Any], tick: str) -> bool:
    """Whether a cell (as the export gives it, or as `cell` makes it) carries this tick."""
    return tick in (cell.get("ticks") or ())


def cell(
    side: int, points: int | None, counts: Mapping[str, int] | None = None, ticks: Any = ()
) -> dict[str, Any]:
    """A cell as the export gives it: a side's points, its calculator counts (None: a plain
    total) and the ticks it carries."""
    made: dict[str, Any] = {
        "side": side,
        "points": points,
        "counts": None if counts is None else dict(counts),
    }
    return made | {"ticks": sorted(tick for tick in TICKS if tick in ticks)}


def cells_of(hand: Mapping[str, Any], sides: int) -> list[dict[str, Any] | None]:
    """A hand's cells in side order, None where a side has not entered."""
    cells: list[dict[str, Any] | None] = [None] * sides
    for cell in hand["cells"]:
        cells[cell["side"]] = cell
    return cells


def counts_of(cell: Mapping[str, Any] | None) -> dict[str, int] | None:
    """A cell's calculator counts (None: a plain total)."""
    return None if cell is None or cell["counts"] is None else dict(cell["counts"])


# Calculators: a side's counts to its points (docs/rules/*.md, "Scoring a hand"; Brisca's
# "Card points").


def calculated(table: Table, counts: Mapping[str, int], held: int = 0) -> int:
    """The points a side's counts are worth, `held` over into the hand (Basra)."""
    n = lambda key: int(counts.get(key, 0))  # noqa: E731
    if table.game in FORTY:
        return oracle_forty.points(table, counts)
    if table.game == "tarneeb":
        return oracle_tarneeb.counted(table, counts)
    if table.game == "brisca":
        return sum(value * n(key) for key, value in BRISCA_VALUES.items())
    if table.game == "brasta":
        return (
            10 * (n("cards") >= 27)
            + 5 * n("aces")
            + 10 * (n("aces") == 4)
            + 10 * n("two_clubs")
            + 10 * n("ten_diamonds")
            + 10 * (n("clubs") >= 7)
            + 10 * (n("clubs") == 13)
            + 10 * n("brastas")
            + 20 * n("double_brastas")
            + 10 * n("last_hand")
            - 10 * n("failed_builds")
            - 10 * n("jack_burns")
        )
    most = n("most_cards") == ALONE if table.sides >= 3 else n("cards") >= 27
    cards = n("aces") + n("jacks") + 2 * n("two_clubs") + 3 * n("ten_diamonds")
    if table.game == "pastura":
        return 3 * most + cards + n("pasturas")
    # Basra.
    if table.rule("basra_value", "flat") == "by_card":
        basras = sum(2 * value * n(key) for key, value in BASRA_CARDS.items())
    else:
        basras = 10 * n("basras")
    doubles = 20 * n("double_basras") if table.rule("double_basra", "off") == "on" else 0
    return (30 + held) * most + cards + basras + doubles


# Basra's majority held over (docs/rules/basra.md, "Carry-over").


def says_tie(table: Table, cell: Mapping[str, Any]) -> bool:
    """Whether a Basra cell says nobody took the majority this hand."""
    counts = counts_of(cell)
    if ticked(cell, "even_split"):
        return True
    if counts is None:
        return False
    if table.sides >= 3:
        return counts.get("most_cards") == TIED
    return counts.get("cards") == PACK // 2


def held_into(table: Table, hands: Sequence[Mapping[str, Any]]) -> list[int]:
    """Basra: the points held over into each hand, and (last) into the next one."""
    held, into = 0, []
    for hand in hands:
        into.append(held)
        if not hand["complete"]:
            continue
        cells = [cell for cell in cells_of(hand, table.sides) if cell is not None]
        if not any(says_tie(table, cell) for cell in cells):
            held = 0
        elif table.sides >= 3 and table.rule("three_tie", "held") == "nobody":
            held = 0
        elif table.rule("carry_over", "stack") == "lapse":
            held = 30
        else:
            held += 30
    return into + [held]


# Brisca's rounds (docs/rules/brisca.md, "Who takes a round": 61+ wins, 60-60 last trick, 3
# sides highest...).


def round_taker(table: Table, cells: Sequence[Mapping[str, Any]]) -> tuple[int | None, bool]:
    """Who took a complete Brisca round, and whether it waits for who took the last trick."""
    if table.rule("black_hand", "off") == "on":
        black = [at for at, cell in enumerate(cells) if ticked(cell, "black_hand")]
        if len(black) == 1:
            return black[0], False
        if black:
            # Two claims of the same three trumps: nobody can say who took it.
            return None, False
    points = [cell["points"] for cell in cells]
    top = [at for at, got in enumerate(points) if got == max(points)]
    if len(top) == 1:
        return top[0], False
    last = [at for at in top if ticked(cells[at], "last_trick")]
    if len(last) == 1:
        return last[0], False
    return None, True


# The sheet as a whole: totals, who has won, the hand open for entries.


@dataclass
class Worked:
    """What the sheet must show, worked out here."""

    totals: list[int]
    running: list[list[int]]
    winner: int | None
    # Brisca: a round tied at the top waiting for who took the last trick.
    waiting: int | None
    # The hand that takes entries (None: a side has won, or a round waits).
    open_hand: int | None
    # Basra: the points held over into each hand and into the next one.
    held: list[int]


def first_over(totals: Sequence[int], target: int) -> int | None:
    """First to the target; several there: the higher; level: play on."""
    over = [total for total in totals if total >= target]
    if not over or over.count(max(over)) > 1:
        return None
    return list(totals).index(max(over))


def unique(totals: Sequence[int], value: int) -> int | None:
    """The one side with this total, None if several have it."""
    return totals.index(value) if list(totals).count(value) == 1 else None


def earns_cards(table: Table, counts: Mapping[str, int]) -> bool:
    """Pastura: whether a side earned points from cards or the most-cards bonus."""
    most = counts.get("most_cards") == ALONE if table.sides >= 3 else counts.get("cards", 0) >= 27
    keys = ("aces", "jacks", "two_clubs", "ten_diamonds")
    return most or any(counts.get(key, 0) for key in keys)


def winner_after(table: Table, totals: Sequence[int], played: int, cells: Any) -> int | None:
    """The side the game's win rule names after a complete hand, if any."""
    if table.game in FORTY:
        return forty_winner(table, totals, cells)
    if table.game == "pastura":
        counts = [counts_of(cell) for cell in cells]
        if all(c is not None for c in counts):
            earners = [at for at, c in enumerate(counts) if c is not None and earns_cards(table, c)]
            if len(earners) == 1:
                return earners[0]
    if table.game == "other" and table.rule("winner", "highest") == "lowest":
        return unique(totals, min(totals)) if max(totals) >= table.target else None
    if table.game == "other" and table.rule("winner", "highest") == "hands":
        return unique(totals, max(totals)) if played >= table.target else None
    return first_over(totals, table.target)


def forty_winner(table: Table, totals: Sequence[int], cells: Any) -> int | None:
    """Escoba and Scopa (docs/rules/scopa.md, "Table rules"): all ten denari counted
    (Napoleone); several past the target, the table's count of the hand if it keeps one, else
    the higher total, level playing on; else a cappotto."""
    counted = [counts_of(cell) for cell in cells]
    napoleone = oracle_forty.napoleone(table, counted)
    if napoleone is not None:
        return napoleone
    if all(c is not None for c in counted):
        every = [c for c in counted if c is not None]
        first = oracle_forty.counted_first(table, table.target, totals, every)
        if first is not None:
            return first
    over = first_over(totals, table.target)
    return over if over is not None else oracle_forty.cappotto(table, totals)


def work_out(table: Table, hands: Sequence[Mapping[str, Any]]) -> Worked:
    """Totals, running totals, winner and open hand of a sheet, from its cells."""
    totals = [0] * table.sides
    running: list[list[int]] = []
    winner: int | None = None
    waiting: int | None = None
    for hand in hands:
        if not hand["complete"]:
            continue
        # A complete hand: every side entered.
        cells = [cell for cell in cells_of(hand, table.sides) if cell is not None]
        assert len(cells) == table.sides
        if table.game == "brisca":
            taker, waits = round_taker(table, cells)
            if waits and waiting is None:
                waiting = hand["number"]
            if taker is not None:
                totals[taker] += 1
            if winner is None and taker is not None and totals[taker] >= table.target:
                winner = taker
        else:
            totals = [total + cell["points"] for total, cell in zip(totals, cells, strict=True)]
            if winner is None:
                winner = winner_after(table, totals, len(running) + 1, cells)
        running.append(list(totals))
    open_hand = None
    if winner is None and waiting is None:
        open_hand = len(hands) if hands and not hands[-1]["complete"] else len(hands) + 1
    held = held_into(table, hands) if table.game == "basra" else [0] * (len(hands) + 1)
    return Worked(totals, running, winner, waiting, open_hand, held)


# What the cells of one complete hand must agree on.


def contradictions(table: Table, hand: Mapping[str, Any]) -> list[str]:
    """What a hand's cells (entered so far) say against each other, which no sheet may keep,
    and which every entry, fill and correction that would make it so is refused for
    (docs/rules/README.md and each game's page, "Checks across sides")."""
    cells = [cell for cell in cells_of(hand, table.sides) if cell is not None]
    found: list[str] = []
    counted = [c for c in (counts_of(cell) for cell in cells) if c is not None]
    if table.game in FORTY:
        return oracle_forty.contradictions(table, counted)
    if table.game == "tarneeb":
        return tarneeb_hand(table, cells)
    for key, most in PACK_COUNTS[table.game].items():
        got = sum(c.get(key, 0) for c in counted)
        if got > most:
            found.append(f"{key} come to {got}, past the pack's {most}")
    if table.game == "basra" and table.sides == 2:
        # Two counts head to head say nothing to each other but their sum: 26 beside 17 is
        # flagged once both are in, as a hand short of 52.
        ties = {says_tie(table, cell) for cell in cells}
        if len(ties) > 1 and not all(counts_of(cell) is not None for cell in cells):
            found.append("a 26-26 split said by one side only")
    if table.sides >= 3 and table.game in ("basra", "pastura"):
        found += most_cards_claims(table, cells)
    if table.game == "brisca":
        found += brisca_round(table, cells)
    return found


def most_cards_claims(table: Table, cells: Sequence[Mapping[str, Any]]) -> list[str]:
    """Three players: what their entries say about the most cards that cannot all be true."""
    # Each entry's claim: "tied" (Basra's tick, the answer Tied for most), "alone" (the answer
    # Yes, alone; Basra's plain entry unticked: someone took the majority alone), or nothing
    # (the answer No; Pastura's plain entry, which has no tick).
    claims: list[tuple[str | None, int | None, int | None]] = []
    for cell in cells:
        counts = counts_of(cell)
        if counts is None:
            if table.game == "basra":
                claims.append(("tied" if ticked(cell, "even_split") else "alone", None, None))
            continue
        claim = {ALONE: "alone", TIED: "tied"}.get(counts.get("most_cards", NO))
        claims.append((claim, counts.get("most_cards", NO), counts.get("cards", 0)))
    found = []
    said = {claimed for claimed, _answer, _cards in claims if claimed is not None}
    if said == {"tied", "alone"}:
        found.append("one entry says tied for the most cards, another that someone has them")
    alone = [cards for _claim, answer, cards in claims if answer == ALONE]
    if len(alone) > 1:
        found.append(f"{len(alone)} sides alone with the most cards")
    for at, (_claim, answer, cards) in enumerate(claims):
        if cards is None or answer == NO:
            continue
        for _other_claim, other_answer, other in claims[:at] + claims[at + 1 :]:
            if other is None:
                continue
            if answer == ALONE and other >= cards:
                found.append("alone with the most cards beside a side with as many or more")
            if answer == TIED and (other > cards or (other == cards and other_answer == NO)):
                found.append("tied for the most cards beside more, or as many answered No")
    return found


def tarneeb_hand(table: Table, cells: Sequence[Mapping[str, Any]]) -> list[str]:
    """A Tarneeb hand's entries that can't all be true (docs/rules/tarneeb.md, "Checks across
    sides"): a result no hand gives, two no one hand gives, and two calculators that disagree
    on the contract or pass 13 tricks."""
    results = oracle_tarneeb.results(table)
    points = [
        calculated(table, counts) if (counts := counts_of(cell)) is not None else cell["points"]
        for cell in cells
    ]
    found = [f"no hand gives {got}" for got in points if not any(got in r for r in results)]
    if len(points) == 2 and not found and not oracle_tarneeb.one_hand(table, *points):
        found.append(f"{points[0]} and {points[1]} are no one hand's")
    counted = [c for c in (counts_of(cell) for cell in cells) if c is not None]
    if len(counted) == 2:
        found += oracle_tarneeb.disagree(*counted)
    return found


def brisca_round(table: Table, cells: Sequence[Mapping[str, Any]]) -> list[str]:
    """A Brisca round's entries that cannot all be true (docs/rules/brisca.md, "Checks across
    sides"): two black hands, two last tricks, card points past the deck's 120 or, once every
    side is in, short of it (unless a black hand ended the round early)."""
    found = []
    plays_black = table.rule("black_hand", "off") == "on"
    black = sum(ticked(cell, "black_hand") for cell in cells) if plays_black else 0
    if black > 1:
        found.append("two black hands")
    if sum(ticked(cell, "last_trick") for cell in cells) > 1:
        found.append("two sides took the last trick")
    if black:
        return found
    points = sum(
        calculated(table, counts) if (counts := counts_of(cell)) is not None else cell["points"]
        for cell in cells
    )
    if points > DECK_POINTS or (len(cells) == table.sides and points != DECK_POINTS):
        found.append(f"card points come to {points}, not the deck's {DECK_POINTS}")
    return found


def pile_problems(table: Table, counts: Mapping[str, int]) -> list[str]:
    """What one side's calculator counts say that no pile can hold: refused by the calculator,
    naming the count (docs/rules/*.md, "Calculator"). Counts within each field's bounds."""
    if table.game in FORTY:
        return oracle_forty.pile_problems(table, counts)
    n = lambda key: int(counts.get(key, 0))  # noqa: E731
    found = []
    cards = n("cards")
    clears = 0
    if table.game in ("basra", "pastura"):
        if n("aces") + n("jacks") + n("two_clubs") + n("ten_diamonds") > cards:
            found.append("more scoring cards than cards")
        if table.sides >= 3:
            most = n("most_cards")
            if most != NO and cards < -(-PACK // table.sides):
                found.append("the most cards with too few cards")
            if cards > PACK // 2 and most != ALONE:
                found.append("more than half the pack, not alone with the most")
    if table.game == "basra":
        basras = n("basras") + sum(n(key) for key in BASRA_CARDS)
        doubles = n("double_basras") if table.rule("double_basra", "off") == "on" else 0
        clears = basras + doubles
        if clears > (PACK - 4) // table.sides:
            found.append("more basras than cards played")
        if n("jacks") < 2 * doubles:
            found.append("a double basra without two jacks")
    if table.game == "pastura":
        clears = n("pasturas")
    if table.game == "brasta":
        clubs, aces = n("clubs"), n("aces")
        if n("two_clubs") > clubs:
            found.append("the 2 of clubs without a club")
        if clubs == 13 and (not n("two_clubs") or not aces):
            found.append("every club without the 2 or the ace of clubs")
        if clubs + aces + n("ten_diamonds") - min(1, clubs, aces) > cards:
            found.append("clubs, aces and the 10 of diamonds past the cards")
        clears = n("brastas") + n("double_brastas")
    if 2 * clears > cards:
        found.append("fewer than two cards a clearing")
    return found


def flags(table: Table, hand: Mapping[str, Any]) -> bool:
    """Whether a complete hand must be flagged as not adding up (docs/rules/*.md, "Checks
    across sides": when every side used the calculator, 52 cards, 4 aces...; Brisca 120
    card points)."""
    cells = [cell for cell in cells_of(hand, table.sides) if cell is not None]
    counted = [counts_of(cell) for cell in cells]
    every = all(c is not None for c in counted)
    if table.game == "brisca":
        black = (
            sum(ticked(c, "black_hand") for c in cells)
            if table.rule("black_hand", "off") == "on"
            else 0
        )
        if black > 1 or sum(ticked(c, "last_trick") for c in cells) > 1:
            return True
        if black:
            # A black hand ends the round before every card is won.
            return False
        if sum(c["points"] for c in cells) != DECK_POINTS:
            return True
    if table.game == "tarneeb":
        points = [c["points"] for c in cells]
        if not oracle_tarneeb.one_hand(table, *points):
            return True
        known = [c for c in counted if c is not None]
        return every and (
            bool(oracle_tarneeb.disagree(*known)) or sum(c["tricks"] for c in known) != 13
        )
    if not every or table.game == "other":
        return False
    if table.game in FORTY:
        return oracle_forty.flags(table, [c for c in counted if c is not None])
    if any(
        sum(c.get(key, 0) for c in counted if c is not None) != most
        for key, most in PACK_COUNTS[table.game].items()
    ):
        return True
    if table.sides >= 3 and table.game in ("basra", "pastura"):
        cards = [c.get("cards", 0) for c in counted if c is not None]
        top = [at for at, got in enumerate(cards) if got == max(cards)]
        claims = [c.get("most_cards", NO) for c in counted if c is not None]
        wanted = [
            (ALONE if len(top) == 1 else TIED) if at in top else NO for at in range(len(cards))
        ]
        return claims != wanted
    return False
