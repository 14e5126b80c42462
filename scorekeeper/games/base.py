"""The shapes every game shares: what a table is, what a side entered, what the sheet says.

Plain Python on purpose: nothing here knows about Flask, Babel or the database, so every
scoring line and win rule can be tested on its own. Not even the words people read: a label is a
Term and a refusal a Problem, a code with its numbers, worded by scorekeeper/terms.py in the
language of the phone that reads them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Literal, NamedTuple

# What a Term's or a Problem's args hold: numbers, names (a side's, as typed, or a Term), other
# words (a Problem quoted in another) and pairs of them (each other side's name and count).
Arg = Any


def _args(given: Mapping[str, Arg]) -> tuple[tuple[str, Arg], ...]:
    """Keyword args as a Term keeps them: sorted pairs, so two equal terms compare equal (an
    arg given as None is left out: its wording says the sentence without it)."""
    return tuple(sorted((key, value) for key, value in given.items() if value is not None))


@dataclass(frozen=True, slots=True)
class Term:
    """A word the rules name, by its code, with the numbers it says: a game's name, a field's
    label, a breakdown line ("Majority (27+ cards)"). Worded by scorekeeper/terms.py; str() and
    a template word it in the reader's language once the app is made (word_with). It never holds
    what someone typed, so a page shows it as it is, as it did Flask-Babel's lazy strings."""

    code: str
    args: tuple[tuple[str, Arg], ...] = ()

    @classmethod
    def of(cls, code: str, **args: Arg) -> Term:
        """A term with its numbers by name: Term.of("points", num=101)."""
        return cls(code, _args(args))

    def __str__(self) -> str:
        return _wording(self)

    def __html__(self) -> str:
        return _wording(self)


@dataclass(frozen=True, slots=True)
class Problem:
    """What is wrong, by its code, with the numbers and names it says: a calculator's refusal, a
    hand that doesn't add up, an entry that can't stand beside another side's. Whoever shows it
    words it (scorekeeper/terms.py say); str() does too, and a page escapes it, as it names
    sides by what their players typed."""

    code: str
    args: tuple[tuple[str, Arg], ...] = ()

    @classmethod
    def of(cls, code: str, **args: Arg) -> Problem:
        """A problem with its numbers by name: Problem.of("add_up", what=..., got=5, total=4)."""
        return cls(code, _args(args))

    def __str__(self) -> str:
        return _wording(self)


def _unworded(said: Term | Problem) -> str:
    """Before the app gives the wording (a rule tested on its own): the code."""
    return said.code


_wording: Callable[[Term | Problem], str] = _unworded


def word_with(wording: Callable[[Term | Problem], str]) -> None:
    """The app's wording of terms and problems (scorekeeper/terms.py say), given when it is made:
    the rules name them by code, and str() or a page asks this for their words."""
    global _wording
    _wording = wording


class Said(NamedTuple):
    """The words a game declares for one of its codes (a Term's or a Problem's), in English as
    the catalogs translate them: scorekeeper/terms.py says them in the reader's language with
    the code's numbers and names. One form, or a singular and a plural chosen by its `num`."""

    text: str
    plural: str | None = None


def says(text: str) -> Said:
    """Words with one form ("Basras", "%(points)d each"); extracted for the catalogs."""
    return Said(text)


def says_n(singular: str, plural: str) -> Said:
    """Words with plural forms, chosen by the code's `num`; extracted for the catalogs."""
    return Said(singular, plural)


# A label as the rules give it: a Term, or a card's sign ("2♣") that reads the same everywhere.
Label = Term | str


@dataclass(frozen=True)
class TableFormat:
    """How the table is seated: how many sides, how many players on each."""

    key: str
    label: Label
    sides: int
    players_per_side: int = 1


