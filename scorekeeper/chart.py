"""The running totals climbing toward the target: where each line and label goes on the
inline SVG the chart_svg macro (_macros.html) draws."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from flask_babel import gettext as _

from scorekeeper.languages import direction, number

WIDTH, HEIGHT = 320, 150
PAD_LEFT, PAD_RIGHT, PAD_TOP, PAD_BOTTOM = 30, 8, 10, 20
# The labels' size in the chart's units (svg.chart .label in static/app.css), the room a
# character of a number takes at it (a digit of DejaVu Sans, the widest of the fonts a page
# draws with, is 9), and the least distance between two labels' middles: the whole height of
# the tallest of those fonts' boxes (Noto's, 1.36 of its size), so no two labels touch.
LABEL_SIZE = 14
LABEL_CHARACTER = 9
LABEL_APART = 19
# Where a label's middle may go: its box inside the chart, top to bottom.
LABEL_HIGHEST, LABEL_LOWEST = LABEL_APART / 2, HEIGHT - LABEL_APART / 2
# From a label's middle to its baseline: digits stand about a third of the size above it.
LABEL_BASELINE = 5
# Each side's line drawn in a dash of its own (as its sample in the key), so the lines are
# told apart without their colours: in dark mode, in print, by a colour-blind player. The
# target's line has its own (the stylesheet's "4 3"), unlike any of these.
DASHES = ("none", "10 4", "2 3", "10 3 2 3", "6 6", "14 3 2 3 2 3", "1 6", "16 3 4 3")


class Line(NamedTuple):
    """A side's line: its colour (side-0…side-7) and dash, its points (hand, total), its
    tooltip, and the name the chart's key gives it."""

    colour: int
    dash: str
    points: str
    title: str
    name: str


class Chart(NamedTuple):
    """Where everything on the chart goes, in the SVG's units (the chart_figure macro of
    _macros.html draws it): the axis at zero from left to right, the target's line (its y, and
    the target as the page writes numbers), the labels in the margin (x, and each label's
    words and baseline), the last hand's label (text, y), and the lines."""

    label: str
    box: str
    left: float
    right: float
    zero: str
    goal: tuple[str, str] | None
    labels_x: float
    labels: tuple[tuple[str, str], ...]
    last: tuple[str, int] | None
    transform: str
    lines: tuple[Line, ...]


def apart(wanted: Sequence[float]) -> list[float]:
    """Each label's middle as near where it is `wanted` (sorted, top first) as it can be with
    every two LABEL_APART apart and all inside the chart: pushed down past the one above,
    then, where the last would leave the chart, each pushed back up from below."""
    placed: list[float] = []
    for y in wanted:
        placed.append(max(y, LABEL_HIGHEST, placed[-1] + LABEL_APART if placed else y))
    below = LABEL_LOWEST + LABEL_APART
    for at in range(len(placed) - 1, -1, -1):
        placed[at] = min(placed[at], below - LABEL_APART)
        below = placed[at]
    return placed


def running_chart(
    running: Sequence[Sequence[int]],
    target: int | None,
    names: Sequence[str],
    goal: str,
    noun: str,
    label: str | None = None,
) -> Chart:
    """One line per side from 0 through each complete hand's total, and the target dashed
    (none when the target isn't a total: a fixed number of hands).

    Colours come from the stylesheet (classes side-0…side-7), so dark mode restyles it. In a
    language written right to left the hands run right to left, as the sheet's columns do: every
    x is mirrored, and the labels' text-anchor, which follows the page's direction, with it.
    """
    mirrored = direction() == "rtl"

    def x(at: float) -> float:
        return WIDTH - at if mirrored else at

    sides = len(names)
    points = [tuple([0] * sides), *[tuple(row) for row in running]]
    low = min(0, *(min(row) for row in points))
    high = max(target or 0, *(max(row) for row in points))
    span = max(high - low, 1)
    steps = max(len(points) - 1, 1)
    # The values the margin names, as the page writes numbers: zero, the target, and the
    # lowest total where the lines go below zero (issue 42: the target's label sat on zero's
    # when they went far below it). The margin is as wide as the longest.
    marked = sorted({0, low, *([target] if target is not None else [])}, reverse=True)
    words = {value: number(value) for value in marked}
    longest = max(len(word.strip("\u2066\u2069")) for word in words.values())
    pad_left = max(PAD_LEFT, LABEL_CHARACTER * longest + 6)
    plot_w = WIDTH - pad_left - PAD_RIGHT
    plot_h = HEIGHT - PAD_TOP - PAD_BOTTOM

    def y(value: int) -> float:
        return PAD_TOP + plot_h * (high - value) / span

    middles = apart([y(value) for value in marked])

    # `label`: the caller's words, for a chart of something else than a match's totals.
    if label is None and target is not None:
        # NOTE: the chart's label for screen readers: "Running totals toward 101 points";
        # %(goal)s is the target with what it counts.
        label = _("Running totals toward %(goal)s", goal=goal)
    elif label is None:
        label = _("Running totals")
    last = None
    if len(points) > 1:
        # NOTE: the chart's last hand, under the end of its lines ("hand 12"); %(noun)s is
        # the game's word for a hand inside a sentence ("hand", or "round").
        last = _("%(noun)s %(number)s", noun=noun, number=len(points) - 1)
    # Looked up once for every line, and filled in for each.
    # NOTE: a line of the chart, as its tooltip names it: a side's name and its total.
    named = _("%(side)s: %(total)s")
    # The lines are drawn in the data's own units (hand number, total), mapped onto the plot
    # by one transform: hundreds of hands are then plain integers, not hundreds of coordinates
    # worked out and formatted one by one. The stroke keeps its width however it is scaled.
    across = (-1 if mirrored else 1) * plot_w / steps
    return Chart(
        label=label,
        box=f"0 0 {WIDTH} {HEIGHT}",
        left=x(pad_left),
        right=x(WIDTH - PAD_RIGHT),
        zero=f"{y(0):.1f}",
        goal=(f"{y(target):.1f}", words[target]) if target is not None else None,
        # In the margin, each at its line's height as near as the others leave it.
        labels_x=x(pad_left - 4),
        labels=tuple(
            (words[value], f"{middle + LABEL_BASELINE:.1f}")
            for value, middle in zip(marked, middles, strict=True)
        ),
        last=(last, HEIGHT - 4) if last is not None else None,
        transform=f"translate({x(pad_left)} {y(0):.2f}) scale({across:.4f} {-plot_h / span:.4f})",
        lines=tuple(
            Line(
                side % 8,
                DASHES[side % 8],
                " ".join([f"{i},{row[side]}" for i, row in enumerate(points)]),
                named % {"side": names[side], "total": number(points[-1][side])},
                names[side],
            )
            for side in range(sides)
        ),
    )
