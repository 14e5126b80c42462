"""The registry and what each game offers the create form."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.games import GAMES, Table, Term, get_game
from scorekeeper.games.game import first_over_target
from scorekeeper.words import why

from .helpers import table

GAMES_DIR = Path(__file__).resolve().parents[2] / "scorekeeper" / "games"


def test_games_in_display_order() -> None:
    # The four first games stay where tables found them; the later ones follow, Other game last.
    assert list(GAMES) == [
        "basra",
        "pastura",
        "brisca",
        "brasta",
        "escoba",
        "scopa",
        "tarneeb",
        "other",
    ]
    assert [game.name for game in GAMES.values()] == [
        Term("game.basra"),
        Term("game.pastura"),
        Term("game.brisca"),
        Term("game.brasta"),
        Term("game.escoba"),
        Term("game.scopa"),
        Term("game.tarneeb"),
        Term("game.other"),
    ]


def test_unknown_game_is_a_key_error() -> None:
    with pytest.raises(KeyError):
        get_game("poker")


@pytest.mark.parametrize(
    ("key", "formats", "targets", "default", "unit", "bounds"),
    [
        ("basra", [("2", 2, 1), ("2v2", 2, 2), ("3", 3, 1)], (101, 121), 101, "points", (0, 999)),
        ("pastura", [("2", 2, 1), ("3", 3, 1), ("2v2", 2, 2)], (51, 101), 51, "points", (0, 999)),
        (
            "brisca",
            [("2", 2, 1), ("3", 3, 1), ("2v2", 2, 2), ("3v3", 2, 3)],
            tuple(range(1, 11)),
            3,
            "rounds",
            (0, 120),
        ),
        ("brasta", [("2", 2, 1)], (201, 401, 601), 401, "points", (-999, 999)),
        ("other", [("free", 2, 1)], (), 100, "points", (-9999, 9999)),
    ],
)
def test_formats_targets_and_bounds(key, formats, targets, default, unit, bounds) -> None:
    game = get_game(key)
    assert [(f.key, f.sides, f.players_per_side) for f in game.formats] == formats
    assert game.targets == targets
    assert game.default_target == default
    assert game.target_unit == unit
    assert (game.min_points, game.max_points) == bounds


@pytest.mark.parametrize(
    ("key", "rules"),
    [
        (
            "basra",
            {
                "carry_over": (("stack", "lapse"), "stack", None),
                "three_tie": (("held", "nobody"), "held", ("3",)),
                "double_basra": (("off", "on"), "off", None),
                "basra_value": (("flat", "by_card"), "flat", None),
                "seven_diamonds": (("standard", "other"), "standard", None),
            },
        ),
        ("pastura", {}),
        ("brisca", {"black_hand": (("off", "on"), "off", None)}),
        ("brasta", {}),
        ("other", {"winner": (("highest", "lowest", "hands"), "highest", None)}),
    ],
)
def test_table_rules(key, rules) -> None:
    found = {
        rule.key: (tuple(choice for choice, _ in rule.choices), rule.default, rule.formats)
        for rule in get_game(key).table_rules
    }
    assert found == rules


def test_three_tie_is_asked_only_of_three_players() -> None:
    three_tie = next(r for r in get_game("basra").table_rules if r.key == "three_tie")
    assert [three_tie.applies_to(f) for f in ("2", "2v2", "3")] == [False, False, True]


@pytest.mark.parametrize(
    ("key", "target", "label"),
    [
        ("brasta", 201, Term.of("target.named", target=201, name=Term("target.quick"))),
        ("brasta", 401, Term.of("target.named", target=401, name=Term("target.standard"))),
        ("brasta", 601, Term.of("target.named", target=601, name=Term("target.pro"))),
        ("brasta", 301, Term.of("points", num=301)),
        ("basra", 121, Term.of("points", num=121)),
        ("brisca", 3, Term.of("rounds.target", num=3)),
        ("brisca", 1, Term.of("rounds.target", num=1)),
        ("other", 250, Term.of("points", num=250)),
    ],
)
def test_target_labels(key, target, label) -> None:
    assert get_game(key).target_label(target) == label


# What a template asks each game instead of spelling its numbers: one row per game.
ASKED = [
    # key, deck_points, hand_word, goes_negative
    ("basra", None, Term("hand"), False),
    ("pastura", None, Term("hand"), False),
    ("brisca", 120, Term("round"), False),
    # docs/rules/brasta.md, "Scoring a hand": failed builds and Jack burns are -10 each, so a
    # hand may go below zero.
    ("brasta", None, Term("hand"), True),
    ("escoba", None, Term("hand"), False),
    ("scopa", None, Term("hand"), False),
    # docs/rules/tarneeb.md, "Scoring a hand": a bidding team that fails loses its bid.
    ("tarneeb", None, Term("hand"), True),
    ("other", None, Term("hand"), True),
]
# The yes/no table rules, as (game, rule): rule_on answers for these.
YES_NO_RULES = [
    ("basra", "double_basra"),
    ("brisca", "black_hand"),
    ("escoba", "bonus"),
    ("scopa", "napoleone"),
    ("scopa", "re_bello"),
    ("scopa", "cappotto"),
    ("tarneeb", "doubling"),
]


def test_every_game_is_asked_about() -> None:
    assert [row[0] for row in ASKED] == list(GAMES)


@pytest.mark.parametrize(("key", "deck_points", "hand_word", "goes_negative"), ASKED)
def test_what_the_sheet_asks_the_game(key, deck_points, hand_word, goes_negative) -> None:
    game = get_game(key)
    assert game.deck_points == deck_points
    assert game.hand_word == hand_word
    assert game.goes_negative is goes_negative


def test_the_yes_no_rules_all_start_off() -> None:
    # rule_on says False for a table without the rule, which is right only while "off" is
    # every yes/no rule's default.
    found = [
        (game.key, rule.key, rule.default)
        for game in GAMES.values()
        for rule in game.table_rules
        if tuple(choice for choice, _ in rule.choices) == ("off", "on")
    ]
    assert found == [(key, rule, "off") for key, rule in YES_NO_RULES]


@pytest.mark.parametrize(("key", "rule"), YES_NO_RULES)
def test_rule_on_reads_the_tables_choice(key, rule) -> None:
    on: dict[str, Any] = {rule: "on"}
    off: dict[str, Any] = {rule: "off"}
    # Seated in the game's first format (Tarneeb has only partnerships).
    seated = get_game(key).formats[0].key
    assert table(key, seated, **on).rule_on(rule) is True
    assert table(key, seated, **off).rule_on(rule) is False
    # A table made before the rule existed plays without it.
    made_before = Table(game=key, format=seated, sides=2, target=get_game(key).default_target)
    assert made_before.rule_on(rule) is False


@pytest.mark.parametrize("key", list(GAMES))
def test_rule_on_is_off_for_a_rule_the_table_does_not_have(key) -> None:
    tbl = table(key, get_game(key).formats[0].key)
    others = [rule for game, rule in YES_NO_RULES if game != key]
    assert others
    assert [tbl.rule_on(rule) for rule in others] == [False] * len(others)


def test_a_rule_with_other_choices_than_yes_or_no_is_never_on() -> None:
    assert table("basra", carry_over="stack").rule_on("carry_over") is False
    assert table("basra", carry_over="lapse").rule_on("carry_over") is False


@pytest.mark.parametrize(
    ("totals", "target", "expected"),
    [
        ((100, 90), 101, None),
        ((101, 90), 101, (0, "Reached 101 first")),
        ((110, 104), 101, (0, "Higher of two over 101")),
        ((104, 110), 101, (1, "Higher of two over 101")),
        ((105, 105), 101, None),
        ((105, 105, 120), 101, (2, "Highest of three over 101")),
        ((-40, 210), 201, (1, "Reached 201 first")),
    ],
)
def test_first_over_the_target(totals, target, expected) -> None:
    found = first_over_target(totals, target)
    assert (found and (found[0], why(found[1]))) == expected


def imported_by(source: str) -> set[str]:
    """The top-level packages a module's source imports, wherever in it (a function's body
    too); its own package's modules (from .base import ...) are not counted."""
    imported: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            imported |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            imported.add(node.module.split(".")[0])
    return imported


