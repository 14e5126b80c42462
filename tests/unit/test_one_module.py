"""A game is one module: everything a game has is declared in scorekeeper/games/<name>.py, and
the rest of the app (its code, templates, scripts and styles) loops over what the games declare,
naming none. The catalogs, docs/ and the tests may name them; nothing else does, comments
included (a reader of the core learns how a game is asked, not which game asks)."""

from __future__ import annotations

import re
from pathlib import Path

from scorekeeper.games import GAMES, Game, Table, Tick

ROOT = Path(__file__).resolve().parents[2]
# What the app is made of, besides the games' own package and the catalogs.
APP = [ROOT / "scorekeeper", ROOT / "templates", ROOT / "static"]
APART = [ROOT / "scorekeeper" / "games", ROOT / "scorekeeper" / "translations"]
SOURCES = (".py", ".html", ".js", ".css", ".json", ".webmanifest", ".txt", ".cfg")


def _names_of_the_games() -> set[str]:
    """What would name a game: its key and English name, and the keys of what only it declares
    (its ticks, table rules and record lines). Other game, the app's own fallback, is named by
    the app where it offers it, as "other", so only its declarations count."""
    names: set[str] = set()
    for game in GAMES.values():
        if game.key != "other":
            names |= {game.key, str(game.words[f"game.{game.key}"].text)}
        names |= {tick.key for tick in _every_tick(game)}
        names |= {rule.key for rule in game.table_rules if game.key != "other"}
        names |= {key for key, _label in game.feats}
    return {name.lower() for name in names}


def _every_tick(game: Game) -> list[Tick]:
    """Every tick a game may declare, at every format it offers, its yes-or-no rules all off
    and all on."""
    found: dict[str, Tick] = {}
    for table_format in game.formats:
        for on in ("off", "on"):
            rules = {rule.key: on for rule in game.table_rules if rule.default in ("off", "on")}
            seated = Table(game.key, table_format.key, table_format.sides, 1, rules)
            found |= {tick.key: tick for tick in game.ticks(seated)}
    return list(found.values())


def _app_files() -> list[Path]:
    """Every source file of the app outside the games' package and the catalogs."""
    return sorted(
        path
        for top in APP
        for path in top.rglob("*")
        if path.is_file()
        and path.suffix in SOURCES
        and not any(path.is_relative_to(apart) for apart in APART)
        and "vendor" not in path.parts
    )


def test_the_names_cover_each_game_its_ticks_and_rules() -> None:
    names = _names_of_the_games()
    assert {"basra", "brisca", "even_split", "last_trick", "black_hand", "carry_over"} <= names


def test_no_file_outside_the_games_names_a_game() -> None:
    pattern = re.compile("|".join(sorted(map(re.escape, _names_of_the_games()))), re.IGNORECASE)
    named = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in _app_files()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if pattern.search(line)
    ]
    assert named == [], "\n".join(named)
