"""The group that plays every week, written: made from Home or from an ended match, joined by its
code, its roster and host role kept by its host, its matches started from its page (their
rematches staying in it), taken out of its standings and put back, its seasons and its
rating (docs/groups.md).

Every action goes through the one write path (writing.write): the post's key recorded, then
the group's lock taken by bumping its version (as a match's is), the posting phone as the
group then sees it checked against the action's rule (phones/group_rules.py), the work, one
commit.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Sequence
from typing import Any

import sqlalchemy as sa

from scorekeeper.errors import Refusal
from scorekeeper.extensions import db
from scorekeeper.games import Game, get_game
from scorekeeper.models import (
    Group,
    GroupMatch,
    GroupPhone,
    GroupTrail,
    Match,
    Rating,
    RosterPlayer,
    Seat,
    Side,
    SidePlayer,
    Standing,
    StoredGroup,
    StoredMatch,
    new_code,
)
from scorekeeper.phones.group_rules import GroupAction, GroupViewer
from scorekeeper.phones.rules import Action, PhoneAction, Viewer
from scorekeeper.scoresheet import ratings
from scorekeeper.scoresheet.series import walk_back
from scorekeeper.scoresheet.setup import NewMatch, add_match, sides_for
from scorekeeper.scoresheet.writing import Done, Post, act, act_as_phone, act_in_group
from scorekeeper.words import groups as words

# The most players a roster holds: a club's evening, not a league.
MOST_PLAYERS = 60
NAME_LENGTH = 40

GROUPS: sa.Table = Group.__table__  # type: ignore[assignment]
# Every column, as its read model (StoredGroup) has them all.
GROUP_BY_CODE = sa.select(*GROUPS.c).where(GROUPS.c.code == sa.bindparam("code"))
LOCK_GROUP = (
    sa.update(GROUPS)
    .where(GROUPS.c.id == sa.bindparam("group_id"))
    .values(version=GROUPS.c.version + 1)
    .returning(*GROUPS.c)
)
PHONE_IN = sa.select(GroupPhone.id, GroupPhone.player_id).where(
    GroupPhone.group_id == sa.bindparam("group_id"), GroupPhone.phone == sa.bindparam("phone")
)


def read_group(code: str) -> StoredGroup | None:
    """The group with this code as stored now (None if there is none)."""
    if not code.isalnum() or len(code) > 12:
        return None
    row = db.session.execute(GROUP_BY_CODE, {"code": code}).first()
    return StoredGroup(**row._mapping) if row is not None else None


def groups_of(phone: str | None) -> list[StoredGroup]:
    """The groups this phone joined, in the order it joined them (its Home lists them)."""
    if phone is None:
        return []
    rows = db.session.execute(
        sa.select(*GROUPS.c)
        .join(GroupPhone, GroupPhone.group_id == GROUPS.c.id)
        .where(GroupPhone.phone == phone)
        .order_by(GroupPhone.id)
    )
    return [StoredGroup(**row._mapping) for row in rows]


def group_viewer(group: StoredGroup, phone: str | None) -> GroupViewer:
    """Who is looking at this group from this phone: whether it joined, who it said it is."""
    row = None
    if phone is not None:
        row = db.session.execute(PHONE_IN, {"group_id": group.id, "phone": phone}).first()
    return GroupViewer(group, phone, row is not None, row.player_id if row is not None else None)


def group_act(
    group: StoredGroup,
    post: Post,
    action: GroupAction,
    work: Callable[[GroupViewer], Done],
    to: Callable[[], str | None] | None = None,
) -> Done:
    """An action in a group, checked here so that none can forget it: after the post's key
    (a repeat is answered "Already recorded."), the group's lock, then the posting phone as
    the group sees it under the lock asked whether it may (`to`: the phone the host role would
    go to, read under the lock), and only then the work."""

    def locked() -> GroupViewer:
        row = db.session.execute(LOCK_GROUP, {"group_id": group.id}).one()
        return group_viewer(StoredGroup(**row._mapping), post.phone)

    return act_in_group(post, locked, action, work, to)


def _trail(viewer: GroupViewer, what: str, **facts: Any) -> None:
    """Keep what the host did in the group's trail."""
    db.session.add(
        GroupTrail(group_id=viewer.group.id, what=what, facts=facts, by_phone=viewer.phone or "")
    )


def _set(viewer: GroupViewer, **columns: Any) -> None:
    """Change these columns of the group, under its lock."""
    db.session.execute(sa.update(GROUPS).where(GROUPS.c.id == viewer.group.id).values(**columns))


