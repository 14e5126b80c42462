"""The service worker as the server serves it (issue 45), and where the installed app opens."""

from __future__ import annotations

import json
import re
from pathlib import Path

from scorekeeper import live
from scorekeeper.minified import minified

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "static"
# The worker's code, beside the view that serves it: not a static file.
WORKER = ROOT / "scorekeeper" / "tables" / "sw.js"


def told(code: str) -> tuple[str, list[str]]:
    """The release and files the served worker was told, from its first two lines."""
    release = re.search(r"^const RELEASE = (.+);$", code, re.MULTILINE)
    files = re.search(r"^const FILES = (.+);$", code, re.MULTILINE)
    assert release and files
    return json.loads(release.group(1)), json.loads(files.group(1))


def test_the_worker_knows_its_release_and_every_file_a_page_loads_by_its_fingerprint(
    app, guest, basra
):
    answer = guest.client.get("/sw.js")
    assert answer.status_code == 200
    assert answer.mimetype == "text/javascript"
    assert answer.headers["Cache-Control"] == "no-cache"
    assert "Set-Cookie" not in answer.headers
    code = answer.get_data(as_text=True)
    release, files = told(code)
    assert release == live.of(app).release
    # tables/sw.js's code, minified as every script the app serves.
    assert code.endswith(minified(str(WORKER)).body.decode())
    assert "PAGES_CACHE" in code and "/*" not in code
    # Every file the pages load, each under the very URL a page asks for it by (the home
    # screen's icon a page names is the phone's to fetch as it installs the app).
    page = guest.get(f"/m/{basra}").get_data(as_text=True)
    asked = set(re.findall(r'(?:href|src)="(/(?:static|js)/[^"]+\.(?:css|js|svg)[^"]*)"', page))
    assert asked and asked <= set(files)
    # Every static file but the home screen's icons (the phone's to fetch).
    names = {p.name for p in STATIC.iterdir() if p.is_file() and p.suffix != ".png"}
    names |= {p.name for p in (STATIC / "js").iterdir()}
    assert sorted(re.sub(r"\?v=.*", "", f).rsplit("/", 1)[1] for f in files) == sorted(names)
    for url in files:
        with guest.client.get(url) as served:
            assert served.status_code == 200, url
    # Its code only there, with a page's headers: it is no static file, untold and unguarded.
    assert guest.client.get("/static/sw.js").status_code == 404
    assert "Content-Security-Policy" in answer.headers
    # Asked again while unchanged: a 304, nothing drawn.
    again = guest.client.get("/sw.js", headers={"If-None-Match": answer.headers["ETag"]})
    assert again.status_code == 304


def test_the_installed_app_opens_on_this_phone_s_last_match(host, guest, phones):
    stranger = phones()
    assert stranger.client.get("/history/last").location == "/"
    first = host.create("basra", side_0="Alice", side_1="Ben")
    guest.join(first, side=1)
    assert guest.client.get("/history/last").location == f"/m/{first}"
    latest = host.create("basra", side_0="Alice", side_1="Carla")
    assert host.client.get("/history/last").location == f"/m/{latest}"
    # Ben is not at the newer match: his last is still the first.
    assert guest.client.get("/history/last").location == f"/m/{first}"


def test_the_worker_s_own_fetch_of_a_page_leaves_the_phone_s_message_for_its_tab(host, guest):
    """The page the worker keeps for itself (after it took charge) says no message: a post's
    words stay in the session for the tab's own next page, which shows them once."""
    code = host.create("basra", table_format="2", side_0="Ana", side_1="Ben")
    claimed = guest.post(f"/m/{code}/claim", {"target": 1, "player": "Bo"}, follow=False)
    assert claimed.status_code == 302
    kept = guest.get(f"/m/{code}", headers={"X-Scorekeeper-Keeping": "1"})
    assert "This phone now holds Ben." not in kept.shown
    # Drawn to be kept, it may be: the worker keeps no page marked as shown once.
    assert "no-store" not in kept.headers["Cache-Control"]
    shown = guest.get(f"/m/{code}").shown
    assert shown.count("This phone now holds Ben.") == 1
