"""A phone's identity: a random token in its signed session cookie. No accounts, no passwords."""

from __future__ import annotations

import secrets

from flask import session


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
