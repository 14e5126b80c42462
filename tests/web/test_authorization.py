"""The authorization matrix: every role at a table against every action, on both databases.

One row per action, one column per role; a cell says whether that phone may do it. The table is
a 2v2 Basra match, with the action's preconditions laid by the players, and the role's phone.

The whole matrix is checked in-process, against the one place every action is checked
(scorekeeper.phones.rules): each role's phone, as its seat is stored, is asked of `refusal` for
every action. Where the permission lets a role by and the sheet's own rules refuse the action
(a hand that is past, a stale correction, an end before anyone won), that is said in the row.

Over HTTP, each action is then tried by a phone whose role may not (refused with 403, 409, or
400 for a forged cookie's form; it says so; nothing stored changes), by one whose role may (it
succeeds), and by every role the sheet's own rules refuse.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import pytest
from flask import Flask
from itsdangerous import URLSafeTimedSerializer

from scorekeeper.errors import Refusal
from scorekeeper.matches import read_match
from scorekeeper.phones.rules import Action, Viewer, refusal
from scorekeeper.phones.seats import seats_at, viewer_at
from tests.phones import Phone, snapshot

ROLES = [
    "host_seated",
    "host_unseated",
    "partner",
    "other_side",
    "watcher",
    "stranger",
    "forged",
    "old_host",
]
SEATED = {"host_seated", "partner", "other_side", "old_host"}
HOST = {"host_seated", "host_unseated"}
# Phones at the table holding no side (a stranger is one as soon as it asks).
UNSEATED = {"host_unseated", "watcher", "stranger"}
# A forged cookie is read as no cookie at all: its phone asks the permissions as nobody, and is
# let by wherever a stranger is. Its posts are refused before that, by their form's token (not
# the session's): tried over HTTP wherever a stranger may.
ASKS_AS = {"forged": "stranger"}


@dataclass
class Table:
    """A 2v2 Basra match: Us (positions 0) and Them (1), hand 1 complete (Us 20, Them 5),
    hand 2 open with nothing entered; and the phone of the role under test."""

    app: Flask
    code: str
    host: Phone
    us: Phone  # a phone holding Us that is not the host
    them: Phone
    actor: Phone
    role: str

    def side_of_actor(self) -> int:
        """The column the actor's own side is (Them for the other side, else Us)."""
        return 1 if self.role == "other_side" else 0


def forged(app: Flask, like: Phone) -> Phone:
    """A phone whose cookie names another phone's token, signed with a key not the app's."""
    phone = Phone(app)
    name = app.config["SESSION_COOKIE_NAME"]
    real = app.session_interface.get_signing_serializer(app)  # type: ignore[attr-defined]
    contents = real.loads(like.client.get_cookie(name).value)
    fake = URLSafeTimedSerializer("not-the-key", salt="cookie-session", signer_kwargs={})
    phone.client.set_cookie(name, fake.dumps(contents))
    return phone


def table_for(app: Flask, role: str) -> Table:
    """The table, with the role's phone placed as the role says."""
    host = Phone(app)
    host_side = "-1" if role == "host_unseated" else "0"
    code = host.create("basra", table_format="2v2", side_0="Us", side_1="Them", host_side=host_side)
    us, them = Phone(app), Phone(app)
    us.join(code, side=0)
    them.join(code, side=1)
    if role == "host_unseated":
        us2 = Phone(app)
        us2.join(code, side=0)
    scorer = host if role != "host_unseated" else us
    scorer.enter(code, 1, 0, 20)
    them.enter(code, 1, 1, 5)
    actors: dict[str, Callable[[], Phone]] = {
        "host_seated": lambda: host,
        "host_unseated": lambda: host,
        "partner": lambda: us,
        "other_side": lambda: them,
        "watcher": lambda: _watching(app, code),
        "stranger": lambda: _stranger(app),
        "forged": lambda: forged(app, host),
        "old_host": lambda: host,
    }
    actor = actors[role]()
    if role == "old_host":
        seat = _seat_of(host, code, "Them")
        host.post(f"/m/{code}/host", {"target": seat, "confirmed": "y"})
    return Table(app, code, host if role != "old_host" else them, us, them, actor, role)


def _watching(app: Flask, code: str) -> Phone:
    """A phone that pressed "Just watch"."""
    phone = Phone(app)
    phone.join(code, side=None)
    return phone


def _stranger(app: Flask) -> Phone:
    """A phone that opened the app (so it has an identity) but never this match."""
    phone = Phone(app)
    phone.get("/")
    return phone


