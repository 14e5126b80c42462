"""A whole Basra match across phones: create, join, enter, correct, End match, history."""

from __future__ import annotations

import csv
import io
import json
import re

import sqlalchemy as sa

from scorekeeper.extensions import db
from scorekeeper.models import Correction, Entry, Match
from tests.phones import stored_match, totals


def test_whole_basra_match_from_creation_to_history(app, host, guest, watcher):
    code = host.create("basra", table_format="2", target="101", side_0="Alice", side_1="Ben")
    assert re.fullmatch(r"[A-Z2-9]{6}", code)

    joined = guest.join(code, side=1)
    assert "This phone now holds Ben" in joined.shown
    watching = watcher.join(code, side=None)
    assert "Watching" in watching.shown

    # Hand 1: docs/rules/basra.md, "Worked hand", 48 to 5.
    page = host.enter(code, 1, 0, 48).shown
    assert "Hand 1: waiting for" in page and "Ben" in page
    page = guest.enter(code, 1, 1, 5).shown
    assert totals(page) == ["48", "5"]
    assert "Hand 2: waiting for" in page

    # A side may change its own entry until every side has entered.
    host.enter(code, 2, 0, 30)
    host.enter(code, 2, 0, 33)
    page = guest.enter(code, 2, 1, 10).shown
    assert totals(page) == ["81", "15"]

    # The host corrects Ben's first hand: 5 was really 7.
    page = host.correct(code, 1, 1, 7, reason="miscounted jacks").shown
    assert totals(page) == ["81", "17"]
    assert "5 → 7 (miscounted jacks)" in page

    # No End match before anyone reaches 101.
    assert "End match" not in watcher.get(f"/m/{code}").shown

    host.enter(code, 3, 0, 25)
    page = guest.enter(code, 3, 1, 18).shown
    assert totals(page) == ["106", "35"]
    assert "Alice has won!" in page and "End match: Alice wins" in page
    # The watcher sees the winner but gets no End match button.
    watched = watcher.get(f"/m/{code}").shown
    assert "Alice has won!" in watched and "End match" not in watched

    # No hand 4 once a side has won.
    refused = guest.enter(code, 4, 1, 3)
    assert refused.status_code == 409 and "Alice has won" in refused.shown

    # Ben, the loser, may end it: any seated phone can.
    page = guest.post(f"/m/{code}/end").shown
    assert "Match over: Alice won." in page
    match = stored_match(app, code)
    assert match.status == Match.ENDED
    # Stored as the fact, never as words: each phone reads it in its own language.
    assert match.win_reason == {"rule": "reached_first", "target": 101}

    for phone in (host, guest, watcher):
        history = phone.get("/history").shown
        assert f"/m/{code}" in history
        assert "<bdi>Alice</bdi> 106" in history and "<bdi>Ben</bdi> 35" in history
        assert "Alice won." in history

    # The match page shows every hand, the target, the corrections trail and the result.
    page = watcher.get(f"/m/{code}").shown
    assert "to 101 points" in page and "miscounted jacks" in page and "Alice won." in page
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Entry)) == 6
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Correction)) == 1


def test_two_sides_over_target_in_one_hand_higher_wins_level_plays_on(host, guest):
    code = host.create("basra", table_format="2", target="101", side_0="Alice", side_1="Ben")
    guest.join(code, side=1)
    host.enter(code, 1, 0, 95)
    guest.enter(code, 1, 1, 95)
    host.enter(code, 2, 0, 10)
    page = guest.enter(code, 2, 1, 10).shown
    assert totals(page) == ["105", "105"] and "has won" not in page
    assert "Hand 3: waiting for" in page
    host.enter(code, 3, 0, 5)
    page = guest.enter(code, 3, 1, 3).shown
    assert "Alice has won!" in page


def test_history_lists_unfinished_first_then_newest(app, host, guest):
    first = host.create("basra", side_0="A", side_1="B")
    guest.join(first, side=1)
    host.enter(first, 1, 0, 101)
    guest.enter(first, 1, 1, 0)
    host.post(f"/m/{first}/end")
    second = host.create("pastura", side_0="C", side_1="D")
    third = host.create("basra", side_0="E", side_1="F")
    host.post(f"/m/{third}/abandon", {"confirmed": "y"})
    history = host.get("/history").shown
    order = [history.index(f"/m/{code}") for code in (second, third, first)]
    assert order == sorted(order)
    assert "Unfinished: resume" in history and "Abandoned" in history


