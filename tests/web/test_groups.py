"""The group that plays every week: made from Home or an ended match, its roster and host role,
its matches started from its page and kept on one phone, standings, seasons, matches taken out
and put back, and what its code shows (and a match's does not)."""

from __future__ import annotations

import re

import sqlalchemy as sa

from scorekeeper.extensions import db
from scorekeeper.models import Group, GroupMatch, GroupPhone, RosterPlayer, SidePlayer
from tests.groups import (
    add_players,
    keep_whole_hand,
    line_of,
    new_match,
    roster_ids,
    say_who,
    standings_json,
    standings_rows,
    start_group,
)
from tests.phones import snapshot
from tests.statements import statements


def test_a_group_kept_on_one_phone_counts_for_every_player_at_its_tables(app, host):
    code = start_group(host, "Fridays at Omar's")
    add_players(host, code, "Omar", "Ana", "Ben", "Dov")
    ids = roster_ids(host, code)
    page = host.get(f"/g/{code}").shown
    assert "Fridays at Omar's" in page and code in page

    # Two partnerships, the sheet kept on the host's phone: Omar & Ana beat Ben & Dov.
    match = new_match(
        host,
        code,
        "basra",
        [[ids["Omar"], ids["Ana"]], [ids["Ben"], ids["Dov"]]],
        table_format="2v2",
    )
    sheet = host.get(f"/m/{match}").shown
    assert "Omar & Ana" in sheet and "Ben & Dov" in sheet
    keep_whole_hand(host, match, 1, [101, 30])
    assert "Match over" in host.post(f"/m/{match}/end").shown

    export = standings_json(host, code)
    omar, ben = line_of(export, "Omar"), line_of(export, "Ben")
    assert (omar["played"], omar["won"], omar["points"], omar["hands"]) == (1, 1, 101, 1)
    assert (ben["played"], ben["won"], ben["against_points"]) == (1, 0, 101)
    scope = export["standings"][0]
    assert {"players": ["Ana", "Omar"], "played": 1, "won": 1} in [
        {**p, "players": sorted(p["players"])} for p in scope["partners"]
    ]
    grid = {(m["player"], m["opponent"]): (m["played"], m["won"]) for m in scope["head_to_head"]}
    assert grid[("Omar", "Ben")] == (1, 1) and grid[("Ben", "Omar")] == (1, 0)
    # The group's page names the players, in the order it states.
    assert "Ranked by win share" in host.get(f"/g/{code}").shown


def test_a_rematch_stays_in_the_group_with_its_players(app, host):
    code = start_group(host)
    add_players(host, code, "Ana", "Ben")
    ids = roster_ids(host, code)
    first = new_match(host, code, "basra", [[ids["Ana"]], [ids["Ben"]]])
    keep_whole_hand(host, first, 1, [101, 0])
    host.post(f"/m/{first}/end")
    host.post(f"/m/{first}/rematch")
    with app.app_context():
        kept = db.session.execute(sa.select(GroupMatch.match_id)).scalars().all()
        placed = db.session.execute(sa.select(SidePlayer.player_id)).scalars().all()
    assert len(kept) == 2 and sorted(placed) == sorted([ids["Ana"], ids["Ben"]] * 2)


def test_a_phone_says_who_it_is_and_its_seats_count_for_that_player(app, host, guest):
    code = start_group(host)
    add_players(host, code, "Ana", "Ben")
    ids = roster_ids(host, code)
    # Ben's phone opens the group and says it is Ben; the host starts a match nobody is on.
    assert "Join the group" in guest.get(f"/g/{code}").shown
    said = say_who(guest, code, "Ben", ids)
    assert "This phone is Ben in this group now." in said.shown
    match = new_match(host, code, "basra", [[ids["Ana"]], []])
    guest.join(match, side=1)
    host.post(f"/m/{match}/hand/1/enter", {"points_0": 10, "revision_0": 0})
    guest.enter(match, 1, 1, 101)
    guest.post(f"/m/{match}/end")
    export = standings_json(guest, code)
    assert line_of(export, "Ben")["won"] == 1
    assert line_of(export, "Ana")["played"] == 1
    # Ben's record on his phone shows the group (issue 43, point 2).
    record = guest.get("/history/record").shown
    assert "Your groups" in record and f'href="/g/{code}"' in record


def test_only_the_host_changes_the_roster_and_nothing_changes_when_refused(app, host, guest):
    code = start_group(host)
    add_players(host, code, "Ana")
    guest.post(f"/g/{code}/join")
    before = snapshot(app)
    refused = guest.post(f"/g/{code}/roster/add", {"name": "Mallory"})
    assert refused.status_code == 403
    assert "Only the group's host can do that." in refused.shown
    assert snapshot(app) == before


