"""Random groups played through the test clients, and every figure of their standings (and
ratings) worked out again here, in a few plain lines, from the exports: each match's own sheet
(its JSON export) for its hands and winner, the group's JSON export for the order matches
ended in, and this test's own record of who sat where. Never from standings.py or ratings.py.

What the standings must say is docs/groups.md's "Standings" and "Rating". A history mixes
tables kept on one phone, partnerships, three sides, rematches, corrections after a side has
won, matches reopened and ended again, matches taken out and put back, a new season, and a
player who says who they are on one phone, then on another.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from tests import oracle, oracle_tarneeb
from tests.conftest import _emptied, fresh_memory
from tests.examples import examples
from tests.groups import add_players, new_match, roster_ids, say_who, standings_json, start_group
from tests.phones import Phone, stored_match

NAMES = ["Ana", "Ben", "Cleo", "Dov"]
# The tables played: game, New match's format, sides, players a side, target.
KINDS = [
    ("basra", "2", 2, 1, "101"),
    ("basra", "2v2", 2, 2, "101"),
    ("other", "free", 3, 1, "60"),
    # docs/rules/escoba.md: a target the table agrees, typed.
    ("escoba", "3", 3, 1, "15"),
    ("scopa", "2v2", 2, 2, "11"),
    ("tarneeb", "2v2", 2, 2, "41"),
]
# Tarneeb's table as New match leaves it (docs/rules/tarneeb.md, "Table rules").
TARNEEB = oracle.Table("tarneeb", 2, 41)
LEAST = 3


@dataclass
class Played:
    """A match as this test played it: who held each side (by name), its season, its rematch."""

    code: str
    game: str
    seats: dict[int, list[str]]
    season: int
    # The side a phone holds (its player said who they are), entered from that phone.
    phone_side: int | None = None
    ended: bool = False
    counted: bool = True
    rematch: str | None = None


@dataclass
class Group:
    """One drawn group's life, played by a host that keeps the sheets and Ben's two phones."""

    app: Flask
    draw: Any
    host: Phone = field(init=False)
    phones: list[Phone] = field(init=False)
    matches: list[Played] = field(default_factory=list)
    season: int = 1

    def __post_init__(self) -> None:
        self.host = Phone(self.app)
        self.phones = [Phone(self.app), Phone(self.app)]
        self.ben = 0
        self.code = start_group(self.host, "Fridays")
        add_players(self.host, self.code, *NAMES)
        self.ids = roster_ids(self.host, self.code)
        say_who(self.phones[0], self.code, "Ben", self.ids)
        self.rated = self.draw(st.booleans(), label="rated")
        if self.rated:
            self.host.post(f"/g/{self.code}/rating")

    def export(self, code: str) -> dict[str, Any]:
        return json.loads(self.host.get(f"/m/{code}/match.json").get_data(as_text=True))

    def winner(self, code: str) -> int | None:
        export = self.export(code)
        return oracle.work_out(oracle.Table.of(export), export["hands"]).winner

    def new(self) -> Played:
        game, table_format, sides, per_side, target = self.draw(
            st.sampled_from(KINDS), label="table"
        )
        order = self.draw(st.permutations(NAMES), label="seating")
        seats = {
            side: list(order[side * per_side : (side + 1) * per_side]) for side in range(sides)
        }
        phone_side = None
        if game == "basra" and per_side == 1 and self.draw(st.booleans(), label="Ben's phone"):
            # Ben holds side 1 from his own phone, which said who it is.
            phone_side = 1
            seats = {0: [n for n in order if n != "Ben"][:1], 1: ["Ben"]}
        chosen = [
            [] if side == phone_side else [self.ids[name] for name in seats[side]]
            for side in range(sides)
        ]
        fields = {"target": target} if game in ("other", "escoba") else {}
        code = new_match(self.host, self.code, game, chosen, table_format=table_format, **fields)
        if phone_side is not None:
            phone = self.phones[self.ben]
            phone.post("/join", {"code": code})
            assert "now holds" in phone.post(f"/m/{code}/claim", {"target": 1}).shown
        return Played(code, game, seats, self.season, phone_side)

    def totals(self, match: Played) -> list[int]:
        """A hand's plain totals, each side's within what its game gives."""
        if match.game == "tarneeb":
            # docs/rules/tarneeb.md, "Scoring a hand": only a bid and its tricks give a hand.
            bid = self.draw(st.integers(7, 13), label="bid")
            took = self.draw(st.integers(0, 13), label="tricks the bidders took")
            bidder = self.draw(st.integers(0, 1), label="bidders")
            return oracle_tarneeb.points(TARNEEB, bidder, bid, took)
        high = 12 if match.game in ("escoba", "scopa") else 60
        return [self.draw(st.integers(0, high), label="points") for _ in match.seats]

    def hand(self, match: Played, number: int) -> None:
        sides = len(match.seats)
        points = self.totals(match)
        filled = {f"points_{at}": points[at] for at in range(sides) if at != match.phone_side} | {
            f"revision_{at}": 0 for at in range(sides) if at != match.phone_side
        }
        shown = self.host.post(f"/m/{match.code}/hand/{number}/enter", filled)
        assert shown.status_code == 200, shown.shown[:500]
        if match.phone_side is not None:
            phone = self.phones[self.ben]
            assert phone.enter(match.code, number, 1, points[1]).status_code == 200

    def play(self, match: Played) -> None:
        number = 0
        while self.winner(match.code) is None and number < 12:
            number += 1
            self.hand(match, number)
        if number >= 2 and self.draw(st.booleans(), label="a correction after the winner"):
            side = self.draw(st.integers(0, len(match.seats) - 1), label="corrects side")
            hand = self.draw(st.integers(1, number), label="corrects hand")
            value = self.totals(match)[side]
            if match.game == "tarneeb":
                # A Tarneeb hand's cells stand together (one bid, one team gains): the host
                # corrects the whole hand, with the form the app offers.
                self.correct_whole_hand(match, hand)
            elif side != match.phone_side:
                assert self.host.correct(match.code, hand, side, value).status_code == 200
            while self.winner(match.code) is None and number < 14:
                number += 1
                self.hand(match, number)
        if self.winner(match.code) is None:
            return
        assert "Match over" in self.host.post(f"/m/{match.code}/end").shown
        match.ended = True
        if self.draw(st.integers(0, 4), label="reopened") == 0:
            assert "Match reopened." in self.host.post(f"/m/{match.code}/reopen").shown
            assert "Match over" in self.host.post(f"/m/{match.code}/end").shown

    def correct_whole_hand(self, match: Played, number: int) -> None:
        """Every cell of a hand the match was won by or before corrected at once, as the
        whole-hand page draws its form."""
        url = f"/m/{match.code}/hand/{number}/correct"
        page = self.host.get(url)
        assert page.status_code == 200, page.shown[:400]
        form: dict[str, Any] = dict(
            re.findall(r'name="(revision_\d)"[^>]*value="(\d+)"', page.shown)
        )
        form |= {f"points_{at}": got for at, got in enumerate(self.totals(match))}
        shown = self.host.post(url, {**form, "reason": "recounted"})
        assert shown.status_code == 200, shown.shown[:600]

    def rematch(self, last: Played) -> Played:
        self.host.post(f"/m/{last.code}/rematch")
        code = stored_match(self.app, last.code).rematch_code
        assert code is not None
        last.rematch = code
        return Played(code, last.game, {s: list(n) for s, n in last.seats.items()}, self.season)

    def run(self) -> None:
        for _ in range(self.draw(st.integers(2, 7), label="steps")):
            step = self.draw(
                st.sampled_from(["match", "match", "rematch", "out", "back", "season", "phone"]),
                label="step",
            )
            last = self.matches[-1] if self.matches else None
            if step == "rematch" and last and last.ended and last.phone_side is None:
                match = self.rematch(last)
                self.matches.append(match)
                self.play(match)
            elif step in ("match", "rematch"):
                match = self.new()
                self.matches.append(match)
                self.play(match)
            elif step in ("out", "back"):
                kept = [m for m in self.matches if m.ended and m.counted == (step == "out")]
                if kept:
                    match = self.draw(st.sampled_from(kept), label="taken out or back")
                    self.host.post(f"/g/{self.code}/{step}", {"code": match.code})
                    match.counted = step == "back"
            elif step == "season":
                assert "has started" in self.host.post(f"/g/{self.code}/season").shown
                self.season += 1
            else:
                # Ben changes phones: the new one says who it is; the old one still counts.
                self.ben = 1
                say_who(self.phones[1], self.code, "Ben", self.ids)


# The standings worked out again, from the exports and this test's seating.


def figures(group: Group, season: int, export: dict[str, Any]) -> None:
    """Every figure of one season's export, checked against a few plain lines."""
    ours = {m.code: m for m in group.matches if m.ended and m.season == season}
    shown = export["matches"]
    assert {m["code"] for m in shown} == set(ours)
    counted = []
    ordered = [ours[listed["code"]] for listed in shown]
    for listed in shown:  # in the order the matches ended
        match = ours[listed["code"]]
        assert listed["counted"] == match.counted
        sheet = group.export(match.code)
        sides = len(match.seats)
        complete = [h for h in sheet["hands"] if h["complete"]]
        cells = [oracle.cells_of(h, sides) for h in complete]
        results = [
            {
                "players": sorted(match.seats[at]),
                "won": sheet["winner"] == at,
                "hands": len(complete),
                "points": sum(c[at]["points"] for c in cells),
                "best": max(
                    ((c[at]["points"], n) for n, c in enumerate(cells, 1)),
                    key=lambda b: b[0],
                    default=None,
                ),
            }
            for at in range(sides)
        ]
        assert [sorted(s["players"]) for s in listed["sides"]] == [r["players"] for r in results]
        if match.counted:
            counted.append((match, results))
    for scope in export["standings"]:
        game = scope["game"]
        mine = [(m, r) for m, r in counted if game is None or m.game == game]
        lines: dict[str, dict[str, Any]] = {}
        pairs: dict[tuple[str, ...], list[int]] = {}
        met: dict[tuple[str, str], list[int]] = {}
        for match, results in mine:
            for at, side in enumerate(results):
                others = [r for o, r in enumerate(results) if o != at]
                for name in side["players"]:
                    line = lines.setdefault(
                        name,
                        {
                            "played": 0,
                            "won": 0,
                            "hands": 0,
                            "points": 0,
                            "against_hands": 0,
                            "against_points": 0,
                            "streak": 0,
                            "best_streak": 0,
                            "best": None,
                        },
                    )
                    line["played"] += 1
                    line["won"] += side["won"]
                    line["streak"] = line["streak"] + 1 if side["won"] else 0
                    line["best_streak"] = max(line["best_streak"], line["streak"])
                    line["hands"] += side["hands"]
                    line["points"] += side["points"]
                    line["against_hands"] += sum(o["hands"] for o in others)
                    line["against_points"] += sum(o["points"] for o in others)
                    if side["best"] and (line["best"] is None or side["best"][0] > line["best"][0]):
                        line["best"] = (side["best"][0], match.code, side["best"][1])
                    for partner in side["players"]:
                        if name < partner:
                            cell = pairs.setdefault((name, partner), [0, 0])
                            cell[0] += 1
                            cell[1] += side["won"]
                    for other in others:
                        for rival in other["players"]:
                            cell = met.setdefault((name, rival), [0, 0])
                            cell[0] += 1
                            cell[1] += side["won"]
        series = series_of(
            [m for m in ordered if game is None or m.game == game],
            mine,
        )
        got = {line["player"]: line for line in scope["players"]}
        assert set(got) == set(lines)
        for name, line in lines.items():
            shown_line = got[name]
            for key in (
                "played",
                "won",
                "hands",
                "points",
                "against_hands",
                "against_points",
                "streak",
                "best_streak",
            ):
                assert shown_line[key] == line[key], (game, name, key)
            assert [shown_line["series"], shown_line["series_won"]] == series.get(name, [0, 0]), (
                game,
                name,
            )
            best = shown_line["best_hand"]
            if game is None:
                assert best is None
            else:
                said = (best["points"], best["match"], best["hand"]) if best else None
                assert said == line["best"], (game, name)

        # The order the page states.
        def share(line: dict[str, Any]) -> float:
            return line["won"] / line["played"]

        def per_hand(line: dict[str, Any]) -> float:
            return line["points"] / line["hands"] if line["hands"] else 0

        expected = sorted(
            lines,
            key=lambda n: (
                (0, -share(lines[n]), -lines[n]["won"], -per_hand(lines[n]), n)
                if lines[n]["played"] >= LEAST
                else (1, -lines[n]["played"], 0, 0, n)
            ),
        )
        assert [line["player"] for line in scope["players"]] == expected
        assert {tuple(p["players"]): [p["played"], p["won"]] for p in scope["partners"]} == pairs
        assert {
            (m["player"], m["opponent"]): [m["played"], m["won"]] for m in scope["head_to_head"]
        } == met
    if group.rated:
        ratings(counted, export)


