"""Share on a sheet (issue 45): the phone's share sheet gets the sheet's picture where the
browser shares files; elsewhere, and without JavaScript, the picture downloads."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def test_share_gives_the_sheet_s_picture_where_the_phone_cannot_share_files_it_downloads(
    live_server, phones, new_phone, artifacts
):
    keeper = phones()
    code = keeper.create("basra", table_format="2", side_0="Alice", side_1="Ben", host_side="-1")
    keeper.enter(code, 1, 0, 30)
    for javascript in (True, False):
        alice = new_phone(javascript=javascript)
        alice.goto(f"/m/{code}")
        share = alice.get_by_role("link", name="Share a picture")
        expect(share).to_be_visible()
        # The headless shell shares no files: the picture is downloaded, as without JavaScript.
        with alice.expect_download() as downloading:
            share.click()
        download = downloading.value
        assert download.suggested_filename == f"scorekeeper-basra-{code}.png"
        saved = artifacts / f"shared-{'js' if javascript else 'nojs'}.png"
        download.save_as(saved)
        assert saved.read_bytes().startswith(b"\x89PNG")


def test_where_the_phone_can_share_files_the_share_sheet_gets_the_picture(
    live_server, phones, new_phone
):
    keeper = phones()
    code = keeper.create("basra", table_format="2", side_0="Alice", side_1="Ben", host_side="-1")
    alice = new_phone()
    # A phone with Web Share for files: what the page hands its share sheet is recorded.
    alice.add_init_script(
        """
        navigator.canShare = (data) => !!(data && data.files);
        navigator.share = (data) => {
          window.shared = { title: data.title, names: data.files.map((f) => f.name),
                            types: data.files.map((f) => f.type), size: data.files[0].size };
          return Promise.resolve();
        };
        """
    )
    alice.goto(f"/m/{code}")
    # Share comes once the page has loaded (main.js): the test taps once it has, as a player's
    # tap before would download the picture as without JavaScript. The same module imported
    # here resolves after main.js's own import has started Share.
    alice.evaluate(
        """() => import(new URL("share.js", document.querySelector(
             'script[type=module][src*="/main.js"]').src).href)"""
    )
    alice.get_by_role("link", name="Share a picture").click()
    alice.wait_for_function("() => window.shared !== undefined")
    shared = alice.evaluate("() => window.shared")
    assert shared["names"] == [f"scorekeeper-basra-{code}.png"]
    assert shared["types"] == ["image/png"] and shared["size"] > 1000
    assert shared["title"] == f"Basra {code}"
