"""Machinery every game shares: reading counts, checking a hand across sides, the win rule."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .base import (
    CalcField,
    Calculation,
    CountError,
    EntryFacts,
    HandFacts,
    HandResult,
    MatchState,
    ScoreLine,
    Table,
    TableFormat,
    TableRule,
)

# Words for "Higher of two over 101": a result line reads better than "Higher of 2".
_HOW_MANY = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight"}

# The "most cards" question asked when three or more sides share the pack.
MOST_NO, MOST_ALONE, MOST_TIED = 0, 1, 2
MOST_CARDS_CHOICES = ((MOST_NO, "No"), (MOST_ALONE, "Yes, alone"), (MOST_TIED, "Tied for most"))

# The 52-card pack the fishing games (Basra, Pastura, Brasta) are played with.
PACK = 52
# Two sides: more than half the pack is the most cards; 26 is the even split.
MAJORITY_CARDS = PACK // 2 + 1


def count_field(key: str, label: str, maximum: int, hint: str = "") -> CalcField:
    """A calculator input counting something in a side's pile."""
    return CalcField(key=key, label=label, maximum=maximum, hint=hint)


def flag_field(key: str, label: str, hint: str = "") -> CalcField:
    """A calculator input for a single card or event a side either has or has not."""
    return CalcField(key=key, label=label, maximum=1, kind="flag", hint=hint)


def most_cards_field(hint: str) -> CalcField:
    """The "who has the most cards" question for three or more sides."""
    return CalcField(
        key="most_cards",
        label="Most cards",
        maximum=MOST_TIED,
        kind="choice",
        choices=MOST_CARDS_CHOICES,
        hint=hint,
    )


def read_counts(fields: Sequence[CalcField], counts: Mapping[str, int]) -> dict[str, int]:
    """The calculator's counts checked against each field's bounds; missing keys count as 0."""
    values: dict[str, int] = {}
    for calc_field in fields:
        value = counts.get(calc_field.key, 0)
        # bool is an int, and a ticked box arriving as True is a fair 1.
        if not isinstance(value, int):
            raise CountError(calc_field.key, f"{calc_field.label}: enter a whole number.")
        if value < calc_field.minimum:
            raise CountError(
                calc_field.key, f"{calc_field.label} can't be below {calc_field.minimum}."
            )
        if value > calc_field.maximum:
            if calc_field.kind == "count":
                reason = (
                    f"{value} {calc_field.label.lower()}? "
                    f"There can be at most {calc_field.maximum}."
                )
            elif calc_field.kind == "flag":
                reason = f"{calc_field.label}: either yes (1) or no (0)."
            else:
                reason = f"{calc_field.label}: pick one of the choices given."
            raise CountError(calc_field.key, reason)
        values[calc_field.key] = int(value)
    return values


def require(condition: bool, field_key: str, reason: str) -> None:
    """Raise CountError on field_key unless a cross-field condition holds."""
    if not condition:
        raise CountError(field_key, reason)


def require_within_cards(values: Mapping[str, int], keys: Sequence[str]) -> None:
    """The scoring cards a side claims sit in its pile, so together they fit in its card count."""
    cards = values["cards"]
    claimed = 0
    for key in keys:
        claimed += values[key]
        if claimed > cards:
            # Named on the field that tipped it over: with 0 cards, ticking the 2♣ is the slip.
            raise CountError(
                key,
                f"That makes {claimed} scoring {'card' if claimed == 1 else 'cards'} "
                f"in a pile of {cards} cards captured.",
            )


def require_cards_for_clears(values: Mapping[str, int], keys: Sequence[str], noun: str) -> None:
    """Each floor clearance takes the played card and at least one more, so two cards apiece."""
    clears = sum(values[key] for key in keys)
    if 2 * clears > values["cards"]:
        raise CountError(
            keys[0],
            f"{clears} {noun} take at least {2 * clears} cards, "
            f"but the cards captured say {values['cards']}.",
        )