def series_of(
    ended: list[Played], counted: list[tuple[Played, list[dict[str, Any]]]]
) -> dict[str, list[int]]:
    """Series played and won, by name: chains of rematches among the season's ended matches
    (running through those taken out), two counted matches or more; each counted match goes to
    the sides of the last that hold a player of its winning side; the side alone at the top
    wins it, for every player on it."""
    results = {m.code: r for m, r in counted}
    codes = {m.code for m in ended}
    next_of = {m.code: m.rematch for m in ended if m.rematch in codes}
    found: dict[str, list[int]] = {}
    for head in [m.code for m in ended if m.code not in next_of.values()]:
        chain, code = [], head
        while code is not None:
            if code in results:
                chain.append(results[code])
            code = next_of.get(code)
        if len(chain) < 2:
            continue
        last = chain[-1]
        wins = [0] * len(last)
        for sides in chain:
            winners = {n for side in sides if side["won"] for n in side["players"]}
            for place, side in enumerate(last):
                wins[place] += bool(winners & set(side["players"]))
        top = [place for place, won in enumerate(wins) if won == max(wins)]
        for place, side in enumerate(last):
            for name in side["players"]:
                tally = found.setdefault(name, [0, 0])
                tally[0] += 1
                tally[1] += top == [place]
    return found


