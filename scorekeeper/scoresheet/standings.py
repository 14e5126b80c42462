"""A group's standings: its roster players' figures over the season's matches, per game and
for all games, each pair of partners and the head-to-head grid (docs/groups.md).

Players are the group's roster, not phones: a side of a group's match is held by the roster
players its New match put there (SidePlayer), and by the player each phone seated on it said
it is in the group (GroupPhone.player_id), so a table kept on one phone counts for every player
at it. A player counts once a match, on the side the group's New match gave them first.

Each match's results were worked out through its game's rules once, when it ended (SideResult,
scoresheet/record.py): the standings are read from those rows in four statements whatever
the season's size (the results, the players on each side, the roster, the latest ratings),
and added up here in the order the matches ended.
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
    Pairing,
    RosterPlayer,
    Seat,
    Side,
    SidePlayer,
    SideResult,
    Standing,
    StoredGroup,
)
from scorekeeper.scoresheet.series import Played as Link
from scorekeeper.scoresheet.series import judge

# The fewest matches a player plays in a scope before the standings rank them: fewer is luck.
LEAST_TO_RANK = 3


class Best(NamedTuple):
    """A player's best hand in a game: its points, the match's code and the hand's number."""

    value: int
    code: str
    hand: int


@dataclass
class Line:
    """One roster player's figures over the matches of a scope (a game, or all games)."""

    player: int
    played: int = 0
    won: int = 0
    # Their sides' complete hands and the points those scored; their opponents' likewise.
    hands: int = 0
    points: int = 0
    against_hands: int = 0
    against_points: int = 0
    streak: int = 0
    best_streak: int = 0
    series: int = 0
    series_won: int = 0
    best_hand: Best | None = None
    # -1 when the best hand is best for being the lowest (its table played for the lowest).
    best_sign: int = 1
    # The player's rating after their latest match (scaled: ratings.shown), if the group rates.
    rating: tuple[int, int] | None = None

    @property
    def win_share(self) -> float | None:
        """Wins over matches played (None before any)."""
        return self.won / self.played if self.played else None

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
class Pair:
    """Two roster players on one side: the matches they played together and won."""

    first: int
    second: int
    played: int = 0
    won: int = 0


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
HOLDERS, HOLDERS_SINCE = _holders(), _holders(since=True)


def holders_of(
    rows: Iterable[tuple[int, int | None, int | None, int, int]],
) -> dict[int, dict[int, int]]:
    """Each match's roster players, each on the side they hold (player id to side id), from
    HOLDERS' rows: a player counts once a match, where the group's New match put them, else
    on the side of the first seat their phone took."""
    holders: dict[int, dict[int, int]] = {}
    for match_id, side_id, player_id, _said, _seat in rows:
        if side_id is None or player_id is None:
            continue
        holders.setdefault(match_id, {}).setdefault(player_id, side_id)
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
        one = GroupResult._make(row)
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


