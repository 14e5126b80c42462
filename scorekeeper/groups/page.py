"""What a group's page shows besides its standings: the matches playing now (with each side's
chance, where the group keeps a rating), the season's matches, its phones, the names typed at
its matches that the roster lacks, and its host's trail in words."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from flask_babel import gettext as _

from scorekeeper.extensions import db
from scorekeeper.matches import read_matches
from scorekeeper.models import (
    GroupMatch,
    GroupPhone,
    GroupTrail,
    Match,
    RosterPlayer,
    Seat,
    SidePlayer,
    StoredGroup,
    StoredMatch,
)
from scorekeeper.scoresheet import ratings
from scorekeeper.scoresheet.standings import holders_of

# The page lists this many of the season's latest matches (the JSON export has them all).
LATEST_MATCHES = 30
# The trail's latest lines on the page.
LATEST_TRAIL = 20


@dataclass(frozen=True)
class Listed:
    """A match of the group as its page lists it, and whether it counts in the standings."""

    match: StoredMatch
    counted: bool


def season_matches(group: StoredGroup, season: int) -> list[Listed]:
    """The season's latest matches (open ones first, then the newest), each with its sides."""
    rows = db.session.execute(
        sa.select(GroupMatch.match_id, GroupMatch.counted)
        .join(Match, Match.id == GroupMatch.match_id)
        .where(GroupMatch.group_id == group.id, GroupMatch.season == season)
        .order_by((Match.status == Match.OPEN).desc(), Match.created_at.desc(), Match.id.desc())
        .limit(LATEST_MATCHES)
    ).all()
    counted = dict(rows)
    found = read_matches(
        Match.id.in_(list(counted)),
        (Match.status == Match.OPEN).desc(),
        Match.created_at.desc(),
        Match.id.desc(),
    )
    return [Listed(match, counted[match.id]) for match in found]


def chances_now(group: StoredGroup, playing: Sequence[StoredMatch]) -> dict[int, list[float]]:
    """Each open match's sides' chances to win, by match id, from the ratings now: only where
    the group keeps a rating and every side has a roster player."""
    if not group.rated or not playing:
        return {}
    ids = [match.id for match in playing]
    # The roster players New match put on a side first, then those the phones seated said
    # they are, in the order they sat down (as standings.HOLDERS).
    holders = holders_of(
        db.session.execute(
            sa.union_all(
                sa.select(
                    SidePlayer.match_id,
                    SidePlayer.side_id,
                    SidePlayer.player_id,
                    sa.literal(0).label("said"),
                    sa.literal(0).label("seat_id"),
                ).where(SidePlayer.match_id.in_(ids)),
                sa.select(Seat.match_id, Seat.side_id, GroupPhone.player_id, sa.literal(1), Seat.id)
                .join(GroupPhone, GroupPhone.phone == Seat.phone)
                .where(
                    Seat.match_id.in_(ids),
                    GroupPhone.group_id == group.id,
                    GroupPhone.player_id.is_not(None),
                ),
            ).order_by("said", "seat_id")
        )
    )
    now = ratings.current(group.id, group.season)
    found: dict[int, list[float]] = {}
    for match in playing:
        by_side = holders.get(match.id, {})
        sides = [[p for p, side_id in by_side.items() if side_id == s.id] for s in match.sides]
        chance = ratings.chances(now, sides)
        if chance is not None:
            found[match.id] = chance
    return found


@dataclass(frozen=True)
class Member:
    """A phone that joined the group, as its page names it: by the player it said it is."""

    id: int
    player: str | None
    is_host: bool
    is_this_phone: bool


def members(group: StoredGroup, phone: str | None) -> list[Member]:
    """The group's phones, in the order they joined."""
    rows = db.session.execute(
        sa.select(GroupPhone.id, GroupPhone.phone, RosterPlayer.name)
        .outerjoin(RosterPlayer, RosterPlayer.id == GroupPhone.player_id)
        .where(GroupPhone.group_id == group.id)
        .order_by(GroupPhone.id)
    )
    return [
        Member(member_id, name, member == group.host_phone, member == phone)
        for member_id, member, name in rows
    ]


def offered_names(group: StoredGroup, roster: Sequence[str]) -> list[str]:
    """The names phones typed at the group's matches that no roster player has: the host is
    offered to add them."""
    known = {name.casefold() for name in roster}
    typed = db.session.scalars(
        sa.select(Seat.player)
        .join(GroupMatch, GroupMatch.match_id == Seat.match_id)
        .where(GroupMatch.group_id == group.id, Seat.player != "", Seat.side_id.is_not(None))
        .distinct()
    )
    offered: dict[str, str] = {}
    for name in typed:
        tidy = " ".join(name.split())
        if tidy and tidy.casefold() not in known:
            offered.setdefault(tidy.casefold(), tidy)
    return sorted(offered.values())


@dataclass(frozen=True)
class TrailLine:
    """A line of the host's trail, worded."""

    made_at: datetime
    words: str


def _worded(what: str, facts: dict[str, Any]) -> str:
    """A deed of the host in the reader's language."""
    if what == "taken_out":
        # NOTE: a line of a group's trail; %(code)s is a match's code.
        return _("Match %(code)s taken out of the standings", code=facts.get("code", ""))
    if what == "put_back":
        # NOTE: a line of a group's trail; %(code)s is a match's code.
        return _("Match %(code)s put back in the standings", code=facts.get("code", ""))
    if what == "season":
        # NOTE: a line of a group's trail; %(season)s is a season's number.
        return _("Season %(season)s started", season=facts.get("season", ""))
    if what == "added":
        # NOTE: a line of a group's trail; %(player)s is a player's name.
        return _("%(player)s added to the roster", player=facts.get("player", ""))
    if what == "removed":
        # NOTE: a line of a group's trail; %(player)s is a player's name.
        return _("%(player)s taken off the roster", player=facts.get("player", ""))
    if what == "renamed":
        # NOTE: a line of a group's trail: a player's old name, then their new one.
        return _(
            "%(player)s renamed %(name)s", player=facts.get("player", ""), name=facts.get("to", "")
        )
    # NOTE: a line of a group's trail.
    return _("The host role was handed over")


def trail(group: StoredGroup) -> list[TrailLine]:
    """The host's latest deeds, newest first."""
    rows = db.session.execute(
        sa.select(GroupTrail.made_at, GroupTrail.what, GroupTrail.facts)
        .where(GroupTrail.group_id == group.id)
        .order_by(GroupTrail.id.desc())
        .limit(LATEST_TRAIL)
    )
    return [TrailLine(made_at, _worded(what, facts or {})) for made_at, what, facts in rows]
