"""The body of the sheet's table, one row per hand, as HTML built in Python.

A long match has hundreds of cells, and a template spends several microseconds on each
expression of each cell (a lookup, an escape), ten times what a string costs: at 200 hands
the rows were most of the page's time. Everything else on the page stays in the templates;
this is only the part that repeats. Numbers need no escaping; every word a player typed is
escaped on its way in.
"""

from __future__ import annotations

from markupsafe import Markup, escape

from scorekeeper.sheet.state import Sheet

# What a cell's marks say, as a tooltip: entered with the calculator, changed by the host.
FROM_CALCULATOR = '<span class="mark" title="from the calculator">≡</span>'
CORRECTED = '<span class="mark" title="corrected by the host">✎</span>'


def sheet_rows(sheet: Sheet, hand_url: str, correcting: bool) -> Markup:
    """Every hand's row: each side's points (and, small, its running total) linking to its
    cell (the correction form when `correcting`), an empty cell "…" (or "fill" for the host),
    and a row under any hand that doesn't add up. `hand_url` is the match's URL up to the
    hand number: /m/<code>/hand/."""
    end = "/correct" if correcting else ""
    hand_url = escape(hand_url)
    hand_word = sheet.game.hand_word
    word = hand_word.lower()
    colspan = len(sheet.sides) + 1
    corrected = sheet.corrected
    parts: list[str] = []
    add = parts.append
    # The running totals after each complete hand, shown small under its points, as on paper.
    running = iter(sheet.state.running)
    for hand, entries, result in zip(sheet.hands, sheet.grid, sheet.state.hands, strict=True):
        number = hand.number
        after = next(running) if result.complete else None
        classes = "complete" if result.complete else "current"
        if result.problems:
            classes += " flagged"
        if correcting:
            # The host opens a whole hand by its number: every side's cell in one form.
            add(
                f'<tr class="{classes}"><th scope="row">'
                f'<a href="{hand_url}{number}/correct" title="Correct the whole {word}">'
                f"{number}</a></th>"
            )
        else:
            add(f'<tr class="{classes}"><th scope="row">{number}</th>')
        for at, entry in enumerate(entries):
            won = "won" if result.round_winner == at else ""
            link = f"{hand_url}{number}/side/{at}"
            if entry is None:
                fill = f'<a class="fill" href="{link}/correct">fill</a>' if correcting else "…"
                add(f'<td class="{won} empty">{fill}</td>')
                continue
            marks = FROM_CALCULATOR if result.breakdowns[at] is not None else ""
            if corrected.get((number, entry.side_id)):
                marks += CORRECTED
            # The running total is drawn by CSS from data-run: shown, but not read as part
            # of the cell's number.
            run = f' data-run="{after[at]}"' if after is not None else ""
            add(f'<td class="{won}"><a href="{link}{end}"{run}>{result.points[at]}{marks}</a></td>')
        add("</tr>")
        if result.problems:
            problems = escape("; ".join(result.problems))
            add(
                f'<tr class="problems"><td colspan="{colspan}">'
                f"{hand_word} {number} doesn't add up: {problems}</td></tr>"
            )
    return Markup("".join(parts))