def ratings(counted: list[tuple[Played, list[dict[str, Any]]]], export: dict[str, Any]) -> None:
    """openskill played through the counted matches in the order they ended: the winner
    first, the others tied behind it; each player's last rating, shown × 40."""
    model = PlackettLuce()
    now: dict[str, Any] = {}
    for _match, results in counted:
        teams = [r for r in results if r["players"]]
        if len(teams) < 2:
            continue
        rated = model.rate(
            [[now.get(n) or model.rating() for n in r["players"]] for r in teams],
            ranks=[1 if r["won"] else 2 for r in teams],
        )
        for r, team in zip(teams, rated, strict=True):
            for name, rating in zip(r["players"], team, strict=True):
                now[name] = rating
    everyone = next(s for s in export["standings"] if s["game"] is None)
    for line in everyone["players"]:
        rating = now[line["player"]]
        assert line["rating"] == {
            "rating": round(rating.mu * 40),
            "uncertainty": round(rating.sigma * 40),
        }


@settings(
    max_examples=examples(12),
    deadline=None,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
    ],
)
@given(draw=st.data())
def test_random_groups_standings_hold_against_the_exports(app, draw):
    _emptied(app)
    fresh_memory(app)
    group = Group(app, draw.draw)
    group.run()
    for season in range(1, group.season + 1):
        figures(group, season, standings_json(group.host, group.code, season))
