"""The games' words (scorekeeper/terms.py): every code the rules name has its words, none is
left unused, and the rules' values read, in English, as the sentences a player has always read
(the other languages: tests/web/test_game_words.py, test_languages.py and the pages' tests)."""

from __future__ import annotations

import ast
from collections.abc import Callable
from pathlib import Path

import pytest

from scorekeeper.games import GAMES, CountError, EntryFacts, Problem, Term, get_game
from scorekeeper.games.escoba import ESCOBA_GAME
from scorekeeper.games.scopa import SCOPA_GAME
from scorekeeper.games.tarneeb import TARNEEB_GAME
from scorekeeper.terms import PROBLEMS, TERMS, say

from .helpers import counted, counted_by, plain, table, table_for

GAMES_DIR = Path(__file__).resolve().parents[2] / "scorekeeper" / "games"
BASRA, BRISCA, BRASTA = get_game("basra"), get_game("brisca"), get_game("brasta")


def _codes_in_the_rules() -> tuple[set[str], set[str]]:
    """The codes games/*.py names, read from its source: Term("x"), Term.of("x", ...), and
    Problem's likewise (a clearance's code is given to require_cards_for_clears)."""
    terms: set[str] = set()
    problems: set[str] = set()
    for source in GAMES_DIR.glob("*.py"):
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            called = node.func
            name = (
                called.id
                if isinstance(called, ast.Name)
                else called.value.id
                if isinstance(called, ast.Attribute) and isinstance(called.value, ast.Name)
                else ""
            )
            if name == "require_cards_for_clears":
                code = node.args[2]
            elif name in {"Term", "Problem"}:
                code = node.args[0]
            else:
                continue
            if isinstance(code, ast.Constant) and isinstance(code.value, str):
                (terms if name == "Term" else problems).add(code.value)
    return terms, problems


def test_every_code_the_rules_name_has_words_and_every_wording_is_named() -> None:
    terms, problems = _codes_in_the_rules()
    # The codes made in a loop (Brisca's card labels) are read from their own table.
    fields = BRISCA.calculator_fields(table("brisca"))
    terms |= {calc.label.code for calc in fields if isinstance(calc.label, Term)}
    assert terms == set(TERMS)
    # The claims quoted in a conflict are made by code in a variable ("ticked"/"not_ticked").
    assert problems | {"ticked", "not_ticked"} == set(PROBLEMS)


def _every_label() -> list[Term | str]:
    """Every word the create form, the calculator, the sheet and a record show for any game,
    seated every way, every table rule at each of its choices."""
    labels: list[Term | str] = []
    for game in GAMES.values():
        labels += [game.name, game.hand_word, game.hand_noun, game.total_word]
        labels += [label for _key, label in game.feats]
        labels += [game.target_label(target) for target in game.targets or (100,)]
        for seating in game.formats:
            labels.append(seating.label)
            for rule in game.table_rules:
                labels.append(rule.label)
                for choice, label in rule.choices:
                    labels.append(label)
                    tbl = table_for(game, seating.key, None, **{rule.key: choice})
                    labels.append(game.target_words(tbl))
                    for calc in game.calculator_fields(tbl):
                        labels += [calc.label, calc.hint, *(said for _n, said in calc.choices)]
    return labels


def test_every_label_reads_as_words() -> None:
    labels = _every_label()
    assert len({label for label in labels if isinstance(label, Term)}) > 100
    for label in labels:
        words = say(label)
        assert words if label else words == ""
        assert "%(" not in words and (not isinstance(label, Term) or words != label.code)


def _refused(game_key: str, counts: dict[str, int], fmt: str = "2", **rules: str) -> Problem:
    with pytest.raises(CountError) as raised:
        get_game(game_key).calculate(table(game_key, fmt, None, **rules), counts)
    return raised.value.reason


def _problems(game_key: str, hand: list[EntryFacts], fmt: str = "2", **rules: str):
    return get_game(game_key).state(table(game_key, fmt, None, **rules), [hand]).hands[0].problems


def _conflicts(
    game_key: str, hand, side: int, entry: EntryFacts, fmt: str = "2", me: str | None = None
):
    tbl = table(game_key, fmt)
    return [c.reason for c in get_game(game_key).entry_conflicts(tbl, hand, side, entry, me)]


