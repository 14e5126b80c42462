"""The write path checks every action's permission itself, so no action can forget it: an
action at a match is written only through `act`, which takes the action's Action and asks
phones/rules.py under the lock before the action's work runs (scoresheet/writing.py)."""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
from flask import Flask

from scorekeeper.errors import Refusal
from scorekeeper.matches import read_match
from scorekeeper.models import Match, StoredMatch, StoredSeat, StoredSide
from scorekeeper.phones.group_rules import GROUP_RULES, GroupAction
from scorekeeper.phones.rules import RULES, Action, PhoneAction, Viewer, phone_refusal, refusal
from scorekeeper.phones.seats import seats_at, viewer_at
from scorekeeper.scoresheet.writing import Done, Post, act, act_as_phone
from tests.phones import snapshot

SCORESHEET = Path(__file__).parents[2] / "scorekeeper" / "scoresheet"
# The actions whose rule is about a side: the column entered or filled, the side claimed.
ABOUT_A_SIDE = {Action.CLAIM, Action.ENTER, Action.FILL}


def test_an_action_whose_work_checks_nothing_is_still_checked(app: Flask, phones) -> None:
    """Every action, by every kind of phone, on an open match and an ended one: the work runs
    exactly when the permission lets the phone by, and a refused one is told why in the
    permission's words, nothing stored changing."""
    host, guest, watcher, stranger = phones(), phones(), phones(), phones()
    code = host.create("basra", table_format="2", side_0="Us", side_1="Them")
    guest.join(code, side=1)
    watcher.join(code, side=None)
    stranger.get("/")
    who = [host.identity(), guest.identity(), watcher.identity(), stranger.identity(), None]
    tried, refused = 0, 0
    for state in ("open", "ended"):
        if state == "ended":
            host.enter(code, 1, 0, 110)
            guest.enter(code, 1, 1, 3)
            host.post(f"/m/{code}/end")
        before = snapshot(app)
        with app.app_context():
            match = read_match(code)
            assert match is not None
            assert match.status == (Match.OPEN if state == "open" else Match.ENDED)
            guest_seat = next(s for s in seats_at(match) if s.phone == guest.identity())
            tied = {side.id for side in match.sides}
            for phone in who:
                for action in Action:
                    sides: list[StoredSide | None] = (
                        list(match.sides) if action in ABOUT_A_SIDE else [None]
                    )
                    for side in sides:
                        refused += _try(match, phone, action, side, tied, guest_seat)
                        tried += 1
        assert snapshot(app) == before
    assert tried == 2 * len(who) * (len(Action) + len(ABOUT_A_SIDE))
    assert 0 < refused < tried


def _try(
    match: StoredMatch,
    phone: str | None,
    action: Action,
    side: StoredSide | None,
    tied: set[int],
    seat: StoredSeat,
) -> bool:
    """One action through the write path with work that checks nothing: refused exactly as the
    permission says (True), or let by to the work."""
    viewer = viewer_at(match, phone)
    expected = refusal(viewer, action, side, among=tied, to=seat)
    ran: list[Viewer] = []

    def work(viewer: Viewer) -> Done:
        ran.append(viewer)
        return Done("", changed=False)

    try:
        act(
            match,
            Post(phone),
            action,
            work,
            side,
            among=lambda _locked: tied,
            to=lambda _locked: seat,
        )
    except Refusal as refused:
        assert expected is not None, (phone, action, side, refused.message)
        assert (refused.message, refused.status) == (expected.message, expected.status)
        assert not ran, (phone, action, side)
        return True
    else:
        assert expected is None, (phone, action, side, expected.message)
        # The work is given the phone as the permission saw it, at the match as the lock read
        # it (its version bumped).
        assert [replace(seen, match=match) for seen in ran] == [viewer], (phone, action, side)
        assert ran[0].match.version == match.version + 1
        return False


def _calls(name: str) -> list[tuple[str, ast.Call]]:
    """Every call of a function by this name in the score sheet's modules, by module."""
    found = []
    for module in sorted(SCORESHEET.glob("*.py")):
        for node in ast.walk(ast.parse(module.read_text())):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                if node.func.id == name:
                    found.append((module.name, node))
    return found


