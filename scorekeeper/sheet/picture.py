"""A match's sheet as a picture for the group chat (issue 45): the game, the day, the sides and
their players, every hand with the running totals, the totals, the result and the series, in
the reader's language, drawn on the server.

Drawn with Pillow, whose text goes through libraqm (HarfBuzz shapes each word, FriBiDi orders
a line): Arabic letters join as they should and a line reads right to left, with a Latin name
or a number inside it in its own order. PyPI's Pillow wheels carry raqm and HarfBuzz and load
the system's FriBiDi (Debian's libfribidi0). One font draws every language the app speaks,
DejaVu Sans (Debian's fonts-dejavu-core: Latin, Cyrillic and Arabic in one file), so a line
mixing them (an Arabic page naming a side "Omar") needs no second font. Without either, the
picture is refused with a clear reason rather than drawn wrong (PictureUnavailable).
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path

from flask_babel import gettext as _
from flask_babel import pgettext
from PIL import Image, ImageDraw, ImageFont, features

from scorekeeper.languages import number, when
from scorekeeper.models import StoredSeat
from scorekeeper.scoresheet.series import Series
from scorekeeper.scoresheet.sheet import Sheet
from scorekeeper.words import series_standing

# The font files, from Debian's fonts-dejavu-core (.ci/run installs it).
FONTS = Path("/usr/share/fonts/truetype/dejavu")
REGULAR, BOLD = FONTS / "DejaVuSans.ttf", FONTS / "DejaVuSans-Bold.ttf"

# A chat shows a picture at the phone's width: 1080 px is a phone's screen at 3×.
WIDTH = 1080
MARGIN = 48
NUMBER_COLUMN = 84
ROW = 64
# Light, as the sheet is in daylight: the page's own colours.
PAPER, INK, MUTED, LINE, ACCENT, WON = (
    "#f7f6f2",
    "#1b1b1b",
    "#5f6368",
    "#d9d6cc",
    "#0b6e4f",
    "#e3f4ec",
)


# A name set apart from the words around it (Unicode's first-strong isolate): "عمر" in a
# Russian line, or "Ana" in an Arabic one, keeps its own direction without turning its
# neighbours (the comma and score after it) around.
ISOLATE, END_ISOLATE = "\u2068", "\u2069"


def isolated(name: str) -> str:
    """A name a player typed, set apart for the line it stands in."""
    return ISOLATE + name + END_ISOLATE


class PictureUnavailable(RuntimeError):
    """This server cannot draw the picture right (a font or the text layout library is
    missing): said, never drawn wrong."""


@dataclass(frozen=True)
class Fonts:
    """The sizes the picture uses, each a font object."""

    title: ImageFont.FreeTypeFont
    text: ImageFont.FreeTypeFont
    heading: ImageFont.FreeTypeFont
    points: ImageFont.FreeTypeFont
    running: ImageFont.FreeTypeFont


@cache
def fonts() -> Fonts:
    """The picture's fonts, loaded once a process, laid out by raqm; PictureUnavailable if
    this server lacks them or raqm."""
    if not (features.check("raqm") and features.check("fribidi")):
        raise PictureUnavailable(
            "Pillow's complex text layout is missing (raqm, or the system's FriBiDi: "
            "apt-get install libfribidi0): Arabic would be drawn unjoined and backwards"
        )
    for path in (REGULAR, BOLD):
        if not path.is_file():
            raise PictureUnavailable(f"{path} is missing: apt-get install fonts-dejavu-core")

    def font(path: Path, size: int) -> ImageFont.FreeTypeFont:
        return ImageFont.truetype(str(path), size, layout_engine=ImageFont.Layout.RAQM)

    return Fonts(
        title=font(BOLD, 46),
        text=font(REGULAR, 30),
        heading=font(BOLD, 30),
        points=font(BOLD, 32),
        running=font(REGULAR, 22),
    )


class Canvas:
    """A picture being drawn line by line, laid out from the reading side: in a right-to-left
    language, x counts from the right edge and text stands at its right."""

    def __init__(self, height: int, language: str, rtl: bool) -> None:
        self.image = Image.new("RGB", (WIDTH, height), PAPER)
        self.draw = ImageDraw.Draw(self.image)
        self.language, self.rtl = language, rtl
        # Every line of words drawn, in order: what the picture says, to read back.
        self.said: list[str] = []

    def x(self, start: float) -> float:
        """A distance from the reading side, as a position on the picture."""
        return WIDTH - start if self.rtl else start

    def text(
        self,
        at: tuple[float, float],
        words: str,
        font: ImageFont.FreeTypeFont,
        fill: str = INK,
        *,
        centred: bool = False,
        width: float | None = None,
    ) -> None:
        """Words at a distance from the reading side (their start there, or centred on it),
        cut short with "…" to fit `width`."""
        if width is not None:
            words = fitted(words, font, width, self.rtl)
        self.said.append(words.replace(ISOLATE, "").replace(END_ISOLATE, ""))
        anchor = "mt" if centred else ("rt" if self.rtl else "lt")
        self.draw.text(
            (self.x(at[0]), at[1]),
            words,
            font=font,
            fill=fill,
            anchor=anchor,
            direction="rtl" if self.rtl else "ltr",
            language=self.language,
        )

    def band(self, top: float, height: float, fill: str, start: float, end: float) -> None:
        """A filled band between two distances from the reading side."""
        left, right = sorted((self.x(start), self.x(end)))
        self.draw.rectangle((left, top, right, top + height), fill=fill)

    def rule(self, y: float, fill: str = LINE, width: int = 2) -> None:
        """A line across the picture."""
        self.draw.line((MARGIN, y, WIDTH - MARGIN, y), fill=fill, width=width)

    def png(self) -> bytes:
        """The picture as a PNG file."""
        out = io.BytesIO()
        self.image.save(out, "PNG", optimize=True)
        return out.getvalue()


def fitted(words: str, font: ImageFont.FreeTypeFont, width: float, rtl: bool) -> str:
    """The words, cut short with "…" if they are wider than `width`."""
    direction = "rtl" if rtl else "ltr"
    if font.getlength(words, direction=direction) <= width:
        return words
    while words and font.getlength(words + "…", direction=direction) > width:
        words = words[:-1]
    return words.rstrip() + "…"


def players_of(sheet: Sheet, seats: Sequence[StoredSeat]) -> list[str]:
    """Each side's players, as the sheet names them: the names given at the phones holding it,
    or else the players the host typed for it."""
    named = []
    for side in sheet.sides:
        phones = [seat.player for seat in seats if seat.side_id == side.id and seat.player]
        comma = END_ISOLATE + pgettext("list separator", ", ") + ISOLATE
        named.append(comma.join(phones) if phones else side.players)
    return named


def sheet_png(
    sheet: Sheet,
    seats: Sequence[StoredSeat],
    series: Series | None,
    language: str,
    rtl: bool,
) -> bytes:
    """The sheet as a PNG 1080 px wide (sheet_picture)."""
    return sheet_picture(sheet, seats, series, language, rtl).png()


def sheet_picture(
    sheet: Sheet,
    seats: Sequence[StoredSeat],
    series: Series | None,
    language: str,
    rtl: bool,
) -> Canvas:
    """The sheet drawn 1080 px wide, in the reader's `language` (`rtl`: right to left), its
    words and numbers as the page writes them."""
    font = fonts()
    # The names inside every line that says them (the result, the series), set apart.
    sheet = replace(sheet, sides=tuple(replace(s, name=isolated(s.name)) for s in sheet.sides))
    sides = sheet.sides
    players = [isolated(who) if who else "" for who in players_of(sheet, seats)]
    named = [(name, who) for name, who in zip((s.name for s in sides), players, strict=True) if who]
    rows = sheet.rows
    columns = len(sides)
    column = (WIDTH - 2 * MARGIN - NUMBER_COLUMN) / columns
    height = MARGIN + 70 + 46 + 20 + 44 * len(named) + 30
    height += ROW + ROW * len(rows) + ROW + 30 + 50 + (50 if series else 0) + 50 + MARGIN
    canvas = Canvas(height, language, rtl)
    width = WIDTH - 2 * MARGIN
    y = MARGIN
    # NOTE: the heading of the sheet's picture: the game and its target ("Other game 100
    # points").
    canvas.text(
        (MARGIN, y),
        _(
            "%(game)s %(target)s",
            game=sheet.game.name,
            target=_("to %(target)s", target=sheet.goal),
        ),
        font.title,
        width=width,
    )
    y += 70
    canvas.text((MARGIN, y), when(sheet.match.created_at, with_year=True), font.text, MUTED)
    y += 46 + 20
    for name, who in named:
        # NOTE: a side and its players on the sheet's picture ("Us: Omar, Ana").
        canvas.text(
            (MARGIN, y), _("%(side)s: %(players)s", side=name, players=who), font.text, width=width
        )
        y += 44
    y += 30

    def centre(at: int) -> float:
        return MARGIN + NUMBER_COLUMN + column * at + column / 2

    # The heading row: the hand's number, then each side.
    canvas.text((MARGIN + NUMBER_COLUMN / 2, y + 16), "#", font.heading, MUTED, centred=True)
    for at, side in enumerate(sides):
        canvas.text((centre(at), y + 16), side.name, font.heading, centred=True, width=column - 12)
    y += ROW
    canvas.rule(y - 6, INK)
    for row in rows:
        canvas.text(
            (MARGIN + NUMBER_COLUMN / 2, y + 14), number(row.number), font.text, MUTED, centred=True
        )
        for at, cell in enumerate(row.cells):
            if cell.won:
                canvas.band(
                    y, ROW - 4, WON, centre(at) - column / 2 + 4, centre(at) + column / 2 - 4
                )
            shown = "…" if cell.points is None else number(cell.points)
            canvas.text((centre(at), y + 4), shown, font.points, centred=True)
            if row.running is not None:
                canvas.text(
                    (centre(at), y + 38), number(row.running[at]), font.running, MUTED, centred=True
                )
        y += ROW
        canvas.rule(y - 4)
    canvas.rule(y - 4, INK, 3)
    # The totals row.
    canvas.text((MARGIN, y + 14), _("Total"), font.running, MUTED, width=NUMBER_COLUMN)
    for at, total in enumerate(sheet.state.totals):
        canvas.text((centre(at), y + 10), number(total), font.title, ACCENT, centred=True)
    y += ROW + 30
    result = sheet.result or pgettext("match status", "open")
    canvas.text((MARGIN, y), result, font.heading, width=width)
    y += 50
    if series is not None:
        canvas.text((MARGIN, y), series_standing(series, sides), font.text, width=width)
        y += 50
    # NOTE: the foot of the sheet's picture: the app's name and the match's code.
    canvas.text(
        (MARGIN, y),
        _("Scorekeeper · %(code)s", code=sheet.match.code),
        font.running,
        MUTED,
        width=width,
    )
    return canvas
