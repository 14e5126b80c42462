"""Tarneeb (طرنيب): the Levant's trick-taking game of two partnerships, a hand scored from the
bid and the tricks the bidders took, played to 41."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .base import (
    CalcField,
    Calculation,
    Conflict,
    EntryFacts,
    HandFacts,
    HandResult,
    Label,
    Problem,
    Said,
    ScoreLine,
    Table,
    TableFormat,
    TableRule,
    Term,
    says,
)
from .calculator import count_field, counted, line, read_counts
from .game import PointsGame, every_side
from .hand_checks import Expected
from .scoring import Scoring, Way, Within

# The words of this game's codes (its Terms, and its Problems), in English as the catalogs
# translate them: scorekeeper/terms.py says them in the reader's language.
WORDS: dict[str, Said] = {
    # NOTE: The name of a card game: the Levant's trick-taking game (طرنيب).
    "game.tarneeb": says("Tarneeb"),
    "bid": says("Bid"),
    "bidders": says("Who bid"),
    "bidders.we": says("We did"),
    "bidders.they": says("They did"),
    "tricks_taken": says("Tricks taken"),
    "hint.tarneeb.tricks": says("Your team's tricks, 0 to 13"),
    "doubled": says("Doubled"),
    # NOTE: Answers to Tarneeb's "Doubled": not doubled, doubled (×2), redoubled (×4).
    "doubled.no": says("No"),
    "doubled.twice": says("Doubled (×2)"),
    "doubled.four": says("Redoubled (×4)"),
    "hint.tarneeb.doubled": says("The bidders' score, made or failed, ×2 or ×4"),
    "rule.egyptian_doubling": says("Egyptian doubling (the bidders' score ×2 or ×4)"),
    "rule.defenders": says("The other team scores its tricks"),
    "rule.defenders.on_fail": says("Only when the bid fails"),
    "rule.defenders.always": says("Always, made or failed"),
    # NOTE: Tarneeb's breakdown lines: the bid (%(bid)d, 7 to 12) made scores the tricks taken.
    "tarneeb.made": says("Bid %(bid)d made: the tricks taken"),
    "tarneeb.failed": says("Bid %(bid)d failed: the bid lost"),
    # NOTE: All 13 tricks on a bid below 13 (kaboot, كبوت).
    "tarneeb.kaboot": says("Kaboot: all 13 tricks"),
    "tarneeb.bid_13_made": says("Bid of 13 made"),
    "tarneeb.bid_13_failed": says("Bid of 13 failed"),
    # NOTE: The bidders' score doubled by %(num)d (2 or 4), Egyptian doubling.
    "tarneeb.doubled": says("Doubled ×%(num)d"),
    "tarneeb.set": says("Their bid of %(bid)d failed: our tricks"),
    "tarneeb.set_13": says("Their bid of 13 failed: twice our tricks"),
    "tarneeb.defended": says("Their bid of %(bid)d made"),
    # NOTE: a phone's record: Tarneeb hands its team bid and made the bid.
    "bids_made": says("Bids made"),
    # NOTE: a phone's record: Tarneeb hands its team took all 13 tricks (kaboot, كبوت).
    "kaboots": says("Kaboots"),
}
PROBLEM_WORDS: dict[str, Said] = {
    "no_such_result": says("No Tarneeb hand gives a team %(points)d."),
    # NOTE: %(side)s is the other team's name, %(theirs)d what it entered for the hand,
    # %(points)d what this phone's team enters; %(why)s says why they can't both stand.
    "one_hand": says(
        "%(side)s entered %(theirs)d; with your %(points)d %(why)s If theirs is wrong, "
        "the host can correct it."
    ),
    # NOTE: said to the host, who writes both teams' cells (%(me)s and %(side)s).
    "one_hand.host": says(
        "%(side)s entered %(theirs)d; with %(points)d for %(me)s %(why)s Make them agree."
    ),
    "why.both_gain": says("both teams gain, and only one team gains a Tarneeb hand."),
    "why.both_lose": says("both teams lose, and only the team that bid can lose a hand."),
    "why.not_one_hand": says("the two can't come from one hand."),
    # NOTE: %(side)s is the other team's name.
    "both_bid": says(
        "%(side)s says it bid too: only one team wins the auction. If theirs is wrong, the "
        "host can correct it."
    ),
    "neither_bid": says(
        "%(side)s says the other team bid too: one of you did. If theirs is wrong, the host "
        "can correct it."
    ),
    "bids_differ": says(
        "%(side)s entered a bid of %(bid)d and you %(own)d: it is one bid. If theirs is "
        "wrong, the host can correct it."
    ),
    "doubling_differs": says(
        "%(side)s entered the doubling otherwise: it is one contract. If theirs is wrong, the "
        "host can correct it."
    ),
    "bid_agreement": says("The teams disagree on who bid, the bid or the doubling"),
    "hand_results": says("%(first)d and %(second)d can't both come from one hand"),
}

TRICKS = 13
# docs/rules/tarneeb.md, "The bid": 7 to 13 tricks.
LOWEST_BID = 7
# docs/rules/tarneeb.md, "Scoring a hand": all 13 tricks on a lower bid (kaboot) score 16; a
# bid of 13 made scores 26, failed costs 16.
KABOOT = 16
ALL_BID = 26
ALL_BID_FAILED = 16
# The calculator's "Who bid": this team or the other.
WE_BID, THEY_BID = 0, 1
# Egyptian doubling: not doubled, doubled (x2), redoubled (x4).
MULTIPLIERS = (1, 2, 4)
# The table rule "defenders": the other team scores only when the bid fails (pagat), or always.
ON_FAIL, ALWAYS = "on_fail", "always"
BID, TRICKS_WORD = Term("bid"), Term("tricks_taken")
BIDDERS_CHOICES: tuple[tuple[int, Label], ...] = (
    (WE_BID, Term("bidders.we")),
    (THEY_BID, Term("bidders.they")),
)
DOUBLED_CHOICES: tuple[tuple[int, Label], ...] = (
    (0, Term("doubled.no")),
    (1, Term("doubled.twice")),
    (2, Term("doubled.four")),
)


def bidders_score(bid: int, tricks: int) -> tuple[str, Term, int]:
    """What the bidders score, undoubled, for taking `tricks` on `bid`: the breakdown line's
    key and label, and the points."""
    # docs/rules/tarneeb.md, "Scoring a hand", pagat's table.
    if bid == TRICKS:
        if tricks == TRICKS:
            return "bid_13_made", Term("tarneeb.bid_13_made"), ALL_BID
        return "bid_13_failed", Term("tarneeb.bid_13_failed"), -ALL_BID_FAILED
    if tricks == TRICKS:
        return "kaboot", Term("tarneeb.kaboot"), KABOOT
    if tricks >= bid:
        # Making the bid scores the tricks taken, not the bid.
        return "made", Term.of("tarneeb.made", bid=bid), tricks
    # A failed bid costs the whole bid, however close it came.
    return "failed", Term.of("tarneeb.failed", bid=bid), -bid


def defenders_score(bid: int, bidders_tricks: int, always: bool) -> int:
    """What the other team scores: its own tricks when the bid fails (twice them after a
    failed 13), and, with the table rule, its tricks when the bid is made too."""
    own = TRICKS - bidders_tricks
    failed = bidders_tricks < bid
    if failed and bid == TRICKS:
        return 2 * own
    return own if failed or always else 0


def _bidders_ways(bid: int) -> tuple[Way, ...]:
    """bidders_score as a table's ways, for a team that bid `bid`: by the tricks it took."""
    we_bid = (Within("bidders", WE_BID, WE_BID), Within("bid", bid, bid))

    def took(low: int, high: int) -> tuple[Within, ...]:
        return (*we_bid, Within("tricks", low, high))

    if bid == TRICKS:
        return (
            Way("bid_13_made", Term("tarneeb.bid_13_made"), "tricks", ALL_BID, when=took(13, 13)),
            Way(
                "bid_13_failed",
                Term("tarneeb.bid_13_failed"),
                "tricks",
                -ALL_BID_FAILED,
                when=took(0, TRICKS - 1),
            ),
        )
    return (
        Way("kaboot", Term("tarneeb.kaboot"), "tricks", KABOOT, when=took(TRICKS, TRICKS)),
        Way(
            "made",
            Term.of("tarneeb.made", bid=bid),
            "tricks",
            each=1,
            per="tricks",
            when=took(bid, TRICKS - 1),
        ),
        Way("failed", Term.of("tarneeb.failed", bid=bid), "tricks", -bid, when=took(0, bid - 1)),
    )