def test_every_action_goes_through_the_write_path_with_its_action() -> None:
    """Every action at a match names its Action to the write path, and every Action a route
    can post is one of them; a phone's own actions at no match (starting one, a history's
    code, taking a history) name their PhoneAction; nothing writes without one."""
    named = set()
    for module, call in _calls("act"):
        action = call.args[2]
        assert isinstance(action, ast.Attribute), (module, ast.unparse(call))
        assert isinstance(action.value, ast.Name) and action.value.id == "Action", module
        named.add(Action[action.attr])
    # The host's one form for the open hand: its own side entered, the others filled.
    assert [module for module, _call in _calls("act_on_sides")] == ["corrections.py"]
    named |= {Action.ENTER, Action.FILL}
    assert named == set(Action)
    own = set()
    for module, call in _calls("act_as_phone"):
        action = call.args[1]
        assert isinstance(action, ast.Attribute), (module, ast.unparse(call))
        assert isinstance(action.value, ast.Name) and action.value.id == "PhoneAction", module
        own.add(PhoneAction[action.attr])
    assert own == set(PhoneAction)
    # The transaction itself is the write path's alone.
    assert {module for module, _call in _calls("_write")} == {"writing.py"}


def test_a_phone_s_own_action_is_checked_before_its_work_runs(app: Flask) -> None:
    """Starting a match or showing a history's code needs the phone's cookie: a post without
    one is refused in the rule's words, its work never run, nothing stored; taking a history
    is any browser's, a new one's too."""
    ran: list[PhoneAction] = []

    def work_for(action: PhoneAction) -> Callable[[], Done]:
        def work() -> Done:
            ran.append(action)
            return Done("done")

        return work

    # A post's request, as every write is: one transaction (a GET's statements commit alone).
    with app.test_request_context(method="POST"):
        before = snapshot(app)
        for action in (PhoneAction.START, PhoneAction.SHOW_HISTORY_CODE):
            with pytest.raises(Refusal) as refused:
                act_as_phone(Post(None, f"key-{action.value}"), action, work_for(action))
            assert refused.value.status == 400
            assert "cookie is missing" in refused.value.message
        assert snapshot(app) == before and ran == []
        done = act_as_phone(
            Post(None), PhoneAction.TAKE_HISTORY, work_for(PhoneAction.TAKE_HISTORY)
        )
        assert done.message == "done" and ran == [PhoneAction.TAKE_HISTORY]
        assert phone_refusal(PhoneAction.START, "a-phone") is None


def test_every_group_action_goes_through_group_act_with_its_action() -> None:
    """In a group, every action names its GroupAction to group_act, which asks phones/group_rules.py
    under the group's lock (through the write path's act_in_group); starting a group is a
    phone's own action. Every GroupAction has its rule."""
    named = set()
    for module, call in _calls("group_act"):
        assert module == "groups.py"
        action = call.args[2]
        if isinstance(action, ast.IfExp):
            choices = [action.body, action.orelse]
        else:
            choices = [action]
        for choice in choices:
            assert isinstance(choice, ast.Attribute), ast.unparse(call)
            assert isinstance(choice.value, ast.Name) and choice.value.id == "GroupAction"
            named.add(GroupAction[choice.attr])
    assert named == set(GroupAction)
    assert set(GROUP_RULES) == set(GroupAction)
    assert [module for module, _call in _calls("act_in_group")] == ["groups.py"]


def test_every_action_has_its_rule() -> None:
    """rules.refusal asks the action's own rule: there is one for every Action."""
    assert set(RULES) == set(Action)


def test_an_action_s_work_sees_only_the_match_its_lock_read() -> None:
    """The work (and any reader its rule needs) inside an action never reads the match the
    route read before the lock: only the viewer's (or the locked one given to it), as the
    last writer left it."""
    read_before = []
    for module in sorted(SCORESHEET.glob("*.py")):
        for action in ast.walk(ast.parse(module.read_text())):
            if not isinstance(action, ast.FunctionDef):
                continue
            if "match" not in {arg.arg for arg in action.args.args}:
                continue
            for inner in action.body:
                if isinstance(inner, ast.FunctionDef):
                    read_before += [
                        f"{module.name}: {action.name}.{inner.name} line {name.lineno}"
                        for name in ast.walk(inner)
                        if isinstance(name, ast.Name) and name.id == "match"
                    ]
    assert read_before == []
