"""A group at the table, as the web tests drive it: a phone starts one, fills its roster, says
who it is, starts the group's matches and keeps their sheets; the exports read back."""

from __future__ import annotations

import html
import json
import re
from typing import Any

from tests.phones import CHECKED, Phone, Shown

GROUP_LINK = re.compile(r"^/g/([A-Z0-9]+)$")


def start_group(phone: Phone, name: str = "") -> str:
    """Start a group from Home; its code."""
    response = phone.post("/g/new", {"name": name}, follow=False)
    assert response.status_code == 302, response.shown
    found = GROUP_LINK.match(response.headers["Location"])
    assert found is not None, response.headers["Location"]
    return found.group(1)


def add_players(phone: Phone, code: str, *names: str) -> None:
    """The host adds players to the roster."""
    for name in names:
        shown = phone.post(f"/g/{code}/roster/add", {"name": name})
        assert shown.status_code == 200, shown.shown


def roster_ids(phone: Phone, code: str) -> dict[str, int]:
    """The roster as the "I am" list of the group's page offers it: name to id."""
    page = phone.get(f"/g/{code}").get_data(as_text=True)
    chooser = page.split('name="target">', 1)[1].split("</select>", 1)[0]
    options = re.findall(r'<option value="(\d+)"[^>]*>([^<]+)<', chooser)
    return {html.unescape(name): int(pid) for pid, name in options}


def say_who(phone: Phone, code: str, name: str, ids: dict[str, int]) -> Shown:
    """This phone says it is a roster player ("I am Omar")."""
    return phone.post(f"/g/{code}/join", {"target": ids[name]})


def new_match(
    phone: Phone,
    code: str,
    game: str,
    seats: list[list[int]],
    table_format: str | None = None,
    **fields: Any,
) -> str:
    """New match in the group with these roster players on each side; the match's code."""
    url = f"/g/{code}/new/{game}" + (f"?format={table_format}" if table_format else "")
    page = phone.get(url).get_data(as_text=True)
    defaults = dict(CHECKED.findall(page))
    chosen = {
        f"seat_{side}_{slot}": str(player)
        for side, players in enumerate(seats)
        for slot, player in enumerate(players)
    }
    blanks = {name: "" for name in re.findall(r'<select [^>]*name="(seat_\d+_\d+)"', page)}
    response = phone.post(url, {**defaults, **blanks, **chosen, **fields}, follow=False)
    assert response.status_code == 302, response.shown
    return response.headers["Location"].rstrip("/").split("/")[-1]


def keep_whole_hand(phone: Phone, code: str, number: int, points: list[int]) -> Shown:
    """The phone that keeps the sheet fills every side's total of one hand."""
    data: dict[str, Any] = {}
    for at, value in enumerate(points):
        data[f"points_{at}"] = value
        data[f"revision_{at}"] = 0
    return phone.post(f"/m/{code}/hand/{number}/enter", data)


def standings_json(phone: Phone, code: str, season: int | None = None) -> dict[str, Any]:
    """The group's JSON export of a season."""
    url = f"/g/{code}/standings.json" + (f"?season={season}" if season else "")
    response = phone.get(url)
    assert response.status_code == 200
    return json.loads(response.get_data(as_text=True))


def line_of(export: dict[str, Any], player: str, game: str | None = None) -> dict[str, Any]:
    """A player's line in a scope of the export (all games by default)."""
    scope = next(s for s in export["standings"] if s["game"] == game)
    return next(line for line in scope["players"] if line["player"] == player)


def play_every_pair(phone: Phone, code: str, names: list[str], apart: tuple[int, ...]) -> None:
    """Head-to-head Basra kept on this phone between each roster player and those `apart`
    places after them (round the roster), the first named winning each: the standings and the
    head-to-head grid filled for every player."""
    ids = roster_ids(phone, code)
    for step in apart:
        for at, name in enumerate(names):
            other = names[(at + step) % len(names)]
            match = new_match(phone, code, "basra", [[ids[name]], [ids[other]]])
            keep_whole_hand(phone, match, 1, [101, 40])
            ended = phone.post(f"/m/{match}/end")
            assert ended.status_code == 200, ended.shown


def standings_rows(page: str) -> dict[str, dict[str, str]]:
    """The players' table of a group's page as a phone reads it: each player's name to their
    cells, by the column's heading."""
    table = page.split('<table class="standings">', 1)[1].split("</table>", 1)[0]

    def words(cell: str) -> str:
        return html.unescape(re.sub(r"<[^>]+>", "", cell)).strip()

    head, body = table.split("</thead>", 1)
    headings = [words(cell) for cell in re.findall(r"<th[^>]*>(.*?)</th>", head, re.S)]
    rows = {}
    for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S):
        cells = [words(cell) for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)]
        rows[cells[1]] = dict(zip(headings, cells, strict=True))
    return rows