def require_most_cards_claim(values: Mapping[str, int], sides: int) -> None:
    """A most-cards claim must be possible with the side's own card count."""
    cards, claim = values["cards"], values["most_cards"]
    # The most of 52 among three (alone or shared) takes at least 18: 17+17+17 leaves one over.
    least_for_most = -(-PACK // sides)
    if claim != MOST_NO and cards < least_for_most:
        raise CountError(
            "most_cards", f"With {cards} cards you can't hold the most; it takes {least_for_most}."
        )
    # More than half the pack is the most by itself; nobody can tie or beat it.
    if claim != MOST_ALONE and cards >= MAJORITY_CARDS:
        raise CountError("most_cards", f"{cards} cards is more than half the pack: most, alone.")


def line(key: str, label: str, count: int, points: int) -> ScoreLine:
    """A breakdown row (kept short so each game's calculate reads as its scoring table)."""
    return ScoreLine(key=key, label=label, count=count, points=points)


def calculation(lines: Sequence[ScoreLine]) -> Calculation:
    """A breakdown of the rows that score, as a player reads out a hand (zero rows left out)."""
    scoring = tuple(row for row in lines if row.points != 0)
    return Calculation(lines=scoring, total=sum(row.points for row in scoring))


def first_over_target(totals: Sequence[int], target: int) -> tuple[int, str] | None:
    """The winner under "first to the target; several there: the higher; level: play on"."""
    # basra.txt: "If both sides reach 101 in the very same hand, the higher score wins it;
    # if they are level there too, deal again until the tie breaks."
    over = [side for side, total in enumerate(totals) if total >= target]
    if not over:
        return None
    top = max(totals[side] for side in over)
    leaders = [side for side in over if totals[side] == top]
    if len(leaders) > 1:
        return None
    if len(over) == 1:
        return leaders[0], f"Reached {target} first"
    word = "Higher" if len(over) == 2 else "Highest"
    return leaders[0], f"{word} of {_HOW_MANY.get(len(over), str(len(over)))} over {target}"


@dataclass(frozen=True)
class Expected:
    """One thing a whole hand's calculator entries must add up to across every side."""

    key: str
    noun: str
    total: int
    # A single card (2♣) reads better as "claimed by 2 sides" than "add up to 2".
    single: bool = False

    def problem(self, got: int) -> str | None:
        """The sentence a player reads when the hand doesn't add up on this count."""
        if got == self.total:
            return None
        if self.single:
            if got == 0:
                return f"No side claimed the {self.noun}; exactly one should"
            return f"The {self.noun} is claimed by {got} sides, not 1"
        return f"{self.noun} add up to {got}, not {self.total}"


def cross_check(
    counts: Sequence[Mapping[str, int]], expected: Sequence[Expected], most_cards: bool
) -> list[str]:
    """What a hand entered by calculator on every side fails to add up to."""
    problems = [
        problem
        for rule in expected
        if (problem := rule.problem(sum(side.get(rule.key, 0) for side in counts))) is not None
    ]
    if most_cards:
        problems.extend(most_cards_problems(counts))
    return problems


def most_cards_problems(counts: Sequence[Mapping[str, int]]) -> list[str]:
    """Three or more sides: the most-cards claims must match the card counts."""
    cards = [side.get("cards", 0) for side in counts]
    claims = [side.get("most_cards", MOST_NO) for side in counts]
    top = max(cards)
    holders = [side for side, count in enumerate(cards) if count == top]
    has_most = MOST_ALONE if len(holders) == 1 else MOST_TIED
    wanted = [has_most if side in holders else MOST_NO for side in range(len(counts))]
    if claims == wanted:
        return []
    shown = ", ".join(str(count) for count in cards)
    return [f"Most cards: the claims don't match the card counts ({shown})"]


def every_side(hand: Sequence[EntryFacts | None], sides: int) -> list[EntryFacts | None]:
    """The hand padded to one cell per side (a side not yet entered is None)."""
    cells = list(hand)
    if len(cells) > sides:
        raise ValueError(f"A hand has {len(cells)} entries for {sides} sides.")
    return cells + [None] * (sides - len(cells))


class GameBase:
    """What every game object carries besides the Game protocol's attributes."""

    key: str
    name: str
    formats: tuple[TableFormat, ...]
    targets: tuple[int, ...]
    default_target: int
    target_unit: str
    table_rules: tuple[TableRule, ...] = ()
    min_points: int
    max_points: int

    def target_label(self, target: int) -> str:
        """The target as the create form and result line show it ("101 points", "3 rounds")."""
        unit = self.target_unit[:-1] if target == 1 else self.target_unit
        return f"{target} {unit}"

    def accepts_target(self, target: int) -> bool:
        """Whether a table may play to this target (any positive one when the game has no list)."""
        return target in self.targets if self.targets else target > 0

    def format(self, key: str) -> TableFormat:
        """The table format with this key (KeyError for one this game doesn't offer)."""
        for table_format in self.formats:
            if table_format.key == key:
                return table_format
        raise KeyError(key)

    def choice(self, table: Table, key: str) -> str:
        """The table's choice for one of this game's rules, its default if the table has none."""
        # A table created before a rule existed still works out: it plays the default.
        for rule in self.table_rules:
            if rule.key == key:
                return table.rules.get(key, rule.default)
        raise KeyError(key)

    def calculator_fields(self, table: Table) -> tuple[CalcField, ...]:
        """The calculator's inputs for this table (empty: the game has no calculator)."""
        return ()

    def calculate(self, table: Table, counts: Mapping[str, int], held_over: int = 0) -> Calculation:
        """One side's counts to a breakdown and total; raises CountError for impossible counts."""
        raise NotImplementedError

    def entries(
        self, table: Table, hand: HandFacts, held_over: int
    ) -> tuple[list[EntryFacts | None], list[int | None], list[Calculation | None], list[str]]:
        """Each side's cell, its points and breakdown (calculator entries re-derived)."""
        cells = every_side(hand, table.sides)
        points: list[int | None] = []
        breakdowns: list[Calculation | None] = []
        problems: list[str] = []
        has_calculator = bool(self.calculator_fields(table))
        for side, entry in enumerate(cells):
            if entry is None:
                points.append(None)
                breakdowns.append(None)
            elif entry.counts is None or not has_calculator:
                points.append(entry.points)
                breakdowns.append(None)
            else:
                # Re-derived, not read back: a corrected earlier hand changes what a majority
                # is worth here, and the counts are the truth the side typed.
                try:
                    worked = self.calculate(table, entry.counts, held_over)
                except CountError as error:
                    # Counts stored before a rule or bound changed; keep the side's total and
                    # let the host see why rather than failing the whole sheet.
                    points.append(entry.points)
                    breakdowns.append(None)
                    problems.append(f"{table.side_name(side)}: {error.reason}")
                else:
                    points.append(worked.total)
                    breakdowns.append(worked)
        return cells, points, breakdowns, problems


def all_by_calculator(cells: Sequence[EntryFacts | None]) -> bool:
    """Whether every side entered this hand and used the calculator to do it."""
    return all(cell is not None and cell.counts is not None for cell in cells)


class PointsGame(GameBase):
    """A game scored in points added hand by hand, won under first_over_target."""

    # The counts a hand must add up to when every side used the calculator.
    expected: tuple[Expected, ...] = ()

    def majority_worth(self, table: Table, held_over: int) -> int | None:
        """What the majority is worth going into a hand (None: no carried-over majority)."""
        return None

    def held_after(self, table: Table, cells: Sequence[EntryFacts | None], held_over: int) -> int:
        """Points held over after a complete hand (only Basra holds any)."""
        return 0

    def early_victory(
        self,
        table: Table,
        cells: Sequence[EntryFacts | None],
        breakdowns: Sequence[Calculation | None],
    ) -> int | None:
        """A side that won at once in this hand, whatever the totals (only Pastura has one)."""
        return None

    def hand_problems(self, table: Table, cells: Sequence[EntryFacts | None]) -> list[str]:
        """What a complete hand fails to add up to across sides (calculator on every side)."""
        if not self.expected or not all_by_calculator(cells):
            return []
        counts = [cell.counts or {} for cell in cells if cell is not None]
        return cross_check(counts, self.expected, most_cards=table.sides >= 3)

    def state(self, table: Table, hands: Sequence[HandFacts]) -> MatchState:
        """The sheet worked out from every hand so far, in order (the last may be incomplete)."""
        held = 0
        totals = [0] * table.sides
        results: list[HandResult] = []
        running: list[tuple[int, ...]] = []
        winner: int | None = None
        won_at: int | None = None
        reason = ""
        for index, hand in enumerate(hands):
            cells, points, breakdowns, problems = self.entries(table, hand, held)
            complete = all(cell is not None for cell in cells)
            early: int | None = None
            held_before = held
            worth = self.majority_worth(table, held)
            if complete:
                problems.extend(self.hand_problems(table, cells))
                early = self.early_victory(table, cells, breakdowns)
                # A complete hand has every side's points, so none of these is None.
                totals = [
                    total + (hand_points or 0)
                    for total, hand_points in zip(totals, points, strict=True)
                ]
                running.append(tuple(totals))
                if winner is None:
                    found = (
                        (early, "Early victory")
                        if early is not None
                        else first_over_target(totals, table.target)
                    )
                    if found is not None:
                        winner, reason = found
                        won_at = index
                held = self.held_after(table, cells, held)
            results.append(
                HandResult(
                    points=tuple(points),
                    breakdowns=tuple(breakdowns),
                    complete=complete,
                    majority_worth=worth,
                    held_over=held_before if worth is not None else 0,
                    early_victory=early,
                    problems=tuple(problems),
                )
            )
        return MatchState(
            hands=tuple(results),
            running=tuple(running),
            totals=tuple(totals),
            winner=winner,
            won_at_hand=won_at,
            held_over=held,
            next_majority=self.majority_worth(table, held),
            reason=reason,
        )


__all__ = [
    "MAJORITY_CARDS",
    "MOST_ALONE",
    "MOST_CARDS_CHOICES",
    "MOST_NO",
    "MOST_TIED",
    "PACK",
    "Expected",
    "GameBase",
    "PointsGame",
    "all_by_calculator",
    "calculation",
    "count_field",
    "cross_check",
    "every_side",
    "first_over_target",
    "flag_field",
    "line",
    "most_cards_field",
    "most_cards_problems",
    "read_counts",
    "require",
    "require_cards_for_clears",
    "require_most_cards_claim",
    "require_within_cards",
]