def free_group_code() -> str:
    """A code no group and no match has: typed on Home, it opens the one it names."""
    for _attempt in range(10):
        code = new_code()
        taken = db.session.scalar(
            sa.select(sa.literal(1)).where(
                sa.or_(sa.exists().where(Group.code == code), sa.exists().where(Match.code == code))
            )
        )
        if taken is None:
            return code
    raise RuntimeError("no free group code after 10 draws")


def made_by(key: str | None) -> str | None:
    """The code of the group a post with this key made (a resent "Start a group")."""
    if not key:
        return None
    return db.session.scalar(sa.select(Group.code).where(Group.made_by == key))


def clean_name(typed: str) -> str:
    """A name as typed, its spaces tidied: "  Omar  " and "Omar" are one player."""
    return " ".join(typed.split())[:NAME_LENGTH]


def _new_group(phone: str, key: str | None, name: str = "") -> Group:
    """A new group hosted by this phone, which joins it."""
    group = Group(code=free_group_code(), name=clean_name(name), host_phone=phone, made_by=key)
    db.session.add(group)
    db.session.flush()
    db.session.add(GroupPhone(group_id=group.id, phone=phone))
    return group


def create_group(post: Post, name: str = "") -> Done:
    """Start a group from Home: this phone hosts it. A resent post goes on to the group the
    first one made (made_by)."""

    def work() -> Done:
        group = _new_group(post.phone or "", post.key, name)
        return Done(words.started(), go_to=group.code)

    return act_as_phone(post, PhoneAction.START_GROUP, work)


# What a side's players were typed as: "Omar & Ana", "Omar, Ana", "Omar and Ana" (and the
# languages' own words for "and" are left whole: a name may hold them).
_SPLIT = re.compile(r"\s*(?:&|,|\+|/)\s*")


def _names_at(match: StoredMatch, seats: Sequence[tuple[int | None, str]]) -> dict[int, list[str]]:
    """The players of each side of an ended match (by side id): the names its phones gave,
    else the players the host typed, else (a side of one) the side's own name."""
    per_side = get_game(match.game).format(match.table_format).players_per_side
    named: dict[int, list[str]] = {}
    for side_id, player in seats:
        if side_id is not None and clean_name(player):
            named.setdefault(side_id, [])
            if clean_name(player) not in named[side_id]:
                named[side_id].append(clean_name(player))
    for side in match.sides:
        if side.id in named:
            continue
        typed = [clean_name(n) for n in _SPLIT.split(side.players) if clean_name(n)]
        if typed:
            named[side.id] = typed
        elif per_side == 1:
            named[side.id] = [clean_name(side.name)]
    return named


def in_a_group(match_id: int) -> bool:
    """Whether a match was played in a group (or kept in one)."""
    found = db.session.scalar(sa.select(GroupMatch.group_id).where(GroupMatch.match_id == match_id))
    return found is not None


def keep_as_group(match: StoredMatch, post: Post) -> Done:
    """Keep an ended match's table as a group: its players become the roster, and the match
    (with those of its series before it, not yet in a group) its first; this phone its host."""

    def work(viewer: Viewer) -> Done:
        if in_a_group(viewer.match.id):
            raise Refusal(words.kept_already(), 409, viewer.match)
        group = _new_group(post.phone or "", post.key)
        chain = walk_back([viewer.match.id]).get(viewer.match.id, [])
        ended = [link.id for link in chain if link.ended] or [viewer.match.id]
        taken = set(
            db.session.scalars(sa.select(GroupMatch.match_id).where(GroupMatch.match_id.in_(ended)))
        )
        ids = [match_id for match_id in ended if match_id not in taken]
        seats = db.session.execute(
            sa.select(Seat.match_id, Seat.side_id, Seat.player)
            .where(Seat.match_id.in_(ids))
            .order_by(Seat.id)
        ).all()
        sides = db.session.execute(
            sa.select(Side.match_id, Side.id, Side.position).where(Side.match_id.in_(ids))
        ).all()
        roster: dict[str, RosterPlayer] = {}
        by_position = {(m, pos): side_id for m, side_id, pos in sides}
        # Players by the places they held at this match; earlier matches of its series
        # count for the players at the same places.
        names = _names_at(
            viewer.match, [(s.side_id, s.player) for s in seats if s.match_id == viewer.match.id]
        )
        for side in viewer.match.sides:
            for name in names.get(side.id, []):
                if name.casefold() not in roster and len(roster) < MOST_PLAYERS:
                    roster[name.casefold()] = RosterPlayer(group_id=group.id, name=name)
        db.session.add_all(roster.values())
        db.session.flush()
        for match_id in ids:
            db.session.add(GroupMatch(match_id=match_id, group_id=group.id, season=1))
            for side in viewer.match.sides:
                side_id = by_position.get((match_id, side.position))
                for name in names.get(side.id, []):
                    player = roster.get(name.casefold())
                    if side_id is not None and player is not None:
                        db.session.add(
                            SidePlayer(side_id=side_id, player_id=player.id, match_id=match_id)
                        )
        db.session.flush()
        ratings.results_changed(group.id, 1, False, None)
        return Done(words.kept(), go_to=group.code)

    return act(match, post, Action.KEEP_AS_GROUP, work)


