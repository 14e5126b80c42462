"""The players' languages: which one a phone reads, its time zone, and words, dates and numbers
in them (Flask-Babel; the catalogs are in scorekeeper/translations, built by `make`).

A phone reads the language its browser asks for (Accept-Language) until its player picks one
with the switch on every page, which its signed cookie then remembers. Each phone at a table may
read its own: the sheet is the same, only the words change. Its time zone comes from a cookie
static/js/live.js writes; until then times are UTC and say so.

Flask-Babel's lazy strings (`_l`) and the games' Terms (scorekeeper/terms.py) are not
HTML-escaped when rendered: they carry only our own words, never a name someone typed (that goes
through `_()` at request time, in a template, or a Problem, which a page escapes).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from datetime import datetime
from functools import cached_property, lru_cache
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from babel import Locale
from babel.dates import format_skeleton, format_time
from babel.numbers import format_decimal as babel_decimal
from babel.numbers import get_group_symbol
from babel.support import Translations
from flask import Blueprint, Flask, has_request_context, redirect, request, session
from flask_babel import Babel, Domain, format_percent, get_locale, get_timezone, get_translations
from jinja2 import pass_context
from jinja2.runtime import Context
from markupsafe import Markup
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header
from werkzeug.wrappers import Response

# Each language by its own name, as a reader of it looks for it on the switch.
LANGUAGES = {
    "en": "English",
    "ar": "العربية",
    "ru": "Русский",
    "es": "Español",
    "it": "Italiano",
}
DEFAULT_LANGUAGE = "en"
# Unicode's marks for a number in a right-to-left line (_signed).
LEFT_TO_RIGHT_ISOLATE, POP_DIRECTIONAL_ISOLATE = "\u2066", "\u2069"
# The one sign a number below zero is drawn with, in every language and every place (issue 42:
# the calculator mixed "−" and "-"): the hyphen-minus. It is the sign Unicode's locale data
# (CLDR, through Babel) gives all four languages, and the one a phone's keypad types, so a
# typed -5 and the cell it lands in read alike; a number copied or exported from a page reads
# as a number in a spreadsheet. The typographic minus (U+2212) would be a hair wider, but beside
# the typed "-" it reads as a second sign. Typed, both are read (forms.MINUS).
MINUS_SIGN = "-"
# A placeholder for a whole number in a sentence ("%(num)d points"): filled in by number().
WHOLE_PLACEHOLDER = re.compile(r"%\((\w+)\)d")
# The cookie js/live.js writes with the phone's IANA zone (Intl's resolvedOptions().timeZone).
ZONE_COOKIE = "tz"
MOST_ZONE_LENGTH = 64
# Where a page's templates find this request's catalog, and its language's number().
PAGE_CATALOG = "_catalog"
PAGE_NUMBERS = "_numbers"

bp = Blueprint("languages", __name__)


def choose_language(picked: object, accept_language: str | None) -> str:
    """The language a phone reads: the one its player picked, else the best its browser asks
    for, else English. Pure, so a page's ETag (live/etags.py) works it out as the page does."""
    if isinstance(picked, str) and picked in LANGUAGES:
        return picked
    if accept_language:
        return _browser_language(accept_language)
    return DEFAULT_LANGUAGE


@lru_cache(maxsize=256)
def _browser_language(accept_language: str) -> str:
    # A phone sends the same header on every fetch, and parsing it cost more than the rest of
    # an unchanged fetch's own work: each header is worked out once (a pure function of it).
    best = parse_accept_header(accept_language, LanguageAccept).best_match(LANGUAGES)
    return best or DEFAULT_LANGUAGE


def choose_zone(cookie: str | None) -> str:
    """The phone's time zone as its cookie names it, if it is one; else UTC."""
    if cookie and len(cookie) <= MOST_ZONE_LENGTH:
        try:
            ZoneInfo(cookie)
        except (ZoneInfoNotFoundError, ValueError):
            return "UTC"
        return cookie
    return "UTC"


def _catalog(page: Context) -> Translations:
    """The catalog a template's words come from: the one its page looked up as it started;
    a template drawn outside render_template looks it up itself. (Read from the page's
    variables as render_template gave them, `parent`, where the context processor put it: a
    plain dict's lookup, where the context's own would take three calls, for every word.)"""
    catalog = page.parent.get(PAGE_CATALOG)
    return catalog if catalog is not None else get_translations()


def _numbers(page: Context) -> Callable[[int], str]:
    """number() for a template's page: the one its page looked up as it started (`parent`,
    as _catalog; a long sheet asks it for thousands of numbers)."""
    numbers = page.parent.get(PAGE_NUMBERS)
    return numbers if numbers is not None else numbers_in(language())


def _selected_language() -> str:
    # Outside a request (a command, a test's app context) there is no phone: English.
    if not has_request_context():
        return DEFAULT_LANGUAGE
    return choose_language(session.get("lang"), request.headers.get("Accept-Language"))


