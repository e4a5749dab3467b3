"""Accounts over HTTP: registration, sessions, CSRF, API tokens, rate limits and the profile."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.core.exceptions import ImproperlyConfigured
from django.core.management import call_command
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games.common.throttles import LoginThrottle
from games.models import Profile
from games.play import submit
from games.web.exceptions import ThrottledError

pytestmark = pytest.mark.django_db

REGISTER = "/api/auth/register"
LOGIN = "/api/auth/login"
LOGOUT = "/api/auth/logout"
CSRF = "/api/auth/csrf"
TOKEN = "/api/auth/token"
ME = "/api/auth/me"

PASSWORD = "stormy-harbour-1942"
INVALID_CREDENTIALS = {
    "error": "invalid_credentials",
    "message": "Unable to sign in with this username and password.",
    "field": None,
    "allowed": None,
}
NOT_SIGNED_IN = {
    "error": "not_authenticated",
    "message": "Authentication credentials were not provided.",
    "field": None,
    "allowed": None,
}


def profile_body(username: str, email: str = "", display_name: str = "", **flags: Any) -> dict:
    return {
        "username": username,
        "email": email,
        "display_name": display_name,
        "email_your_turn": flags.get("email_your_turn", True),
        "email_reminder": flags.get("email_reminder", True),
        "email_game_over": flags.get("email_game_over", True),
        "roll_until": flags.get("roll_until", "decided"),
        "roll_until_armies": flags.get("roll_until_armies", 3),
    }


@pytest.fixture(autouse=True)
def _fresh_throttle_counts():
    """Throttles count in the cache, which outlives a test; every test starts from zero."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def set_rate(settings):
    """Change one throttle scope's rate for this test (the throttles read it per request)."""

    def set_rate(scope: str, rate: str) -> None:
        rest = settings.REST_FRAMEWORK
        rates = {**rest["DEFAULT_THROTTLE_RATES"], scope: rate}
        settings.REST_FRAMEWORK = {**rest, "DEFAULT_THROTTLE_RATES": rates}

    return set_rate


@pytest.fixture
def client() -> APIClient:
    return APIClient()


@pytest.fixture
def csrf_client() -> APIClient:
    """A client that gets the CSRF check a browser gets (the default test client skips it)."""
    return APIClient(enforce_csrf_checks=True)


@pytest.fixture
def alice() -> User:
    return User.objects.create_user("alice", email="alice@example.org", password=PASSWORD)


@pytest.fixture
def bob() -> User:
    return User.objects.create_user("bob", email="bob@example.org", password=PASSWORD)


@pytest.fixture
def carol() -> User:
    return User.objects.create_user("carol", email="carol@example.org", password=PASSWORD)


def csrf_token(client: APIClient) -> str:
    response = client.get(CSRF)
    assert response.status_code == 200
    token = response.json()["csrf_token"]
    assert client.cookies["csrftoken"].value  # the cookie the token is checked against
    return token


def post(client: APIClient, url: str, data: dict[str, Any], **headers: str):
    return client.post(url, data, format="json", **headers)


# --- Registration ------------------------------------------------------------------------------


def test_registering_creates_the_user_and_profile_and_signs_them_in(client):
    data = {
        "username": "alice",
        "password": PASSWORD,
        "email": "alice@example.org",
        "display_name": "Alice of the Azores",
    }
    response = post(client, REGISTER, data)

    assert response.status_code == 201
    expected = profile_body("alice", "alice@example.org", "Alice of the Azores")
    assert response.json() == expected
    user = User.objects.get(username="alice")
    assert user.check_password(PASSWORD)
    assert user.profile.display_name == "Alice of the Azores"
    assert client.get(ME).json() == expected  # signed in by the registration


def test_email_and_display_name_are_optional_at_registration(client):
    response = post(client, REGISTER, {"username": "bob", "password": PASSWORD})

    assert response.status_code == 201
    assert response.json() == profile_body("bob")


def test_a_password_too_similar_to_the_username_is_refused_with_the_validators_message(client):
    response = post(client, REGISTER, {"username": "alice", "password": "alice1234"})

    assert response.status_code == 400
    assert response.json() == {
        "error": "weak_password",
        "message": "The password is too similar to the username.",
        "field": "password",
        "allowed": None,
    }
    assert not User.objects.filter(username="alice").exists()


