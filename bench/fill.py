"""The benchmark's matches, written straight through the models in bulk (no HTTP, no forms)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import sqlalchemy as sa
from flask import Flask

from scorekeeper.extensions import db
from scorekeeper.matches import read_matches
from scorekeeper.models import CODE_ALPHABET, Entry, Hand, Match, Seat, Side, SideResult, utcnow
from scorekeeper.scoresheet.record import results_of
from scorekeeper.scoresheet.sheet import work_out
from scorekeeper.scoresheet.stored import read_hands

# Fixed tokens: the bench signs these phones' cookies itself, so no page has to hand them out.
MAIN_PHONE = "bench-main-phone"  # seated in every one of its 10,000 matches
FEW_PHONE = "bench-few-phone"  # a history of 10
PAGE_PHONE = "bench-page-phone"  # a history of 20: exactly one full page
MATE_PHONES = ("bench-mate-1", "bench-mate-2", "bench-mate-3")
RIVAL_PHONE = "bench-rival"
# The main phone's rival in the newest RECORD fillers, and in the RECORD_FEW after them: a
# record of 1,000 finished matches, and one of 10, for the record page's timing.
RECORD_PHONE = "bench-record-phone"
RECORD_FEW_PHONE = "bench-record-few-phone"
ENTRY_PHONES = ("bench-entry-0", "bench-entry-1", "bench-entry-2", "bench-entry-3")

SIDES = 4
HISTORY = 10_000
SHEET_MATCHES = 100
SHEET_HANDS = 30
SMALL_SHEET, LARGE_SHEET = 10, 200
FEW, PAGE = 10, 20
RECORD, RECORD_FEW = 1_000, 10
# A Basra match to 101 at 15 points a hand is won on the 7th: a typical finished match.
FILLER_HANDS = 7
# Out of reach: a match the bench reads or posts to must stay open whatever it holds.
OPEN_TARGET = 100_000


@dataclass(frozen=True)
class Plan:
    """One match to store: its game, its hands (points per side) and the phones at it."""

    code: str
    game: str
    table_format: str
    target: int
    hands: list[list[int]]
    holders: tuple[str, ...]
    created_at: datetime
    watchers: tuple[str, ...] = ()
    status: str = Match.OPEN
    # Why the winner won, as End match stores it (games.Won.stored()).
    win_reason: dict[str, Any] | None = None


@dataclass(frozen=True)
class Fixture:
    """The codes of the matches each measurement uses."""

    sheets: list[str]
    small: str
    large: str
    entry: list[str]
    mix: list[str]
    count_small: str
    count_large: str


def code(kind: str, n: int) -> str:
    """A join code from the app's alphabet: one letter for the kind of match, then n."""
    digits = ""
    for _ in range(5):
        n, digit = divmod(n, len(CODE_ALPHABET))
        digits = CODE_ALPHABET[digit] + digits
    return kind + digits


def other_hands(count: int) -> list[list[int]]:
    """Complete hands of the Other game for four sides, varied so totals differ."""
    return [[(hand * 7 + side * 13) % 41 for side in range(SIDES)] for hand in range(1, count + 1)]


def fill(app: Flask, entry_matches: int, mix_matches: int = 0) -> Fixture:
    """Store every match the benchmark reads or posts to; return their codes."""
    now = utcnow()
    mates = (MAIN_PHONE, *MATE_PHONES)

    def other(
        kind: str,
        n: int,
        hands: int,
        at: datetime,
        holders: tuple[str, ...] = mates,
        watchers: tuple[str, ...] = (),
    ) -> Plan:
        """An open Other-game match with four sides and `hands` complete hands."""
        return Plan(
            code=code(kind, n),
            game="other",
            table_format="free",
            target=OPEN_TARGET,
            hands=other_hands(hands),
            holders=holders,
            created_at=at,
            watchers=watchers,
        )

    sheets = [
        other(
            "S",
            n,
            SHEET_HANDS,
            now - timedelta(days=1) + timedelta(seconds=n),
            # The newest FEW / PAGE of them: the same matches top every phone's first page.
            watchers=tuple(
                phone
                for phone, last in ((FEW_PHONE, FEW), (PAGE_PHONE, PAGE))
                if n >= SHEET_MATCHES - last
            ),
        )
        for n in range(SHEET_MATCHES)
    ]
    # Older than the 100, so the main phone's first history page is 20 of those.
    sizes = [
        other("T", 0, SMALL_SHEET, now - timedelta(days=2)),
        other("T", 1, LARGE_SHEET, now - timedelta(days=2)),
    ]

    def rival(n: int) -> str:
        """Who plays the main phone in the n-th filler (the n-th newest)."""
        if n < RECORD:
            return RECORD_PHONE
        return RECORD_FEW_PHONE if n < RECORD + RECORD_FEW else RIVAL_PHONE

    # The rest of the main phone's history: finished Basra matches a minute apart, from three
    # days back.
    fillers = [
        Plan(
            code=code("H", n),
            game="basra",
            table_format="2",
            target=101,
            hands=[[15, 6]] * FILLER_HANDS,
            holders=(MAIN_PHONE, rival(n)),
            created_at=now - timedelta(days=3, minutes=n),
            status=Match.ENDED,
            win_reason={"rule": "reached_first", "target": 101},
        )
        for n in range(HISTORY - len(sheets) - len(sizes))
    ]
    # Posted to under load: empty, each side held by its own phone (one side per phone).
    entry = [other("E", n, 0, now, holders=ENTRY_PHONES) for n in range(entry_matches)]
    # Posted to by the mixed load: tables in mid-match, so the sheet page each post leads to is
    # as long as the sheets polled beside them.
    mix = [other("M", n, SHEET_HANDS, now, holders=ENTRY_PHONES) for n in range(mix_matches)]
    counts = [
        other("C", 0, SMALL_SHEET, now, holders=ENTRY_PHONES),
        other("C", 1, LARGE_SHEET, now, holders=ENTRY_PHONES),
    ]
    with app.app_context():
        _store([*fillers, *sizes, *sheets, *entry, *mix, *counts])
        # The winner column points at a side, known only once the sides are stored.
        db.session.execute(
            sa.update(Match)
            .where(Match.status == Match.ENDED, Side.match_id == Match.id, Side.position == 0)
            .values(winner_side_id=Side.id)
        )
        db.session.commit()
        _store_results()
        # A live database has planner statistics (autovacuum keeps them); a bulk-filled one has
        # none until autovacuum gets round to it, and the planner would choose sequential scans.
        db.session.execute(sa.text("ANALYZE"))
        db.session.commit()
    return Fixture(
        sheets=[p.code for p in sheets],
        small=sizes[0].code,
        large=sizes[1].code,
        entry=[p.code for p in entry],
        mix=[p.code for p in mix],
        count_small=counts[0].code,
        count_large=counts[1].code,
    )


