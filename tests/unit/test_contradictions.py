"""What one side's entry can't say beside what the other sides entered in the same hand: the
rules (Game.entry_conflicts) against independent few-line oracles, on generated hands entered
one side at a time in a random order, as a table does."""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.games import EntryFacts, Problem, Table, Term, get_game
from scorekeeper.games.calculator import MOST_ALONE, MOST_NO, MOST_TIED
from tests.examples import examples
from tests.unit.helpers import counted, plain, table

BASRA, PASTURA, BRISCA = get_game("basra"), get_game("pastura"), get_game("brisca")
SIDE_1 = Term.of("side", number=1)
# The pack each calculator line shares, by key (docs/rules/*.md, "Checks across sides").
PACK = {
    "cards": 52,
    "aces": 4,
    "jacks": 4,
    "two_clubs": 1,
    "ten_diamonds": 1,
    "clubs": 13,
    "last_hand": 1,
    "threes": 4,
    "kings": 4,
    "horses": 4,
}


def _pack_fits(entries: Sequence[EntryFacts]) -> bool:
    """Oracle: every counted line, over the calculator entries, fits in the pack."""
    totals: dict[str, int] = {}
    for entry in entries:
        for key, value in (entry.counts or {}).items():
            totals[key] = totals.get(key, 0) + value
    return all(totals[key] <= most for key, most in PACK.items() if key in totals)


def _most_cards_fit(entries: Sequence[EntryFacts]) -> bool:
    """Oracle: the "Most cards" answers (three or more sides) can all be true together: one
    side alone, with more cards than any other; or sides tied, all at the top count."""
    answered = [e.counts for e in entries if e.counts is not None and "most_cards" in e.counts]
    if not answered:
        return True
    top = max(counts["cards"] for counts in answered)
    alone = [c for c in answered if c["most_cards"] == MOST_ALONE]
    tied = [c for c in answered if c["most_cards"] == MOST_TIED]
    if alone:
        others = [c["cards"] for c in answered if c is not alone[0]]
        return len(alone) == 1 and not tied and all(n < alone[0]["cards"] for n in others)
    # Tied at the top: every side at the top count says so.
    at_top = [c for c in answered if c["cards"] == top]
    return all(c["cards"] == top for c in tied) and (
        not tied or all(c["most_cards"] == MOST_TIED for c in at_top)
    )


def _split_said(tbl: Table, entry: EntryFacts) -> bool | None:
    """Oracle: what an entry says about Basra's majority being held over (None: nothing)."""
    if entry.counts is None:
        return entry.ticked("even_split")
    if tbl.sides == 2:
        return entry.counts["cards"] == 26
    return {MOST_TIED: True, MOST_ALONE: False}.get(entry.counts["most_cards"])


def _splits_fit(tbl: Table, entries: Sequence[EntryFacts]) -> bool:
    """Oracle: every two entries that say whether the majority is held over say the same
    (head to head, two counts are only held to the pack: 26 beside 20 is flagged later)."""
    for a in entries:
        for b in entries:
            if tbl.sides == 2 and a.counts is not None and b.counts is not None:
                continue
            said = (_split_said(tbl, a), _split_said(tbl, b))
            if None not in said and said[0] != said[1]:
                return False
    return True


def _played(game, tbl: Table, order: Sequence[int], cells: Sequence[EntryFacts], fits) -> None:
    """Enter each side's cell in `order`: refused at once iff the oracle says the hand so far
    can't be true with it, and then nothing is kept."""
    hand: list[EntryFacts | None] = [None] * tbl.sides
    for side in order:
        entered = [cell for cell in hand if cell is not None]
        conflicts = game.entry_conflicts(tbl, hand, side, cells[side])
        assert (not conflicts) == fits([*entered, cells[side]]), (hand, side, cells[side])
        if not conflicts:
            hand[side] = cells[side]


def _orders(sides: int) -> st.SearchStrategy[list[int]]:
    return st.permutations(list(range(sides)))


def _fishing_counts(sides: int) -> st.SearchStrategy[dict[str, int]]:
    """Counts a fishing game's calculator takes (each within its own field's bounds)."""
    counts = {
        # Counts a table meets often (a tie at 17 or 18, an even split at 26) as well as any:
        # two sides at one count is where the most-cards claims are tested hardest.
        "cards": st.one_of(st.sampled_from([17, 18, 19, 26]), st.integers(0, 52)),
        "aces": st.integers(0, 4),
        "jacks": st.integers(0, 4),
        "two_clubs": st.integers(0, 1),
        "ten_diamonds": st.integers(0, 1),
    }
    if sides >= 3:
        counts["most_cards"] = st.sampled_from([MOST_NO, MOST_ALONE, MOST_TIED])
    return st.fixed_dictionaries(counts)


