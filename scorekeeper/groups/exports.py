"""A group's season taken away to keep: its standings as a spreadsheet (CSV), and its
standings with the matches they come from as JSON. Neither says anything of its players but
what the group's page shows: the roster's names and the matches played in the group."""

from __future__ import annotations

from typing import Any

from flask_babel import gettext as _

from scorekeeper.games import GAMES
from scorekeeper.languages import iso_utc
from scorekeeper.scoresheet.standings import LEAST_TO_RANK, Line, Standings
from scorekeeper.spreadsheets import spreadsheet_safe

# The JSON export's shape, for whatever reads it: "format" and "version" first.
JSON_FORMAT, JSON_VERSION = "scorekeeper-group", 1
# The order of the standings, as the page states it (in English here, as the JSON's keys).
ORDER = (
    f"players with {LEAST_TO_RANK} matches or more by win share, then wins, then points per "
    "hand; then the others by matches played; then by name"
)


def _line(standings: Standings, line: Line) -> dict[str, Any]:
    """One player's figures in a scope, as the JSON gives them: counts, not shares."""
    best = line.best_hand
    return {
        "player": standings.name(line.player),
        "ranked": line.ranked,
        "played": line.played,
        "won": line.won,
        "hands": line.hands,
        "points": line.points,
        "against_hands": line.against_hands,
        "against_points": line.against_points,
        "streak": line.streak,
        "best_streak": line.best_streak,
        "series": line.series,
        "series_won": line.series_won,
        "best_hand": {"points": best.value, "match": best.code, "hand": best.hand}
        if best is not None
        else None,
        "rating": {"rating": line.rating[0], "uncertainty": line.rating[1]}
        if line.rating is not None
        else None,
    }


def standings_json(standings: Standings) -> dict[str, Any]:
    """The season: the group, its roster, its ended matches in the order they ended (who held
    each side, whether the match counts), and the standings of all games and of each game."""
    group = standings.group
    return {
        "format": JSON_FORMAT,
        "version": JSON_VERSION,
        "group": {
            "code": group.code,
            "name": group.name,
            "season": standings.season,
            "seasons": group.season,
            "rated": group.rated,
        },
        "least_to_rank": LEAST_TO_RANK,
        "order": ORDER,
        "roster": [{"player": name, "left": left} for name, left in standings.roster.values()],
        "matches": [
            {
                "code": one.code,
                "game": one.game,
                "ended_at": iso_utc(one.ended_at),
                "counted": one.counted,
                "rematch": one.rematch_code,
                "sides": [
                    {
                        "position": side.position,
                        "won": side.won,
                        "players": [standings.name(p) for p in one.players.get(side.position, [])],
                        "hands": side.hands,
                        "points": side.points,
                        "best_hand": side.best_hand,
                        "best_hand_number": side.best_hand_number,
                        "lowest_wins": side.lowest_wins,
                    }
                    for side in one.sides
                ],
            }
            for one in standings.matches
        ],
        "standings": [
            {
                "game": scope.game,
                "players": [_line(standings, line) for line in scope.lines],
                "partners": [
                    {
                        "players": [standings.name(pair.first), standings.name(pair.second)],
                        "played": pair.played,
                        "won": pair.won,
                    }
                    for pair in scope.pairs
                ],
                "head_to_head": [
                    {
                        "player": standings.name(row),
                        "opponent": standings.name(column),
                        "played": played,
                        "won": won,
                    }
                    for (row, column), (played, won) in sorted(scope.met.items())
                ],
            }
            for scope in standings.scopes
        ],
    }


def _share(value: float | None) -> str:
    """A share or an average, to one decimal ("" for none)."""
    return f"{value:.3f}" if value is not None else ""


def standings_rows(standings: Standings) -> list[list[Any]]:
    """The standings as a spreadsheet: a heading, then a row a player a scope (all games
    first), in the page's order. Its headings are in the language of the phone that asks."""
    rows: list[list[Any]] = [
        [
            # NOTE: the headings of a group's downloaded standings, in lower case.
            _("season"),
            _("game"),
            _("place"),
            _("player"),
            _("played"),
            _("won"),
            _("win share"),
            _("points per hand"),
            _("against per hand"),
            _("streak"),
            _("best streak"),
            _("series won"),
            _("series"),
            _("best hand"),
            _("rating"),
            _("uncertainty"),
        ]
    ]
    for scope in standings.scopes:
        game = str(GAMES[scope.game].name) if scope.game else _("all games")
        for place, line in enumerate(scope.lines, start=1):
            rows.append(
                [
                    standings.season,
                    game,
                    place if line.ranked else "",
                    spreadsheet_safe(standings.name(line.player)),
                    line.played,
                    line.won,
                    _share(line.win_share),
                    _share(line.points_per_hand),
                    _share(line.against_per_hand),
                    line.streak,
                    line.best_streak,
                    line.series_won,
                    line.series,
                    line.best_hand.value if line.best_hand else "",
                    line.rating[0] if line.rating else "",
                    line.rating[1] if line.rating else "",
                ]
            )
    return rows
