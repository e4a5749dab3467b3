"""The one error shape: ``{"error": code, "message", "field", "allowed"}`` plus extras.

Real requests through the DRF test client: the combat endpoints for DRF's own errors, and the
small views below (``urlpatterns``, used with ``@pytest.mark.urls``) for the errors the services
raise and the DRF errors the combat endpoints cannot produce.
"""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404
from django.urls import path
from rest_framework import exceptions
from rest_framework.authentication import BasicAuthentication
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.test import APIClient
from rest_framework.views import APIView

from games.web.exceptions import (
    ApplicationError,
    ConflictError,
    ForbiddenError,
    NotFoundError,
    error_body,
)

pytestmark = pytest.mark.django_db

RISK_ODDS = "/api/combat/risk/odds"
AA_BATTLES = "/api/combat/aa/battles"
KEYS = ["error", "message", "field", "allowed"]
HERE = "tests.test_errors"


@pytest.fixture
def api() -> APIClient:
    return APIClient()


def post_json(api: APIClient, url: str, body: object):
    return api.post(url, body, format="json")


# --- DRF's errors through the combat endpoints ------------------------------------------------


@pytest.mark.parametrize(
    ("body", "code", "field", "message"),
    [
        ({"attackers": 3}, "required", "defenders", "This field is required."),
        (
            {"attackers": "3", "defenders": 2},
            "invalid",
            "attackers",
            "A valid integer is required.",
        ),
        (
            {"attackers": 3, "defenders": 2, "mode": "blitz"},
            "invalid_choice",
            "mode",
            '"blitz" is not a valid choice.',
        ),
    ],
)
def test_a_validation_error_carries_drf_s_code_for_the_first_error(api, body, code, field, message):
    response = post_json(api, RISK_ODDS, body)
    assert response.status_code == 400
    assert response.json() == {"error": code, "message": message, "field": field, "allowed": None}
    assert list(response.json()) == KEYS


# The 404 and the 405 (with its Allow header) are tested in tests/combat/test_aa_api.py.


def test_malformed_json_is_a_parse_error_about_the_body(api):
    response = api.post(RISK_ODDS, '{"attackers": ', content_type="application/json")
    assert response.status_code == 400
    body = response.json()
    assert (body["error"], body["field"], body["allowed"]) == ("parse_error", "body", None)
    assert body["message"].startswith("JSON parse error")


def test_a_resolver_error_is_invalid_input_with_the_allowed_values(api):
    response = post_json(api, "/api/combat/wif/land", {"attack": 3, "defense": 1, "column": "x"})
    assert response.status_code == 400
    body = response.json()
    assert (body["error"], body["field"]) == ("invalid_input", "column")
    assert body["allowed"] == ["assault", "blitz"]
    assert body["message"]


def test_an_unknown_field_is_named_with_the_known_ones(api):
    response = post_json(api, RISK_ODDS, {"attackers": 3, "defenders": 2, "flank": [1]})
    assert response.status_code == 400
    body = response.json()
    assert (body["error"], body["field"], body["message"]) == (
        "unknown_field",
        "flank",
        "unknown field",
    )
    assert "flanks" in body["allowed"]


# --- the services' errors and the rest of DRF's, through small views ---------------------------


class RaiseApi(APIView):
    """Raises whatever ``error`` is; anonymous GETs only."""

    authentication_classes: list[type] = []
    permission_classes = [AllowAny]
    error: Exception | None = None  # set by as_view(error=...)

    def get(self, request: Request) -> Response:
        assert self.error is not None
        raise self.error


class SignedInApi(APIView):
    """Needs a user, and asks for HTTP Basic credentials (so the 401 has WWW-Authenticate)."""

    authentication_classes = [BasicAuthentication]
    permission_classes = [IsAuthenticated]

    def get(self, request: Request) -> Response:
        return Response({})


def raising(error: Exception):
    return RaiseApi.as_view(error=error)


urlpatterns = [
    path(
        "invalid",
        raising(
            ApplicationError(
                "the board has no such territory",
                field="orders.0.from",
                allowed=["alaska", "kamchatka"],
                extra={"game": 12, "turn": 4},
            )
        ),
    ),
    path(
        "stale",
        raising(
            ConflictError(
                "the game has moved on", field="version", code="stale_version", extra={"version": 7}
            )
        ),
    ),
    path("conflict", raising(ConflictError("the seat is taken"))),
    path("missing", raising(NotFoundError("no game has this id", field="id"))),
    path("forbidden", raising(ForbiddenError("not your seat"))),
    path("http404", raising(Http404("No Game matches the given query."))),
    path("denied", raising(DjangoPermissionDenied())),
    path("throttled", raising(exceptions.Throttled(wait=30))),
    path("custom-code", raising(exceptions.PermissionDenied("seat closed", code="seat_closed"))),
    path("signed-in", SignedInApi.as_view()),
]