def _defenders_ways(bid: int, always: bool) -> tuple[Way, ...]:
    """defenders_score as a table's ways, for the team that didn't bid: by its own tricks
    (the bid fails when the bidders take fewer than `bid`: when these take 14 - bid or more)."""
    they_bid = (Within("bidders", THEY_BID, THEY_BID), Within("bid", bid, bid))
    set_label = Term("tarneeb.set_13") if bid == TRICKS else Term.of("tarneeb.set", bid=bid)
    return (
        Way(
            "set",
            set_label,
            "tricks",
            each=2 if bid == TRICKS else 1,
            per="tricks",
            when=(*they_bid, Within("tricks", TRICKS + 1 - bid, TRICKS)),
        ),
        Way(
            "defended",
            Term.of("tarneeb.defended", bid=bid),
            "tricks",
            each=int(always),
            per="tricks",
            when=(*they_bid, Within("tricks", 0, TRICKS - bid)),
        ),
    )


def possible_hands(doubling: bool, always: bool) -> frozenset[tuple[int, int]]:
    """Every (bidders, other team) pair of points one hand can give under the table's rules."""
    multipliers = MULTIPLIERS if doubling else (1,)
    return frozenset(
        (mult * bidders_score(bid, tricks)[2], defenders_score(bid, tricks, always))
        for bid in range(LOWEST_BID, TRICKS + 1)
        for tricks in range(TRICKS + 1)
        for mult in multipliers
    )


