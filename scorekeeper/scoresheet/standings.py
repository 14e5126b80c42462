"""A group's standings: its roster players' figures over the season's matches, per game and
for all games, each pair of partners and the head-to-head grid (docs/groups.md).

Players are the group's roster, not phones: a side of a group's match is held by the roster
players its New match put there (SidePlayer), and by the player each phone seated on it said
it is in the group (GroupPhone.player_id), so a table kept on one phone counts for every player
at it. A player counts once a match, on the side the group's New match gave them first.

Each match's results were worked out through its game's rules once, when it ended (SideResult,
scoresheet/record.py). The standings are added up from those rows, in the order the matches
ended, by every change that moves them (a match that ends or is reopened, taken out or put
back, a phone that says which player it is), in its transaction, and stored as worked out
(Standing, with each player's partners, rivals and rating): a group's page reads a row a
player a scope, in two statements however long the season (bench/standings.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, NamedTuple

import sqlalchemy as sa

from scorekeeper.extensions import db
from scorekeeper.games import GAMES
from scorekeeper.models import (
    GroupMatch,
    GroupPhone,
    Match,
    RosterPlayer,
    Seat,
    Side,
    SidePlayer,
    SideResult,
    Standing,
    StoredGroup,
    picked,
)
from scorekeeper.scoresheet.series import Played as Link
from scorekeeper.scoresheet.series import judge
from scorekeeper.scoresheet.tallies import Run, Wins, better_hand

# The fewest matches a player plays in a scope before the standings rank them: fewer is luck.
LEAST_TO_RANK = 3


class Best(NamedTuple):
    """A player's best hand in a game: its points, the match's code and the hand's number."""

    value: int
    code: str
    hand: int


@dataclass
class Line(Run):
    """One roster player's figures over the matches of a scope (a game, or all games): the
    matches played and won, with the streaks (Run), and the rest."""

    player: int = field(kw_only=True)
    # Their sides' complete hands and the points those scored; their opponents' likewise.
    hands: int = 0
    points: int = 0
    against_hands: int = 0
    against_points: int = 0
    series: int = 0
    series_won: int = 0
    best_hand: Best | None = None
    # -1 when the best hand is best for being the lowest (its table played for the lowest).
    best_sign: int = 1
    # The player's rating after their latest match (scaled: ratings.shown), if the group rates.
    rating: tuple[int, int] | None = None

    @property
    def points_per_hand(self) -> float | None:
        """Their sides' points per complete hand."""
        return self.points / self.hands if self.hands else None

    @property
    def against_per_hand(self) -> float | None:
        """Their opponents' points per complete hand."""
        return self.against_points / self.against_hands if self.against_hands else None

    @property
    def ranked(self) -> bool:
        """Whether they played enough matches of the scope to be ranked (LEAST_TO_RANK)."""
        return self.played >= LEAST_TO_RANK


@dataclass
class Pair(Wins):
    """Two roster players on one side: the matches they played together and won."""

    first: int = field(kw_only=True)
    second: int = field(kw_only=True)


class Rivalry(NamedTuple):
    """Two players who met on different sides: the matches they met in, and those each won
    (a third side may win some, so the two don't always add up)."""

    first: int
    second: int
    met: int
    first_won: int
    second_won: int


@dataclass
class Scope:
    """The standings of one game (`game` its key) or of all games (None): the players' lines
    in the order the page states, the partnerships, and the head-to-head grid: for two players
    (row, column) who met on different sides, the matches they met in and those the row's
    player won (a third side may win them, so the two don't always add up)."""

    game: str | None
    lines: list[Line]
    pairs: list[Pair]
    met: dict[tuple[int, int], tuple[int, int]]

    @property
    def rivals(self) -> list[Line]:
        """The players who met another on a different side, in the standings' order: the
        head-to-head grid's rows and columns."""
        met = {row for row, _column in self.met}
        return [line for line in self.lines if line.player in met]

    @property
    def rivalries(self) -> list[Rivalry]:
        """Each two players who met on different sides, once, the better placed first: those
        who met most first, then in the standings' order (the head to head as a phone lists
        it)."""
        place = {line.player: at for at, line in enumerate(self.rivals)}
        found = [
            Rivalry(first, second, met, won, self.met.get((second, first), (0, 0))[1])
            for (first, second), (met, won) in self.met.items()
            if first in place and second in place and place[first] < place[second]
        ]
        return sorted(found, key=lambda two: (-two.met, place[two.first], place[two.second]))