def test_a_password_failing_several_validators_is_refused_with_all_their_messages(client):
    response = post(client, REGISTER, {"username": "bob", "password": "12345678"})

    assert response.status_code == 400
    body = response.json()
    assert body["field"] == "password"
    assert body["message"] == "This password is too common. This password is entirely numeric."
    assert User.objects.count() == 0


def test_a_taken_username_is_refused_whatever_its_case(client, alice):
    for username in ("alice", "ALICE"):
        response = post(client, REGISTER, {"username": username, "password": PASSWORD})

        assert response.status_code == 400
        assert response.json() == {
            "error": "username_taken",
            "message": "A user with that username already exists.",
            "field": "username",
            "allowed": None,
        }
    assert list(User.objects.values_list("username", flat=True)) == ["alice"]


def test_a_username_with_a_colon_is_refused_so_it_cannot_pose_as_a_bot(client):
    response = post(client, REGISTER, {"username": "bot:1", "password": PASSWORD})

    assert response.status_code == 400
    body = response.json()
    assert (body["error"], body["field"]) == ("invalid", "username")
    assert User.objects.count() == 0


def test_registration_without_a_password_is_refused_naming_the_field(client):
    response = post(client, REGISTER, {"username": "carol"})

    assert response.status_code == 400
    assert response.json() == {
        "error": "required",
        "message": "This field is required.",
        "field": "password",
        "allowed": None,
    }


# --- Every user has a profile --------------------------------------------------------------


def test_every_user_gets_a_profile_with_every_email_switched_on(alice):
    profile = Profile.objects.get(user=alice)

    assert (profile.display_name, profile.email_your_turn) == ("", True)
    assert (profile.email_reminder, profile.email_game_over) == (True, True)


def test_a_superuser_made_by_createsuperuser_gets_a_profile_too():
    call_command("createsuperuser", interactive=False, username="carol", email="carol@example.org")

    carol = User.objects.get(username="carol")
    assert carol.is_superuser
    assert Profile.objects.filter(user=carol).count() == 1


def test_a_user_older_than_profiles_gets_one_when_they_first_look(client, bob):
    Profile.objects.filter(user=bob).delete()
    client.force_login(bob)

    response = client.get(ME)

    assert response.status_code == 200
    assert response.json() == profile_body("bob", "bob@example.org")
    assert Profile.objects.filter(user=bob).count() == 1


# --- Sessions --------------------------------------------------------------------------------


def test_signing_in_and_out_uses_the_session(client, bob):
    response = post(client, LOGIN, {"username": "bob", "password": PASSWORD})

    assert response.status_code == 200
    assert response.json() == profile_body("bob", "bob@example.org")
    assert client.get(ME).json()["username"] == "bob"

    response = client.post(LOGOUT)

    assert response.status_code == 204
    assert response.content == b""
    assert client.get(ME).json() == NOT_SIGNED_IN


def test_signing_out_when_not_signed_in_is_a_no_op(client):
    assert client.post(LOGOUT).status_code == 204


def test_wrong_credentials_do_not_say_which_part_was_wrong(client, bob):
    wrong_password = post(client, LOGIN, {"username": "bob", "password": "not-" + PASSWORD})
    unknown_user = post(client, LOGIN, {"username": "mallory", "password": PASSWORD})

    assert (wrong_password.status_code, unknown_user.status_code) == (400, 400)
    assert wrong_password.json() == unknown_user.json() == INVALID_CREDENTIALS
    assert client.get(ME).status_code == 401


def test_an_inactive_user_cannot_sign_in(client, bob):
    bob.is_active = False
    bob.save()

    response = post(client, LOGIN, {"username": "bob", "password": PASSWORD})

    assert response.json() == INVALID_CREDENTIALS


# --- CSRF ------------------------------------------------------------------------------------


def test_the_csrf_endpoint_sets_the_cookie_and_returns_the_token(csrf_client):
    response = csrf_client.get(CSRF)

    assert response.status_code == 200
    assert len(response.json()["csrf_token"]) == 64  # masked, a fresh mask every time
    assert len(csrf_client.cookies["csrftoken"].value) == 32
    assert "no-cache" in response["Cache-Control"]


