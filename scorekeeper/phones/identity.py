"""Who a phone is: a random token in its signed session cookie, given on the first page it
loads, and the name its player gave last. No accounts, no passwords."""

from __future__ import annotations

import secrets

from flask import Flask, current_app, flash, request, session

from scorekeeper.words import notices


def current_phone() -> str | None:
    """This phone's token, or None if it has never done anything here (or its cookie was forged)."""
    phone = session.get("phone")
    return phone if isinstance(phone, str) and phone else None


def ensure_phone() -> str:
    """This phone's token, made on its first action: long enough that nobody guesses another's."""
    phone = current_phone()
    if phone is None:
        phone = secrets.token_urlsafe(24)
        session["phone"] = phone
        session.permanent = True
    return phone


def become(phone: str, name: str = "") -> None:
    """This browser is the phone with this token from now on (a history opened here, from a
    code its other phone showed: scoresheet/moving.py); `name` is that history's player's,
    offered at the next match if this browser had none. What the cookie kept of the pages
    its old identity was shown (told) goes with it."""
    session["phone"] = phone
    session.permanent = True
    session.pop("seen", None)
    if name and not player_name():
        session["player"] = name


def player_name() -> str:
    """The name this phone's player gave last ("" before they gave one): offered again at the
    next match, so a phone asks once."""
    name = session.get("player")
    return name if isinstance(name, str) else ""


def remember_name(name: str) -> None:
    """Keep the player's name on this phone (in its cookie) for the next match."""
    if name and name != player_name():
        session["player"] = name
        session.permanent = True


# Requests that give no identity: the live part and the match's stream (their page gave it),
# static files, the page's script, the manifest and the service worker (cached, shared by
# every phone), and the operator's figures.
NO_IDENTITY = (
    "static",
    "script",
    "sheet.live",
    "sheet.events",
    "tables.manifest",
    "tables.service_worker",
    "health",
    "metrics",
)


def init_app(app: Flask) -> None:
    """Give a phone its identity on the first page it loads, before it can post anything: a
    post whose answer is lost is resent with the same identity, so a resent claim finds the
    phone seated rather than a side held by an identity no phone has."""

    @app.before_request
    def identify() -> None:
        if request.endpoint in NO_IDENTITY:
            return
        if unreadable_cookie():
            # Its seats are out of reach now: the player should know why this phone holds no
            # side, once, on the next page it is shown (a post's too: its answer writes a
            # readable cookie, which would hide this from the next request).
            flash(
                notices.cookie_unreadable(),
                "notice",
            )
        if request.method == "GET":
            ensure_phone()


def unreadable_cookie() -> bool:
    """Whether this request brought a session cookie the app could not read (signed with
    another key, garbled, expired). Flask then starts an empty session, as for a phone with
    no cookie; a cookie it can read is never empty (Flask drops an emptied one)."""
    return bool(request.cookies.get(current_app.config["SESSION_COOKIE_NAME"])) and not session
