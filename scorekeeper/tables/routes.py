"""Setting up a table: the home page, creating a match, joining by code or link."""

from __future__ import annotations

import functools
import hashlib
import json
import os
from pathlib import Path

import sqlalchemy as sa
from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_babel import force_locale
from flask_babel import gettext as _

from scorekeeper import figures
from scorekeeper import live as live_layer
from scorekeeper.errors import Refusal
from scorekeeper.forms import post_of
from scorekeeper.games import GAMES
from scorekeeper.languages import LANGUAGES, direction, language
from scorekeeper.matches import find_match, read_matches
from scorekeeper.minified import minified
from scorekeeper.models import CODE_LENGTH, Match, Seat, StoredMatch, normalise_code
from scorekeeper.new_matches import refused_new_match
from scorekeeper.phones.identity import current_phone, ensure_phone, player_name, remember_name
from scorekeeper.scoresheet.groups import groups_of, read_group
from scorekeeper.scoresheet.setup import NewMatch, SetupError, create_match
from scorekeeper.tables.forms import JoinForm, fields, new_match_form

bp = Blueprint("tables", __name__)


# Home offers this many of the phone's unfinished matches (History lists them all).
RESUMABLE = 5


def unfinished_matches() -> list[StoredMatch]:
    """This phone's open matches, newest first, with their sides: one tap back into each."""
    phone = current_phone()
    if phone is None:
        return []
    ids = (
        sa.select(Seat.match_id)
        .where(Seat.phone == phone, Seat.match_open.is_(True), Seat.listed.is_(True))
        .order_by(Seat.match_created_at.desc(), Seat.match_id.desc())
        .limit(RESUMABLE)
    )
    return read_matches(Match.id.in_(ids), Match.created_at.desc(), Match.id.desc())


def _home(join_form: JoinForm) -> str:
    """The home page with this join form (blank, or with what was typed and why it failed)."""
    return render_template(
        "tables/home.html",
        join_form=join_form,
        games=GAMES.values(),
        game_names={key: game.name for key, game in GAMES.items()},
        unfinished=unfinished_matches(),
        groups=groups_of(current_phone()),
    )


@bp.get("/")
def home() -> str:
    """Start: resume an unfinished match, start a new one, or join one by its code."""
    return _home(JoinForm())


@bp.post("/join")
def join() -> ResponseReturnValue:
    """Look a typed code up and open its match."""
    form = JoinForm()
    if form.validate_on_submit():
        code = normalise_code(form.code.data or "")
        # A group's code opens its page (a group's code is never a match's: groups.py).
        group = read_group(code) if len(code) == CODE_LENGTH else None
        if group is not None:
            return redirect(url_for("groups.group", code=group.code))
        match = find_match(code) if len(code) == CODE_LENGTH else None
        if match is not None:
            return redirect(url_for("sheet.match", code=match.code))
        form.code.errors.append(
            # NOTE: %(code)s is the code as it was typed, between quotes.
            _(
                "No match or group has the code %(code)s. Check it on the host's phone.",
                code=repr(code or form.code.data),
            )
        )
    return _home(form), 400


@bp.get("/j/<code>")
def join_link(code: str) -> ResponseReturnValue:
    """The link in the QR code: open the match (any case, dashes or spaces in the code)."""
    typed = normalise_code(code)
    match = find_match(typed) if len(typed) == CODE_LENGTH else None
    if match is None:
        abort(404)
    return redirect(url_for("sheet.match", code=match.code))


@bp.route("/new/<game_key>", methods=["GET", "POST"])
def new_match(game_key: str) -> ResponseReturnValue:
    """Create a match: table, target, table rules and names; then on to its sheet."""
    game = GAMES.get(game_key)
    if game is None:
        abort(404)
    form = new_match_form(game)
    if form.validate_on_submit():
        too_many = refused_new_match(current_phone())
        if too_many is not None:
            page = render_template(
                "tables/new.html", form=form, game=game, fields=fields, error=too_many.message
            )
            return too_many.answer(page)
        host_side = int(form.host_side.data)
        choice = NewMatch(
            table_format=form.table_format.data,
            target=int(form.target.data),
            rules={f.name.removeprefix("rule_"): f.data for f in fields(form, "rule_")},
            names=list(
                zip(
                    [f.data or "" for f in fields(form, "side_")],
                    [f.data or "" for f in fields(form, "players_")],
                    strict=True,
                )
            ),
            host_side=host_side if host_side >= 0 else None,
            host_player=form.player.data or "",
        )
        try:
            done = create_match(game, choice, post_of(form, ensure_phone()))
        except SetupError as error:
            form[error.field].errors.append(error.reason)
        except Refusal as refusal:
            figures.refused("action")
            # Its key came before with other values: said on the form, with nothing made.
            form.table_format.errors.append(refusal.message)
        else:
            remember_name(form.player.data or "")
            return redirect(url_for("sheet.match", code=done.go_to))
    elif not form.is_submitted():
        form.player.data = player_name()
    status = 400 if request.method == "POST" else 200
    return render_template("tables/new.html", form=form, game=game, fields=fields), status


