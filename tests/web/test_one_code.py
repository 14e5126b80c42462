"""One code shows one match (issue 31): a phone that has one match's code, by opening its page
or watching it, reaches no other match's code by any page or export, sees another player's
record only over the matches it was at too, and cannot sit at the rematch before the phones
that played the match; they take their sides in one tap, and newcomers once the host opens
the table."""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest
from flask import Flask
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from tests.examples import examples
from tests.phones import Phone, seat_of, stored_match, totals
from tests.statements import statements
from tests.web.test_languages import speaking
from tests.web.test_one_phone import enter_hand
from tests.web.test_record import figures, play
from tests.words import plural, words

# A link a phone can follow with a tap: to a page of the app, not a file it serves to all.
LINK = re.compile(r'href="(/[^"#]*)')
FOLLOWED = ("/m/", "/history", "/j/")
# Far beyond what one match's pages link to: a crawl that got this far has gone astray.
MOST_PAGES = 300
NOTHING_SHARED = (
    "Your phone has not been at an ended match with %(name)s, so there is nothing of their "
    "record to show you: a player's record shows only the matches you were at together."
)
KEPT = (
    "This rematch keeps its sides for the phones of the last match until the host opens the table."
)
WAITS = (
    "Each side of this rematch waits for the phones that played it last time, and they take "
    "it in one tap. Open the table to let a new phone take a free side."
)


def reachable(phone: Phone, code: str) -> dict[str, str]:
    """Every page and file a phone reaches from a match's sheet by following links (its live
    part too, fetched by the page's script), by address: what it was shown."""
    seen: dict[str, str] = {}
    waiting = [f"/m/{code}", f"/m/{code}/live"]
    while waiting:
        url = waiting.pop()
        if url in seen:
            continue
        assert len(seen) < MOST_PAGES, f"more than {MOST_PAGES} pages from {code}"
        response = phone.get(url)
        assert response.status_code < 500, url
        # A picture (the sheet's, to share) says no code in words: nothing to read.
        picture = response.mimetype.startswith("image/")
        seen[url] = "" if picture else response.get_data(as_text=True)
        if response.mimetype == "text/html":
            found = LINK.findall(seen[url])
            waiting += [link for link in found if link.startswith(FOLLOWED)]
    return seen


def codes_in(pages: dict[str, str], codes: set[str]) -> dict[str, set[str]]:
    """Which of these codes each page shows (in any case: the join link takes any)."""
    shown = {url: {code for code in codes if code in page.upper()} for url, page in pages.items()}
    return {url: found for url, found in shown.items() if found}


def seat_three(omar: Phone, sam: Phone, zed: Phone) -> str:
    """Omar hosts a Basra for three, Sam and Zed each on their own side; its code."""
    code = omar.create(
        "basra", table_format="3", side_0="Omar", side_1="Sam", side_2="Zed", player="Omar"
    )
    for phone, side, name in ((sam, 1, "Sam"), (zed, 2, "Zed")):
        phone.post("/join", {"code": code})
        phone.post(f"/m/{code}/claim", {"target": side, "player": name})
    return code


def play_out(code: str, phones: tuple[Phone, Phone, Phone], points: tuple[int, int, int]) -> None:
    """One hand, each phone entering its own side's points, and its end."""
    for side, phone in enumerate(phones):
        phone.enter(code, 1, side, points[side])
    assert "Match over" in phones[-1].post(f"/m/{code}/end").shown


def play_three(omar: Phone, sam: Phone, zed: Phone, points: tuple[int, int, int]) -> str:
    """Omar, Sam and Zed play a Basra for three: one hand, ended; its code."""
    code = seat_three(omar, sam, zed)
    play_out(code, (omar, sam, zed), points)
    return code


