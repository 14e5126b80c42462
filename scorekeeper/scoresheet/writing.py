"""The one way anything at a table is written: one transaction each, read top to bottom.

Every action runs the same steps (write): take the match's write lock by bumping its version
(on PostgreSQL the row lock makes the phones of one table take turns: two partners entering
together, End match pressed twice; on SQLite the database's write lock does the same), record
the post's idempotency key (a resent post stops there), then read what the check needs, check
(the phone's permission for its Action, which act asks itself: phones/rules.py; then the
game's rules), write, commit. Nothing the check relies on is read before the lock, so each
check sees what the previous phone wrote, and an action's work is given the match only as the
lock read it (the viewer's). A phone's own actions at no match (act_as_phone: starting one, a
history's code, taking a history, moving.py, which locks every match it changes with bump)
run the same steps with nothing to lock yet, checked by their PhoneAction's rule.

An action is given what was posted (Post): it never reads the request, so it runs and is
tested the same with or without one.

The statements every post sends (the lock, the key) and an entry's writes (entries.py,
corrections.py) are SQLAlchemy Core statements built once, given only the post's values: none
goes through the ORM's flush or bulk update. A match is read as plain values (StoredMatch, made from
Match's columns): the lock reads its row again, and an action changes it with a statement
(change).
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError

from scorekeeper.errors import Refusal
from scorekeeper.extensions import db
from scorekeeper.live import versions
from scorekeeper.live.fanout import announced
from scorekeeper.models import Match, StoredMatch, StoredSeat, StoredSide, Submission, utcnow
from scorekeeper.phones.group_rules import GroupAction, GroupViewer
from scorekeeper.phones.rules import Action, PhoneAction, Viewer, phone_refusal
from scorekeeper.phones.seats import viewer_at
from scorekeeper.words import done as done_words


@dataclass(frozen=True)
class Post:
    """A phone's post, as an action takes it: the phone that sent it (None: a phone without a
    cookie), the form's idempotency key (None: an old page without one), and a digest of
    everything else it carried, where it went included (the same post resent gives the same)."""

    phone: str | None
    key: str | None = None
    digest: str = ""


class Clash(Refusal):
    """Two writers met at a constraint of the database (creating a match: two drew one code)."""


@dataclass(frozen=True)
class Done:
    """What an action did, in words for the phone that asked."""

    message: str
    repeated: bool = False
    # False when the action found nothing to change: its lock is let go without a new version,
    # so no phone at the table fetches its page again for nothing.
    changed: bool = True
    # The match the phone goes on to, if not this one (a new match, a rematch).
    go_to: str | None = None
    # The first of the later matches whose pages this action changed too (they show the
    # series it was in): it and each rematch after it get a new version, and their phones
    # fetch again.
    series_from: str | None = None
    # Matches whose new versions the action gave them itself (bump): a history joined to
    # another changes who sits at each of its matches. Rung once it commits.
    rings: tuple[tuple[str, int], ...] = ()


# The tables a post writes, for statements of SQLAlchemy Core: built once and compiled once,
# each post only binds its values, and none goes through the ORM's flush or its bulk update.
MATCHES: sa.Table = Match.__table__  # type: ignore[assignment]
SUBMISSIONS: sa.Table = Submission.__table__  # type: ignore[assignment]


@functools.cache
def _lock_statement(dialect: str) -> sa.Update:
    """The lock: the match's version bumped and announced (live/fanout.py, announced),
    returning the match's row as it now stands. One per dialect, as PostgreSQL's announces and
    SQLite's does not."""
    bump = (
        sa.update(MATCHES)
        .where(MATCHES.c.id == sa.bindparam("match_id"))
        .values(version=MATCHES.c.version + 1)
        .returning(*MATCHES.c)
    )
    return announced(bump, dialect)


def _lock(match: StoredMatch) -> StoredMatch:
    """Take the match's write lock by bumping its version: the match as it now stands (status,
    host, its new version). The same statement announces the version to every worker
    (_bumped)."""
    # The whole row is read again, from the row the lock returns, so an action checks every
    # column as the last writer left it (a new column included, with nothing to list here);
    # its sides and whether it follows another stay as read (no action changes them).
    statement = _lock_statement(db.engine.dialect.name)
    row = db.session.connection().execute(statement, {"match_id": match.id}).one()
    # By the columns' names: on PostgreSQL the row also holds the announcement's NOTIFY.
    return dataclasses.replace(match, **{column.key: row._mapping[column] for column in MATCHES.c})


