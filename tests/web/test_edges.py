"""What a request must be before the app reads it (scorekeeper/edges.py): a Host a URL can be
built for, a post that is a browser's form, a chunked body no bigger than any other."""

from __future__ import annotations

import io
import json
import urllib.parse
import uuid

import pytest
import sqlalchemy as sa
from werkzeug.datastructures import Headers
from werkzeug.test import EnvironBuilder
from werkzeug.wrappers import Response

from scorekeeper import create_app, live
from scorekeeper.extensions import db
from scorekeeper.models import Entry
from tests.phones import Phone, snapshot
from tests.web.conftest import SHARED_SETTINGS

# Hosts no URL can be built for: an empty label, a label of 64 letters, both behind a port.
BAD_HOSTS = ["a..b", "." * 3, f"{'x' * 64}.example", "a..b:5000", "example..com:443"]
# Hosts phones do send: a LAN address with a port, a name, IPv6, a name in another script.
GOOD_HOSTS = ["192.168.1.23:5000", "scores.example", "[::1]:5000", "münchen.example", "localhost"]


@pytest.mark.parametrize("named", BAD_HOSTS)
def test_a_host_no_url_can_be_built_for_is_a_plain_400_on_every_route(app, basra, guest, named):
    before = snapshot(app)
    for answer in (
        guest.client.get("/", headers={"Host": named}),
        guest.client.get(f"/m/{basra}", headers={"Host": named}),
        guest.client.get("/no-such-page", headers={"Host": named}),
        guest.client.post(
            f"/m/{basra}/enter",
            data={"csrf_token": guest.token(), "hand": 1, "side": 1, "points": 5},
            headers={"Host": named},
        ),
    ):
        assert answer.status_code == 400
        assert answer.mimetype == "text/plain"
        assert len(answer.get_data()) < 100
    assert snapshot(app) == before


@pytest.mark.parametrize("named", GOOD_HOSTS)
def test_the_hosts_phones_send_are_served(app, guest, named):
    assert guest.client.get("/", headers={"Host": named}).status_code == 200


def test_a_bad_host_forwarded_by_a_trusted_proxy_is_a_plain_400(app):
    behind = create_app(
        {name: app.config[name] for name in SHARED_SETTINGS} | {"TRUSTED_PROXIES": 1}
    )
    try:
        phone = Phone(behind)
        forwarded = phone.client.get("/", headers={"X-Forwarded-Host": "a..b"})
        assert forwarded.status_code == 400 and forwarded.mimetype == "text/plain"
        good = phone.client.get("/", headers={"X-Forwarded-Host": "scores.example"})
        assert good.status_code == 200
    finally:
        live.stop(behind)
        with behind.app_context():
            db.engine.dispose()


# Bodies that are no form of this app's pages, each with the phone's own valid token in the
# header Flask-WTF reads, and values no validator expects.
NOT_FORMS = [
    ("application/json", json.dumps({"hand": [1], "side": {"a": 1}, "points": None})),
    ("application/json; charset=utf-8", json.dumps({"hand": 1, "side": 1, "points": 5})),
    ("text/plain", "hand=1&side=1&points=5"),
    ("application/xml", "<entry><points>5</points></entry>"),
    ("application/x-www-form-urlencoded-not", "hand=1&side=1&points=5"),
    (None, "hand=1&side=1&points=5"),
    (None, ""),
]


@pytest.mark.parametrize(("content_type", "body"), NOT_FORMS)
def test_a_post_that_is_not_a_form_is_refused_unread(app, basra, guest, content_type, body):
    before = snapshot(app)
    headers = {"X-CSRFToken": guest.token(), "Accept-Language": "es"}
    if content_type is not None:
        headers["Content-Type"] = content_type
    answer = guest.client.post(f"/m/{basra}/enter", data=body, headers=headers)
    assert answer.status_code == 415
    assert "Solo se pueden enviar aquí los formularios de estas páginas" in answer.shown
    assert snapshot(app) == before