def test_one_code_leads_a_stranger_to_no_other_match_nor_to_sam_s_side(app, phones):
    """The chain issue 31 found, played: a stranger with one ended match's code reached Sam's
    other matches through his record, the rematch through the page and its JSON, and took
    Sam's side there before Sam. Each step now leads nowhere."""
    omar, sam, zed, stranger, watcher, newcomer = (phones() for _ in range(6))
    # Sam's match elsewhere, with Zed alone: his best hand is in it.
    elsewhere = zed.create("basra", table_format="2", side_0="Zed", side_1="Sam", player="Zed")
    sam.post("/join", {"code": elsewhere})
    sam.post(f"/m/{elsewhere}/claim", {"target": 1, "player": "Sam"})
    zed.enter(elsewhere, 1, 0, 20)
    sam.enter(elsewhere, 1, 1, 110)
    assert "Match over" in sam.post(f"/m/{elsewhere}/end").shown

    code = play_three(omar, sam, zed, (101, 10, 5))
    assert "Rematch!" in omar.post(f"/m/{code}/rematch").shown
    rematch = stored_match(app, code).rematch_code
    assert rematch is not None
    others = {elsewhere, rematch}

    # The stranger opens the ended match's page; the watcher watches it. Neither reaches
    # another match's code by any page, live part, export or record the sheet links to.
    stranger.get(f"/m/{code}")
    watcher.join(code, None)
    for phone in (stranger, watcher):
        pages = reachable(phone, code)
        assert f"/m/{code}/match.json" in pages and f"/m/{code}/sheet.csv" in pages
        assert any("/player/" in url for url in pages)
        assert codes_in(pages, others) == {}
        assert '"rematch": null' in pages[f"/m/{code}/match.json"]
    # The phones of the match are shown it: the one-tap offer, and the code in the export.
    for phone in (sam, zed):
        assert "Play the rematch as" in phone.get(f"/m/{code}").shown
    for phone in (omar, sam, zed):
        assert f'"rematch": "{rematch}"' in phone.get(f"/m/{code}/match.json").shown

    # Sam's record, from his name on the sheet: over the matches each phone was at with him.
    sam_seat = seat_of(app, sam, code)
    record = f"/history/{code}/player/{sam_seat}"
    nothing = stranger.get(record)
    assert nothing.status_code == 200
    assert "The record of Sam" in nothing.shown
    assert NOTHING_SHARED % {"name": "Sam"} in nothing.shown
    assert "<dl" not in nothing.shown
    watched = watcher.get(record).shown
    assert "Counted over the 1 ended match your phone shared with Sam, and no other." in watched
    assert figures(watched, "In all")["Matches"] == "1"
    assert figures(omar.get(record).shown, "In all")["Matches"] == "1"
    # Zed was at both; Sam's own record is all of his.
    assert figures(zed.get(record).shown, "In all")["Matches"] == "2"
    assert elsewhere in zed.get(record).shown
    own = sam.get(record).shown
    assert "Your record" in own and figures(own, "In all")["Matches"] == "2"

    # Had the stranger the rematch's code all the same, Sam's side (and Zed's) wait for them.
    for side in (1, 2):
        took = stranger.post(f"/m/{rematch}/claim", {"target": side, "player": "Sam"})
        assert took.status_code == 409
        assert "The host has closed the table" in took.shown
    assert KEPT in stranger.get(f"/m/{rematch}").shown
    assert WAITS in omar.get(f"/m/{rematch}").shown
    # Sam takes his in one tap, from the ended match's page.
    offer = sam.get(f"/m/{code}").shown
    assert f'action="/m/{rematch}/claim"' in offer
    assert 'name="target" value="1"' in offer
    assert "This phone now holds Sam." in sam.post(f"/m/{rematch}/claim", {"target": 1}).shown

    # Zed never comes: once the host opens the table, a new phone may take his side.
    assert newcomer.post(f"/m/{rematch}/claim", {"target": 2}).status_code == 409
    assert "The table is open" in omar.post(f"/m/{rematch}/open").shown
    assert "This phone now holds Zed." in newcomer.post(f"/m/{rematch}/claim", {"target": 2}).shown