def _figures() -> sa.CompoundSelect[*tuple[Any, ...]]:
    """Every figure of a season's standings (`group_id`, `season`) in one statement, added up
    by the database from the stored results, whatever the season's size. Its rows, by kind:

    LINE: (game or None, player, played, won, hands, points, against hands, against points)
    STREAK: (game or None, player, best streak, current streak)
    BEST: (game, player, points, hand number, lowest wins, match code)
    PAIR: (game or None, player, partner, played, won)
    MET: (game or None, player, opponent, played, won)
    SERIES: (None, player, match, position, won, match code, its rematch's code)
    LINK: a match taken out of the standings in a series: (match code, its rematch's code)
    """
    in_season = (
        GroupMatch.group_id == sa.bindparam("group_id"),
        GroupMatch.season == sa.bindparam("season"),
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
        .where(*in_season, GroupMatch.counted.is_(True))
    )
    said = (
        sa.select(Seat.match_id, Seat.side_id, GroupPhone.player_id, sa.literal(1), Seat.id)
        .join(GroupMatch, GroupMatch.match_id == Seat.match_id)
        .join(
            GroupPhone,
            sa.and_(GroupPhone.group_id == GroupMatch.group_id, GroupPhone.phone == Seat.phone),
        )
        .where(
            *in_season,
            GroupMatch.counted.is_(True),
            Seat.side_id.is_not(None),
            GroupPhone.player_id.is_not(None),
        )
    )
    held = sa.union_all(placed, said).subquery("held")
    # A player counts once a match: where its New match put them, else their first seat.
    ranked = sa.select(
        held.c.match_id,
        held.c.side_id,
        held.c.player_id,
        sa.func.row_number()
        .over(
            partition_by=(held.c.match_id, held.c.player_id),
            order_by=(held.c.said, held.c.seat_id),
        )
        .label("rn"),
    ).subquery("ranked")
    every_side = sa.orm.aliased(SideResult)
    totals = (
        sa.select(
            every_side.match_id,
            sa.func.sum(every_side.hands).label("hands"),
            sa.func.sum(every_side.points).label("points"),
        )
        .join(GroupMatch, GroupMatch.match_id == every_side.match_id)
        .where(*in_season, GroupMatch.counted.is_(True))
        .group_by(every_side.match_id)
        .subquery("totals")
    )
    won = sa.case((SideResult.won, 1), else_=0)
    followed = sa.orm.aliased(Match)
    seated = (
        sa.select(
            ranked.c.player_id.label("player"),
            ranked.c.match_id.label("match_id"),
            ranked.c.side_id.label("side_id"),
            Side.position.label("position"),
            Match.game.label("game"),
            Match.code.label("code"),
            Match.rematch_code.label("rematch_code"),
            Match.ended_at.label("ended_at"),
            won.label("won"),
            SideResult.hands.label("hands"),
            SideResult.points.label("points"),
            (totals.c.hands - SideResult.hands).label("against_hands"),
            (totals.c.points - SideResult.points).label("against_points"),
            SideResult.best_hand.label("best_hand"),
            SideResult.best_hand_number.label("best_hand_number"),
            sa.case((SideResult.lowest_wins, 1), else_=0).label("lowest_wins"),
            sa.or_(
                Match.rematch_code.is_not(None),
                sa.exists().where(followed.rematch_code == Match.code),
            ).label("in_series"),
        )
        .join(SideResult, SideResult.side_id == ranked.c.side_id)
        .join(Side, Side.id == ranked.c.side_id)
        .join(Match, Match.id == ranked.c.match_id)
        .join(totals, totals.c.match_id == ranked.c.match_id)
        .where(ranked.c.rn == 1, Match.status == Match.ENDED)
        .cte("seated")
        # Worked out once for every part of the statement that reads it (PostgreSQL would
        # anyway; SQLite would work it out again for each).
        .prefix_with("MATERIALIZED")
    )
    c = seated.c
    nothing = sa.null()

    def row(kind: int, game: Any, numbers: Sequence[Any], words: Sequence[Any] = ()) -> list[Any]:
        """A row of FIGURES: its kind, its game, seven whole numbers and two words (codes),
        each column one type in every part, as a UNION needs on PostgreSQL."""
        ints = [sa.cast(v, sa.BigInteger) for v in numbers]
        ints += [sa.cast(nothing, sa.BigInteger)] * (7 - len(ints))
        texts = [sa.cast(v, sa.String) for v in words]
        texts += [sa.cast(nothing, sa.String)] * (2 - len(texts))
        return [sa.literal(kind).label("kind"), sa.cast(game, sa.String), *ints, *texts]

    def lines(game: Any, by: tuple[Any, ...]) -> sa.Select[Any]:
        return sa.select(
            *row(
                LINE,
                game,
                [
                    c.player,
                    sa.func.count(),
                    sa.func.sum(c.won),
                    sa.func.sum(c.hands),
                    sa.func.sum(c.points),
                    sa.func.sum(c.against_hands),
                    sa.func.sum(c.against_points),
                ],
            )
        ).group_by(*by)

    def streaks(game: Any, by: tuple[Any, ...]) -> sa.Select[Any]:
        order = (c.ended_at, c.match_id)
        runs = sa.select(
            c.game,
            c.player,
            c.won,
            (
                sa.func.row_number().over(partition_by=by, order_by=order)
                - sa.func.row_number().over(partition_by=(*by, c.won), order_by=order)
            ).label("run"),
            sa.func.row_number()
            .over(partition_by=by, order_by=(c.ended_at.desc(), c.match_id.desc()))
            .label("from_last"),
        ).subquery()
        lengths = (
            sa.select(
                runs.c.game if game is not nothing else nothing.label("game"),
                runs.c.player,
                sa.func.count().label("length"),
                sa.func.min(runs.c.from_last).label("from_last"),
            )
            .where(runs.c.won == 1)
            .group_by(*(runs.c[col.name] for col in by), runs.c.run)
            .subquery()
        )
        grouped = tuple(lengths.c[col.name] for col in by)
        return sa.select(
            *row(
                STREAK,
                lengths.c.game if game is not nothing else nothing,
                [
                    lengths.c.player,
                    sa.func.max(lengths.c.length),
                    sa.func.max(sa.case((lengths.c.from_last == 1, lengths.c.length), else_=0)),
                ],
            )
        ).group_by(*grouped)

    def together(game: Any, kind: int, same_side: bool) -> sa.Select[Any]:
        # Each pairing's own names: a CTE's aliases must differ across the statement.
        named = f"{kind}_{'game' if game is not nothing else 'all'}"
        a, b = seated.alias(f"a_{named}"), seated.alias(f"b_{named}")
        side = a.c.side_id == b.c.side_id if same_side else a.c.side_id != b.c.side_id
        pairing = a.c.player < b.c.player if same_side else a.c.player != b.c.player
        by = (a.c.game, a.c.player, b.c.player) if game is not nothing else (a.c.player, b.c.player)
        return (
            sa.select(
                *row(
                    kind,
                    a.c.game if game is not nothing else nothing,
                    [a.c.player, b.c.player, sa.func.count(), sa.func.sum(a.c.won)],
                )
            )
            .select_from(a)
            .join(b, sa.and_(a.c.match_id == b.c.match_id, side, pairing))
            .group_by(*by)
        )

    signed = sa.case((c.lowest_wins == 1, -c.best_hand), else_=c.best_hand)
    bests = (
        sa.select(
            c.game,
            c.player,
            c.best_hand,
            c.best_hand_number,
            c.lowest_wins,
            c.code,
            sa.func.row_number()
            .over(
                partition_by=(c.game, c.player),
                order_by=(c.lowest_wins, signed.desc(), c.ended_at, c.match_id),
            )
            .label("rn"),
        )
        .where(c.best_hand.is_not(None))
        .subquery()
    )
    links = (
        sa.select(*row(LINK, nothing, [], [Match.code, Match.rematch_code]))
        .join(GroupMatch, GroupMatch.match_id == Match.id)
        .where(
            *in_season,
            GroupMatch.counted.is_(False),
            Match.status == Match.ENDED,
            Match.rematch_code.is_not(None),
        )
    )
    return sa.union_all(
        lines(c.game, (c.game, c.player)),
        lines(nothing, (c.player,)),
        streaks(c.game, (c.game, c.player)),
        streaks(nothing, (c.player,)),
        sa.select(
            *row(
                BEST,
                bests.c.game,
                [bests.c.player, bests.c.best_hand, bests.c.best_hand_number, bests.c.lowest_wins],
                [bests.c.code],
            )
        ).where(bests.c.rn == 1),
        together(c.game, PAIR, True),
        together(nothing, PAIR, True),
        together(c.game, MET, False),
        together(nothing, MET, False),
        sa.select(
            *row(
                SERIES,
                c.game,
                [c.player, c.match_id, c.position, c.won],
                [c.code, c.rematch_code],
            )
        ).where(c.in_series),
        links,
    )


