"""The charts' key (issue 22: "History's charts have tiny labels and no legend; the TV chart
has no legend"): every chart served names each of its lines, and tells them apart by more
than colour, each drawn in a dash of its own."""

from __future__ import annotations

import html
import re

# One entry of a chart's key: the sample of its line (its dash) and the words beside it.
KEY = re.compile(
    r'<span class="key[^"]*">\s*<svg class="swatch"[^>]*>\s*<line class="side-\d"'
    r' stroke-dasharray="([^"]*)"[^>]*/>\s*</svg>\s*([^<]+)</span>'
)


def keys(page: str) -> list[list[tuple[str, str]]]:
    """Each chart's key on a page, in order: (dash, words) per line, as the figure shows it."""
    captions = re.findall(r'<figcaption class="chart-key">(.*?)</figcaption>', page, re.S)
    return [
        [(dash, html.unescape(words).strip()) for dash, words in KEY.findall(caption)]
        for caption in captions
    ]


def names_and_dashes(key: list[tuple[str, str]]) -> tuple[list[str], int]:
    """The names a key gives, and how many different dashes it draws them in."""
    return [words for _, words in key], len({dash for dash, _ in key})


def test_the_sheet_the_tv_and_history_name_each_side_of_the_chart(phones):
    """Three sides of an Other game: the sheet's chart, the TV's and History's each say which
    line is which side, each line in its own dash, and where the target is."""
    host, guest, third = phones(), phones(), phones()
    code = host.create("other", target="300", side_0="Omar", side_1="Ben", side_2="Zeinab")
    guest.join(code, side=1)
    third.join(code, side=2)
    host.enter(code, 1, 0, 40)
    guest.enter(code, 1, 1, 25)
    third.enter(code, 1, 2, 60)

    for url in (f"/m/{code}", f"/m/{code}/tv", "/history"):
        page = host.get(url).get_data(as_text=True)
        [key] = keys(page)
        assert names_and_dashes(key) == (["Omar", "Ben", "Zeinab"], 3), url
        assert '<span class="key goal">' in page and "target 300" in page, url


def test_the_record_s_chart_names_wins_and_losses(host, guest):
    """A phone's record: its chart's two lines are named, in two dashes."""
    code = host.create("basra", side_0="Omar", side_1="Ben")
    guest.join(code, side=1)
    host.enter(code, 1, 0, 101)
    guest.enter(code, 1, 1, 5)
    host.post(f"/m/{code}/end")
    [key] = keys(host.get("/history/record").get_data(as_text=True))
    assert names_and_dashes(key) == (["Wins", "Losses"], 2)