def join_group(group: StoredGroup, post: Post, player_id: int | None = None) -> Done:
    """This phone joins the group; with a roster player, it says it is that player ("I am
    Omar"): its seats at the group's matches count for them from then on, and those before."""

    def work(viewer: GroupViewer) -> Done:
        player = None
        if player_id is not None:
            player = db.session.execute(
                sa.select(RosterPlayer.name).where(
                    RosterPlayer.id == player_id,
                    RosterPlayer.group_id == viewer.group.id,
                    RosterPlayer.left.is_(False),
                )
            ).first()
            if player is None:
                raise Refusal(words.no_such_player(), 404)
        if viewer.joined and player_id == viewer.player_id:
            return Done(words.in_the_group_already(), changed=False)
        if viewer.joined:
            db.session.execute(
                sa.update(GroupPhone)
                .where(GroupPhone.group_id == viewer.group.id, GroupPhone.phone == viewer.phone)
                .values(player_id=player_id)
            )
        else:
            db.session.add(
                GroupPhone(group_id=viewer.group.id, phone=viewer.phone, player_id=player_id)
            )
        name = player.name if player_id is not None and player is not None else ""
        if player_id is not None or viewer.player_id is not None:
            # Who its seats count for changed, at any of the group's matches.
            for season in range(1, viewer.group.season + 1):
                ratings.results_changed(viewer.group.id, season, viewer.group.rated, None)
        if player_id is None:
            return Done(words.joined())
        return Done(words.is_player(name))

    return group_act(
        group, post, GroupAction.JOIN if player_id is None else GroupAction.SAY_WHO, work
    )


def leave_group(group: StoredGroup, post: Post) -> Done:
    """This phone leaves the group: off its Home. The seats it held at the group's matches
    stay its player's there (written onto their sides), so the standings stay as they were."""

    def work(viewer: GroupViewer) -> Done:
        if viewer.player_id is not None:
            seats = db.session.execute(
                sa.select(Seat.match_id, Seat.side_id)
                .join(GroupMatch, GroupMatch.match_id == Seat.match_id)
                .where(
                    GroupMatch.group_id == viewer.group.id,
                    Seat.phone == viewer.phone,
                    Seat.side_id.is_not(None),
                )
            ).all()
            placed = set(
                db.session.scalars(
                    sa.select(SidePlayer.match_id).where(
                        SidePlayer.player_id == viewer.player_id,
                        SidePlayer.match_id.in_([s.match_id for s in seats]),
                    )
                )
            )
            for match_id, side_id in seats:
                if match_id not in placed:
                    placed.add(match_id)
                    db.session.add(
                        SidePlayer(side_id=side_id, player_id=viewer.player_id, match_id=match_id)
                    )
        db.session.execute(
            sa.delete(GroupPhone).where(
                GroupPhone.group_id == viewer.group.id, GroupPhone.phone == viewer.phone
            )
        )
        return Done(words.left())

    return group_act(group, post, GroupAction.LEAVE, work)


def rename_group(group: StoredGroup, name: str, post: Post) -> Done:
    """The host names the group."""

    def work(viewer: GroupViewer) -> Done:
        if clean_name(name) == viewer.group.name:
            return Done(words.name_as_it_was(), changed=False)
        _set(viewer, name=clean_name(name))
        return Done(words.renamed())

    return group_act(group, post, GroupAction.RENAME, work)


def _roster(group_id: int) -> list[tuple[int, str, bool]]:
    """The roster under the group's lock: (id, name, left)."""
    rows = db.session.execute(
        sa.select(RosterPlayer.id, RosterPlayer.name, RosterPlayer.left).where(
            RosterPlayer.group_id == group_id
        )
    )
    return [tuple(row) for row in rows]  # type: ignore[misc]


