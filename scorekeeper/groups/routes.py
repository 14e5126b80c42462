"""A group's pages and every action in it: its standings by season and game, its QR code, its
TV view, print and exports, New match from its roster, and the host's tools."""

from __future__ import annotations

import csv
import io
import json
from functools import lru_cache

import sqlalchemy as sa
from flask import Blueprint, Response, abort, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from markupsafe import Markup

from scorekeeper import figures
from scorekeeper.errors import Refusal
from scorekeeper.extensions import db
from scorekeeper.forms import post_of
from scorekeeper.games import GAMES
from scorekeeper.groups import exports
from scorekeeper.groups.forms import (
    GroupNameForm,
    PickForm,
    PlayerForm,
    group_match_form,
    seat_name,
)
from scorekeeper.groups.page import chances_now, members, offered_names, season_matches, trail
from scorekeeper.groups.ratings_chart import rating_chart
from scorekeeper.guesses import count_miss, refuse, used_up
from scorekeeper.matches import match_or_404
from scorekeeper.models import CODE_LENGTH, RosterPlayer, StoredGroup
from scorekeeper.new_matches import refused_new_match
from scorekeeper.phones.group_rules import GroupAction
from scorekeeper.phones.identity import current_phone, ensure_phone
from scorekeeper.qr import qr_svg
from scorekeeper.scoresheet import groups
from scorekeeper.scoresheet.ratings import START
from scorekeeper.scoresheet.setup import NewMatch, SetupError
from scorekeeper.scoresheet.standings import LEAST_TO_RANK, read_standings
from scorekeeper.scoresheet.writing import Done

bp = Blueprint("groups", __name__, url_prefix="/g")


@bp.context_processor
def _group_pages() -> dict[str, object]:
    """What every page of a group asks: the games by key, the fewest matches to be ranked."""
    return {"games": GAMES, "least": LEAST_TO_RANK}


@bp.app_template_global()
def kept_in_group(match_id: int) -> bool:
    """Whether an ended match is kept in a group already (its page then offers no other)."""
    return groups.in_a_group(match_id)


def find_group(code: str) -> StoredGroup | None:
    """The group with this code (callers normalise what was typed); a miss counts against
    the asking address, as a match's code does (guesses.py)."""
    group = groups.read_group(code) if len(code) == CODE_LENGTH else None
    if group is None:
        count_miss()
    elif (wait := used_up()) is not None and not groups.group_viewer(group, current_phone()).joined:
        refuse(wait)
    return group


def group_or_404(code: str) -> StoredGroup:
    """The group for a code in a URL, or 404."""
    group = find_group(code.upper())
    if group is None:
        abort(404)
    return group


def _season(group: StoredGroup) -> int:
    """The season the page asks for (?season=N), the current one if none or junk."""
    season = request.args.get("season", type=int)
    return season if season is not None and 1 <= season <= group.season else group.season


def _game() -> str | None:
    """The game whose standings the page asks for (?game=<its key>); None: all games."""
    game = request.args.get("game")
    return game if game in GAMES else None


@lru_cache(maxsize=256)
def _qr_code(link: str) -> Markup:
    """A group's link as a QR code (a pure function of the link)."""
    return qr_svg(link)


def _link(group: StoredGroup) -> str:
    """The group's link, on the address this phone opened the app by."""
    return url_for("groups.group", code=group.code, _external=True)


