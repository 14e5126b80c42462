"""Brisca: each hand is a round won on card points; the match goes to rounds won."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .base import (
    Aim,
    CalcField,
    Calculation,
    Conflict,
    EntryFacts,
    Goal,
    HandFacts,
    HandResult,
    Label,
    Problem,
    Said,
    Settling,
    Table,
    TableFormat,
    TableRule,
    Term,
    Tick,
    WinRule,
    Won,
    says,
    says_n,
)
from .calculator import calculation, count_field, line, read_counts
from .game import Game, Outcome, every_side
from .hand_checks import Expected, ticked_twice
from .scoring import Scoring, each

# The words of this game's codes (its Terms, and its Problems), in English as the catalogs
# translate them: scorekeeper/terms.py says them in the reader's language.
WORDS: dict[str, Said] = {
    # NOTE: The name of a card game.
    "game.brisca": says("Brisca"),
    # NOTE: A row of Brisca's score sheet, one deal of the cards, as a title: "Round 3".
    "round": says("Round"),
    # NOTE: A row of Brisca's score sheet, one deal of the cards, inside a sentence:
    # "Correct round 3".
    "round.noun": says("round"),
    # NOTE: The row under Brisca's score sheet that counts each side's rounds won.
    "rounds": says("Rounds"),
    "rounds.target": says_n("%(num)d round", "%(num)d rounds"),
    # NOTE: A Brisca match's target after its game's name: "Brisca to 3 rounds". Its own
    # words, since a language may say the number differently there (Arabic: «حتى جولتين»).
    "to.rounds": says_n("to %(num)d round", "to %(num)d rounds"),
    # NOTE: Some rounds of Brisca's score sheet by their numbers, inside a sentence: "rounds
    # 1–3, 5" (%(num)d is how many there are, %(numbers)s their numbers).
    "rounds.numbered": says_n("round %(numbers)s", "rounds %(numbers)s"),
    "rule.black_hand": says("Black hand (Ace, Three and King of trumps win the round)"),
    "tick.black_hand.label": says("Black hand: we held Ace, Three and King of trumps"),
    "tick.black_hand": says("Black hand"),
    "tick.black_hand.noted": says("black hand"),
    "tick.last_trick": says("Took the last trick"),
    "tick.last_trick.noted": says("took the last trick"),
    # A hand whose tie waits for its settling tick (Game.settles), by the tick's key.
    # NOTE: Brisca: a round tied at the top; %(number)s is the round's number.
    "tie.last_trick.asked": says("Round %(number)s is tied. Who took the last trick?"),
    # NOTE: Brisca: a round tied at the top; %(number)s is the round's number.
    "tie.last_trick.first": says("Round %(number)s is tied: say who took the last trick first."),
    # NOTE: Brisca: "Round 2: Ana took the last trick." %(side)s is a side's name.
    "tie.last_trick.said": says("Round %(number)s: %(side)s took the last trick."),
    # NOTE: Brisca: %(number)s is a round's number.
    "tie.last_trick.stale": says(
        "Round %(number)s isn't waiting for the last trick: look at the sheet again."
    ),
    # NOTE: a phone's record: Brisca rounds its side won.
    "rounds_won": says("Rounds won"),
    # NOTE: a phone's record: Brisca rounds tied at the top (60–60), settled by the last trick.
    # (With three sides a tie at the top is not 60–60: 50–50–20.)
    "sixty_sixty": says("Rounds tied at the top"),
    "black_hands": says("Black hands"),
}
PROBLEM_WORDS: dict[str, Said] = {
    "black_hands": says_n(
        "%(num)d side claims a black hand; only one can hold the Ace, Three and King of trumps",
        "%(num)d sides claim a black hand; only one can hold the Ace, Three and King of trumps",
    ),
    "last_tricks": says_n(
        "%(num)d side says it took the last trick; only one did",
        "%(num)d sides say they took the last trick; only one did",
    ),
    "card_points": says("Card points add up to %(total)d, not %(deck)d"),
    # NOTE: %(named)s is each other side's name and card points ("Side 1 70").
    "past_the_deck_last": says(
        "%(named)s already: with your %(points)d the round's card points come to "
        "%(total)d, and the deck holds %(deck)d. Yours would be %(yours)d. If theirs is "
        "wrong, the host can correct it."
    ),
    # NOTE: %(named)s is each other side's name and card points ("Side 1 70").
    "past_the_deck": says(
        "%(named)s already: with your %(points)d the round's card points come to "
        "%(total)d, and the deck holds %(deck)d. If theirs is wrong, the host can correct it."
    ),
    # NOTE: said to the host, who writes every side's cell: %(named)s is each other side's
    # name and card points ("Lucía 60"), %(me)s the side whose %(points)d points were typed.
    "past_the_deck_last.host": says(
        "%(named)s already: with %(me)s %(points)d the round's card points come to "
        "%(total)d, and the deck holds %(deck)d. %(me)s would be %(yours)d; or correct "
        "whichever is wrong."
    ),
    # NOTE: said to the host, who writes every side's cell: %(named)s is each other side's
    # name and card points ("Lucía 60"), %(me)s the side whose %(points)d points were typed.
    "past_the_deck.host": says(
        "%(named)s already: with %(me)s %(points)d the round's card points come to "
        "%(total)d, and the deck holds %(deck)d. Correct whichever is wrong."
    ),
}

# docs/rules/brisca.md, "Card points": 30 in each of four suits, 120 in the deck.
DECK_POINTS = 120
# docs/rules/brisca.md, "Card points": ace 11, three 10, king 4, horse 3, jack 2.
# Each row: its key, its label (the calculator's field, the breakdown's line), its card points,
# and the calculator's hint.
CARD_VALUES: tuple[tuple[str, Term, int, Term], ...] = tuple(
    (key, Term(label), value, Term.of("points_each", num=value))
    for key, label, value in (
        ("aces", "aces", 11),
        ("threes", "threes", 10),
        ("kings", "kings", 4),
        ("horses", "horses", 3),
        ("jacks", "jacks.spanish", 2),
    )
)
# The ticks only one side can make. The last trick is asked only of the sides level at the
# top (Brisca.settles); a black hand with the entry, where the table plays it.
LAST_TRICK = Tick(
    "last_trick",
    Term("tick.last_trick"),
    Term("tick.last_trick"),
    Term("tick.last_trick.noted"),
    mark="↓",
    on_entry=False,
)
BLACK_HAND = Tick(
    "black_hand",
    Term("tick.black_hand.label"),
    Term("tick.black_hand"),
    Term("tick.black_hand.noted"),
    mark="●",
)
# Four suits in the 40-card Spanish deck: four of each counting card.
SUITS = 4


class Brisca(Game):
    """Brisca's formats, Black hand rule, card-point calculator and rounds won."""

    words = WORDS
    problem_words = PROBLEM_WORDS

    key = "brisca"
    feats: tuple[tuple[str, Label], ...] = (
        ("rounds_won", Term("rounds_won")),
        ("sixty_sixty", Term("sixty_sixty")),
        ("black_hands", Term("black_hands")),
    )
    name = Term("game.brisca")
    formats = (
        TableFormat("2", Term("format.2"), sides=2),
        TableFormat("3", Term("format.3"), sides=3),
        TableFormat("2v2", Term("format.2v2"), sides=2, players_per_side=2),
        TableFormat("3v3", Term("format.3v3"), sides=2, players_per_side=3),
    )
    # docs/rules/brisca.md, "Target and winning": the first side to win the table's number of
    # rounds (1 to 10, 3 by default) wins.
    targets = tuple(range(1, 11))
    default_target = 3
    target_unit = "rounds"
    # A plain entry is the side's card points for the round.
    min_points = 0
    max_points = DECK_POINTS
    deck_points = DECK_POINTS
    # A row of Brisca's score sheet, one deal of the cards: "Round 3", "Correct round 3"; and
    # the row under it that counts each side's rounds won.
    hand_word = Term("round")
    hand_noun = Term("round.noun")
    rows_numbered = Term("rounds.numbered")
    total_word = Term("rounds")
    # docs/rules/brisca.md, "Who takes a round": 60–60 goes to the side that took the last
    # trick.
    settles = Settling(
        LAST_TRICK,
        asked=Term("tie.last_trick.asked"),
        first=Term("tie.last_trick.first"),
        said=Term("tie.last_trick.said"),
        stale=Term("tie.last_trick.stale"),
    )
    table_rules = (
        TableRule(
            "black_hand",
            Term("rule.black_hand"),
            (("off", Term("rule.off")), ("on", Term("rule.on"))),
            default="off",
        ),
    )
    expected = tuple(Expected(key, label, SUITS) for key, label, *_rest in CARD_VALUES)

    def feats_of(
        self, table: Table, result: HandResult, facts: EntryFacts | None, at: int
    ) -> dict[str, int]:
        """Rounds won; rounds tied at the top (60–60 head to head), which the last trick
        settled; black hands held."""
        if not result.complete:
            return {}
        points = [p or 0 for p in result.points]
        top = max(points)
        return {
            "rounds_won": int(result.round_winner == at),
            "sixty_sixty": int(points[at] == top and points.count(top) > 1),
            "black_hands": int(
                facts is not None and facts.ticked(BLACK_HAND.key) and table.rule_on("black_hand")
            ),
        }

    def ticks(self, table: Table) -> tuple[Tick, ...]:
        """Who took the last trick (asked when a round ties at the top); a black hand where the
        table plays it."""
        return (LAST_TRICK, BLACK_HAND) if table.rule_on("black_hand") else (LAST_TRICK,)

    def target_label(self, target: int) -> Term:
        """The target in rounds won ("3 rounds")."""
        return Term.of("rounds.target", num=target)

    def target_to(self, table: Table) -> Term:
        """The target after "to", in rounds won ("to 3 rounds")."""
        return Term.of("to.rounds", num=table.target)

    def goal(self, target: int) -> Goal:
        """What wins, in rounds won ("3 rounds wins.", words.goal)."""
        return Goal(Aim.ROUNDS, target)

    def calculator_fields(self, table: Table) -> tuple[CalcField, ...]:
        """The counting cards in a side's tricks, one count per rank."""
        return tuple(
            count_field(key, label, SUITS, hint) for key, label, _value, hint in CARD_VALUES
        )

    def calculate(self, table: Table, counts: Mapping[str, int], held_over: int = 0) -> Calculation:
        """A side's counting cards to its card points for the round."""
        values = read_counts(self.calculator_fields(table), counts)
        return calculation(
            [
                line(key, label, values[key], value * values[key])
                for key, label, value, _hint in CARD_VALUES
            ]
        )

    def scoring(self, table: Table, held_over: int = 0) -> Scoring:
        """calculate's lines as a table: each counting card its card points."""
        return Scoring(tuple(each(key, label, value) for key, label, value, _hint in CARD_VALUES))

    def black_hands(self, table: Table, cells: Sequence[EntryFacts]) -> list[int]:
        """The sides that claim a black hand, when the table plays the Black hand rule."""
        if self.choice(table, "black_hand") != "on":
            return []
        return [side for side, cell in enumerate(cells) if cell.ticked(BLACK_HAND.key)]

    def round_winner(
        self, table: Table, cells: Sequence[EntryFacts], points: Sequence[int]
    ) -> tuple[int | None, tuple[int, ...]]:
        """Who won a complete round, and which tied sides wait for the last trick to say."""
        claims = self.black_hands(table, cells)
        # docs/rules/brisca.md, "Who takes a round": a black hand (ace, three and king of
        # trumps) takes it outright. Two claims settle nothing (hand_problems says).
        if len(claims) == 1:
            return claims[0], ()
        if len(claims) > 1:
            return None, ()
        top = max(points)
        tied = [side for side, side_points in enumerate(points) if side_points == top]
        if len(tied) == 1:
            return tied[0], ()
        # docs/rules/brisca.md, "Who takes a round" and "Three sides": sides level at the top
        # (60–60) are settled by the last trick, among the tied.
        took_last = [side for side in tied if cells[side].ticked(LAST_TRICK.key)]
        if len(took_last) == 1:
            return took_last[0], ()
        return None, tuple(tied)

    def hand_outcome(
        self,
        table: Table,
        cells: Sequence[EntryFacts],
        points: Sequence[int],
        breakdowns: Sequence[Calculation | None],
    ) -> Outcome:
        """A round won for the round's winner; the card points only decide who that is."""
        winner, waiting = self.round_winner(table, cells, points)
        return Outcome(
            adds=tuple(int(side == winner) for side in range(len(cells))),
            round_winner=winner,
            waiting=waiting,
        )

    def match_winner(
        self, table: Table, totals: Sequence[int], outcome: Outcome
    ) -> tuple[int, Won] | None:
        """The round's winner, once that round brings its rounds won to the target."""
        # docs/rules/brisca.md, "Target and winning": the first side to win that many rounds.
        side = outcome.round_winner
        if side is None or totals[side] < table.target:
            return None
        return side, Won(WinRule.FIRST_TO_ROUNDS, target=table.target)

    def entry_conflicts(
        self, table: Table, hand: HandFacts, side: int, entry: EntryFacts, me: Label | None = None
    ) -> list[Conflict]:
        """Beside the counts: only one side holds a black hand or takes the last trick, the
        round's card points can't pass the deck's 120, and the last side's entry must bring
        them to exactly 120."""
        found = super().entry_conflicts(table, hand, side, entry, me)
        cells = every_side(hand, table.sides)
        theirs = [(at, cell) for at, cell in enumerate(cells) if at != side and cell is not None]
        named = [(table.side_name(at), cell) for at, cell in theirs]
        if self.black_hands(table, [entry]):
            others = [(name, cell.points) for name, cell in named if cell.ticked(BLACK_HAND.key)]
            found += ticked_twice(BLACK_HAND.quoted, entry.points, others, me)
        if entry.ticked(LAST_TRICK.key):
            others = [(name, cell.points) for name, cell in named if cell.ticked(LAST_TRICK.key)]
            found += ticked_twice(LAST_TRICK.quoted, entry.points, others, me)
        # A black hand ends the round before every card is won: its points need not add up.
        if not theirs or self.black_hands(table, [entry, *(cell for _, cell in theirs)]):
            return found
        points = self._past_the_deck(table, theirs, entry, me)
        return found if points is None else [*found, Conflict(points)]

    def _past_the_deck(
        self,
        table: Table,
        theirs: Sequence[tuple[int, EntryFacts]],
        entry: EntryFacts,
        me: Label | None = None,
    ) -> Problem | None:
        """Why an entry's card points can't be beside the others' (None: they can); `me`
        names the side entering (None: its own phone, "your")."""
        others = sum(cell.points for _, cell in theirs)
        total = others + entry.points
        last = len(theirs) == table.sides - 1
        if total <= DECK_POINTS and not (last and total != DECK_POINTS):
            return None
        said = {
            "named": tuple((table.side_name(at), cell.points) for at, cell in theirs),
            "points": entry.points,
            "total": total,
            "deck": DECK_POINTS,
            "me": me,
        }
        # To the host writing the side's cell, who writes the others' too: its own words.
        if last and others <= DECK_POINTS:
            yours = DECK_POINTS - others
            if me is None:
                return Problem.of("past_the_deck_last", yours=yours, **said)
            return Problem.of("past_the_deck_last.host", yours=yours, **said)
        if me is None:
            return Problem.of("past_the_deck", **said)
        return Problem.of("past_the_deck.host", **said)

    def hand_problems(
        self, table: Table, cells: Sequence[EntryFacts], points: Sequence[int]
    ) -> list[Problem]:
        """What a complete round fails to add up to."""
        problems: list[Problem] = []
        claims = self.black_hands(table, cells)
        if len(claims) > 1:
            problems.append(Problem.of("black_hands", num=len(claims)))
        last_claims = sum(cell.ticked(LAST_TRICK.key) for cell in cells)
        if last_claims > 1:
            problems.append(Problem.of("last_tricks", num=last_claims))
        # A black hand ends the round before every card is won, so its points need not add up.
        if claims:
            return problems
        total = sum(points)
        if total != DECK_POINTS:
            problems.append(Problem.of("card_points", total=total, deck=DECK_POINTS))
        return problems + super().hand_problems(table, cells, points)


BRISCA_GAME = Brisca()