def add_player(group: StoredGroup, name: str, post: Post) -> Done:
    """The host adds a player to the roster (one who left comes back under their name)."""

    def work(viewer: GroupViewer) -> Done:
        wanted = clean_name(name)
        if not wanted:
            raise Refusal(words.type_the_name(), 400)
        roster = _roster(viewer.group.id)
        same = next((p for p in roster if p[1].casefold() == wanted.casefold()), None)
        if same is not None and not same[2]:
            raise Refusal(words.in_the_roster_already(same[1]), 409)
        if same is None and sum(not p[2] for p in roster) >= MOST_PLAYERS:
            raise Refusal(words.roster_full(MOST_PLAYERS), 409)
        if same is not None:
            db.session.execute(
                sa.update(RosterPlayer).where(RosterPlayer.id == same[0]).values(left=False)
            )
        else:
            db.session.add(RosterPlayer(group_id=viewer.group.id, name=wanted))
        _trail(viewer, "added", player=wanted)
        return Done(words.joined_the_roster(wanted))

    return group_act(group, post, GroupAction.ROSTER, work)


def _roster_player(viewer: GroupViewer, player_id: int | None) -> tuple[int, str, bool]:
    """A player of this group's roster, or a refusal."""
    found = next((p for p in _roster(viewer.group.id) if p[0] == player_id), None)
    if found is None:
        raise Refusal(words.no_such_player(), 404)
    return found


def rename_player(group: StoredGroup, player_id: int | None, name: str, post: Post) -> Done:
    """The host changes a roster player's name (their results stay theirs)."""

    def work(viewer: GroupViewer) -> Done:
        player = _roster_player(viewer, player_id)
        wanted = clean_name(name)
        if not wanted:
            raise Refusal(words.type_the_name(), 400)
        if wanted == player[1]:
            return Done(words.name_as_it_was(), changed=False)
        clash = any(
            p[1].casefold() == wanted.casefold() and p[0] != player[0]
            for p in _roster(viewer.group.id)
        )
        if clash:
            raise Refusal(words.in_the_roster_already(wanted), 409)
        db.session.execute(
            sa.update(RosterPlayer).where(RosterPlayer.id == player[0]).values(name=wanted)
        )
        _trail(viewer, "renamed", player=player[1], to=wanted)
        return Done(words.player_renamed(player[1], wanted))

    return group_act(group, post, GroupAction.ROSTER, work)


def remove_player(group: StoredGroup, player_id: int | None, post: Post) -> Done:
    """The host takes a player off the roster: their results stay in the standings."""

    def work(viewer: GroupViewer) -> Done:
        player = _roster_player(viewer, player_id)
        if player[2]:
            return Done(words.left_the_roster_already(), changed=False)
        db.session.execute(
            sa.update(RosterPlayer).where(RosterPlayer.id == player[0]).values(left=True)
        )
        _trail(viewer, "removed", player=player[1])
        return Done(words.left_the_roster(player[1]))

    return group_act(group, post, GroupAction.ROSTER, work)


def hand_over(group: StoredGroup, member_id: int | None, post: Post) -> Done:
    """The host hands its role to another phone that joined the group (by its row's id)."""

    def to() -> str | None:
        return db.session.scalar(
            sa.select(GroupPhone.phone).where(
                GroupPhone.id == member_id, GroupPhone.group_id == group.id
            )
        )

    def work(viewer: GroupViewer) -> Done:
        phone = to()
        assert phone is not None  # the rule refused None
        _set(viewer, host_phone=phone)
        _trail(viewer, "host")
        return Done(words.host_went_over())

    return group_act(group, post, GroupAction.HAND_OVER, work, to=to)


def close_group(group: StoredGroup, closed: bool, post: Post) -> Done:
    """The host closes the group to new phones, or opens it again."""

    def work(viewer: GroupViewer) -> Done:
        _set(viewer, closed=closed)
        if closed:
            return Done(words.closed())
        return Done(words.opened())

    return group_act(group, post, GroupAction.CLOSE if closed else GroupAction.OPEN, work)


def new_season(group: StoredGroup, post: Post) -> Done:
    """The host starts a new season: the standings start again; past seasons stay readable."""

    def work(viewer: GroupViewer) -> Done:
        season = viewer.group.season + 1
        _set(viewer, season=season)
        _trail(viewer, "season", season=season)
        return Done(words.season_started(season))

    return group_act(group, post, GroupAction.NEW_SEASON, work)


