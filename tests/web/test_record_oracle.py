"""Random histories of a few phones, played through the test clients, and every figure of each
phone's record page and every series line worked out again from the sheets as they are shown
(each match's JSON export), in a few plain lines here, never from record.py or series.py.

What the record must say is docs/at-the-table.md's "Your record" and "Series":
ended matches the phone played on a side and kept on its list, in the order they
ended; the best hand (the lowest where the lowest total wins); the biggest win and the
comeback at the hand that decided the match (tests/oracle.py says which: the first after
which the rules name a winner); series judged by who played. A history mixes ended,
abandoned, unfinished, reopened-and-ended-again and removed matches; every game, Other with
the lowest winning, Pastura's early victory, rematches where the players swap sides or a side
is released and taken by another phone, corrections that move the win to an earlier hand,
and partners.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from flask import Flask
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from tests import oracle, oracle_tarneeb
from tests.conftest import _emptied, fresh_memory
from tests.examples import examples
from tests.phones import Phone, stored_match
from tests.web.test_record import figures


@dataclass(frozen=True)
class Kind:
    """A table the histories play: its game, New match's fields, sides and phones a side."""

    game: str
    fields: dict[str, str]
    sides: int
    per_side: int
    target: int
    rules: dict[str, str] = field(default_factory=dict)

    @property
    def table(self) -> oracle.Table:
        """The table as tests/oracle.py works it out: as New match was filled, not as the app
        exports it."""
        return oracle.Table(self.game, self.sides, self.target, self.rules)


KINDS = [
    Kind("basra", {"table_format": "2"}, 2, 1, 101),
    Kind("basra", {"table_format": "2v2"}, 2, 2, 101),
    Kind("pastura", {"table_format": "2"}, 2, 1, 51),
    Kind(
        "other", {"table_format": "free", "rule_winner": "lowest"}, 2, 1, 60, {"winner": "lowest"}
    ),
    Kind("other", {"table_format": "free", "rule_winner": "highest"}, 3, 1, 60),
    Kind("brisca", {"table_format": "2"}, 2, 1, 2),
    Kind("brasta", {"table_format": "2"}, 2, 1, 201),
    # docs/rules/escoba.md: a target the table agrees, typed.
    Kind("escoba", {"table_format": "3"}, 3, 1, 25),
    Kind("scopa", {"table_format": "2v2"}, 2, 2, 11),
    Kind("tarneeb", {"table_format": "2v2", "rule_doubling": "on"}, 2, 2, 31, {"doubling": "on"}),
    Kind(
        "tarneeb",
        {"table_format": "2v2", "rule_defenders": "always"},
        2,
        2,
        41,
        {"defenders": "always"},
    ),
]
NAMES = ["Ana", "Ben", "Cleo", "Dov"]
# Pastura, one side taking every scoring card and the other only pasturas: an early victory.
SWEEP = {"n_cards": 40, "n_aces": 4, "n_jacks": 4, "n_two_clubs": "y", "n_ten_diamonds": "y"}


@dataclass
class Played:
    """A match as the history played it: its code, table, who sat where, and when it ended."""

    code: str
    kind: Kind
    seats: dict[int, list[str]]
    host: str
    # Its place in the order matches ended (None: not ended); its export's rematch; who won it,
    # worked out from its hands (compare).
    ended: int | None = None
    rematch: str | None = None
    winner: int | None = None