BASRA_ALICE = {"cards": 30, "aces": 3, "jacks": 2, "ten_diamonds": 1, "basras": 1}
BASRA_BEN = {"cards": 22, "aces": 1, "jacks": 2, "two_clubs": 1}


def _basra(**changes: int) -> list[EntryFacts]:
    tbl = table("basra")
    return [counted(tbl, **{**BASRA_ALICE, **changes}), counted(tbl, **BASRA_BEN)]


# What the rules give, and the English a player has read for it since before the rules gave
# values (the sentences the games' unit tests used to compare).
SAID: list[tuple[Callable[[], object], str]] = [
    (lambda: _refused("basra", {"cards": 10, "aces": 5}), "5 aces? There can be at most 4."),
    (lambda: _refused("basra", {"cards": 53}), "53 cards captured? There can be at most 52."),
    (
        lambda: _refused("basra", {"two_clubs": 1}),
        "That makes 1 scoring card in a pile of 0 cards captured.",
    ),
    (
        lambda: _refused("basra", {"cards": 0, "basras": 1}),
        "1 basra takes at least 2 cards, but the cards captured say 0.",
    ),
    (
        lambda: _refused("basra", {"cards": 1, "basras": 3}),
        "3 basras take at least 6 cards, but the cards captured say 1.",
    ),
    (
        lambda: _refused(
            "basra", {"cards": 52, **{f"basra_{r}": 4 for r in range(2, 9)}}, basra_value="by_card"
        ),
        "28 basras in one hand? Each side plays only 24 cards.",
    ),
    (
        lambda: _refused("basra", {"cards": 10, "jacks": 1, "double_basras": 1}, double_basra="on"),
        "Each double basra takes two jacks, but the jacks say 1.",
    ),
    (lambda: _refused("basra", {"cards": -1}), "Cards captured can't be below 0."),
    (lambda: _refused("basra", {"cards": 10, "two_clubs": 2}), "2♣: either yes (1) or no (0)."),
    (
        lambda: _refused("basra", {"cards": 20, "most_cards": 3}, "3"),
        "Most cards: pick one of the choices given.",
    ),
    (
        lambda: _refused("basra", {"cards": 10, "most_cards": 1}, "3"),
        "With 10 cards you can't hold the most; it takes 18.",
    ),
    (
        lambda: _refused("basra", {"cards": 30, "most_cards": 2}, "3"),
        "30 cards is more than half the pack: most, alone.",
    ),
    (
        lambda: _refused("pastura", {"cards": 5, "pasturas": 3}),
        "3 pasturas take at least 6 cards, but the cards captured say 5.",
    ),
    (
        lambda: _refused("brasta", {"cards": 5, "brastas": 3}),
        "3 Brastas take at least 6 cards, but the cards captured say 5.",
    ),
    (
        lambda: _refused("brasta", {"cards": 10, "two_clubs": 1}),
        "The 2♣ is a club: count it in your clubs too.",
    ),
    (
        lambda: _refused("brasta", {"cards": 13, "clubs": 13, "aces": 1}),
        "All 13 clubs include the 2♣.",
    ),
    (
        lambda: _refused("brasta", {"cards": 13, "clubs": 13, "two_clubs": 1}),
        "All 13 clubs include the ace of clubs.",
    ),
    (
        lambda: _refused("brasta", {"cards": 5, "clubs": 5, "aces": 2}),
        "Your clubs, aces and 10♦ are at least 6 cards, but the cards captured say 5.",
    ),
    (lambda: _problems("basra", _basra(cards=28))[0], "Cards add up to 50, not 52"),
    (lambda: _problems("basra", _basra(two_clubs=1))[0], "The 2♣ is claimed by 2 sides, not 1"),
    (
        lambda: _problems("basra", _basra(ten_diamonds=0))[0],
        "No side claimed the 10♦; exactly one should",
    ),
    (
        lambda: _problems(
            "basra",
            [
                counted(table("basra", "3"), cards=20, most_cards=1),
                counted(table("basra", "3"), cards=20, most_cards=0),
                counted(table("basra", "3"), cards=12, aces=4, jacks=4, two_clubs=1),
            ],
            "3",
        )[-1],
        "Most cards: the claims don't match the card counts (20, 20, 12)",
    ),
    (
        lambda: _problems("basra", [EntryFacts(7, {"cards": 10, "aces": 5}), plain(3)])[0],
        "Side 1: 5 aces? There can be at most 4.",
    ),
    (
        lambda: _problems("brisca", [plain(70), plain(40)])[0],
        "Card points add up to 110, not 120",
    ),
    (
        lambda: _problems("brisca", [plain(60, last_trick=True), plain(60, last_trick=True)])[0],
        "2 sides say they took the last trick; only one did",
    ),
    (
        lambda: _problems(
            "brisca",
            [plain(40, black_hand=True), plain(40, black_hand=True), plain(40)],
            "3",
            black_hand="on",
        )[0],
        "2 sides claim a black hand; only one can hold the Ace, Three and King of trumps",
    ),
    (
        lambda: _conflicts("brisca", [plain(70), None], 1, plain(70))[0],
        "Side 1 70 already: with your 70 the round's card points come to 140, and the deck "
        "holds 120. Yours would be 50. If theirs is wrong, the host can correct it.",
    ),
    (
        lambda: _conflicts("brisca", [plain(100), None, None], 1, plain(30), "3")[0],
        "Side 1 100 already: with your 30 the round's card points come to 130, and the deck "
        "holds 120. If theirs is wrong, the host can correct it.",
    ),
    (
        lambda: _conflicts("brisca", [plain(50), plain(40), None], 2, plain(20), "3")[0],
        "Side 1 50, Side 2 40 already: with your 20 the round's card points come to 110, and "
        "the deck holds 120. Yours would be 30. If theirs is wrong, the host can correct it.",
    ),
    (
        lambda: _conflicts(
            "brisca", [counted(table("brisca"), aces=3)], 1, counted(table("brisca"), aces=2)
        )[0],
        "Aces: Side 1 3 already, and your 2 would make 5; there are only 4.",
    ),
    (
        lambda: _conflicts(
            "brasta",
            [counted(table("brasta"), cards=20, clubs=7, last_hand=1)],
            1,
            counted(table("brasta"), cards=20, clubs=7, last_hand=1),
        )[1],
        "Side 1 has the Last Hand already: only one side can.",
    ),
    (
        lambda: _conflicts("basra", [plain(10, even_split=True)], 1, plain(70))[0],
        "You did not tick “Cards split evenly (26–26)”. Side 1 entered 10 and ticked "
        "“Cards split evenly (26–26)”. Only one of these can be true: check with Side 1; if "
        "theirs is wrong, the host can correct it.",
    ),
    (
        lambda: _conflicts(
            "pastura",
            [counted(table("pastura", "3"), cards=18, most_cards=1), None, None],
            1,
            counted(table("pastura", "3"), cards=19, most_cards=1),
            "3",
            me="Omar",
        )[0],
        "Omar answered “Yes, alone” to “Most cards”, with 19 cards captured. Side 1 answered "
        "“Yes, alone” to “Most cards”, with 18 cards captured. Only one of these can be true: "
        "make Omar and Side 1 agree.",
    ),
    (
        lambda: _conflicts("basra", [counted(table("basra"), cards=26)], 1, plain(20), me="Them")[
            0
        ],
        "Them entered 20 and did not tick “Cards split evenly (26–26)”. Side 1 counted 26 "
        "cards captured. Only one of these can be true: make Them and Side 1 agree.",
    ),
    (
        lambda: _conflicts("brisca", [plain(60, last_trick=True)], 1, plain(60, last_trick=True))[
            0
        ],
        "You ticked “Took the last trick”. Side 1 entered 60 and ticked “Took the last trick”. "
        "Only one of these can be true: check with Side 1; if theirs is wrong, the host can "
        "correct it.",
    ),
    (
        lambda: BASRA.calculate(table("basra"), {"cards": 27}, held_over=30).lines[0].label,
        "Majority (27+ cards, 30 held over)",
    ),
    (
        lambda: (
            BASRA.calculate(table("basra", "3"), {"cards": 20, "most_cards": 1}, 60).lines[0].label
        ),
        "Majority (most cards, 60 held over)",
    ),
    (lambda: BASRA.calculate(table("basra"), {"cards": 27}).lines[0].label, "Majority (27+ cards)"),
    (
        lambda: (
            BASRA.calculate(table("basra", basra_value="by_card"), {"cards": 2, "basra_8": 1})
            .lines[0]
            .label
        ),
        # Not "with a 8": the rank read as English reads it.
        "Basras with 8s",
    ),
    (lambda: BRASTA.target_label(401), "401 Standard"),
    (lambda: BRASTA.target_label(301), "301 points"),
    (lambda: BRISCA.target_label(1), "1 round"),
    (lambda: get_game("other").target_words(table("other", "free", winner="hands")), "100 hands"),
    (lambda: BRISCA.hand_word, "Round"),
    (lambda: table("basra").side_name(1), "Side 2"),
]