# The kinds of FIGURES' rows.
LINE, STREAK, BEST, PAIR, MET, SERIES, LINK = range(7)
# Built once: building a statement costs more than running it.
FIGURES = _figures()


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
    """A season's standings added up again by the database from the stored results (FIGURES,
    one statement however long the season)."""
    rows = db.session.execute(FIGURES, {"group_id": group_id, "season": season}).all()
    return _added_up(_roster(group_id), rows)


def store(group_id: int, season: int) -> None:
    """Work a season's standings out again and store them, in the writer's transaction: called
    by every change that moves them (ratings.results_changed, groups.py)."""
    scopes = work_out(group_id, season)
    where = (Standing.group_id == group_id, Standing.season == season)
    db.session.execute(sa.delete(Standing).where(*where))
    db.session.execute(
        sa.delete(Pairing).where(Pairing.group_id == group_id, Pairing.season == season)
    )
    standing_rows = [
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
            "best_hand": line.best_hand.value if line.best_hand else None,
            "best_hand_number": line.best_hand.hand if line.best_hand else None,
            "best_code": line.best_hand.code if line.best_hand else None,
            "best_sign": line.best_sign,
        }
        for scope in scopes
        for line in scope.lines
    ]
    pairing_rows = [
        {
            "group_id": group_id,
            "season": season,
            "game": scope.game or "",
            "partners": True,
            "player_id": pair.first,
            "other_id": pair.second,
            "played": pair.played,
            "won": pair.won,
        }
        for scope in scopes
        for pair in scope.pairs
    ] + [
        {
            "group_id": group_id,
            "season": season,
            "game": scope.game or "",
            "partners": False,
            "player_id": row,
            "other_id": column,
            "played": played,
            "won": won,
        }
        for scope in scopes
        for (row, column), (played, won) in scope.met.items()
    ]
    if standing_rows:
        db.session.execute(sa.insert(Standing), standing_rows)
    if pairing_rows:
        db.session.execute(sa.insert(Pairing), pairing_rows)


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
).where(Standing.group_id == sa.bindparam("group_id"), Standing.season == sa.bindparam("season"))
PAIRINGS_OF = sa.select(
    Pairing.game,
    Pairing.partners,
    Pairing.player_id,
    Pairing.other_id,
    Pairing.played,
    Pairing.won,
).where(Pairing.group_id == sa.bindparam("group_id"), Pairing.season == sa.bindparam("season"))