class History:
    """Four phones (each its player's name) playing one drawn history."""

    def __init__(self, app: Flask, draw: Any) -> None:
        self.app, self.draw = app, draw
        self.phones = {name: Phone(app) for name in NAMES}
        self.matches: list[Played] = []
        self.removed: set[tuple[str, str]] = set()
        self.ends = 0

    def seating(self, kind: Kind) -> dict[int, list[str]]:
        """Who sits on each side: anyone, nobody (the host fills), partners."""
        order = self.draw(st.permutations(NAMES), label="phones in order")
        seats: dict[int, list[str]] = {side: [] for side in range(kind.sides)}
        for name in order:
            side = self.draw(st.integers(-1, kind.sides - 1), label=f"{name} sits at")
            if side >= 0 and len(seats[side]) < kind.per_side:
                seats[side].append(name)
        return seats

    def new_match(self) -> Played:
        """The host fills New match on its side (or none); the others claim theirs."""
        kind = self.draw(st.sampled_from(KINDS), label="table")
        seats = self.seating(kind)
        host = self.draw(st.sampled_from(NAMES), label="host")
        side = next((s for s, names in seats.items() if host in names), -1)
        names = {f"side_{s}": f"Side {s}" for s in range(kind.sides)}
        code = self.phones[host].create(
            kind.game,
            target=str(kind.target),
            host_side=str(side),
            player=host,
            **kind.fields,
            **names,
        )
        for s, held in seats.items():
            for name in held:
                if name != host:
                    self.phones[name].post("/join", {"code": code})
                    self.claim(code, name, s)
        return Played(code, kind, seats, host)

    def claim(self, code: str, name: str, side: int) -> None:
        shown = self.phones[name].post(f"/m/{code}/claim", {"target": side, "player": name}).shown
        assert "now holds" in shown, shown[:400]

    def rematch(self, last: Played) -> Played:
        """A phone of the ended match asks for the rematch (it takes its old side); then
        the seats are drawn again: players may swap sides, a side may go to another phone."""
        kind = last.kind
        asker = self.draw(
            st.sampled_from([n for held in last.seats.values() for n in held] or [last.host]),
            label="asks for the rematch",
        )
        self.phones[asker].post(f"/m/{last.code}/rematch")
        code = stored_match(self.app, last.code).rematch_code
        assert code is not None
        seats = self.seating(kind)
        old = next((s for s, held in last.seats.items() if asker in held), None)
        host = self.phones[last.host]
        # A rematch waits for the phones that played each side: the host opens it to all.
        host.post(f"/m/{code}/open")
        if old is not None and asker not in seats[old]:
            assert (
                "free" in host.post(f"/m/{code}/release", {"target": old, "confirmed": "y"}).shown
            )
        for s, held in seats.items():
            for name in held:
                if not (name == asker and s == old):
                    self.phones[name].post("/join", {"code": code})
                    self.claim(code, name, s)
        return Played(code, kind, seats, last.host)

    def export(self, match: Played) -> dict[str, Any]:
        page = self.phones[match.host].get(f"/m/{match.code}/match.json")
        return json.loads(page.get_data(as_text=True))

    def decided(self, match: Played) -> bool:
        export = self.export(match)
        return oracle.work_out(match.kind.table, export["hands"]).winner is not None

    def enter_hand(self, match: Played, number: int) -> None:
        """Each side's total for the hand, from its own phone or filled by the host."""
        kind, draw = match.kind, self.draw
        sweep = kind.game == "pastura" and draw(st.booleans(), label="a calculator hand")
        taker = draw(st.integers(0, kind.sides - 1), label="takes the most")
        plain = self.totals(kind, taker)
        for side in range(kind.sides):
            held = match.seats[side]
            phone = self.phones[held[0]] if held else self.phones[match.host]
            if sweep:
                counts = (
                    SWEEP
                    if side == taker
                    else {"n_cards": 12, "n_pasturas": draw(st.integers(0, 2), label="pasturas")}
                )
                url = (
                    f"/m/{match.code}/calc"
                    if held
                    else (f"/m/{match.code}/hand/{number}/side/{side}/calc")
                )
                shown = phone.post(
                    url, {"hand": number, "revision": 0, "intent": "enter", **counts}
                )
            else:
                points = plain[side]
                if held:
                    shown = phone.enter(match.code, number, side, points)
                else:
                    shown = phone.correct(match.code, number, side, points)
            assert shown.status_code == 200, shown.shown[:600]

    def totals(self, kind: Kind, taker: int) -> list[int]:
        """A hand's plain totals: Brisca's card points add to 120, a round taken outright."""
        if kind.game == "brisca":
            won = self.draw(st.integers(61, 120), label="card points")
            return [won if side == taker else 120 - won for side in range(kind.sides)]
        if kind.game == "tarneeb":
            # docs/rules/tarneeb.md, "Scoring a hand": only a bid and its tricks give a hand.
            bid = self.draw(st.integers(7, 13), label="bid")
            took = self.draw(st.integers(0, 13), label="tricks the bidders took")
            doubled = self.draw(st.integers(0, 2), label="doubled")
            return oracle_tarneeb.points(kind.table, taker, bid, took, doubled)
        low = -20 if kind.game == "brasta" else 0
        high = {"brasta": 130, "other": 35, "escoba": 12, "scopa": 8}.get(kind.game, 70)
        return [self.draw(st.integers(low, high), label="points") for _ in range(kind.sides)]

    def play(self, match: Played) -> None:
        """Hands until the rules name a winner (or ten), a correction now and then that may
        move the win to an earlier hand; then End match, abandon or leave it open."""
        number = 0
        while number < 10:
            while not self.decided(match) and number < 10:
                number += 1
                self.enter_hand(match, number)
            if number < 2 or not self.draw(st.booleans(), label="a correction"):
                break
            hand = self.draw(st.integers(1, number - 1), label="corrects hand")
            if match.kind.game in ("brisca", "tarneeb"):
                # A Brisca round's card points and a Tarneeb hand's cells (one bid, one team
                # gains) stand together: one changed alone is refused, by rule, and the host
                # corrects the whole hand.
                self.correct_whole_hand(match, hand)
                continue
            side = self.draw(st.integers(0, match.kind.sides - 1), label="corrects side")
            value = self.totals(match.kind, side)[side]
            host = self.phones[match.host]
            assert host.correct(match.code, hand, side, value).status_code == 200
        fate = self.draw(st.sampled_from(["end", "end", "end", "abandon", "open"]), label="fate")
        host = self.phones[match.host]
        if fate == "end" and self.decided(match):
            self.end(match)
            if self.draw(st.integers(0, 4), label="reopened") == 0:
                assert "Match reopened." in host.post(f"/m/{match.code}/reopen").shown
                match.ended = None
                self.end(match)
        elif fate != "open":
            host.post(f"/m/{match.code}/abandon", {"confirmed": "y"})

    def correct_whole_hand(self, match: Played, number: int) -> None:
        """The host corrects every cell of a hand at once, with the whole-hand form the app
        offers, as its page draws it (each cell's revision)."""
        taker = self.draw(st.integers(0, match.kind.sides - 1), label="takes the hand")
        points = self.totals(match.kind, taker)
        host = self.phones[match.host]
        url = f"/m/{match.code}/hand/{number}/correct"
        page = host.get(url)
        assert page.status_code == 200, page.shown[:400]
        form: dict[str, Any] = dict(
            re.findall(r'name="(revision_\d)"[^>]*value="(\d+)"', page.shown)
        )
        assert len(form) == match.kind.sides, page.shown[:800]
        form |= {f"points_{side}": got for side, got in enumerate(points)}
        shown = host.post(url, {**form, "reason": "recounted"})
        assert shown.status_code == 200, shown.shown[:600]

    def end(self, match: Played) -> None:
        ender = next((held[0] for held in match.seats.values() if held), match.host)
        assert "Match over" in self.phones[ender].post(f"/m/{match.code}/end").shown
        self.ends += 1
        match.ended = self.ends

    def run(self) -> None:
        for _ in range(self.draw(st.integers(1, 6), label="matches")):
            last = self.matches[-1] if self.matches else None
            if last and last.ended and self.draw(st.booleans(), label="a rematch"):
                match = self.rematch(last)
            else:
                match = self.new_match()
            self.matches.append(match)
            self.play(match)
        for match in self.matches:
            for name in NAMES:
                at = any(name in held for held in match.seats.values()) or name == match.host
                if (
                    at
                    and match.ended
                    and self.draw(st.integers(0, 4), label=f"{name} removes") == 0
                ):
                    self.phones[name].post(f"/history/{match.code}/remove")
                    self.removed.add((name, match.code))


