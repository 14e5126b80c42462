"""The host's note on a match: written by the host alone, through the one write path; shown on
the sheet and in History; carried by both exports; bad input refused, changing nothing."""

from __future__ import annotations

import csv
import io
import json

import pytest

from scorekeeper.sheet.exports import JSON_VERSION
from tests.phones import snapshot, stored_match


def test_the_host_writes_the_note_and_every_phone_sees_it(app, basra, host, guest, watcher):
    watcher.join(basra, side=None)
    assert "Write a note…" in host.get(f"/m/{basra}").shown
    assert "Write a note…" not in guest.get(f"/m/{basra}").shown
    page = host.post(f"/m/{basra}/note", {"note": "  At Omar's, loser buys the tea  "}).shown
    assert "Note saved." in page
    assert stored_match(app, basra).note == "At Omar's, loser buys the tea"
    for phone in (host, guest, watcher):
        assert "Note: At Omar's, loser buys the tea" in phone.get(f"/m/{basra}").shown.replace(
            "<strong>", ""
        ).replace("</strong>", "")
        assert "At Omar's, loser buys the tea" in phone.get("/history").shown
    assert "Change the note…" in host.get(f"/m/{basra}").shown


def test_the_note_can_be_written_after_the_match_ended(app, basra, host, guest):
    host.enter(basra, 1, 0, 101)
    guest.enter(basra, 1, 1, 0)
    guest.post(f"/m/{basra}/end")
    assert "Note saved." in host.post(f"/m/{basra}/note", {"note": "Final of the cup"}).shown
    assert stored_match(app, basra).note == "Final of the cup"


@pytest.mark.parametrize("who", ["guest", "watcher", "stranger"])
def test_only_the_host_writes_the_note(app, basra, phones, guest, watcher, who):
    watcher.join(basra, side=None)
    phone = {"guest": guest, "watcher": watcher, "stranger": phones()}[who]
    before = snapshot(app)
    refused = phone.post(f"/m/{basra}/note", {"note": "Mine now"})
    assert refused.status_code == 403
    assert "Only the host can write the match's note." in refused.shown
    assert phone.get(f"/m/{basra}/note").status_code == 403
    assert snapshot(app) == before


@pytest.mark.parametrize(
    ("note", "says"),
    [
        ("x" * 201, "Keep the note under 200 letters."),
        ("At Omar's\x00", "Use letters, digits and punctuation only."),
        ("two\nlines", "Use letters, digits and punctuation only."),
    ],
)
def test_a_bad_note_is_refused_and_changes_nothing(app, basra, host, note, says):
    before = snapshot(app)
    refused = host.post(f"/m/{basra}/note", {"note": note})
    assert refused.status_code == 400 and says in refused.shown
    assert snapshot(app) == before


def test_the_exports_carry_the_note(basra, host):
    host.post(f"/m/{basra}/note", {"note": "=At Omar's"})
    rows = list(csv.reader(io.StringIO(host.get(f"/m/{basra}/sheet.csv").get_data(as_text=True))))
    assert rows[-1] == ["note", "'=At Omar's"]
    exported = json.loads(host.get(f"/m/{basra}/match.json").get_data(as_text=True))
    assert exported["version"] == JSON_VERSION == 4
    assert exported["note"] == "=At Omar's" and exported["rematch"] is None
