"""New match offers Escoba, Scopa and Tarneeb after the four first games, each with its
formats, targets and table rules as docs/rules says (issue 44)."""

from __future__ import annotations

import re

import pytest

from tests.phones import snapshot

# docs/rules/<game>.md, "Table", "Target and winning" and "Table rules", as a table reads them.
OFFERED = {
    "escoba": {
        "formats": ["2", "3", "2v2"],
        "rules": ["setenta", "bonus", "opening_escoba", "count_to_target"],
    },
    "scopa": {
        "formats": ["2", "3", "2v2"],
        "targets": ["11", "16", "21", "31"],
        "rules": ["pictures", "napola", "napoleone", "re_bello", "cappotto", "count_to_target"],
    },
    "tarneeb": {
        "formats": ["2v2"],
        "targets": ["31", "41", "61"],
        "rules": ["doubling", "defenders"],
    },
}


def test_home_lists_the_four_first_games_first_then_the_new_ones_then_other(host):
    page = host.get("/").shown
    names = re.findall(r'href="/new/(\w+)"', page)
    assert names == [
        "basra",
        "pastura",
        "brisca",
        "brasta",
        "escoba",
        "scopa",
        "tarneeb",
        "other",
    ]


@pytest.mark.parametrize("game", sorted(OFFERED))
def test_new_match_offers_the_games_formats_targets_and_rules(host, game):
    page = host.get(f"/new/{game}").shown
    offered = OFFERED[game]
    assert re.findall(r'name="table_format"[^>]*value="(\w+)"', page) == offered["formats"]
    if "targets" in offered:
        assert re.findall(r'name="target"[^>]*value="(\d+)"', page) == offered["targets"]
    rules = list(dict.fromkeys(re.findall(r'name="rule_(\w+)"', page)))
    assert rules == offered["rules"]
    # A typed target (Escoba's) is sent as typed; a chosen one is the form's default.
    typed = {} if "targets" in offered else {"target": "21"}
    for table_format in offered["formats"]:
        names = {"side_0": "Ana", "side_1": "Bea", "side_2": "Cy"}
        code = host.create(game, table_format=table_format, **names, **typed)
        assert "Ana" in host.get(f"/m/{code}").shown


def test_escoba_takes_21_15_or_any_target_the_table_agrees(host):
    page = host.get("/new/escoba").shown
    # Typed, 21 by default, the usual 21 and 15 offered beside it.
    assert re.search(r'name="target"[^>]*value="21"', page)
    assert '<option value="21"><option value="15">' in page
    assert "Usually 21 or 15 points; any the table agrees." in page
    for target in ["15", "30"]:
        code = host.create("escoba", table_format="2", target=target, side_0="Ana", side_1="Bea")
        assert f"{target} points" in host.get(f"/m/{code}").shown


def test_a_target_the_game_does_not_offer_is_refused_and_stores_nothing(app, host):
    before = snapshot(app)
    for game, target in [("escoba", "0"), ("scopa", "30"), ("tarneeb", "50")]:
        page = host.get(f"/new/{game}").shown
        defaults = dict(re.findall(r'name="(\w+)"[^>]*value="([^"]*)"[^>]*checked', page))
        response = host.post(
            f"/new/{game}", {**defaults, "host_side": "0", "target": target}, follow=False
        )
        assert response.status_code != 302
    assert snapshot(app) == before
