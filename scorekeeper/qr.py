"""QR codes drawn on the server as inline SVG, for the pages that show a link to scan: a
match's join link, a history's one-time code."""

from __future__ import annotations

import segno
from markupsafe import Markup


def qr_svg(link: str) -> Markup:
    """A link as a QR code, inline SVG (a pure function of the link)."""
    return Markup(segno.make(link, error="m").svg_inline(scale=5, border=2, omitsize=True))