def test_signing_in_without_the_csrf_token_is_refused_and_accepted_with_it(csrf_client, bob):
    credentials = {"username": "bob", "password": PASSWORD}

    refused = post(csrf_client, LOGIN, credentials)

    assert refused.status_code == 403
    assert refused.json() == {
        "error": "permission_denied",
        "message": "CSRF Failed: CSRF cookie not set.",
        "field": None,
        "allowed": None,
    }
    assert csrf_client.get(ME).status_code == 401  # no session was started

    accepted = post(csrf_client, LOGIN, credentials, HTTP_X_CSRFTOKEN=csrf_token(csrf_client))

    assert accepted.status_code == 200
    assert csrf_client.get(ME).json()["username"] == "bob"


def test_registering_without_the_csrf_token_is_refused(csrf_client):
    refused = post(csrf_client, REGISTER, {"username": "carol", "password": PASSWORD})

    assert refused.status_code == 403
    assert refused.json()["message"] == "CSRF Failed: CSRF cookie not set."
    assert User.objects.count() == 0

    token = csrf_token(csrf_client)
    data = {"username": "carol", "password": PASSWORD}
    accepted = post(csrf_client, REGISTER, data, HTTP_X_CSRFTOKEN=token)

    assert accepted.status_code == 201
    assert list(User.objects.values_list("username", flat=True)) == ["carol"]


def test_a_session_write_without_the_csrf_token_is_refused_and_accepted_with_it(csrf_client, carol):
    csrf_client.force_login(carol)

    refused = csrf_client.patch(ME, {"display_name": "Carol"}, format="json")

    assert refused.status_code == 403
    assert refused.json()["error"] == "permission_denied"
    assert refused.json()["message"] == "CSRF Failed: CSRF cookie not set."
    assert Profile.objects.get(user=carol).display_name == ""

    token = csrf_token(csrf_client)
    accepted = csrf_client.patch(
        ME, {"display_name": "Carol"}, format="json", HTTP_X_CSRFTOKEN=token
    )

    assert accepted.status_code == 200
    assert accepted.json()["display_name"] == "Carol"
    assert Profile.objects.get(user=carol).display_name == "Carol"


def test_a_session_write_with_a_wrong_csrf_token_is_refused(csrf_client, carol):
    csrf_client.force_login(carol)
    csrf_token(csrf_client)

    response = csrf_client.post(LOGOUT, HTTP_X_CSRFTOKEN="x" * 64)

    assert response.status_code == 403
    assert (
        response.json()["message"]
        == "CSRF Failed: CSRF token from the 'X-Csrftoken' HTTP header incorrect."
    )
    assert csrf_client.get(ME).json()["username"] == "carol"  # still signed in


# --- API tokens ------------------------------------------------------------------------------


def test_token_authentication_needs_no_csrf_token(csrf_client, alice):
    issued = post(csrf_client, TOKEN, {"username": "alice", "password": PASSWORD})

    assert issued.status_code == 200
    key = issued.json()["token"]
    assert key == Token.objects.get(user=alice).key

    bot = APIClient(enforce_csrf_checks=True)
    bot.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    response = bot.patch(ME, {"email_reminder": False}, format="json")

    assert response.status_code == 200
    assert response.json() == profile_body("alice", "alice@example.org", email_reminder=False)
    assert Profile.objects.get(user=alice).email_reminder is False


def test_the_token_stays_the_same_until_revoked(client, bob):
    credentials = {"username": "bob", "password": PASSWORD}
    first = post(client, TOKEN, credentials).json()["token"]
    assert post(client, TOKEN, credentials).json()["token"] == first

    bot = APIClient()
    bot.credentials(HTTP_AUTHORIZATION=f"Token {first}")
    revoked = bot.delete(TOKEN)

    assert revoked.status_code == 204
    assert not Token.objects.filter(user=bob).exists()
    assert bot.get(ME).json() == {
        "error": "authentication_failed",
        "message": "Invalid token.",
        "field": None,
        "allowed": None,
    }
    second = post(client, TOKEN, credentials).json()["token"]
    assert second != first
    assert Token.objects.get(user=bob).key == second