def _selected_zone() -> ZoneInfo:
    # A zone object, not its name: Flask-Babel would look a name up in pytz, which knows
    # fewer names than the zoneinfo that choose_zone checked it with.
    if not has_request_context():
        return ZoneInfo("UTC")
    return ZoneInfo(choose_zone(request.cookies.get(ZONE_COOKIE)))


def language() -> str:
    """This request's language code ("ar")."""
    return str(get_locale() or DEFAULT_LANGUAGE)


def direction(code: str | None = None) -> str:
    """ "rtl" for a language written right to left (Arabic), else "ltr", from Babel's data; of
    this request's language unless a code is given."""
    order = Locale.parse(code or language()).character_order
    return "rtl" if order == "right-to-left" else "ltr"


def when(moment: datetime, with_year: bool = False) -> str:
    """A stored time (UTC) in the phone's language and zone, as Babel writes a short day and
    time there ("3 дек., 21:05", "Dec 3, 9:05 PM"): the _macros.html time() macro puts it in
    its <time>. Until the phone has told its zone, the time is UTC and says so."""
    zone, locale = get_timezone(), get_locale() or Locale.parse(DEFAULT_LANGUAGE)
    day = format_skeleton("yMMMd" if with_year else "MMMd", moment, tzinfo=zone, locale=locale)
    hour = format_time(moment, "short", tzinfo=zone, locale=locale)
    # The language's own way of putting a day and a time together ("{1}, {0}"; Arabic "{1}، {0}").
    shown = locale.datetime_formats["short"].format(hour, day)
    if str(zone) == "UTC":
        shown += " UTC"
    return shown


def day(moment: datetime) -> str:
    """A stored time's day in the phone's language and zone, with its year ("Dec 3, 2026",
    "3 дек. 2026 г."): how people know a match they played."""
    zone, locale = get_timezone(), get_locale() or Locale.parse(DEFAULT_LANGUAGE)
    return format_skeleton("yMMMd", moment, tzinfo=zone, locale=locale)


def iso_utc(moment: datetime | None) -> str | None:
    """A stored time (UTC) as ISO 8601 with its zone: what the exports hold and what a page
    gives the page's script to show in the phone's zone."""
    return f"{moment.isoformat(timespec='seconds')}Z" if moment is not None else None


def number(value: int) -> str:
    """A whole number as the phone's language writes it, the one way every page draws one
    (the sheet, the TV, the trail, History, the record, the calculator, the print, the chart,
    and every number in a sentence: fill): Babel's ("1 234" in Russian, "1.234" in Spanish).
    Arabic keeps Western digits: that is what Babel's (CLDR's) data gives plain "ar" (its
    default numbering system is latn), and the digits the entry fields use. Arabic-Indic
    digits typed in are read all the same. Below zero, with MINUS_SIGN (_signed)."""
    return numbers_in(language())(value)


@lru_cache(maxsize=32)
def numbers_in(code: str) -> Callable[[int], str]:
    """number() for one language, its data looked up once: a page asks for it once
    (PAGE_NUMBERS) and draws its thousands of numbers with it, each in one call (Babel takes
    some 25 µs for each). Its groups of three (every language here) in Python's own grouping
    with the language's separator; any other pattern as Babel writes it
    (tests/web/test_numbers.py holds the two equal)."""
    locale = Locale.parse(code)
    pattern = locale.decimal_formats[None]
    threes = pattern.grouping == (3, 3) and pattern.prefix[0] == pattern.suffix[0] == ""
    group = get_group_symbol(locale) if threes else None
    right_to_left = direction(code) == "rtl"

    def write(value: int) -> str:
        size = abs(value)
        digits = (
            f"{size:,}".replace(",", group)
            if group is not None
            else babel_decimal(size, locale=locale)
        )
        if value >= 0:
            return digits
        if right_to_left:
            return f"{LEFT_TO_RIGHT_ISOLATE}{MINUS_SIGN}{digits}{POP_DIRECTIONAL_ISOLATE}"
        return MINUS_SIGN + digits

    return write


def _signed(value: float, digits: str) -> str:
    """A number's digits after MINUS_SIGN when it is below zero. In a language written right
    to left the number is set apart, left to right (Unicode's isolate marks), so its sign stays
    at its digits' left ("-15", not "15-") and the words around it keep their order."""
    if value >= 0:
        return digits
    if direction() == "rtl":
        return f"{LEFT_TO_RIGHT_ISOLATE}{MINUS_SIGN}{digits}{POP_DIRECTIONAL_ISOLATE}"
    return MINUS_SIGN + digits


def fill(
    words: str,
    values: Mapping[str, object],
    markup: bool = False,
    numbers: Callable[[int], str] | None = None,
) -> str:
    """A translated sentence with its placeholders filled in, every whole number written by
    number(): "%(num)d points" reads "1,250 points", as the sheet writes 1250 (a catalog's
    %(num)d says "a whole number here", and number() says how the language writes it). With
    `markup`, the words are the page's own markup and every value is escaped into them;
    `numbers`: number() for the page's language, where the page has it at hand."""
    if not values:
        return Markup(words) if markup else words
    wholes = {
        name
        for name, value in values.items()
        if isinstance(value, int) and not isinstance(value, bool)
    }
    if wholes:
        words = WHOLE_PLACEHOLDER.sub(
            lambda found: f"%({found[1]})s" if found[1] in wholes else found[0], words
        )
        values = {
            name: (numbers or number)(value) if name in wholes else value  # type: ignore[arg-type]
            for name, value in values.items()
        }
    return (Markup(words) if markup else words) % values