# The app's colours as the stylesheet has them (light): the phone paints its bar and splash so.
THEME_COLOUR, BACKGROUND_COLOUR = "#0b6e4f", "#f7f6f2"


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    """The web app manifest: "Add to Home screen" gives a launcher that opens Home full screen,
    named in the language its URL names (every page links the one of the language it is in)."""
    picked = request.args.get("lang", "")
    words = picked if picked in LANGUAGES else language()
    icon = functools.partial(url_for, "static")
    with force_locale(words):
        name, blurb = _("Scorekeeper"), _("The score sheet for card games at a real table.")
    body = {
        "name": name,
        "short_name": name,
        "description": blurb,
        "lang": words,
        "dir": direction(words),
        # Opened from the home screen: this phone's last match (Home if it has none), kept by
        # the service worker for when there is no connection.
        "start_url": url_for("history.last_match"),
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND_COLOUR,
        "icons": [
            {"src": icon(filename="icon-192.png"), "sizes": "192x192", "type": "image/png"},
            {"src": icon(filename="icon-512.png"), "sizes": "512x512", "type": "image/png"},
            {
                "src": icon(filename="icon-maskable-512.png"),
                "sizes": "512x512",
                "type": "image/png",
                "purpose": "maskable",
            },
            {"src": icon(filename="favicon.svg"), "sizes": "any", "type": "image/svg+xml"},
        ],
    }
    response = Response(json.dumps(body, ensure_ascii=False), mimetype="application/manifest+json")
    # Asked for without ?lang (an old link), it is in the phone's language.
    response.vary.add("Accept-Language")
    response.headers["Cache-Control"] = "public, max-age=86400"
    return response


# The service worker's code, beside the view that serves it and not in static/: it is served
# only from the root, whose pages it keeps (a worker's scope is at most the folder it is served
# from), and told its release; so neither the static files nor the list it fetches need to
# leave it out. Package data (pyproject.toml).
SERVICE_WORKER = Path(__file__).with_name("sw.js")


# The worker's code as served, made once a process for its release (a release's worker never
# changes): every navigation may ask for it, and is answered from here, or with a 304.
_workers: dict[str, tuple[str, str]] = {}


@bp.get("/sw.js")
def service_worker() -> Response:
    """The service worker (sw.js, beside this module), told the release it belongs to and the
    fingerprinted URL of every static file a page loads, which it fetches as it installs: a
    release changes its bytes, so every phone installs the new one on its next page and drops
    the old release's files."""
    release = live_layer.of().release
    if release not in _workers:
        folder = current_app.static_folder or ""
        # Not the home screen's icons (PNG): the phone fetches them when it installs the app
        # and no page shows them, and on a slow 3G their 52 KB would be fetched beside the
        # live part just after the first visit.
        names = sorted(
            name
            for name in os.listdir(folder)
            if not name.endswith(".png") and os.path.isfile(os.path.join(folder, name))
        )
        files = [url_for("static", filename=name) for name in names]
        files += [
            url_for("script", name=name) for name in sorted(os.listdir(os.path.join(folder, "js")))
        ]
        code = minified(str(SERVICE_WORKER)).body.decode()
        told = f"const RELEASE = {json.dumps(release)};\nconst FILES = {json.dumps(files)};\n"
        body = told + code
        _workers[release] = (body, hashlib.blake2s(body.encode(), digest_size=8).hexdigest())
    body, tag = _workers[release]
    response = Response(body, mimetype="text/javascript")
    # Asked again on every page (browsers check at most daily anyway): a 304 while the same.
    response.headers["Cache-Control"] = "no-cache"
    response.set_etag(tag)
    response.make_conditional(request)
    return response
