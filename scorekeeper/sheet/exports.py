"""A match taken away to keep: the sheet as a spreadsheet (CSV), and the whole match as JSON.
Nothing here reads either back: a player's matches go to another phone with a history code
(scoresheet/moving.py), as the matches themselves, not as copies made outside the one write
path."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from typing import Any

from flask_babel import gettext as _
from flask_babel import pgettext

from scorekeeper.languages import iso_utc
from scorekeeper.models import StoredSeat
from scorekeeper.scoresheet.sheet import Sheet
from scorekeeper.scoresheet.stored import cell_values
from scorekeeper.spreadsheets import spreadsheet_safe

# The JSON export's shape, for whatever reads it: "format" and "version" first. Version 2 added
# the host's note and the code of the match's rematch; version 3 gives why the winner won as a
# fact, "win_reason" (games.WinRule's code and its numbers), instead of an English "result";
# version 4 gives a cell's ticks as one list of the keys its game declares ("ticks":
# ["a_tick"]), where each tick had a yes or no of its own, in cells and the trail alike;
# version 5 gives the host's fills (cells entered in a side's place) as "fills", apart from the
# "corrections", which now hold only changes to a value that was there.
JSON_FORMAT, JSON_VERSION = "scorekeeper-match", 5


def _who(seats: Sequence[StoredSeat], phone: str, host: str = "the host") -> str:
    """The phone that made a correction, as the table knows it ("Omar (Us)"); `host` if it is
    no longer at the table (the JSON keeps the English words, the spreadsheet translates)."""
    seat = next((seat for seat in seats if seat.phone == phone), None)
    return seat.label if seat is not None else host


def _status_word(status: str) -> str:
    """A match's status in words, for a spreadsheet whose match has no result yet."""
    # NOTE: a match's status, in the last line of a downloaded spreadsheet ("result, open").
    words = {
        "open": pgettext("match status", "open"),
        "ended": pgettext("match status", "ended"),
        "abandoned": pgettext("match status", "abandoned"),
    }
    return words.get(status, status)


def sheet_csv(sheet: Sheet, seats: Sequence[StoredSeat]) -> str:
    """Every hand with each side's points and running totals; then each calculator cell's
    breakdown, line by line; then every correction; then the game and the result. Its words
    (the headings, the result) are in the language of the phone that downloads it."""
    match = sheet.match
    out = io.StringIO()
    writer = csv.writer(out)
    names = [spreadsheet_safe(side.name) for side in sheet.sides]
    word = str(sheet.game.hand_noun)
    # NOTE: the headings of a downloaded spreadsheet's columns, in lower case.
    side_word = pgettext("spreadsheet column", "side")
    writer.writerow(
        [
            word,
            *names,
            # NOTE: a spreadsheet column: a side's running total; %(side)s is its name.
            *(spreadsheet_safe(_("%(side)s total", side=side.name)) for side in sheet.sides),
        ]
    )
    for row in sheet.rows:
        points = ["" if cell.points is None else cell.points for cell in row.cells]
        writer.writerow([row.number, *points, *(row.running or [""] * len(names))])
    broken_down = [
        (row.number, cell, cell.breakdown)
        for row in sheet.rows
        for cell in row.cells
        if cell.breakdown is not None
    ]
    if broken_down:
        writer.writerow([])
        writer.writerow(
            [
                word,
                side_word,
                pgettext("spreadsheet column", "line"),
                pgettext("spreadsheet column", "count"),
                pgettext("spreadsheet column", "points"),
            ]
        )
        for number, cell, breakdown in broken_down:
            for scored in breakdown.lines:
                writer.writerow(
                    [
                        number,
                        spreadsheet_safe(cell.side.name),
                        str(scored.label),
                        scored.count,
                        scored.points,
                    ]
                )
    if sheet.corrections:
        writer.writerow([])
        writer.writerow(
            [
                word,
                side_word,
                pgettext("spreadsheet column", "was"),
                pgettext("spreadsheet column", "now"),
                pgettext("spreadsheet column", "reason"),
                pgettext("spreadsheet column", "by"),
                pgettext("spreadsheet column", "when (UTC)"),
            ]
        )
        # NOTE: who made a correction, when that phone is no longer at the table.
        host = _("the host")
        for c in sheet.corrections:
            writer.writerow(
                [
                    c.hand_number,
                    spreadsheet_safe(c.side.name),
                    c.old_points,
                    c.new_points,
                    spreadsheet_safe(c.reason),
                    spreadsheet_safe(_who(seats, c.by_phone, host)),
                    iso_utc(c.made_at),
                ]
            )
    if sheet.fills:
        # The host's fills are entries, not corrections: their own block, naming who entered
        # each cell in its side's place.
        writer.writerow([])
        writer.writerow(
            [
                word,
                side_word,
                # NOTE: a spreadsheet column: the points the host entered in a side's place.
                pgettext("spreadsheet column", "entered by the host"),
                pgettext("spreadsheet column", "reason"),
                pgettext("spreadsheet column", "by"),
                pgettext("spreadsheet column", "when (UTC)"),
            ]
        )
        host = _("the host")
        for c in sheet.fills:
            writer.writerow(
                [
                    c.hand_number,
                    spreadsheet_safe(c.side.name),
                    c.new_points,
                    spreadsheet_safe(c.reason),
                    spreadsheet_safe(_who(seats, c.by_phone, host)),
                    iso_utc(c.made_at),
                ]
            )
    writer.writerow([])
    # NOTE: the last lines of a downloaded spreadsheet: "game, Other game, target, 101 points",
    # then "result, Us won. Reached 101 first".
    writer.writerow(
        [
            pgettext("spreadsheet row", "game"),
            str(sheet.game.name),
            pgettext("spreadsheet row", "target"),
            sheet.game.target_words(sheet.table),
        ]
    )
    result = sheet.result or _status_word(match.status)
    writer.writerow([pgettext("spreadsheet row", "result"), spreadsheet_safe(result)])
    if match.note:
        writer.writerow([pgettext("spreadsheet row", "note"), spreadsheet_safe(match.note)])
    return out.getvalue()