@pytest.mark.parametrize("content_type", ["urlencoded", "multipart"])
def test_the_outboxs_posts_are_forms(app, basra, guest, content_type):
    # js/outbox.js resends a kept entry as URLSearchParams (urlencoded, with a charset), and a
    # page's form may go as FormData (multipart): both are forms.
    form = {"csrf_token": guest.token(), "key": uuid.uuid4().hex, "hand": 1, "side": 1}
    form["points"] = 5
    if content_type == "urlencoded":
        answer = guest.client.post(
            f"/m/{basra}/enter",
            data=urllib.parse.urlencode(form),
            content_type="application/x-www-form-urlencoded;charset=UTF-8",
            follow_redirects=True,
        )
    else:
        answer = guest.client.post(
            f"/m/{basra}/enter",
            data=form,
            content_type="multipart/form-data",
            follow_redirects=True,
        )
    assert answer.status_code == 200
    assert "Hand 1: Ben 5 recorded." in answer.shown


class Stalled(io.RawIOBase):
    """A body that stops arriving: the worker's socket timeout fires on the next read."""

    def __init__(self, first: bytes) -> None:
        self.first = first

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray) -> int:  # type: ignore[override]
        if not self.first:
            raise TimeoutError("timed out")
        size = min(len(buffer), len(self.first))
        buffer[:size], self.first = self.first[:size], self.first[size:]
        return size


def test_a_body_that_stops_arriving_is_408_so_the_outbox_sends_it_again(app, basra, guest):
    form = {"csrf_token": guest.token(), "key": uuid.uuid4().hex, "hand": 1, "side": 1}
    entry = urllib.parse.urlencode({**form, "points": 5}).encode()
    session = guest.client.get_cookie("session")
    assert session is not None
    environ = EnvironBuilder(
        path=f"/m/{basra}/enter",
        method="POST",
        content_type="application/x-www-form-urlencoded",
        content_length=len(entry) + 20,
        headers=Headers({"Accept-Language": "ar", "Cookie": f"session={session.value}"}),
    ).get_environ()
    environ["wsgi.input"] = Stalled(entry)
    environ["wsgi.input_terminated"] = True
    before = snapshot(app)
    answer = Response.from_app(app, environ, buffered=True)
    assert answer.status_code == 408
    assert "كان الاتصال أبطأ من أن يُرسَل كل شيء، فلم يُحفظ شيء" in answer.get_data(as_text=True)
    assert snapshot(app) == before


def chunked(phone: Phone, path: str, body: bytes) -> Response:
    """Post a form as a chunked body: no Content-Length, the server ending the stream
    (gunicorn sets wsgi.input_terminated). Run on the app itself, as the test client would
    give the body a length."""
    session = phone.client.get_cookie("session")
    assert session is not None
    builder = EnvironBuilder(
        path=path,
        method="POST",
        input_stream=io.BytesIO(body),
        content_type="application/x-www-form-urlencoded",
        headers=Headers(
            {
                "Transfer-Encoding": "chunked",
                "Accept-Language": "ru",
                "Cookie": f"session={session.value}",
            }
        ),
    )
    environ = builder.get_environ()
    environ.pop("CONTENT_LENGTH", None)
    environ["wsgi.input_terminated"] = True
    return Response.from_app(phone.app, environ, buffered=True)


def test_a_chunked_body_past_the_limit_is_413_and_records_nothing(app, basra, guest):
    form = {"csrf_token": guest.token(), "key": uuid.uuid4().hex, "hand": 1, "side": 1}
    entry = urllib.parse.urlencode({**form, "points": 5}).encode()
    before = snapshot(app)
    # The entry's fields first: cut at the limit, they were read as the whole form.
    answer = chunked(guest, f"/m/{basra}/enter", entry + b"&pad=" + b"x" * 100_000)
    assert answer.status_code == 413
    assert "Данных слишком много для любой формы здесь" in answer.get_data(as_text=True)
    assert snapshot(app) == before
    # Within the limit, a chunked form is read whole, as any other.
    answer = chunked(guest, f"/m/{basra}/enter", entry + b"&pad=" + b"x" * 1000)
    assert answer.status_code == 302
    with app.app_context():
        assert db.session.scalars(sa.select(Entry.points)).all() == [5]