class GroupResult(NamedTuple):
    """A side's stored result at one of the group's ended matches, with what the standings
    need of its match."""

    match_id: int
    counted: bool
    code: str
    game: str
    ended_at: datetime
    rematch_code: str | None
    side_id: int
    position: int
    won: bool
    hands: int
    points: int
    best_hand: int | None
    best_hand_number: int | None
    lowest_wins: bool


@dataclass
class Played:
    """One of the group's ended matches as the standings read it: its sides' results in place
    order, and the roster players on each (by place)."""

    match_id: int
    counted: bool
    code: str
    game: str
    ended_at: datetime
    rematch_code: str | None
    sides: list[GroupResult] = field(default_factory=list)
    players: dict[int, list[int]] = field(default_factory=dict)

    @property
    def winner(self) -> int | None:
        """The place of the side that won."""
        return next((side.position for side in self.sides if side.won), None)


@dataclass
class Standings:
    """A group's season: its roster by id (name, whether they left it), its ended matches in
    the order they ended, and the scopes: all games first, then each game in the registry's
    order."""

    group: StoredGroup
    season: int
    roster: dict[int, tuple[str, bool]]
    matches: list[Played]
    scopes: list[Scope]

    def scope(self, game: str | None) -> Scope | None:
        """The standings of one game (None: all games)."""
        return next((scope for scope in self.scopes if scope.game == game), None)

    def name(self, player: int) -> str:
        """A roster player's name."""
        return self.roster[player][0]


# From a match's place on in the order matches ended (`ended_at`, `match_id`): the ratings
# worked out again from there (ratings.rework).
SINCE = sa.tuple_(Match.ended_at, Match.id) >= sa.tuple_(
    sa.bindparam("ended_at"), sa.bindparam("match_id")
)


def _results(since: bool = False) -> sa.Select[*tuple[Any, ...]]:
    """Every side's stored result at the group's ended matches of a season (`group_id`,
    `season`), taken out or not, in the order the matches ended (from a place on: SINCE)."""
    return (
        sa.select(
            GroupMatch.match_id,
            GroupMatch.counted,
            Match.code,
            Match.game,
            Match.ended_at,
            Match.rematch_code,
            SideResult.side_id,
            Side.position,
            SideResult.won,
            SideResult.hands,
            SideResult.points,
            SideResult.best_hand,
            SideResult.best_hand_number,
            SideResult.lowest_wins,
        )
        .join(Match, Match.id == GroupMatch.match_id)
        .join(SideResult, SideResult.match_id == GroupMatch.match_id)
        .join(Side, Side.id == SideResult.side_id)
        .where(
            GroupMatch.group_id == sa.bindparam("group_id"),
            GroupMatch.season == sa.bindparam("season"),
            Match.status == Match.ENDED,
            *((SINCE,) if since else ()),
        )
        .order_by(Match.ended_at, Match.id, Side.position)
    )


def _holders(since: bool = False) -> sa.CompoundSelect[*tuple[Any, ...]]:
    """Who holds each side of the group's matches of a season (from a place on: SINCE): the
    roster players its New match put there, then the players the phones seated on it said
    they are (in the order they sat down): (match, side, player, whether the New match put
    them there)."""
    in_season = (
        GroupMatch.group_id == sa.bindparam("group_id"),
        GroupMatch.season == sa.bindparam("season"),
        *((GroupMatch.match_id.in_(sa.select(Match.id).where(SINCE)),) if since else ()),
    )
    placed = (
        sa.select(
            SidePlayer.match_id,
            SidePlayer.side_id,
            SidePlayer.player_id,
            sa.literal(0).label("said"),
            sa.literal(0).label("seat_id"),
        )
        .join(GroupMatch, GroupMatch.match_id == SidePlayer.match_id)
        .where(*in_season)
    )
    said = (
        sa.select(
            Seat.match_id,
            Seat.side_id,
            GroupPhone.player_id,
            sa.literal(1).label("said"),
            Seat.id,
        )
        .join(GroupMatch, GroupMatch.match_id == Seat.match_id)
        .join(
            GroupPhone,
            sa.and_(GroupPhone.group_id == GroupMatch.group_id, GroupPhone.phone == Seat.phone),
        )
        .where(*in_season, Seat.side_id.is_not(None), GroupPhone.player_id.is_not(None))
    )
    return sa.union_all(placed, said).order_by("said", "seat_id")


