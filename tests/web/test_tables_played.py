"""Whole matches played at random tables, as players bring them, checked after every step
against what the sheet shows.

A Hypothesis state machine seats a table (a game, its format, target and table rules; one
phone keeping the sheet, or a phone per side and partners and a watcher), then plays: sides
enter plain totals or calculator counts (dealt from a real shuffled pack, or typed at random
so they contradict), from their own phone or a wrong one, for the open hand or another, with
the revision their form saw or a stale one; the host fills and corrects cells and whole
hands; posts are sent twice; End match is pressed when offered and when not; a match ended is
followed by its rematch. Every post says whether the rules take it or refuse it, and both are
held: a refusal changes nothing, a post the rules allow is taken. After every step the sheet a
phone is shown (its JSON export and its page) is held against tests/oracle.py, a few plain
lines per rule written from docs/rules/, never the app's own code.
"""

from __future__ import annotations

import json
import random
import re
import uuid
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from scorekeeper.extensions import db
from scorekeeper.models import Entry, Hand, Match, Side
from tests import oracle, oracle_forty, oracle_tarneeb
from tests.conftest import _emptied, fresh_memory
from tests.examples import examples
from tests.oracle import ALONE, NO, TIED, Table, calculated
from tests.phones import Phone, seat_of, snapshot, stored_match, totals

# The New match form's choices, as docs/rules/*.md, "Table", lists them: format -> (sides,
# players a side).
FORMATS: dict[str, dict[str, tuple[int, int]]] = {
    "basra": {"2": (2, 1), "2v2": (2, 2), "3": (3, 1)},
    "pastura": {"2": (2, 1), "3": (3, 1), "2v2": (2, 2)},
    "brisca": {"2": (2, 1), "3": (3, 1), "2v2": (2, 2), "3v3": (2, 3)},
    "brasta": {"2": (2, 1)},
    "other": {"free": (0, 1)},
    "escoba": {"2": (2, 1), "3": (3, 1), "2v2": (2, 2)},
    "scopa": {"2": (2, 1), "3": (3, 1), "2v2": (2, 2)},
    "tarneeb": {"2v2": (2, 2)},
}
# Targets: the form's own (Brisca's few rounds, so matches end within a run's steps).
TARGETS = {
    "basra": [101, 121],
    "pastura": [51, 101],
    "brisca": [1, 2, 3],
    "brasta": [201, 401, 601],
    # Escoba takes any target: the form's 21 and 15, and short ones a run's steps finish.
    "escoba": [6, 9, 15, 21],
    "scopa": [11, 16],
    "tarneeb": [31, 41],
}
# The table rules a game's New match offers, each choice as likely (docs/rules/*.md, "Table
# rules"; Basra's and Brisca's are drawn in new_match as they always were).
RULES = {
    "escoba": {
        "setenta": ["sevens", "cascade", "primera"],
        "bonus": ["off", "on"],
        "opening_escoba": ["dealer", "mano"],
        "count_to_target": ["off", "escobas_cards", "escobas_oros"],
    },
    "scopa": {
        "pictures": ["ten", "southern"],
        "napola": ["off", "run", "to_six"],
        "napoleone": ["off", "on"],
        "re_bello": ["off", "on"],
        "cappotto": ["off", "on"],
        "count_to_target": ["off", "parlett"],
    },
    "tarneeb": {"doubling": ["off", "on"], "defenders": ["on_fail", "always"]},
}
# The calculator's fields that don't start at 0: Tarneeb's bid, 7 to 13.
LEAST = {"bid": 7}
NAMES = ["Ana", "Ben", "Cleo", "Dov", "Eli", "Fay", "Gus", "Hana"]


class Named(Phone):
    """A phone the failing example names as the table would ("a phone on Ben")."""

    def __init__(self, app: Flask, name: str) -> None:
        super().__init__(app)
        self.name = name

    def __repr__(self) -> str:
        return self.name