def render_group(
    group: StoredGroup, *, error: str | None = None, status: int = 200
) -> ResponseReturnValue:
    """The group's page: who this phone is there, the matches playing now, the standings of
    the season and game asked for, the season's matches, and the host's tools."""
    viewer = groups.group_viewer(group, current_phone())
    season = _season(group)
    standings = read_standings(group, season, scope=_game())
    listed = season_matches(group, season)
    playing = [one.match for one in listed if one.match.is_open]
    roster = [(pid, name) for pid, (name, left) in standings.roster.items() if not left]
    page = render_template(
        "groups/group.html",
        group=group,
        viewer=viewer,
        # What this phone may do in the group, as the rules answer now (they decide again,
        # under the lock, when one is posted).
        offers=frozenset(action for action in GroupAction if viewer.may(action)),
        standings=standings,
        scope=standings.scope(_game()) or standings.scopes[0],
        season=season,
        listed=listed,
        chances=chances_now(group, playing) if season == group.season else {},
        roster=roster,
        members=members(group, viewer.phone) if viewer.is_host else [],
        offered=offered_names(group, [name for name, _left in standings.roster.values()])
        if viewer.is_host
        else [],
        trail=trail(group),
        error=error,
    )
    return page, status


@bp.get("/<code>")
def group(code: str) -> ResponseReturnValue:
    """A group's page, by its code or QR code."""
    return render_group(group_or_404(code))


@bp.get("/<code>/qr")
def qr(code: str) -> str:
    """The group's QR code full screen, for the table to scan."""
    group = group_or_404(code)
    return render_template("groups/qr.html", group=group, qr_svg=_qr_code(_link(group)))


@bp.get("/<code>/tv")
def tv(code: str) -> str:
    """The standings for a TV between matches: the season's, all games, big."""
    group = group_or_404(code)
    standings = read_standings(group)
    return render_template(
        "groups/tv.html", group=group, standings=standings, scope=standings.scopes[0]
    )


@bp.get("/<code>/print")
def printed(code: str) -> str:
    """The standings on one printed page: the season's players, partners and head to head."""
    group = group_or_404(code)
    standings = read_standings(group, _season(group), scope=_game())
    return render_template(
        "groups/print.html",
        group=group,
        standings=standings,
        scope=standings.scope(_game()) or standings.scopes[0],
        least=LEAST_TO_RANK,
    )


@bp.get("/<code>/ratings")
def rating_page(code: str) -> str:
    """Each player's rating over the season, as a chart."""
    group = group_or_404(code)
    season = _season(group)
    standings = read_standings(group, season)
    return render_template(
        "groups/ratings.html",
        group=group,
        standings=standings,
        season=season,
        chart=rating_chart(group, season, standings) if group.rated else None,
        start=START,
    )


@bp.get("/<code>/standings.csv")
def export_csv(code: str) -> Response:
    """The season's standings as a spreadsheet: a line a player a game, and all games."""
    group = group_or_404(code)
    standings = read_standings(group, _season(group), every_scope=True)
    out = io.StringIO()
    csv.writer(out).writerows(exports.standings_rows(standings))
    return _download(
        out.getvalue(), "text/csv; charset=utf-8", f"scorekeeper-group-{group.code}.csv"
    )


@bp.get("/<code>/standings.json")
def export_json(code: str) -> Response:
    """The season's standings and its matches as JSON, for keeping."""
    group = group_or_404(code)
    standings = read_standings(group, _season(group), every_scope=True, with_matches=True)
    text = json.dumps(exports.standings_json(standings), ensure_ascii=False, indent=1)
    return _download(
        text, "application/json; charset=utf-8", f"scorekeeper-group-{group.code}.json"
    )


def _download(text: str, kind: str, filename: str) -> Response:
    """A file for the phone to save."""
    response = Response(text)
    response.headers["Content-Type"] = kind
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _answer(group: StoredGroup, done: Done) -> ResponseReturnValue:
    """After a post: say what happened, and back to the group's page (post/redirect/get)."""
    if done.message:
        flash(done.message, "repeated" if done.repeated else "done")
    return redirect(url_for("groups.group", code=group.code))


def _carried(group: StoredGroup, action: object) -> ResponseReturnValue:
    """Carry out a group action; a refusal is said on the group's page, nothing changed."""
    try:
        done = action()  # type: ignore[operator]
    except Refusal as refusal:
        figures.refused("action")
        return render_group(group, error=refusal.message, status=refusal.status)
    return _answer(group, done)


