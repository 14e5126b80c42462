"""Pastura: the calculator line by line, early victory, and the unique-leader win rule."""

from __future__ import annotations

import pytest

from scorekeeper.games import CountError, Problem, Term, get_game
from scorekeeper.words import why

from .helpers import counted, lines_of, plain, table

PASTURA = get_game("pastura")
ACES, JACKS, PASTURAS = Term("aces"), Term("jacks"), Term("pasturas")
MOST_27 = Term.of("most_cards.over", num=27)

# Every scoring card and the most cards in one pile: 3 + 4 + 4 + 2 + 3.
SWEEP = {"cards": 30, "aces": 4, "jacks": 4, "two_clubs": 1, "ten_diamonds": 1}


@pytest.mark.parametrize(
    ("format_key", "counts", "line", "total"),
    [
        ("2", {"cards": 27}, ("most_cards", MOST_27, 27, 3), 3),
        ("2v2", {"cards": 40}, ("most_cards", MOST_27, 40, 3), 3),
        ("2", {"cards": 10, "aces": 2}, ("aces", ACES, 2, 2), 2),
        ("2", {"cards": 10, "jacks": 3}, ("jacks", JACKS, 3, 3), 3),
        ("2", {"cards": 10, "two_clubs": 1}, ("two_clubs", "2♣", 1, 2), 2),
        ("2", {"cards": 10, "ten_diamonds": 1}, ("ten_diamonds", "10♦", 1, 3), 3),
        ("2", {"cards": 10, "pasturas": 3}, ("pasturas", PASTURAS, 3, 3), 3),
        ("3", {"cards": 20, "most_cards": 1}, ("most_cards", Term("most_cards"), 20, 3), 3),
        ("2", SWEEP, ("most_cards", MOST_27, 30, 3), 16),
    ],
)
def test_scoring_lines(format_key, counts, line, total) -> None:
    worked = PASTURA.calculate(table("pastura", format_key), counts)
    assert line in lines_of(worked)
    assert worked.total == total


@pytest.mark.parametrize(
    ("format_key", "counts"),
    [("2", {"cards": 26}), ("3", {"cards": 18, "most_cards": 2})],
)
def test_a_tie_for_most_cards_scores_nobody(format_key, counts) -> None:
    assert PASTURA.calculate(table("pastura", format_key), counts).total == 0


@pytest.mark.parametrize(
    ("format_key", "counts", "field", "reason"),
    [
        ("2", {"cards": 10, "aces": 5}, "aces", Problem.of("too_many", num=5, what=ACES, most=4)),
        (
            "2",
            {"cards": 53},
            "cards",
            Problem.of("too_many", num=53, what=Term("cards_captured"), most=52),
        ),
        ("2", {"two_clubs": 1}, "two_clubs", Problem.of("scoring_cards_over", num=1, cards=0)),
        (
            "2",
            {"cards": 5, "pasturas": 3},
            "pasturas",
            Problem.of("pasturas_need_cards", num=3, least=6, cards=5),
        ),
        (
            "2",
            {"cards": 10, "pasturas": -1},
            "pasturas",
            Problem.of("below", label=PASTURAS, minimum=0),
        ),
        (
            "3",
            {"cards": 17, "most_cards": 1},
            "most_cards",
            Problem.of("too_few_for_most", num=17, least=18),
        ),
        ("3", {"cards": 27, "most_cards": 2}, "most_cards", Problem.of("most_alone", num=27)),
        (
            "3",
            {"cards": 20, "most_cards": 3},
            "most_cards",
            Problem.of("pick_a_choice", label=Term("most_cards")),
        ),
    ],
)
def test_impossible_counts_name_the_field_and_why(format_key, counts, field, reason) -> None:
    with pytest.raises(CountError) as raised:
        PASTURA.calculate(table("pastura", format_key), counts)
    assert raised.value.field == field
    assert raised.value.reason == reason