@pytest.mark.urls(HERE)
def test_an_application_error_adds_its_extra_keys_after_the_standard_ones(api):
    response = api.get("/invalid")
    assert response.status_code == 400
    body = response.json()
    assert body == {
        "error": "invalid_request",
        "message": "the board has no such territory",
        "field": "orders.0.from",
        "allowed": ["alaska", "kamchatka"],
        "game": 12,
        "turn": 4,
    }
    assert list(body) == [*KEYS, "game", "turn"]


@pytest.mark.urls(HERE)
def test_a_conflict_error_is_a_409(api):
    response = api.get("/conflict")
    assert response.status_code == 409
    assert response.json() == {
        "error": "conflict",
        "message": "the seat is taken",
        "field": None,
        "allowed": None,
    }


@pytest.mark.urls(HERE)
def test_a_stale_version_is_a_409_with_its_own_code_and_the_current_version(api):
    response = api.get("/stale")
    assert response.status_code == 409
    assert response.json() == {
        "error": "stale_version",
        "message": "the game has moved on",
        "field": "version",
        "allowed": None,
        "version": 7,
    }


@pytest.mark.urls(HERE)
@pytest.mark.parametrize(
    ("url", "status", "code", "field", "message"),
    [
        ("/missing", 404, "not_found", "id", "no game has this id"),
        ("/forbidden", 403, "forbidden", None, "not your seat"),
        ("/http404", 404, "not_found", None, "No Game matches the given query."),
        (
            "/denied",
            403,
            "permission_denied",
            None,
            "You do not have permission to perform this action.",
        ),
        ("/custom-code", 403, "seat_closed", None, "seat closed"),
    ],
)
def test_each_error_has_its_status_and_code(api, url, status, code, field, message):
    response = api.get(url)
    assert response.status_code == status
    assert response.json() == {"error": code, "message": message, "field": field, "allowed": None}


@pytest.mark.urls(HERE)
def test_throttling_keeps_the_retry_after_header(api):
    response = api.get("/throttled")
    assert response.status_code == 429
    assert response["Retry-After"] == "30"
    body = response.json()
    assert (body["error"], body["field"], body["allowed"]) == ("throttled", None, None)
    assert body["message"].startswith("Request was throttled.")


@pytest.mark.urls(HERE)
def test_not_authenticated_keeps_the_www_authenticate_header(api):
    response = api.get("/signed-in")
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == 'Basic realm="api"'
    assert response.json() == {
        "error": "not_authenticated",
        "message": "Authentication credentials were not provided.",
        "field": None,
        "allowed": None,
    }


@pytest.mark.urls(HERE)
def test_wrong_credentials_are_authentication_failed(api):
    api.credentials(HTTP_AUTHORIZATION="Basic bm9ib2R5Om5vdGhpbmc=")  # nobody:nothing
    response = api.get("/signed-in")
    assert response.status_code == 401
    assert response.json()["error"] == "authentication_failed"


# --- building bodies ----------------------------------------------------------------------------


def test_error_body_puts_the_standard_keys_first():
    body = error_body("stale_version", "version", "the game has moved on", None, version=7)
    assert list(body) == [*KEYS, "version"]
    assert body["version"] == 7


def test_extra_keys_may_not_replace_the_standard_ones():
    with pytest.raises(ValueError, match="message"):
        ApplicationError("refused", extra={"message": "other"})
    with pytest.raises(ValueError, match="error"):
        error_body("conflict", None, "refused", error="other")


def test_application_error_codes_and_statuses():
    assert (ApplicationError("x").code, ApplicationError.status) == ("invalid_request", 400)
    assert (NotFoundError("x").code, NotFoundError.status) == ("not_found", 404)
    assert (ForbiddenError("x").code, ForbiddenError.status) == ("forbidden", 403)
    assert (ConflictError("x").code, ConflictError.status) == ("conflict", 409)
    assert ConflictError("x", code="stale_version").code == "stale_version"
    assert ConflictError.code == "conflict"  # an instance's code leaves the class's alone