def test_a_closed_group_keeps_new_phones_out_but_shows_its_standings(app, host, guest):
    code = start_group(host)
    host.post(f"/g/{code}/close")
    page = guest.get(f"/g/{code}")
    assert page.status_code == 200
    assert "closed this group to new phones" in page.shown
    refused = guest.post(f"/g/{code}/join")
    assert refused.status_code == 409


def test_a_match_taken_out_leaves_the_standings_and_comes_back(app, host):
    code = start_group(host)
    add_players(host, code, "Ana", "Ben")
    ids = roster_ids(host, code)
    match = new_match(host, code, "basra", [[ids["Ana"]], [ids["Ben"]]])
    keep_whole_hand(host, match, 1, [101, 0])
    host.post(f"/m/{match}/end")
    host.post(f"/g/{code}/out", {"code": match})
    assert standings_json(host, code)["standings"][0]["players"] == []
    page = host.get(f"/g/{code}").shown
    assert f"Match {match} taken out of the standings" in page
    host.post(f"/g/{code}/back", {"code": match})
    assert line_of(standings_json(host, code), "Ana")["won"] == 1


def test_a_new_season_starts_afresh_and_the_last_stays_readable(app, host):
    code = start_group(host)
    add_players(host, code, "Ana", "Ben")
    ids = roster_ids(host, code)
    match = new_match(host, code, "basra", [[ids["Ana"]], [ids["Ben"]]])
    keep_whole_hand(host, match, 1, [101, 0])
    host.post(f"/m/{match}/end")
    assert "Season 2 has started." in host.post(f"/g/{code}/season").shown
    assert standings_json(host, code)["standings"][0]["players"] == []
    assert line_of(standings_json(host, code, season=1), "Ana")["won"] == 1


def test_keep_this_table_as_a_group(app, host, guest):
    match = host.create("basra", table_format="2", side_0="Omar", side_1="Ana", player="Omar")
    guest.join(match, side=1)
    host.enter(match, 1, 0, 101)
    guest.enter(match, 1, 1, 20)
    ended = guest.post(f"/m/{match}/end").shown
    assert "Keep this table as a group" in ended
    made = guest.post(f"/g/from/{match}", follow=False)
    assert made.status_code == 302
    code = made.headers["Location"].split("/")[-1]
    with app.app_context():
        names = db.session.scalars(sa.select(RosterPlayer.name).order_by(RosterPlayer.name)).all()
        kept_code = db.session.scalar(sa.select(Group.code))
    assert names == ["Ana", "Omar"]
    assert kept_code == code
    assert line_of(standings_json(guest, code), "Omar")["won"] == 1
    # The match's page says nothing of its group: not its code, nor that it has one.
    for phone in (host, guest):
        sheet = phone.get(f"/m/{match}").shown
        assert code not in sheet and "Keep this table as a group" not in sheet


def ratings_of(export: dict) -> dict[str, dict | None]:
    """Each player's rating in the export's standings of all games."""
    everyone = next(s for s in export["standings"] if s["game"] is None)
    return {line["player"]: line["rating"] for line in everyone["players"]}


def test_ratings_follow_the_results_and_each_side_s_chance_shows_before_a_match(app, host):
    code = start_group(host)
    add_players(host, code, "Ana", "Ben", "Cleo")
    ids = roster_ids(host, code)
    assert "The group keeps a rating now." in host.post(f"/g/{code}/rating").shown
    played = []
    for first, second, points in (
        ("Ana", "Ben", [101, 3]),
        ("Ben", "Cleo", [101, 50]),
        ("Ana", "Cleo", [101, 0]),
    ):
        match = new_match(host, code, "basra", [[ids[first]], [ids[second]]])
        keep_whole_hand(host, match, 1, points)
        host.post(f"/m/{match}/end")
        played.append(match)
    before = ratings_of(standings_json(host, code))
    assert all(rating is not None for rating in before.values())
    # Everyone starts at 1000: the player who won twice is above it, the one who lost twice below.
    assert (
        before["Cleo"]["rating"] > 1000 > before["Ana"]["rating"] or before["Ben"]["rating"] > 1000
    )

    # Taken out, the first match changes every rating after it; put back, they are as before.
    host.post(f"/g/{code}/out", {"code": played[0]})
    assert ratings_of(standings_json(host, code)) != before
    host.post(f"/g/{code}/back", {"code": played[0]})
    assert ratings_of(standings_json(host, code)) == before
    # Reopened and ended again, the last match gives the ratings it gave.
    host.post(f"/m/{played[-1]}/reopen")
    assert ratings_of(standings_json(host, code))["Ana"] != before["Ana"]
    host.post(f"/m/{played[-1]}/end")
    assert ratings_of(standings_json(host, code)) == before

    # Before the next match, the group's page gives each side its chance to win.
    new_match(host, code, "basra", [[ids["Ana"]], [ids["Ben"]]])
    page = host.get(f"/g/{code}").shown
    assert "Playing now" in page
    assert "Ana: " in page and "%" in page.split("Playing now", 1)[1].split("</section>", 1)[0]


