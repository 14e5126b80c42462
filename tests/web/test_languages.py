"""Each phone reads its own language: its browser's, until its player picks one on the switch,
which the phone then remembers; Arabic right to left; times in the phone's language and zone."""

from __future__ import annotations

import json
import re
from datetime import UTC
from zoneinfo import ZoneInfo

import pytest
import sqlalchemy as sa
from babel.dates import format_skeleton, format_time

from scorekeeper.extensions import db
from scorekeeper.models import Match
from tests.phones import Phone
from tests.words import plural, words

HTML = re.compile(r'<html lang="([^"]+)" dir="([^"]+)">')


def speaking(phone: Phone, accept_language: str) -> Phone:
    """The phone's browser asks for these languages, as a phone set to them does."""
    phone.client.environ_base["HTTP_ACCEPT_LANGUAGE"] = accept_language
    return phone


def said_in(page: str) -> tuple[str, str]:
    """The language and direction a page says it is in."""
    found = HTML.search(page)
    assert found, "no <html lang dir>"
    return found.group(1), found.group(2)


@pytest.mark.parametrize(
    ("accept", "language", "direction"),
    [
        ("ar-EG,ar;q=0.9,en;q=0.5", "ar", "rtl"),
        ("ru-RU,ru;q=0.9", "ru", "ltr"),
        ("es-AR", "es", "ltr"),
        ("it-IT,it;q=0.9,en;q=0.8", "it", "ltr"),
        ("it-CH", "it", "ltr"),
        ("de-DE,fr;q=0.8", "en", "ltr"),  # none of ours: English
        ("de-DE,es;q=0.5", "es", "ltr"),  # the best of ours it takes
        ("", "en", "ltr"),
    ],
)
def test_a_phone_reads_the_language_its_browser_asks_for(phones, accept, language, direction):
    phone = speaking(phones(), accept)
    home = phone.get("/")
    assert said_in(home.shown) == (language, direction)
    say = words(language)
    assert say("Join a match") in home.shown
    assert say("New match") in home.shown


def test_the_switch_is_on_every_page_and_the_phone_remembers_it(host):
    code = host.create("basra", side_0="Alice", side_1="Ben")
    speaking(host, "ar")
    for page in ("/", f"/m/{code}", "/history", "/new/basra", f"/m/{code}/qr"):
        shown = host.get(page).shown
        assert said_in(shown)[0] == "ar", page
        for name in ("English", "العربية", "Русский", "Español", "Italiano"):
            assert f">{name}</button>" in shown, (page, name)

    # Picked on the History page: back there, in Spanish, and so every page after it,
    # whatever the browser asks for.
    back = host.post("/language", {"lang": "es", "next": "/history"}, follow=False)
    assert back.status_code == 303 and back.headers["Location"] == "/history"
    for page in ("/history", f"/m/{code}", "/"):
        shown = host.get(page).shown
        assert said_in(shown) == ("es", "ltr"), page
    assert words("es")("Your matches") in host.get("/history").shown

    # A language we don't have changes nothing; back to English is a tap too.
    host.post("/language", {"lang": "xx", "next": "/"})
    assert said_in(host.get("/").shown)[0] == "es"
    host.post("/language", {"lang": "en", "next": "/"})
    assert said_in(host.get("/").shown)[0] == "en"


@pytest.mark.parametrize("elsewhere", ["//evil.example/", "https://evil.example/", "history", ""])
def test_the_switch_sends_nobody_off_the_site(host, elsewhere):
    back = host.post("/language", {"lang": "ru", "next": elsewhere}, follow=False)
    assert back.status_code == 303 and back.headers["Location"] == "/"