# Built once: building a statement costs more than running it.
RESULTS, RESULTS_SINCE = _results(), _results(since=True)
# A row of RESULTS (or RESULTS_SINCE: the same columns) as GroupResult's values, each field
# picked by its name in the statement.
_result_of = picked(RESULTS, [RESULTS.selected_columns[name] for name in GroupResult._fields])
HOLDERS, HOLDERS_SINCE = _holders(), _holders(since=True)


def holders_of(rows: Iterable[sa.Row[Any]]) -> dict[int, dict[int, int]]:
    """Each match's roster players, each on the side they hold (player id to side id), from
    rows such as HOLDERS' (match_id, side_id, player_id; in its order): a player counts once a
    match, where the group's New match put them, else on the side of the first seat their
    phone took."""
    holders: dict[int, dict[int, int]] = {}
    for row in rows:
        if row.side_id is None or row.player_id is None:
            continue
        holders.setdefault(row.match_id, {}).setdefault(row.player_id, row.side_id)
    return holders


def read_played(
    group_id: int, season: int, since: tuple[datetime, int] | None = None
) -> list[Played]:
    """The group's ended matches of a season (those from a place on, `since`), in the order
    they ended, each with its sides' results and the roster players on each: two statements."""
    params: dict[str, Any] = {"group_id": group_id, "season": season}
    results, holders = RESULTS, HOLDERS
    if since is not None:
        params |= {"ended_at": since[0], "match_id": since[1]}
        results, holders = RESULTS_SINCE, HOLDERS_SINCE
    matches: dict[int, Played] = {}
    side_at: dict[int, int] = {}
    for row in db.session.execute(results, params):
        one = GroupResult(*_result_of(row))
        played = matches.get(one.match_id)
        if played is None:
            played = matches[one.match_id] = Played(
                one.match_id, one.counted, one.code, one.game, one.ended_at, one.rematch_code
            )
        played.sides.append(one)
        side_at[one.side_id] = one.position
    for match_id, by_player in holders_of(db.session.execute(holders, params)).items():
        played = matches.get(match_id)
        if played is None:
            continue
        for player_id, side_id in by_player.items():
            if side_id in side_at:
                played.players.setdefault(side_at[side_id], []).append(player_id)
    return list(matches.values())


def _roster(group_id: int) -> dict[int, tuple[str, bool]]:
    """The group's roster by id, in the order of their names: (name, whether they left)."""
    return {
        player_id: (name, left)
        for player_id, name, left in db.session.execute(
            sa.select(RosterPlayer.id, RosterPlayer.name, RosterPlayer.left)
            .where(RosterPlayer.group_id == group_id)
            .order_by(RosterPlayer.name, RosterPlayer.id)
        )
    }


def work_out(group_id: int, season: int) -> list[Scope]:
    """A season's standings added up again from the stored results, in the order the matches
    ended (three statements: the roster, the results, who held each side): all games first,
    then each game in the registry's order."""
    roster = _roster(group_id)
    played = read_played(group_id, season)
    games = [key for key in GAMES if any(one.game == key and one.counted for one in played)]
    return [
        _scope(None, played, roster),
        *(_scope(key, [one for one in played if one.game == key], roster) for key in games),
    ]


