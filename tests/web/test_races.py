"""Phones of one table acting at the same instant: one result, stored once, never a server error.

Each phone is its own test client in its own thread; a barrier releases the posts together. The
CSRF tokens are fetched before the barrier, so what races is the post itself. Every race runs on
several fresh matches, so more than one interleaving gets its chance.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask

from scorekeeper.extensions import db
from scorekeeper.models import Correction, Entry, Hand, Match, Seat, Side, Submission
from tests.phones import Phone, Shown, snapshot, stored_match
from tests.waiting import wait_until

ROUNDS = 5

Post = Callable[[], Shown]


def ready(
    phone: Phone, url: str, data: dict[str, Any] | None = None, key: str | None = None
) -> Post:
    """A form post with its CSRF token fetched now, to be sent later at the starting signal."""
    token = phone.token()
    return lambda: phone.post(url, {**(data or {}), "csrf_token": token}, csrf=False, key=key)


def race(posts: list[Post]) -> list[Shown]:
    """Send every post from its own thread at the same instant; the responses, in order."""
    start = threading.Barrier(len(posts))

    def send(post: Post) -> Shown:
        """Wait for the others, then post."""
        start.wait(timeout=30)
        return post()

    with ThreadPoolExecutor(max_workers=len(posts)) as pool:
        # TESTING propagates exceptions: a server error re-raises here with its traceback.
        responses = list(pool.map(send, posts, timeout=120))
    assert all(r.status_code != 500 for r in responses)
    return responses


def twin(phone: Phone) -> Phone:
    """The same phone in a second client (a double tap, a resent post): it carries the cookie."""
    copy = Phone(phone.app)
    cookie = phone.client.get_cookie("session")
    assert cookie is not None
    copy.client.set_cookie("session", cookie.value)
    return copy


def entries(app: Flask, code: str) -> list[tuple[int, int, int, int]]:
    """Every stored cell of a match as (hand number, side position, points, revision)."""
    with app.app_context():
        rows = db.session.execute(
            sa.select(Hand.number, Side.position, Entry.points, Entry.revision)
            .select_from(Entry)
            .join(Hand, Entry.hand_id == Hand.id)
            .join(Side, Entry.side_id == Side.id)
            .join(Match, Hand.match_id == Match.id)
            .where(Match.code == code)
            .order_by(Hand.number, Side.position, Entry.id)
        ).all()
        return [(hand, side, points, revision) for hand, side, points, revision in rows]


def hands(app: Flask, code: str) -> list[int]:
    """The numbers of every stored hand row of a match, duplicates included."""
    with app.app_context():
        return list(
            db.session.scalars(
                sa.select(Hand.number)
                .join(Match, Hand.match_id == Match.id)
                .where(Match.code == code)
                .order_by(Hand.number)
            )
        )


def corrections(app: Flask, code: str) -> list[tuple[int, int, int | None, int]]:
    """The corrections trail of a match as (hand number, side position, old, new)."""
    with app.app_context():
        rows = db.session.execute(
            sa.select(
                Correction.hand_number, Side.position, Correction.old_points, Correction.new_points
            )
            .join(Side, Correction.side_id == Side.id)
            .join(Match, Correction.match_id == Match.id)
            .where(Match.code == code)
            .order_by(Correction.id)
        ).all()
        return [(hand, side, old, new) for hand, side, old, new in rows]


def table(phones: Callable[[], Phone], game: str, seats: list[int], **fields: Any):
    """A new match hosted on side 0, with one more phone joined to each side in `seats`."""
    host = phones()
    code = host.create(game, **fields)
    others = [phones() for _ in seats]
    for phone, side in zip(others, seats, strict=True):
        assert "This phone now holds" in phone.join(code, side=side).shown
    return code, host, others


def play_hand(code: str, phones: list[Phone], number: int, points: int = 10) -> None:
    """Each phone enters `points` for its side (in order) in hand `number`."""
    for side, phone in enumerate(phones):
        assert f"{points} recorded." in phone.enter(code, number, side, points).shown


# A race on a match just joined, and one on a match a hand into play (a new hand to start).
AFTER = pytest.mark.parametrize("hands_before", [0, 1], ids=["just-joined", "after-a-hand"])


@AFTER
def test_partners_entering_the_same_hand_at_once_leave_one_entry(app, phones, hands_before):
    for _ in range(ROUNDS):
        code, host, (partner, rival) = table(
            phones, "basra", [0, 1], table_format="2v2", target="101", side_0="Us", side_1="Them"
        )
        for number in range(1, hands_before + 1):
            play_hand(code, [host, rival], number)
        hand = hands_before + 1
        totals = [40, 50]
        url = f"/m/{code}/enter"
        responses = race(
            [
                ready(phone, url, {"hand": hand, "side": 0, "points": points})
                for phone, points in zip([host, partner], totals, strict=True)
            ]
        )

        said = [(r, p, f"Hand {hand}: Us") for r, p in zip(responses, totals, strict=True)]
        recorded = [p for r, p, us in said if f"{us} {p} recorded." in r.shown]
        changed = [p for r, p, us in said if f"{us} changed to {p}." in r.shown]
        clashed = [r for r in responses if r.status_code == 409 and "same moment" in r.shown]
        assert len(recorded) == 1
        assert len(recorded) + len(changed) + len(clashed) == 2
        # Whoever wrote last is what the cell holds; a refused phone changed nothing.
        last = changed[0] if changed else recorded[0]
        before = [(n, side, 10, 1) for n in range(1, hand) for side in (0, 1)]
        assert entries(app, code) == [*before, (hand, 0, last, 1 + len(changed))]
        assert hands(app, code) == list(range(1, hand + 1))


@AFTER
def test_a_post_sent_ten_times_with_one_key_records_once(app, phones, hands_before):
    for _ in range(ROUNDS):
        code, host, (guest,) = table(phones, "basra", [1], side_0="Alice", side_1="Ben")
        for number in range(1, hands_before + 1):
            play_hand(code, [host, guest], number)
        hand = hands_before + 1
        key = f"double-tap-{code}"
        data = {"hand": hand, "side": 1, "points": 7}
        responses = race([ready(twin(guest), f"/m/{code}/enter", data, key) for _ in range(10)])

        assert all(r.status_code == 200 for r in responses)
        assert sum(f"Hand {hand}: Ben 7 recorded." in r.shown for r in responses) == 1
        assert sum("Already recorded." in r.shown for r in responses) == 9
        before = [(n, side, 10, 1) for n in range(1, hand) for side in (0, 1)]
        assert entries(app, code) == [*before, (hand, 1, 7, 1)]
        with app.app_context():
            assert (
                db.session.scalar(
                    sa.select(sa.func.count()).select_from(Submission).where(Submission.key == key)
                )
                == 1
            )


def test_end_match_pressed_on_every_phone_at_once_ends_it_once(app, phones):
    for _ in range(ROUNDS):
        code, host, (partner, rival, rival_partner) = table(
            phones,
            "basra",
            [0, 1, 1],
            table_format="2v2",
            target="101",
            side_0="Us",
            side_1="Them",
        )
        host.enter(code, 1, 0, 101)
        rival.enter(code, 1, 1, 3)
        before = stored_match(app, code)
        assert before.status == Match.OPEN

        responses = race(
            [ready(phone, f"/m/{code}/end") for phone in (host, partner, rival, rival_partner)]
        )

        ended = [r for r in responses if r.status_code == 200]
        assert len(ended) == 1
        assert "Match over: Us won." in ended[0].shown
        for response in responses:
            if response is not ended[0]:
                assert response.status_code == 409
                assert "This match has ended" in response.shown
        after = stored_match(app, code)
        assert after.status == Match.ENDED
        assert after.ended_at is not None
        assert after.win_reason == {"rule": "reached_first", "target": 101}
        # Each change bumps the version once: one more means exactly one End was stored.
        assert after.version == before.version + 1


def test_host_correcting_while_the_side_changes_its_open_cell_loses_neither(app, phones):
    for round_ in range(ROUNDS):
        code, host, (guest,) = table(phones, "basra", [1], side_0="Alice", side_1="Ben")
        # Every other round the host tries to fill the side's empty cell (refused: a phone holds
        # Ben), else corrects its first entry.
        seen = round_ % 2
        before = None
        if seen:
            before = 10
            guest.enter(code, 1, 1, before)
        correct_url = f"/m/{code}/hand/1/side/1/correct"
        correction = {"hand": 1, "side": 1, "points": 20, "revision": seen, "reason": "recount"}

        by_host, by_side = race(
            [
                ready(host, correct_url, correction),
                ready(guest, f"/m/{code}/enter", {"hand": 1, "side": 1, "points": 30}),
            ]
        )

        # The side may change its own cell while the hand is open, so its change always stands.
        assert by_side.status_code == 200
        assert "Ben 30 recorded." in by_side.shown or "Ben changed to 30." in by_side.shown
        cells = entries(app, code)
        trail = corrections(app, code)
        if before is None:
            # Ben's phone enters Ben's open cell: the host's fill is refused, first or second.
            assert by_host.status_code == 409
            refused = by_host.shown
            assert "A phone holds Ben" in refused or "meanwhile: it now reads 30" in refused
            assert trail == []
            assert cells == [(1, 1, 30, 1)]
        elif by_host.status_code == 200:
            # The host got in first: its correction is in the trail, and the side wrote after.
            assert f"Hand 1: Ben corrected from {before} to 20." in by_host.shown
            assert trail == [(1, 1, before, 20)]
            assert "Ben changed to 30." in by_side.shown
            assert cells == [(1, 1, 30, seen + 2)]
        else:
            # The side got in first: the host's page was stale, so nothing of it was stored.
            assert by_host.status_code == 409
            assert "changed the cell of Ben in hand 1 meanwhile: it now reads 30" in by_host.shown
            assert trail == []
            assert cells == [(1, 1, 30, seen + 1)]


@AFTER
def test_every_side_entering_a_new_hand_at_once_starts_one_hand(app, phones, hands_before):
    names = {"side_0": "N", "side_1": "E", "side_2": "S", "side_3": "W"}
    for _ in range(ROUNDS):
        code, host, others = table(
            phones, "other", [1, 2, 3], table_format="free", target="500", **names
        )
        for number in range(1, hands_before + 1):
            play_hand(code, [host, *others], number)
        hand = hands_before + 1
        totals = [5, 6, 7, 8]
        responses = race(
            [
                ready(
                    phone, f"/m/{code}/enter", {"hand": hand, "side": side, "points": totals[side]}
                )
                for side, phone in enumerate([host, *others])
            ]
        )

        for side, response in enumerate(responses):
            assert response.status_code == 200
            said = f"Hand {hand}: {names[f'side_{side}']} {totals[side]} recorded."
            assert said in response.shown
        assert hands(app, code) == list(range(1, hand + 1))
        before = [(n, side, 10, 1) for n in range(1, hand) for side in range(4)]
        assert entries(app, code) == [
            *before,
            *((hand, side, totals[side], 1) for side in range(4)),
        ]


def test_a_write_that_waited_for_a_side_to_be_released_sees_it_released(app, host, guest, basra):
    assert "Hand 1: Alice 40 recorded" in host.enter(basra, 1, 0, 40).shown
    with app.app_context():
        match_id, ben = db.session.execute(
            sa.select(Match.id, Side.id)
            .join(Side, Side.match_id == Match.id)
            .where(Match.code == basra, Side.name == "Ben")
        ).one()
        engine = db.engine
    version = stored_match(app, basra).version
    on_postgres = engine.dialect.name == "postgresql"
    # Another worker in the middle of releasing Ben's side: its lock held, not committed.
    releasing = engine.connect()
    transaction = releasing.begin()
    releasing.execute(
        sa.update(Match).where(Match.id == match_id).values(version=Match.version + 1)
    )
    releasing.execute(
        sa.update(Seat).where(Seat.match_id == match_id, Seat.side_id == ben).values(side_id=None)
    )
    # The host's correction waits for that lock; the release commits while it waits.
    with ExitStack() as stack:
        pool = stack.enter_context(ThreadPoolExecutor(max_workers=1))
        # Whatever happens, the lock goes before the pool waits for its correction.
        stack.callback(releasing.close)
        write = stack.enter_context(first_write(engine))
        correcting = pool.submit(host.correct, basra, 1, 0, 41, revision=1)
        assert write.sent.wait(15), "the correction never wrote"
        if on_postgres:
            assert _waiting_for_a_lock(app, unless=write.answered)
        else:
            # SQLite shows no lock wait: the write is simply not answered while it is held.
            write.answered.wait(0.3)
        assert not write.answered.is_set(), "the correction was answered before the release"
        transaction.commit()
        assert "Hand 1: Alice corrected from 40 to 41" in correcting.result(timeout=30).shown
    # Its answer came once the release was committed: it waited for it.
    assert write.answered.is_set()
    # Ben's phone no longer holds Ben, whatever the correction read as it waited.
    late = guest.enter(basra, 1, 1, 5)
    assert late.status_code == 403
    assert "Claim a side first" in late.shown
    assert entries(app, basra) == [(1, 0, 41, 2)]
    # Each write bumped the version once, the correction's on top of the release's.
    assert stored_match(app, basra).version == version + 2


class FirstWrite:
    """The first statement that changes something, sent from another thread than the test's:
    when it was sent, and when its answer came."""

    def __init__(self) -> None:
        self.sent = threading.Event()
        self.answered = threading.Event()
        self._thread: int | None = None

    def before(self, conn, cursor, statement: str, *args: object) -> None:
        """A statement about to be sent: the first write of another thread is marked sent."""
        writes = statement.lstrip().upper().startswith(("INSERT", "UPDATE", "DELETE"))
        if writes and self._thread is None and threading.get_ident() != MAIN:
            self._thread = threading.get_ident()
            self.sent.set()

    def after(self, conn, cursor, statement: str, *args: object) -> None:
        """A statement answered: that first write's answer has come."""
        if self.sent.is_set() and threading.get_ident() == self._thread:
            self.answered.set()