def change(match: StoredMatch, **columns: Any) -> None:
    """Write these columns of the match: an action's one statement for what it changes of
    the match itself, under its lock (act)."""
    db.session.execute(sa.update(MATCHES).where(MATCHES.c.id == match.id).values(**columns))


def _bumped(which: sa.ColumnElement[bool], *returned: Any) -> sa.UpdateBase:
    """The statement that gives a match a new version, returning `returned` (the lock's, and
    the series' after a reopen), announced to every worker: on PostgreSQL the same statement
    sends NOTIFY of the new version, when and only if the write commits (live/fanout.py,
    announced: one statement, no round trip of its own). On SQLite write() wakes the other
    workers itself once it committed (versions().ring)."""
    bump = sa.update(Match).where(which).values(version=Match.version + 1).returning(*returned)
    return announced(bump, db.engine.dialect.name)


def bump(which: sa.ColumnElement[bool]) -> tuple[tuple[str, int], ...]:
    """Give every match `which` selects a new version, announced, taking their write locks
    (before anything else the action writes, as every action takes its match's first): for an
    action that is at no one match. What it returns goes in its Done's rings."""
    rows = db.session.execute(_bumped(which, Match.code, Match.version))
    return tuple((row.code, row.version) for row in rows)


def _bump_series(code: str | None) -> dict[str, int]:
    """Give this match and each rematch after it a new version: the new version by code. A
    statement per match of the series, a handful at most."""
    bumped: dict[str, int] = {}
    while code is not None and code not in bumped:
        row = db.session.execute(
            _bumped(Match.code == code, Match.version, Match.rematch_code)
        ).first()
        if row is None:
            break
        bumped[code] = row.version
        code = row.rematch_code
    return bumped


@functools.cache
def _key_statement(dialect: str) -> sa.Insert:
    """The post's key recorded, unless it was before: RETURNING says which."""
    insert = sqlite.insert if dialect == "sqlite" else postgresql.insert
    return (
        insert(SUBMISSIONS)
        .on_conflict_do_nothing(index_elements=[SUBMISSIONS.c.key])
        .returning(SUBMISSIONS.c.key)
    )


# A resent post's first: where it went and what it carried.
FIRST_POST = sa.select(SUBMISSIONS.c.match_id, SUBMISSIONS.c.posted).where(
    SUBMISSIONS.c.key == sa.bindparam("key")
)


def _carried_out_before(post: Post, match: StoredMatch | None) -> sa.Row[Any, Any] | None:
    """Record the post's key; None the first time, else the post that carried it first. A
    key that came before with other values, or for another match, is refused (a page's key
    reused by hand or by a bug: taking it for the first post would hide this one).

    Under the lock, a resent post finds the first one's key committed; a resent create waits
    at this insert for the first to commit (PostgreSQL's unique index; SQLite's write lock).
    """
    if not post.key:
        return None
    connection = db.session.connection()
    recorded = {
        "key": post.key,
        "match_id": match.id if match else None,
        "made_at": utcnow(),
        "posted": post.digest,
    }
    if connection.execute(_key_statement(db.engine.dialect.name), recorded).first() is not None:
        return None
    first = connection.execute(FIRST_POST, {"key": post.key}).one()
    same_match = first.match_id == (match.id if match else first.match_id)
    if not same_match or first.posted not in (None, post.digest):
        raise Refusal(done_words.sent_before(made=match is None), 409, match)
    return first


