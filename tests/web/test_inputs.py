"""What a new player stumbled on (issue 22), in the served HTML: the New match form's "This
phone plays on" names the sides as the name fields do, whatever JavaScript does."""

from __future__ import annotations

import re

import pytest

from tests.phones import CHECKED
from tests.words import words


def plays_on_options(page: str) -> list[str]:
    """The choices "This phone plays on" offers, as drawn (a phone without JavaScript)."""
    select = page.split('name="host_side"')[1].split("</select>")[0]
    return re.findall(r"<option[^>]*>([^<]*)</option>", select)


@pytest.mark.parametrize("language", ["en", "ar", "ru", "es", "it"])
def test_this_phone_plays_on_names_the_sides_in_the_phones_language(host, language):
    say = words(language)
    host.post("/language", {"lang": language, "next": "/"})
    page = host.get("/new/basra").shown
    assert plays_on_options(page) == [
        *(say("Side %(number)s", number=n) for n in (1, 2, 3)),
        say("No side: I only keep the sheet"),
    ]


def test_a_refused_form_offers_the_sides_by_the_names_typed(host):
    """Drawn again after a refusal, the form offers "Grandma", as js/forms.js would while typing."""
    defaults = dict(CHECKED.findall(host.get("/new/other").shown))
    typed = {"target": "lots", "side_0": "Grandma", "side_1": " Kids ", "player": "Omar"}
    refused = host.post("/new/other", {**defaults, **typed})
    assert refused.status_code == 400
    assert plays_on_options(refused.shown) == [
        "Grandma",
        "Kids",
        *(f"Side {n}" for n in range(3, 9)),
        "No side: I only keep the sheet",
    ]