MAIN = threading.get_ident()


@contextmanager
def first_write(engine: sa.Engine) -> Iterator[FirstWrite]:
    """Watch the engine for the first write another thread sends, while the block runs."""
    write = FirstWrite()
    sa.event.listen(engine, "before_cursor_execute", write.before)
    sa.event.listen(engine, "after_cursor_execute", write.after)
    try:
        yield write
    finally:
        sa.event.remove(engine, "before_cursor_execute", write.before)
        sa.event.remove(engine, "after_cursor_execute", write.after)


def _waiting_for_a_lock(app: Flask, unless: threading.Event) -> bool:
    """Whether a session of this database waits for a lock within the next 15 seconds (not
    once `unless` is set: what should wait did not)."""

    def waiting() -> bool:
        if unless.is_set():
            return True
        with app.app_context():
            found = db.session.scalar(
                sa.text(
                    "SELECT count(*) FROM pg_stat_activity "
                    "WHERE datname = current_database() AND wait_event_type = 'Lock'"
                )
            )
            db.session.rollback()
        return bool(found)

    return wait_until(waiting, 15)


def test_a_resent_claim_leaves_the_phone_seated(app, host, phones):
    code = host.create("basra", side_0="Alice", side_1="Ben")
    ben = phones()
    # The phone has its identity from the first page it loaded, before it posts anything.
    assert "Not at the table yet" in ben.get(f"/m/{code}").shown
    assert ben.client.get_cookie("session") is not None
    # The claim is carried out, but its answer is lost on the way: the phone sends it again.
    ben.post(f"/m/{code}/claim", {"target": 1}, key="claim-once", follow=False)
    again = ben.post(f"/m/{code}/claim", {"target": 1}, key="claim-once")
    assert "Already recorded." in again.shown
    assert "This phone holds <strong>Ben</strong>" in again.get_data(as_text=True)
    assert "Hand 1: Ben 5 recorded." in ben.enter(code, 1, 1, 5).shown