@dataclass(frozen=True)
class TableRule:
    """A variant a table agrees on before the first hand."""

    key: str
    label: Label
    choices: tuple[tuple[str, Label], ...]
    default: str
    # Format keys this rule matters for; None means every format.
    formats: tuple[str, ...] | None = None

    def applies_to(self, format_key: str) -> bool:
        """Whether a table seated this way is asked about this rule."""
        return self.formats is None or format_key in self.formats


@dataclass(frozen=True)
class Table:
    """The settings a match was created with, as the rules need them."""

    game: str
    format: str
    sides: int
    target: int
    rules: Mapping[str, str] = field(default_factory=dict)
    # The sides' names, for sentences a player reads; "Side 1"… when not given.
    names: tuple[str, ...] = ()

    def side_name(self, index: int) -> str | Term:
        """How a sentence about a hand names a side: its name, else its place ("Side 2")."""
        if index < len(self.names):
            return self.names[index]
        return Term.of("side", number=index + 1)

    def rule_on(self, key: str) -> bool:
        """Whether a yes/no table rule is on here (False when the table has no such rule)."""
        # Every yes/no rule defaults to "off", so a table made before the rule existed plays
        # without it, as the game's own choice() says too.
        return self.rules.get(key) == "on"


@dataclass(frozen=True)
class CalcField:
    """One input of a calculator: a count of something in a side's pile, or a yes/no."""

    key: str
    label: Label
    minimum: int = 0
    maximum: int = 52
    kind: Literal["count", "flag", "choice"] = "count"
    choices: tuple[tuple[int, Label], ...] = ()
    hint: Label = ""


@dataclass(frozen=True)
class ScoreLine:
    """One row of a breakdown, as on the game's scoring table."""

    key: str
    label: Label
    count: int
    points: int


@dataclass(frozen=True)
class Calculation:
    """A side's hand worked out line by line."""

    lines: tuple[ScoreLine, ...]
    total: int


class CountError(ValueError):
    """A count that cannot be true at a real table, tied to the field it came from."""

    def __init__(self, field: str, reason: Problem) -> None:
        super().__init__(f"{field}: {reason.code}")
        self.field = field
        self.reason = reason


class Conflict(NamedTuple):
    """Why an entry can't stand beside what another side entered for the same hand: a Problem
    whose words say both sides' part."""

    reason: Problem
    # The calculator count it is about (its key), where it is about one: the page marks it.
    field: str | None = None


@dataclass(frozen=True)
class Tick:
    """A yes or no a side says of its own hand besides its points, as its game declares it
    (Game.ticks): stored with the cell by its key, asked on the forms by its label, quoted by
    a refusal, and marked on the cell for every phone, with a key under the sheet."""

    key: str
    # On a side's own form and the host's ("Cards split evenly (26–26): nobody took the
    # majority").
    label: Label
    # Quoted by a refusal ("You ticked “Cards split evenly (26–26)”.").
    quoted: Label
    # What the cell says it carries, in a sentence, and the key under the sheet says its mark
    # means ("cards split evenly").
    noted: Label
    # The sign drawn beside the cell's points for every phone, the TV and the print.
    mark: str
    # Asked with a side's own entry (its form and its calculator); False for a tick the game
    # asks only once a hand waits for it (Game.settles), or the host corrects.
    on_entry: bool = True
    # Said by the calculator's counts themselves (Basra's even split: 26 cards each), so the
    # calculator does not ask it.
    counted: bool = False


@dataclass(frozen=True)
class Settling:
    """A tie that only the tied sides' tick can break (Brisca: 60–60 goes to whoever took the
    last trick), as its game declares it (Game.settles): the tick, and the words of a hand that
    waits for it, each said with the hand's number (and the side that settles it)."""

    tick: Tick
    # The sheet's question ("Round 3 is tied. Who took the last trick?").
    asked: Term
    # An entry refused while it waits ("Round 3 is tied: say who took the last trick first.").
    first: Term
    # Done ("Round 3: Ana took the last trick.").
    said: Term
    # A tap from a page drawn before ("Round 3 isn't waiting for the last trick…").
    stale: Term

    def say(self, words: Term, number: int, side: str | None = None) -> Term:
        """One of its words, with the hand's number (and the side)."""
        return Term.of(words.code, number=number, side=side)


