"""A series: a match and the rematches that followed it, one after another at the same table.

A rematch keeps the game, the table and the sides in their places (life.rematch), so a
series is scored by place: how many of its matches each side won. Nothing stores a series:
each ended match names its rematch (Match.rematch_code), and a match's series is found by
walking those links back, in one statement for any number of matches.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import sqlalchemy as sa
import sqlalchemy.orm as so
from flask_babel import gettext as _

from scorekeeper.extensions import db
from scorekeeper.languages import number
from scorekeeper.models import Match, Side


@dataclass(frozen=True)
class Series:
    """A match's series as it stood once that match was played: its first match, how many
    matches it had by then, and how many of them each side (by place) won."""

    first: int
    matches: int
    wins: tuple[int, ...]

    @property
    def leaders(self) -> tuple[int, ...]:
        """The places of the sides with the most wins (all of them when level)."""
        most = max(self.wins, default=0)
        return tuple(at for at, won in enumerate(self.wins) if won == most)

    def score(self, sides: Sequence[Side]) -> str:
        """The series in words: "Series: Ana & Omar ahead, 2–1", or level."""
        leaders = self.leaders
        # The leader's wins first, then the others' from most to fewest.
        order = sorted(range(len(self.wins)), key=lambda at: (at not in leaders, -self.wins[at]))
        shown = "–".join(number(self.wins[at]) for at in order)
        if len(leaders) == 1:
            # NOTE: a match's series (the match and its rematches): %(side)s is the side (team)
            # that won more of them, %(score)s the matches won ("2–1").
            return _("Series: %(side)s ahead, %(score)s", side=sides[leaders[0]].name, score=shown)
        # NOTE: a match's series (the match and its rematches), no side ahead; %(score)s the
        # matches won by each side ("1–1").
        return _("Series: level, %(score)s", score=shown)


def _walked_back() -> sa.Select[int, int, str, int | None]:
    """Each match of `ids` with every match before it in its series, oldest first: (the
    match it was walked back from, a match, its status, the place of its winner)."""
    earlier = so.aliased(Match)
    # From each match back to its series' first: the match whose rematch this one is, and so on.
    start = sa.select(
        Match.id.label("start"), Match.id.label("id"), Match.code.label("code")
    ).where(Match.id.in_(sa.bindparam("ids", expanding=True)))
    chain = start.cte("chain", recursive=True)
    # UNION, not UNION ALL: a link that loops (no action makes one) ends the walk.
    chain = chain.union(
        sa.select(chain.c.start, earlier.id, earlier.code).where(
            earlier.rematch_code == chain.c.code
        )
    )
    return (
        sa.select(chain.c.start, Match.id, Match.status, Side.position)
        .join(Match, Match.id == chain.c.id)
        .outerjoin(Side, Side.id == Match.winner_side_id)
        .order_by(chain.c.start, Match.created_at, Match.id)
    )


# Built once, as every sheet page runs it: building it cost more than running it (4 ms, 0.2).
WALKED_BACK = _walked_back()


def read_series(matches: Sequence[Match]) -> dict[int, Series]:
    """The series of each of these matches that is one (it follows another match, or another
    followed it), by match id: one statement however many matches and however long their
    series."""
    if not matches:
        return {}
    rows = db.session.execute(WALKED_BACK, {"ids": [m.id for m in matches]}).all()
    places = {m.id: len(m.sides) for m in matches}
    followed = {m.id for m in matches if m.rematch_code is not None}
    played: dict[int, list[tuple[int, str, int | None]]] = {}
    for start_id, match_id, status, winner in rows:
        played.setdefault(start_id, []).append((match_id, status, winner))
    series: dict[int, Series] = {}
    for start_id, chain_of in played.items():
        if len(chain_of) < 2 and start_id not in followed:
            continue
        wins = [0] * places[start_id]
        for _match_id, status, winner in chain_of:
            if status == Match.ENDED and winner is not None and winner < len(wins):
                wins[winner] += 1
        series[start_id] = Series(first=chain_of[0][0], matches=len(chain_of), wins=tuple(wins))
    return series
