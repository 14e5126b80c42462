"""Every bad request answered with a page that says what happened: a refusal at a match (an
action this phone may not take, a side that isn't there, values that can't stand) on that
match's page, anything else on a page of its own."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING

from flask import Flask, make_response, render_template
from flask.sansio.app import App
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_babel import ngettext
from flask_babel.speaklater import LazyString
from flask_wtf.csrf import CSRFError
from sqlalchemy.exc import OperationalError
from werkzeug.exceptions import ClientDisconnected, HTTPException

from scorekeeper import figures
from scorekeeper.extensions import db

if TYPE_CHECKING:
    from scorekeeper.games import EntryFacts
    from scorekeeper.models import StoredMatch

# How long a phone is asked to wait when the database can't be reached.
DATABASE_RETRY_AFTER = 5


class Refusal(Exception):
    """What a phone asked at a match that can't be done, with the words to show it: an action
    it may not take now (403), something that isn't there (404), or a clash with what the
    sheet holds (409). `given_back` is what the player typed, put in the entry form of the
    page that says so, to enter again."""

    def __init__(
        self,
        message: str | LazyString,
        status: int = 403,
        match: StoredMatch | None = None,
        given_back: EntryFacts | None = None,
    ) -> None:
        super().__init__(message)
        self._words = message
        self.status = status
        self.match = match
        self.given_back = given_back

    @property
    def message(self) -> str:
        """The words that say why, in the phone's language. Worded only when read: a page
        asks the permission rules whether (viewer.may) far more often than it shows why, and
        the rules' refusals come lazily worded (phones/rules.py)."""
        return str(self._words)


# The page a refusal at a match is shown on: the match page, drawn by the blueprint that draws
# it, which gives it here as it is registered (show_refusals_on), so this module imports none.
RefusalPage = Callable[[Refusal], ResponseReturnValue]
REFUSAL_PAGE = "scorekeeper.refusal_page"


def show_refusals_on(app: App, page: RefusalPage) -> None:
    """Show the app's refusals at a match on the page this draws (the match page)."""
    app.extensions[REFUSAL_PAGE] = page


def register(app: Flask) -> None:
    """Attach the error pages to the app."""

    @app.errorhandler(Refusal)
    def refused(refusal: Refusal) -> ResponseReturnValue:
        """Show a refusal on the match page the phone was on, so it can carry on from there."""
        figures.refused("action")
        page: RefusalPage | None = app.extensions.get(REFUSAL_PAGE)
        if refusal.match is None or page is None:
            return render_template("error.html", message=refusal.message), refusal.status
        try:
            return page(refusal)
        except OperationalError as error:
            # The connection dropped while the page was read: nothing was saved either way,
            # and "try again" brings the refusal back with its page (database_unreachable).
            db.session.rollback()
            return app.handle_user_exception(error)

    @app.errorhandler(OperationalError)
    def database_unreachable(error: OperationalError) -> ResponseReturnValue:
        """The database is down or dropped the connection: nothing was saved (a write's
        transaction never committed), and the phone is told to try again shortly."""
        app.logger.warning("database unreachable: %s", error.orig)
        message = ngettext(
            "The score sheet can't be reached for a moment, so nothing was saved. "
            "Try again in %(num)d second: your scores are safe.",
            "The score sheet can't be reached for a moment, so nothing was saved. "
            "Try again in %(num)d seconds: your scores are safe.",
            DATABASE_RETRY_AFTER,
        )
        response = make_response(render_template("error.html", message=message), 503)
        response.headers["Retry-After"] = str(DATABASE_RETRY_AFTER)
        return response

    @app.errorhandler(CSRFError)
    def csrf_failed(error: CSRFError) -> ResponseReturnValue:
        """A post without a valid security token: an old page or a forged form."""
        figures.refused("csrf")
        message = _(
            "This page was out of date, so nothing was saved. "
            "Go back, reload the page and try again."
        )
        # Marked, so a phone resending a kept entry knows to fetch a fresh token (js/outbox.js).
        return render_template("error.html", message=message, refusal="csrf"), 400

    @app.errorhandler(ClientDisconnected)
    def too_slow(error: ClientDisconnected) -> ResponseReturnValue:
        """A body that stopped arriving (the worker's client timeout, gunicorn.conf.py) or was
        cut: 408, which tells a phone's outbox to keep the post and send it again (js/outbox.js)."""
        message = _("The connection was too slow to send it all, so nothing was saved. Try again.")
        return render_template("error.html", message=message), 408

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> ResponseReturnValue:
        """Not found, too many tries, wrong method: a page in our own words."""
        code = error.code or 500
        figures.refused_status(code)
        if code == 400:
            message = _(
                "That request could not be read, so nothing was saved. "
                "Go back, reload the page and try again."
            )
        elif code == 404:
            message = _("There is nothing here. Check the code or the link.")
        elif code == 405:
            message = _("That page only answers a form.")
        elif code == 413:
            message = _(
                "That was far more than any form here sends, so nothing was saved. "
                "Go back and try again."
            )
        elif code == 415:
            # A post that is not a form (edges.only_forms): a script, not this app's pages.
            message = _(
                "Only the forms on these pages can be sent here, so nothing was saved. "
                "Go back, reload the page and try again."
            )
        elif code == 429:
            message = _("Too many tries in a short time. Wait a minute, then try again.")
        elif code >= 500:
            message = _("Something went wrong on our side. Wait a moment, then try again.")
        else:
            # Werkzeug's own description is English only: ours says it in the phone's language.
            message = _("Something went wrong.")
        retry_after = getattr(error, "retry_after", None)
        if retry_after is not None:
            # The wait in plain words, as the header says it to a browser and a proxy.
            minutes = max(1, math.ceil(int(retry_after) / 60))
            message = ngettext(
                "Too many codes that match nothing from here. Wait %(num)d minute, then try again.",
                "Too many codes that match nothing from here. "
                "Wait %(num)d minutes, then try again.",
                minutes,
            )
        response = make_response(render_template("error.html", message=message), code)
        if retry_after is not None:
            response.headers["Retry-After"] = str(int(retry_after))
        return response