def test_a_token_is_refused_for_wrong_credentials(client, bob):
    response = post(client, TOKEN, {"username": "bob", "password": "guess"})

    assert response.status_code == 400
    assert response.json() == INVALID_CREDENTIALS
    assert not Token.objects.exists()


def test_revoking_a_token_needs_a_signed_in_user(client):
    response = client.delete(TOKEN)

    assert response.status_code == 401
    assert response.json() == NOT_SIGNED_IN


def test_a_session_user_may_revoke_their_token(client, carol):
    Token.objects.create(user=carol)
    client.force_login(carol)

    assert client.delete(TOKEN).status_code == 204
    assert not Token.objects.filter(user=carol).exists()


# --- Rate limits -----------------------------------------------------------------------------


def test_login_is_throttled_after_the_configured_number_of_attempts(client, set_rate, bob):
    set_rate("login", "3/min")
    for _ in range(3):
        response = post(client, LOGIN, {"username": "bob", "password": "guess"})
        assert response.json() == INVALID_CREDENTIALS

    throttled = post(client, LOGIN, {"username": "bob", "password": PASSWORD})

    assert throttled.status_code == 429
    retry_after = int(throttled["Retry-After"])
    assert 1 <= retry_after <= 60
    assert throttled.json() == {
        "error": "throttled",
        "message": f"Request was throttled. Expected available in {retry_after} seconds.",
        "field": None,
        "allowed": None,
    }
    assert client.get(ME).status_code == 401  # the right password did not get through


def test_asking_for_a_token_counts_against_the_login_limit(client, set_rate, bob):
    set_rate("login", "2/min")
    post(client, LOGIN, {"username": "bob", "password": "guess"})
    post(client, TOKEN, {"username": "bob", "password": "guess"})

    response = post(client, TOKEN, {"username": "bob", "password": PASSWORD})

    assert response.status_code == 429
    assert not Token.objects.exists()


def test_a_spoofed_forwarded_for_header_does_not_reset_the_login_limit(client, set_rate, bob):
    set_rate("login", "2/min")
    for address in ("10.0.0.1", "10.0.0.2"):
        post(client, LOGIN, {"username": "bob", "password": "guess"}, HTTP_X_FORWARDED_FOR=address)

    response = post(
        client, LOGIN, {"username": "bob", "password": "guess"}, HTTP_X_FORWARDED_FOR="10.0.0.3"
    )

    assert response.status_code == 429


def test_registration_is_throttled_after_the_configured_number(client, set_rate):
    set_rate("register", "2/hour")
    # Each registration signs the client in as the new user: still counted per address.
    for username in ("alice", "bob"):
        assert (
            post(client, REGISTER, {"username": username, "password": PASSWORD}).status_code == 201
        )

    response = post(client, REGISTER, {"username": "carol", "password": PASSWORD})

    assert response.status_code == 429
    assert 1 <= int(response["Retry-After"]) <= 3600
    assert response.json()["error"] == "throttled"
    assert not User.objects.filter(username="carol").exists()


def test_the_throttles_read_their_rate_from_the_settings_on_every_request(set_rate):
    set_rate("actions", "7/min")
    set_rate("login", "5/hour")

    assert submit.action_rate() == (7, 60)
    assert LoginThrottle().get_rate() == "5/hour"


def test_the_action_rate_counts_each_signed_in_user_separately(set_rate, alice, bob):
    set_rate("actions", "1/min")

    def allowed(user: User) -> bool:
        try:
            submit.check_action_rate(user.pk)
        except ThrottledError as refused:
            assert 1 <= int(refused.headers["Retry-After"]) <= 60
            return False
        return True

    assert [allowed(alice), allowed(alice), allowed(bob)] == [True, False, True]


def test_a_throttle_without_a_configured_rate_is_a_configuration_error(settings):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {}}

    with pytest.raises(ImproperlyConfigured, match="'actions'"):
        submit.action_rate()


# --- The profile -----------------------------------------------------------------------------


def test_the_profile_changes_only_the_fields_given(client, alice):
    client.force_login(alice)

    first = client.patch(
        ME, {"display_name": "Admiral Alice", "email_game_over": False}, format="json"
    )
    second = client.patch(ME, {"email": "alice@warboard.example"}, format="json")

    assert first.status_code == second.status_code == 200
    expected = profile_body(
        "alice", "alice@warboard.example", "Admiral Alice", email_game_over=False
    )
    assert second.json() == expected
    assert client.get(ME).json() == expected
    alice.refresh_from_db()
    assert alice.email == "alice@warboard.example"


