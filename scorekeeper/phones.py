"""A phone's identity: a random token in its signed session cookie. No accounts, no passwords."""

from __future__ import annotations

import secrets
from collections.abc import Callable

from flask import Flask, Request, Response, session
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface, SessionMixin
from itsdangerous import URLSafeTimedSerializer


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


class DeferredSession(SecureCookieSession):
    """A session whose cookie is read only when the view opens it (see PhoneSessions).

    Until opened it is empty, and whatever is written into it is never saved: it can neither
    show nor overwrite the phone's real session.
    """

    def __init__(self, load: Callable[[], SessionMixin | None]) -> None:
        super().__init__()
        self._load = load
        self.opened = False

    def open(self) -> None:
        """Read the cookie now, as Flask would have on arrival."""
        if not self.opened:
            self.opened = True
            # Straight into the dict: loading is not a change to write back.
            dict.update(self, self._load() or {})


class PhoneSessions(SecureCookieSessionInterface):
    """Flask's signed-cookie sessions, except that the live poll opens its cookie only if it
    needs it: most polls are settled by a hash of the cookie as sent (sheet/pages.py), and
    checking its signature was a third of the cost of the request every phone makes every two
    seconds."""

    def open_session(self, app: Flask, request: Request) -> SessionMixin | None:
        if request.method == "GET" and request.path.endswith("/live"):
            return DeferredSession(lambda: super(PhoneSessions, self).open_session(app, request))
        return super().open_session(app, request)

    def get_signing_serializer(self, app: Flask) -> URLSafeTimedSerializer | None:
        """Flask's cookie serializer, made once per app and key instead of twice per request
        (making one signs an empty session to learn what kind of serializer it was given)."""
        keys = (app.secret_key, app.config["SECRET_KEY_FALLBACKS"])
        kept = app.extensions.get("session_serializer")
        if kept is None or kept[0] != keys:
            kept = (keys, super().get_signing_serializer(app))
            app.extensions["session_serializer"] = kept
        return kept[1]

    def save_session(self, app: Flask, session: SessionMixin, response: Response) -> None:
        if isinstance(session, DeferredSession) and not session.opened:
            response.vary.add("Cookie")
            return
        super().save_session(app, session, response)


def open_deferred_session() -> None:
    """Read this request's cookie if it was deferred (the live poll, once it needs the phone)."""
    opened = session._get_current_object()  # type: ignore[attr-defined]
    if isinstance(opened, DeferredSession):
        opened.open()