# The record worked out again, from the exports.


def sign(table: oracle.Table) -> int:
    return -1 if table.game == "other" and table.rule("winner", "highest") == "lowest" else 1


def deciding(table: oracle.Table, hands: list[dict[str, Any]]) -> list[list[int]]:
    """The running totals up to the hand after which the rules first name a winner."""
    running = oracle.work_out(table, hands).running
    for upto in range(1, len(hands) + 1):
        if oracle.work_out(table, hands[:upto]).winner is not None:
            return running[: sum(hand["complete"] for hand in hands[:upto])]
    return running


def side_points(table: oracle.Table, hand: dict[str, Any], at: int) -> int:
    return oracle.cells_of(hand, table.sides)[at]["points"]


def tenths(value: float) -> str:
    return f"{value:.1f}"


def expected_record(history: History, exports: dict[str, dict[str, Any]], name: str) -> dict:
    """Every figure of `name`'s record page: by card heading, label → what it says."""
    mine = sorted(
        (
            m
            for m in history.matches
            if m.ended
            and (name, m.code) not in history.removed
            and any(name in held for held in m.seats.values())
        ),
        key=lambda m: m.ended,
    )
    cards: dict[str, dict[str, Any]] = {}
    for heading in ["In all", *{m.kind.game for m in mine}]:
        cards[heading] = {
            "matches": 0,
            "wins": 0,
            "streak": 0,
            "losing": 0,
            "best": 0,
            "series": [0, 0],
            "hands": 0,
            "points": 0,
            "best_hand": None,
            "win": None,
            "comeback": None,
            "pasturas": 0,
            "rounds": 0,
        }
    for m in mine:
        export = exports[m.code]
        table = m.kind.table
        at = next(s for s, held in m.seats.items() if name in held)
        won = m.winner == at
        # A match as the record names it: the sides it was against, and the day it ended.
        ended = datetime.fromisoformat(export["ended_at"])
        against = ", ".join(side["name"] for side in export["sides"] if side["position"] != at)
        named = f"against {against}, {ended:%b} {ended.day}, {ended.year}"
        for card in (cards["In all"], cards[m.kind.game]):
            card["matches"] += 1
            card["wins"] += won
            card["streak"] = card["streak"] + 1 if won else 0
            card["losing"] = 0 if won else card["losing"] + 1
            card["best"] = max(card["best"], card["streak"])
        card = cards[m.kind.game]
        s = sign(table)
        for hand in export["hands"]:
            if not hand["complete"]:
                continue
            points = side_points(table, hand, at)
            card["hands"] += 1
            card["points"] += points
            # Other's tables played both ways: those played for the highest rank first.
            ranked = (s > 0, s * points)
            if card["best_hand"] is None or ranked > card["best_hand"][3]:
                card["best_hand"] = (points, hand["number"], named, ranked)
            cell = oracle.cells_of(hand, table.sides)[at]
            card["pasturas"] += (cell.get("counts") or {}).get("pasturas", 0)
            others = [side_points(table, hand, o) for o in range(table.sides) if o != at]
            card["rounds"] += points > max(others)
        if won:
            running = deciding(table, export["hands"])

            def behind(totals: list[int], at: int = at, s: int = s) -> int:
                return max(s * t for o, t in enumerate(totals) if o != at) - s * totals[at]

            margin = -behind(running[-1])
            if margin > 0 and (card["win"] is None or margin > card["win"][0]):
                shown = [running[-1][at], *(t for o, t in enumerate(running[-1]) if o != at)]
                card["win"] = (margin, "–".join(map(str, shown)), named)
            deficit = max(behind(totals) for totals in running)
            if deficit > 0 and (card["comeback"] is None or deficit > card["comeback"][0]):
                card["comeback"] = (deficit, named)
    for game, won in series_of(history, exports, name, mine):
        for card in (cards["In all"], cards[game]):
            card["series"][0] += won
            card["series"][1] += 1
    return cards


