"""Small builders shared by the games' unit tests: a table, a calculator entry, a plain entry, and
why play goes on in words."""

from __future__ import annotations

from types import SimpleNamespace

from scorekeeper.games import EntryFacts, Game, MatchState, Table, get_game
from scorekeeper.words import play_on


def table(game: str, format_key: str = "2", target: int | None = None, **rules: str) -> Table:
    """A table for a game seated in one of its formats, rules at their defaults unless given."""
    return table_for(get_game(game), format_key, target, **rules)


def table_for(found: Game, format_key: str = "2", target: int | None = None, **rules: str) -> Table:
    """A table for a game (its rules object) seated in one of its formats, as table() makes."""
    game = found.key
    seating = next(f for f in found.formats if f.key == format_key)
    chosen = {rule.key: rule.default for rule in found.table_rules if rule.applies_to(format_key)}
    chosen.update(rules)
    return Table(
        game=game,
        format=format_key,
        sides=seating.sides,
        target=found.default_target if target is None else target,
        rules=chosen,
    )


def counted(tbl: Table, held_over: int = 0, **counts: int) -> EntryFacts:
    """An entry made with the calculator, its stored points as the calculator gave them."""
    return counted_by(get_game(tbl.game), tbl, held_over, **counts)


def counted_by(found: Game, tbl: Table, held_over: int = 0, **counts: int) -> EntryFacts:
    """An entry made with a game's calculator (its rules object), as counted() makes."""
    total = found.calculate(tbl, counts, held_over).total
    return EntryFacts(points=total, counts=counts)


def plain(
    points: int, *, even_split: bool = False, last_trick: bool = False, black_hand: bool = False
) -> EntryFacts:
    """An entry typed as a plain total, with any ticks (by their keys)."""
    flags = {"even_split": even_split, "last_trick": last_trick, "black_hand": black_hand}
    return EntryFacts(points=points, ticks=frozenset(key for key, on in flags.items() if on))


def lines_of(calculation) -> list[tuple[str, str, int, int]]:
    """A breakdown as (key, label, count, points) rows, the way a test can compare it."""
    return [(row.key, row.label, row.count, row.points) for row in calculation.lines]


def play_on_said(state: MatchState) -> str:
    """Why play goes on, as the sheet words it for sides nobody named ("Side 1"…)."""
    sides = [SimpleNamespace(name=f"Side {place}") for place in range(1, 9)]
    return play_on(state.play_on, sides)  # type: ignore[arg-type]
