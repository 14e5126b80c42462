"""Brisca: card points per round, who takes the round, and the match in rounds won."""

from __future__ import annotations

import pytest

from scorekeeper.games import Conflict, CountError, EntryFacts, Problem, Term, get_game
from scorekeeper.words import why

from .helpers import counted, lines_of, plain, table

BRISCA = get_game("brisca")
ACES = Term("aces")
# How a sentence names a side nobody named: by its place ("Side 1").
SIDE_1, SIDE_2 = Term.of("side", number=1), Term.of("side", number=2)


def conflict(*args) -> tuple[Problem, ...] | None:
    """Every reason an entry is refused beside the others' (None: none)."""
    found = BRISCA.entry_conflicts(*args)
    return tuple(found_one.reason for found_one in found) or None


def card_points(total: int) -> Problem:
    """A round whose card points add up to this total, not the deck's 120."""
    return Problem.of("card_points", total=total, deck=120)


@pytest.mark.parametrize(
    ("counts", "line", "total"),
    [
        ({"aces": 2}, ("aces", ACES, 2, 22), 22),
        ({"threes": 3}, ("threes", Term("threes"), 3, 30), 30),
        ({"kings": 4}, ("kings", Term("kings"), 4, 16), 16),
        ({"horses": 1}, ("horses", Term("horses"), 1, 3), 3),
        ({"jacks": 4}, ("jacks", Term("jacks.spanish"), 4, 8), 8),
        (
            {"aces": 4, "threes": 4, "kings": 4, "horses": 4, "jacks": 4},
            ("aces", ACES, 4, 44),
            120,
        ),
    ],
)
def test_card_points_line_by_line(counts, line, total) -> None:
    worked = BRISCA.calculate(table("brisca"), counts)
    assert line in lines_of(worked)
    assert worked.total == total


def test_the_deck_points_are_a_whole_deck_by_calculator() -> None:
    every_card = {key: 4 for key in ("aces", "threes", "kings", "horses", "jacks")}
    assert BRISCA.calculate(table("brisca"), every_card).total == BRISCA.deck_points == 120


@pytest.mark.parametrize(
    ("counts", "field"),
    [({"aces": 5}, "aces"), ({"kings": -1}, "kings"), ({"horses": 9}, "horses")],
)
def test_impossible_counts_name_the_field(counts, field) -> None:
    with pytest.raises(CountError) as raised:
        BRISCA.calculate(table("brisca"), counts)
    assert raised.value.field == field


@pytest.mark.parametrize(
    ("hand", "round_winner", "waiting"),
    [
        ([plain(61), plain(59)], 0, ()),
        ([plain(20), plain(100)], 1, ()),
        ([plain(60), plain(60, last_trick=True)], 1, ()),
        ([plain(60, last_trick=True), plain(60)], 0, ()),
        ([plain(60), plain(60)], None, (0, 1)),
        ([plain(60, last_trick=True), plain(60, last_trick=True)], None, (0, 1)),
    ],
)
def test_who_takes_a_round_of_two(hand, round_winner, waiting) -> None:
    state = BRISCA.state(table("brisca"), [hand])
    assert state.hands[0].round_winner == round_winner
    assert state.hands[0].waiting == waiting
    assert state.hands[0].points == (hand[0].points, hand[1].points)


@pytest.mark.parametrize(
    ("hand", "round_winner", "waiting"),
    [
        ([plain(50), plain(40), plain(30)], 0, ()),
        ([plain(50), plain(50, last_trick=True), plain(20)], 1, ()),
        # The last trick went to a side that isn't level at the top: it breaks nothing.
        ([plain(50), plain(50), plain(20, last_trick=True)], None, (0, 1)),
        ([plain(40), plain(40), plain(40)], None, (0, 1, 2)),
    ],
)
def test_who_takes_a_round_of_three(hand, round_winner, waiting) -> None:
    state = BRISCA.state(table("brisca", "3"), [hand])
    assert state.hands[0].round_winner == round_winner
    assert state.hands[0].waiting == waiting


def test_a_60_60_round_entered_by_calculator_goes_to_the_last_trick() -> None:
    tbl = table("brisca", "2v2")
    half = {"aces": 2, "threes": 2, "kings": 2, "horses": 2, "jacks": 2}
    first = counted(tbl, **half)
    second = EntryFacts(points=60, counts=half, ticks=frozenset({"last_trick"}))
    state = BRISCA.state(tbl, [[first, second]])
    assert state.hands[0].points == (60, 60)
    assert state.hands[0].round_winner == 1
    assert state.hands[0].problems == ()
    assert state.totals == (0, 1)


@pytest.mark.parametrize(
    ("black_hand", "round_winner", "problems"),
    [
        ("on", 1, ()),
        # Without the table rule a black hand is just cards: the points decide.
        ("off", 0, (card_points(100),)),
    ],
)
def test_black_hand_wins_the_round_outright(black_hand, round_winner, problems) -> None:
    tbl = table("brisca", black_hand=black_hand)
    state = BRISCA.state(tbl, [[plain(70), plain(30, black_hand=True)]])
    assert state.hands[0].round_winner == round_winner
    assert state.hands[0].problems == problems