def chain_to(history: History, match: Played) -> list[Played]:
    """The match and those before it in its series, oldest first, from the exports' links."""
    by_rematch = {m_code: m for m in history.matches if (m_code := m.rematch) is not None}
    chain = [match]
    while chain[0].code in by_rematch:
        chain.insert(0, by_rematch[chain[0].code])
    return chain


def judged(chain: list[Played], sides: int) -> list[int]:
    """Each side's wins in the series up to its last match, by who played: a match won goes
    to the sides now holding a phone of its winners, else to its place if nobody holds it."""
    last = chain[-1]
    wins = [0] * sides
    for m in chain:
        if not m.ended or m.winner is None:
            continue
        winners = set(m.seats[m.winner])
        sharing = [s for s in range(sides) if winners & set(last.seats[s])]
        for s in sharing or ([m.winner] if not last.seats[m.winner] else []):
            wins[s] += 1
    return wins


def series_of(
    history: History, exports: dict, name: str, mine: list[Played]
) -> list[tuple[str, bool]]:
    """The series `name` played (two of its matches or more), judged where it played last."""
    counted = {m.code for m in mine}
    found = []
    for m in mine:
        if m.rematch in counted:
            continue
        chain = [c for c in chain_to(history, m) if (name, c.code) not in history.removed]
        played = [c for c in chain if c.ended and any(name in h for h in c.seats.values())]
        if len(played) >= 2:
            wins = judged(chain, m.kind.sides)
            at = next(s for s, held in m.seats.items() if name in held)
            found.append((m.kind.game, wins[at] == max(wins) and wins.count(max(wins)) == 1))
    return found


