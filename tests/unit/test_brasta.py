"""Brasta: the scoring reference line by line, hands and totals below zero, the checks."""

from __future__ import annotations

import pytest

from scorekeeper.games import CountError, Problem, Term, get_game
from scorekeeper.words import why

from .helpers import counted, lines_of, plain, table

BRASTA = get_game("brasta")
ACES, CLUBS, LAST_HAND = Term("aces"), Term("clubs"), Term("last_hand")

# A hand that adds up: 52 cards, 4 aces, 13 clubs, one 2♣, one 10♦, one Last Hand.
FIRST = {"cards": 30, "aces": 3, "clubs": 8, "two_clubs": 1, "last_hand": 1}
SECOND = {"cards": 22, "aces": 1, "clubs": 5, "ten_diamonds": 1}


@pytest.mark.parametrize(
    ("counts", "line", "total"),
    [
        ({"cards": 27}, ("most_cards", Term.of("most_cards.over", num=27), 27, 10), 10),
        ({"cards": 10, "aces": 3}, ("aces", ACES, 3, 15), 15),
        ({"cards": 10, "aces": 4}, ("all_aces", Term("all_aces"), 1, 10), 30),
        ({"cards": 5, "clubs": 1, "two_clubs": 1}, ("two_clubs", "2♣", 1, 10), 10),
        ({"cards": 5, "ten_diamonds": 1}, ("ten_diamonds", "10♦", 1, 10), 10),
        ({"cards": 10, "clubs": 7}, ("most_clubs", Term.of("most_clubs.over", num=7), 7, 10), 10),
        (
            {"cards": 13, "clubs": 13, "two_clubs": 1, "aces": 1},
            ("all_clubs", Term("all_clubs"), 1, 10),
            35,
        ),
        ({"cards": 4, "brastas": 2}, ("brastas", Term("brastas"), 2, 20), 20),
        ({"cards": 2, "double_brastas": 1}, ("double_brastas", Term("double_brastas"), 1, 20), 20),
        ({"cards": 5, "last_hand": 1}, ("last_hand", LAST_HAND, 1, 10), 10),
        ({"cards": 5, "failed_builds": 2}, ("failed_builds", Term("failed_builds"), 2, -20), -20),
        ({"cards": 5, "jack_burns": 1}, ("jack_burns", Term("jack_burns"), 1, -10), -10),
    ],
)
def test_scoring_lines(counts, line, total) -> None:
    worked = BRASTA.calculate(table("brasta"), counts)
    assert line in lines_of(worked)
    assert worked.total == total


def test_all_four_aces_score_30() -> None:
    worked = BRASTA.calculate(table("brasta"), {"cards": 4, "aces": 4})
    assert lines_of(worked) == [("aces", ACES, 4, 20), ("all_aces", Term("all_aces"), 1, 10)]
    assert worked.total == 30


def test_all_13_clubs_score_20_in_all() -> None:
    worked = BRASTA.calculate(
        table("brasta"), {"cards": 13, "clubs": 13, "two_clubs": 1, "aces": 1}
    )
    clubs = [row.points for row in worked.lines if row.key in {"most_clubs", "all_clubs"}]
    assert clubs == [10, 10]
    assert sum(clubs) == 20


def test_a_hand_can_go_negative() -> None:
    worked = BRASTA.calculate(table("brasta"), {"cards": 10, "failed_builds": 2, "jack_burns": 1})
    assert worked.total == -30
    assert lines_of(worked) == [
        ("failed_builds", Term("failed_builds"), 2, -20),
        ("jack_burns", Term("jack_burns"), 1, -10),
    ]