def test_two_black_hands_leave_the_round_undecided() -> None:
    tbl = table("brisca", "3", black_hand="on")
    hand = [plain(40, black_hand=True), plain(40, black_hand=True), plain(40)]
    state = BRISCA.state(tbl, [hand])
    assert state.hands[0].round_winner is None
    assert state.hands[0].problems == (Problem.of("black_hands", num=2),)
    assert state.totals == (0, 0, 0)


@pytest.mark.parametrize("target", [2, 3, 10])
def test_the_match_goes_to_the_first_side_to_win_the_set_rounds(target: int) -> None:
    tbl = table("brisca", "3v3", target=target)
    # Side 1 takes every round but the first; a 60-60 round nobody has settled with the last
    # trick sits in the middle and counts for nobody.
    hands = [[plain(70), plain(50)], [plain(60), plain(60)]]
    hands += [[plain(40), plain(80)]] * target
    state = BRISCA.state(tbl, hands)
    assert state.totals == (1, target)
    assert state.winner == 1
    assert state.won_at_hand == target + 1
    assert why(state.reason) == f"First to {target} rounds"
    assert state.running[:2] == ((1, 0), (1, 0))


def test_no_winner_before_the_set_rounds() -> None:
    tbl = table("brisca")
    state = BRISCA.state(tbl, [[plain(70), plain(50)], [plain(80), plain(40)]])
    assert state.totals == (2, 0)
    assert state.winner is None


def test_an_unfinished_round_counts_for_nobody_yet() -> None:
    tbl = table("brisca")
    state = BRISCA.state(tbl, [[plain(70), plain(50)], [plain(90), None]])
    assert state.hands[1].complete is False
    assert state.hands[1].round_winner is None
    assert state.hands[1].points == (90, None)
    assert state.running == ((1, 0),)
    assert state.totals == (1, 0)


@pytest.mark.parametrize(
    ("hand", "problems"),
    [
        ([plain(70), plain(40)], (card_points(110),)),
        (
            [plain(60, last_trick=True), plain(60, last_trick=True)],
            (Problem.of("last_tricks", num=2),),
        ),
        ([plain(61), plain(59)], ()),
    ],
)
def test_a_round_that_does_not_add_up_is_flagged(hand, problems) -> None:
    assert BRISCA.state(table("brisca"), [hand]).hands[0].problems == problems


def test_calculator_rounds_check_each_rank_too() -> None:
    tbl = table("brisca")
    # 120 in all, yet five aces, two threes and seven horses between the two sides.
    first = counted(tbl, aces=3, threes=2, kings=4, horses=4, jacks=4)
    second = counted(tbl, aces=2, horses=3)
    state = BRISCA.state(tbl, [[first, second]])
    assert state.hands[0].points == (89, 31)
    assert state.hands[0].problems == (
        Problem.of("add_up", what=ACES, got=5, total=4),
        Problem.of("add_up", what=Term("threes"), got=2, total=4),
        Problem.of("add_up", what=Term("horses"), got=7, total=4),
    )


# An entry beside the other sides' entries in the same round.


def test_a_round_past_the_deck_is_refused_naming_the_other_side() -> None:
    two = table("brisca")
    said = conflict(two, [plain(70), None], 1, plain(70))
    assert said == (
        Problem.of(
            "past_the_deck_last", named=((SIDE_1, 70),), points=70, total=140, deck=120, yours=50
        ),
    )
    assert conflict(two, [plain(70), None], 1, plain(50)) is None
    assert conflict(two, [plain(60), None], 1, plain(60)) is None
    # The first entry of a round has nothing beside it.
    assert conflict(two, [None, None], 0, plain(120)) is None


def test_three_sides_refuse_only_past_the_deck_until_the_last_entry() -> None:
    three = table("brisca", "3")
    assert conflict(three, [plain(100), None, None], 1, plain(20)) is None
    assert conflict(three, [plain(100), None, None], 1, plain(30)) == (
        Problem.of("past_the_deck", named=((SIDE_1, 100),), points=30, total=130, deck=120),
    )
    last = conflict(three, [plain(50), plain(40), None], 2, plain(20))
    assert last == (
        Problem.of(
            "past_the_deck_last",
            named=((SIDE_1, 50), (SIDE_2, 40)),
            points=20,
            total=110,
            deck=120,
            yours=30,
        ),
    )


def test_a_black_hand_round_need_not_add_up() -> None:
    black = table("brisca", black_hand="on")
    assert conflict(black, [plain(20)], 1, plain(10, black_hand=True)) is None


def test_counts_past_the_deck_name_the_card() -> None:
    two = table("brisca")
    said = BRISCA.entry_conflicts(two, [counted(two, aces=3)], 1, counted(two, aces=2))
    assert said[0] == Conflict(
        Problem.of("over_the_pack", what=ACES, named=((SIDE_1, 3),), own=2, got=5, total=4),
        "aces",
    )
    # Every line at once: the round's 55 card points are not the deck's 120 either.
    assert said[1].reason == Problem.of(
        "past_the_deck_last", named=((SIDE_1, 33),), points=22, total=55, deck=120, yours=87
    )