def read_standings(
    group: StoredGroup, season: int | None = None, *, with_matches: bool = False
) -> Standings:
    """A group's standings for a season (its current one by default), as stored when they last
    changed: three statements (four if it keeps a rating), a row a player and a row a pair,
    however many matches it played; `with_matches`, the season's matches too (the JSON
    export), two more."""
    # Imported here: ratings reads the matches the way the standings do (read_played).
    from scorekeeper.scoresheet.ratings import latest_ratings

    season = group.season if season is None else season
    params = {"group_id": group.id, "season": season}
    roster = _roster(group.id)
    lines: dict[str | None, list[Line]] = {}
    for row in db.session.execute(STANDINGS_OF, params):
        (game, player, played, won, hands, points, ah, ap, streak, best_streak, series,
         series_won, best_hand, best_number, best_code, best_sign) = row  # fmt: skip
        best = (
            Best(best_hand, best_code, best_number)
            if best_hand is not None and best_code is not None and best_number is not None
            else None
        )
        line = Line(
            player, played, won, hands, points, ah, ap, streak, best_streak, series,
            series_won, best, best_sign,
        )  # fmt: skip
        lines.setdefault(game or None, []).append(line)
    pairs: dict[str | None, list[Pair]] = {}
    met: dict[str | None, dict[tuple[int, int], tuple[int, int]]] = {}
    for game, partners, first, second, played, won in db.session.execute(PAIRINGS_OF, params):
        if partners:
            pairs.setdefault(game or None, []).append(Pair(first, second, played, won))
        else:
            met.setdefault(game or None, {})[(first, second)] = (played, won)
    ratings = latest_ratings(group.id, season) if group.rated else {}
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
    for line in scopes[0].lines:
        line.rating = ratings.get(line.player)
    played_matches = read_played(group.id, season) if with_matches else []
    return Standings(group, season, roster, played_matches, scopes)


