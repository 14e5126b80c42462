"""A player's history on another phone: a phone shows a one-time code (and a QR code of a link
carrying it), and the browser that opens it becomes the same player, with every match, seat
and record. No accounts, no passwords: a phone is the token in its cookie (phones/identity.py),
so becoming the same player is carrying the same token. A browser that had matches of its own
brings them along: its seats move to that token, and both keep one history.

A code is 8 of the 31 signs match codes use (models.CODE_ALPHABET): 852,891,037,441 codes.
It works once, for HISTORY_CODE_MINUTES (5 by default). Even with 1,000 codes working at
once (12,000 moves an hour), a guess finds one with odds of 1 in 852,891,037; and every code
that finds nothing counts as a miss against the asking address, as a match code does
(guesses.py), so at the default limit an address guesses at most 14,600 codes a year: one
hit every 58,000 years.

Stored as a hash keyed with the app's secret: the table alone names no working code.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import timedelta

import sqlalchemy as sa
import sqlalchemy.orm as so
from flask import current_app

from scorekeeper.errors import Refusal
from scorekeeper.extensions import db
from scorekeeper.models import (
    CODE_ALPHABET,
    Correction,
    Entry,
    Hand,
    HistoryCode,
    Match,
    Seat,
    normalise_code,
    utcnow,
)
from scorekeeper.phones.rules import PhoneAction
from scorekeeper.scoresheet.writing import Done, Post, act_as_phone, bump
from scorekeeper.words import moving as words

CODE_LENGTH = 8
# A code nobody used is kept a day after it stopped working, so a late try is told it
# expired rather than that no history has it; a used one as long as a phone's cookie lasts,
# so the phone that showed it is told, whenever it comes back, that its history was opened.
KEPT_UNUSED = timedelta(days=1)
KEPT_USED = timedelta(days=365)


class UnknownCode(Refusal):
    """A code no history has: a miss, counted against the address (guesses.count_miss)."""


@dataclass(frozen=True)
class Joined:
    """What opening a code did, and the phone this browser is from now on (the history's)."""

    done: Done
    phone: str
    # The code used, so this browser is not told its own opening of it (last_opened).
    code_id: int


def digest_of(code: str) -> str:
    """A code as stored: its hash keyed with the app's secret."""
    key = str(current_app.config["SECRET_KEY"]).encode()
    return hmac.new(key, normalise_code(code).encode(), hashlib.sha256).hexdigest()


def code_for(key: str | None) -> str:
    """The code a post makes: drawn from the post's idempotency key and the app's secret, so a
    double tap (its answers arrive in any order) shows the one code that was stored; a fresh
    draw for a post without a key."""
    if not key:
        return "".join(secrets.choice(CODE_ALPHABET) for _sign in range(CODE_LENGTH))
    secret = str(current_app.config["SECRET_KEY"]).encode()
    number = int.from_bytes(hmac.new(secret, b"history-code:" + key.encode(), "sha256").digest())
    signs = []
    for _sign in range(CODE_LENGTH):
        number, sign = divmod(number, len(CODE_ALPHABET))
        signs.append(CODE_ALPHABET[sign])
    return "".join(signs)


def shown(code: str) -> str:
    """A code as a phone shows it, in two groups of four: read off one screen, typed on another."""
    half = len(code) // 2
    return f"{code[:half]}-{code[half:]}"


def minutes() -> int:
    """How long a code works."""
    return int(current_app.config["HISTORY_CODE_MINUTES"])


def make_code(post: Post) -> tuple[str, Done]:
    """A new code for this phone's history, working for a few minutes, once; any earlier code
    of this phone stops working (one at a time)."""
    code = code_for(post.key)
    phone = post.phone or ""

    def work() -> Done:
        now = utcnow()
        db.session.execute(
            sa.delete(HistoryCode).where(
                sa.or_(
                    sa.and_(
                        HistoryCode.used_at.is_(None), HistoryCode.expires_at < now - KEPT_UNUSED
                    ),
                    HistoryCode.used_at < now - KEPT_USED,
                )
            )
        )
        db.session.execute(
            sa.update(HistoryCode)
            .where(
                HistoryCode.phone == phone,
                HistoryCode.used_at.is_(None),
                HistoryCode.expires_at > now,
            )
            .values(expires_at=now)
        )
        db.session.add(
            HistoryCode(
                digest=digest_of(code),
                phone=phone,
                made_at=now,
                expires_at=now + timedelta(minutes=minutes()),
            )
        )
        return Done(words.open_within(minutes()))

    return code, act_as_phone(post, PhoneAction.SHOW_HISTORY_CODE, work)


def code_made(code: str, phone: str | None) -> HistoryCode | None:
    """This phone's code as stored (when it stops working, when it was used), or None if it
    is not this phone's, or long gone."""
    if phone is None:
        return None
    return db.session.scalar(
        sa.select(HistoryCode).where(
            HistoryCode.digest == digest_of(code), HistoryCode.phone == phone
        )
    )


def is_working(code: HistoryCode) -> bool:
    """Whether a stored code can still be opened."""
    return code.used_at is None and code.expires_at > utcnow()


def last_opened(phone: str) -> HistoryCode | None:
    """The last of this phone's codes that another browser opened, if any."""
    return db.session.scalar(
        sa.select(HistoryCode)
        .where(HistoryCode.phone == phone, HistoryCode.used_at.is_not(None))
        .order_by(HistoryCode.used_at.desc(), HistoryCode.id.desc())
        .limit(1)
    )


def history_size(phone: str) -> int:
    """How many matches a phone's history lists."""
    counted = sa.select(sa.func.count()).where(Seat.phone == phone, Seat.listed.is_(True))
    return db.session.scalar(counted) or 0


def last_name(phone: str) -> str:
    """The name this phone's player gave last at a match ("" if none)."""
    name = db.session.scalar(
        sa.select(Seat.player)
        .where(Seat.phone == phone, Seat.player != "")
        .order_by(Seat.joined_at.desc(), Seat.id.desc())
        .limit(1)
    )
    return name or ""


def join_history(code: str, post: Post) -> Joined:
    """The posting browser becomes the player whose phone showed this code: the code is used
    up, and the browser's own seats (if any) move to that history, in one transaction."""
    digest = digest_of(code)

    def work() -> Done:
        now = utcnow()
        # Taken by the statement that uses it: two browsers opening one code, one gets it.
        used = db.session.execute(
            sa.update(HistoryCode)
            .where(
                HistoryCode.digest == digest,
                HistoryCode.used_at.is_(None),
                HistoryCode.expires_at > now,
            )
            .values(used_at=now)
            .returning(HistoryCode.phone)
        ).first()
        if used is None:
            raise _not_working(digest, code)
        into = used.phone
        if into == post.phone:
            raise Refusal(words.kept_here_already(), 409)
        rings: tuple[tuple[str, int], ...] = ()
        if post.phone:
            # A code this browser showed for its old self would open a history that is gone.
            db.session.execute(
                sa.update(HistoryCode)
                .where(
                    HistoryCode.phone == post.phone,
                    HistoryCode.used_at.is_(None),
                    HistoryCode.expires_at > now,
                )
                .values(expires_at=now)
            )
            rings = _merge(post.phone, into)
        count = history_size(into)
        message = words.histories_joined(count) if rings else words.history_moved(count)
        return Done(message, rings=rings)

    done = act_as_phone(post, PhoneAction.TAKE_HISTORY, work)
    # Read after the write, for a repeated post too (a double tap: the first one used it).
    stored = db.session.scalars(sa.select(HistoryCode).where(HistoryCode.digest == digest)).one()
    return Joined(done, stored.phone, stored.id)


def _not_working(digest: str, code: str) -> Refusal:
    """Why a code cannot be opened: nobody's, used already, or no longer working."""
    found = db.session.execute(
        sa.select(HistoryCode.used_at).where(HistoryCode.digest == digest)
    ).first()
    if found is None:
        return UnknownCode(words.unknown(code), 404)
    if found.used_at is not None:
        return Refusal(words.opened_already(), 410)
    return Refusal(words.no_longer_works(minutes()), 410)


def _merge(joining: str, into: str) -> tuple[tuple[str, int], ...]:
    """Move every seat of the `joining` phone to the `into` phone's history, and the marks it
    left at those matches (the host role, the entries and corrections it made, whose names
    the sheet finds through the seats); the matches' new versions, to ring.

    Where both phones sat at one match (a unique constraint: one seat per phone per match),
    one seat stays: the one holding a side, else the history's own; it keeps the match listed
    if either did, and a name if either gave one. Both holding a side (a player who kept two
    sides, or one side on two phones), the history's seat stays, and a side only the joining
    seat held is free again, for the host to fill as a side no phone holds."""
    at = list(db.session.scalars(sa.select(Seat.match_id).where(Seat.phone == joining)))
    if not at:
        return ()
    # The matches' locks first, as every action takes them before it writes.
    rings = bump(Match.id.in_(at))
    theirs = so.aliased(Seat)
    both = db.session.execute(
        sa.select(Seat, theirs)
        .join(theirs, sa.and_(theirs.match_id == Seat.match_id, theirs.phone == into))
        .where(Seat.phone == joining)
    ).all()
    for mine, kept in both:
        if mine.side_id is not None and kept.side_id is None:
            mine, kept = kept, mine
        kept.listed = kept.listed or mine.listed
        kept.player = kept.player or mine.player
        if kept.side_id is None and kept.released_from is None:
            kept.released_from = mine.released_from
        db.session.delete(mine)
    db.session.flush()
    db.session.execute(sa.update(Seat).where(Seat.phone == joining).values(phone=into))
    db.session.execute(
        sa.update(Match)
        .where(Match.id.in_(at), Match.host_phone == joining)
        .values(host_phone=into)
    )
    hands = sa.select(Hand.id).where(Hand.match_id.in_(at))
    db.session.execute(
        sa.update(Entry)
        .where(Entry.hand_id.in_(hands), Entry.entered_by == joining)
        .values(entered_by=into)
    )
    db.session.execute(
        sa.update(Correction)
        .where(Correction.match_id.in_(at), Correction.by_phone == joining)
        .values(by_phone=into)
    )
    return rings
