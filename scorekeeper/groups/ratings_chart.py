"""Each player's rating over a season, drawn as the sheet's chart draws running totals
(chart.running_chart): a line a player, from where everyone starts, match after match."""

from __future__ import annotations

import sqlalchemy as sa
from flask_babel import gettext as _

from scorekeeper.chart import Chart, running_chart
from scorekeeper.extensions import db
from scorekeeper.models import Rating, StoredGroup
from scorekeeper.scoresheet.ratings import SCALE, START
from scorekeeper.scoresheet.standings import Standings

# The chart's points at most: a long season is drawn every so many matches (and its last).
MOST_STEPS = 120


def rating_chart(group: StoredGroup, season: int, standings: Standings) -> Chart | None:
    """The season's ratings as a chart, each above or below the start (0 on the chart), in
    the order the matches ended; None before any rated match. One statement."""
    rows = db.session.execute(
        sa.select(Rating.match_id, Rating.player_id, Rating.mu)
        .where(Rating.group_id == group.id, Rating.season == season)
        .order_by(Rating.ended_at, Rating.match_id)
    ).all()
    if not rows:
        return None
    players = sorted({row.player_id for row in rows}, key=standings.name)
    column = {player: at for at, player in enumerate(players)}
    now = [0] * len(players)
    steps: list[tuple[int, ...]] = []
    last_match = None
    for match_id, player_id, mu in rows:
        if last_match is not None and match_id != last_match:
            steps.append(tuple(now))
        now[column[player_id]] = round(mu * SCALE) - START
        last_match = match_id
    steps.append(tuple(now))
    if len(steps) > MOST_STEPS:
        every = -(-len(steps) // MOST_STEPS)
        steps = [*steps[every - 1 :: every][:-1], steps[-1]]
    return running_chart(
        steps,
        None,
        [standings.name(player) for player in players],
        "",
        # NOTE: the chart's last point, as in "match 12": the word for a match in a sentence.
        _("match"),
        # NOTE: the rating chart's label for screen readers; %(start)s is where everyone starts.
        label=_("Ratings over the season, above or below the start (%(start)s)", start=START),
    )
