"""The sheet as a picture for the group chat (issue 45): every hand with its running totals,
the totals, the result and the series, in the reader's language; for whoever may see the
sheet. The pictures land in tests/artifacts/ for a person to look at."""

from __future__ import annotations

import io
import itertools

import pytest
from flask import Flask
from PIL import Image

from scorekeeper.languages import direction
from scorekeeper.matches import find_match
from scorekeeper.phones.seats import seats_at
from scorekeeper.scoresheet.series import read_series
from scorekeeper.scoresheet.sheet import load_sheet
from scorekeeper.sheet import picture
from scorekeeper.sheet.picture import PAPER, WIDTH, sheet_picture
from tests.phones import Phone, stored_match
from tests.web.test_languages import speaking

# Hands of a Basra match to 101: Omar (عمر's side) and Ana's, points as each side entered.
HANDS = [(30, 12), (17, 40), (24, 9), (33, 20)]


def played(host: Phone, guest: Phone) -> tuple[str, str]:
    """A match that ended (104–81), then its rematch, with one hand: a series of two."""
    code = host.create(
        "basra", table_format="2", target="101", side_0="عمر", side_1="Ana", player="عمر"
    )
    guest.join(code, side=1)
    for number, (ours, theirs) in enumerate(HANDS, start=1):
        host.enter(code, number, 0, ours)
        guest.enter(code, number, 1, theirs)
    assert "Match over" in guest.post(f"/m/{code}/end").shown
    guest.post(f"/m/{code}/rematch")
    return code, stored_match(host.app, code).rematch_code


def said(app: Flask, code: str, language: str) -> list[str]:
    """Every line of words the picture draws, for a phone reading `language`."""
    with app.test_request_context(headers={"Accept-Language": language}):
        match = find_match(code)
        assert match is not None
        canvas = sheet_picture(
            load_sheet(match),
            seats_at(match),
            read_series([match]).get(match.id),
            language,
            direction(language) == "rtl",
        )
        return canvas.said


@pytest.mark.parametrize("language", ["en", "es", "ru", "ar"])
def test_the_picture_is_the_whole_sheet_light_and_a_phone_wide(
    app, host, guest, language, artifacts
):
    code, _ = played(host, guest)
    picture = speaking(guest, language).client.get(f"/m/{code}/picture.png")
    assert picture.status_code == 200
    assert picture.mimetype == "image/png"
    image = Image.open(io.BytesIO(picture.data))
    (artifacts / f"picture-{language}.png").write_bytes(picture.data)
    assert image.width == WIDTH
    # Light: its corners are the page's paper.
    assert image.convert("RGB").getpixel((2, 2)) == Image.new("RGB", (1, 1), PAPER).getpixel((0, 0))

    lines = said(app, code, language)
    # Every hand's points and the running totals after it, worked out here from the hands.
    running = list(itertools.accumulate(HANDS, lambda a, b: (a[0] + b[0], a[1] + b[1])))
    shown = lines[lines.index("#") + 3 :]
    for number, (points, run) in enumerate(zip(HANDS, running, strict=True), start=1):
        row = [str(number), str(points[0]), str(run[0]), str(points[1]), str(run[1])]
        at = shown.index(str(number))
        assert shown[at : at + 5] == row
    assert [str(t) for t in running[-1]] == shown[len(HANDS) * 5 + 1 : len(HANDS) * 5 + 3]
    assert "عمر" in lines and "Ana" in lines


def test_the_picture_says_the_result_and_the_series_in_the_reader_s_words(app, host, guest):
    code, rematch = played(host, guest)
    english = said(app, code, "en")
    assert "Basra to 101 points" in english
    assert any(line.startswith("عمر won") for line in english), english
    assert "Series: عمر ahead, 1–0" in english
    assert f"Scorekeeper · {code}" in english
    spanish = said(app, code, "es")
    assert "Serie: عمر va por delante, 1–0" in spanish, spanish
    # The rematch, in Arabic: its series as it stands, 1–0 to the first match's winner.
    arabic = said(app, rematch, "ar")
    assert any("عمر" in line and "1–0" in line for line in arabic[-3:]), arabic


def test_only_a_match_s_code_reaches_its_picture_and_an_unchanged_one_is_a_304(host, guest, phones):
    code, _ = played(host, guest)
    stranger = phones()
    # Whoever may see the sheet (its code is the key) sees its picture; no code, nothing.
    assert stranger.client.get(f"/m/{code}").status_code == 200
    first = stranger.client.get(f"/m/{code}/picture.png")
    assert first.status_code == 200
    assert stranger.client.get("/m/ZZZZZZ/picture.png").status_code == 404
    again = stranger.client.get(
        f"/m/{code}/picture.png", headers={"If-None-Match": first.headers["ETag"]}
    )
    assert again.status_code == 304
    # A change to the sheet makes a new picture.
    host.post(f"/m/{code}/note", {"note": "At Ana's"})
    changed = stranger.client.get(
        f"/m/{code}/picture.png", headers={"If-None-Match": first.headers["ETag"]}
    )
    assert changed.status_code == 200


def test_a_server_without_the_picture_s_font_says_so_and_draws_nothing(
    host, guest, monkeypatch, tmp_path, caplog
):
    code, _ = played(host, guest)
    monkeypatch.setattr(picture, "REGULAR", tmp_path / "DejaVuSans.ttf")
    picture.fonts.cache_clear()
    try:
        refused = guest.get(f"/m/{code}/picture.png")
        assert refused.status_code == 503
        assert "This server cannot draw the sheet's picture now." in refused.shown
        assert "apt-get install fonts-dejavu-core" in caplog.text
    finally:
        monkeypatch.undo()
        picture.fonts.cache_clear()
    assert guest.get(f"/m/{code}/picture.png").status_code == 200