# What the rules may import: the standard library's plain shapes, nothing that words them.
ALLOWED = {"__future__", "collections", "dataclasses", "enum", "typing"}
WORDING = {"flask", "flask_babel", "babel"}


def test_the_import_check_sees_every_way_of_importing_the_wording() -> None:
    # The check below can fail: each way a module could reach Flask or Babel is seen.
    for source in (
        "import flask",
        "from flask_babel import gettext as _",
        "import babel.numbers",
        "from flask import current_app",
        "def words():\n    from flask_babel import lazy_gettext\n    return lazy_gettext",
    ):
        assert imported_by(source) & WORDING, source
    assert imported_by("from .base import Term\nfrom typing import Any") == {"typing"}


def test_the_rules_import_nothing_from_flask_babel_or_the_database() -> None:
    # Read the sources rather than import them: the parent package builds the Flask app, so
    # what sys.modules holds says nothing about the games package itself. The words are
    # scorekeeper/terms.py's: the rules name them by code.
    sources = sorted(GAMES_DIR.glob("*.py"))
    assert {"basra.py", "brisca.py", "calculator.py", "hand_checks.py", "other.py"} <= {
        source.name for source in sources
    }
    for source in sources:
        imported = imported_by(source.read_text(encoding="utf-8"))
        assert not imported & WORDING, source.name
        assert imported <= ALLOWED, source.name
