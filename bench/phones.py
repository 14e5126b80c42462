"""Phones as the bench drives them: a session cookie signed with the app's own key, and a CSRF
token that matches it, so a request needs no page fetched first."""

from __future__ import annotations

from dataclasses import dataclass

from flask import Flask, session
from flask_wtf.csrf import generate_csrf


@dataclass(frozen=True)
class SignedPhone:
    """One phone's identity on the wire."""

    token: str
    # `name=value` for a Cookie header.
    cookie: str
    # The signed CSRF token its forms carry.
    csrf: str

    @property
    def cookie_value(self) -> str:
        """The session cookie's value alone, for a test client."""
        return self.cookie.split("=", 1)[1]


def signed_phone(app: Flask, token: str) -> SignedPhone:
    """The cookie this app would have given the phone `token`, with a CSRF token in it."""
    # A request context runs the app's own session and Flask-WTF code: same keys, same salt.
    with app.test_request_context():
        session["phone"] = token
        session.permanent = True
        csrf = generate_csrf()
        data = dict(session)
    signed = app.session_interface.get_signing_serializer(app).dumps(data)  # type: ignore[attr-defined]
    return SignedPhone(
        token=token, cookie=f"{app.config['SESSION_COOKIE_NAME']}={signed}", csrf=csrf
    )