def test_a_name_typed_at_a_group_match_is_offered_to_the_host(app, host, guest):
    code = start_group(host)
    add_players(host, code, "Ana")
    ids = roster_ids(host, code)
    match = new_match(host, code, "basra", [[ids["Ana"]], []])
    guest.post("/join", {"code": match})
    guest.post(f"/m/{match}/claim", {"target": 1, "player": "Zeynep"})
    page = host.get(f"/g/{code}").shown
    assert "Names typed at the group's matches that the roster lacks:" in page
    assert "Add Zeynep" in page
    # Only the host is offered it; the guest's page of the group says nothing of it.
    assert "Add Zeynep" not in guest.get(f"/g/{code}").shown
    added = host.post(f"/g/{code}/roster/add", {"name": "Zeynep"})
    assert "Zeynep joined the roster." in added.shown
    assert "Add Zeynep" not in host.get(f"/g/{code}").shown


def test_a_game_s_standings_and_the_head_to_head_read_as_lines(app, host):
    code = start_group(host, "Fridays")
    add_players(host, code, "Ana", "Ben", "Dov")
    ids = roster_ids(host, code)
    for winner, loser in [("Ana", "Ben"), ("Ben", "Ana"), ("Ana", "Ben"), ("Dov", "Ana")]:
        match = new_match(host, code, "basra", [[ids[winner]], [ids[loser]]])
        keep_whole_hand(host, match, 1, [101, 40])
        host.post(f"/m/{match}/end")
    # Basra's own standings, with each player's best hand.
    page = host.get(f"/g/{code}?game=basra")
    assert page.status_code == 200
    assert "Best hand" in page.shown
    # Each two who met, once, the better placed first (Dov, one match, is not ranked yet),
    # those who met most first.
    shown = re.sub(r"</?bdi>", "", host.get(f"/g/{code}").shown)
    assert "Ana against Dov: 0–1 in 1 match" in shown
    assert "Ana against Ben: 2–1 in 3 matches" in shown
    assert "Dov against" not in shown and "Ben against" not in shown
    assert shown.index("Ana against Ben") < shown.index("Ana against Dov")


# "Series won" in each language, and how "0 of 0" would read in it.
SERIES_WON = {
    "en": ("Series won", "0 of 0"),
    "es": ("Series ganadas", "0 de 0"),
    "ar": ("السلاسل المكسوبة", "0 من 0"),
    "ru": ("Выигранные серии", "0 из 0"),
    "it": ("Serie vinte", "0 su 0"),
}


def test_a_player_who_played_no_series_shows_a_dash_not_0_of_0(app, host):
    code = start_group(host)
    add_players(host, code, "Ana", "Ben")
    ids = roster_ids(host, code)
    first = new_match(host, code, "basra", [[ids["Ana"]], [ids["Ben"]]])
    keep_whole_hand(host, first, 1, [101, 0])
    host.post(f"/m/{first}/end")
    for language, (heading, none) in SERIES_WON.items():
        page = host.get(f"/g/{code}", headers={"Accept-Language": language}).shown
        rows = standings_rows(page)
        assert [rows[name][heading] for name in ("Ana", "Ben")] == ["–", "–"], language
        assert none not in page, language
    # A rematch makes a series of two: its figures are shown.
    rematch = host.post(f"/m/{first}/rematch", follow=False)
    second = rematch.headers["Location"].rstrip("/").split("/")[-1]
    keep_whole_hand(host, second, 1, [101, 0])
    host.post(f"/m/{second}/end")
    rows = standings_rows(host.get(f"/g/{code}").shown)
    assert [rows[name]["Series won"] for name in ("Ana", "Ben")] == ["1 of 1", "0 of 1"]


