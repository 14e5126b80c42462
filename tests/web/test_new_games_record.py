"""Escoba's, Scopa's and Tarneeb's record lines (escobas, scope, bids made) on a phone's record,
and their sheets on the TV, from matches played through the calculator (issue 44)."""

from __future__ import annotations

import re

from tests.phones import totals
from tests.web.test_record import figures

# docs/rules/escoba.md, "Scoring a hand": Ana takes 25 cards, 6 oros, 3 sevens with the velo
# and 3 escobas (1 + 1 + 1 + 1 + 3 = 7); Bea the other 15 cards, 4 oros, 1 seven (0).
ESCOBA = [
    {"n_cards": 25, "n_coins": 6, "n_sevens": 3, "n_seven_coins": "y", "n_escobas": 3},
    {"n_cards": 15, "n_coins": 4, "n_sevens": 1, "n_escobas": 0},
]


def enter(phone, code, counts, said=None):
    """This phone's calculator for the open hand, posted with what the page sends as said."""
    page = phone.get(f"/m/{code}/calc").shown
    hand = int(re.search(r'name="hand"[^>]*value="(\d+)"', page).group(1))
    stated = dict(re.findall(r'<input type="hidden" name="(n_\w+)" value="(-?\d+)">', page))
    shown = phone.post(
        f"/m/{code}/calc", {"hand": hand, "intent": "enter", **stated, **counts}
    ).shown
    assert 'class="flash error"' not in shown, shown[:600]
    return shown


def test_escobas_and_setentas_on_the_record_and_the_sheet_on_the_tv(host, guest):
    code = host.create("escoba", table_format="2", target="15", side_0="Ana", side_1="Bea")
    guest.join(code, side=1)
    for _ in range(3):
        enter(host, code, ESCOBA[0])
        shown = enter(guest, code, ESCOBA[1])
    assert totals(shown) == ["21", "0"]
    assert "Match over" in host.post(f"/m/{code}/end").shown
    ana = figures(host.get("/history/record").shown, "Escoba")
    assert ana["Escobas"] == "9" and ana["Wins"] == "1"
    bea = figures(guest.get("/history/record").shown, "Escoba")
    assert bea["Escobas"] == "0"
    tv = host.get(f"/m/{code}/tv")
    assert tv.status_code == 200 and "Ana" in tv.shown and "21" in tv.shown


def test_scope_on_the_record(host, guest):
    code = host.create("scopa", table_format="2", side_0="Ana", side_1="Bea")
    guest.join(code, side=1)
    # docs/rules/scopa.md, "Scoring a hand": cards, coins, the settebello, the primiera and
    # two scope for Ana; Bea's one scopa.
    ana = {
        "n_cards": 24,
        "n_coins": 7,
        "n_seven_coins": "y",
        "n_best_coins": 7,
        "n_best_cups": 7,
        "n_best_swords": 7,
        "n_best_clubs": 6,
        "n_primiera": 1,
        "n_scope": 2,
    }
    bea = {
        "n_cards": 16,
        "n_coins": 3,
        "n_best_coins": 6,
        "n_best_cups": 6,
        "n_best_swords": 6,
        "n_best_clubs": 7,
        "n_primiera": 0,
        "n_scope": 1,
    }
    for _ in range(2):
        enter(host, code, ana)
        enter(guest, code, bea)
    assert "Match over" in host.post(f"/m/{code}/end").shown
    assert figures(host.get("/history/record").shown, "Scopa")["Scope"] == "4"
    assert figures(guest.get("/history/record").shown, "Scopa")["Scope"] == "2"
    assert host.get(f"/m/{code}/tv").status_code == 200


def test_bids_made_on_the_record(host, guest):
    code = host.create("tarneeb", table_format="2v2", target="31", side_0="Aya", side_1="Badr")
    guest.join(code, side=1)
    # docs/rules/tarneeb.md: Aya's team bids 9 and takes 11 (+11), three times: 33.
    for _ in range(3):
        enter(host, code, {"n_bidders": 0, "n_bid": 9, "n_tricks": 11})
        shown = enter(guest, code, {"n_tricks": 2})
    assert totals(shown) == ["33", "0"]
    assert "Match over" in host.post(f"/m/{code}/end").shown
    assert figures(host.get("/history/record").shown, "Tarneeb")["Bids made"] == "3"
    assert figures(guest.get("/history/record").shown, "Tarneeb")["Bids made"] == "0"
    assert host.get(f"/m/{code}/tv").status_code == 200