def test_the_only_side_with_card_points_wins_at_once() -> None:
    tbl = table("pastura")
    state = PASTURA.state(tbl, [[counted(tbl, **SWEEP), counted(tbl, cards=22, pasturas=2)]])
    assert state.hands[0].points == (16, 2)
    assert state.hands[0].early_victory == 0
    assert state.winner == 0
    assert state.won_at_hand == 0
    assert why(state.reason) == "Early victory"


def test_early_victory_beats_a_side_ahead_on_the_sheet() -> None:
    tbl = table("pastura")
    state = PASTURA.state(
        tbl,
        [
            [plain(40), plain(10)],
            [counted(tbl, cards=22, pasturas=3), counted(tbl, **SWEEP)],
        ],
    )
    # Behind and short of 51, side 2 still wins: early victory ignores the totals.
    assert state.totals == (43, 26)
    assert state.hands[1].early_victory == 1
    assert state.winner == 1
    assert why(state.reason) == "Early victory"


def test_early_victory_with_the_cards_split_evenly() -> None:
    tbl = table("pastura")
    hand = [counted(tbl, **{**SWEEP, "cards": 26}), counted(tbl, cards=26)]
    state = PASTURA.state(tbl, [hand])
    assert state.hands[0].points == (13, 0)
    assert state.hands[0].early_victory == 0
    assert state.winner == 0


def test_early_victory_among_three() -> None:
    tbl = table("pastura", "3")
    hand = [
        counted(tbl, cards=12, pasturas=1),
        counted(tbl, **SWEEP, most_cards=1),
        counted(tbl, cards=10),
    ]
    state = PASTURA.state(tbl, [hand])
    assert state.hands[0].early_victory == 1
    assert state.hands[0].problems == ()
    assert state.winner == 1


def test_no_early_victory_when_two_sides_earn_card_points() -> None:
    tbl = table("pastura")
    hand = [counted(tbl, **{**SWEEP, "aces": 3}), counted(tbl, cards=22, aces=1)]
    state = PASTURA.state(tbl, [hand])
    assert state.hands[0].points == (15, 1)
    assert state.hands[0].early_victory is None
    assert state.winner is None


def test_no_early_victory_checked_with_a_plain_entry() -> None:
    tbl = table("pastura")
    state = PASTURA.state(tbl, [[counted(tbl, **SWEEP), plain(0)]])
    assert state.hands[0].points == (16, 0)
    assert state.hands[0].early_victory is None
    assert state.winner is None


def test_tied_leaders_over_51_play_on() -> None:
    tbl = table("pastura")
    hands = [[plain(40), plain(45)], [plain(15), plain(10)]]
    state = PASTURA.state(tbl, hands)
    assert state.totals == (55, 55)
    assert state.winner is None
    state = PASTURA.state(tbl, [*hands, [plain(2), plain(1)]])
    assert state.winner == 0
    assert state.won_at_hand == 2
    assert why(state.reason) == "Higher of two over 51"


def test_unique_leader_among_three_wins_and_tied_leaders_do_not() -> None:
    tbl = table("pastura", "3", target=101)
    assert PASTURA.state(tbl, [[plain(101), plain(101), plain(99)]]).winner is None
    won = PASTURA.state(tbl, [[plain(101), plain(104), plain(99)]])
    assert won.winner == 1
    assert why(won.reason) == "Higher of two over 101"
    alone = PASTURA.state(tbl, [[plain(60), plain(104), plain(99)]])
    assert alone.winner == 1
    assert why(alone.reason) == "Reached 101 first"


def test_a_pastura_hand_that_does_not_add_up_is_flagged() -> None:
    tbl = table("pastura")
    state = PASTURA.state(tbl, [[counted(tbl, **SWEEP), counted(tbl, cards=20, aces=1)]])
    assert state.hands[0].problems == (
        Problem.of("add_up", what=Term("cards"), got=50, total=52),
        Problem.of("add_up", what=ACES, got=5, total=4),
    )