def test_partners_each_take_their_side_of_the_rematch_and_a_watcher_none(app, phones):
    """In partnerships both phones of a side are offered it, each in one tap; the phone that
    only watched the match is offered nothing, and is refused a side it asks for."""
    omar, sara, ben, bo, tv = (phones() for _ in range(5))
    code = omar.create("basra", table_format="2v2", side_0="Us", side_1="Them", player="Omar")
    for phone, side, name in ((sara, 0, "Sara"), (ben, 1, "Ben"), (bo, 1, "Bo")):
        phone.post("/join", {"code": code})
        phone.post(f"/m/{code}/claim", {"target": side, "player": name})
    tv.join(code, None)
    omar.enter(code, 1, 0, 101)
    ben.enter(code, 1, 1, 3)
    bo.post(f"/m/{code}/end")
    # Ben asks for it: he holds Them there, Omar hosts it holding nothing yet.
    ben.post(f"/m/{code}/rematch")
    rematch = stored_match(app, code).rematch_code
    assert "Play the rematch as" not in tv.get(f"/m/{code}").shown
    assert tv.post(f"/m/{rematch}/claim", {"target": 0}).status_code == 409
    for phone, side, name in ((sara, 0, "Us"), (bo, 1, "Them"), (omar, 0, "Us")):
        assert f"Play the rematch as {name}" in phone.get(f"/m/{code}").shown
        took = phone.post(f"/m/{rematch}/claim", {"target": side})
        assert f"This phone now holds {name}." in took.shown
    # Each side full, nothing is left to offer.
    assert "Play the rematch as" not in sara.get(f"/m/{code}").shown


def test_the_one_phone_table_s_rematch_is_kept_by_its_host_alone(app, host, phones):
    """A host keeping the sheet for every side (no other phone) fills its rematch as before:
    the closed table keeps newcomers out, not the host's pen."""
    code = host.create("basra", table_format="2", side_0="Us", side_1="Them", host_side="-1")
    enter_hand(host, code, {0: 101, 1: 4})
    assert "Match over" in host.post(f"/m/{code}/end").shown
    host.post(f"/m/{code}/rematch")
    rematch = stored_match(app, code).rematch_code
    assert rematch is not None and stored_match(app, rematch).closed
    page = host.get(f"/m/{rematch}").shown
    assert "This phone keeps the sheet" in page and WAITS in page
    enter_hand(host, rematch, {0: 30, 1: 40})
    assert totals(host.get(f"/m/{rematch}").get_data(as_text=True)) == ["30", "40"]
    assert phones().post(f"/m/{rematch}/claim", {"target": 1}).status_code == 409


def test_the_record_of_another_player_is_said_in_the_phone_s_language(app, phones):
    """The plain page for a phone that shared nothing, and the line saying how many matches
    are counted, in Arabic, Russian, Spanish and Italian."""
    omar, sam, zed = phones(), phones(), phones()
    code = play_three(omar, sam, zed, (5, 101, 10))
    record = f"/history/{code}/player/{seat_of(app, sam, code)}"
    for language in ("ar", "ru", "es", "it"):
        say = words(language)
        nothing = speaking(phones(), language).get(record).shown
        assert say(NOTHING_SHARED, name="Sam") in nothing
        counted = plural(
            language,
            "Counted over the %(num)d ended match your phone shared with %(name)s, and no other.",
            "Counted over the %(num)d ended matches your phone shared with %(name)s, and no "
            "others.",
            1,
            name="Sam",
        )
        assert counted in speaking(omar, language).get(record).shown


# Sam's matches, generated: who he plays, who else watches, who hosts, whether it ends and who
# wins. The others are Ana, Bo and Cy; a stranger was at none.
OTHERS = ("Ana", "Bo", "Cy")


@dataclass(frozen=True)
class Played:
    """One of Sam's matches, as the table played it."""

    opponent: str
    watchers: frozenset[str]
    sam_hosts: bool
    ended: bool
    sam_wins: bool

    def at(self, name: str) -> bool:
        """Whether this phone was at the match (the other side's, or watching)."""
        return name == self.opponent or name in self.watchers


@st.composite
def played(draw: st.DrawFn) -> Played:
    """A match of Sam's against one of the others, maybe watched by the rest."""
    opponent = draw(st.sampled_from(OTHERS))
    rest = [name for name in OTHERS if name != opponent]
    return Played(
        opponent=opponent,
        watchers=frozenset(draw(st.sets(st.sampled_from(rest)))),
        sam_hosts=draw(st.booleans()),
        ended=draw(st.booleans()),
        sam_wins=draw(st.booleans()),
    )


