"""Scopa: the rule text's worked hands, the primiera and its missing suit, Napola and the other
table rules, Scopone, the checks across sides, the win rules; Hypothesis deals checked against
the pack."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.games import CountError, EntryFacts, PlayOn, Problem, Term, Tie, WinRule, Won
from scorekeeper.games.forty import PRIMIERA_VALUES, primiera
from scorekeeper.games.scopa import SCOPA_GAME as SCOPA
from scorekeeper.words import why

from .deals import SOUTH, VALUES, counts_of, deals, most, primiera_of, ties
from .helpers import counted_by, lines_of, plain, table_for

SETTEBELLO, DENARI, SCOPE = Term("settebello"), Term("denari"), Term("scope")
PRIMIERA, NAPOLA, RE_BELLO = Term("primiera"), Term("napola"), Term("re_bello")
MOST_CARDS = Term.of("most_cards.over", num=21)
MOST_DENARI = Term.of("most_denari.over", num=6)


def tbl(format_key: str = "2", target: int | None = None, **rules: str):
    return table_for(SCOPA, format_key, target, **rules)


def entry(table, **counts: int) -> EntryFacts:
    return counted_by(SCOPA, table, **counts)


def worked(table, *sides: dict[str, int]):
    """One hand through the sheet: its points per side and what it flags."""
    result = SCOPA.state(table, [[entry(table, **counts) for counts in sides]]).hands[0]
    return result.points, result.problems


def best(coins: int, cups: int, swords: int, clubs: int) -> dict[str, int]:
    return {"best_coins": coins, "best_cups": cups, "best_swords": swords, "best_clubs": clubs}


# scopa.txt, section 5: the worked hands.
S1_A = {"cards": 24, "coins": 7, "seven_coins": 1, **best(7, 7, 6, 6), "primiera": 1, "scope": 1}
S1_B = {"cards": 16, "coins": 3, **best(6, 5, 7, 7), "scope": 2}


def test_s1_plain_hand() -> None:
    table = tbl()
    a = SCOPA.calculate(table, S1_A)
    assert lines_of(a) == [
        ("scope", SCOPE, 1, 1),
        ("most_cards", MOST_CARDS, 24, 1),
        ("most_coins", MOST_DENARI, 7, 1),
        ("seven_coins", SETTEBELLO, 1, 1),
        ("primiera", PRIMIERA, 78, 1),
    ]
    assert primiera(S1_B, PRIMIERA_VALUES) == 75
    assert worked(table, S1_A, S1_B) == ((5, 2), ())


def test_s2_ties_everywhere() -> None:
    # pagat's own tie: A's best cards 7-7-6-4 (74), B's ace-ace-7-7 (74); B has the settebello.
    a = {"cards": 20, "coins": 5, **best(6, 4, 7, 7), "primiera": 2}
    b = {"cards": 20, "coins": 5, "seven_coins": 1, **best(7, 7, 1, 1), "primiera": 2}
    assert primiera(a, PRIMIERA_VALUES) == primiera(b, PRIMIERA_VALUES) == 74
    assert worked(tbl(), a, b) == ((0, 1), ())


S3_A = {"cards": 21, "coins": 7, "seven_coins": 1, **best(7, 7, 0, 7)}
S3_B = {"cards": 19, "coins": 3, **best(10, 10, 7, 10), "primiera": 1, "scope": 2}


def test_s3_a_side_missing_a_suit_has_no_primiera() -> None:
    assert primiera(S3_A, PRIMIERA_VALUES) is None
    assert primiera(S3_B, PRIMIERA_VALUES) == 51
    assert worked(tbl(), S3_A, S3_B) == ((3, 3), ())
    with pytest.raises(CountError) as raised:
        SCOPA.calculate(tbl(), {**S3_A, "primiera": 1})
    assert (raised.value.field, raised.value.reason) == (
        "primiera",
        Problem("primiera_missing_suit"),
    )


def test_s3_a_missing_suit_claiming_the_primiera_conflicts_with_none() -> None:
    # Counting A's missing suit as 0 would give A 63 > 51: not the rule, so B's claim stands
    # beside A's No and nobody is refused.
    table = tbl()
    a, b = entry(table, **S3_A), entry(table, **S3_B)
    assert SCOPA.entry_conflicts(table, [a, None], 1, b) == []


S4_A = {"cards": 21, "coins": 6, "seven_coins": 1, **best(7, 5, 5, 5), "napola": 5}
S4_B = {"cards": 19, "coins": 4, **best(6, 7, 7, 7), "primiera": 1, "scope": 1}


@pytest.mark.parametrize(("napola", "points"), [("run", (8, 2)), ("to_six", (8, 2))])
def test_s4_napola(napola, points) -> None:
    table = tbl(napola=napola)
    assert worked(table, S4_A, S4_B) == (points, ())
    assert ("napola", NAPOLA, 5, 5) in lines_of(SCOPA.calculate(table, S4_A))


@pytest.mark.parametrize(
    ("napola", "run", "points"),
    [
        ("run", 2, 0),
        ("run", 3, 3),
        ("run", 6, 6),
        ("run", 8, 8),
        ("to_six", 8, 6),
        ("to_six", 3, 3),
    ],
)
def test_napola_values(napola, run, points) -> None:
    counts = {
        "cards": 12,
        "coins": 9,
        "seven_coins": int(run >= 7),
        **best(7 if run >= 7 else 6, 0, 0, 0),
    }
    counts["napola"] = run
    worked_out = SCOPA.calculate(tbl(napola=napola), counts)
    assert sum(row.points for row in worked_out.lines if row.key == "napola") == points


ALL_DENARI = {"cards": 22, "coins": 10, "seven_coins": 1, **best(7, 6, 6, 6), "napola": 10}


def test_s5_napoleone_wins_at_the_end_of_the_hand() -> None:
    table = tbl(napola="run", napoleone="on")
    other = {"cards": 18, **best(0, 7, 7, 7), "primiera": 0}
    state = SCOPA.state(
        table, [[plain(0), plain(9)], [entry(table, **ALL_DENARI), entry(table, **other)]]
    )
    assert (state.winner, state.reason) == (0, Won(WinRule.DECLARED, said=Term("won.napoleone")))
    assert why(state.reason) == "All ten denari: Napoleone"


def test_s5_without_napoleone_all_denari_just_score() -> None:
    table = tbl(target=21, napola="run")
    other = {"cards": 18, **best(0, 7, 7, 7)}
    state = SCOPA.state(table, [[entry(table, **ALL_DENARI), entry(table, **other)]])
    assert state.winner is None
    # Most cards, denari, settebello and a 10-point Napola.
    assert state.totals == (13, 0)


def test_s6_level_over_the_target_plays_on() -> None:
    table = tbl()
    state = SCOPA.state(table, [[plain(9), plain(10)], [plain(3), plain(2)]])
    assert state.totals == (12, 12)
    assert state.winner is None
    assert state.play_on == PlayOn(Tie.LEVEL_PAST_TARGET, (0, 1), total=12, target=11)


def test_s6_parletts_count_of_the_last_hand() -> None:
    # Cards take A to 10; the denari take B to 11 first.
    table = tbl(count_to_target="parlett")
    a = {"cards": 22, "coins": 5, "seven_coins": 1, **best(7, 5, 5, 5), "scope": 1}
    b = {"cards": 18, "coins": 5, **best(6, 7, 7, 7), "primiera": 1}
    b["coins"] = 6
    a["coins"] = 4
    state = SCOPA.state(table, [[plain(9), plain(10)], [entry(table, **a), entry(table, **b)]])
    assert state.hands[1].points == (3, 2)
    assert (state.winner, state.reason) == (1, Won(WinRule.COUNTED_FIRST, target=11))
    assert why(state.reason) == "First to 11 counting the last hand"


@pytest.mark.parametrize(("cappotto", "winner"), [("on", 0), ("off", None)])
def test_s7_cappotto(cappotto, winner) -> None:
    state = SCOPA.state(tbl(cappotto=cappotto), [[plain(7), plain(0)]])
    assert state.winner == winner
    if winner is not None:
        assert state.reason == Won(WinRule.DECLARED, said=Term("won.cappotto"))
        assert why(state.reason) == "Seven to nothing: cappotto"


def test_cappotto_needs_the_others_at_nothing() -> None:
    state = SCOPA.state(tbl(cappotto="on"), [[plain(7), plain(1)]])
    assert state.winner is None


@pytest.mark.parametrize(("scope", "points"), [(0, (4, 3)), (1, (5, 3))])
def test_s8_scopone_last_card_counts_as_the_table_agreed(scope, points) -> None:
    # The sheet takes the scope the partnership counted; the last-card sweep is the table's call.
    table = tbl("2v2")
    a = {"cards": 24, "coins": 6, "seven_coins": 1, **best(7, 6, 6, 6), "scope": 0}
    b = {"cards": 16, "coins": 4, **best(6, 7, 7, 7), "primiera": 1, "scope": 2}
    a["scope"] = scope + 1
    # Counted before the final play: A 4 (3 lines and a scopa), B 3.
    assert worked(table, a, b)[0] == (points[0], points[1])


S9 = (
    {"cards": 16, "coins": 4, **best(6, 7, 7, 5), "most_cards": 1, "most_coins": 2, "primiera": 1},
    {"cards": 13, "coins": 4, **best(4, 6, 0, 7), "most_coins": 2, "scope": 1},
    {"cards": 11, "coins": 2, "seven_coins": 1, **best(7, 1, 5, 6)},
)


def test_s9_three_players() -> None:
    assert primiera(S9[0], PRIMIERA_VALUES) == 75
    assert primiera(S9[2], PRIMIERA_VALUES) == 70
    assert worked(tbl("3"), *S9) == ((2, 1, 1), ())


def test_s9_a_missing_answer_is_flagged() -> None:
    wrong = (S9[0], {**S9[1], "most_coins": 0}, S9[2])
    assert worked(tbl("3"), *wrong)[1] == (Problem.of("contest_answers", what=Term("most_denari")),)


def test_southern_pictures_change_the_primiera() -> None:
    # Two sides level at 68 with 10-point pictures; with the south's values the king beats the
    # jack.
    a = {**best(7, 7, 10, 1)}
    b = {**best(7, 7, 8, 1)}
    assert primiera(a, PRIMIERA_VALUES) == primiera(b, PRIMIERA_VALUES)
    assert SCOPA.schedule(tbl(pictures="southern"))[8] == 8
    assert primiera(a, SCOPA.schedule(tbl(pictures="southern"))) == 68
    assert primiera(b, SCOPA.schedule(tbl(pictures="southern"))) == 66


def test_re_bello_scores_and_is_checked() -> None:
    table = tbl(re_bello="on")
    worked_out = SCOPA.calculate(
        table, {"cards": 3, "coins": 1, "re_bello": 1, **best(10, 0, 0, 0)}
    )
    assert lines_of(worked_out) == [("re_bello", RE_BELLO, 1, 1)]
    a = entry(table, cards=20, coins=5, re_bello=1, **best(10, 7, 7, 7))
    b = entry(table, cards=20, coins=5, re_bello=1, seven_coins=1, **best(7, 6, 6, 6))
    conflicts = SCOPA.entry_conflicts(table, [a, None], 1, b)
    assert [c.field for c in conflicts] == ["re_bello"]
    problems = SCOPA.state(table, [[a, b]]).hands[0].problems
    assert Problem.of("claimed_by", num=2, what=RE_BELLO) in problems


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
            {"cards": 5, "seven_coins": 1},
            "coins",
            Problem.of("seven_coins_is_a_coin", card=SETTEBELLO),
        ),
        (
            {},
            {"cards": 3, "scope": 2, "coins": 1, **best(1, 0, 0, 0)},
            "scope",
            Problem.of("scope_need_cards", num=2, least=4, cards=3),
        ),
        ({}, {"cards": 5, "coins": 2, **best(0, 0, 0, 0)}, "best_coins", Problem("best_coins")),
        (
            {"napola": "run"},
            {"cards": 5, "coins": 2, **best(3, 0, 0, 0), "napola": 3},
            "napola",
            Problem.of("napola_coins", num=3, coins=2),
        ),
        (
            {"napola": "run"},
            {"cards": 9, "coins": 8, **best(6, 0, 0, 0), "napola": 8},
            "napola",
            Problem.of("napola_holds", num=8, card=SETTEBELLO),
        ),
        (
            {"napola": "run", "re_bello": "on"},
            {"cards": 12, "coins": 10, "seven_coins": 1, **best(7, 0, 0, 0), "napola": 10},
            "napola",
            Problem.of("napola_holds", num=10, card=RE_BELLO),
        ),
        (
            {"napola": "run"},
            {"cards": 12, "coins": 10, "seven_coins": 1, **best(7, 0, 0, 0), "napola": 4},
            "napola",
            Problem("napola_all_coins"),
        ),
        (
            {"re_bello": "on"},
            {"cards": 5, "coins": 1, "seven_coins": 1, "re_bello": 1, **best(7, 0, 0, 0)},
            "re_bello",
            Problem.of("scoring_cards_over", num=2, cards=1),
        ),
    ],
)
def test_impossible_counts_name_the_field_and_why(rules, counts, field, reason) -> None:
    with pytest.raises(CountError) as raised:
        SCOPA.calculate(tbl(**rules), counts)
    assert (raised.value.field, raised.value.reason) == (field, reason)


def test_calculator_fields_follow_the_table() -> None:
    def keys(format_key: str = "2", **rules: Any) -> list[str]:
        return [f.key for f in SCOPA.calculator_fields(tbl(format_key, **rules))]

    suits = ["best_coins", "best_cups", "best_swords", "best_clubs"]
    assert keys() == ["cards", "coins", "seven_coins", *suits, "primiera", "scope"]
    assert keys("3") == [
        "cards",
        "most_cards",
        "coins",
        "most_coins",
        "seven_coins",
        *suits,
        "primiera",
        "scope",
    ]
    assert keys(re_bello="on", napola="to_six") == [
        "cards",
        "coins",
        "seven_coins",
        "re_bello",
        *suits,
        "primiera",
        "scope",
        "napola",
    ]


def test_targets_formats_and_feats() -> None:
    assert SCOPA.targets == (11, 16, 21, 31)
    assert SCOPA.default_target == 11
    assert [(f.key, f.sides, f.players_per_side, f.label) for f in SCOPA.formats][-1] == (
        "2v2",
        2,
        2,
        Term("format.scopone"),
    )
    table = tbl()
    result = SCOPA.state(table, [[entry(table, **S1_A), entry(table, **S1_B)]]).hands[0]
    assert SCOPA.feats_of(table, result, None, 0) == {"scope_made": 1, "primiere": 1, "napole": 0}
    assert SCOPA.feats_of(table, result, None, 1) == {"scope_made": 2, "primiere": 0, "napole": 0}


def test_two_primiere_claimed_are_refused() -> None:
    table = tbl()
    a = entry(table, **S1_A)
    b = entry(table, **{**S1_B, "primiera": 1})
    conflicts = SCOPA.entry_conflicts(table, [a, None], 1, b)
    assert [c.field for c in conflicts] == ["primiera"]


# Hypothesis: any deal of the 40 cards adds up, no entry is refused, and the hand's points are
# the four fixed points less the ties plus every scopa (scopa.txt, "Cross-side checks").


@given(
    st.sampled_from(["2", "3", "2v2"]).flatmap(
        lambda fmt: st.tuples(
            st.just(fmt),
            deals(3 if fmt == "3" else 2),
            st.sampled_from(["ten", "southern"]),
            st.lists(st.integers(0, 13), min_size=3, max_size=3),
        )
    )
)
def test_any_deal_adds_up(case) -> None:
    fmt, piles, pictures, scope = case
    table = tbl(fmt, pictures=pictures, re_bello="on", napola="run")
    values = SOUTH if pictures == "southern" else VALUES
    asked = {f.key for f in SCOPA.calculator_fields(table)}
    counts = [counts_of(pile) for pile in piles]
    strengths = [primiera_of(pile, values) for pile in piles]
    for side, side_counts in enumerate(counts):
        side_counts["scope"] = min(scope[side], side_counts["cards"] // 2)
        if "most_cards" in asked:
            side_counts["most_cards"] = most([c["cards"] for c in counts])[side]
            side_counts["most_coins"] = most([c["coins"] for c in counts])[side]
        side_counts["primiera"] = most(strengths)[side]
    entries = [entry(table, **{k: v for k, v in c.items() if k in asked}) for c in counts]
    for side, own in enumerate(entries):
        others = [None if at == side else cell for at, cell in enumerate(entries)]
        assert SCOPA.entry_conflicts(table, others, side, own) == []
    result = SCOPA.state(table, [entries]).hands[0]
    assert result.problems == ()
    lost = ties([c["cards"] for c in counts]) + ties([c["coins"] for c in counts]) + ties(strengths)
    napole = sum(c["napola"] for c in counts if c["napola"] >= 3)
    # Five fixed points with Re Bello.
    assert sum(result.points) == 5 - lost + sum(c["scope"] for c in counts) + napole