def _invalid(
    group: StoredGroup, form: PickForm | PlayerForm | GroupNameForm
) -> ResponseReturnValue:
    """A form that came back wrong: its first error, on the group's page."""
    errors = [str(error) for field_errors in form.errors.values() for error in field_errors]
    message = errors[0] if errors else _("Reload the page.")
    return render_group(group, error=message, status=400)


@bp.post("/new")
def start() -> ResponseReturnValue:
    """Start a group from Home: this phone hosts it."""
    form = GroupNameForm()
    if not form.validate_on_submit():
        message = next((str(e) for errors in form.errors.values() for e in errors), "")
        flash(message or _("Reload the page."), "error")
        return redirect(url_for("tables.home"))
    post = post_of(form, ensure_phone())
    try:
        done = groups.create_group(post, form.name.data or "")
    except Refusal as refusal:
        flash(refusal.message, "error")
        return redirect(url_for("tables.home"))
    code = done.go_to or groups.made_by(post.key)
    if code is None:
        abort(404)
    if done.message:
        flash(done.message, "repeated" if done.repeated else "done")
    return redirect(url_for("groups.group", code=code))


@bp.post("/from/<code>")
def keep(code: str) -> ResponseReturnValue:
    """Keep an ended match's table as a group: its players in the roster."""
    match = match_or_404(code)
    form = PickForm()
    post = post_of(form, ensure_phone())
    done = groups.keep_as_group(match, post)
    made = done.go_to or groups.made_by(post.key)
    if made is None:
        abort(404)
    flash(done.message, "repeated" if done.repeated else "done")
    return redirect(url_for("groups.group", code=made))


@bp.post("/<code>/join")
def join(code: str) -> ResponseReturnValue:
    """This phone joins the group, and says which player it is if it picked one."""
    group = group_or_404(code)
    form = PickForm()
    if not form.validate_on_submit():
        return _invalid(group, form)
    post = post_of(form, ensure_phone())
    return _carried(group, lambda: groups.join_group(group, post, form.target.data))


@bp.post("/<code>/leave")
def leave(code: str) -> ResponseReturnValue:
    """This phone leaves the group."""
    group = group_or_404(code)
    form = PickForm()
    if not form.validate_on_submit():
        return _invalid(group, form)
    try:
        done = groups.leave_group(group, post_of(form))
    except Refusal as refusal:
        return render_group(group, error=refusal.message, status=refusal.status)
    flash(done.message, "done")
    return redirect(url_for("tables.home"))


@bp.post("/<code>/name")
def rename(code: str) -> ResponseReturnValue:
    """The host names the group."""
    group = group_or_404(code)
    form = GroupNameForm()
    if not form.validate_on_submit():
        return _invalid(group, form)
    return _carried(group, lambda: groups.rename_group(group, form.name.data or "", post_of(form)))


@bp.post("/<code>/roster/<any(add, rename):how>")
def roster(code: str, how: str) -> ResponseReturnValue:
    """The host adds a player to the roster, or changes a player's name."""
    group = group_or_404(code)
    form = PlayerForm()
    if not form.validate_on_submit():
        return _invalid(group, form)
    name, post = form.name.data or "", post_of(form)
    if how == "add":
        return _carried(group, lambda: groups.add_player(group, name, post))
    return _carried(group, lambda: groups.rename_player(group, form.target.data, name, post))