def test_the_switch_on_a_refused_form_goes_back_to_a_page_not_the_form(host, guest):
    """A page that answered a form (a refusal) has no address of its own: switching language
    there lands on the match it is about, or Home, not on the form's URL."""
    code = host.create("basra", side_0="Alice", side_1="Ben")
    guest.join(code, side=1)
    refused = guest.post(f"/m/{code}/enter", {"hand": "1", "side": "0", "points": "10"})
    assert refused.status_code == 403
    back = re.search(r'name="next" value="([^"]+)"', refused.shown)
    assert back and back.group(1) == f"/m/{code}"
    landed = guest.post("/language", {"lang": "ru", "next": back.group(1)})
    assert landed.status_code == 200 and said_in(landed.shown)[0] == "ru"

    wrong = guest.post("/join", {"code": "ZZZZZZ"})
    back = re.search(r'name="next" value="([^"]+)"', wrong.shown)
    assert back and back.group(1) == "/"


def test_the_switch_needs_the_pages_csrf_token(host):
    refused = host.post("/language", {"lang": "ru", "next": "/"}, csrf=False)
    assert refused.status_code == 400
    assert said_in(host.get("/").shown)[0] == "en"


def test_phones_at_one_table_each_read_their_own_language(host, guest):
    """The same match, one phone in English and one in Arabic: the same numbers, each in its
    own words; a phone that switches language gets its poll redrawn, not 'nothing new'."""
    code = host.create("basra", table_format="2", side_0="Omar", side_1="Sami")
    speaking(guest, "ar")
    guest.join(code, side=1)
    host.enter(code, 1, 0, 20)
    guest.enter(code, 1, 1, 7)

    english, arabic = host.get(f"/m/{code}").shown, guest.get(f"/m/{code}").shown
    assert said_in(english) == ("en", "ltr") and said_in(arabic) == ("ar", "rtl")
    for page in (english, arabic):
        assert re.search(r"<tr class=\"totals\">.*?20.*?7", page, re.S), "same totals"
    ar = words("ar")
    assert ar("Basra") in arabic and ar("Basra") not in english

    poll = guest.get(f"/m/{code}/live")
    etag = poll.headers["ETag"]
    assert guest.client.get(f"/m/{code}/live", headers={"If-None-Match": etag}).status_code == 304
    guest.post("/language", {"lang": "ru", "next": f"/m/{code}"})
    redrawn = guest.client.get(f"/m/{code}/live", headers={"If-None-Match": etag})
    assert redrawn.status_code == 200
    assert words("ru")("Count with the calculator") in redrawn.shown
    # The host's English page is as it was: its poll still answers "nothing new".
    host_etag = host.get(f"/m/{code}/live").headers["ETag"]
    assert (
        host.client.get(f"/m/{code}/live", headers={"If-None-Match": host_etag}).status_code == 304
    )


def test_the_manifest_is_named_in_the_pages_language(phones):
    phone = speaking(phones(), "ru")
    assert 'href="/manifest.webmanifest?lang=ru"' in phone.get("/").shown
    for language, direction in (
        ("ru", "ltr"),
        ("ar", "rtl"),
        ("es", "ltr"),
        ("it", "ltr"),
        ("en", "ltr"),
    ):
        answer = phone.get(f"/manifest.webmanifest?lang={language}")
        manifest = json.loads(answer.get_data(as_text=True))
        assert manifest["name"] == words(language)("Scorekeeper"), language
        assert (manifest["lang"], manifest["dir"]) == (language, direction)
        assert manifest["start_url"] == "/history/last"


def test_times_in_the_phones_language_and_zone(app, host):
    """History's times as Babel writes them in the phone's language, in the zone its cookie
    names; a phone that has not told its zone (or names none that exists) reads UTC, said so."""
    code = host.create("basra", side_0="Alice", side_1="Ben")
    host.post(f"/m/{code}/abandon", {"confirmed": "y"})
    with app.app_context():
        created = db.session.scalar(sa.select(Match.created_at))
    moment = created.replace(tzinfo=UTC) if created.tzinfo is None else created

    speaking(host, "ru")
    host.client.set_cookie("tz", "Asia/Tokyo")
    day = format_skeleton("yMMMd", moment, tzinfo=ZoneInfo("Asia/Tokyo"), locale="ru")
    hour = format_time(moment, "short", tzinfo=ZoneInfo("Asia/Tokyo"), locale="ru")
    shown = host.get("/history").shown
    assert f"{day}, {hour}</time>" in shown
    assert "UTC</time>" not in shown

    # Names zoneinfo knows that no browser sends still give a page, not an error.
    for zone in ("posixrules", "Factory", "localtime"):
        host.client.set_cookie("tz", zone)
        assert host.get("/history").status_code == 200, zone
    for zone in ("Mars/Olympus_Mons", "../../etc/passwd", "x" * 100):
        host.client.set_cookie("tz", zone)
        assert "UTC</time>" in host.get("/history").shown, zone
    host.client.delete_cookie("tz")
    utc_hour = format_time(moment, "short", tzinfo=UTC, locale="ru")
    assert f"{utc_hour} UTC</time>" in host.get("/history").shown


