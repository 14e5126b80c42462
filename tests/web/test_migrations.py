"""The Alembic migrations turn an empty database into exactly the schema the models describe."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory

from scorekeeper.extensions import db, migrate
from tests.phones import Phone


def test_migrations_build_an_empty_database_into_the_models_schema(unmigrated_app, upgrade):
    with unmigrated_app.app_context():
        assert sa.inspect(db.engine).get_table_names() == []

    upgrade(unmigrated_app)

    with unmigrated_app.app_context(), db.engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        config = migrate.get_config()
        head = ScriptDirectory.from_config(config).get_current_head()
        assert context.get_current_revision() == head
        assert set(sa.inspect(connection).get_table_names()) == {
            *db.metadata.tables,
            "alembic_version",
        }
        # A model changed without a migration (or the reverse) shows up here as a difference.
        assert compare_metadata(context, db.metadata) == []


# The revision before seats carried their match's place in history (5d0a3ff06fb1).
BEFORE_HISTORY_ORDER = "5b0e6f1a9c2d"


def test_the_upgrade_copies_each_match_s_place_in_history_onto_its_seats(unmigrated_app, upgrade):
    upgrade(unmigrated_app, BEFORE_HISTORY_ORDER)
    created = {1: datetime(2026, 1, 2, 3, 4, 5, 678000), 2: datetime(2025, 6, 7, 8, 9, 10)}
    with unmigrated_app.app_context(), db.engine.begin() as connection:
        # The tables as they stood at that revision, not as the models describe them now.
        old = sa.MetaData()
        match = sa.Table("match", old, autoload_with=connection)
        seat = sa.Table("seat", old, autoload_with=connection)
        for match_id, code, status in ((1, "OPEN11", "open"), (2, "ENDED2", "ended")):
            connection.execute(
                match.insert().values(
                    id=match_id,
                    code=code,
                    game="basra",
                    table_format="2",
                    target=101,
                    table_rules={},
                    status=status,
                    host_phone="phone-a",
                    result="",
                    version=1,
                    created_at=created[match_id],
                )
            )
        # Seats as they were: no copied columns yet. A second phone watches the ended match.
        for match_id, phone in ((1, "phone-a"), (2, "phone-a"), (2, "phone-b")):
            connection.execute(
                seat.insert().values(match_id=match_id, phone=phone, joined_at=created[match_id])
            )

    upgrade(unmigrated_app)
    seat = db.metadata.tables["seat"]

    with unmigrated_app.app_context(), db.engine.connect() as connection:
        # Matches from before the table could be closed are open to new phones.
        closed = connection.scalars(sa.select(db.metadata.tables["match"].c.closed)).all()
        assert closed == [False, False]
        # The placeholder defaults are gone, as in the models: a seat must be given its place.
        defaults = {c["name"]: c["default"] for c in sa.inspect(connection).get_columns("seat")}
        assert defaults["match_open"] is None and defaults["match_created_at"] is None
        rows = connection.execute(
            sa.select(
                seat.c.match_id, seat.c.phone, seat.c.match_open, seat.c.match_created_at
            ).order_by(seat.c.id)
        ).all()
    assert [tuple(row) for row in rows] == [
        (1, "phone-a", True, created[1]),
        (2, "phone-a", False, created[2]),
        (2, "phone-b", False, created[2]),
    ]


def test_the_downgrade_takes_the_copied_columns_off_and_the_upgrade_puts_them_back(
    unmigrated_app, upgrade, downgrade
):
    upgrade(unmigrated_app)
    downgrade(unmigrated_app, BEFORE_HISTORY_ORDER)
    with unmigrated_app.app_context(), db.engine.connect() as connection:
        inspector = sa.inspect(connection)
        columns = {column["name"] for column in inspector.get_columns("seat")}
        assert columns == {"id", "match_id", "phone", "side_id", "joined_at"}
        indexes = {index["name"] for index in inspector.get_indexes("seat")}
        assert "ix_seat_history" not in indexes
        assert {"ix_seat_match_id", "ix_seat_phone"} <= indexes

    upgrade(unmigrated_app)
    with unmigrated_app.app_context(), db.engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        assert compare_metadata(context, db.metadata) == []


# The revision before each side's result was stored as its match ended (c8f2a6d4e9b1).
BEFORE_SIDE_RESULTS = "6c2f8e1a4d97"


def test_the_upgrade_stores_the_results_of_matches_already_ended_as_end_match_does(
    unmigrated_app, upgrade, downgrade
):
    upgrade(unmigrated_app)
    host, guest = Phone(unmigrated_app), Phone(unmigrated_app)
    code = host.create("basra", table_format="2", side_0="Alice", side_1="Ben")
    guest.join(code, side=1)
    for number, (alice, ben) in enumerate([(50, 0), (40, 60), (0, 40)], start=1):
        host.enter(code, number, 0, alice)
        guest.enter(code, number, 1, ben)
    host.correct(code, 1, 0, 70)  # Alice decides it at hand 2
    assert "Match over: Alice won." in host.post(f"/m/{code}/end").shown
    host.create("pastura")  # open: no result
    side_result = db.metadata.tables["side_result"]

    def stored() -> list[dict[str, object]]:
        with unmigrated_app.app_context(), db.engine.connect() as connection:
            rows = connection.execute(sa.select(side_result).order_by(side_result.c.side_id))
            return [dict(row._mapping) for row in rows]

    by_end_match = stored()
    assert [(row["won"], row["score"], row["margin"]) for row in by_end_match] == [
        (True, [110, 60], 50),
        (False, None, None),
    ]
    downgrade(unmigrated_app, BEFORE_SIDE_RESULTS)
    upgrade(unmigrated_app)
    assert stored() == by_end_match
    page = host.get("/history/record").shown
    assert "110–60 in " in page


# The revision before a match stored why it was won as a fact (d7e1a3c5b9f2).
BEFORE_WIN_REASONS = "c8f2a6d4e9b1"
# What End match stored until then, and the fact each is read back as.
ENGLISH_RESULTS = [
    ("ended", "Ana won. Reached 101 first", {"rule": "reached_first", "target": 101}),
    ("ended", "Ana won. Higher of two over 51", {"rule": "highest_over", "target": 51, "sides": 2}),
    ("ended", "Ana won. Highest of 9 over 50", {"rule": "highest_over", "target": 50, "sides": 9}),
    ("ended", "Ana won. Early victory", {"rule": "early_victory"}),
    ("ended", "Ana won. First to 1 round", {"rule": "first_to_rounds", "target": 1}),
    (
        "ended",
        "Ana won. Lowest when a side reached 100",
        {"rule": "lowest_at_limit", "target": 100},
    ),
    ("ended", "Ana won. Highest after 3 hands", {"rule": "highest_after_hands", "hands": 3}),
    ("ended", "Ana won.", None),
    ("abandoned", "Abandoned.", None),
    ("open", "", None),
]


def test_the_upgrade_reads_each_stored_english_result_back_as_its_fact(
    unmigrated_app, upgrade, downgrade
):
    upgrade(unmigrated_app, BEFORE_WIN_REASONS)
    with unmigrated_app.app_context(), db.engine.begin() as connection:
        old = sa.MetaData()
        match = sa.Table("match", old, autoload_with=connection)
        side = sa.Table("side", old, autoload_with=connection)
        for number, (status, result, _) in enumerate(ENGLISH_RESULTS, start=1):
            connection.execute(
                match.insert().values(
                    id=number,
                    code=f"CODE{number:02d}",
                    game="other",
                    table_format="free",
                    target=100,
                    table_rules={},
                    status=status,
                    host_phone="phone-a",
                    result=result,
                    version=1,
                    created_at=datetime(2026, 1, 1),
                )
            )
            connection.execute(
                side.insert().values(id=number, match_id=number, position=0, name="Ana", players="")
            )
            if status == "ended":
                connection.execute(
                    match.update().where(match.c.id == number).values(winner_side_id=number)
                )

    upgrade(unmigrated_app)
    table = db.metadata.tables["match"]
    with unmigrated_app.app_context(), db.engine.connect() as connection:
        stored = connection.scalars(sa.select(table.c.win_reason).order_by(table.c.id)).all()
        winners = connection.scalars(sa.select(table.c.winner_side_id).order_by(table.c.id))
        sides = connection.scalar(
            sa.select(sa.func.count()).select_from(db.metadata.tables["side"])
        )
    assert stored == [fact for _, _, fact in ENGLISH_RESULTS]
    # The match table is altered in place: its sides and winners are all still there.
    assert sides == len(ENGLISH_RESULTS)
    assert [winner is not None for winner in winners] == [
        s == "ended" for s, _, _ in ENGLISH_RESULTS
    ]

    # Down again, the English is written back as End match wrote it.
    downgrade(unmigrated_app, BEFORE_WIN_REASONS)
    with unmigrated_app.app_context(), db.engine.connect() as connection:
        match = sa.Table("match", sa.MetaData(), autoload_with=connection)
        results = connection.scalars(sa.select(match.c.result).order_by(match.c.id)).all()
    assert results == [result for _, result, _ in ENGLISH_RESULTS]


# The revision before a cell's ticks became one list of its game's keys (0b7d3e9a5c21).
BEFORE_TICK_LISTS = "d7e1a3c5b9f2"


def test_the_ticks_go_down_to_a_column_each_and_come_back_as_every_sheet_showed_them(
    unmigrated_app, upgrade, downgrade
):
    upgrade(unmigrated_app)
    host, guest = Phone(unmigrated_app), Phone(unmigrated_app)
    basra = host.create("basra", table_format="2", side_0="Alice", side_1="Ben")
    guest.join(basra, side=1)
    host.enter(basra, 1, 0, 10, even_split="y")
    guest.enter(basra, 1, 1, 20, even_split="y")
    host.correct(basra, 1, 1, 25, even_split="y")  # the trail keeps the ticks too
    brisca = host.create(
        "brisca", table_format="2", side_0="Ana", side_1="Omar", rule_black_hand="on"
    )
    guest.join(brisca, side=1)
    host.enter(brisca, 1, 0, 60)
    guest.enter(brisca, 1, 1, 60)
    guest.post(f"/m/{brisca}/settle", {"target": 1, "hand": 1})
    host.enter(brisca, 2, 0, 30, black_hand="y")
    guest.enter(brisca, 2, 1, 90)

    def exported(code: str) -> dict[str, Any]:
        return json.loads(host.get(f"/m/{code}/match.json").get_data(as_text=True))

    before = {code: exported(code) for code in (basra, brisca)}
    assert [cell["ticks"] for cell in before[brisca]["hands"][0]["cells"]] == [[], ["last_trick"]]
    assert before[basra]["corrections"][0]["was_detail"]["ticks"] == ["even_split"]

    downgrade(unmigrated_app, BEFORE_TICK_LISTS)
    with unmigrated_app.app_context(), db.engine.connect() as connection:
        old = sa.MetaData()
        entry = sa.Table("entry", old, autoload_with=connection)
        correction = sa.Table("correction", old, autoload_with=connection)
        assert "ticks" not in entry.c
        flags = connection.execute(
            sa.select(entry.c.points, entry.c.even_split, entry.c.last_trick, entry.c.black_hand)
            .where(sa.or_(entry.c.even_split, entry.c.last_trick, entry.c.black_hand))
            .order_by(entry.c.id)
        ).all()
        detail = connection.execute(sa.select(correction.c.old_detail)).scalar_one()
    assert [tuple(row) for row in flags] == [
        (10, True, False, False),
        (25, True, False, False),
        (60, False, True, False),
        (30, False, False, True),
    ]
    assert detail["even_split"] is True and "ticks" not in detail

    upgrade(unmigrated_app)
    assert {code: exported(code) for code in (basra, brisca)} == before
