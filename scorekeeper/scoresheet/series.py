"""A series: a match and the rematches that followed it, one after another at the same table.

A rematch keeps the game, the table and the sides' names in their places (life.rematch), but
not the people: two players may swap sides, and a side released may be taken by someone else.
So a series is scored by who played (docs/at-the-table.md, "Series"): each match it counts
(ended ones: an abandoned or unfinished match was not played out) goes to the side of the
match it is read at that holds a phone of the side that won it; failing any, to the side in
the winner's place if no phone holds that one (a table kept on one phone, a side nobody has
taken yet). A player who took a side later is not credited with what the side won before them.

Nothing stores a series: each ended match names its rematch (Match.rematch_code), and a
match's series is found by walking those links back, in one statement for any number of
matches, with the phones seated on each side of each match.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import sqlalchemy as sa
import sqlalchemy.orm as so

from scorekeeper.extensions import db
from scorekeeper.models import Match, Seat, Side, StoredMatch


@dataclass(frozen=True)
class Series:
    """A match's series as it stood once that match was played: its first match, how many
    matches it counted by then, and how many of them each side of that match (by place) won."""

    first: int
    matches: int
    wins: tuple[int, ...]

    @property
    def leaders(self) -> tuple[int, ...]:
        """The places of the sides with the most wins (all of them when level)."""
        most = max(self.wins, default=0)
        return tuple(at for at, won in enumerate(self.wins) if won == most)

    @property
    def order(self) -> tuple[int, ...]:
        """The places in the order the standing reads: the leaders first, then the others from
        most wins to fewest (words.series_standing says it: "2–1")."""
        leaders = self.leaders
        return tuple(
            sorted(range(len(self.wins)), key=lambda at: (at not in leaders, -self.wins[at]))
        )


@dataclass
class Played:
    """One match of a series as the walk reads it: its status, its winner's place, the
    phones on each side (by place), and the phones that took it off their list."""

    id: int
    ended: bool
    winner: int | None
    phones: dict[int, set[str]] = field(default_factory=dict)
    removed_by: set[str] = field(default_factory=set)


def _walked_back() -> sa.Select[int, int, str, int | None, int | None, str | None, bool | None]:
    """Each match of `ids` with every match before it in its series, oldest first: (the
    match it was walked back from, a match, its status, the place of its winner, and for
    each phone on a side there the side's place, the phone and whether it kept the match on
    its list; a match nobody sits at has one row with those three None)."""
    earlier = so.aliased(Match)
    winner = so.aliased(Side)
    held = so.aliased(Side)
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
        sa.select(
            chain.c.start,
            Match.id,
            Match.status,
            winner.position,
            held.position,
            Seat.phone,
            Seat.listed,
        )
        .join(Match, Match.id == chain.c.id)
        .outerjoin(winner, winner.id == Match.winner_side_id)
        .outerjoin(Seat, sa.and_(Seat.match_id == Match.id, Seat.side_id.is_not(None)))
        .outerjoin(held, held.id == Seat.side_id)
        .order_by(chain.c.start, Match.created_at, Match.id)
    )


# Built once, as every sheet page runs it: building it cost more than running it (4 ms, 0.2).
WALKED_BACK = _walked_back()


def walk_back(ids: Sequence[int]) -> dict[int, list[Played]]:
    """Each of these matches' series up to it, oldest first, by the match's id: one
    statement however many matches and however long their series."""
    if not ids:
        return {}
    chains: dict[int, list[Played]] = {}
    for start_id, match_id, status, won_at, place, phone, listed in db.session.execute(
        WALKED_BACK, {"ids": list(ids)}
    ):
        chain = chains.setdefault(start_id, [])
        if not chain or chain[-1].id != match_id:
            chain.append(Played(match_id, status == Match.ENDED, won_at))
        if phone is not None and place is not None:
            chain[-1].phones.setdefault(place, set()).add(phone)
            if not listed:
                chain[-1].removed_by.add(phone)
    return chains


def credited(match: Played, at: Played, places: int) -> tuple[int, ...]:
    """The places of `at`'s sides a match of its series counts as won by: those holding a
    phone of the side that won it; failing any, the winner's place if no phone holds it."""
    if match.winner is None:
        return ()
    winners = match.phones.get(match.winner, set())
    sharing = tuple(p for p in range(places) if winners & at.phones.get(p, set()))
    if sharing:
        return sharing
    if match.winner < places and not at.phones.get(match.winner):
        return (match.winner,)
    return ()


def judge(chain: Sequence[Played], places: int) -> Series:
    """The series of the chain's last match, as it stood once that match was played."""
    at = chain[-1]
    wins = [0] * places
    counted = [match for match in chain if match.ended]
    for match in counted:
        for place in credited(match, at, places):
            wins[place] += 1
    return Series(first=chain[0].id, matches=len(counted), wins=tuple(wins))


def read_series(matches: Sequence[StoredMatch]) -> dict[int, Series]:
    """The series of each of these matches that is one (it follows another match, or another
    followed it), by match id: one statement however many matches and however long their
    series."""
    # A match that follows none and that none followed is no series: nothing to walk.
    places = {m.id: len(m.sides) for m in matches if m.rematch_code is not None or m.follows}
    followed = {m.id for m in matches if m.rematch_code is not None}
    return {
        start_id: judge(chain, places[start_id])
        for start_id, chain in walk_back(list(places)).items()
        if len(chain) >= 2 or start_id in followed
    }
