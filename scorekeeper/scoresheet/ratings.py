"""A rated group's ratings: openskill's Weng-Lin (Plackett-Luce) model, teams of any size, the
sides that did not win tied behind the winner, played through a season's counted matches in
the order they ended, each player starting afresh each season (docs/groups.md, "Rating").

They are a pure function of the stored results: stored as worked out (Rating, a row per
player per match), and worked out again from the first match a change touches: a match that
ends, is reopened, taken out of the standings or put back, a phone that says which player it
is. Everything before that match stays as it was stored.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

import sqlalchemy as sa
import sqlalchemy.orm as so
from openskill.models import PlackettLuce, PlackettLuceRating

from scorekeeper.extensions import db
from scorekeeper.models import Group, GroupMatch, Match, Rating, RosterPlayer, Standing
from scorekeeper.scoresheet import standings
from scorekeeper.scoresheet.standings import Played, read_played

MODEL = PlackettLuce()
# Shown on a scale players know from chess: everyone starts at 1000 (openskill's 25 × 40).
SCALE = 40
START = round(MODEL.mu * SCALE)

# Where a change starts: the match's place in the order (when it ended, then its id).
Since = tuple[datetime, int]


def shown(mu: float, sigma: float) -> tuple[int, int]:
    """A rating as the page shows it: one number, and its uncertainty (±)."""
    return round(mu * SCALE), round(sigma * SCALE)


def _latest(before: bool) -> sa.Select[int, float | None, float | None]:
    """Each roster player's latest rating in a season (`group_id`, `season`), or their latest
    before a match's place (`ended_at`, `match_id`) where `before`: one index seek a player
    (ix_rating_player), however long the season (None for a player not rated in it)."""
    place = sa.tuple_(Rating.ended_at, Rating.match_id)
    bound = sa.tuple_(sa.bindparam("ended_at"), sa.bindparam("match_id"))

    def last(column: so.InstrumentedAttribute[float]) -> sa.ScalarSelect[float]:
        return (
            sa.select(column)
            .where(
                Rating.group_id == RosterPlayer.group_id,
                Rating.season == sa.bindparam("season"),
                Rating.player_id == RosterPlayer.id,
                *((place < bound,) if before else ()),
            )
            .order_by(Rating.ended_at.desc(), Rating.match_id.desc())
            .limit(1)
            .correlate(RosterPlayer)
            .scalar_subquery()
        )

    return sa.select(RosterPlayer.id, last(Rating.mu), last(Rating.sigma)).where(
        RosterPlayer.group_id == sa.bindparam("group_id")
    )


LATEST, LATEST_BEFORE = _latest(False), _latest(True)


def latest_ratings(group_id: int, season: int) -> dict[int, tuple[int, int]]:
    """Each rated player's rating now, as shown, by roster id: one statement."""
    rows = db.session.execute(LATEST, {"group_id": group_id, "season": season})
    return {
        player: shown(mu, sigma)
        for player, mu, sigma in rows
        if mu is not None and sigma is not None
    }


def current(group_id: int, season: int) -> dict[int, PlackettLuceRating]:
    """Each rated player's rating now, as the model takes it."""
    rows = db.session.execute(LATEST, {"group_id": group_id, "season": season})
    return {
        player: MODEL.create_rating([mu, sigma])
        for player, mu, sigma in rows
        if mu is not None and sigma is not None
    }


def chances(
    ratings: dict[int, PlackettLuceRating], sides: Sequence[Sequence[int]]
) -> list[float] | None:
    """Each side's chance to win, from its players' ratings now (a player not rated yet at
    the start); None unless every side has a roster player."""
    if len(sides) < 2 or not all(sides):
        return None
    teams = [[ratings.get(p) or MODEL.rating() for p in side] for side in sides]
    return list(MODEL.predict_win(teams))