def _seat_of(host: Phone, code: str, side: str) -> str:
    """The seat id the host's tools offer to hand the host role to a side's phone."""
    page = host.get(f"/m/{code}").get_data(as_text=True)
    found = re.search(rf'href="/m/{code}/host\?target=(\d+)">Make {side} host', page)
    assert found, page
    return found.group(1)


# The actor's tries over HTTP.


def post(t: Table, path: str, data: dict | None = None):
    """The actor posts a form of the match page (a forged cookie carries no valid token)."""
    return t.actor.post(f"/m/{t.code}/{path}", data or {}, csrf=t.role != "forged")


def enter(t: Table, hand: int, side: int, points: int = 7):
    """The actor enters a total."""
    return post(t, "enter", {"hand": hand, "side": side, "points": points})


def correct(t: Table, revision: int = 1):
    """The actor corrects Them's hand-1 cell against `revision`."""
    data = {"hand": 1, "side": 1, "points": 6, "revision": revision, "reason": "miscount"}
    return post(t, "hand/1/side/1/correct", data)


def _seat_of_them(t: Table) -> str:
    """A seat to hand the host role to, as the table's host's tools offer it: Them's, or (the
    host being Them's phone after the handover) an Us phone's."""
    return _seat_of(t.host, t.code, "Us" if t.role == "old_host" else "Them")


# What the players do before the actor tries: the states the table goes through, in order.


def stale(t: Table) -> None:
    """Them's hand-1 cell corrected by the host since revision 1 was seen."""
    t.host.correct(t.code, 1, 1, 4, revision=1)


def won(t: Table) -> None:
    """Us takes hand 2 past the target: Us has won (the players, not the actor)."""
    t.us.enter(t.code, 2, 0, 90)
    t.them.enter(t.code, 2, 1, 3)


def end(t: Table) -> None:
    """The won match ended by a player."""
    t.us.post(f"/m/{t.code}/end")


# Each state from the one before it (in-process, one table walks through them all), and from
# a new table (over HTTP, a table per try).
STATES: dict[str, Callable[[Table], None] | None] = {
    "open": None,
    "stale": stale,
    "won": won,
    "ended": end,
}
FROM_A_NEW_TABLE: dict[str, list[Callable[[Table], None]]] = {
    "open": [],
    "stale": [stale],
    "won": [won],
    "ended": [won, end],
}


# What the permission is asked for an action: the Action, and the side or seat it is about,
# from the match as stored and its seats.


@dataclass(frozen=True)
class Asked:
    """The actor's viewer of the match as stored, and the match's seats."""

    viewer: Viewer
    table: Table
    seats: tuple[Any, ...]

    def side(self, position: int) -> Any:
        """The match's side at a position."""
        return next(s for s in self.viewer.match.sides if s.position == position)

    def seat_of(self, phone: Phone) -> Any:
        """The seat a phone holds at the match."""
        return next(s for s in self.seats if s.phone == phone.identity())


Ask = Callable[[Asked], tuple[Action, dict[str, Any]]]


def own_side(action: Action) -> Ask:
    """The action, for the actor's own column."""
    return lambda a: (action, {"side": a.side(a.table.side_of_actor())})


def plain(action: Action) -> Ask:
    """The action, about nothing in particular."""
    return lambda a: (action, {})


def hand_over_to(a: Asked) -> tuple[Action, dict[str, Any]]:
    """Handing the host role to the seat the host's tools offer (see _seat_of_them)."""
    return Action.HAND_OVER, {
        "to": a.seat_of(a.table.us if a.table.role == "old_host" else a.table.them)
    }


@dataclass(frozen=True)
class Row:
    """One action: the state the players leave the table in, the actor's try over HTTP, the
    roles that may, what the permission is asked (None: a page any phone reads, asking
    nothing), the role that tries it over HTTP and must be refused, and the roles the
    permission lets by that the sheet's own rules refuse."""

    state: str
    attempt: Callable[[Table], Any]
    allowed: set[str]
    asks: Ask | None = None
    wrong: str | None = None
    by_the_sheet: set[str] = field(default_factory=set)


