"""The match page and its live part, worked out once per version of a match and place at it.

The phones at a table ask for the same sheet over and over, and between two writes it cannot
change: every write bumps the match's version (sheet/actions.py). So each worker keeps, for each
match, the newest version's pages as each place at the table sees them (a side's phones, the
host, a watcher, a phone not at the table yet) and serves them again until the version moves
on. What differs between two phones in one place (the CSRF token, a fresh idempotency key per
form, flash messages, the ETag) is left in the kept page as a slot, filled for each request.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from flask import Flask, current_app, render_template, request, session
from flask_wtf.csrf import generate_csrf
from markupsafe import Markup
from werkzeug.datastructures import ETags

from scorekeeper.sheet.forms import new_key
from scorekeeper.versions import NewestByMatch

# Every player's text is escaped on the way into a page, so "<!--" can only come from the
# templates themselves: a slot can never be forged by a side's name.
SLOT_CSRF = "<!--slot:csrf-->"
SLOT_KEY = "<!--slot:key-->"
SLOT_FLASHES = "<!--slot:flashes-->"
SLOT_ETAG = "<!--slot:etag-->"

# What a one-button form or the entry form carries besides its own fields.
FORM_SECRETS = Markup(
    f'<input type="hidden" name="csrf_token" value="{SLOT_CSRF}">'
    f'<input type="hidden" name="key" value="{SLOT_KEY}">'
)

# Matches whose pages a worker keeps; the least recently asked for are dropped first.
MAX_MATCHES = 1000


def place_of(phone: str | None, host_phone: str, seats: dict[str, int | None]) -> str:
    """Where a phone is at a match, as far as its pages go: its side, watching, or not there;
    and whether it holds the host role."""
    if phone is None or phone not in seats:
        where = "-"
    else:
        side_id = seats[phone]
        where = "w" if side_id is None else str(side_id)
    return where + ("h" if phone is not None and phone == host_phone else "")


def cookie_tag() -> str:
    """This phone's session cookie as sent, hashed (not decoded: decoding it was a quarter of
    the cost of the poll every phone makes every two seconds)."""
    cookie = request.cookies.get(current_app.config["SESSION_COOKIE_NAME"])
    return hashlib.blake2s(cookie.encode(), digest_size=6).hexdigest() if cookie else "-"


def etag_for(version: int, place: str) -> str:
    """What one phone's view of a match depends on: the match's version and the phone's place
    at it (the kept page's key), then the tag of the cookie it came with.

    While the cookie is the same, so is the phone, and its place cannot change without a write:
    a poll is then settled by the version alone, without reading the cookie.
    """
    return f"{version}.{place}.{cookie_tag()}"


@dataclass(frozen=True)
class SentTag:
    """An ETag a phone sent back, as etag_for made it."""

    version: int
    place: str
    cookie: str


def sent_tags(etags: ETags) -> list[SentTag]:
    """The ETags a phone sent back that this app made; anything else is ignored."""
    sent = []
    for etag in etags.as_set():
        version, place, cookie = (etag.split(".") + ["", "", ""])[:3]
        if version.isdigit() and place and cookie:
            sent.append(SentTag(int(version), place, cookie))
    return sent


@dataclass
class KeptVersion:
    """One match at one version: who sits where, and its pages as each place sees them."""

    version: int
    host_phone: str
    seats: dict[str, int | None]
    # (template, place) -> the rendered page with its slots.
    pages: dict[tuple[str, str], str] = field(default_factory=dict)

    def place(self, phone: str | None) -> str:
        """This phone's place at the match at this version."""
        return place_of(phone, self.host_phone, self.seats)


class PageStore(NewestByMatch[KeptVersion]):
    """The newest kept version of each recently seen match, for one app in one worker."""

    def __init__(self, max_matches: int = MAX_MATCHES) -> None:
        super().__init__(max_matches)


def personalise(page: str, etag: str) -> str:
    """Fill a page's slots for this request's phone."""
    if SLOT_CSRF in page:
        page = page.replace(SLOT_CSRF, generate_csrf())
    if SLOT_KEY in page:
        # Each form its own key: a double tap resends one form's key, two forms never share.
        pieces = page.split(SLOT_KEY)
        page = "".join(piece + new_key() for piece in pieces[:-1]) + pieces[-1]
    page = page.replace(SLOT_ETAG, etag)
    if SLOT_FLASHES in page:
        # Only a page right after a post has any: rendering them is then worth its cost.
        flashes = render_template("_flashes.html") if has_flashes() else ""
        page = page.replace(SLOT_FLASHES, flashes)
    return page


def has_flashes() -> bool:
    """Whether this request follows a post whose message is waiting to be shown."""
    return bool(session.get("_flashes"))


def init_app(app: Flask) -> None:
    """Give the app its page store, and the templates their slots."""
    app.extensions["match_pages"] = PageStore()
    app.add_template_global(FORM_SECRETS, "form_secrets")
    app.add_template_global(Markup(SLOT_FLASHES), "flashes_slot")
    app.add_template_global(Markup(SLOT_ETAG), "etag_slot")


def page_store() -> PageStore:
    """The current app's page store."""
    store: PageStore = current_app.extensions["match_pages"]
    return store