def count_match(group: StoredGroup, code: str, counted: bool, post: Post) -> Done:
    """The host takes a match out of the standings (counted False) or puts it back, kept in
    the trail; a rated group's ratings are worked out again from that match on."""

    def work(viewer: GroupViewer) -> Done:
        found = db.session.execute(
            sa.select(GroupMatch.match_id, GroupMatch.season, GroupMatch.counted, Match.ended_at)
            .join(Match, Match.id == GroupMatch.match_id)
            .where(GroupMatch.group_id == viewer.group.id, Match.code == code)
        ).first()
        if found is None:
            raise Refusal(words.not_played_here(), 404)
        if found.counted == counted:
            if counted:
                return Done(words.counts_already(), changed=False)
            return Done(words.out_already(), changed=False)
        db.session.execute(
            sa.update(GroupMatch)
            .where(GroupMatch.match_id == found.match_id)
            .values(counted=counted)
        )
        _trail(viewer, "put_back" if counted else "taken_out", code=code)
        if found.ended_at is not None:
            since = (found.ended_at, found.match_id)
            ratings.results_changed(viewer.group.id, found.season, viewer.group.rated, since)
        if counted:
            return Done(words.counts_again(code))
        return Done(words.taken_out(code))

    return group_act(group, post, GroupAction.PUT_BACK if counted else GroupAction.TAKE_OUT, work)


def set_rated(group: StoredGroup, rated: bool, post: Post) -> Done:
    """The host turns the group's rating on (worked out for every season) or off."""

    def work(viewer: GroupViewer) -> Done:
        if viewer.group.rated == rated:
            return Done(words.rating_as_it_was(), changed=False)
        _set(viewer, rated=rated)
        if rated:
            for season in range(1, viewer.group.season + 1):
                ratings.rework(viewer.group.id, season)
                ratings.onto_standings(viewer.group.id, season)
            return Done(words.rated())
        db.session.execute(sa.delete(Rating).where(Rating.group_id == group.id))
        db.session.execute(
            sa.update(Standing)
            .where(Standing.group_id == group.id)
            .values(rating=None, uncertainty=None)
        )
        return Done(words.unrated())

    return group_act(group, post, GroupAction.RATING, work)


def start_match(
    group: StoredGroup,
    game: Game,
    choice: NewMatch,
    players: Sequence[Sequence[int]],
    post: Post,
) -> Done:
    """A match in the group: its sides held by these roster players (by side), named after
    them. The phone that starts it hosts it, on the side of the player it said it is, else
    keeping the sheet; on to its sheet."""

    def work(viewer: GroupViewer) -> Done:
        names = {p[0]: p[1] for p in _roster(viewer.group.id) if not p[2]}
        chosen = [p for side in players for p in side]
        if any(p not in names for p in chosen):
            raise Refusal(words.no_such_player(), 404)
        if len(set(chosen)) != len(chosen):
            raise Refusal(words.one_side_each(), 409)
        # Each side named after its players, as the roster names them under the lock.
        named = [(" & ".join(names[p] for p in side)[:NAME_LENGTH], "") for side in players]
        table = dataclasses.replace(choice, names=named)
        sides = len(sides_for(game, table))
        mine = next(
            (at for at, side in enumerate(players[:sides]) if viewer.player_id in side), None
        )
        table = dataclasses.replace(
            table, host_side=mine, host_player=names.get(viewer.player_id or 0, "")
        )
        match = add_match(game, table, post.phone or "")
        db.session.add(
            GroupMatch(match_id=match.id, group_id=viewer.group.id, season=viewer.group.season)
        )
        for side, held in zip(match.sides, players, strict=False):
            for player in held:
                db.session.add(SidePlayer(side_id=side.id, player_id=player, match_id=match.id))
        return Done("", go_to=match.code)

    return group_act(group, post, GroupAction.NEW_MATCH, work)


def follow_rematch(match: StoredMatch, started: Match) -> None:
    """A rematch of a group's match stays in the group, in its current season, its sides held
    by the same roster players (in the writer's transaction: life.rematch)."""
    found = db.session.execute(
        sa.select(GroupMatch.group_id, Group.season)
        .join(Group, Group.id == GroupMatch.group_id)
        .where(GroupMatch.match_id == match.id)
    ).first()
    if found is None:
        return
    db.session.add(GroupMatch(match_id=started.id, group_id=found.group_id, season=found.season))
    at = {side.id: side.position for side in match.sides}
    new_side = {side.position: side.id for side in started.sides}
    for side_id, player_id in db.session.execute(
        sa.select(SidePlayer.side_id, SidePlayer.player_id).where(SidePlayer.match_id == match.id)
    ):
        db.session.add(
            SidePlayer(side_id=new_side[at[side_id]], player_id=player_id, match_id=started.id)
        )