def _added_up(roster: dict[int, Any], rows: Sequence[Any]) -> list[Scope]:
    """The scopes from FIGURES' rows: all games, then each game played."""
    lines: dict[str | None, dict[int, Line]] = {}
    pairs: dict[str | None, list[Pair]] = {}
    met: dict[str | None, dict[tuple[int, int], tuple[int, int]]] = {}
    series_rows = []
    links: dict[str, str] = {}
    for kind, game, *v in rows:
        numbers, words = v[:7], v[7:]
        if kind == LINE:
            player = numbers[0]
            if player in roster:
                lines.setdefault(game, {})[player] = Line(player, *numbers[1:7])
        elif kind == SERIES:
            series_rows.append((game, *numbers[:4], *words))
        elif kind == LINK:
            links[words[0]] = words[1]
        elif kind == PAIR:
            pairs.setdefault(game, []).append(Pair(*numbers[:4]))
        elif kind == MET:
            met.setdefault(game, {})[(numbers[0], numbers[1])] = (numbers[2], numbers[3])
    for kind, game, *v in rows:
        numbers, words = v[:7], v[7:]
        line = lines.get(game, {}).get(numbers[0]) if kind in (STREAK, BEST) else None
        if line is None:
            continue
        if kind == STREAK:
            line.best_streak, line.streak = numbers[1], numbers[2]
        else:
            line.best_hand = Best(numbers[1], words[0], numbers[2])
            line.best_sign = -1 if numbers[3] else 1
    _series(series_rows, links, lines)
    games = [key for key in GAMES if key in lines]
    scopes = []
    for game in [None, *games]:
        ordered = sorted(lines.get(game, {}).values(), key=lambda line: _order(line, roster))
        kept = [p for p in pairs.get(game, []) if p.first in roster and p.second in roster]
        scopes.append(
            Scope(
                game,
                ordered,
                sorted(kept, key=lambda p: (-p.played, -p.won, p.first, p.second)),
                {key: cell for key, cell in met.get(game, {}).items() if set(key) <= set(roster)},
            )
        )
    return scopes


def _order(line: Line, roster: dict[int, Any]) -> tuple[Any, ...]:
    """The order the page states: ranked players by win share, then wins, then points per
    hand; then those not ranked yet, by matches played; a name breaks what is left."""
    name = roster[line.player][0]
    if line.ranked:
        return (0, -(line.win_share or 0), -line.won, -(line.points_per_hand or 0), name)
    return (1, -line.played, 0, 0, name)


@dataclass
class _InSeries:
    """A counted match of a series as the standings judge it: its game, its rematch's code,
    its winner's place and the roster players on each side (by place)."""

    match_id: int
    game: str
    rematch_code: str | None
    winner: int | None = None
    players: dict[int, list[int]] = field(default_factory=dict)


def _series(
    rows: Sequence[tuple[Any, ...]],
    links: dict[str, str],
    lines: dict[str | None, dict[int, Line]],
) -> None:
    """Each series (a match and the rematches after it, two counted matches or more) counted
    for the players at its last counted match, and won by those whose side there leads it
    alone, judged by who played (series.py), with roster players for phones. A match taken out
    of the standings leaves the series it was in, which goes on through it (`links`: the
    rematch codes of those taken out). `rows`: SERIES rows, a player a counted match."""
    matches: dict[str, _InSeries] = {}
    for game, player, match_id, position, won, code, rematch_code in rows:
        one = matches.setdefault(code, _InSeries(match_id, game, rematch_code))
        one.players.setdefault(position, []).append(player)
        if won:
            one.winner = position
    following = {**links}
    following.update({code: one.rematch_code for code, one in matches.items() if one.rematch_code})
    followed = set(following.values())
    for first in [code for code in [*links, *matches] if code not in followed]:
        chain: list[_InSeries] = []
        at: str | None = first
        while at is not None and len(chain) <= len(matches):
            if at in matches:
                chain.append(matches[at])
            at = following.get(at)
        if len(chain) < 2:
            continue
        places = 1 + max(
            max([*one.players, one.winner if one.winner is not None else 0]) for one in chain
        )
        series = judge(
            [
                Link(
                    one.match_id,
                    True,
                    one.winner,
                    {place: {str(p) for p in held} for place, held in one.players.items()},
                )
                for one in chain
            ],
            places,
        )
        last = chain[-1]
        for place, players in last.players.items():
            for player in players:
                for scope in (None, last.game):
                    line = lines.get(scope, {}).get(player)
                    if line is not None:
                        line.series += 1
                        line.series_won += series.leaders == (place,)
