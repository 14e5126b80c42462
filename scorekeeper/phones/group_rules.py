"""What a phone may do in a group (the table that plays every week, scoresheet/groups.py): one
rule per GroupAction, asked by every route and by the write path under its lock."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

from scorekeeper.errors import Refusal
from scorekeeper.models import StoredGroup
from scorekeeper.words import refusals


class GroupAction(Enum):
    """Everything a phone can do in a group."""

    JOIN = "join"
    # Say which roster player this phone is ("I am Omar").
    SAY_WHO = "say_who"
    LEAVE = "leave"
    NEW_MATCH = "new_match"
    RENAME = "rename"
    ROSTER = "roster"
    HAND_OVER = "hand_over"
    CLOSE = "close"
    OPEN = "open"
    NEW_SEASON = "new_season"
    TAKE_OUT = "take_out"
    PUT_BACK = "put_back"
    RATING = "rating"


@dataclass(frozen=True)
class GroupViewer:
    """This phone as a group sees it: whether it joined, whether it is the group's host, and
    the roster player it said it is (None: it did not say)."""

    group: StoredGroup
    phone: str | None
    joined: bool
    player_id: int | None = None

    @property
    def is_host(self) -> bool:
        """Whether this phone holds the group's host role."""
        return self.phone is not None and self.phone == self.group.host_phone

    def may(self, action: GroupAction, to: str | None = None) -> bool:
        """Whether this phone may take this action in the group now (for showing its button)."""
        return group_refusal(self, action, to) is None

    def require(self, action: GroupAction, to: str | None = None) -> GroupViewer:
        """This viewer, if it may take this action now; else the Refusal that says why."""
        refused = group_refusal(self, action, to)
        if refused is not None:
            raise refused
        return self


def _group_closed(viewer: GroupViewer) -> Refusal | None:
    """A closed group keeps out the phones that had not joined it (its host never)."""
    if viewer.group.closed and not (viewer.joined or viewer.is_host):
        return Refusal(
            refusals.GROUP_CLOSED,
            409,
        )
    return None


def _group_host(viewer: GroupViewer) -> Refusal | None:
    """A group host's tool, asked for by another phone."""
    if viewer.is_host:
        return None
    return Refusal(refusals.GROUP_HOST_ONLY)


def _group_join(viewer: GroupViewer, to: str | None) -> Refusal | None:
    """A phone joins the group (and may say who it is), while the group is open to it."""
    return _group_closed(viewer)


def _group_new_match(viewer: GroupViewer, to: str | None) -> Refusal | None:
    """A match in the group: started by a phone that joined it (or its host)."""
    if viewer.joined or viewer.is_host:
        return None
    return _group_closed(viewer) or Refusal(refusals.JOIN_THE_GROUP_FIRST, 409)


def _group_leave(viewer: GroupViewer, to: str | None) -> Refusal | None:
    """A phone leaves a group it joined; the host hands its role on first."""
    if viewer.is_host:
        return Refusal(refusals.GROUP_HOST_HANDS_OVER_FIRST, 409)
    if not viewer.joined:
        return Refusal(refusals.NOT_IN_THE_GROUP, 409)
    return None


def _group_hand_over(viewer: GroupViewer, to: str | None) -> Refusal | None:
    """The host hands its role to another phone that joined the group (`to`)."""
    if refused := _group_host(viewer):
        return refused
    if to is None or to == viewer.phone:
        return Refusal(refusals.PICK_ANOTHER_IN_THE_GROUP, 409)
    return None


def _group_switch(on: bool) -> GroupRule:
    """Closing or opening the group to new phones: the host's, and only when it changes."""

    def rule(viewer: GroupViewer, to: str | None) -> Refusal | None:
        if refused := _group_host(viewer):
            return refused
        if viewer.group.closed == on:
            if on:
                return Refusal(refusals.GROUP_CLOSED_ALREADY, 409)
            return Refusal(refusals.GROUP_OPEN_ALREADY, 409)
        return None

    return rule


GroupRule = Callable[[GroupViewer, str | None], Refusal | None]

GROUP_RULES: dict[GroupAction, GroupRule] = {
    GroupAction.JOIN: _group_join,
    GroupAction.SAY_WHO: _group_join,
    GroupAction.LEAVE: _group_leave,
    GroupAction.NEW_MATCH: _group_new_match,
    GroupAction.RENAME: lambda viewer, to: _group_host(viewer),
    GroupAction.ROSTER: lambda viewer, to: _group_host(viewer),
    GroupAction.HAND_OVER: _group_hand_over,
    GroupAction.CLOSE: _group_switch(True),
    GroupAction.OPEN: _group_switch(False),
    GroupAction.NEW_SEASON: lambda viewer, to: _group_host(viewer),
    GroupAction.TAKE_OUT: lambda viewer, to: _group_host(viewer),
    GroupAction.PUT_BACK: lambda viewer, to: _group_host(viewer),
    GroupAction.RATING: lambda viewer, to: _group_host(viewer),
}


def group_refusal(
    viewer: GroupViewer, action: GroupAction, to: str | None = None
) -> Refusal | None:
    """Why this phone may not take this action in its group now, or None if it may: the
    action's rule (GROUP_RULES). `to` is the phone the host role would go to."""
    return GROUP_RULES[action](viewer, to)
