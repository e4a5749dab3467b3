"""The combat endpoints sign users in as the games API does: an API token works like a
session, and a wrong token is refused with a 401, never treated as anonymous."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from combat.models import AABattle
from tests.combat.test_aa_api import BATTLES, ODDS, THREE_V_ONE

pytestmark = pytest.mark.django_db

BAD_TOKEN = {
    "error": "authentication_failed",
    "message": "Invalid token.",
    "field": None,
    "allowed": None,
}


def token_client(user=None, key: str | None = None) -> APIClient:
    """A script's client: CSRF enforced (a token needs none), an API token, no session."""
    client = APIClient(enforce_csrf_checks=True)
    key = key if key is not None else Token.objects.create(user=user).key
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


@pytest.fixture
def owner():
    return get_user_model().objects.create_user("owner", password="pw-owner-123")


@pytest.fixture
def other():
    return get_user_model().objects.create_user("other", password="pw-other-123")


def test_a_creator_signed_in_with_a_token_closes_their_battle_without_its_close_token(owner, other):
    script = token_client(owner)
    created = script.post(BATTLES, THREE_V_ONE, format="json")
    assert created.status_code == 201
    battle = created.json()
    assert AABattle.objects.get(pk=battle["id"]).requester == owner
    close = f"{BATTLES}/{battle['id']}/close"

    # Someone else's token signs them in, but they did not ask for the battle.
    refused = token_client(other).post(close, {}, format="json")
    assert refused.status_code == 403
    assert refused.json() == {
        "error": "forbidden",
        "message": "required: the token returned when the battle was created",
        "field": "close_token",
        "allowed": None,
    }
    assert AABattle.objects.get(pk=battle["id"]).closed_at is None

    closed = script.post(close, {}, format="json")
    assert closed.status_code == 200
    body = closed.json()
    assert body["closed"] is True
    assert body["seed"] == AABattle.objects.get(pk=battle["id"]).seed
    assert body["verification"]["verified"] is True


@pytest.mark.parametrize(
    ("method", "url", "body"),
    [
        ("post", ODDS, THREE_V_ONE),
        ("post", BATTLES, THREE_V_ONE),
        ("get", f"{BATTLES}/00000000-0000-0000-0000-000000000000", None),
        ("post", f"{BATTLES}/00000000-0000-0000-0000-000000000000/close", {"close_token": "x"}),
    ],
)
def test_a_wrong_token_is_a_401_with_a_challenge_on_every_endpoint(method, url, body):
    bad = token_client(key="not-a-real-token")
    response = getattr(bad, method)(url, body, format="json")
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Token"
    assert response.json() == BAD_TOKEN


def test_a_wrong_token_cannot_close_even_with_the_right_close_token(owner):
    battle = token_client(owner).post(BATTLES, THREE_V_ONE, format="json").json()
    bad = token_client(key="0" * 40)
    response = bad.post(
        f"{BATTLES}/{battle['id']}/close", {"close_token": battle["close_token"]}, format="json"
    )
    assert response.status_code == 401
    assert response.json() == BAD_TOKEN
    assert AABattle.objects.get(pk=battle["id"]).closed_at is None


def test_a_battle_created_without_credentials_stays_anonymous():
    battle = APIClient().post(BATTLES, THREE_V_ONE, format="json").json()
    assert AABattle.objects.get(pk=battle["id"]).requester is None


def test_a_signed_in_browser_still_needs_its_csrf_token(owner):
    """Session authentication is kept, with DRF's CSRF check for browsers."""
    browser = APIClient(enforce_csrf_checks=True)
    browser.force_login(owner)
    response = browser.post(BATTLES, THREE_V_ONE, format="json")
    assert response.status_code == 403
    assert response.json()["error"] == "permission_denied"
    assert response.json()["message"].startswith("CSRF Failed")
