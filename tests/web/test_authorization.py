"""The authorization matrix: every role at a table against every action, on both databases.

One row per action, one column per role; a cell says whether that phone may do it. Each cell
is its own test on a fresh 2v2 Basra table, with the action's preconditions laid by the
players, then tried by the role's phone: allowed, it succeeds; refused, it says so (403, 409,
or 400 for a forged cookie's form) and nothing stored changes.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from flask import Flask
from itsdangerous import URLSafeTimedSerializer

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
        "stranger": lambda: Phone(app),
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


def _seat_of(host: Phone, code: str, side: str) -> str:
    """The seat id the host's tools offer to hand the host role to a side's phone."""
    page = host.get(f"/m/{code}").get_data(as_text=True)
    found = re.search(rf'href="/m/{code}/host\?target=(\d+)">Make {side} host', page)
    assert found, page
    return found.group(1)


def post(t: Table, path: str, data: dict | None = None):  # type: ignore[no-untyped-def]
    """The actor posts a form of the match page (a forged cookie carries no valid token)."""
    return t.actor.post(f"/m/{t.code}/{path}", data or {}, csrf=t.role != "forged")


def enter(t: Table, hand: int, side: int, points: int = 7):  # type: ignore[no-untyped-def]
    """The actor enters a total."""
    return post(t, "enter", {"hand": hand, "side": side, "points": points})


def correct(t: Table, revision: int = 1):  # type: ignore[no-untyped-def]
    """The actor corrects Them's hand-1 cell against `revision`."""
    data = {"hand": 1, "side": 1, "points": 6, "revision": revision, "reason": "miscount"}
    return post(t, "hand/1/side/1/correct", data)


def won(t: Table) -> None:
    """Us takes hand 2 past the target: Us has won (the players, not the actor)."""
    scorer = t.us
    scorer.enter(t.code, 2, 0, 90)
    t.them.enter(t.code, 2, 1, 3)


def ended(t: Table) -> None:
    """The match won and ended by a player."""
    won(t)
    t.us.post(f"/m/{t.code}/end")


def stale(t: Table) -> None:
    """Them's hand-1 cell corrected by the host since revision 1 was seen."""
    t.host.correct(t.code, 1, 1, 4, revision=1)


ACTIONS: dict[str, tuple[Callable[[Table], None] | None, Callable, set[str]]] = {
    # action: (precondition laid by the players, the actor's try, roles that may)
    "enter own side": (None, lambda t: enter(t, 2, t.side_of_actor()), SEATED),
    "enter other side": (None, lambda t: enter(t, 2, 1 - t.side_of_actor()), set()),
    "enter a past hand": (None, lambda t: enter(t, 1, t.side_of_actor()), set()),
    "enter a future hand": (None, lambda t: enter(t, 3, t.side_of_actor()), set()),
    "correct": (None, lambda t: correct(t), HOST),
    "stale correction": (stale, lambda t: correct(t, revision=1), set()),
    "correct a whole hand": (
        None,
        lambda t: post(
            t,
            "hand/1/correct",
            {"points_0": 21, "points_1": 4, "revision_0": 1, "revision_1": 1, "reason": "x"},
        ),
        HOST,
    ),
    "end before the target": (None, lambda t: post(t, "end"), set()),
    "end after the target": (won, lambda t: post(t, "end"), SEATED | HOST),
    "reopen": (ended, lambda t: post(t, "reopen"), HOST),
    "rematch before the end": (won, lambda t: post(t, "rematch"), set()),
    "rematch": (ended, lambda t: post(t, "rematch"), SEATED | HOST),
    "pick the first dealer": (None, lambda t: post(t, "dealer", {"target": 1}), HOST),
    "remove from history": (
        None,
        lambda t: t.actor.post(f"/history/{t.code}/remove", {}, csrf=t.role != "forged"),
        {"watcher"},
    ),
    "give a name": (
        None,
        lambda t: post(t, "name", {"player": "Zed"}),
        SEATED | {"host_unseated", "watcher"},
    ),
    "abandon": (None, lambda t: post(t, "abandon", {"confirmed": "y"}), HOST),
    "release": (None, lambda t: post(t, "release", {"target": 1, "confirmed": "y"}), HOST),
    "close the table": (None, lambda t: post(t, "close"), HOST),
    "hand over": (
        None,
        lambda t: post(t, "host", {"target": _seat_of_them(t), "confirmed": "y"}),
        HOST,
    ),
    "claim": (
        None,
        lambda t: post(t, "claim", {"target": 1}),
        {"host_unseated", "watcher", "stranger"},
    ),
    "watch": (None, lambda t: post(t, "watch"), {"host_unseated", "watcher", "stranger"}),
    "calculator": (None, lambda t: t.actor.get(f"/m/{t.code}/calc"), SEATED),
    "export": (None, lambda t: t.actor.get(f"/m/{t.code}/sheet.csv"), set(ROLES)),
}


def _seat_of_them(t: Table) -> str:
    """A seat to hand the host role to, as the table's host's tools offer it: Them's, or (the
    host being Them's phone after the handover) an Us phone's."""
    return _seat_of(t.host, t.code, "Us" if t.role == "old_host" else "Them")


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("action", list(ACTIONS))
def test_every_role_against_every_action(app, action, role):
    prepare, attempt, allowed = ACTIONS[action]
    t = table_for(app, role)
    if prepare is not None:
        prepare(t)
    before = snapshot(app)
    answer = attempt(t)
    if role in allowed:
        assert answer.status_code == 200, (action, role, answer.status_code)
        assert 'role="alert"' not in answer.get_data(as_text=True), (action, role)
    else:
        assert answer.status_code in (400, 403, 404, 409), (action, role, answer.status_code)
        assert snapshot(app) == before, (action, role)
