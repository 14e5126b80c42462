"""Basra: the calculator line by line, the carried-over majority, the win rule, the checks."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.games import (
    Aim,
    CountError,
    EntryFacts,
    Goal,
    PlayOn,
    Problem,
    Term,
    Tie,
    get_game,
)
from scorekeeper.games.base import Standing, Table
from scorekeeper.words import why

from .helpers import counted, lines_of, plain, play_on_said, table

BASRA = get_game("basra")
ACES, JACKS = Term("aces"), Term("jacks")
MAJORITY = Term.of("majority.cards", num=27)

# Alice and Ben's worked hand (docs/rules/basra.md, "Worked hand").
ALICE = {"cards": 30, "aces": 3, "jacks": 2, "ten_diamonds": 1, "basras": 1}
BEN = {"cards": 22, "aces": 1, "jacks": 2, "two_clubs": 1}


def split(cards_first: int, **rules: Any) -> list[EntryFacts]:
    """A 2-sided hand by calculator where only the card counts matter (no scoring cards)."""
    tbl = table("basra", **rules)
    return [counted(tbl, cards=cards_first), counted(tbl, cards=52 - cards_first)]


def test_worked_hand_from_the_rule_text() -> None:
    tbl = table("basra")
    alice = BASRA.calculate(tbl, ALICE)
    ben = BASRA.calculate(tbl, BEN)
    assert alice.total == 48
    assert ben.total == 5
    assert alice.total + ben.total == 53
    assert lines_of(alice) == [
        ("majority", MAJORITY, 30, 30),
        ("aces", ACES, 3, 3),
        ("jacks", JACKS, 2, 2),
        ("ten_diamonds", "10♦", 1, 3),
        ("basras", Term("basras"), 1, 10),
    ]
    assert lines_of(ben) == [
        ("aces", ACES, 1, 1),
        ("jacks", JACKS, 2, 2),
        ("two_clubs", "2♣", 1, 2),
    ]


def test_worked_hand_through_the_sheet_adds_up_without_problems() -> None:
    tbl = table("basra")
    state = BASRA.state(tbl, [[counted(tbl, **ALICE), counted(tbl, **BEN)]])
    assert state.hands[0].points == (48, 5)
    assert state.hands[0].problems == ()
    assert state.totals == (48, 5)
    assert state.winner is None


@pytest.mark.parametrize(
    ("format_key", "rules", "counts", "held_over", "line", "total"),
    [
        ("2", {}, {"cards": 27}, 0, ("majority", MAJORITY, 27, 30), 30),
        (
            "2",
            {},
            {"cards": 27},
            30,
            ("majority", Term.of("majority.cards_held", num=30, cards=27), 27, 60),
            60,
        ),
        (
            "2",
            {},
            {"cards": 40},
            60,
            ("majority", Term.of("majority.cards_held", num=60, cards=27), 40, 90),
            90,
        ),
        ("2", {}, {"cards": 10, "aces": 4}, 0, ("aces", ACES, 4, 4), 4),
        ("2", {}, {"cards": 10, "jacks": 3}, 0, ("jacks", JACKS, 3, 3), 3),
        ("2", {}, {"cards": 10, "two_clubs": 1}, 0, ("two_clubs", "2♣", 1, 2), 2),
        ("2", {}, {"cards": 10, "ten_diamonds": 1}, 0, ("ten_diamonds", "10♦", 1, 3), 3),
        ("2", {}, {"cards": 10, "basras": 2}, 0, ("basras", Term("basras"), 2, 20), 20),
        (
            "2v2",
            {},
            {"cards": 27, "basras": 1},
            0,
            ("majority", MAJORITY, 27, 30),
            40,
        ),
        (
            "2",
            {"double_basra": "on"},
            {"cards": 4, "jacks": 2, "double_basras": 1},
            0,
            ("double_basras", Term("double_basras"), 1, 20),
            22,
        ),
        (
            "2",
            {"basra_value": "by_card"},
            {"cards": 6, "basra_7": 1},
            0,
            ("basra_7", Term.of("basras_with.rank", rank=7), 1, 14),
            14,
        ),
        (
            "2",
            {"basra_value": "by_card"},
            {"cards": 6, "basra_picture": 1},
            0,
            ("basra_picture", Term("basras_with.picture"), 1, 20),
            20,
        ),
        (
            "2",
            {"basra_value": "by_card"},
            {"cards": 6, "basra_ace": 2},
            0,
            ("basra_ace", Term("basras_with.ace"), 2, 4),
            4,
        ),
        # The seven-of-diamonds variant changes what is a basra at the table, not its worth.
        (
            "2",
            {"seven_diamonds": "other"},
            {"cards": 4, "basras": 1},
            0,
            ("basras", Term("basras"), 1, 10),
            10,
        ),
        (
            "3",
            {},
            {"cards": 20, "most_cards": 1},
            0,
            ("majority", Term("majority.most"), 20, 30),
            30,
        ),
        (
            "3",
            {},
            {"cards": 20, "most_cards": 1},
            30,
            ("majority", Term.of("majority.most_held", num=30), 20, 60),
            60,
        ),
    ],
)
def test_scoring_lines(format_key, rules, counts, held_over, line, total) -> None:
    worked = BASRA.calculate(table("basra", format_key, **rules), counts, held_over)
    assert line in lines_of(worked)
    assert worked.total == total


@pytest.mark.parametrize(
    ("format_key", "counts"),
    [
        ("2", {"cards": 26}),
        ("2", {"cards": 25}),
        ("3", {"cards": 18, "most_cards": 2}),
        ("3", {"cards": 17, "most_cards": 0}),
    ],
)
def test_no_majority_scores_nothing(format_key, counts) -> None:
    worked = BASRA.calculate(table("basra", format_key), counts, 30)
    assert worked.total == 0
    assert worked.lines == ()


def test_calculator_fields_follow_the_table_rules() -> None:
    def keys(format_key: str = "2", **rules: Any) -> list[str]:
        return [f.key for f in BASRA.calculator_fields(table("basra", format_key, **rules))]

    assert keys() == ["cards", "aces", "jacks", "two_clubs", "ten_diamonds", "basras"]
    assert keys(double_basra="on")[-1] == "double_basras"
    by_card = keys(basra_value="by_card")
    assert "basras" not in by_card
    assert by_card[5:] == [
        "basra_ace",
        *(f"basra_{rank}" for rank in range(2, 11)),
        "basra_picture",
    ]
    assert keys("3")[:2] == ["cards", "most_cards"]
    most = BASRA.calculator_fields(table("basra", "3"))[1]
    assert most.kind == "choice"
    assert most.choices == (
        (0, Term("most_cards.no")),
        (1, Term("most_cards.alone")),
        (2, Term("most_cards.tied")),
    )


@pytest.mark.parametrize(
    ("format_key", "rules", "counts", "field"),
    [
        ("2", {}, {"cards": 10, "aces": 5}, "aces"),
        ("2", {}, {"cards": 53}, "cards"),
        ("2", {}, {"cards": -1}, "cards"),
        ("2", {}, {"cards": 10, "jacks": -2}, "jacks"),
        ("2", {}, {"two_clubs": 1}, "two_clubs"),
        ("2", {}, {"cards": 10, "two_clubs": 2}, "two_clubs"),
        ("2", {}, {"cards": 6, "aces": 4, "jacks": 4}, "jacks"),
        ("2", {}, {"cards": 1, "basras": 1}, "basras"),
        ("2", {}, {"cards": 52, "basras": 25}, "basras"),
        (
            "2",
            {"double_basra": "on"},
            {"cards": 10, "jacks": 1, "double_basras": 1},
            "double_basras",
        ),
        ("2", {"basra_value": "by_card"}, {"cards": 40, "basra_7": 5}, "basra_7"),
        ("3", {}, {"cards": 10, "most_cards": 1}, "most_cards"),
        ("3", {}, {"cards": 30, "most_cards": 2}, "most_cards"),
        ("3", {}, {"cards": 20, "most_cards": 3}, "most_cards"),
    ],
)
def test_impossible_counts_name_the_field(format_key, rules, counts, field) -> None:
    with pytest.raises(CountError) as raised:
        BASRA.calculate(table("basra", format_key, **rules), counts)
    assert raised.value.field == field


def refused(tbl: Table, counts: dict[str, int]) -> Problem:
    """Why the calculator refuses these counts (a Problem, worded by scorekeeper/terms.py)."""
    with pytest.raises(CountError) as raised:
        BASRA.calculate(tbl, counts)
    return raised.value.reason


def test_impossible_counts_say_what_and_how_many() -> None:
    tbl = table("basra")
    assert refused(tbl, {"cards": 10, "aces": 5}) == Problem.of(
        "too_many", num=5, what=ACES, most=4
    )
    assert refused(tbl, {"cards": 53}) == Problem.of(
        "too_many", num=53, what=Term("cards_captured"), most=52
    )
    assert refused(tbl, {"two_clubs": 1}) == Problem.of("scoring_cards_over", num=1, cards=0)
    assert refused(tbl, {"cards": 0, "basras": 1}) == Problem.of(
        "basras_need_cards", num=1, least=2, cards=0
    )
    assert refused(tbl, {"cards": 1, "basras": 3}) == Problem.of(
        "basras_need_cards", num=3, least=6, cards=1
    )
    by_card = table("basra", basra_value="by_card")
    seven_ranks = {f"basra_{rank}": 4 for rank in range(2, 9)}
    assert refused(by_card, {"cards": 52, **seven_ranks}) == Problem.of(
        "basras_in_hand", num=28, plays=24
    )
    doubles = table("basra", double_basra="on")
    assert refused(doubles, {"cards": 10, "jacks": 1, "double_basras": 1}) == Problem.of(
        "double_basra_jacks", jacks=1
    )


def test_a_26_26_split_holds_the_majority_over_to_the_next_hand() -> None:
    tbl = table("basra")
    first = split(26)
    second = [counted(tbl, 30, cards=30), counted(tbl, 30, cards=22)]
    after_tie = BASRA.state(tbl, [first])
    assert after_tie.hands[0].points == (0, 0)
    assert after_tie.held_over == 30
    assert after_tie.next_majority == 60

    state = BASRA.state(tbl, [first, second])
    assert state.hands[0].majority_worth == 30
    assert state.hands[1].majority_worth == 60
    assert state.hands[1].points == (60, 0)
    assert state.totals == (60, 0)
    # Taken: nothing is held over any more.
    assert state.held_over == 0
    assert state.next_majority == 30


@pytest.mark.parametrize(("carry_over", "worth"), [("stack", 90), ("lapse", 60)])
def test_a_second_tie_in_a_row_stacks_or_lapses(carry_over: str, worth: int) -> None:
    tbl = table("basra", carry_over=carry_over)
    hands = [split(26, carry_over=carry_over), split(26, carry_over=carry_over), split(27)]
    state = BASRA.state(tbl, hands)
    assert [hand.majority_worth for hand in state.hands] == [30, 60, worth]
    # What each hand's calculator adds to its majority: held over going into that hand.
    assert [hand.held_over for hand in state.hands] == [0, 30, worth - 30]
    assert state.hands[2].points == (worth, 0)
    assert state.hands[2].breakdowns[0].lines[0].label == Term.of(
        "majority.cards_held", num=worth - 30, cards=27
    )


def test_lapse_never_holds_more_than_30() -> None:
    tbl = table("basra", carry_over="lapse")
    state = BASRA.state(tbl, [split(26), split(26), split(26)])
    assert state.held_over == 30
    assert state.next_majority == 60


def test_a_plain_entry_ticked_even_split_holds_the_majority_too() -> None:
    tbl = table("basra")
    tied = [plain(4, even_split=True), plain(9)]
    state = BASRA.state(tbl, [tied, [counted(tbl, 30, cards=27), plain(2)]])
    assert state.hands[1].majority_worth == 60
    assert state.hands[1].points == (60, 2)
    assert state.totals == (64, 11)


def test_an_incomplete_tied_hand_holds_nothing_yet() -> None:
    tbl = table("basra")
    state = BASRA.state(tbl, [[counted(tbl, cards=26), None]])
    assert state.hands[0].complete is False
    assert state.hands[0].points == (0, None)
    assert state.held_over == 0
    assert state.running == ()
    assert state.totals == (0, 0)


def test_correcting_an_earlier_tie_away_changes_the_later_majority() -> None:
    tbl = table("basra")
    later = [counted(tbl, 30, cards=30, aces=2), counted(tbl, 30, cards=22)]
    tied = BASRA.state(tbl, [split(26), later])
    assert tied.hands[1].points == (62, 0)
    assert tied.totals == (62, 0)

    # The host corrects the first hand to 27-25: no tie, so the second majority is only 30,
    # even though the second hand's stored points still say 62.
    corrected = BASRA.state(tbl, [split(27), later])
    assert corrected.hands[1].majority_worth == 30
    assert corrected.hands[1].points == (32, 0)
    assert corrected.totals == (30 + 32, 0)


@pytest.mark.parametrize(
    ("three_tie", "held", "next_worth"),
    [("held", 30, 60), ("nobody", 0, 30)],
)
def test_three_players_tied_for_most(three_tie: str, held: int, next_worth: int) -> None:
    tbl = table("basra", "3", three_tie=three_tie)
    tie = [
        counted(tbl, cards=20, most_cards=2),
        counted(tbl, cards=20, most_cards=2),
        counted(tbl, cards=12, aces=4, jacks=4, two_clubs=1, ten_diamonds=1),
    ]
    after = [
        counted(tbl, held, cards=22, most_cards=1),
        counted(tbl, held, cards=15),
        counted(tbl, held, cards=15),
    ]
    state = BASRA.state(tbl, [tie])
    assert state.hands[0].points == (0, 0, 13)
    assert state.hands[0].problems == ()
    assert state.held_over == held
    assert state.next_majority == next_worth
    state = BASRA.state(tbl, [tie, after])
    assert state.hands[1].points == (next_worth, 0, 0)


def test_three_players_plain_tick_counts_as_a_tie() -> None:
    tbl = table("basra", "3")
    state = BASRA.state(tbl, [[plain(3, even_split=True), plain(4), plain(2)]])
    assert state.held_over == 30


def test_two_sides_over_101_in_the_same_hand_the_higher_wins() -> None:
    tbl = table("basra")
    state = BASRA.state(tbl, [[plain(90), plain(95)], [plain(20), plain(9)]])
    assert state.totals == (110, 104)
    assert state.winner == 0
    assert state.won_at_hand == 1
    assert why(state.reason) == "Higher of two over 101"


def test_level_over_the_target_plays_on_and_the_next_hand_decides() -> None:
    tbl = table("basra")
    level = [[plain(95), plain(90)], [plain(10), plain(15)]]
    state = BASRA.state(tbl, level)
    assert state.totals == (105, 105)
    assert state.winner is None
    state = BASRA.state(tbl, [*level, [plain(3), plain(8)]])
    assert state.winner == 1
    assert state.won_at_hand == 2


def test_the_first_side_over_the_target_keeps_the_win() -> None:
    tbl = table("basra", target=121)
    hands = [[plain(121), plain(0)], [plain(0), plain(200)]]
    state = BASRA.state(tbl, hands)
    assert state.winner == 0
    assert state.won_at_hand == 0
    assert why(state.reason) == "Reached 121 first"
    assert state.running == ((121, 0), (121, 200))


def test_calculator_points_are_re_derived_not_read_back() -> None:
    tbl = table("basra")
    stale = EntryFacts(points=999, counts=ALICE)
    state = BASRA.state(tbl, [[stale, plain(5)]])
    assert state.hands[0].points == (48, 5)
    assert state.hands[0].breakdowns[0].total == 48
    assert state.hands[0].breakdowns[1] is None


@pytest.mark.parametrize(
    ("alice", "ben", "problem"),
    [
        ({**ALICE, "cards": 28}, BEN, Problem.of("add_up", what=Term("cards"), got=50, total=52)),
        ({**ALICE, "aces": 4}, BEN, Problem.of("add_up", what=ACES, got=5, total=4)),
        ({**ALICE, "jacks": 1}, BEN, Problem.of("add_up", what=JACKS, got=3, total=4)),
        ({**ALICE, "two_clubs": 1}, BEN, Problem.of("claimed_by", num=2, what="2♣")),
        (ALICE, {**BEN, "two_clubs": 0}, Problem.of("unclaimed", what="2♣")),
        ({**ALICE, "ten_diamonds": 0}, BEN, Problem.of("unclaimed", what="10♦")),
    ],
)
def test_a_hand_that_does_not_add_up_is_flagged(alice, ben, problem) -> None:
    tbl = table("basra")
    state = BASRA.state(tbl, [[counted(tbl, **alice), counted(tbl, **ben)]])
    assert state.hands[0].problems == (problem,)


def test_no_cross_check_when_a_side_entered_a_plain_total() -> None:
    tbl = table("basra")
    state = BASRA.state(tbl, [[counted(tbl, **{**ALICE, "aces": 4}), plain(5)]])
    assert state.hands[0].problems == ()


def test_three_players_most_cards_claims_must_match_the_counts() -> None:
    tbl = table("basra", "3")
    hand = [
        counted(tbl, cards=20, most_cards=1),
        counted(tbl, cards=20, most_cards=0),
        counted(tbl, cards=12, aces=4, jacks=4, two_clubs=1, ten_diamonds=1),
    ]
    state = BASRA.state(tbl, [hand])
    assert state.hands[0].problems == (Problem.of("most_cards_claims", counts=(20, 20, 12)),)


def test_stored_counts_that_no_longer_fit_keep_the_total_and_say_why() -> None:
    tbl = table("basra")
    broken = EntryFacts(points=7, counts={"cards": 10, "aces": 5})
    state = BASRA.state(tbl, [[broken, plain(3)]])
    assert state.hands[0].points == (7, 3)
    too_many = Problem.of("too_many", num=5, what=ACES, most=4)
    assert state.hands[0].problems == (
        Problem.of("side_counts", side=Term.of("side", number=1), problem=too_many),
    )


@st.composite
def ordinary_hands(draw: st.DrawFn) -> tuple[dict[str, int], dict[str, int], int]:
    """Two piles that share the pack as a real hand does, and the basras made in it."""
    aces = draw(st.integers(0, 4))
    jacks = draw(st.integers(0, 4))
    two_clubs = draw(st.integers(0, 1))
    ten_diamonds = draw(st.integers(0, 1))
    basras = (draw(st.integers(0, 6)), draw(st.integers(0, 6)))
    first_least = max(aces + jacks + two_clubs + ten_diamonds, 2 * basras[0])
    second_least = max(8 - aces - jacks + 2 - two_clubs - ten_diamonds, 2 * basras[1])
    cards = draw(st.integers(first_least, 52 - second_least).filter(lambda n: n != 26))
    first = {
        "cards": cards,
        "aces": aces,
        "jacks": jacks,
        "two_clubs": two_clubs,
        "ten_diamonds": ten_diamonds,
        "basras": basras[0],
    }
    second = {
        "cards": 52 - cards,
        "aces": 4 - aces,
        "jacks": 4 - jacks,
        "two_clubs": 1 - two_clubs,
        "ten_diamonds": 1 - ten_diamonds,
        "basras": basras[1],
    }
    return first, second, sum(basras)


@given(ordinary_hands())
def test_43_points_are_on_the_table_every_ordinary_hand(hand) -> None:
    # docs/rules/basra.md, "Scoring a hand": an ordinary hand puts 43 points on the table,
    # and each basra adds 10.
    first, second, basras = hand
    tbl = table("basra")
    state = BASRA.state(tbl, [[counted(tbl, **first), counted(tbl, **second)]])
    assert sum(state.totals) == 43 + 10 * basras
    assert state.hands[0].problems == ()


# Where the sides stand, and why play goes on.


def test_level_past_the_target_says_why_play_goes_on() -> None:
    state = BASRA.state(table("basra"), [[plain(60), plain(60)], [plain(41), plain(41)]])
    assert state.winner is None
    assert (
        play_on_said(state)
        == "Side 1 and Side 2 are level at 101, past 101: play on until the tie breaks."
    )
    assert state.play_on == PlayOn(Tie.LEVEL_PAST_TARGET, (0, 1), total=101, target=101)
    ahead = BASRA.state(table("basra"), [[plain(60), plain(50)]])
    assert ahead.play_on is None and play_on_said(ahead) == ""


def test_standing_says_who_leads_by_how_much_and_what_is_left() -> None:
    tbl = table("basra")

    def after(*hands: tuple[int, int]):
        return BASRA.standing(tbl, BASRA.state(tbl, [[plain(a), plain(b)] for a, b in hands]))

    # A target to reach: points to go, and no distance to a limit (that is a limit's, lowest wins).
    assert after((80, 65)) == Standing((0,), 15, (21, 36), Goal(Aim.POINTS, 101), to_limit=())
    assert after((70, 70)) == Standing((0, 1), 0, (31, 31), Goal(Aim.POINTS, 101), to_limit=())
    assert after((60, 45), (50, 45)) == Standing((0,), 20, (0, 11), Goal(Aim.POINTS, 101))