@settings(
    max_examples=examples(10),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    # A failing history is four matches at most, readable as drawn; shrinking one plays
    # whole matches again for minutes.
    phases=(Phase.explicit, Phase.reuse, Phase.generate),
)
@given(history=st.lists(played(), min_size=1, max_size=4))
def test_another_player_s_record_counts_only_the_matches_both_phones_were_at(
    app: Flask, history: list[Played]
) -> None:
    """Whatever Sam played with whom, each phone sees his record over exactly the ended
    matches it was at too, and no code of another; Sam's own counts them all."""
    sam = Phone(app)
    others = {name: Phone(app) for name in OTHERS}
    codes: list[str] = []
    for match in history:
        them = others[match.opponent]
        host, guest = (sam, them) if match.sam_hosts else (them, sam)
        names = ("Sam", match.opponent) if match.sam_hosts else (match.opponent, "Sam")
        code = host.create("basra", table_format="2", side_0="Us", side_1="Them", player=names[0])
        guest.post("/join", {"code": code})
        guest.post(f"/m/{code}/claim", {"target": 1, "player": names[1]})
        for name in match.watchers:
            others[name].join(code, None)
        sam_side = 0 if match.sam_hosts else 1
        winner = sam_side if match.sam_wins else 1 - sam_side
        host.enter(code, 1, 0, 101 if winner == 0 else 7)
        guest.enter(code, 1, 1, 101 if winner == 1 else 7)
        if match.ended:
            assert "Match over" in guest.post(f"/m/{code}/end").shown
        codes.append(code)
    # Sam's name on the first match's sheet, as every phone there (or passing by) sees it.
    record = f"/history/{codes[0]}/player/{seat_of(app, sam, codes[0])}"
    viewers = {**others, "a stranger": Phone(app), "Sam": sam}
    for name, phone in viewers.items():
        shared = [
            (match, code)
            for match, code in zip(history, codes, strict=True)
            if match.ended and (name == "Sam" or match.at(name))
        ]
        page = phone.get(record).shown
        # The code its link came from is the one this phone has; no other but the shared.
        unshared = set(codes) - {code for _, code in shared} - {codes[0]}
        assert codes_in({record: page}, unshared) == {}, name
        if not shared:
            told = "No ended matches to count yet." if name == "Sam" else NOTHING_SHARED
            assert told % {"name": "Sam"} in page, name
            continue
        counted = figures(page, "In all")
        assert counted["Matches"] == str(len(shared)), name
        assert counted["Wins"] == str(sum(match.sam_wins for match, _ in shared)), name


@pytest.mark.parametrize("path", ["/m/{code}", "/m/{code}/live"])
def test_an_ended_match_s_pages_show_the_rematch_only_to_its_phones(app, host, guest, phones, path):
    """The sheet and its live part: the rematch's code for the phones of the match, none for
    a phone that only watched or opened it (the TV view never showed it)."""
    code = host.create("basra", table_format="2", side_0="Alice", side_1="Ben")
    guest.join(code, side=1)
    watcher = phones()
    watcher.join(code, None)
    host.enter(code, 1, 0, 101)
    guest.enter(code, 1, 1, 3)
    guest.post(f"/m/{code}/end")
    guest.post(f"/m/{code}/rematch")
    rematch = stored_match(app, code).rematch_code
    assert rematch is not None
    for phone in (watcher, phones()):
        assert rematch not in phone.get(path.format(code=code)).shown
    assert rematch in host.get(path.format(code=code)).shown


def test_another_player_s_record_reads_in_the_same_statements_for_2_and_20_matches(app, phones):
    """Shown to another phone, a record is read as the phone's own is: in statements that do
    not grow with the matches they shared."""
    sent: dict[int, list[str]] = {}
    for count in (2, 20):
        sam, ana = phones(), phones()
        codes = [play(sam, ana, [(101, 0)]) for _ in range(count)]
        record = f"/history/{codes[0]}/player/{seat_of(app, sam, codes[0])}"
        with statements(app) as sent[count]:
            page = ana.get(record).shown
        assert figures(page, "In all")["Matches"] == str(count)
    assert len(sent[2]) == len(sent[20])
