"""Tarneeb: the rule text's worked hands, the scoring table row by row, Egyptian doubling, the
other team's score as a table rule, the checks that refuse a hand both teams gain, the win;
Hypothesis hands checked against an independent few-line table."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.games import CountError, EntryFacts, Problem, Term, WinRule, Won
from scorekeeper.games.tarneeb import TARNEEB_GAME as TARNEEB
from tests import oracle_tarneeb as oracle
from tests.oracle import Table

from .helpers import counted_by, lines_of, plain, table_for

WE, THEY = 0, 1


def told(table) -> Table:
    """The table as the oracle reads it (tests/oracle.py's)."""
    return Table(table.game, table.sides, table.target, table.rules)


def tbl(target: int | None = None, **rules: str):
    return table_for(TARNEEB, "2v2", target, **rules)


def team(table, bidders: int, bid: int, tricks: int, doubled: int = 0) -> EntryFacts:
    counts = {"bidders": bidders, "bid": bid, "tricks": tricks}
    if TARNEEB.choice(table, "doubling") == "on":
        counts["doubled"] = doubled
    return counted_by(TARNEEB, table, **counts)


def hand(table, bid: int, bidders_tricks: int, bidder: int = 0, doubled: int = 0):
    """Both teams' calculator entries for one hand, team `bidder` having bid."""
    cells = [
        team(table, WE, bid, bidders_tricks, doubled),
        team(table, THEY, bid, 13 - bidders_tricks, doubled),
    ]
    return cells if bidder == 0 else cells[::-1]


def points(table, bid: int, bidders_tricks: int, bidder: int = 0, doubled: int = 0):
    result = TARNEEB.state(table, [hand(table, bid, bidders_tricks, bidder, doubled)]).hands[0]
    assert result.problems == ()
    return result.points


# tarneeb.txt, section 5 (teams NS, side 0, and EW, side 1).
@pytest.mark.parametrize(
    ("name", "bidder", "bid", "took", "expected"),
    [
        ("T1 made with overtricks", 0, 8, 9, (9, 0)),
        ("T2 failed", 0, 10, 8, (-10, 5)),
        ("T3 kaboot on a low bid", 1, 7, 13, (0, 16)),
        ("T4 bid 13 made", 0, 13, 13, (26, 0)),
        ("T5 bid 13 failed", 0, 13, 11, (-16, 4)),
        ("T6 exactly made", 1, 9, 9, (0, 9)),
        ("T6 overtricks score the tricks", 1, 9, 11, (0, 11)),
        ("T7 pagat: the other team scores nothing on a made bid", 0, 9, 10, (10, 0)),
    ],
)
def test_worked_hands(name, bidder, bid, took, expected) -> None:
    assert points(tbl(), bid, took, bidder) == expected


def test_t7_other_team_always_scores() -> None:
    assert points(tbl(defenders="always"), 9, 10) == (10, 3)


@pytest.mark.parametrize(
    ("doubled", "took", "expected"),
    [
        (1, 11, (22, 0)),
        (1, 8, (-20, 5)),
        (1, 13, (32, 0)),
        (2, 11, (44, 0)),
        (0, 11, (11, 0)),
    ],
)
def test_t8_egyptian_doubling(doubled, took, expected) -> None:
    assert points(tbl(doubling="on"), 10, took, doubled=doubled) == expected


def test_t8_doubling_line() -> None:
    worked = TARNEEB.calculate(
        tbl(doubling="on"), {"bidders": WE, "bid": 10, "tricks": 11, "doubled": 1}
    )
    assert lines_of(worked) == [
        ("made", Term.of("tarneeb.made", bid=10), 11, 11),
        ("doubled", Term.of("tarneeb.doubled", num=2), 2, 11),
    ]


def test_t9_the_team_that_did_not_bid_can_win() -> None:
    table = tbl(41)
    state = TARNEEB.state(table, [[plain(36), plain(39)], hand(table, 8, 7, bidder=1)])
    assert state.totals == (42, 31)
    assert (state.winner, state.reason) == (0, Won(WinRule.REACHED_FIRST, target=41))


def test_t10_individual_41_is_not_this_game() -> None:
    # 41 and 400 score each player for himself: Tarneeb seats two partnerships only.
    assert [(f.key, f.sides, f.players_per_side) for f in TARNEEB.formats] == [("2v2", 2, 2)]


@pytest.mark.parametrize(
    ("counts", "key", "label", "total"),
    [
        ({"bidders": WE, "bid": 7, "tricks": 7}, "made", Term.of("tarneeb.made", bid=7), 7),
        ({"bidders": WE, "bid": 12, "tricks": 12}, "made", Term.of("tarneeb.made", bid=12), 12),
        ({"bidders": WE, "bid": 12, "tricks": 13}, "kaboot", Term("tarneeb.kaboot"), 16),
        (
            {"bidders": WE, "bid": 12, "tricks": 11},
            "failed",
            Term.of("tarneeb.failed", bid=12),
            -12,
        ),
        ({"bidders": WE, "bid": 7, "tricks": 0}, "failed", Term.of("tarneeb.failed", bid=7), -7),
        ({"bidders": WE, "bid": 13, "tricks": 13}, "bid_13_made", Term("tarneeb.bid_13_made"), 26),
        (
            {"bidders": WE, "bid": 13, "tricks": 0},
            "bid_13_failed",
            Term("tarneeb.bid_13_failed"),
            -16,
        ),
        ({"bidders": THEY, "bid": 9, "tricks": 5}, "set", Term.of("tarneeb.set", bid=9), 5),
        (
            {"bidders": THEY, "bid": 9, "tricks": 4},
            "defended",
            Term.of("tarneeb.defended", bid=9),
            0,
        ),
        ({"bidders": THEY, "bid": 13, "tricks": 1}, "set", Term("tarneeb.set_13"), 2),
        ({"bidders": THEY, "bid": 13, "tricks": 13}, "set", Term("tarneeb.set_13"), 26),
    ],
)
def test_scoring_table(counts, key, label, total) -> None:
    worked = TARNEEB.calculate(tbl(), counts)
    assert [(row.key, row.label) for row in worked.lines] == [(key, label)]
    assert worked.total == total


@pytest.mark.parametrize(
    ("counts", "field", "reason"),
    [
        (
            {"bidders": WE, "bid": 6, "tricks": 6},
            "bid",
            Problem.of("below", label=Term("bid"), minimum=7),
        ),
        (
            {"bidders": WE, "bid": 14, "tricks": 6},
            "bid",
            Problem.of("too_many", num=14, what=Term("bid"), most=13),
        ),
        (
            {"bidders": WE, "bid": 7, "tricks": 14},
            "tricks",
            Problem.of("too_many", num=14, what=Term("tricks_taken"), most=13),
        ),
        (
            {"bidders": 2, "bid": 7, "tricks": 7},
            "bidders",
            Problem.of("pick_a_choice", label=Term("bidders")),
        ),
    ],
)
def test_impossible_counts(counts, field, reason) -> None:
    with pytest.raises(CountError) as raised:
        TARNEEB.calculate(tbl(), counts)
    assert (raised.value.field, raised.value.reason) == (field, reason)


def conflicts(table, theirs: EntryFacts, mine: EntryFacts) -> list[str]:
    """Why an entry is refused beside the other team's: the codes, a one-hand refusal by why."""
    found = TARNEEB.entry_conflicts(table, [theirs, None], 1, mine)
    return [
        dict(c.reason.args)["why"].code.removeprefix("why.")
        if c.reason.code == "one_hand"
        else c.reason.code
        for c in found
    ]


def test_a_hand_both_teams_gain_is_refused_at_entry() -> None:
    table = tbl()
    assert conflicts(table, plain(5), plain(3)) == ["both_gain"]
    assert conflicts(table, plain(-8), plain(-7)) == ["both_lose"]
    # A failed 10 gives the other team at least 4 tricks.
    assert conflicts(table, plain(-10), plain(3)) == ["not_one_hand"]
    assert conflicts(table, plain(-10), plain(4)) == []
    assert conflicts(table, plain(9), plain(0)) == []


def test_with_the_other_team_always_scoring_both_may_gain() -> None:
    table = tbl(defenders="always")
    assert conflicts(table, plain(10), plain(3)) == []
    # ... but the tricks still add to 13: 10 made leaves the others 3.
    assert conflicts(table, plain(10), plain(4)) == ["both_gain"]


def test_a_result_no_hand_gives_is_refused() -> None:
    assert conflicts(tbl(), plain(0), plain(15)) == ["no_such_result"]
    assert conflicts(tbl(), plain(0), plain(-13)) == ["no_such_result"]
    assert conflicts(tbl(doubling="on"), plain(2), plain(-24)) == []


def test_the_teams_must_agree_on_the_bid() -> None:
    table = tbl()
    assert conflicts(table, team(table, WE, 9, 9), team(table, WE, 9, 4)) == ["both_bid"]
    assert conflicts(table, team(table, THEY, 9, 9), team(table, THEY, 9, 4)) == ["neither_bid"]
    assert conflicts(table, team(table, WE, 9, 9), team(table, THEY, 8, 4)) == ["bids_differ"]
    assert conflicts(table, team(table, WE, 9, 9), team(table, THEY, 9, 5)) == [
        "over_the_pack",
        "both_gain",
    ]
    assert conflicts(table, team(table, WE, 9, 9), team(table, THEY, 9, 4)) == []


def test_a_complete_hand_short_of_13_tricks_is_flagged() -> None:
    table = tbl()
    cells = [team(table, WE, 9, 9), team(table, THEY, 9, 3)]
    problems = TARNEEB.state(table, [cells]).hands[0].problems
    assert Problem.of("add_up", what=Term("tricks_taken"), got=12, total=13) in problems


def test_feats() -> None:
    table = tbl()
    result = TARNEEB.state(table, [hand(table, 7, 13)]).hands[0]
    assert TARNEEB.feats_of(table, result, None, 0) == {"bids_made": 1, "kaboots": 1}
    assert TARNEEB.feats_of(table, result, None, 1) == {"bids_made": 0, "kaboots": 0}
    failed = TARNEEB.state(table, [hand(table, 9, 8)]).hands[0]
    assert TARNEEB.feats_of(table, failed, None, 0) == {"bids_made": 0, "kaboots": 0}


def test_targets_and_bounds() -> None:
    assert TARNEEB.targets == (31, 41, 61)
    assert TARNEEB.default_target == 41
    assert TARNEEB.goes_negative


@given(
    bid=st.integers(7, 13),
    took=st.integers(0, 13),
    bidder=st.integers(0, 1),
    doubled=st.integers(0, 2),
    always=st.booleans(),
)
def test_any_hand_scores_as_the_table_says(bid, took, bidder, doubled, always) -> None:
    table = tbl(doubling="on", defenders="always" if always else "on_fail")
    cells = hand(table, bid, took, bidder, doubled)
    assert TARNEEB.entry_conflicts(table, [cells[0], None], 1, cells[1]) == []
    result = TARNEEB.state(table, [cells]).hands[0]
    assert result.problems == ()
    assert list(result.points) == oracle.points(told(table), bidder, bid, took, doubled)
    if not always:
        # Only one team gains a hand.
        assert min(result.points) <= 0


@given(first=st.integers(-64, 104), second=st.integers(-64, 104))
def test_plain_pairs_are_refused_exactly_when_no_hand_gives_them(first, second) -> None:
    table = tbl()
    refused = bool(conflicts(table, plain(first), plain(second)))
    assert refused == (not oracle.one_hand(told(table), second, first))