def match_json(sheet: Sheet, seats: Sequence[StoredSeat], rematch: str | None) -> dict[str, Any]:
    """The whole match: settings, sides and the names at them, every hand's cells as entered
    (with the calculator's counts and breakdown), the corrections, the totals and result;
    `rematch` is the rematch's code where the phone it is for may see it (else None)."""
    match = sheet.match
    return {
        "format": JSON_FORMAT,
        "version": JSON_VERSION,
        "code": match.code,
        "game": match.game,
        # Words for people, as the phone that downloads it reads them (the keys stay English).
        "game_name": str(sheet.game.name),
        "table_format": match.table_format,
        "target": match.target,
        "target_unit": sheet.game.unit_for(sheet.table),
        "rules": dict(match.table_rules or {}),
        "status": match.status,
        # Why the winner won, as End match stored it: the rule's code and its numbers
        # ({"rule": "reached_first", "target": 101}; docs/at-the-table.md, "History and
        # exports"), None unless ended.
        "win_reason": match.win_reason,
        "winner": sheet.winner.position if match.is_ended and sheet.winner else None,
        "created_at": iso_utc(match.created_at),
        "ended_at": iso_utc(match.ended_at),
        "note": match.note,
        "rematch": rematch,
        "sides": [
            {
                "position": side.position,
                "name": side.name,
                "players": side.players,
                "phones": [seat.player for seat in seats if seat.side_id == side.id],
            }
            for side in sheet.sides
        ],
        "hands": [
            {
                "number": row.number,
                "complete": row.complete,
                "cells": [
                    {
                        "side": cell.side.position,
                        # As entered, but the points as they count (calculator cells
                        # worked out again).
                        **cell_values(cell.entry.facts),
                        "points": cell.points,
                        "breakdown": [
                            {"line": str(line.label), "count": line.count, "points": line.points}
                            for line in cell.breakdown.lines
                        ]
                        if cell.breakdown
                        else None,
                    }
                    for cell in row.cells
                    if cell.entry is not None
                ],
                "totals_after": list(row.running) if row.running else None,
            }
            for row in sheet.rows
        ],
        "corrections": [
            {
                "hand": c.hand_number,
                "side": c.side.position,
                "was": c.old_points,
                "now": c.new_points,
                "was_detail": c.old_detail,
                "now_detail": c.new_detail,
                "reason": c.reason,
                "by": _who(seats, c.by_phone),
                "made_at": iso_utc(c.made_at),
            }
            for c in sheet.corrections
        ],
        "fills": [
            {
                "hand": c.hand_number,
                "side": c.side.position,
                "points": c.new_points,
                "detail": c.new_detail,
                "reason": c.reason,
                "by": _who(seats, c.by_phone),
                "made_at": iso_utc(c.made_at),
            }
            for c in sheet.fills
        ],
        "totals": list(sheet.state.totals),
    }
