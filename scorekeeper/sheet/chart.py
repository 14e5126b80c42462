"""The running totals climbing toward the target, drawn on the server as inline SVG."""

from __future__ import annotations

from collections.abc import Sequence

from flask_babel import gettext as _
from markupsafe import Markup, escape

from scorekeeper.languages import direction

WIDTH, HEIGHT = 320, 150
PAD_LEFT, PAD_RIGHT, PAD_TOP, PAD_BOTTOM = 30, 8, 10, 18


def running_chart(
    running: Sequence[Sequence[int]],
    target: int | None,
    names: Sequence[str],
    goal: str,
    noun: str,
) -> Markup:
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
    plot_w = WIDTH - PAD_LEFT - PAD_RIGHT
    plot_h = HEIGHT - PAD_TOP - PAD_BOTTOM

    def y(value: int) -> float:
        return PAD_TOP + plot_h * (high - value) / span

    if target is not None:
        # NOTE: the chart's label for screen readers: "Running totals toward 101 points";
        # %(goal)s is the target with what it counts.
        label = _("Running totals toward %(goal)s", goal=goal)
    else:
        label = _("Running totals")
    parts = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-label="{escape(label)}">',
        f'<line class="axis" x1="{x(PAD_LEFT)}" y1="{y(0):.1f}" x2="{x(WIDTH - PAD_RIGHT)}" '
        f'y2="{y(0):.1f}"/>',
        f'<text class="label" x="{x(PAD_LEFT - 4)}" y="{y(0) + 4:.1f}" text-anchor="end">0</text>',
    ]
    if target is not None:
        parts += [
            f'<line class="goal" x1="{x(PAD_LEFT)}" y1="{y(target):.1f}" '
            f'x2="{x(WIDTH - PAD_RIGHT)}" y2="{y(target):.1f}"/>',
            # Inside the plot, under its line: a target of any length is read whole (in the
            # margin, 100000 was cut to "0000").
            f'<text class="label" x="{x(PAD_LEFT + 3)}" y="{y(target) + 11:.1f}">{target}</text>',
        ]
    if len(points) > 1:
        # NOTE: the chart's last hand, under the end of its lines ("hand 12"); %(noun)s is
        # the game's word for a hand inside a sentence ("hand", Brisca's "round").
        last = escape(_("%(noun)s %(number)s", noun=noun, number=len(points) - 1))
        parts.append(
            f'<text class="label" x="{x(WIDTH - PAD_RIGHT)}" y="{HEIGHT - 4}" '
            f'text-anchor="end">{last}</text>'
        )
    # The lines are drawn in the data's own units (hand number, total), mapped onto the plot
    # by one transform: hundreds of hands are then plain integers, not hundreds of coordinates
    # worked out and formatted one by one. The stroke keeps its width however it is scaled.
    across = (-1 if mirrored else 1) * plot_w / steps
    transform = f"translate({x(PAD_LEFT)} {y(0):.2f}) scale({across:.4f} {-plot_h / span:.4f})"
    parts.append(f'<g transform="{transform}">')
    for side in range(sides):
        coords = " ".join([f"{i},{row[side]}" for i, row in enumerate(points)])
        # NOTE: a line of the chart, as its tooltip names it: a side's name and its total.
        title = _("%(side)s: %(total)s", side=names[side], total=points[-1][side])
        parts.append(
            f'<polyline class="side-{side % 8}" points="{coords}" '
            f'vector-effect="non-scaling-stroke"><title>{escape(title)}</title></polyline>'
        )
    parts.append("</g>")
    parts.append("</svg>")
    return Markup("".join(parts))