def fields_of(table: Table) -> dict[str, tuple[str, int]]:
    """The calculator's inputs for a table: key -> (kind, most). docs/rules/*.md, "Calculator"."""
    if table.game == "brisca":
        return {key: ("count", 4) for key in oracle.BRISCA_VALUES}
    if table.game == "brasta":
        return {
            "cards": ("count", 52),
            "aces": ("count", 4),
            "two_clubs": ("flag", 1),
            "ten_diamonds": ("flag", 1),
            "clubs": ("count", 13),
            "brastas": ("count", 24),
            "double_brastas": ("count", 2),
            "last_hand": ("flag", 1),
            "failed_builds": ("count", 24),
            "jack_burns": ("count", 4),
        }
    if table.game == "other":
        return {}
    if table.game in oracle.FORTY:
        return oracle_forty.fields(table)
    if table.game == "tarneeb":
        found = {"bidders": ("choice", 1), "bid": ("count", 13), "tricks": ("count", 13)}
        if table.rule("doubling", "off") == "on":
            found["doubled"] = ("choice", 2)
        return found
    found = {"cards": ("count", 52)}
    if table.sides >= 3:
        found["most_cards"] = ("choice", TIED)
    found |= {
        "aces": ("count", 4),
        "jacks": ("count", 4),
        "two_clubs": ("flag", 1),
        "ten_diamonds": ("flag", 1),
    }
    if table.game == "pastura":
        return found | {"pasturas": ("count", 26)}
    if table.rule("basra_value", "flat") == "by_card":
        found |= {key: ("count", 8 if key == "basra_picture" else 4) for key in oracle.BASRA_CARDS}
    else:
        found["basras"] = ("count", 48 // table.sides)
    if table.rule("double_basra", "off") == "on":
        found["double_basras"] = ("count", 2)
    return found


def tick_field(tick: str, at: str = "") -> str:
    """The entry forms' field for a tick (tests/oracle.py's TICKS); `at` "_0"… for a side's
    line of the host's whole-hand forms."""
    return f"{tick}{at}"


def posted_counts(table: Table, counts: dict[str, int]) -> dict[str, str]:
    """Counts as the calculator's form posts them (a flag ticked is "y", unticked absent)."""
    form: dict[str, str] = {}
    for key, (kind, _most) in fields_of(table).items():
        value = counts.get(key, 0)
        if kind == "flag":
            if value:
                form[f"n_{key}"] = "y"
        else:
            form[f"n_{key}"] = str(value)
    return form


# A hand dealt from a real pack: what each side's pile holds, so entries that agree exist.
# Dealt at random, most hands would never reach the rules' rarer lines (a second tie in a row,
# 13 clubs, a double basra, an early victory): so hands are dealt leaning toward them, each
# shape this often (docs/testing.md, "Whole matches played at random").
TIES_DEALT = 0.5
# A tie after a tie: Basra's second tie in a row is where stacking and lapsing part.
TIES_AFTER_A_TIE = 0.8
# One side takes every scoring card (Basra and Pastura: aces, jacks, 2♣, 10♦; Brasta: every
# club, or every ace, each as often as the others' one sweep).
SWEEPS_DEALT = {"basra": 0.2, "pastura": 0.2, "brasta": 0.4}
# Escoba and Scopa: one side takes every coin, every seven or nearly the whole pack (the bonus
# points, Napoleone, Napola's long runs, a cappotto), each this often.
FORTY_SWEEPS = {"coins": 0.1, "sevens": 0.1, "pack": 0.1}
# A cappotto (7 to nothing) is only won while the other sides have nothing: a match's first
# hand is swept whole this often.
FIRST_HAND_SWEPT = 0.4
# Escoba and Scopa: a hand entered plainly that leaves every side level (each its own points
# and what it was behind the leader by), so level totals past the target, which play on, come.
LEVELS_DEALT = 0.25
# A side with two jacks makes a double basra (where the table plays them).
DOUBLES_DEALT = 0.8


def scoring(game: str, sweep: str, card: tuple[int, str]) -> bool:
    """Whether a card is one a sweep puts in one pile."""
    rank, suit = card
    if sweep == "clubs":
        return suit == "C"
    if sweep == "aces":
        return rank == 1
    return rank in (1, 11) or card in ((2, "C"), (10, "D"))


def deal(
    rnd: random.Random, table: Table, after_a_tie: bool = False, first: bool = False
) -> dict[str, Any]:
    """One hand's piles: each side's counts (and Brisca's card points), ties and sweeps
    often; `first`: a match's first hand."""
    n = table.sides
    tie = rnd.random() < (TIES_AFTER_A_TIE if after_a_tie else TIES_DEALT)
    if table.game == "other":
        # Nothing to deal: a side's total is any number.
        return {"counts": None, "points": None, "black": None, "tie": tie}
    if table.game in oracle.FORTY:
        sweep = ""
        if first and rnd.random() < FIRST_HAND_SWEPT:
            sweep = "pack"
        else:
            at = rnd.random()
            for shape, often in FORTY_SWEEPS.items():
                if at < often:
                    sweep = shape
                    break
                at -= often
        asked = fields_of(table)
        forty = oracle_forty.deal(rnd, table, sweep)
        counts = [{k: v for k, v in pile.items() if k in asked} for pile in forty]
        level = rnd.randint(0, 6) if rnd.random() < LEVELS_DEALT else None
        return {"counts": counts, "points": None, "black": None, "tie": False, "level": level}
    if table.game == "tarneeb":
        counts = oracle_tarneeb.deal(rnd, table)
        return {"counts": counts, "points": None, "black": None, "tie": False}
    if table.game == "brisca":
        values = [v for v in oracle.BRISCA_VALUES.values() for _ in range(4)] + [0] * 20
        keys = [k for k in oracle.BRISCA_VALUES for _ in range(4)] + [""] * 20
        owner = [rnd.randrange(n) for _ in values]
        counts = [
            {
                k: sum(1 for i, key in enumerate(keys) if key == k and owner[i] == s)
                for k in oracle.BRISCA_VALUES
            }
            for s in range(n)
        ]
        points = [calculated(table, c) for c in counts]
        black = (
            rnd.randrange(n)
            if table.rule("black_hand", "off") == "on" and rnd.random() < 0.2
            else None
        )
        if tie:
            top = 60 if n == 2 else rnd.randint(41, 59)
            points = [top, top] if n == 2 else [top, top, 120 - 2 * top]
            rnd.shuffle(points)
            # Counts that make a tie are not dealt here: a tied round is entered plainly.
            return {"counts": None, "points": points, "black": black, "tie": tie}
        return {"counts": counts, "points": points, "black": black, "tie": False}
    pack = [(rank, suit) for rank in range(1, 14) for suit in "SHDC"]
    rnd.shuffle(pack)
    sweep = None
    if rnd.random() < SWEEPS_DEALT[table.game]:
        sweep = rnd.choice(["clubs", "aces"]) if table.game == "brasta" else "scoring"
    swept = [card for card in pack if sweep and scoring(table.game, sweep, card)]
    taker = rnd.randrange(n)
    if tie and n == 2:
        sizes = [26, 26]
    elif tie:
        most = rnd.randint(18, 25)
        sizes = [most, most, 52 - 2 * most]
        rnd.shuffle(sizes)
    else:
        cuts = sorted(rnd.randint(0, 52) for _ in range(n - 1))
        sizes = [b - a for a, b in zip([0, *cuts], [*cuts, 52], strict=True)]
    if swept and sizes[taker] < len(swept):
        # The sweeping side holds at least what it sweeps: it takes the biggest pile.
        big = sizes.index(max(sizes))
        sizes[taker], sizes[big] = sizes[big], sizes[taker]
    # The swept cards first into the taker's pile, the rest as they were shuffled.
    rest = [card for card in pack if card not in swept]
    piles = []
    for side, size in enumerate(sizes):
        own = swept if side == taker else []
        piles.append(own + rest[: size - len(own)])
        rest = rest[size - len(own) :]
    counts = []
    last_hand = rnd.randrange(n)
    for side, pile in enumerate(piles):
        c = {
            "cards": len(pile),
            "aces": sum(rank == 1 for rank, _ in pile),
            "jacks": sum(rank == 11 for rank, _ in pile),
            "two_clubs": int((2, "C") in pile),
            "ten_diamonds": int((10, "D") in pile),
        }
        room = len(pile) // 2
        if table.game == "brasta":
            c["clubs"] = sum(suit == "C" for _, suit in pile)
            c["double_brastas"] = rnd.randint(0, min(1, room))
            c["brastas"] = rnd.randint(0, min(3, room - c["double_brastas"]))
            c["last_hand"] = int(side == last_hand)
            c["failed_builds"] = rnd.randint(0, 2)
            c["jack_burns"] = rnd.randint(0, 1)
        elif table.game == "pastura":
            c["pasturas"] = rnd.randint(0, min(4, room))
        else:
            doubles = 0
            if table.rule("double_basra", "off") == "on":
                most = min(2, c["jacks"] // 2, room)
                doubles = rnd.randint(1, most) if most and rnd.random() < DOUBLES_DEALT else 0
                c["double_basras"] = doubles
            made = rnd.randint(0, min(3, room - doubles, 48 // n - doubles))
            if table.rule("basra_value", "flat") == "by_card":
                for _ in range(made):
                    key = rnd.choice(list(oracle.BASRA_CARDS))
                    c[key] = c.get(key, 0) + 1
            else:
                c["basras"] = made
        counts.append(c)
    if n >= 3:
        top = max(sizes)
        holders = [s for s in range(n) if sizes[s] == top]
        for s in range(n):
            counts[s]["most_cards"] = (ALONE if len(holders) == 1 else TIED) if s in holders else NO
    return {"counts": counts, "points": None, "black": None, "tie": tie}


def random_counts(draw: Any, table: Table) -> dict[str, int]:
    """Counts typed at random within each field's bounds: they may contradict anything."""
    return {
        key: draw(st.integers(LEAST.get(key, 0), most), label=f"count {key}")
        for key, (_kind, most) in fields_of(table).items()
    }


def random_points(draw: Any, table: Table) -> int:
    """A plain total typed at random, within what the game takes."""
    low, high = {
        "brisca": (0, 120),
        "brasta": (-60, 150),
        "other": (-40, 120),
        # A hand's few points: totals level, a 7 to nothing, two sides past the target.
        "escoba": (0, 10),
        "scopa": (0, 10),
        # Within a Tarneeb hand's reach, most no hand gives or none beside the other team's.
        "tarneeb": (-20, 26),
    }.get(table.game, (0, 120))
    return draw(st.integers(low, high), label="points")


class TablesPlayed(RuleBasedStateMachine):
    """One table of a game, from New match to End match, with its phones."""

    def __init__(self, app: Flask, game: str) -> None:
        super().__init__()
        self.app = app
        self.game = game
        # Each example starts as a new run's database and worker would.
        _emptied(app)
        fresh_memory(app)
        self.code = ""
        self.host: Phone = Named(app, "the host's phone")
        self.holders: dict[int, list[Phone]] = {}
        # Phones at the table holding no side: watchers, and phones whose side was released.
        self.watchers: list[Phone] = []
        self.table = Table("other", 2, 1)
        self.deals: dict[int, dict[str, Any]] = {}
        # The last post: phone, address, values, key (a double tap sends it again).
        self.last: tuple[Phone, str, dict[str, Any], str] | None = None
        self.rnd = random.Random(0)
        # The export as last read, forgotten at every post.
        self.shown: dict[str, Any] | None = None

    # Seating the table.

    @initialize(data=st.data())
    def new_match(self, data: st.DataObject) -> None:
        """The host fills New match; other phones join and claim sides, or none do."""
        draw = data.draw
        game = self.game
        table_format = draw(st.sampled_from(sorted(FORMATS[game])), label="format")
        sides, per_side = FORMATS[game][table_format]
        fields: dict[str, Any] = {"table_format": table_format}
        rules: dict[str, str] = {}
        if game == "other":
            sides = draw(st.integers(2, 8), label="sides")
            rules["winner"] = draw(st.sampled_from(["highest", "lowest", "hands"]), label="wins")
            if rules["winner"] == "hands":
                target = draw(st.integers(1, 5), label="target")
            else:
                target = draw(st.integers(20, 200), label="target")
        else:
            target = draw(st.sampled_from(TARGETS[game]), label="target")
        if game == "basra":
            rules["carry_over"] = draw(st.sampled_from(["stack", "lapse"]), label="carry over")
            if sides == 3:
                rules["three_tie"] = draw(st.sampled_from(["held", "nobody"]), label="3 tie")
            rules["double_basra"] = draw(st.sampled_from(["off", "on"]), label="double basra")
            rules["basra_value"] = draw(st.sampled_from(["flat", "by_card"]), label="basra value")
        if game == "brisca":
            rules["black_hand"] = draw(st.sampled_from(["off", "on"]), label="black hand")
        for key, choices in RULES.get(game, {}).items():
            rules[key] = draw(st.sampled_from(choices), label=key)
        host_side = draw(st.sampled_from([-1, *range(sides)]), label="host side")
        fields |= {f"rule_{key}": value for key, value in rules.items()}
        fields |= {f"side_{i}": NAMES[i] for i in range(sides)}
        self.code = self.host.create(game, target=str(target), host_side=str(host_side), **fields)
        self.table = Table(game, sides, target, rules)
        self.holders = {side: [] for side in range(sides)}
        if host_side >= 0:
            self.holders[host_side].append(self.host)
        self.rnd = random.Random(draw(st.integers(0, 2**32), label="shuffle"))
        if draw(st.booleans(), label="one phone"):
            return
        for side in range(sides):
            room = per_side - len(self.holders[side])
            for _ in range(draw(st.integers(0, room), label=f"phones on {NAMES[side]}")):
                phone = Named(self.app, f"a phone on {NAMES[side]}")
                page = phone.join(self.code, side)
                assert page.status_code == 200, page.shown[:300]
                self.holders[side].append(phone)
        if draw(st.booleans(), label="a watcher"):
            watcher = Named(self.app, "a watcher")
            assert watcher.join(self.code, None).status_code == 200
            self.watchers.append(watcher)

    # What the sheet shows now, and what the machine needs to play on.

    def export(self) -> dict[str, Any]:
        """The match as the host's phone downloads it: what the sheet shows (as read after
        the last step: nothing has been posted since)."""
        if self.shown is None:
            response = self.host.get(f"/m/{self.code}/match.json")
            assert response.status_code == 200
            self.shown = json.loads(response.get_data(as_text=True))
        return self.shown

    def worked(self, export: dict[str, Any] | None = None) -> oracle.Worked:
        """The sheet worked out by the oracle."""
        export = export or self.export()
        return oracle.work_out(self.table, export["hands"])

    def revisions(self) -> dict[tuple[int, int], int]:
        """Each stored cell's revision, by (hand, side): what a form drawn now would carry."""
        with self.app.app_context():
            rows = db.session.execute(
                sa.select(Hand.number, Side.position, Entry.revision)
                .join(Entry, Entry.hand_id == Hand.id)
                .join(Side, Side.id == Entry.side_id)
                .join(Match, Match.id == Hand.match_id)
                .where(Match.code == self.code)
            ).all()
        return {(number, position): revision for number, position, revision in rows}

    def phones(self) -> list[Phone]:
        """Every phone at the table."""
        found = [self.host] + [p for ps in self.holders.values() for p in ps if p is not self.host]
        return found + [p for p in self.watchers if p not in found]

    def fills_some_side(self) -> bool:
        """Whether the host has a side to fill, one no phone holds: the sheet draws the host
        its one form for the open hand only then (docs/at-the-table.md, "One phone keeps the
        whole sheet")."""
        return any(not phones for phones in self.holders.values())

    def side_of(self, phone: Phone) -> int | None:
        """The side a phone holds."""
        return next((s for s, ps in self.holders.items() if phone in ps), None)

    def dealt(self, number: int) -> dict[str, Any]:
        """The piles of hand `number`, dealt the first time it is asked for."""
        if number not in self.deals:
            before = self.deals.get(number - 1)
            tie = bool(before and before["tie"])
            self.deals[number] = deal(self.rnd, self.table, tie, first=number == 1)
        return self.deals[number]

    def post(
        self,
        phone: Phone,
        url: str,
        data: dict[str, Any],
        *,
        refused: bool,
        key: str | None = None,
    ) -> tuple[int, bool]:
        """Post a form as a phone does; never a 500, and a refusal changes nothing. `refused`:
        True, it must be refused; False, it must be taken (every post says which, as the
        rules do). The status, and whether anything stored changed."""
        key = key or uuid.uuid4().hex
        self.shown = None
        before = snapshot(self.app)
        response = phone.post(url, data, key=key)
        status = response.status_code
        self.last = (phone, url, data, key)
        assert status < 500, f"{status} from {url} {data}: {response.shown[:500]}"
        changed = snapshot(self.app) != before
        if status >= 400:
            assert not changed, f"refused ({status}) {url} {data}, yet stored rows changed"
        if refused is True:
            assert status >= 400, f"{url} {data} should have been refused: {flashed(response)}"
        if refused is False:
            assert status < 400, f"{url} {data} should have been taken: {refusal(response)}"
        return status, changed

    def values(
        self, data: st.DataObject, number: int, side: int, calc: bool, odds: int = 1
    ) -> dict[str, Any]:
        """What a side types for a hand: the dealt pile's counts or total (agreeing with the
        other sides), or anything at all (contradicting them): one time in `odds` + 1."""
        draw = data.draw
        dealt = self.dealt(number)
        agree = draw(st.integers(0, odds), label="agrees with the pack") > 0
        ticks: dict[str, str] = {}
        if calc:
            if agree and dealt["counts"] is not None:
                counts = dealt["counts"][side]
            else:
                counts = random_counts(draw, self.table)
            form = posted_counts(self.table, counts)
            if self.table.rule("black_hand", "off") == "on":
                black = dealt["black"] == side if agree else draw(st.booleans(), label="black")
                if black:
                    form[tick_field("black_hand")] = "y"
            return form
        if self.table.game == "brisca" and agree:
            points = dealt["points"] or [calculated(self.table, c) for c in dealt["counts"]]
            total = points[side]
        elif agree and dealt.get("level") is not None:
            totals = self.worked().totals
            total = dealt["level"] + max(totals) - totals[side]
        elif agree and dealt["counts"] is not None:
            held = self.worked().held
            into = held[number - 1] if number - 1 < len(held) else held[-1]
            total = calculated(self.table, dealt["counts"][side], into)
        else:
            total = random_points(draw, self.table)
        if self.table.game == "basra":
            if agree and dealt["counts"] is not None:
                tick = oracle.says_tie(self.table, oracle.cell(side, None, dealt["counts"][side]))
            else:
                tick = draw(st.booleans(), label="even split")
            if tick:
                ticks[tick_field("even_split")] = "y"
        if self.table.rule("black_hand", "off") == "on":
            black = dealt["black"] == side if agree else draw(st.booleans(), label="black")
            if black:
                ticks[tick_field("black_hand")] = "y"
        return {"points": total, **ticks}

    # The table's moves.

    @rule(data=st.data())
    def side_enters(self, data: st.DataObject) -> None:
        """A side's phone enters its total (plainly or by calculator) for a hand."""
        draw = data.draw
        held = [s for s, ps in self.holders.items() if ps]
        if not held:
            return
        side = draw(st.sampled_from(held), label="side")
        phone = draw(st.sampled_from(self.holders[side]), label="phone")
        export = self.export()
        worked = self.worked(export)
        open_hand = worked.open_hand
        aimed = open_hand or len(export["hands"]) + 1
        number = draw(st.sampled_from([aimed, aimed, aimed, aimed - 1, aimed + 1]), label="hand")
        if number < 1:
            return
        calc = bool(fields_of(self.table)) and draw(st.booleans(), label="calculator")
        stored = self.revisions().get((number, side), 0)
        seen = draw(st.sampled_from(["form", "form", "none", "stale"]), label="revision")
        form = self.values(data, number, side, calc)
        form["hand"] = number
        if seen != "none":
            form["revision"] = (
                stored
                if seen == "form"
                else stored
                + draw(st.sampled_from([-1, 1]) if stored else st.just(1), label="stale by")
            )
        must_refuse = (
            export["status"] != "open"
            or open_hand is None
            or number != open_hand
            or (seen == "stale")
            # An entry that contradicts another side's is refused at once.
            or self.contradicts(number, {side: self.typed(form, calc)})
        )
        if calc:
            url = f"/m/{self.code}/calc"
            form["intent"] = "enter"
        else:
            url = f"/m/{self.code}/enter"
            form["side"] = side
        status, changed = self.post(phone, url, form, refused=must_refuse)
        if status < 400 and changed:
            self.check_stored(number, side, form, calc)

    def typed(self, form: dict[str, Any], calc: bool, at: str = "") -> dict[str, Any]:
        """The cell a form (or one side's part of the whole-hand form, `at` "_0"…) asks for,
        as the export shows cells (a calculator cell's points left to the oracle)."""
        ticks = [tick for tick in oracle.TICKS if tick_field(tick, at) in form]
        if not calc:
            return oracle.cell(-1, int(form[f"points{at}"]), None, ticks)
        counts = {
            key: int(form.get(f"n_{key}") == "y")
            if kind == "flag"
            else int(form.get(f"n_{key}", 0))
            for key, (kind, _most) in fields_of(self.table).items()
        }
        return oracle.cell(-1, None, counts, ticks)

    def contradicts(self, number: int, cells: dict[int, dict[str, Any]]) -> bool:
        """Whether these cells, put into hand `number` beside what the others entered, are
        refused by the rules: counts no one pile can hold, or a hand that would say what no
        sheet may keep (the sheet never keeps one: `sheet_holds`)."""
        if any(
            cell["counts"] is not None and oracle.pile_problems(self.table, cell["counts"])
            for cell in cells.values()
        ):
            return True
        hands = self.export()["hands"]
        before = hands[number - 1]["cells"] if number <= len(hands) else []
        after = [cell for cell in before if cell["side"] not in cells]
        after += [{**cell, "side": side} for side, cell in cells.items()]
        return bool(oracle.contradictions(self.table, {"cells": after}))

    def check_stored(
        self, number: int, side: int, form: dict[str, Any], calc: bool, at: str = ""
    ) -> None:
        """A cell taken holds what was typed."""
        export = self.export()
        cell = oracle.cells_of(export["hands"][number - 1], self.table.sides)[side]
        assert cell is not None, f"hand {number} side {side} taken but not shown"
        typed = self.typed(form, calc, at)
        if calc:
            assert cell["counts"] == typed["counts"], (cell["counts"], typed)
        else:
            # A whole-hand form's cell left as it was (its points and ticks) keeps its counts.
            kept = at != "" and cell["counts"] is not None
            assert kept or cell["counts"] is None, (cell, typed)
            assert cell["points"] == typed["points"], (cell, typed)
            assert oracle.ticked(cell, "even_split") == oracle.ticked(typed, "even_split")
        assert oracle.ticked(cell, "black_hand") == oracle.ticked(typed, "black_hand")

    @rule(data=st.data())
    def table_plays_the_open_hand(self, data: st.DataObject) -> None:
        """Every side yet to enter the open hand enters it (play_open_hand)."""
        self.play_open_hand(data)

    @rule(data=st.data())
    def table_plays_on(self, data: st.DataObject) -> None:
        """The table plays a few hands in a row, as a real one does between two looks at the
        sheet: the held-over majorities, second ties in a row and rounds won that a match
        reaches only after several hands."""
        for _ in range(data.draw(st.integers(2, 6), label="hands in a row")):
            self.play_open_hand(data)

    def play_open_hand(self, data: st.DataObject) -> None:
        """Every side yet to enter the open hand enters it, mostly as the pack was dealt: a
        side with a phone from its phone, a side without one filled in by the host; a round
        tied at the top is told who took the last trick. A match won is ended from a phone
        at the table, and an ended one followed by its rematch, as a table plays on."""
        draw = data.draw
        export = self.export()
        worked = self.worked(export)
        if export["status"] == "ended":
            self.rematch()
            return
        if export["status"] != "open":
            return
        if worked.winner is not None:
            seated = [phone for phones in self.holders.values() for phone in phones]
            ender = draw(st.sampled_from([self.host, *seated]), label="ends the match")
            self.post(ender, f"/m/{self.code}/end", {}, refused=False)
            return
        if worked.waiting is not None:
            waited = oracle.cells_of(export["hands"][worked.waiting - 1], self.table.sides)
            points = [cell["points"] for cell in waited if cell is not None]
            tied = [s for s, got in enumerate(points) if got == max(points)]
            taker = draw(st.sampled_from(tied), label="took the last trick")
            told = {"target": taker, "hand": worked.waiting}
            self.post(self.host, f"/m/{self.code}/settle", told, refused=False)
            return
        number = worked.open_hand
        if number is None:
            return
        hand = export["hands"][number - 1]["cells"] if number <= len(export["hands"]) else []
        entered = {cell["side"] for cell in hand}
        # The calculator two hands in three: its counts are where the scoring lines are.
        calc = bool(fields_of(self.table)) and draw(st.integers(0, 2), label="calculator") > 0
        own = self.side_of(self.host)
        # The host's part: its own side and every side no phone holds, from its one form.
        keeps = [
            s
            for s in range(self.table.sides)
            if s not in entered and (s == own or not self.holders[s])
        ]
        if keeps and not calc and draw(st.booleans(), label="the host's one form"):
            form, cells = self.whole_hand(data, number, keeps, odds=4)
            url = f"/m/{self.code}/hand/{number}/enter"
            refused = not self.fills_some_side() or self.contradicts(number, cells)
            status, changed = self.post(self.host, url, form, refused=refused)
            if status < 400 and changed:
                for side in keeps:
                    self.check_stored(number, side, form, False, f"_{side}")
            entered |= set(keeps)
        for side in range(self.table.sides):
            if side in entered:
                continue
            form = self.values(data, number, side, calc, odds=4)
            form["hand"] = number
            if self.holders[side]:
                phone = draw(st.sampled_from(self.holders[side]), label="phone")
                url = f"/m/{self.code}/calc" if calc else f"/m/{self.code}/enter"
                form |= {"revision": 0} | ({"intent": "enter"} if calc else {"side": side})
            else:
                phone = self.host
                url = f"/m/{self.code}/hand/{number}/side/{side}/" + ("calc" if calc else "correct")
                form |= {"revision": 0, "reason": ""}
                form |= {"intent": "enter"} if calc else {"side": side}
            refused = self.contradicts(number, {side: self.typed(form, calc)})
            status, changed = self.post(phone, url, form, refused=refused)
            if status < 400 and changed:
                self.check_stored(number, side, form, calc)

    def whole_hand(
        self, data: st.DataObject, number: int, offered: list[int], odds: int
    ) -> tuple[dict[str, Any], dict[int, dict[str, Any]]]:
        """The host's one form for hand `number` with a total for each side in `offered`,
        against the revisions its page saw; and the cells it asks for."""
        stored = self.revisions()
        form: dict[str, Any] = {}
        cells: dict[int, dict[str, Any]] = {}
        for side in offered:
            typed = self.values(data, number, side, calc=False, odds=odds)
            form[f"points_{side}"] = typed["points"]
            for tick in oracle.TICKS:
                if tick_field(tick) in typed:
                    form[tick_field(tick, f"_{side}")] = "y"
            form[f"revision_{side}"] = stored.get((number, side), 0)
            cells[side] = self.kept_or_typed(number, side, self.typed(form, False, f"_{side}"))
        return form, cells

    def kept_or_typed(self, number: int, side: int, typed: dict[str, Any]) -> dict[str, Any]:
        """A cell of the host's whole-hand forms as it would stand: left as it was (its points
        and ticks), it keeps what it holds, its calculator counts too; else what was typed."""
        hands = self.export()["hands"]
        if number > len(hands):
            return typed
        cell = oracle.cells_of(hands[number - 1], self.table.sides)[side]
        kept = cell is not None and all(
            cell["points"] == typed["points"]
            and oracle.ticked(cell, tick) == oracle.ticked(typed, tick)
            for tick in oracle.TICKS
        )
        return cell if cell is not None and kept else typed

    @rule(data=st.data())
    def host_enters_the_whole_hand(self, data: st.DataObject) -> None:
        """The host's one form for the open hand: a total for its own side, if it holds one,
        and for each side no phone holds, checked as each side's own entry and saved
        together; now and then for a hand not open, with a stale revision, or with a column
        a phone holds (forged: the form never offers it)."""
        draw = data.draw
        export = self.export()
        worked = self.worked(export)
        aimed = worked.open_hand or len(export["hands"]) + 1
        number = draw(st.sampled_from([aimed, aimed, aimed, aimed - 1, aimed + 1]), label="hand")
        if number < 1:
            return
        own = self.side_of(self.host)
        offered = [s for s in range(self.table.sides) if s == own or not self.holders[s]]
        held = [s for s in range(self.table.sides) if s not in offered]
        forged = bool(held) and draw(st.integers(0, 5), label="forged") == 0
        if forged:
            offered.append(draw(st.sampled_from(held), label="forged side"))
        if not offered:
            return
        stale = draw(st.integers(0, 5), label="stale") == 0
        form, cells = self.whole_hand(data, number, offered, odds=3)
        if stale:
            form[f"revision_{draw(st.sampled_from(offered), label='stale side')}"] += 1
        must_refuse = (
            export["status"] != "open"
            or worked.open_hand != number
            or not self.fills_some_side()
            or stale
            or forged
            or self.contradicts(number, cells)
        )
        url = f"/m/{self.code}/hand/{number}/enter"
        status, changed = self.post(self.host, url, form, refused=must_refuse)
        if status < 400 and changed:
            for side in offered:
                self.check_stored(number, side, form, False, f"_{side}")

    @rule(data=st.data())
    def wrong_phone_enters(self, data: st.DataObject) -> None:
        """A phone enters for a side it does not hold: refused, nothing changes."""
        draw = data.draw
        phone = draw(
            st.sampled_from([*self.phones(), Named(self.app, "a new phone")]), label="phone"
        )
        own = self.side_of(phone)
        others = [s for s in range(self.table.sides) if s != own]
        side = draw(st.sampled_from(others), label="side")
        worked = self.worked()
        number = worked.open_hand or 1
        form = {"hand": number, "side": side, "points": random_points(draw, self.table)}
        self.post(phone, f"/m/{self.code}/enter", form, refused=True)

    @rule(data=st.data())
    def host_fills_or_corrects_a_cell(self, data: st.DataObject) -> None:
        """The host fills the open hand's cell of a side (plainly or by calculator), or
        corrects any cell, against the revision its page saw or a stale one."""
        draw = data.draw
        export = self.export()
        worked = self.worked(export)
        started = len(export["hands"])
        choices = list(range(1, started + 1)) + ([worked.open_hand] if worked.open_hand else [])
        if not choices:
            return
        number = draw(st.sampled_from(choices), label="hand")
        side = draw(st.integers(0, self.table.sides - 1), label="side")
        calc = bool(fields_of(self.table)) and draw(st.booleans(), label="calculator")
        stored = self.revisions().get((number, side), 0)
        stale = draw(st.integers(0, 4), label="stale") == 0
        revision = stored + 1 if stale else stored
        form = self.values(data, number, side, calc)
        form |= {"hand": number, "revision": revision, "reason": "the table said so"}
        if self.table.game == "brisca" and not calc and draw(st.booleans(), label="last trick"):
            form[tick_field("last_trick")] = "y"
        base = f"/m/{self.code}/hand/{number}/side/{side}"
        if calc:
            url = f"{base}/calc"
            form["intent"] = "enter"
        else:
            url = f"{base}/correct"
            form["side"] = side
        # The open hand's empty cell of a side a phone holds (the host's own too) is that
        # phone's to enter: the host may not fill it.
        empty = (number, side) not in self.revisions()
        held = bool(self.holders[side])
        must_refuse = (
            export["status"] != "open"
            or stale
            or (number == worked.open_hand and empty and held)
            or self.contradicts(number, {side: self.typed(form, calc)})
        )
        status, changed = self.post(self.host, url, form, refused=must_refuse)
        if status < 400 and changed:
            self.check_stored(number, side, form, calc)

    @rule(data=st.data())
    def host_corrects_a_hand(self, data: st.DataObject) -> None:
        """The host corrects every side's cell of a started hand in one form."""
        draw = data.draw
        export = self.export()
        if not export["hands"]:
            return
        number = draw(st.integers(1, len(export["hands"])), label="hand")
        stored = self.revisions()
        stale = draw(st.integers(0, 4), label="stale") == 0
        form: dict[str, Any] = {"reason": "recounted"}
        for side in range(self.table.sides):
            typed = self.values(data, number, side, calc=False)
            form[f"points_{side}"] = typed["points"]
            for tick in oracle.TICKS:
                if tick_field(tick) in typed:
                    form[tick_field(tick, f"_{side}")] = "y"
            form[f"revision_{side}"] = stored.get((number, side), 0)
        if stale:
            side = draw(st.integers(0, self.table.sides - 1), label="stale side")
            form[f"revision_{side}"] += 1
        # A cell the form leaves as it was keeps its counts; a changed one is a plain total.
        cells = oracle.cells_of(export["hands"][number - 1], self.table.sides)
        fixed = {}
        # The open hand's empty cell of a side a phone holds (the host's own too) is that
        # side's to enter: the host may not fill it.
        fills_held = False
        for side, cell in enumerate(cells):
            fixed[side] = self.kept_or_typed(number, side, self.typed(form, False, f"_{side}"))
            if cell is None and number == self.worked(export).open_hand and self.holders[side]:
                fills_held = True
        must_refuse = (
            export["status"] != "open" or stale or fills_held or self.contradicts(number, fixed)
        )
        self.post(self.host, f"/m/{self.code}/hand/{number}/correct", form, refused=must_refuse)

    @rule(data=st.data())
    def not_the_host_corrects(self, data: st.DataObject) -> None:
        """A phone that is not the host's corrects a cell: refused, nothing changes."""
        others = [p for p in self.phones() if p is not self.host] + [Named(self.app, "a new phone")]
        phone = data.draw(st.sampled_from(others), label="phone")
        side = data.draw(st.integers(0, self.table.sides - 1), label="side")
        form = {"hand": 1, "side": side, "points": 7, "revision": 0, "reason": ""}
        self.post(phone, f"/m/{self.code}/hand/1/side/{side}/correct", form, refused=True)

    @rule(data=st.data())
    def end_match(self, data: st.DataObject) -> None:
        """A phone presses End match: taken when the rule says a side has won (from a phone
        holding a side, or the host's), refused otherwise."""
        phone = data.draw(st.sampled_from(self.phones()), label="phone")
        export = self.export()
        worked = self.worked(export)
        may = phone is self.host or self.side_of(phone) is not None
        won = export["status"] == "open" and worked.winner is not None
        self.post(phone, f"/m/{self.code}/end", {}, refused=not (won and may))

    @rule(data=st.data())
    def host_reopens_or_abandons(self, data: st.DataObject) -> None:
        """The host (or another phone, refused) reopens a match ended by mistake, or abandons
        an open one with the confirm page's second tap."""
        phone = data.draw(st.sampled_from(self.phones()), label="phone")
        status = self.export()["status"]
        if status == "open":
            if data.draw(st.integers(0, 3), label="abandon") != 0:
                return
            form = {"confirmed": "y"}
            self.post(phone, f"/m/{self.code}/abandon", form, refused=phone is not self.host)
        else:
            self.post(phone, f"/m/{self.code}/reopen", {}, refused=phone is not self.host)

    @rule(data=st.data())
    def host_releases_a_side(self, data: st.DataObject) -> None:
        """The host frees a side whose phone is gone: its phones watch from then on."""
        side = data.draw(st.integers(0, self.table.sides - 1), label="side")
        phone = data.draw(st.sampled_from(self.phones()), label="phone")
        open_ = self.export()["status"] == "open"
        may = phone is self.host and open_ and bool(self.holders[side])
        form = {"target": side, "confirmed": "y"}
        self.post(phone, f"/m/{self.code}/release", form, refused=not may)
        if may:
            self.watchers += self.holders[side]
            self.holders[side] = []

    @rule(data=st.data())
    def a_phone_takes_a_free_side(self, data: st.DataObject) -> None:
        """A watching phone, or a new one, claims a side with room on it."""
        per_side = FORMATS[self.table.game][self.export()["table_format"]][1]
        free = [s for s, ps in self.holders.items() if len(ps) < per_side]
        if not free or self.export()["status"] != "open":
            return
        side = data.draw(st.sampled_from(free), label="side")
        phone = data.draw(
            st.sampled_from([*self.watchers, Named(self.app, "a new phone")]), label="phone"
        )
        self.post(phone, f"/m/{self.code}/claim", {"target": side}, refused=False)
        self.holders[side].append(phone)
        if phone in self.watchers:
            self.watchers.remove(phone)

    @rule(data=st.data())
    def host_hands_over(self, data: st.DataObject) -> None:
        """The host hands the host role to a phone holding a side."""
        seated = [p for ps in self.holders.values() for p in ps if p is not self.host]
        if not seated:
            return
        to = data.draw(st.sampled_from(seated), label="new host")
        phone = data.draw(st.sampled_from(self.phones()), label="phone")
        may = phone is self.host and self.export()["status"] == "open"
        form = {"target": seat_of(self.app, to, self.code), "confirmed": "y"}
        self.post(phone, f"/m/{self.code}/host", form, refused=not may)
        if may:
            self.host = to

    @precondition(lambda self: self.table.game == "brisca")
    @rule(data=st.data())
    def says_who_took_the_last_trick(self, data: st.DataObject) -> None:
        """A round tied at the top: a phone says which side took the last trick."""
        export = self.export()
        worked = self.worked(export)
        if worked.waiting is None:
            return
        phone = data.draw(st.sampled_from(self.phones()), label="phone")
        side = data.draw(st.integers(0, self.table.sides - 1), label="taker")
        cells = oracle.cells_of(export["hands"][worked.waiting - 1], self.table.sides)
        points = [cell["points"] for cell in cells if cell is not None]
        tied = [s for s, got in enumerate(points) if got == max(points)]
        own = self.side_of(phone)
        may = phone is self.host or own in tied
        form = {"target": side, "hand": worked.waiting}
        self.post(
            phone,
            f"/m/{self.code}/settle",
            form,
            refused=True if not (may and side in tied) else False,
        )

    @precondition(lambda self: bool(self.code) and self.export()["status"] == "ended")
    @rule()
    def rematch(self) -> None:
        """The host starts the rematch of an ended match and opens its table; every phone
        takes its side there again, and the table plays a new sheet by the same rules (a
        match decided in a few hands leaves steps to play)."""
        self.post(self.host, f"/m/{self.code}/rematch", {}, refused=False)
        code = stored_match(self.app, self.code).rematch_code
        assert code is not None
        self.code, self.deals = code, {}
        self.post(self.host, f"/m/{code}/open", {}, refused=False)
        # The host, holding a side, has it at the rematch already.
        for side, phones in self.holders.items():
            for phone in phones:
                if phone is not self.host:
                    assert phone.post("/join", {"code": code.lower()}).status_code == 200
                    self.post(phone, f"/m/{code}/claim", {"target": side}, refused=False)
        for phone in self.watchers:
            if phone is not self.host:
                assert phone.join(code, None).status_code == 200

    @precondition(lambda self: self.last is not None)
    @rule()
    def sent_twice(self) -> None:
        """The last post sent again with its key (a double tap, a flaky connection): nothing
        more is recorded."""
        assert self.last is not None
        phone, url, form, key = self.last
        self.shown = None
        before = snapshot(self.app)
        response = phone.post(url, form, key=key)
        assert response.status_code < 500
        assert snapshot(self.app) == before, f"{url} {form} sent twice was recorded twice"

    # What the sheet must show after every step.

    @invariant()
    def sheet_holds(self) -> None:
        """Totals, hands, flags and End match as the rules say, on what the phones see."""
        if not self.code:
            return
        self.shown = None
        export = self.export()
        table, hands = self.table, export["hands"]
        worked = oracle.work_out(table, hands)
        page = self.host.get(f"/m/{self.code}")
        assert page.status_code == 200
        shown = page.shown
        # Every total is the sum of its column (Brisca: the rounds its card points won).
        assert export["totals"] == worked.totals, (export["totals"], worked.totals)
        assert totals(page.get_data(as_text=True)) == [str(t) for t in worked.totals]
        complete = [hand for hand in hands if hand["complete"]]
        assert all(hand["complete"] for hand in hands[:-1]), "a hand before the last is open"
        for hand, running in zip(complete, worked.running, strict=True):
            assert hand["totals_after"] == running, (hand["number"], hand["totals_after"])
        # The sheet's cells are the export's.
        rows = ROW.findall(page.get_data(as_text=True))
        assert [int(number) for number, _cells in rows][: len(hands)] == [
            hand["number"] for hand in hands
        ]
        for (_number, drawn), hand in zip(rows, hands, strict=False):
            cells = oracle.cells_of(hand, table.sides)
            seen = [
                None if "empty" in kind else int(CELL.match(inner).group(1))
                for kind, inner in TD.findall(drawn)
            ]
            assert seen == [None if c is None else c["points"] for c in cells], (seen, cells)
        # The host fills the open hand's empty cells of the sides no phone holds, and only
        # those: a side a phone holds enters its own.
        fills = {
            (int(n), int(s))
            for n, s in re.findall(
                r'class="fill" href="/m/\w+/hand/(\d+)/side/(\d+)/correct"', shown
            )
        }
        want: set[tuple[int, int]] = set()
        if export["status"] == "open" and worked.open_hand is not None:
            number = worked.open_hand
            cells = oracle.cells_of(hands[number - 1], table.sides) if number <= len(hands) else []
            want = {
                (number, s)
                for s in range(table.sides)
                if not self.holders[s] and (not cells or cells[s] is None)
            }
        assert fills == want, f"fill links {sorted(fills)}, should be {sorted(want)}"
        # A hand's cells agree with each other, complete or not.
        for hand in hands:
            found = oracle.contradictions(table, hand)
            assert not found, f"hand {hand['number']} keeps {'; '.join(found)}: {hand['cells']}"
        # A calculator cell counts as its counts say (Basra: with what was held over).
        for hand in hands:
            for cell in hand["cells"]:
                if cell["counts"] is not None:
                    into = worked.held[hand["number"] - 1]
                    counted = calculated(table, cell["counts"], into)
                    assert cell["points"] == counted, (hand["number"], cell, counted)
        # What doesn't add up is flagged, and only that.
        flagged = {
            int(n)
            for n in re.findall(
                r'<tr class="complete flagged"><th scope="row">(?:<a [^>]*>)?(\d+)',
                page.get_data(as_text=True),
            )
        }
        must = {hand["number"] for hand in complete if oracle.flags(table, hand)}
        assert flagged == must, f"flagged {sorted(flagged)}, should be {sorted(must)}"
        # End match is offered exactly when the game's rule names a winner.
        end = f'action="/m/{self.code}/end"'
        if export["status"] == "open" and worked.winner is not None:
            name = NAMES[worked.winner]
            assert end in shown and f"End match: {name} wins" in shown, f"{name} won, no End"
        else:
            assert end not in shown, f"End match offered, winner {worked.winner}"
        if export["status"] == "open" and worked.waiting is not None:
            assert "Who took the last trick?" in shown
        if export["status"] == "ended":
            assert export["winner"] == worked.winner
        # Basra: while a hand is open the sheet says what the next majority is worth; once a
        # side has won (or a tie waits), it says nothing of a hand nobody will play.
        if table.game == "basra" and export["status"] == "open" and worked.winner is None:
            assert f"Next majority worth {30 + worked.held[-1]}" in shown, worked.held
        elif table.game == "basra":
            assert "Next majority worth" not in shown
        for phone in self.phones()[1:]:
            other = phone.get(f"/m/{self.code}").shown
            if self.side_of(phone) is None:
                assert end not in other, "a phone holding no side is offered End match"
            else:
                assert (end in other) == (end in shown), "End match offered to one phone only"


# A row of the sheet as drawn: its number and its cells; a cell's class and what it holds.
ROW = re.compile(
    r'<tr class="(?:complete|current)[^"]*"><th scope="row">(?:<a [^>]*>)?(\d+)(?:</a>)?</th>'
    r"(.*?)</tr>",
    re.S,
)
TD = re.compile(r'<td class="([^"]*)">(.*?)</td>', re.S)
CELL = re.compile(r"<a [^>]*>(-?\d+)")


def flashed(response: Any) -> str:
    """What a page said after a post (its flash)."""
    found = re.search(r'class="flash[^"]*"[^>]*>(.*?)<', response.shown, re.S)
    return found.group(1).strip() if found else response.shown[:300]


def refusal(response: Any) -> str:
    """What a refused post's page said."""
    found = re.search(r'class="flash error"[^>]*>(.*?)</', response.shown, re.S)
    return found.group(1).strip() if found else response.shown[:600]


# How many examples (each a table playing its matches) a game draws in `make test`: about
# twice the latest first catch of each one-line change of its rules tried in five runs
# (docs/testing.md, "Whole matches played at random", with the rarer rules they miss). A test
# per game: the games' matches run side by side in a parallel run instead of one after another.
EXAMPLES = {
    "basra": 20,
    "brasta": 20,
    "brisca": 12,
    "pastura": 12,
    "other": 10,
    "escoba": 20,
    "scopa": 16,
    "tarneeb": 12,
}


@pytest.mark.parametrize("game", sorted(FORMATS))
def test_tables_played(app: Flask, game: str) -> None:
    """Random whole matches at random tables of a game keep every rule of the sheet."""
    run_state_machine_as_test(
        # A factory of machines, as Hypothesis allows (its typing asks for the class).
        lambda: TablesPlayed(app, game),  # type: ignore[arg-type]
        settings=settings(
            max_examples=examples(EXAMPLES[game]),
            stateful_step_count=30,
            deadline=None,
            # A failing match is read from its steps, as printed: shrinking one took minutes.
            phases=[Phase.explicit, Phase.reuse, Phase.generate],
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
        ),
    )