class EntryFacts(NamedTuple):
    """What one side put in its cell for one hand. (A named tuple: a long sheet makes hundreds
    of them on every page, and a tuple is made in a fraction of a frozen dataclass's time.)"""

    points: int
    # The calculator's inputs when the side used it; None for a plain total.
    counts: Mapping[str, int] | None = None
    # The keys of the game's ticks (Tick) the side ticked: "cards split evenly", "took the
    # last trick"...
    ticks: frozenset[str] = frozenset()

    def ticked(self, key: str) -> bool:
        """Whether the side ticked the tick with this key."""
        return key in self.ticks


# One hand as the sheet holds it: per side, in side order, the entry or None if not entered yet.
HandFacts = Sequence[EntryFacts | None]


class HandResult(NamedTuple):
    """What one hand came to once the rules have looked at it. (A named tuple, as EntryFacts:
    a sheet makes one per hand on every page.)"""

    # Points per side that count for this hand (None where not entered). For calculator
    # entries these are re-derived from the counts, so an earlier correction carries through.
    points: tuple[int | None, ...]
    breakdowns: tuple[Calculation | None, ...]
    complete: bool
    # Basra: the points a majority was worth going into this hand (30 plus anything held over),
    # and the held-over part of it.
    majority_worth: int | None = None
    held_over: int = 0
    # Brisca: the side that won the round; None while undecided.
    round_winner: int | None = None
    # A tie that only one of the tied sides' tick can break (Game.settles: Brisca's last
    # trick), and none of them has said it yet: the tied sides.
    waiting: tuple[int, ...] = ()
    # Pastura: the side that won at once by early victory in this hand.
    early_victory: int | None = None
    # Cross-side check: what does not add up (worded by scorekeeper/terms.py).
    problems: tuple[Problem, ...] = ()


class Aim(StrEnum):
    """What wins a match, as the foot of the sheet says it."""

    # The target's points (target).
    POINTS = "points"
    # Brisca: the target's rounds won (target).
    ROUNDS = "rounds"
    # Other game, lowest wins: the lowest total once a side reaches the target (target).
    LOWEST_AT_LIMIT = "lowest_at_limit"
    # Other game: the highest after the target's hands (target), with the hands left (left).
    HIGHEST_AFTER_HANDS = "highest_after_hands"


class Goal(NamedTuple):
    """What wins and its numbers; worded by scorekeeper/words/ ("101 points wins.")."""

    aim: Aim
    target: int
    left: int = 0


class Standing(NamedTuple):
    """Where the sides stand toward the target, as the foot of a paper sheet says it."""

    # The sides level at the top (one side: the leader).
    leaders: tuple[int, ...]
    # By how much the top is ahead of the next side (0 when several are level at the top).
    lead: int
    # How far each side is from the target (0: there); empty where the target isn't a total
    # to reach.
    to_go: tuple[int, ...]
    # What wins ("101 points wins.", as words.goal says it); None where not said.
    goal: Goal | None = None
    # Where the target is a limit (the lowest wins once a side reaches it): how far each side
    # is from it (0: reached), the points that would take it there; to_go is then empty.
    to_limit: tuple[int, ...] = ()