def test_an_unknown_profile_field_is_refused_naming_the_accepted_ones(client, bob):
    client.force_login(bob)

    response = client.patch(ME, {"username": "mallory", "display_name": "Bob"}, format="json")

    assert response.status_code == 400
    assert response.json() == {
        "error": "unknown_field",
        "message": "Not a profile field: username.",
        "field": "username",
        "allowed": [
            "display_name",
            "email",
            "email_your_turn",
            "email_reminder",
            "email_game_over",
            "roll_until",
            "roll_until_armies",
        ],
    }
    assert User.objects.filter(username="bob").exists()
    assert Profile.objects.get(user=bob).display_name == ""


def test_the_roll_preference_is_remembered_and_checked(client, alice):
    """How far the battle form's Roll rolls on is the player's own standing choice."""
    client.force_login(alice)
    assert client.get(ME).json()["roll_until"] == "decided"  # rolling on is the default

    changed = client.patch(ME, {"roll_until": "armies", "roll_until_armies": 4}, format="json")

    assert changed.status_code == 200
    body = profile_body("alice", "alice@example.org", roll_until="armies", roll_until_armies=4)
    assert client.get(ME).json() == body
    for body, field in (({"roll_until": "always"}, "roll_until"),
                        ({"roll_until": 1}, "roll_until"),
                        ({"roll_until_armies": 0}, "roll_until_armies"),
                        ({"roll_until_armies": "3"}, "roll_until_armies")):  # fmt: skip
        refused = client.patch(ME, body, format="json")
        assert (refused.status_code, refused.json()["field"]) == (400, field), body
    assert Profile.objects.get(user=alice).roll_until_armies == 4


def test_an_invalid_email_address_is_refused(client, carol):
    client.force_login(carol)

    response = client.patch(ME, {"email": "carol at sea"}, format="json")

    assert response.status_code == 400
    assert response.json() == {
        "error": "invalid",
        "message": "Enter a valid email address.",
        "field": "email",
        "allowed": None,
    }
    carol.refresh_from_db()
    assert carol.email == "carol@example.org"


def test_anonymous_users_can_neither_read_nor_change_a_profile(client, alice):
    read = client.get(ME)
    change = client.patch(ME, {"display_name": "Mallory"}, format="json")

    assert (read.status_code, change.status_code) == (401, 401)
    assert read.json() == change.json() == NOT_SIGNED_IN
    assert Profile.objects.get(user=alice).display_name == ""


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("name", "code"),
    [("ally-1", "reserved_username"), ("Ally-7", "reserved_username"), ("ai:x", "invalid")],
)
def test_registering_a_name_the_server_uses_for_its_own_seats_is_refused(name, code):
    response = APIClient().post(
        "/api/auth/register", {"username": name, "password": "a long passphrase 42"}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["error"] == code  # "ai:" already fails the username characters
    assert response.json()["field"] == "username"


@pytest.mark.parametrize(
    ("field", "value"),
    [("email_game_over", 0), ("email_reminder", "false"), ("display_name", 7), ("email", 7)],
)
def test_a_profile_value_of_another_json_type_is_refused_not_converted(client, alice, field, value):
    """Schemathesis: the schema says boolean and string; 0 for false was taken."""
    client.force_login(alice)
    response = client.patch(ME, {field: value}, format="json")

    assert response.status_code == 400
    assert (response.json()["error"], response.json()["field"]) == ("invalid", field)
    assert client.get(ME).json() == profile_body("alice", alice.email)


def test_an_email_longer_than_its_column_is_a_400_not_a_database_error(client, alice):
    """The user's email column holds 254 characters; a 255-character address passed the
    serializer and overflowed it on PostgreSQL (a 500)."""
    client.force_login(alice)
    address = "a" * 64 + "@" + ".".join(["b" * 60] * 3) + ".example"
    assert len(address) > 254

    response = client.patch(ME, {"email": address}, format="json")

    assert response.status_code == 400
    assert (response.json()["error"], response.json()["field"]) == ("max_length", "email")