ACTIONS: dict[str, Row] = {
    # action: (state the players leave, the actor's try, roles that may, what is asked...)
    "enter own side": Row(
        "open",
        lambda t: enter(t, 2, t.side_of_actor()),
        SEATED,
        asks=own_side(Action.ENTER),
        wrong="host_unseated",
    ),
    "enter other side": Row(
        "open",
        lambda t: enter(t, 2, 1 - t.side_of_actor()),
        set(),
        asks=lambda a: (Action.ENTER, {"side": a.side(1 - a.table.side_of_actor())}),
        wrong="host_seated",
    ),
    # Hand 1 is complete: only the host's correction changes it now.
    "enter a past hand": Row(
        "open",
        lambda t: enter(t, 1, t.side_of_actor()),
        set(),
        asks=own_side(Action.ENTER),
        wrong="watcher",
        by_the_sheet=SEATED,
    ),
    # Hand 2 isn't complete: hand 3 has not started.
    "enter a future hand": Row(
        "open",
        lambda t: enter(t, 3, t.side_of_actor()),
        set(),
        asks=own_side(Action.ENTER),
        wrong="stranger",
        by_the_sheet=SEATED,
    ),
    # Them's phone enters its own column: nobody fills its cell of the open hand for it.
    "fill a held side's open cell": Row(
        "open",
        lambda t: post(
            t, "hand/2/side/1/correct", {"hand": 2, "side": 1, "points": 6, "revision": 0}
        ),
        set(),
        asks=lambda a: (Action.FILL, {"side": a.side(1)}),
        wrong="host_unseated",
    ),
    "correct": Row(
        "open", lambda t: correct(t), HOST, asks=plain(Action.CORRECT), wrong="old_host"
    ),
    # The host's page says revision 1; the cell is at revision 2 since.
    "stale correction": Row(
        "stale",
        lambda t: correct(t, revision=1),
        set(),
        asks=plain(Action.CORRECT),
        wrong="partner",
        by_the_sheet=HOST,
    ),
    "correct a whole hand": Row(
        "open",
        lambda t: post(
            t,
            "hand/1/correct",
            {"points_0": 21, "points_1": 4, "revision_0": 1, "revision_1": 1, "reason": "x"},
        ),
        HOST,
        asks=plain(Action.CORRECT),
        wrong="other_side",
    ),
    # Nobody has won yet.
    "end before the target": Row(
        "open",
        lambda t: post(t, "end"),
        set(),
        asks=plain(Action.END),
        wrong="watcher",
        by_the_sheet=SEATED | HOST,
    ),
    "end after the target": Row(
        "won", lambda t: post(t, "end"), SEATED | HOST, asks=plain(Action.END), wrong="stranger"
    ),
    "reopen": Row(
        "ended", lambda t: post(t, "reopen"), HOST, asks=plain(Action.REOPEN), wrong="partner"
    ),
    "rematch before the end": Row(
        "won", lambda t: post(t, "rematch"), set(), asks=plain(Action.REMATCH), wrong="host_seated"
    ),
    "rematch": Row(
        "ended",
        lambda t: post(t, "rematch"),
        SEATED | HOST,
        asks=plain(Action.REMATCH),
        wrong="watcher",
    ),
    "pick the first dealer": Row(
        "open",
        lambda t: post(t, "dealer", {"target": 1}),
        HOST,
        asks=plain(Action.DEALER),
        wrong="other_side",
    ),
    "remove from history": Row(
        "open",
        lambda t: t.actor.post(f"/history/{t.code}/remove", {}, csrf=t.role != "forged"),
        {"watcher"},
        asks=plain(Action.REMOVE),
        wrong="host_unseated",
    ),
    "give a name": Row(
        "open",
        lambda t: post(t, "name", {"player": "Zed"}),
        SEATED | {"host_unseated", "watcher"},
        asks=plain(Action.RENAME),
        wrong="forged",
    ),
    "write the note": Row(
        "open",
        lambda t: post(t, "note", {"note": "At Omar's"}),
        HOST,
        asks=plain(Action.NOTE),
        wrong="partner",
    ),
    "abandon": Row(
        "open",
        lambda t: post(t, "abandon", {"confirmed": "y"}),
        HOST,
        asks=plain(Action.ABANDON),
        wrong="old_host",
    ),
    "release": Row(
        "open",
        lambda t: post(t, "release", {"target": 1, "confirmed": "y"}),
        HOST,
        asks=plain(Action.RELEASE),
        wrong="partner",
    ),
    "close the table": Row(
        "open", lambda t: post(t, "close"), HOST, asks=plain(Action.CLOSE_TABLE), wrong="watcher"
    ),
    "hand over": Row(
        "open",
        lambda t: post(t, "host", {"target": _seat_of_them(t), "confirmed": "y"}),
        HOST,
        asks=hand_over_to,
        wrong="old_host",
    ),
    "claim": Row(
        "open",
        lambda t: post(t, "claim", {"target": 1}),
        UNSEATED,
        asks=plain(Action.CLAIM),
        wrong="partner",
    ),
    "watch": Row(
        "open", lambda t: post(t, "watch"), UNSEATED, asks=plain(Action.WATCH), wrong="other_side"
    ),
    # The calculator is drawn for the phone's own side.
    "calculator": Row(
        "open",
        lambda t: t.actor.get(f"/m/{t.code}/calc"),
        SEATED,
        asks=lambda a: (Action.ENTER, {"side": a.viewer.side}),
        wrong="host_unseated",
    ),
    "export": Row("open", lambda t: t.actor.get(f"/m/{t.code}/sheet.csv"), set(ROLES)),
}