def test_host_reopens_an_ended_match_and_fills_a_cell(app, host, guest):
    code = host.create("basra", side_0="A", side_1="B")
    guest.join(code, side=1)
    host.enter(code, 1, 0, 110)
    guest.enter(code, 1, 1, 3)
    host.post(f"/m/{code}/end")
    page = host.post(f"/m/{code}/reopen").shown
    assert "Match reopened." in page
    assert stored_match(app, code).status == Match.OPEN
    # The win was a typo: 110 was 11. Then the host fills B's next hand for a dead phone,
    # released first: a side a phone holds enters its own.
    host.correct(code, 1, 0, 11, reason="typo")
    host.enter(code, 2, 0, 20)
    host.post(f"/m/{code}/release", {"target": 1, "confirmed": "y"})
    page = host.correct(code, 2, 1, 9, reason="B's phone died").shown
    assert "filled in to 9" in page
    assert totals(page) == ["31", "12"]
    assert "B: 9 filled in (B's phone died)" in page


def test_sheet_exports_as_csv(host, guest):
    code = host.create("basra", side_0="Alice", side_1="Ben")
    guest.join(code, side=1)
    host.enter(code, 1, 0, 48)
    guest.enter(code, 1, 1, 5)
    host.enter(code, 2, 0, 10)
    response = guest.get(f"/m/{code}/sheet.csv")
    assert response.headers["Content-Type"].startswith("text/csv")
    lines = response.get_data(as_text=True).splitlines()
    assert lines[:3] == [
        "hand,Alice,Ben,Alice total,Ben total",
        "1,48,5,48,5",
        "2,10,,,",
    ]
    assert lines[4] == "game,Basra,target,101 points"


def test_the_export_never_runs_a_name_as_a_formula(host):
    # Names a spreadsheet would run (or split) keep their words behind an apostrophe; numbers,
    # negative ones too, stay numbers.
    names = ['=HYPERLINK("http://x")', "+Tom", "-Bob", "@Ann", "Plain"]
    fields = {f"side_{i}": name for i, name in enumerate(names)}
    code = host.create("other", target="500", **fields)
    host.enter(code, 1, 0, -12)
    rows = list(csv.reader(io.StringIO(host.get(f"/m/{code}/sheet.csv").get_data(as_text=True))))
    assert rows[0][1:6] == ['\'=HYPERLINK("http://x")', "'+Tom", "'-Bob", "'@Ann", "Plain"]
    assert rows[1][:2] == ["1", "-12"]


def test_the_exports_carry_breakdowns_corrections_and_the_whole_match(host, guest):
    code = host.create("basra", table_format="2", side_0="Alice", side_1="Ben", player="Omar")
    guest.join(code, side=1)
    counts = {"n_cards": 30, "n_aces": 3, "n_jacks": 2, "n_ten_diamonds": "y", "n_basras": 1}
    host.post(f"/m/{code}/calc", {"hand": 1, "intent": "enter", "revision": 0, **counts})
    guest.enter(code, 1, 1, 5)
    host.correct(code, 1, 1, 7, reason="miscounted jacks")

    rows = list(csv.reader(io.StringIO(host.get(f"/m/{code}/sheet.csv").get_data(as_text=True))))
    assert ["hand", "side", "line", "count", "points"] in rows
    assert ["1", "Alice", "Basras", "1", "10"] in rows
    header = rows.index(["hand", "side", "was", "now", "reason", "by", "when (UTC)"])
    assert rows[header + 1][:6] == ["1", "Ben", "5", "7", "miscounted jacks", "Omar (Alice)"]

    exported = host.get(f"/m/{code}/match.json")
    assert exported.headers["Content-Type"].startswith("application/json")
    match = json.loads(exported.get_data(as_text=True))
    assert (match["format"], match["version"], match["game"]) == ("scorekeeper-match", 4, "basra")
    assert [(s["name"], s["phones"]) for s in match["sides"]] == [
        ("Alice", ["Omar"]),
        ("Ben", [""]),
    ]
    alice, ben = match["hands"][0]["cells"]
    assert alice["points"] == 48 and alice["counts"]["cards"] == 30
    assert {"line": "Basras", "count": 1, "points": 10} in alice["breakdown"]
    assert ben == {
        "side": 1,
        "points": 7,
        "counts": None,
        "ticks": [],
        "breakdown": None,
    }
    assert match["corrections"][0]["was"] == 5 and match["corrections"][0]["now"] == 7
    assert match["corrections"][0]["by"] == "Omar (Alice)"
    assert match["totals"] == [48, 7]