def test_numbers_in_the_phones_language(app, host, guest):
    """A History card writes a total as the phone's language writes numbers: Russian
    groups thousands with a space; Arabic keeps the Western digits the sheet uses."""
    code = host.create("other", side_0="Anna", side_1="Boris", target="20000")
    guest.join(code, side=1)
    host.enter(code, 1, 0, 9000)
    guest.enter(code, 1, 1, 7)
    host.enter(code, 2, 0, 3345)
    guest.enter(code, 2, 1, 7)
    speaking(host, "ru")
    page = host.get("/history").shown
    assert "12\u00a0345" in page, page[page.find('class="history"') :]
    speaking(host, "ar")
    assert "12,345" in host.get("/history").shown


def test_each_game_says_its_own_decks_jack(phones):
    """Brisca is played with the Spanish deck, Basra with the French one: in Spanish, the
    calculator counts sotas at a Brisca table and jotas at a Basra table."""
    es = words("es")
    for game, jacks in (
        ("brisca", es("Jacks", context="the Spanish deck")),
        ("basra", es("Jacks")),
    ):
        host = speaking(phones(), "es")
        code = host.create(game, table_format="2", side_0="Ana", side_1="Bea")
        assert jacks in host.get(f"/m/{code}/calc").shown, game
    assert es("Jacks", context="the Spanish deck") != es("Jacks")


def test_an_ended_match_says_how_it_was_won_in_each_phone_s_language(host, guest):
    """End match stores why as a fact; each phone reads it in its own words, the JSON export
    carries the fact."""
    code = host.create("basra", table_format="2", side_0="Omar", side_1="Sami")
    speaking(guest, "ar")
    guest.join(code, side=1)
    host.enter(code, 1, 0, 101)
    guest.enter(code, 1, 1, 7)
    guest.post(f"/m/{code}/end")

    ar = words("ar")
    reason = ar("Reached %(target)d first") % {"target": 101}
    said = ar("%(side)s won. %(why)s") % {"side": "Omar", "why": reason}
    assert said in guest.get(f"/m/{code}").shown
    assert "Omar won. Reached 101 first" in host.get(f"/m/{code}").shown
    assert said in guest.get("/history").shown
    exported = json.loads(guest.get(f"/m/{code}/match.json").get_data(as_text=True))
    assert exported["win_reason"] == {"rule": "reached_first", "target": 101}
    assert "result" not in exported


def test_why_play_goes_on_names_the_sides_in_each_phone_s_language(host, guest):
    """The rules say which sides are level and at what, and what wins (facts); each phone
    words them."""
    code = host.create("basra", table_format="2", side_0="Omar", side_1="Sami")
    speaking(guest, "ru")
    guest.join(code, side=1)
    for number, points in ((1, 60), (2, 41)):
        host.enter(code, number, 0, points)
        guest.enter(code, number, 1, points)

    ru = words("ru")
    names = ru("%(first)s and %(second)s") % {"first": "Omar", "second": "Sami"}
    level = "%(names)s are level at %(top)d, past %(target)d: play on until the tie breaks."
    said = plural("ru", level, level, 2, names=names, top=101, target=101)
    page = guest.get(f"/m/{code}").shown
    assert said in page
    assert plural("ru", "%(num)d point wins.", "%(num)d points wins.", 101) in page
    assert (
        "Omar and Sami are level at 101, past 101: play on until the tie breaks."
        in host.get(f"/m/{code}").shown
    )