def store(group_id: int, season: int) -> None:
    """Work a season's standings out again and store them, a row a player a scope, in the
    writer's transaction: called by every change that moves them (ratings.results_changed)."""
    scopes = work_out(group_id, season)
    db.session.execute(
        sa.delete(Standing).where(Standing.group_id == group_id, Standing.season == season)
    )
    rows = []
    for scope in scopes:
        partners: dict[int, dict[str, list[int]]] = {}
        for pair in scope.pairs:
            partners.setdefault(pair.first, {})[str(pair.second)] = [pair.played, pair.won]
            partners.setdefault(pair.second, {})[str(pair.first)] = [pair.played, pair.won]
        met: dict[int, dict[str, list[int]]] = {}
        for (row, column), (played, won) in scope.met.items():
            met.setdefault(row, {})[str(column)] = [played, won]
        for line in scope.lines:
            best = line.best_hand
            rows.append(
                {
                    "group_id": group_id,
                    "season": season,
                    "game": scope.game or "",
                    "player_id": line.player,
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
                    "best_hand": best.value if best else None,
                    "best_hand_number": best.hand if best else None,
                    "best_code": best.code if best else None,
                    "best_sign": line.best_sign,
                    "partners": partners.get(line.player, {}),
                    "met": met.get(line.player, {}),
                    "rating": None,
                    "uncertainty": None,
                }
            )
    if rows:
        db.session.execute(sa.insert(Standing), rows)


# Built once: building a statement costs more than running it.
STANDINGS_OF = sa.select(
    Standing.game,
    Standing.player_id,
    Standing.played,
    Standing.won,
    Standing.hands,
    Standing.points,
    Standing.against_hands,
    Standing.against_points,
    Standing.streak,
    Standing.best_streak,
    Standing.series,
    Standing.series_won,
    Standing.best_hand,
    Standing.best_hand_number,
    Standing.best_code,
    Standing.best_sign,
    # Only the shown scope's partners and rivals: decoding every game's cost more than the rest.
    sa.case(
        (
            sa.or_(sa.bindparam("every", sa.Boolean), Standing.game == sa.bindparam("scope")),
            Standing.partners,
        )
    ),
    sa.case(
        (
            sa.or_(sa.bindparam("every", sa.Boolean), Standing.game == sa.bindparam("scope")),
            Standing.met,
        )
    ),
    Standing.rating,
    Standing.uncertainty,
).where(Standing.group_id == sa.bindparam("group_id"), Standing.season == sa.bindparam("season"))


def read_standings(
    group: StoredGroup,
    season: int | None = None,
    *,
    scope: str | None = None,
    every_scope: bool = False,
    with_matches: bool = False,
) -> Standings:
    """A group's standings for a season (its current one by default), as stored when they last
    changed: two statements, a row a player a scope (their rating on it), however many
    matches it played, with the partners and rivals of `scope` (a game's key; None: all games)
    or of `every_scope`; `with_matches`, the season's matches too (the JSON export), two
    more."""
    season = group.season if season is None else season
    params = {"group_id": group.id, "season": season, "scope": scope or "", "every": every_scope}
    roster = _roster(group.id)
    lines: dict[str | None, list[Line]] = {}
    pairs: dict[str | None, list[Pair]] = {}
    met: dict[str | None, dict[tuple[int, int], tuple[int, int]]] = {}
    for row in db.session.execute(STANDINGS_OF, params):
        (game, player, played, won, hands, points, ah, ap, streak, best_streak, series,
         series_won, best_hand, best_number, best_code, best_sign, partners, rivals, rating,
         uncertainty) = row  # fmt: skip
        scope = game or None
        best = (
            Best(best_hand, best_code, best_number)
            if best_hand is not None and best_code is not None and best_number is not None
            else None
        )
        line = Line(
            player=player, played=played, won=won, hands=hands, points=points,
            against_hands=ah, against_points=ap, streak=streak, best_streak=best_streak,
            series=series, series_won=series_won, best_hand=best, best_sign=best_sign,
        )  # fmt: skip
        if group.rated and rating is not None and uncertainty is not None:
            line.rating = (rating, uncertainty)
        lines.setdefault(scope, []).append(line)
        for other, (together, won_together) in (partners or {}).items():
            if player < int(other):
                pairs.setdefault(scope, []).append(
                    Pair(together, won_together, first=player, second=int(other))
                )
        for other, (against, beat) in (rivals or {}).items():
            met.setdefault(scope, {})[(player, int(other))] = (against, beat)
    games = [key for key in GAMES if key in lines]
    scopes = [
        Scope(
            game,
            sorted(lines.get(game, []), key=lambda line: _order(line, roster)),
            sorted(pairs.get(game, []), key=lambda p: (-p.played, -p.won, p.first, p.second)),
            met.get(game, {}),
        )
        for game in [None, *games]
    ]
    played_matches = read_played(group.id, season) if with_matches else []
    return Standings(group, season, roster, played_matches, scopes)