@pytest.mark.parametrize(
    ("counts", "field", "reason"),
    [
        ({"cards": 10, "aces": 5}, "aces", Problem.of("too_many", num=5, what=ACES, most=4)),
        (
            {"cards": 53},
            "cards",
            Problem.of("too_many", num=53, what=Term("cards_captured"), most=52),
        ),
        ({"cards": 20, "clubs": 14}, "clubs", Problem.of("too_many", num=14, what=CLUBS, most=13)),
        (
            {"cards": 10, "failed_builds": -1},
            "failed_builds",
            Problem.of("below", label=Term("failed_builds"), minimum=0),
        ),
        ({"cards": 10, "two_clubs": 1}, "two_clubs", Problem("two_clubs_is_a_club")),
        ({"cards": 13, "clubs": 13, "aces": 1}, "two_clubs", Problem("all_clubs_two")),
        ({"cards": 13, "clubs": 13, "two_clubs": 1}, "aces", Problem("all_clubs_ace")),
        (
            {"cards": 5, "clubs": 5, "aces": 2},
            "cards",
            Problem.of("brasta_cards", num=6, cards=5),
        ),
        (
            {"cards": 5, "brastas": 3},
            "brastas",
            Problem.of("brastas_need_cards", num=3, least=6, cards=5),
        ),
        (
            {"cards": 10, "double_brastas": 3},
            "double_brastas",
            Problem.of("too_many", num=3, what=Term("double_brastas"), most=2),
        ),
        (
            {"cards": 10, "last_hand": 2},
            "last_hand",
            Problem.of("yes_or_no", label=LAST_HAND),
        ),
    ],
)
def test_impossible_counts_name_the_field_and_why(counts, field, reason) -> None:
    with pytest.raises(CountError) as raised:
        BRASTA.calculate(table("brasta"), counts)
    assert raised.value.field == field
    assert raised.value.reason == reason


def test_the_ace_of_clubs_is_both_an_ace_and_a_club() -> None:
    # 5 clubs and 2 aces fit in 6 cards when one ace is the ace of clubs.
    assert BRASTA.calculate(table("brasta"), {"cards": 6, "clubs": 5, "aces": 2}).total == 10


def test_negative_totals_on_the_sheet_and_the_win() -> None:
    tbl = table("brasta", target=201)
    hands = [
        [counted(tbl, cards=10, failed_builds=3), plain(150)],
        [plain(-10), plain(60)],
    ]
    state = BRASTA.state(tbl, hands)
    assert state.hands[0].points == (-30, 150)
    assert state.running == ((-30, 150), (-40, 210))
    assert state.winner == 1
    assert why(state.reason) == "Reached 201 first"


@pytest.mark.parametrize(
    ("second_hand", "winner", "reason"),
    [
        ([plain(20), plain(10)], 0, "Higher of two over 401"),
        ([plain(15), plain(10)], None, ""),
    ],
)
def test_two_over_the_target_at_once(second_hand, winner, reason) -> None:
    tbl = table("brasta")
    state = BRASTA.state(tbl, [[plain(390), plain(395)], second_hand])
    assert state.winner == winner
    assert why(state.reason) == reason


def test_a_hand_that_adds_up_has_no_problems() -> None:
    tbl = table("brasta")
    state = BRASTA.state(tbl, [[counted(tbl, **FIRST), counted(tbl, **SECOND)]])
    assert state.hands[0].points == (55, 15)
    assert state.hands[0].problems == ()
    # Pastura's early victory is not Brasta's.
    assert state.hands[0].early_victory is None
    assert state.next_majority is None


@pytest.mark.parametrize(
    ("first", "second", "problem"),
    [
        ({**FIRST, "clubs": 7}, SECOND, Problem.of("add_up", what=CLUBS, got=12, total=13)),
        (FIRST, {**SECOND, "last_hand": 1}, Problem.of("claimed_by", num=2, what=LAST_HAND)),
        ({**FIRST, "last_hand": 0}, SECOND, Problem.of("unclaimed", what=LAST_HAND)),
        (
            {**FIRST, "cards": 29},
            SECOND,
            Problem.of("add_up", what=Term("cards"), got=51, total=52),
        ),
        (FIRST, {**SECOND, "aces": 2}, Problem.of("add_up", what=ACES, got=5, total=4)),
    ],
)
def test_a_hand_that_does_not_add_up_is_flagged(first, second, problem) -> None:
    tbl = table("brasta")
    state = BRASTA.state(tbl, [[counted(tbl, **first), counted(tbl, **second)]])
    assert state.hands[0].problems == (problem,)
