"""Escoba: the rule text's worked hands, the scoring table line by line, the setenta methods and
bonus points, the checks across sides, the win rule; Hypothesis deals checked against the pack."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.games import CountError, EntryFacts, PlayOn, Problem, Term, Tie, WinRule, Won
from scorekeeper.games.escoba import ESCOBA_GAME as ESCOBA

from .deals import counts_of, deals, most, primiera_of, ties
from .helpers import counted_by, lines_of, plain, table_for

VELO, OROS, ESCOBAS = Term("velo"), Term("oros"), Term("escobas")
MOST_CARDS = Term.of("most_cards.over", num=21)
MOST_OROS = Term.of("most_oros.over", num=6)
SETENTA_SEVENS = Term.of("setenta.sevens_over", num=3)


def tbl(format_key: str = "2", target: int | None = None, **rules: str):
    return table_for(ESCOBA, format_key, target, **rules)


def entry(table, **counts: int) -> EntryFacts:
    return counted_by(ESCOBA, table, **counts)


def hand_of(table, *sides: dict[str, int]) -> list[EntryFacts]:
    return [entry(table, **counts) for counts in sides]


def worked(table, *sides: dict[str, int]):
    """One hand through the sheet: its points per side and what it flags."""
    result = ESCOBA.state(table, [hand_of(table, *sides)]).hands[0]
    return result.points, result.problems


# escoba.txt, section 5: the worked hands, each side's counts as its calculator takes them.
E1_A = {"cards": 23, "coins": 6, "seven_coins": 1, "sevens": 3, "escobas": 2}
E1_B = {"cards": 17, "coins": 4, "sevens": 1, "escobas": 1}


def test_e1_plain_hand() -> None:
    table = tbl()
    a = ESCOBA.calculate(table, E1_A)
    assert lines_of(a) == [
        ("escobas", ESCOBAS, 2, 2),
        ("most_cards", MOST_CARDS, 23, 1),
        ("most_coins", MOST_OROS, 6, 1),
        ("seven_coins", VELO, 1, 1),
        ("setenta", SETENTA_SEVENS, 3, 1),
    ]
    assert worked(table, E1_A, E1_B) == ((6, 1), ())
    # The points check: 7 = the four fixed points + three escobas.
    assert 6 + 1 == 4 + 3


def test_e2_every_tie_scores_nobody() -> None:
    a = {"cards": 20, "coins": 5, "sevens": 2, "escobas": 1}
    b = {"cards": 20, "coins": 5, "sevens": 2, "seven_coins": 1}
    assert worked(tbl(), a, b) == ((1, 1), ())


# E3: A holds the sevens of oros, copas and espadas, its best basto a king; B the 7 of bastos
# and the sixes of oros, copas and espadas.
E3_A = {"cards": 22, "coins": 5, "sevens": 3, "seven_coins": 1}
E3_B = {"cards": 18, "coins": 5, "sevens": 1, "escobas": 1}
E3_A_BEST = {"best_coins": 7, "best_cups": 7, "best_swords": 7, "best_clubs": 10}
E3_B_BEST = {"best_coins": 6, "best_cups": 6, "best_swords": 6, "best_clubs": 7}


@pytest.mark.parametrize(
    ("setenta", "extra_a", "extra_b", "points"),
    [
        ("sevens", {}, {}, (3, 1)),
        (
            "cascade",
            {"sixes": 1, "aces": 2, "fives": 2},
            {"sixes": 3, "aces": 2, "fives": 2},
            (3, 1),
        ),
        # Method (c): A 21+21+21+10 = 73, B 21+18+18+18 = 75, so B takes it.
        ("primera", {**E3_A_BEST, "setenta": 0}, {**E3_B_BEST, "setenta": 1}, (2, 2)),
    ],
)
def test_e3_the_methods_disagree(setenta, extra_a, extra_b, points) -> None:
    table = tbl(setenta=setenta)
    assert worked(table, {**E3_A, **extra_a}, {**E3_B, **extra_b}) == (points, ())


def test_e3_primera_totals_are_shown_on_the_line() -> None:
    table = tbl(setenta="primera")
    b = ESCOBA.calculate(table, {**E3_B, **E3_B_BEST, "setenta": 1})
    assert ("setenta", Term("primera"), 75, 1) in lines_of(b)


# E4: A has no bastos at all; B has every basto, so the 7, and pictures and 2s elsewhere.
E4_A = {"cards": 19, "coins": 6, "sevens": 3, "seven_coins": 1}
E4_B = {"cards": 21, "coins": 4, "sevens": 1, "escobas": 1}


def test_e4_a_side_missing_a_suit_cannot_make_the_primera() -> None:
    table = tbl(setenta="primera")
    a = {**E4_A, "best_coins": 7, "best_cups": 7, "best_swords": 7, "best_clubs": 0}
    b = {**E4_B, "best_coins": 2, "best_cups": 2, "best_swords": 10, "best_clubs": 7, "setenta": 1}
    assert worked(table, a, b) == ((2, 3), ())
    # Answering that A took it is refused: it has no basto.
    with pytest.raises(CountError) as raised:
        ESCOBA.calculate(table, {**a, "setenta": 1})
    assert raised.value.field == "setenta"
    assert raised.value.reason == Problem("primiera_missing_suit")


def test_e4_by_most_sevens() -> None:
    assert worked(tbl(), E4_A, E4_B) == ((3, 2), ())


E5_A = {"cards": 31, "coins": 10, "sevens": 4, "seven_coins": 1, "escobas": 3}
E5_B = {"cards": 9}


@pytest.mark.parametrize(("bonus", "points"), [("off", (7, 0)), ("on", (10, 0))])
def test_e5_clean_sweep_with_and_without_the_bonus(bonus, points) -> None:
    assert worked(tbl(bonus=bonus), E5_A, E5_B) == (points, ())


def test_e5_bonus_lines() -> None:
    a = ESCOBA.calculate(tbl(bonus="on"), E5_A)
    assert lines_of(a) == [
        ("escobas", ESCOBAS, 3, 3),
        ("most_cards", Term.of("bonus.cards", num=31), 31, 2),
        ("most_coins", Term("bonus.oros"), 10, 2),
        ("all_sevens", Term("bonus.sevens"), 4, 3),
    ]


@pytest.mark.parametrize(
    ("opening_escoba", "a_escobas", "b_escobas", "points", "hint"),
    [
        # B dealt: the opening 15 is B's escoba (pagat), with one more later.
        ("dealer", 0, 2, (3, 2), Term("hint.escoba.escobas.dealer")),
        # Where el mano takes it, that escoba is A's.
        ("mano", 1, 1, (4, 1), Term("hint.escoba.escobas.mano")),
    ],
)
def test_e6_opening_table_escoba(opening_escoba, a_escobas, b_escobas, points, hint) -> None:
    table = tbl(opening_escoba=opening_escoba)
    a = {"cards": 21, "coins": 6, "sevens": 2, "seven_coins": 1, "escobas": a_escobas}
    b = {"cards": 19, "coins": 4, "sevens": 2, "escobas": b_escobas}
    assert worked(table, a, b) == (points, ())
    escobas = next(f for f in ESCOBA.calculator_fields(table) if f.key == "escobas")
    assert escobas.hint == hint


E7 = (
    {"cards": 16, "coins": 4, "sevens": 2, "most_cards": 1, "most_coins": 2, "setenta": 1},
    {"cards": 14, "coins": 4, "sevens": 1, "seven_coins": 1, "escobas": 1, "most_coins": 2},
    {"cards": 10, "coins": 2, "sevens": 1, "escobas": 2},
)


def test_e7_three_players() -> None:
    assert worked(tbl("3"), *E7) == ((2, 2, 2), ())


def test_e7_a_wrong_answer_is_flagged() -> None:
    wrong = ({**E7[0], "most_coins": 1}, {**E7[1], "most_coins": 0}, E7[2])
    _points, problems = worked(tbl("3"), *wrong)
    assert problems == (Problem.of("contest_answers", what=Term("most_oros")),)


def test_e8_level_over_the_target_plays_on() -> None:
    table = tbl(target=21)
    state = ESCOBA.state(table, [[plain(19), plain(18)], [plain(3), plain(4)]])
    assert state.totals == (22, 22)
    assert state.winner is None
    assert state.play_on == PlayOn(Tie.LEVEL_PAST_TARGET, (0, 1), total=22, target=21)
    # The next hand decides.
    state = ESCOBA.state(
        table, [[plain(19), plain(18)], [plain(3), plain(4)], [plain(1), plain(2)]]
    )
    assert (state.winner, state.reason) == (1, Won(WinRule.HIGHEST_OVER, target=21, sides=2))


# E8's hand by calculator: A oros, the velo and an escoba (3); B cards, the setenta and two
# escobas (4).
E8_A = {"cards": 19, "coins": 6, "sevens": 1, "seven_coins": 1, "escobas": 1}
E8_B = {"cards": 21, "coins": 4, "sevens": 3, "escobas": 2}


@pytest.mark.parametrize(
    ("order", "winner", "reason"),
    [
        # Escobas take both to 20; the cards take B to 21 first.
        ("escobas_cards", 1, Won(WinRule.COUNTED_FIRST, target=21)),
        # playjoy's order: the oros take A to 21 first.
        ("escobas_oros", 0, Won(WinRule.COUNTED_FIRST, target=21)),
        ("off", None, None),
    ],
)
def test_e8_first_to_the_target_while_counting(order, winner, reason) -> None:
    table = tbl(target=21, count_to_target=order)
    state = ESCOBA.state(table, [[plain(19), plain(18)], hand_of(table, E8_A, E8_B)])
    assert state.totals == (22, 22)
    assert (state.winner, state.reason) == (winner, reason)


def test_counting_to_the_target_needs_every_side_by_calculator() -> None:
    table = tbl(target=21, count_to_target="escobas_cards")
    hand = [entry(table, **E8_A), plain(4)]
    state = ESCOBA.state(table, [[plain(19), plain(18)], hand])
    assert (state.winner, state.totals) == (None, (22, 22))


def test_the_winner_is_named_only_after_a_hand_is_complete() -> None:
    state = ESCOBA.state(tbl(), [[plain(25)]])
    assert state.winner is None
    state = ESCOBA.state(tbl(), [[plain(25), plain(3)]])
    assert (state.winner, state.reason) == (0, Won(WinRule.REACHED_FIRST, target=21))


@pytest.mark.parametrize(
    ("format_key", "rules", "counts", "line", "total"),
    [
        ("2", {}, {"cards": 21}, ("most_cards", MOST_CARDS, 21, 1), 1),
        ("2", {}, {"cards": 20}, None, 0),
        ("2", {}, {"cards": 6, "coins": 6}, ("most_coins", MOST_OROS, 6, 1), 1),
        ("2", {}, {"cards": 5, "coins": 5}, None, 0),
        (
            "2",
            {},
            {"cards": 3, "coins": 1, "sevens": 1, "seven_coins": 1},
            ("seven_coins", VELO, 1, 1),
            1,
        ),
        ("2", {}, {"cards": 3, "sevens": 3}, ("setenta", SETENTA_SEVENS, 3, 1), 1),
        ("2", {}, {"cards": 2, "sevens": 2}, None, 0),
        ("2", {}, {"cards": 6, "escobas": 3}, ("escobas", ESCOBAS, 3, 3), 3),
        ("2v2", {}, {"cards": 30, "escobas": 1}, ("most_cards", MOST_CARDS, 30, 1), 2),
        # The cascade: sevens level 2-2, then the sixes decide; then the aces; then the fives.
        (
            "2",
            {"setenta": "cascade"},
            {"cards": 5, "sevens": 2, "sixes": 3},
            ("setenta", Term("setenta"), 2, 1),
            1,
        ),
        ("2", {"setenta": "cascade"}, {"cards": 5, "sevens": 2, "sixes": 1}, None, 0),
        (
            "2",
            {"setenta": "cascade"},
            {"cards": 9, "sevens": 2, "sixes": 2, "aces": 2, "fives": 3},
            ("setenta", Term("setenta"), 2, 1),
            1,
        ),
        (
            "2",
            {"setenta": "cascade"},
            {"cards": 8, "sevens": 2, "sixes": 2, "aces": 2, "fives": 2},
            None,
            0,
        ),
        (
            "2",
            {"bonus": "on"},
            {"cards": 31},
            ("most_cards", Term.of("bonus.cards", num=31), 31, 2),
            2,
        ),
        ("2", {"bonus": "on"}, {"cards": 30}, ("most_cards", MOST_CARDS, 30, 1), 1),
        (
            "2",
            {"bonus": "on"},
            {"cards": 10, "coins": 10, "sevens": 1, "seven_coins": 1},
            ("most_coins", Term("bonus.oros"), 10, 2),
            3,
        ),
        ("3", {}, {"cards": 15, "most_cards": 1}, ("most_cards", Term("most_cards"), 15, 1), 1),
        ("3", {}, {"cards": 15, "most_cards": 2}, None, 0),
        (
            "3",
            {},
            {"cards": 4, "coins": 4, "most_coins": 1},
            ("most_coins", Term("most_oros"), 4, 1),
            1,
        ),
        ("3", {}, {"cards": 2, "sevens": 2, "setenta": 1}, ("setenta", Term("setenta"), 2, 1), 1),
    ],
)
def test_scoring_table(format_key, rules, counts, line, total) -> None:
    worked_out = ESCOBA.calculate(tbl(format_key, **rules), counts)
    if line is not None:
        assert line in lines_of(worked_out)
    assert worked_out.total == total


@pytest.mark.parametrize(
    ("rules", "counts", "field", "reason"),
    [
        (
            {},
            {"cards": 41},
            "cards",
            Problem.of("too_many", num=41, what=Term("cards_captured"), most=40),
        ),
        (
            {},
            {"cards": 20, "coins": 11},
            "coins",
            Problem.of("too_many", num=11, what=OROS, most=10),
        ),
        (
            {},
            {"cards": 5, "seven_coins": 1, "sevens": 1},
            "coins",
            Problem.of("seven_coins_is_a_coin", card=VELO),
        ),
        (
            {},
            {"cards": 5, "seven_coins": 1, "coins": 1},
            "sevens",
            Problem.of("seven_coins_is_a_seven", card=VELO),
        ),
        (
            {},
            {"cards": 4, "coins": 3, "sevens": 2},
            "cards",
            Problem.of("scoring_cards_over", num=5, cards=4),
        ),
        (
            {},
            {"cards": 3, "escobas": 2},
            "escobas",
            Problem.of("escobas_need_cards", num=2, least=4, cards=3),
        ),
        (
            {},
            {"cards": 40, "escobas": 21},
            "escobas",
            Problem.of("too_many", num=21, what=ESCOBAS, most=20),
        ),
        (
            {"setenta": "primera"},
            {
                "cards": 5,
                "sevens": 1,
                "coins": 1,
                "best_coins": 5,
                "best_cups": 3,
                "best_swords": 2,
                "best_clubs": 1,
            },
            "sevens",
            Problem.of("best_sevens", num=0, sevens=1),
        ),
        (
            {"setenta": "primera"},
            {"cards": 5, "coins": 0, "best_coins": 5, "best_cups": 3},
            "best_coins",
            Problem("best_coins"),
        ),
        (
            {"setenta": "primera"},
            {"cards": 1, "coins": 1, "best_coins": 5, "best_cups": 3},
            "cards",
            Problem.of("best_cards", num=2),
        ),
        (
            {"setenta": "cascade"},
            {"cards": 3, "sevens": 1, "sixes": 2, "aces": 1},
            "cards",
            Problem.of("scoring_cards_over", num=4, cards=3),
        ),
    ],
)
def test_impossible_counts_name_the_field_and_why(rules, counts, field, reason) -> None:
    with pytest.raises(CountError) as raised:
        ESCOBA.calculate(tbl(**rules), counts)
    assert (raised.value.field, raised.value.reason) == (field, reason)


@pytest.mark.parametrize(
    ("counts", "code"),
    [
        ({"cards": 10, "coins": 10, "sevens": 1}, "all_coins_hold"),
        ({"cards": 10, "coins": 1, "sevens": 4}, "all_sevens_hold"),
    ],
)
def test_all_oros_or_all_sevens_hold_the_velo(counts, code) -> None:
    with pytest.raises(CountError) as raised:
        ESCOBA.calculate(tbl(), counts)
    assert (raised.value.field, raised.value.reason) == ("seven_coins", Problem.of(code, card=VELO))


def test_the_seven_of_oros_with_a_wrong_best_card_is_refused() -> None:
    counts = {
        "cards": 5,
        "coins": 2,
        "sevens": 1,
        "seven_coins": 1,
        "best_coins": 5,
        "best_cups": 7,
    }
    with pytest.raises(CountError) as raised:
        ESCOBA.calculate(tbl(setenta="primera"), counts)
    assert raised.value.reason == Problem("best_seven_coins")


def test_calculator_fields_follow_the_table() -> None:
    def keys(format_key: str = "2", **rules: Any) -> list[str]:
        return [f.key for f in ESCOBA.calculator_fields(tbl(format_key, **rules))]

    assert keys() == ["cards", "coins", "sevens", "seven_coins", "escobas"]
    assert keys(setenta="cascade") == [
        "cards",
        "coins",
        "sevens",
        "seven_coins",
        "sixes",
        "aces",
        "fives",
        "escobas",
    ]
    assert keys(setenta="primera") == [
        "cards",
        "coins",
        "sevens",
        "seven_coins",
        "best_coins",
        "best_cups",
        "best_swords",
        "best_clubs",
        "setenta",
        "escobas",
    ]
    assert keys("3") == [
        "cards",
        "most_cards",
        "coins",
        "most_coins",
        "sevens",
        "seven_coins",
        "setenta",
        "escobas",
    ]


def test_targets_and_formats() -> None:
    assert ESCOBA.targets == (21, 15)
    assert ESCOBA.default_target == 21
    assert ESCOBA.accepts_target(30) and not ESCOBA.accepts_target(0)
    assert [(f.key, f.sides, f.players_per_side) for f in ESCOBA.formats] == [
        ("2", 2, 1),
        ("3", 3, 1),
        ("2v2", 2, 2),
    ]


def test_entry_conflicts_over_the_pack_and_the_velo() -> None:
    table = tbl()
    first = entry(table, **E1_A)
    conflicts = ESCOBA.entry_conflicts(
        table, [first, None], 1, entry(table, cards=18, coins=5, sevens=1, seven_coins=1)
    )
    reasons = [c.reason.code for c in conflicts]
    assert reasons == ["over_the_pack", "over_the_pack", "taken_already"]
    assert [c.field for c in conflicts] == ["cards", "coins", "seven_coins"]


def test_entry_conflicts_two_sides_alone_with_the_most_oros() -> None:
    table = tbl("3")
    first = entry(table, cards=14, coins=4, most_coins=1)
    second = entry(table, cards=10, coins=4, most_coins=1)
    conflicts = ESCOBA.entry_conflicts(table, [first, None, None], 1, second)
    assert [c.field for c in conflicts] == ["most_coins"]
    said = conflicts[0].reason
    assert said.code == "both_said"


def test_entry_conflicts_primera_claimed_beside_a_higher_one() -> None:
    table = tbl(setenta="primera")
    a = entry(table, **E3_A, **E3_A_BEST, setenta=1)
    b = entry(table, **E3_B, **E3_B_BEST, setenta=0)
    assert [c.field for c in ESCOBA.entry_conflicts(table, [a, None], 1, b)] == ["setenta"]


def test_feats() -> None:
    table = tbl()
    result = ESCOBA.state(table, [hand_of(table, E1_A, E1_B)]).hands[0]
    assert ESCOBA.feats_of(table, result, None, 0) == {"escobas": 2, "setentas": 1}
    assert ESCOBA.feats_of(table, result, None, 1) == {"escobas": 1, "setentas": 0}


# Hypothesis: any deal of the 40 cards, counted pile by pile and entered by calculator, adds up
# with no flag, no entry refused, and the hand's points are the four fixed points less the
# ties, plus every escoba (escoba.txt, "Points check").


def _answers(table, piles, counts: list[dict[str, int]]) -> None:
    """Fill in the questions the calculator asks, from the piles (the oracle's answers)."""
    method = ESCOBA.choice(table, "setenta")
    asked = {f.key for f in ESCOBA.calculator_fields(table)}
    questions = {
        "most_cards": [c["cards"] for c in counts],
        "most_coins": [c["coins"] for c in counts],
        "setenta": (
            [primiera_of(p) for p in piles]
            if method == "primera"
            else [(c["sevens"], c["sixes"], c["aces"], c["fives"]) for c in counts]
            if method == "cascade"
            else [c["sevens"] for c in counts]
        ),
    }
    for key, values in questions.items():
        if key in asked:
            for side, answer in enumerate(most(values)):
                counts[side][key] = answer


@given(
    st.sampled_from(["2", "3", "2v2"]).flatmap(
        lambda fmt: st.tuples(
            st.just(fmt),
            deals(3 if fmt == "3" else 2),
            st.sampled_from(["sevens", "cascade", "primera"]),
            st.lists(st.integers(0, 20), min_size=3, max_size=3),
        )
    )
)
def test_any_deal_adds_up(case) -> None:
    fmt, piles, method, escobas = case
    table = tbl(fmt, setenta=method)
    asked = {f.key for f in ESCOBA.calculator_fields(table)}
    counts = [counts_of(pile) for pile in piles]
    for side, side_counts in enumerate(counts):
        side_counts["escobas"] = min(escobas[side], side_counts["cards"] // 2, ESCOBA.plays(table))
    _answers(table, piles, counts)
    entries = [entry(table, **{k: v for k, v in c.items() if k in asked}) for c in counts]
    for side, own in enumerate(entries):
        others = [None if at == side else cell for at, cell in enumerate(entries)]
        assert ESCOBA.entry_conflicts(table, others, side, own) == []
    result = ESCOBA.state(table, [entries]).hands[0]
    assert result.problems == ()
    setenta = (
        [primiera_of(p) for p in piles]
        if method == "primera"
        else [(c["sevens"], c["sixes"], c["aces"], c["fives"]) for c in counts]
        if method == "cascade"
        else [c["sevens"] for c in counts]
    )
    lost = ties([c["cards"] for c in counts]) + ties([c["coins"] for c in counts]) + ties(setenta)
    assert sum(result.points) == 4 - lost + sum(c["escobas"] for c in counts)


@given(deals(2))
def test_a_deal_with_a_wrong_velo_is_flagged(piles) -> None:
    table = tbl()
    counts = [counts_of(pile) for pile in piles]
    keys = {f.key for f in ESCOBA.calculator_fields(table)}
    # Both sides claim the 7 of oros: the holder truly, the other wrongly (its coins and
    # sevens raised so its own pile still allows it).
    liar = 1 - next(side for side, c in enumerate(counts) if c["seven_coins"])
    lie = counts[liar]
    lie.update(seven_coins=1, coins=max(lie["coins"], 1), sevens=max(lie["sevens"], 1))
    lie["cards"] = max(lie["cards"], lie["coins"] + lie["sevens"])
    entries = [entry(table, **{k: v for k, v in c.items() if k in keys}) for c in counts]
    problems = ESCOBA.state(table, [entries]).hands[0].problems
    assert Problem.of("claimed_by", num=2, what=VELO) in problems