def _scope(game: str | None, played: Sequence[Played], roster: dict[int, Any]) -> Scope:
    """One scope's lines, pairs and grid, from its matches in the order they ended (those
    taken out of the standings left out)."""
    counted = [one for one in played if one.counted]
    lines: dict[int, Line] = {}
    pairs: dict[tuple[int, int], Pair] = {}
    met: dict[tuple[int, int], Wins] = {}
    for one in counted:
        by_place = {side.position: side for side in one.sides}
        for place, players in one.players.items():
            mine = by_place[place]
            others = [side for side in one.sides if side.position != place]
            for player in players:
                if player not in roster:
                    continue
                line = lines.setdefault(player, Line(player=player))
                line.add(mine.won)
                line.hands += mine.hands
                line.points += mine.points
                line.against_hands += sum(side.hands for side in others)
                line.against_points += sum(side.points for side in others)
                if game is not None:
                    _best_hand(line, mine, one.code)
            for first in players:
                for second in players:
                    if first < second:
                        pair = pairs.setdefault((first, second), Pair(first=first, second=second))
                        pair.add(mine.won)
                for other_place, opponents in one.players.items():
                    if other_place == place:
                        continue
                    for opponent in opponents:
                        met.setdefault((first, opponent), Wins()).add(mine.won)
    _series_of(played, lines)
    ordered = sorted(lines.values(), key=lambda line: _order(line, roster))
    return Scope(
        game,
        ordered,
        sorted(pairs.values(), key=lambda p: (-p.played, -p.won, p.first, p.second)),
        {key: (cell.played, cell.won) for key, cell in met.items()},
    )


def _order(line: Line, roster: dict[int, Any]) -> tuple[Any, ...]:
    """The order the page states: ranked players by win share, then wins, then points per
    hand; then those not ranked yet, by matches played; a name breaks what is left."""
    name = roster[line.player][0]
    if line.ranked:
        return (0, -(line.win_share or 0), -line.won, -(line.points_per_hand or 0), name)
    return (1, -line.played, 0, 0, name)


def _best_hand(line: Line, mine: GroupResult, code: str) -> None:
    """A game's best hand: the highest, or the lowest where its table played for the lowest
    (a table played for the highest ranks above one played for the lowest: the Other game
    may hold both, whose hands don't compare), as a phone's record ranks them."""
    if mine.best_hand is None or mine.best_hand_number is None:
        return
    best = line.best_hand.value if line.best_hand else None
    if better_hand(mine.best_hand, mine.lowest_wins, best, line.best_sign):
        line.best_hand = Best(mine.best_hand, code, mine.best_hand_number)
        line.best_sign = -1 if mine.lowest_wins else 1


def _series_of(played: Sequence[Played], lines: dict[int, Line]) -> None:
    """Each series (a match and the rematches after it, two counted matches or more) counted
    for the players at its last counted match, and won by those whose side there leads it
    alone, judged by who played (series.py), with roster players for phones. A match taken out
    of the standings leaves the series it was in, which goes on through it."""
    by_code = {one.code: one for one in played}
    followed = {one.rematch_code for one in played if one.rematch_code in by_code}
    for first in played:
        if first.code in followed:
            continue
        chain = [first]
        while chain[-1].rematch_code in by_code and len(chain) <= len(played):
            chain.append(by_code[chain[-1].rematch_code])
        chain = [one for one in chain if one.counted]
        if len(chain) < 2:
            continue
        links = [
            Link(
                one.match_id,
                True,
                one.winner,
                {place: {str(p) for p in players} for place, players in one.players.items()},
            )
            for one in chain
        ]
        last = chain[-1]
        series = judge(links, len(last.sides))
        for place, players in last.players.items():
            for player in players:
                if player in lines:
                    lines[player].series += 1
                    lines[player].series_won += series.leaders == (place,)