class NumberedDomain(Domain):
    """Flask-Babel's words, each sentence filled in by fill(): every gettext in the code
    (gettext, ngettext, their lazy and contextual kinds) writes its numbers as the pages do."""

    def gettext(self, string: str, **variables: object) -> str:
        """A sentence in the phone's language, its numbers written by number()."""
        return fill(self.get_translations().ugettext(string), variables)

    def ngettext(self, singular: str, plural: str, num: int, **variables: object) -> str:
        """The sentence for `num` in the phone's language (its plural forms), filled in."""
        variables.setdefault("num", num)
        return fill(self.get_translations().ungettext(singular, plural, num), variables)

    def pgettext(self, context: str, string: str, **variables: object) -> str:
        """A sentence in its context, in the phone's language, filled in."""
        return fill(self.get_translations().upgettext(context, string), variables)

    def npgettext(
        self, context: str, singular: str, plural: str, num: int, **variables: object
    ) -> str:
        """The sentence for `num` in its context, in the phone's language, filled in."""
        variables.setdefault("num", num)
        return fill(self.get_translations().unpgettext(context, singular, plural, num), variables)


class PhoneBabel(Babel):
    """Flask-Babel whose words write their numbers as the pages do (NumberedDomain)."""

    @cached_property
    def domain_instance(self) -> NumberedDomain:
        """The catalogs' domain, its sentences filled in by fill()."""
        return NumberedDomain(domain=self.domain)


babel = PhoneBabel()


def share(value: float) -> str:
    """A share as the phone's language writes a percentage ("62 %" in Russian)."""
    return format_percent(value)


def tenths(value: float) -> str:
    """A number to one decimal, as the phone's language writes it ("23,5" in Spanish), its
    sign as number() writes it."""
    return _signed(value, babel_decimal(abs(value), "#,##0.0"))


@bp.post("/language")
def switch() -> Response:
    """The language switch: this phone reads the picked language from now on. Back to the
    page it was on (only a path of this site, so the switch sends nobody elsewhere)."""
    picked = request.form.get("lang", "")
    if picked in LANGUAGES:
        session["lang"] = picked
        session.permanent = True
    back = request.form.get("next", "")
    parts = urlsplit(back)
    if not back.startswith("/") or back.startswith("//") or parts.scheme or parts.netloc:
        back = "/"
    return redirect(back, 303)


def init_app(app: Flask) -> None:
    """Flask-Babel with the phone's language and zone; the switch; `when` and `number` for
    templates, and what base.html needs to say the language and its direction."""
    babel.init_app(app, locale_selector=_selected_language, timezone_selector=_selected_zone)
    # Flask-Babel finds the catalog through several look-ups of the request's context for each
    # word, and a page has dozens: a page's templates look it up once, as they start.
    app.context_processor(
        lambda: {PAGE_CATALOG: get_translations(), PAGE_NUMBERS: numbers_in(language())}
    )
    # The i18n extension's (which Flask-Babel loads) callables, as its "newstyle" ones are
    # (a sentence's placeholders filled in by keyword, escaped into the page's markup), each
    # sentence filled in by fill() so its numbers read as the page's. Its `_` finds them here.
    app.jinja_env.newstyle_gettext = True  # type: ignore[attr-defined]
    app.jinja_env.globals.update(
        gettext=pass_context(
            lambda page, text, **values: fill(
                _catalog(page).ugettext(text), values, page.eval_ctx.autoescape, _numbers(page)
            )
        ),
        ngettext=pass_context(
            lambda page, one, many, n, **values: fill(
                _catalog(page).ungettext(one, many, n),
                {"num": n, **values},
                page.eval_ctx.autoescape,
                _numbers(page),
            )
        ),
        pgettext=pass_context(
            lambda page, context, text, **values: fill(
                _catalog(page).upgettext(context, text),
                values,
                page.eval_ctx.autoescape,
                _numbers(page),
            )
        ),
        npgettext=pass_context(
            lambda page, context, one, many, n, **values: fill(
                _catalog(page).unpgettext(context, one, many, n),
                {"num": n, **values},
                page.eval_ctx.autoescape,
                _numbers(page),
            )
        ),
    )
    app.register_blueprint(bp)
    app.add_template_filter(when, "when")
    app.add_template_filter(day, "day")
    app.add_template_filter(iso_utc, "iso_utc")
    app.add_template_filter(pass_context(lambda page, value: _numbers(page)(value)), "number")
    app.add_template_filter(share, "share")
    app.add_template_filter(tenths, "tenths")
    app.jinja_env.globals["LANGUAGES"] = LANGUAGES
    app.add_template_global(language)
    app.add_template_global(direction)
