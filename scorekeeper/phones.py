"""A phone's identity: a random token in its signed session cookie. No accounts, no passwords."""

from __future__ import annotations

import secrets

from flask import Flask, request, session


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
# static files and the manifest (cached, shared by every phone).
NO_IDENTITY = ("static", "sheet.live", "sheet.events", "tables.manifest")


def init_app(app: Flask) -> None:
    """Give a phone its identity on the first page it loads, before it can post anything: a
    post whose answer is lost is resent with the same identity, so a resent claim finds the
    phone seated rather than a side held by an identity no phone has."""

    @app.before_request
    def identify() -> None:
        if request.method == "GET" and request.endpoint not in NO_IDENTITY:
            ensure_phone()

