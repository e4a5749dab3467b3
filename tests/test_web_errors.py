"""The web layer's own refusals in the API's error shape: unknown API
paths, ids that overflow 64 bits, bodies over the limit, JSON nested too deeply, and 500s with
an error id the log carries too. Each failed before ``games.web.web_errors`` and
``games.web.parsers``."""

from __future__ import annotations

import json
import logging

import pytest
from asgiref.testing import ApplicationCommunicator
from django.test import Client

from games.web.web_errors import BodyLimit

pytestmark = pytest.mark.django_db

KEYS = ["error", "message", "field", "allowed"]


@pytest.fixture
def web() -> Client:
    return Client(raise_request_exception=False)


@pytest.mark.parametrize(
    "path",
    ["/api/nothing-here", "/api/games/abc", "/api/games/99999999999999999999", "/api/games/1/x"],
)
def test_unknown_api_paths_and_overflowing_ids_are_json_404s(web, path):
    response = web.get(path)
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    body = response.json()
    assert list(body)[:4] == KEYS
    assert (body["error"], body["field"]) == ("not_found", None)
    assert body["message"] == f"no such API path: {path}"


def test_an_id_of_18_digits_reaches_the_view_and_is_its_404(web):
    response = web.get("/api/games/999999999999999999")
    assert (response.status_code, response.json()["error"]) == (404, "not_found")
    assert response.json()["field"] == "id"  # the view's own answer, not the path's


def test_a_page_outside_the_api_is_the_sites_own_html_404(web):
    response = web.get("/no-such-page")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")
    page = response.content.decode()
    # The site's base template: its title, style sheet and navigation, the path named.
    assert "<title>Not found - Warboard</title>" in page
    assert 'rel="stylesheet" href="/static/frontend/site.css"' in page
    assert '<nav aria-label="Site">' in page and '<a href="/games">Games</a>' in page
    assert "<h1>Page not found</h1>" in page and "<code>/no-such-page</code>" in page


def test_a_page_outside_the_api_that_fails_is_the_sites_500_with_the_error_id(
    web, monkeypatch, caplog
):
    from frontend import views

    def broken(self, **kwargs):
        raise RuntimeError("a page bug")

    monkeypatch.setattr(views.RulesView, "get_context_data", broken)
    with caplog.at_level(logging.ERROR, logger="warboard.errors"):
        response = web.get("/rules")
    assert response.status_code == 500 and response["Content-Type"].startswith("text/html")
    page = response.content.decode()
    logged = [r for r in caplog.records if r.name == "warboard.errors"]
    error_id = logged[0].getMessage().split("error_id=")[1].split()[0]
    assert f'<code id="error-id">{error_id}</code>' in page
    assert "<title>Server error - Warboard</title>" in page
    assert 'rel="stylesheet" href="/static/frontend/site.css"' in page


def test_json_nested_100000_levels_is_a_400_naming_the_body(web):
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.create_user("nester", password="x" * 12)
    web.force_login(user)
    response = web.post("/api/games", data="[" * 100_000, content_type="application/json")
    assert response.status_code == 400
    body = response.json()
    assert (body["error"], body["field"]) == ("parse_error", "body")
    assert "nested too deeply" in body["message"]


def test_a_malformed_multipart_body_is_a_json_400_naming_the_body(django_user_model):
    """A signed-in browser POST with no CSRF header makes the CSRF check read the form; a
    broken multipart body is then the parser's 400 in the error shape."""
    user = django_user_model.objects.create_user("multi", password="x" * 12)
    web = Client(raise_request_exception=False, enforce_csrf_checks=True)
    web.force_login(user)
    web.get("/api/auth/csrf")  # the CSRF cookie, as a browser has it
    response = web.post(
        "/api/games",
        data=b'--xyz\r\nContent-Disposition: form-data; name="a"\r\n\r\n',
        content_type="multipart/form-data; boundary=",
    )
    assert response.status_code == 400
    body = response.json()
    assert (body["error"], body["field"]) == ("parse_error", "body")


def test_a_request_django_refuses_before_any_view_is_a_json_400_under_the_api(web):
    """A Host header outside ALLOWED_HOSTS is refused by Django itself (an HTML 400 before)."""
    response = web.get("/api/games", HTTP_HOST="evil.example")
    assert response.status_code == 400
    body = response.json()
    assert (body["error"], body["field"]) == ("bad_request", "host")
    page = web.get("/", HTTP_HOST="evil.example")
    assert page.status_code == 400 and page["Content-Type"].startswith("text/html")


def test_an_unexpected_exception_is_a_json_500_with_the_error_id_the_log_carries(
    web, monkeypatch, caplog
):
    from games.play.api import games

    def broken(self, request, *args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(games.GameListApi, "get", broken)
    with caplog.at_level(logging.ERROR, logger="warboard.errors"):
        response = web.get("/api/games")
    assert response.status_code == 500
    body = response.json()
    assert list(body)[:4] == KEYS and body["error"] == "server_error"
    error_id = body["error_id"]
    assert len(error_id) == 16
    logged = [r for r in caplog.records if r.name == "warboard.errors"]
    assert len(logged) == 1 and f"error_id={error_id}" in logged[0].getMessage()
    assert logged[0].exc_info[1].args == ("a bug",)


# --- the body limit, at the ASGI level --------------------------------------------------------


async def _run(limit: int, headers: list, chunks: list[bytes]) -> tuple[list[dict], list[bytes]]:
    """Send ``chunks`` as one request through ``BodyLimit``; what it answered, and the body the
    wrapped app received (empty when it was never called)."""
    received: list[bytes] = []

    async def app(scope, receive, send):
        message = await receive()
        received.append(message["body"])
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})

    scope = {"type": "http", "method": "POST", "path": "/api/games", "headers": headers}
    communicator = ApplicationCommunicator(BodyLimit(app, limit=limit), scope)
    for i, chunk in enumerate(chunks):
        await communicator.send_input(
            {"type": "http.request", "body": chunk, "more_body": i < len(chunks) - 1}
        )
    out = [await communicator.receive_output(timeout=2) for _ in range(2)]
    await communicator.wait(timeout=2)
    return out, received


async def test_a_declared_body_over_the_limit_is_a_413_before_it_is_read():
    out, received = await _run(100, [(b"content-length", b"300000000")], [b"x" * 10])
    assert out[0]["status"] == 413 and received == []
    body = json.loads(out[1]["body"])
    assert (body["error"], body["field"], body["limit"]) == ("request_too_large", "body", 100)


async def test_a_chunked_body_is_refused_as_soon_as_it_passes_the_limit():
    out, received = await _run(100, [], [b"x" * 60, b"x" * 60, b"x" * 60])
    assert out[0]["status"] == 413 and received == []


async def test_a_body_within_the_limit_reaches_the_app_whole():
    out, received = await _run(100, [], [b"a" * 50, b"b" * 50])
    assert out[0]["status"] == 200 and received == [b"a" * 50 + b"b" * 50]


def test_the_server_application_is_wrapped_in_the_body_limit(settings):
    from config.asgi import application

    assert isinstance(application.application_mapping["http"], BodyLimit)
    assert settings.MAX_REQUEST_BODY == 1024 * 1024