def series_line(match: Played, chain: list[Played]) -> str:
    wins = judged(chain, match.kind.sides)
    top = max(wins)
    order = sorted(range(len(wins)), key=lambda s: (wins[s] != top, -wins[s]))
    score = "–".join(str(wins[s]) for s in order)
    if wins.count(top) == 1:
        return f"Series: Side {wins.index(top)} ahead, {score}"
    return f"Series: level, {score}"


GAME_NAMES = {
    "basra": "Basra",
    "pastura": "Pastura",
    "other": "Other game",
    "brisca": "Brisca",
    "brasta": "Brasta",
    "escoba": "Escoba",
    "scopa": "Scopa",
    "tarneeb": "Tarneeb",
}


def compare(history: History) -> None:
    exports = {m.code: history.export(m) for m in history.matches}
    for m in history.matches:
        export = exports[m.code]
        m.rematch = export["rematch"]
        # Who won, worked out here from the hands as the sheet shows them: the first side
        # the game's rule names (tests/oracle.py), never the app's word for it.
        m.winner = oracle.work_out(m.kind.table, export["hands"]).winner if m.ended else None
    for m in history.matches:
        chain = chain_to(history, m)
        lines = re.findall(r"Series: [^<]+", history.phones[m.host].get(f"/m/{m.code}").shown)
        if len(chain) >= 2 or m.rematch is not None:
            assert lines == [series_line(m, chain)], (m.code, lines)
        else:
            assert lines == [], (m.code, lines)
    for name in NAMES:
        page = history.phones[name].get("/history/record").shown
        cards = expected_record(history, exports, name)
        if cards["In all"]["matches"] == 0:
            assert "No ended matches to count yet." in page
            continue
        for heading, card in cards.items():
            shown = figures(page, GAME_NAMES.get(heading, heading))
            want = {
                "Matches": str(card["matches"]),
                "Wins": str(card["wins"]),
                "Win share": f"{round(100 * card['wins'] / card['matches'])}%",
                "Current streak": f"{card['losing']} loss" + ("" if card["losing"] == 1 else "es")
                if card["losing"]
                else f"{card['streak']} win" + ("" if card["streak"] == 1 else "s"),
                "Best streak": f"{card['best']} win" + ("" if card["best"] == 1 else "s"),
                "Series won": f"{card['series'][0]} of {card['series'][1]}"
                if card["series"][1]
                else "–",
            }
            if heading != "In all":
                if card["hands"]:
                    want["Average points per hand"] = tenths(card["points"] / card["hands"])
                if card["best_hand"]:
                    points, number, named, _ranked = card["best_hand"]
                    noun = "round" if heading == "brisca" else "hand"
                    want["Best hand"] = f"{points}, {noun} {number} {named}"
                if card["win"]:
                    want["Biggest win"] = f"{card['win'][1]} {card['win'][2]}"
                if card["comeback"]:
                    want["Biggest comeback"] = (
                        f"won from {card['comeback'][0]} behind {card['comeback'][1]}"
                    )
                if heading == "pastura":
                    want["Pasturas"] = str(card["pasturas"])
                if heading == "brisca":
                    want["Rounds won"] = str(card["rounds"])
            got = {
                label: value
                for label, value in shown.items()
                if label in want
                or label
                in ("Best hand", "Biggest win", "Biggest comeback", "Average points per hand")
            }
            assert got == want, (name, heading)


@settings(
    max_examples=examples(6),
    # A failing history is read from its draws: shrinking one took minutes.
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    deadline=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.function_scoped_fixture,
        HealthCheck.data_too_large,
    ],
)
@given(data=st.data())
def test_the_record_and_the_series_say_what_the_sheets_show(
    app: Flask, data: st.DataObject
) -> None:
    _emptied(app)
    fresh_memory(app)
    history = History(app, data.draw)
    history.run()
    compare(history)