# Made once: every check of a plain entry asks for its table's set.
POSSIBLE = {
    (doubling, always): possible_hands(doubling, always)
    for doubling in (False, True)
    for always in (False, True)
}


class Tarneeb(PointsGame):
    """Tarneeb's table, scoring table, Egyptian doubling and the checks on a hand."""

    words = WORDS
    problem_words = PROBLEM_WORDS

    key = "tarneeb"
    name = Term("game.tarneeb")
    feats: tuple[tuple[str, Label], ...] = (
        ("bids_made", Term("bids_made")),
        ("kaboots", Term("kaboots")),
    )
    # docs/rules/tarneeb.md, "Table": four players in two partnerships, partners facing.
    formats = (TableFormat("2v2", Term("format.2v2"), sides=2, players_per_side=2),)
    # docs/rules/tarneeb.md, "Target and winning": 31, 41 (the default) or 61.
    targets = (31, 41, 61)
    default_target = 41
    target_unit = "points"
    # A failed bid of 13 redoubled costs 64; a bid of 13 made redoubled scores 104.
    min_points = -ALL_BID_FAILED * MULTIPLIERS[-1]
    max_points = ALL_BID * MULTIPLIERS[-1]
    table_rules = (
        TableRule(
            "doubling",
            Term("rule.egyptian_doubling"),
            (("off", Term("rule.off")), ("on", Term("rule.on"))),
            default="off",
        ),
        TableRule(
            "defenders",
            Term("rule.defenders"),
            (
                (ON_FAIL, Term("rule.defenders.on_fail")),
                (ALWAYS, Term("rule.defenders.always")),
            ),
            default=ON_FAIL,
        ),
    )
    expected = (Expected("tricks", TRICKS_WORD, TRICKS),)

    def calculator_fields(self, table: Table) -> tuple[CalcField, ...]:
        """Who bid, the bid, this team's tricks, and (Egyptian) whether it was doubled."""
        fields = [
            CalcField(
                key="bidders",
                label=Term("bidders"),
                maximum=THEY_BID,
                kind="choice",
                choices=BIDDERS_CHOICES,
            ),
            CalcField(key="bid", label=BID, minimum=LOWEST_BID, maximum=TRICKS),
            count_field("tricks", TRICKS_WORD, TRICKS, Term("hint.tarneeb.tricks")),
        ]
        if self.choice(table, "doubling") == "on":
            fields.append(
                CalcField(
                    key="doubled",
                    label=Term("doubled"),
                    maximum=len(DOUBLED_CHOICES) - 1,
                    kind="choice",
                    choices=DOUBLED_CHOICES,
                    hint=Term("hint.tarneeb.doubled"),
                )
            )
        return tuple(fields)

    def stated_counts(self, table: Table, hand: HandFacts, side: int) -> dict[str, int]:
        """The bid is a fact of the hand both teams see: once one team's calculator has said
        who bid, what and how doubled, the other team's takes it as said (seen from its side)
        and asks only for its own tricks."""
        theirs = every_side(hand, table.sides)[1 - side]
        if theirs is None or theirs.counts is None or "bid" not in theirs.counts:
            return {}
        stated = {
            "bidders": THEY_BID if theirs.counts.get("bidders") == WE_BID else WE_BID,
            "bid": theirs.counts["bid"],
        }
        if self.choice(table, "doubling") == "on":
            stated["doubled"] = theirs.counts.get("doubled", 0)
        return stated

    def calculate(self, table: Table, counts: Mapping[str, int], held_over: int = 0) -> Calculation:
        """This team's points for the hand from the bid and its own tricks."""
        values = read_counts(self.calculator_fields(table), counts)
        bid, tricks = values["bid"], values["tricks"]
        mult = MULTIPLIERS[values.get("doubled", 0)]
        always = self.choice(table, "defenders") == ALWAYS
        lines: list[ScoreLine] = []
        if values["bidders"] == WE_BID:
            key, label, points = bidders_score(bid, tricks)
            lines.append(line(key, label, tricks, points))
            if mult > 1:
                # docs/rules/tarneeb.md, "Egyptian doubling": the bidders' score, won or lost,
                # is doubled (redoubled: four times).
                lines.append(
                    line("doubled", Term.of("tarneeb.doubled", num=mult), mult, points * (mult - 1))
                )
        else:
            their_tricks = TRICKS - tricks
            points = defenders_score(bid, their_tricks, always)
            if their_tricks < bid:
                # A failed 13 gives the other team twice its tricks.
                set_label = (
                    Term("tarneeb.set_13") if bid == TRICKS else Term.of("tarneeb.set", bid=bid)
                )
                lines.append(line("set", set_label, tricks, points))
            else:
                lines.append(line("defended", Term.of("tarneeb.defended", bid=bid), tricks, points))
        # Kept even at 0 points: what the team bid and took is the hand, whatever it scored.
        return Calculation(lines=tuple(lines), total=sum(row.points for row in lines))

    def scoring(self, table: Table, held_over: int = 0) -> Scoring:
        """calculate's lines as a table: the bidders' line for each bid by the tricks taken
        (pagat's table), doubled or redoubled as the contract was; the other team's set or
        defended line; every line kept, even at 0."""
        always = self.choice(table, "defenders") == ALWAYS
        bidders = [way for bid in range(LOWEST_BID, TRICKS + 1) for way in _bidders_ways(bid)]
        doubled = [
            Way(
                "doubled",
                Term.of("tarneeb.doubled", num=MULTIPLIERS[at]),
                shows_value=MULTIPLIERS[at],
                points=way.points * (MULTIPLIERS[at] - 1),
                each=way.each * (MULTIPLIERS[at] - 1),
                per=way.per,
                when=(*way.when, Within("doubled", at, at)),
            )
            for at in range(1, len(MULTIPLIERS))
            for way in bidders
        ]
        defenders = [
            way for bid in range(LOWEST_BID, TRICKS + 1) for way in _defenders_ways(bid, always)
        ]
        return Scoring((tuple(bidders + defenders), tuple(doubled)), keeps_zero=True)

    def feats_of(
        self, table: Table, result: HandResult, facts: EntryFacts | None, at: int
    ) -> dict[str, int]:
        """Bids made (a bid of 13 and a kaboot among them) and kaboots, from the breakdown."""
        breakdown = result.breakdowns[at]
        if breakdown is None:
            return {}
        return {
            "bids_made": int(
                any(row.key in {"made", "kaboot", "bid_13_made"} for row in breakdown.lines)
            ),
            "kaboots": counted(breakdown, "kaboot", "bid_13_made", scoring=True),
        }

    def possible(self, table: Table) -> frozenset[tuple[int, int]]:
        """Every (bidders, other team) pair of points a hand can give at this table."""
        return POSSIBLE[
            self.choice(table, "doubling") == "on", self.choice(table, "defenders") == ALWAYS
        ]

    def hand_fits(self, table: Table, first: int, second: int) -> bool:
        """Whether two teams' points can be one hand's, either team having bid."""
        possible = self.possible(table)
        return (first, second) in possible or (second, first) in possible

    def entry_conflicts(
        self, table: Table, hand: HandFacts, side: int, entry: EntryFacts, me: Label | None = None
    ) -> list[Conflict]:
        """Beside the tricks (13 between the teams): the teams agree on who bid, what and how
        doubled, and the two results can come from one hand: under the table's scoring only
        one team gains."""
        found = super().entry_conflicts(table, hand, side, entry, me)
        if not any(entry.points in pair for pair in self.possible(table)):
            found.append(Conflict(Problem.of("no_such_result", points=entry.points)))
            return found
        cells = every_side(hand, table.sides)
        other = 1 - side
        theirs = cells[other]
        if theirs is None:
            return found
        name = table.side_name(other)
        if entry.counts is not None and theirs.counts is not None:
            disagreement = self._bid_disagreement(entry.counts, theirs.counts, name)
            if disagreement is not None:
                return [*found, Conflict(disagreement, "bidders")]
        if not self.hand_fits(table, entry.points, theirs.points):
            if entry.points > 0 and theirs.points > 0:
                why = Problem("why.both_gain")
            elif entry.points < 0 and theirs.points < 0:
                why = Problem("why.both_lose")
            else:
                why = Problem("why.not_one_hand")
            said = {"side": name, "points": entry.points, "theirs": theirs.points, "why": why}
            if me is None:
                reason = Problem.of("one_hand", **said)
            else:
                reason = Problem.of("one_hand.host", me=me, **said)
            found.append(Conflict(reason))
        return found

    @staticmethod
    def _bid_disagreement(
        mine: Mapping[str, int], theirs: Mapping[str, int], name: Label
    ) -> Problem | None:
        """Why two teams' calculators can't be the same hand's bid (None: they agree)."""
        if mine.get("bidders") == theirs.get("bidders"):
            if mine.get("bidders") == WE_BID:
                return Problem.of("both_bid", side=name)
            return Problem.of("neither_bid", side=name)
        if mine.get("bid") != theirs.get("bid"):
            return Problem.of(
                "bids_differ", side=name, bid=theirs.get("bid", 0), own=mine.get("bid", 0)
            )
        if mine.get("doubled", 0) != theirs.get("doubled", 0):
            return Problem.of("doubling_differs", side=name)
        return None

    def hand_problems(
        self, table: Table, cells: Sequence[EntryFacts], points: Sequence[int]
    ) -> list[Problem]:
        """Tricks add to 13 (calculators on both), the teams agree on the bid, and the two
        results come from one hand."""
        problems = super().hand_problems(table, cells, points)
        first, second = cells
        if first.counts is not None and second.counts is not None:
            if self._bid_disagreement(first.counts, second.counts, "") is not None:
                problems.append(Problem("bid_agreement"))
        if not self.hand_fits(table, points[0], points[1]):
            problems.append(Problem.of("hand_results", first=points[0], second=points[1]))
        return problems


TARNEEB_GAME = Tarneeb()