@settings(max_examples=examples(300), deadline=None)
@given(data=st.data(), sides=st.sampled_from([2, 3]))
def test_pastura_calculators_fit_the_pack_and_the_most_cards(data, sides) -> None:
    tbl = table("pastura", str(sides))
    cells = [EntryFacts(0, data.draw(_fishing_counts(sides))) for _ in range(sides)]

    def fits(entries):
        return _pack_fits(entries) and _most_cards_fit(entries)

    _played(PASTURA, tbl, data.draw(_orders(sides)), cells, fits)


def _basra_cell(sides: int) -> st.SearchStrategy[EntryFacts]:
    """A plain total with or without the split tick, or the calculator's counts."""
    ticked = st.builds(
        lambda points, split: plain(points, even_split=split),
        st.integers(0, 120),
        st.booleans(),
    )
    by_calculator = _fishing_counts(sides).map(lambda counts: EntryFacts(0, counts))
    return st.one_of(ticked, by_calculator)


@settings(max_examples=examples(400), deadline=None)
@given(data=st.data(), sides=st.sampled_from([2, 3]))
def test_basra_splits_and_claims_are_refused_iff_they_contradict(data, sides) -> None:
    tbl = table("basra", str(sides))
    cells = [data.draw(_basra_cell(sides)) for _ in range(sides)]

    def fits(entries):
        return _pack_fits(entries) and _most_cards_fit(entries) and _splits_fit(tbl, entries)

    _played(BASRA, tbl, data.draw(_orders(sides)), cells, fits)


@settings(max_examples=examples(200), deadline=None)
@given(data=st.data())
def test_every_line_past_the_pack_is_named_at_once(data) -> None:
    tbl = table("basra", "2")
    theirs = EntryFacts(0, data.draw(_fishing_counts(2)))
    mine = EntryFacts(0, data.draw(_fishing_counts(2)))
    named = {
        conflict.field
        for conflict in BASRA.entry_conflicts(tbl, [theirs, None], 1, mine)
        if conflict.reason.code in {"over_the_pack", "taken_already"}
    }
    assert theirs.counts is not None and mine.counts is not None
    over = {
        key
        for key, value in mine.counts.items()
        if value and value + theirs.counts[key] > PACK[key]
    }
    assert named == over


def test_the_words_say_both_sides_part() -> None:
    two = table("basra", "2")
    said = BASRA.entry_conflicts(two, [plain(10, even_split=True)], 1, plain(70))
    split = Term("tick.split")
    assert [conflict.reason for conflict in said] == [
        Problem.of(
            "both_said",
            mine=Problem.of("not_ticked", tick=split),
            theirs=Problem.of("ticked", tick=split, side=SIDE_1, points=10),
            side=SIDE_1,
        )
    ]
    three = table("pastura", "3")
    ana = counted(three, cards=18, most_cards=MOST_ALONE)
    omar = counted(three, cards=19, most_cards=MOST_ALONE)
    (conflict,) = PASTURA.entry_conflicts(three, [ana, None, None], 1, omar, me="Omar")
    assert conflict.field == "most_cards"
    alone = Term("most_cards.alone")
    assert conflict.reason == Problem.of(
        "both_said",
        mine=Problem.of("answered", side="Omar", answer=alone, num=19),
        theirs=Problem.of("answered", side=SIDE_1, answer=alone, num=18),
        side=SIDE_1,
        me="Omar",
    )


def test_only_one_side_holds_a_black_hand_or_takes_the_last_trick() -> None:
    black = table("brisca", black_hand="on")
    mine = plain(20, black_hand=True)
    assert BRISCA.entry_conflicts(black, [plain(100, black_hand=True)], 1, mine)
    assert not BRISCA.entry_conflicts(black, [plain(100)], 1, mine)
    # Without the rule, a black hand is no claim at all.
    assert not BRISCA.entry_conflicts(table("brisca"), [plain(100, black_hand=True)], 1, mine)
    tied = table("brisca")
    last = plain(60, last_trick=True)
    assert BRISCA.entry_conflicts(tied, [plain(60, last_trick=True)], 1, last)
    assert not BRISCA.entry_conflicts(tied, [plain(60)], 1, last)


def test_brasta_most_clubs_and_last_hand_go_to_one_side() -> None:
    """Brasta's "most" lines follow from the counts: two sides with 7 clubs, or both with the
    Last Hand, are past the pack, every line named."""
    brasta = get_game("brasta")
    two = table("brasta")
    theirs = counted(two, cards=20, clubs=7, last_hand=1)
    mine = counted(two, cards=20, clubs=7, last_hand=1)
    said = brasta.entry_conflicts(two, [theirs, None], 1, mine)
    assert [conflict.field for conflict in said] == ["clubs", "last_hand"]
    assert said[0].reason == Problem.of(
        "over_the_pack", what=Term("clubs"), named=((SIDE_1, 7),), own=7, got=14, total=13
    )
    assert said[1].reason == Problem.of("taken_already", side=SIDE_1, what=Term("last_hand"))
