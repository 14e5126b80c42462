"""What a group's actions tell the phone that posted (scoresheet/groups.py): what was done to
the group, its roster, its seasons and its standings, or why nothing was; and a group's name
before its host gives it one (models.py)."""

from __future__ import annotations

from flask_babel import gettext as _

# A group made, kept, joined and left.


def started() -> str:
    """A group started from Home."""
    return _("Group started: share its code with the table.")


def kept_already() -> str:
    """Keeping as a group a match some group keeps."""
    return _("This match is kept in a group already.")


def kept() -> str:
    """An ended match's table kept as a group."""
    return _("Kept as a group: share its code with the table.")


def in_the_group_already() -> str:
    """Joining, by a phone in the group, as the player it says it is already."""
    return _("This phone is in the group already.")


def joined() -> str:
    """A phone joined the group."""
    return _("This phone joined the group.")


def is_player(player: str) -> str:
    """A phone of the group said which roster player it is."""
    # NOTE: %(player)s is a roster player's name.
    return _("This phone is %(player)s in this group now.", player=player)


def left() -> str:
    """A phone left the group."""
    return _("This phone left the group.")


def untitled(code: str) -> str:
    """A group as its pages name it before its host gives it a name."""
    # NOTE: %(code)s is a group's code, before its host gives it a name.
    return _("Group %(code)s", code=code)


# What the host does: the name, the roster, the host role, the door, the seasons.


def name_as_it_was() -> str:
    """The group or a roster player renamed to the name they have."""
    return _("The name is as it was.")


def renamed() -> str:
    """The group renamed."""
    return _("Group renamed.")


def no_such_player() -> str:
    """A roster player asked for whom this group's roster doesn't hold."""
    return _("There is no such player in this group's roster.")


def type_the_name() -> str:
    """A roster player added or renamed with no name typed."""
    return _("Type the player's name.")


def in_the_roster_already(player: str) -> str:
    """A name the roster holds already."""
    # NOTE: %(player)s is a roster player's name.
    return _("%(player)s is in the roster already.", player=player)


def roster_full(most: int) -> str:
    """A player added to a roster that holds the most it takes."""
    return _("A roster holds %(most)s players at most.", most=most)


def joined_the_roster(player: str) -> str:
    """A player added to the roster (or back on it)."""
    # NOTE: %(player)s is a roster player's name.
    return _("%(player)s joined the roster.", player=player)


def player_renamed(player: str, name: str) -> str:
    """A roster player renamed."""
    # NOTE: %(player)s was a roster player's name, %(name)s is their new one.
    return _("%(player)s is %(name)s now.", player=player, name=name)


def left_the_roster_already() -> str:
    """A player taken off the roster who is off it."""
    return _("That player left the roster already.")


def left_the_roster(player: str) -> str:
    """A player taken off the roster."""
    # NOTE: %(player)s is a roster player's name.
    return _("%(player)s left the roster.", player=player)


def host_went_over() -> str:
    """The host role handed to another phone of the group."""
    return _("The host role went to the other phone.")


def closed() -> str:
    """The group closed to new phones."""
    return _("The group is closed: no new phone can join it.")


def opened() -> str:
    """The group opened to new phones again."""
    return _("The group is open to new phones.")


def season_started(season: int) -> str:
    """A new season started."""
    # NOTE: %(season)s is the new season's number.
    return _("Season %(season)s has started.", season=season)


# The group's matches: started, taken out of the standings and put back; its rating.


def not_played_here() -> str:
    """A match taken out or put back that the group didn't play."""
    return _("That match was not played in this group.")


def counts_already() -> str:
    """A match put back in the standings that counts in them."""
    return _("That match counts already.")


def out_already() -> str:
    """A match taken out of the standings that is out of them."""
    return _("That match is out of the standings already.")


def counts_again(code: str) -> str:
    """A match put back in the standings."""
    # NOTE: %(code)s is a match's code.
    return _("Match %(code)s counts in the standings again.", code=code)


def taken_out(code: str) -> str:
    """A match taken out of the standings."""
    return _("Match %(code)s is out of the standings.", code=code)


def rating_as_it_was() -> str:
    """The rating turned on or off as it was."""
    return _("The rating is as it was.")


def rated() -> str:
    """The rating turned on."""
    return _("The group keeps a rating now.")


def unrated() -> str:
    """The rating turned off."""
    return _("The group keeps no rating now.")


def one_side_each() -> str:
    """A group's match started with a roster player on two sides."""
    return _("A player can hold one side only.")