def _write(
    post: Post,
    work: Callable[[StoredMatch | None], Done],
    match: StoredMatch | None = None,
) -> Done:
    """Lock the match (if there is one yet), skip a repeated post, do the work (given the
    match as the lock read it), commit; undo everything on a refusal. A repeated create goes
    on to the match the first one made."""
    code = match.code if match else None
    version = None
    later: dict[str, int] = {}
    try:
        locked = _lock(match) if match is not None else None
        version = locked.version if locked is not None else None
        first = _carried_out_before(post, match)
        if first is not None:
            db.session.rollback()
            made = None
            if match is None and first.match_id is not None:
                made = db.session.scalar(sa.select(Match.code).where(Match.id == first.match_id))
            return Done(done_words.already_recorded(), repeated=True, go_to=made)
        done = work(locked)
        if not done.changed:
            db.session.rollback()
            return done
        later = {**dict(done.rings), **_bump_series(done.series_from)}
        if match is None and post.key and done.go_to is not None:
            # The key now names the match it made, for a resend to go on to.
            made_id = sa.select(Match.id).where(Match.code == done.go_to).scalar_subquery()
            db.session.execute(
                sa.update(Submission).where(Submission.key == post.key).values(match_id=made_id)
            )
        db.session.commit()
    except IntegrityError as clash:
        # Only reachable if two writers slipped past the lock (they cannot on SQLite or
        # PostgreSQL), or two new matches drew one code at the same moment; the database's
        # own constraints then keep the sheet whole.
        db.session.rollback()
        raise Clash(done_words.clashed(), 409, match) from clash
    except BaseException:
        db.session.rollback()
        raise
    if code is not None and version is not None:
        versions().ring(code, version)
    for later_code, later_version in later.items():
        versions().ring(later_code, later_version)
    return done


def act(
    match: StoredMatch,
    post: Post,
    action: Action,
    work: Callable[[Viewer], Done],
    side: StoredSide | None = None,
    *,
    among: Callable[[StoredMatch], Collection[int]] | None = None,
    to: Callable[[StoredMatch], StoredSeat | None] | None = None,
) -> Done:
    """An action at a match, checked here so that no action can forget it: under the lock,
    after a repeated post is answered "Already recorded.", the posting phone as the match
    sees it then (its seat, its side, whether it is the host) is asked whether it may take
    `action` (phones/rules.py), and only then given to `work`. The viewer's match is the
    match as the lock read it: what `work` checks of the match, it asks of that one.

    `side` is the column an entry goes into, or the side a phone claims; `among` and `to`
    read what their rule needs from the match as the lock read it (the last writer's): the
    ids of the sides tied on a hand that waits for its settling tick, the seat the host role
    would go to."""

    def checked(locked: StoredMatch | None) -> Done:
        assert locked is not None  # write locks the match it is given
        viewer = viewer_at(locked, post.phone)
        viewer.require(action, side, among(locked) if among else (), to(locked) if to else None)
        return work(viewer)

    return _write(post, checked, match)


def act_as_phone(post: Post, action: PhoneAction, work: Callable[[], Done]) -> Done:
    """A phone's own action, at no match (starting one, moving a history): checked here, as a
    match's action is, after a repeated post is answered "Already recorded."."""

    def checked(_no_match: StoredMatch | None) -> Done:
        if (refused := phone_refusal(action, post.phone)) is not None:
            raise refused
        return work()

    return _write(post, checked)


def act_in_group(
    post: Post,
    locked: Callable[[], GroupViewer],
    action: GroupAction,
    work: Callable[[GroupViewer], Done],
    to: Callable[[], str | None] | None = None,
) -> Done:
    """An action in a group (scoresheet/groups.py group_act), checked here as a match's is:
    after a repeated post is answered, the group locked and the posting phone read as it sees
    it then (`locked`), asked whether it may take `action` (`to`: the phone the host role would
    go to, read under the lock), and only then given to `work`."""

    def checked(_no_match: StoredMatch | None) -> Done:
        viewer = locked()
        viewer.require(action, to() if to else None)
        return work(viewer)

    return _write(post, checked)


def act_on_sides(
    match: StoredMatch, post: Post, sides: Sequence[StoredSide], work: Callable[[Viewer], Done]
) -> Done:
    """The host's one form for the open hand (act): each of `sides` checked in turn, under
    the lock, as its own entry (Action.ENTER) if it is the side this phone holds, else as the
    host's fill of a side no phone holds (Action.FILL)."""

    def checked(locked: StoredMatch | None) -> Done:
        assert locked is not None  # write locks the match it is given
        viewer = viewer_at(locked, post.phone)
        for side in sides:
            own = viewer.side is not None and side.id == viewer.side.id
            viewer.require(Action.ENTER if own else Action.FILL, side)
        return work(viewer)

    return _write(post, checked, match)