def test_a_key_is_bound_to_its_match_and_to_what_was_posted(app, host, guest, basra):
    assert "Hand 1: Alice 40 recorded." in host.enter(basra, 1, 0, 40, key="k-1").shown
    assert "Already recorded." in host.enter(basra, 1, 0, 40, key="k-1").shown
    before = snapshot(app)
    other_points = host.enter(basra, 1, 0, 41, key="k-1")
    assert other_points.status_code == 409
    assert "sent before with other values" in other_points.shown
    assert snapshot(app) == before
    other_match = host.create("basra", side_0="Ann", side_1="Bo")
    before = snapshot(app)
    elsewhere = host.enter(other_match, 1, 0, 40, key="k-1")
    assert elsewhere.status_code == 409
    assert "sent before with other values" in elsewhere.shown
    assert snapshot(app) == before


def test_a_resent_create_makes_one_match(app, host):
    page = host.get("/new/basra").get_data(as_text=True)
    form = {"table_format": "2", "target": "101", "host_side": "0", "side_0": "Alice"}
    form |= {"rule_carry_over": "stack", "rule_double_basra": "off"}
    form |= {"rule_basra_value": "flat", "rule_seven_diamonds": "standard"}
    assert 'name="key" type="hidden"' in page
    first = host.post("/new/basra", form, key="create-once", follow=False)
    again = host.post("/new/basra", form, key="create-once", follow=False)
    assert first.status_code == again.status_code == 302
    assert first.headers["Location"] == again.headers["Location"]
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Match)) == 1
    changed = host.post("/new/basra", {**form, "side_0": "Alma"}, key="create-once", follow=False)
    assert changed.status_code == 400
    assert "sent before with other values" in changed.get_data(as_text=True)