@bp.post("/<code>/<any(remove, host, close, open, season, rating, unrated, out, back):deed>")
def tapped(code: str, deed: str) -> ResponseReturnValue:
    """A one-button tool of the group's host."""
    group = group_or_404(code)
    form = PickForm()
    if not form.validate_on_submit():
        return _invalid(group, form)
    post, target, match_code = post_of(form), form.target.data, (form.code.data or "").upper()
    actions = {
        "remove": lambda: groups.remove_player(group, target, post),
        "host": lambda: groups.hand_over(group, target, post),
        "close": lambda: groups.close_group(group, True, post),
        "open": lambda: groups.close_group(group, False, post),
        "season": lambda: groups.new_season(group, post),
        "rating": lambda: groups.set_rated(group, True, post),
        "unrated": lambda: groups.set_rated(group, False, post),
        "out": lambda: groups.count_match(group, match_code, False, post),
        "back": lambda: groups.count_match(group, match_code, True, post),
    }
    return _carried(group, actions[deed])


def _default_seats(
    roster: list[tuple[int, str]], first: int | None, sides: int, per_side: int
) -> dict[str, str]:
    """The seats filled from the roster as New match first shows them: this phone's player
    first, then the roster in order, a side at a time round the table."""
    order = [pid for pid, _name in roster]
    if first in order:
        order.remove(first)
        order.insert(0, first)
    filled = {}
    for at, pid in enumerate(order[: sides * per_side]):
        filled[seat_name(at % sides, at // sides)] = str(pid)
    return filled


@bp.route("/<code>/new/<game_key>", methods=["GET", "POST"])
def new_match(code: str, game_key: str) -> ResponseReturnValue:
    """New match in the group: the table's format, target and rules, its sides filled from the
    roster; on to its sheet."""
    group = group_or_404(code)
    game = GAMES.get(game_key)
    if game is None:
        abort(404)
    viewer = groups.group_viewer(group, current_phone())
    try:
        viewer.require(GroupAction.NEW_MATCH)
    except Refusal as refusal:
        return render_group(group, error=refusal.message, status=refusal.status)
    keys = [f.key for f in game.formats]
    picked = request.args.get("format", keys[0])
    table_format = game.format(picked if picked in keys else keys[0])
    sides = game.max_sides if game.sides_named_freely else table_format.sides
    roster = [
        (pid, name)
        for pid, name in db.session.execute(
            sa.select(RosterPlayer.id, RosterPlayer.name)
            .where(RosterPlayer.group_id == group.id, RosterPlayer.left.is_(False))
            .order_by(RosterPlayer.name, RosterPlayer.id)
        )
    ]
    form = group_match_form(game, table_format, sides, roster)

    def page(error: str | None = None) -> str:
        """The group's New match form as it stands (refused: with why above it)."""
        return render_template(
            "groups/new.html",
            group=group,
            game=game,
            form=form,
            table_format=table_format,
            sides=sides,
            seat_name=seat_name,
            error=error,
        )

    if form.validate_on_submit():
        # The same limits as Home's New match, counted together (new_matches.py).
        too_many = refused_new_match(current_phone())
        if too_many is not None:
            return too_many.answer(page(too_many.message))
        per_side = table_format.players_per_side
        chosen = [
            [form[seat_name(side, slot)].data for slot in range(per_side)] for side in range(sides)
        ]
        players = [[int(value) for value in side if value] for side in chosen]
        if game.sides_named_freely:
            players = [side for side in players if side]
        choice = NewMatch(
            table_format=table_format.key,
            target=int(form.target.data),
            rules={
                f.name.removeprefix("rule_"): f.data for f in form if f.name.startswith("rule_")
            },
            names=[],
            host_side=None,
        )
        try:
            done = groups.start_match(group, game, choice, players, post_of(form))
        except SetupError as error:
            field = error.field if error.field in form else "target"
            form[field].errors.append(error.reason)
        except Refusal as refusal:
            figures.refused("action")
            form.target.errors.append(refusal.message)
        else:
            if done.repeated and done.go_to is None:
                return redirect(url_for("groups.group", code=group.code))
            return redirect(url_for("sheet.match", code=done.go_to))
    elif not form.is_submitted():
        seats = _default_seats(roster, viewer.player_id, sides, table_format.players_per_side)
        form.process(data=seats)
    return page(), 400 if request.method == "POST" else 200