@contextmanager
def asking(t: Table) -> Iterator[Callable[[Ask], Refusal | None]]:
    """The permission, asked for the actor as the match now stands (read from the database):
    a forged cookie names no phone, so its phone asks as nobody."""
    phone = None if t.role == "forged" else t.actor.identity()
    with t.app.app_context():
        match = read_match(t.code)
        assert match is not None
        seats = tuple(seats_at(match))
        asked = Asked(viewer_at(match, phone, seats), t, seats)

        def ask(question: Ask) -> Refusal | None:
            action, about = question(asked)
            return refusal(asked.viewer, action, **about)

        yield ask


@pytest.mark.parametrize("role", ROLES)
def test_every_action_is_allowed_or_refused_as_the_matrix_says(app, role):
    """The whole matrix, in-process: one table per role, walked through every state the rows
    need, and every action asked of the permissions in its state."""
    t = table_for(app, role)
    asked = set()
    for state, step in STATES.items():
        if step is not None:
            step(t)
        with asking(t) as ask:
            for action, row in ACTIONS.items():
                if row.state != state or row.asks is None:
                    continue
                refused = ask(row.asks)
                lets_by = ASKS_AS.get(role, role) in row.allowed | row.by_the_sheet
                said = refused.message if refused is not None else "let by"
                assert (refused is None) == lets_by, (action, role, said)
                if refused is not None:
                    assert refused.message and refused.status in (403, 404, 409), (action, role)
                asked.add(action)
    assert asked == {action for action, row in ACTIONS.items() if row.asks is not None}


def over_http() -> Iterator[tuple[str, str]]:
    """Each action's tries over HTTP: the role that must be refused, the first role that may,
    every role the sheet's own rules refuse (the permission lets them by), and every role the
    permission lets by as another (ASKS_AS) that may not; every role for a page that asks no
    permission."""
    for action, row in ACTIONS.items():
        if row.asks is None:
            roles = list(ROLES)
        else:
            lets_by = row.allowed | row.by_the_sheet
            roles = [row.wrong] if row.wrong else []
            roles += [role for role in ROLES if role in row.allowed][:1]
            roles += [role for role in ROLES if role in row.by_the_sheet]
            roles += [
                role
                for role, like in ASKS_AS.items()
                if like in lets_by and role not in row.allowed and role not in roles
            ]
        for role in roles:
            yield action, role


def test_every_role_is_tried_over_http_and_every_action_refused_there():
    tried = list(over_http())
    assert {role for _, role in tried} == set(ROLES)
    wrong = {action for action, role in tried if role not in ACTIONS[action].allowed}
    assert wrong == {action for action, row in ACTIONS.items() if row.allowed != set(ROLES)}
    for action, row in ACTIONS.items():
        assert row.wrong is None or row.wrong not in row.allowed, action


@pytest.mark.parametrize(("action", "role"), list(over_http()))
def test_an_action_over_http(app, action, role):
    row = ACTIONS[action]
    t = table_for(app, role)
    for step in FROM_A_NEW_TABLE[row.state]:
        step(t)
    before = snapshot(app)
    answer = row.attempt(t)
    page = answer.get_data(as_text=True)
    if role in row.allowed:
        assert answer.status_code == 200, (action, role, answer.status_code)
        assert 'role="alert"' not in page, (action, role)
    else:
        assert answer.status_code in (400, 403, 404, 409), (action, role, answer.status_code)
        assert 'class="flash error" role="alert"' in page, (action, role)
        assert snapshot(app) == before, (action, role)