@pytest.mark.parametrize(("given", "english"), SAID)
def test_the_rules_values_read_as_they_always_did(given, english) -> None:
    assert say(given()) == english


def _refused_by(game, counts: dict[str, int], fmt: str = "2", **rules: str) -> Problem:
    with pytest.raises(CountError) as raised:
        game.calculate(table_for(game, fmt, None, **rules), counts)
    return raised.value.reason


def _conflicts_by(game, hand, side: int, entry: EntryFacts, fmt: str = "2", **rules: str):
    tbl = table_for(game, fmt, None, **rules)
    return [c.reason for c in game.entry_conflicts(tbl, hand, side, entry)]


def _tarneeb(points: int) -> EntryFacts:
    return plain(points)


# Escoba's, Scopa's and Tarneeb's values as an English-speaking table reads them.
SAID_44: list[tuple[Callable[[], object], str]] = [
    (
        lambda: _refused_by(ESCOBA_GAME, {"cards": 3, "escobas": 2}),
        "2 escobas take at least 4 cards, but the cards captured say 3.",
    ),
    (
        lambda: _refused_by(ESCOBA_GAME, {"cards": 5, "sevens": 1, "seven_coins": 1}),
        "7 of oros (velo): count it with your coins too.",
    ),
    (
        lambda: _refused_by(
            SCOPA_GAME,
            {
                "cards": 21,
                "coins": 7,
                "seven_coins": 1,
                "best_coins": 7,
                "best_cups": 7,
                "best_clubs": 7,
                "primiera": 1,
            },
        ),
        "A side with no card in some suit can't take the primiera.",
    ),
    (
        lambda: _refused_by(
            SCOPA_GAME,
            {"cards": 9, "coins": 8, "best_coins": 6, "napola": 8},
            napola="run",
        ),
        "A run of 8 denari holds the Settebello (7 of denari): tick it too.",
    ),
    (
        lambda: _conflicts_by(TARNEEB_GAME, [_tarneeb(5), None], 1, _tarneeb(3), "2v2")[0],
        "Side 1 entered 5; with your 3 both teams gain, and only one team gains a Tarneeb "
        "hand. If theirs is wrong, the host can correct it.",
    ),
    (
        lambda: _conflicts_by(TARNEEB_GAME, [_tarneeb(0), None], 1, _tarneeb(15), "2v2")[0],
        "No Tarneeb hand gives a team 15.",
    ),
    (
        lambda: _conflicts_by(
            ESCOBA_GAME,
            [
                counted_by(
                    ESCOBA_GAME, table_for(ESCOBA_GAME, "3"), cards=14, coins=4, most_coins=1
                ),
                None,
                None,
            ],
            1,
            counted_by(ESCOBA_GAME, table_for(ESCOBA_GAME, "3"), cards=10, coins=4, most_coins=1),
            "3",
        )[0],
        "“Most oros”: you answered “Yes, alone”; Oros: 4. “Most oros”: Side 1 answered "
        "“Yes, alone”; Oros: 4. Only one of these can be true: check with Side 1; if theirs "
        "is wrong, the host can correct it.",
    ),
    (
        lambda: (
            TARNEEB_GAME.calculate(
                table_for(TARNEEB_GAME, "2v2"), {"bidders": 1, "bid": 13, "tricks": 2}
            )
            .lines[0]
            .label
        ),
        "Their bid of 13 failed: twice our tricks",
    ),
    (lambda: SCOPA_GAME.formats[-1].label, "Scopone: 4 in 2 partnerships"),
    (lambda: Term.of("best_in", suit=Term("suit.espadas")), "Best card in espadas"),
]


@pytest.mark.parametrize(("given", "english"), SAID_44)
def test_the_new_games_values_read_as_english(given, english) -> None:
    assert say(given()) == english