def one_table(app: Flask) -> str:
    """One open match of four sides in mid-match (30 hands), each side held by its own phone
    (ENTRY_PHONES), as the mix plays them: a single sheet to time a browser on. Its code."""
    plan = Plan(
        code=code("P", 0),
        game="other",
        table_format="free",
        target=OPEN_TARGET,
        hands=other_hands(SHEET_HANDS),
        holders=ENTRY_PHONES,
        created_at=utcnow(),
    )
    with app.app_context():
        _store([plan])
        db.session.commit()
    return plan.code


def _store_results() -> None:
    """Each ended match's sides' results, as End match stores them (the record reads them)."""
    ended = read_matches(Match.status == Match.ENDED)
    hands = read_hands([match.id for match in ended])
    columns = SideResult.__table__.columns.keys()
    rows = [
        {column: getattr(result, column) for column in columns}
        for match in ended
        if match.winner_side_id is not None
        for result in results_of(work_out(match, hands[match.id]), match.winner_side_id)
    ]
    if rows:
        db.session.execute(sa.insert(SideResult), rows)
    db.session.commit()


def _inserted(model: type[db.Model], rows: list[dict[str, object]]) -> list[int]:  # type: ignore[name-defined]
    """Insert rows in bulk; their new ids, in the order of the rows."""
    if not rows:
        return []
    statement = sa.insert(model).returning(model.id, sort_by_parameter_order=True)
    return list(db.session.scalars(statement, rows))


def _store(plans: list[Plan]) -> None:
    """Write the planned matches, sides, seats, hands and entries in a few bulk inserts."""
    match_ids = _inserted(
        Match,
        [
            {
                "code": p.code,
                "game": p.game,
                "table_format": p.table_format,
                "target": p.target,
                "table_rules": {},
                "status": p.status,
                "host_phone": p.holders[0],
                "win_reason": p.win_reason,
                "created_at": p.created_at,
                "ended_at": p.created_at + timedelta(hours=1) if p.status != Match.OPEN else None,
            }
            for p in plans
        ],
    )
    side_ids = _inserted(
        Side,
        [
            {"match_id": match_id, "position": i, "name": f"Side {i + 1}"}
            for p, match_id in zip(plans, match_ids, strict=True)
            for i in range(len(p.holders))
        ],
    )
    sides_of: list[list[int]] = []
    taken = 0
    for p in plans:
        sides_of.append(side_ids[taken : taken + len(p.holders)])
        taken += len(p.holders)
    # Each seat carries its match's place in history, as models.history_order gives it.
    db.session.execute(
        sa.insert(Seat),
        [
            {
                "match_id": match_id,
                "phone": phone,
                "side_id": side_id,
                "match_open": p.status == Match.OPEN,
                "match_created_at": p.created_at,
            }
            for p, match_id, sides in zip(plans, match_ids, sides_of, strict=True)
            for phone, side_id in [
                *zip(p.holders, sides, strict=True),
                *((w, None) for w in p.watchers),
            ]
        ],
    )
    hand_ids = _inserted(
        Hand,
        [
            {"match_id": match_id, "number": number, "started_at": p.created_at}
            for p, match_id in zip(plans, match_ids, strict=True)
            for number in range(1, len(p.hands) + 1)
        ],
    )
    entries: list[dict[str, object]] = []
    hand_id = iter(hand_ids)
    for p, sides in zip(plans, sides_of, strict=True):
        for points in p.hands:
            this_hand = next(hand_id)
            entries.extend(
                {
                    "hand_id": this_hand,
                    "side_id": side_id,
                    "points": side_points,
                    "entered_by": phone,
                    "entered_at": p.created_at,
                }
                for side_id, side_points, phone in zip(sides, points, p.holders, strict=True)
            )
    if entries:
        db.session.execute(sa.insert(Entry), entries)