class WinRule(StrEnum):
    """Which rule named a match's winner: a code, stored with the match and exported as it is
    (worded by scorekeeper/words/, in the language of the phone that reads them)."""

    # Pastura: one side took every card point of a hand.
    EARLY_VICTORY = "early_victory"
    # A win at once a game declares with its table rules, said in its words (said): Scopa's
    # all ten denari, its 7-0 lead.
    DECLARED = "declared"
    # With the table rule: several sides reached the target in one hand, and its lines counted
    # in the agreed order took this one there first (target).
    COUNTED_FIRST = "counted_first"
    # The one side that reached the target (target).
    REACHED_FIRST = "reached_first"
    # The highest of several sides that reached the target in the same hand (target, sides).
    HIGHEST_OVER = "highest_over"
    # Brisca: the first side to win the target's number of rounds (target).
    FIRST_TO_ROUNDS = "first_to_rounds"
    # Other game, lowest wins: the lowest total once a side reached the target (target).
    LOWEST_AT_LIMIT = "lowest_at_limit"
    # Other game, a fixed number of hands: the highest once they were played (hands).
    HIGHEST_AFTER_HANDS = "highest_after_hands"


@dataclass(frozen=True)
class Won:
    """Why a match was won: the rule and the numbers it was won with, a fact, never words."""

    rule: WinRule
    # The table's target (points, rounds, or the limit) where the rule names it.
    target: int | None = None
    # HIGHEST_OVER: how many sides reached the target in the hand that won it.
    sides: int | None = None
    # HIGHEST_AFTER_HANDS: how many hands had been played.
    hands: int | None = None
    # DECLARED: the game's words for it (a Term of its own).
    said: Term | None = None

    def stored(self) -> dict[str, Any]:
        """As the match row and the JSON export keep it: the rule's code and its numbers (and
        the code of a declared win's words)."""
        numbers = {"target": self.target, "sides": self.sides, "hands": self.hands}
        kept = {"rule": self.rule.value} | {k: v for k, v in numbers.items() if v is not None}
        return kept | ({"said": self.said.code} if self.said is not None else {})

    @classmethod
    def from_stored(cls, stored: Mapping[str, Any] | None) -> Won | None:
        """The fact back from stored(); None for nothing stored or a rule no longer known."""
        if not stored or stored.get("rule") not in WinRule._value2member_map_:
            return None
        said = stored.get("said")
        return cls(
            WinRule(stored["rule"]),
            target=stored.get("target"),
            sides=stored.get("sides"),
            hands=stored.get("hands"),
            said=Term(said) if isinstance(said, str) else None,
        )


class Tie(StrEnum):
    """Why play goes on though the rule's end was reached: sides level where one must lead."""

    # Level at the top past the target (first to the target): total, target.
    LEVEL_PAST_TARGET = "level_past_target"
    # Other game, lowest wins: level at the lowest once a side reached the target: total,
    # target.
    LEVEL_AT_LOWEST = "level_at_lowest"
    # Other game, a fixed number of hands: level at the top once they were played: hands.
    LEVEL_AFTER_HANDS = "level_after_hands"


@dataclass(frozen=True)
class PlayOn:
    """Why play goes on: the tie, the sides in it (their places) and its numbers; worded by
    scorekeeper/words/ with the sides' names."""

    tie: Tie
    sides: tuple[int, ...]
    # The total the sides are level at (the top, or the lowest).
    total: int = 0
    target: int = 0
    hands: int = 0


@dataclass(frozen=True)
class MatchState:
    """The whole sheet worked out: per hand, running totals, who (if anyone) has won."""

    hands: tuple[HandResult, ...]
    # Running total per side after each complete hand (points; rounds won for Brisca).
    running: tuple[tuple[int, ...], ...]
    totals: tuple[int, ...]
    # Index of the winning side, and of the hand after which the rule named it.
    winner: int | None
    won_at_hand: int | None
    # Basra carry-over: points held over into the next hand, and what its majority is worth.
    held_over: int = 0
    next_majority: int | None = None
    # Why the match was won (None while nobody has): the rule and its numbers.
    reason: Won | None = None
    # Why play goes on though a side reached the target (sides level at the top), or None.
    play_on: PlayOn | None = None
    # The hand open for entries by the rules (its number, from 1), or None: a side has won,
    # or a hand's tie waits for the tick that settles it.
    open_hand: int | None = None
    # The index of the hand whose tie waits for the settling tick (HandResult.waiting), if any.
    waiting_at: int | None = None