# Home's field that opens a match or a group by its code, as each language labels it, and
# what it says of a code neither has.
HOME_CODE = {
    "en": ("Match or group code", "No match or group has the code"),
    "es": ("Código de partida o de grupo", "Ninguna partida ni grupo tiene el código"),
    "ar": ("رمز المباراة أو المجموعة", "لا توجد مباراة ولا مجموعة بالرمز"),
    "ru": ("Код партии или группы", "Ни партии, ни группы с кодом"),
    "it": ("Codice della partita o del gruppo", "Nessuna partita né gruppo ha il codice"),
}


def test_home_s_code_field_says_it_opens_a_match_or_a_group(app, host, guest):
    code = start_group(host, "Fridays")
    for language, (label, unknown) in HOME_CODE.items():
        headers = {"Accept-Language": language}
        home = guest.get("/", headers=headers).shown
        assert f'<label for="code">{label}</label>' in home, language
        guest.client.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
        opened = guest.post("/join", {"code": code.lower()}, follow=False)
        assert opened.headers["Location"] == f"/g/{code}", language
        refused = guest.post("/join", {"code": "ZZZZZZ"})
        assert refused.status_code == 400 and unknown in refused.shown, language


def test_a_group_s_pages_read_in_the_same_statements_for_1_and_12_matches(app, phones):
    """Issue 43, point 7: the group's page (all games and one game), its TV, print and JSON
    export send as many statements for a season of one match as for one of twelve, more
    players, a rating and partners among them."""
    sent = {}
    for size, names in ((1, ["Ana", "Ben"]), (12, ["Ana", "Ben", "Cleo", "Dov", "Eli", "Fay"])):
        host = phones()
        code = start_group(host, "Fridays")
        add_players(host, code, *names)
        host.post(f"/g/{code}/rating")
        ids = roster_ids(host, code)
        for at in range(size):
            first, second = names[at % len(names)], names[(at + 1) % len(names)]
            match = new_match(host, code, "basra", [[ids[first]], [ids[second]]])
            keep_whole_hand(host, match, 1, [101, 40])
            host.post(f"/m/{match}/end")
        host.get(f"/g/{code}")  # warm: whatever a first visit stores
        counts = []
        for url in ("", "?game=basra", "/tv", "/print", "/standings.json", "/ratings"):
            with statements(app) as read:
                assert host.get(f"/g/{code}{url}").status_code == 200, url
            counts.append(len(read))
        sent[size] = counts
    assert sent[1] == sent[12]


def test_the_host_names_the_group_edits_the_roster_and_hands_over_and_a_phone_leaves(
    app, host, guest
):
    """Issue 43, points 1 and 6: the host names the group, renames a player and takes one
    off, hands the host role to another phone, which may then do so; a phone leaves, the
    group off its Home, its player's results kept."""
    code = start_group(host, "Fridays")
    add_players(host, code, "Ana", "Ben", "Cleo")
    ids = roster_ids(host, code)
    host.post(f"/g/{code}/name", {"name": "Fridays at Omar's"})
    host.post(f"/g/{code}/roster/rename", {"target": ids["Cleo"], "name": "Cleopatra"})
    host.post(f"/g/{code}/remove", {"target": ids["Ana"]})
    page = host.get(f"/g/{code}").shown
    assert "<h1>Fridays at Omar's</h1>" in page
    assert set(roster_ids(host, code)) == {"Ben", "Cleopatra"}
    assert "Cleo renamed Cleopatra" in page and "Ana taken off the roster" in page

    # Ben's phone joins and plays; the host hands it the role.
    say_who(guest, code, "Ben", roster_ids(host, code))
    match = new_match(guest, code, "basra", [[ids["Ben"]], [ids["Cleo"]]])
    keep_whole_hand(guest, match, 1, [101, 0])
    guest.post(f"/m/{match}/end")
    with app.app_context():
        ben_phone = db.session.scalar(
            sa.select(GroupPhone.id).where(GroupPhone.player_id == ids["Ben"])
        )
    host.post(f"/g/{code}/host", {"target": ben_phone})
    refused = host.post(f"/g/{code}/roster/add", {"name": "Mallory"})
    assert refused.status_code == 403
    assert "The group's name" in guest.get(f"/g/{code}").shown

    # The old host leaves: off its Home; Ben's results stay.
    assert f"/g/{code}" in host.get("/").shown
    host.post(f"/g/{code}/leave")
    assert f"/g/{code}" not in host.get("/").shown
    assert line_of(standings_json(guest, code), "Ben")["won"] == 1
    # The spreadsheet: a line a player a scope.
    sheet = guest.get(f"/g/{code}/standings.csv").get_data(as_text=True)
    assert "Ben" in sheet and "Cleopatra" in sheet
