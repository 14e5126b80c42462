"""The invite (the match's code and QR card) on the host's page: open only while a phone
could still take a side, so it never pushes the entry form a screen down for nothing."""

from __future__ import annotations

import re

INVITE = re.compile(r'<details class="invite"( open)?>')


def invite_open(page: str) -> bool:
    """Whether the page shows the invite unfolded."""
    found = INVITE.search(page)
    assert found is not None, "no invite on the page"
    return found.group(1) is not None


def test_the_invite_is_open_only_while_a_side_is_free(host, guest):
    code = host.create("basra", table_format="2", side_0="Alice", side_1="Ben")
    assert invite_open(host.get(f"/m/{code}").get_data(as_text=True))
    guest.join(code, side=1)
    # Every side is held: the code stays in the folded line, the QR a tap away.
    page = host.get(f"/m/{code}").get_data(as_text=True)
    assert not invite_open(page)
    assert f'<strong class="code">{code}</strong>' in page


def test_an_abandoned_or_closed_table_folds_the_invite(host):
    closed = host.create("basra", table_format="2", side_0="Alice", side_1="Ben")
    host.post(f"/m/{closed}/close")
    assert not invite_open(host.get(f"/m/{closed}").get_data(as_text=True))
    abandoned = host.create("basra", table_format="2", side_0="Alice", side_1="Ben")
    host.post(f"/m/{abandoned}/abandon", {"confirmed": "y"})
    assert not invite_open(host.get(f"/m/{abandoned}").get_data(as_text=True))


def test_a_partnership_s_side_held_by_one_phone_is_not_free(host, guest):
    code = host.create("basra", table_format="2v2", side_0="Reds", side_1="Blues")
    guest.join(code, side=1)
    # Partners often share a phone: a second phone may still join, from the folded invite.
    assert not invite_open(host.get(f"/m/{code}").get_data(as_text=True))


def test_the_host_who_keeps_the_sheet_sees_its_form_not_the_invite(host):
    """One phone keeps the sheet: its sides never fill, so the invite stays folded and the
    whole hand's form is at the top of the sheet; the code is still a tap away."""
    code = host.create("basra", table_format="2", side_0="Alice", side_1="Ben", host_side="-1")
    page = host.get(f"/m/{code}").get_data(as_text=True)
    assert not invite_open(page)
    assert f'<strong class="code">{code}</strong>' in page
    assert 'class="card entry whole-hand-entry"' in page
