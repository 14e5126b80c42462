"""Installable: every page links a web app manifest whose icons and start page are served."""

from __future__ import annotations

import json
import re


def test_every_page_links_a_manifest_a_phone_can_install(host):
    code = host.create("basra", side_0="Alice", side_1="Ben")
    for page in ("/", f"/m/{code}", "/history", "/new/basra"):
        html = host.get(page).get_data(as_text=True)
        assert '<link rel="manifest" href="/manifest.webmanifest?lang=en">' in html, page
        assert '<meta name="theme-color" content="#0b6e4f">' in html, page
    answer = host.get("/manifest.webmanifest?lang=en")
    assert answer.headers["Content-Type"] == "application/manifest+json"
    assert "Set-Cookie" not in answer.headers
    manifest = json.loads(answer.get_data(as_text=True))
    assert (manifest["display"], manifest["start_url"]) == ("standalone", "/history/last")
    assert manifest["name"] == "Scorekeeper" and manifest["theme_color"] == "#0b6e4f"
    sizes = {icon["sizes"]: icon for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= set(sizes)
    assert any(icon.get("purpose") == "maskable" for icon in manifest["icons"])
    for icon in manifest["icons"]:
        served = host.get(icon["src"])
        data = served.data
        served.close()  # a static file is streamed: closed here, not left to the collector
        assert served.status_code == 200 and served.mimetype == icon["type"], icon
        if icon["type"] == "image/png":
            # The PNG's own header says its size: what the manifest claims.
            width, height = int.from_bytes(data[16:20]), int.from_bytes(data[20:24])
            assert f"{width}x{height}" == icon["sizes"], icon
    assert re.fullmatch(r"/static/icon-192\.png\?v=[0-9a-f]+", sizes["192x192"]["src"])