def rate(played: Sequence[Played], state: dict[int, PlackettLuceRating]) -> list[Rating]:
    """The ratings after each of these matches (counted ones, in the order they ended), from
    the players' ratings before the first (`state`, changed in place): a row a player a match.
    The side that won ranks first; the others tie behind it."""
    rows: list[Rating] = []
    for one in played:
        if not one.counted:
            continue
        sides = [
            (players, side.won) for side in one.sides if (players := one.players.get(side.position))
        ]
        if len(sides) < 2:
            continue
        teams = [[state.get(p) or MODEL.rating() for p in players] for players, _won in sides]
        ranks: list[float] = [1 if won else 2 for _players, won in sides]
        after = MODEL.rate(teams, ranks=ranks)
        for (players, _won), team in zip(sides, after, strict=True):
            for player, rating in zip(players, team, strict=True):
                state[player] = rating
                rows.append(
                    Rating(
                        match_id=one.match_id,
                        player_id=player,
                        mu=rating.mu,
                        sigma=rating.sigma,
                        ended_at=one.ended_at,
                    )
                )
    return rows


def rework(group_id: int, season: int, since: Since | None = None) -> None:
    """Work a season's ratings out again from a match's place on (`since`; None: the whole
    season), in the writer's transaction: what was stored before it stays."""
    place = sa.tuple_(Rating.ended_at, Rating.match_id)
    in_season = (Rating.group_id == group_id, Rating.season == season)
    if since is None:
        db.session.execute(sa.delete(Rating).where(*in_season))
        state: dict[int, PlackettLuceRating] = {}
    else:
        db.session.execute(sa.delete(Rating).where(*in_season, place >= sa.tuple_(*since)))
        bound = {"group_id": group_id, "season": season, "ended_at": since[0], "match_id": since[1]}
        state = {
            player: MODEL.create_rating([mu, sigma])
            for player, mu, sigma in db.session.execute(LATEST_BEFORE, bound)
            if mu is not None and sigma is not None
        }
    rows = rate(read_played(group_id, season, since), state)
    for row in rows:
        row.group_id, row.season = group_id, season
    db.session.add_all(rows)


def results_changed(group_id: int, season: int, rated: bool, since: Since | None) -> None:
    """A season's results changed from a match's place on (`since`; None: anywhere): its
    standings are worked out again and stored, and (a rated group) its ratings from there."""
    standings.store(group_id, season)
    if rated:
        rework(group_id, season, since)
        onto_standings(group_id, season)


def onto_standings(group_id: int, season: int) -> None:
    """Copy each player's rating now onto their row of the season's standings (all games),
    where the group's page reads it: one statement for every player."""
    db.session.flush()
    rows = db.session.execute(LATEST, {"group_id": group_id, "season": season})
    values = [
        dict(
            zip(("b_player", "b_rating", "b_uncertainty"), (player, *shown(mu, sigma)), strict=True)
        )
        for player, mu, sigma in rows
        if mu is not None and sigma is not None
    ]
    if values:
        # On the table, not the model: one statement sent for every player (executemany).
        table: sa.Table = Standing.__table__  # type: ignore[assignment]
        db.session.connection().execute(
            sa.update(table)
            .where(
                table.c.group_id == group_id,
                table.c.season == season,
                table.c.game == "",
                table.c.player_id == sa.bindparam("b_player"),
            )
            .values(rating=sa.bindparam("b_rating"), uncertainty=sa.bindparam("b_uncertainty")),
            values,
        )


def match_changed(match_id: int, since: Since | None) -> None:
    """A match's result changed (it ended, or was reopened): if it was played in a group,
    that season's standings and (a rated group) ratings are worked out again, the ratings
    from its place on (`since`: where it stood in the order before the change, or where it
    stands now; None: not ended before)."""
    found = db.session.execute(
        sa.select(GroupMatch.group_id, GroupMatch.season, Group.rated, Match.ended_at)
        .join(Group, Group.id == GroupMatch.group_id)
        .join(Match, Match.id == GroupMatch.match_id)
        .where(GroupMatch.match_id == match_id)
    ).first()
    if found is None:
        return
    places = [p for p in (since, (found.ended_at, match_id) if found.ended_at else None) if p]
    results_changed(found.group_id, found.season, found.rated, min(places) if places else None)
