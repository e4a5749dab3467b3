"""Accounts over HTTP, mounted at ``/api/auth/``: registration, sign-in, tokens, the profile.

Browsers sign in with a Django session; scripts and bots ask ``POST token`` for an API token and
send ``Authorization: Token <key>`` (no CSRF token needed, as no cookie is involved). Writes made
with a session are CSRF-checked: DRF's ``SessionAuthentication`` checks them for signed-in users,
and ``login`` and ``register`` check them for everyone (against login CSRF, where another site
signs the victim into an account it controls). ``GET csrf`` hands out the token and its cookie.
Password checks are rate-limited (``LoginThrottle``, ``RegisterThrottle``). Every refusal uses
the one error shape of ``games.web.exceptions``.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import authenticate, login, logout
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.middleware.csrf import get_token
from django.urls import path
from django.utils.decorators import method_decorator
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import ensure_csrf_cookie
from drf_spectacular.utils import (
    OpenApiResponse,
    extend_schema,
    extend_schema_serializer,
)
from rest_framework import serializers, status
from rest_framework.authentication import SessionAuthentication
from rest_framework.permissions import AllowAny, BasePermission, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import BaseThrottle
from rest_framework.views import APIView

from games.accounts.services import (
    profile_get_or_create,
    profile_update,
    token_issue,
    token_revoke,
    user_register,
)
from games.common.throttles import LoginThrottle, RegisterThrottle
from games.models import Profile
from games.web.exceptions import ApplicationError, ErrorSerializer
from games.web.parsers import JSONParser
from games.web.strict import (
    ClosedSerializer,
    StrictBooleanField,
    StrictCharField,
    StrictChoiceField,
    StrictIntegerField,
)

TAGS = ["accounts"]
#: The user's email column (Django's ``AbstractUser.email``); a longer address is a 400, not a
#: database error.
EMAIL_MAX_LENGTH = 254
INVALID_CREDENTIALS = "Unable to sign in with this username and password."

BAD_INPUT = OpenApiResponse(
    ErrorSerializer, description="Bad input: the field at fault and what is wrong."
)
CSRF_FAILED = OpenApiResponse(
    ErrorSerializer, description="The CSRF check failed (error 'permission_denied')."
)
NOT_SIGNED_IN = OpenApiResponse(
    ErrorSerializer,
    description="Not signed in ('not_authenticated') or a bad token ('authentication_failed'); "
    "a 401 with a 'WWW-Authenticate: Token' challenge.",
)
THROTTLED = OpenApiResponse(
    ErrorSerializer, description="Too many attempts (error 'throttled'); see Retry-After."
)


# --- Serializers shared by several endpoints ----------------------------------------------------


@extend_schema_serializer(component_name="AccountProfile")
class ProfileOutputSerializer(serializers.Serializer):
    """What a signed-in user sees about themselves."""

    username = serializers.CharField(source="user.username")
    # A plain string: a user may have no email address (""), which ``format: email`` refuses.
    email = serializers.CharField(
        source="user.email", allow_blank=True, help_text="The address, or empty."
    )
    display_name = serializers.CharField(
        allow_blank=True, help_text="The name other players see; may be empty."
    )
    email_your_turn = serializers.BooleanField(help_text='Send "your turn" emails.')
    email_reminder = serializers.BooleanField(help_text="Send deadline reminders.")
    email_game_over = serializers.BooleanField(help_text="Send game-over results.")
    roll_until = serializers.ChoiceField(
        choices=Profile.RollUntil.choices,
        help_text="How far one click of the battle form's Roll rolls on: 'once', until the "
        "battle is 'decided', or until the attack is down to roll_until_armies ('armies').",
    )
    roll_until_armies = serializers.IntegerField(
        help_text="The N of 'until N armies left' (1 or more)."
    )


@extend_schema_serializer(component_name="AccountCredentials")
class CredentialsInputSerializer(serializers.Serializer):
    username = StrictCharField(max_length=150)
    password = StrictCharField(
        max_length=4096, trim_whitespace=False, style={"input_type": "password"}
    )


class StrictEmailField(serializers.EmailField):
    """A JSON string that is an email address (``StrictCharField``'s rule: no number taken)."""

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


def _profile_body(user: Any) -> dict[str, Any]:
    return ProfileOutputSerializer(profile_get_or_create(user=user)).data


def _authenticate(request: Request, data: dict[str, Any]) -> Any:
    """The user these credentials belong to; never says whether the name or password was wrong."""
    user = authenticate(request, username=data["username"], password=data["password"])
    if user is None:
        raise ApplicationError(INVALID_CREDENTIALS, code="invalid_credentials")
    return user


# --- Views ------------------------------------------------------------------------------------


class AccountApi(APIView):
    parser_classes = [JSONParser]
    permission_classes = [AllowAny]


class CsrfCheckedApi(AccountApi):
    """Checks CSRF for every request, signed in or not (DRF checks only signed-in sessions).

    The check runs after authentication and throttling, so refused attempts count too, and a
    failure is a 403 in the one error shape rather than Django's HTML page.
    """

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)
        SessionAuthentication().enforce_csrf(request)


class RegisterApi(CsrfCheckedApi):
    throttle_classes = [RegisterThrottle]

    @extend_schema_serializer(component_name="AccountRegisterInput")
    class InputSerializer(serializers.Serializer):
        username = StrictCharField(
            max_length=150,
            validators=[UnicodeUsernameValidator()],
            help_text="Letters, digits and @.+-_ only; unique, ignoring case.",
        )
        password = StrictCharField(
            max_length=4096,
            trim_whitespace=False,
            style={"input_type": "password"},
            help_text="Checked by Django's password validators, against the username and email.",
        )
        email = StrictEmailField(
            required=False, allow_blank=True, default="", max_length=EMAIL_MAX_LENGTH
        )
        display_name = StrictCharField(max_length=60, required=False, allow_blank=True, default="")

    @extend_schema(
        tags=TAGS,
        summary="Create an account and sign in",
        description="Creates the user and their profile and signs them in (a session cookie). "
        "A refused password is a 400 with field 'password' and the validators' message; a "
        "taken username is a 400 'username_taken'. Needs the CSRF token (GET csrf).",
        operation_id="auth_register",
        request=InputSerializer,
        responses={
            201: OpenApiResponse(ProfileOutputSerializer, description="The new profile."),
            400: BAD_INPUT,
            403: CSRF_FAILED,
            429: THROTTLED,
        },
    )
    def post(self, request: Request) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = user_register(**serializer.validated_data)
        login(request, user)
        return Response(_profile_body(user), status=status.HTTP_201_CREATED)


class LoginApi(CsrfCheckedApi):
    throttle_classes = [LoginThrottle]

    @extend_schema(
        tags=TAGS,
        summary="Sign in (session)",
        description="Starts a session for the browser. Wrong credentials are a 400 "
        "'invalid_credentials' with field null, whichever part was wrong. Needs the CSRF token "
        "(GET csrf); the token changes on sign-in, so read the cookie again afterwards.",
        operation_id="auth_login",
        request=CredentialsInputSerializer,
        responses={
            200: OpenApiResponse(ProfileOutputSerializer, description="The signed-in profile."),
            400: BAD_INPUT,
            403: CSRF_FAILED,
            429: THROTTLED,
        },
    )
    def post(self, request: Request) -> Response:
        serializer = CredentialsInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = _authenticate(request, serializer.validated_data)
        login(request, user)
        return Response(_profile_body(user))


class LogoutApi(AccountApi):
    @extend_schema(
        tags=TAGS,
        summary="Sign out (session)",
        description="Ends the session; a no-op when not signed in. An API token stays valid "
        "(DELETE token revokes it).",
        operation_id="auth_logout",
        request=None,
        responses={
            204: OpenApiResponse(description="Signed out."),
            403: CSRF_FAILED,
        },
    )
    def post(self, request: Request) -> Response:
        logout(request)
        return Response(status=status.HTTP_204_NO_CONTENT)


@method_decorator([ensure_csrf_cookie, never_cache], name="dispatch")
class CsrfApi(AccountApi):
    @extend_schema_serializer(component_name="AccountCsrf")
    class OutputSerializer(serializers.Serializer):
        csrf_token = serializers.CharField(
            help_text="Send it back in the X-CSRFToken header of session writes."
        )

    @extend_schema(
        tags=TAGS,
        summary="The CSRF token",
        description="Sets the csrftoken cookie and returns the token, for the X-CSRFToken "
        "header of login, register and every write made with a session.",
        operation_id="auth_csrf",
        responses={200: OpenApiResponse(OutputSerializer, description="The CSRF token.")},
    )
    def get(self, request: Request) -> Response:
        return Response(self.OutputSerializer({"csrf_token": get_token(request)}).data)


class TokenApi(AccountApi):
    @extend_schema_serializer(component_name="AccountToken")
    class OutputSerializer(serializers.Serializer):
        token = serializers.CharField(help_text="Send it as 'Authorization: Token <token>'.")

    def get_permissions(self) -> list[BasePermission]:
        if self.request.method == "DELETE":
            return [IsAuthenticated()]
        return super().get_permissions()

    def get_throttles(self) -> list[BaseThrottle]:
        return [LoginThrottle()] if self.request.method == "POST" else []

    @extend_schema(
        tags=TAGS,
        summary="Get an API token",
        description="The user's API token for scripts and bots, made on first use; the same "
        "key until revoked. Rate-limited with login. Wrong credentials are a 400 "
        "'invalid_credentials'.",
        operation_id="auth_token_create",
        request=CredentialsInputSerializer,
        responses={
            200: OpenApiResponse(OutputSerializer, description="The token."),
            400: BAD_INPUT,
            429: THROTTLED,
        },
    )
    def post(self, request: Request) -> Response:
        serializer = CredentialsInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = _authenticate(request, serializer.validated_data)
        token = token_issue(user=user)
        return Response(self.OutputSerializer({"token": token.key}).data)

    @extend_schema(
        tags=TAGS,
        summary="Revoke the API token",
        description="Deletes the signed-in user's token (a no-op without one); the next "
        "POST makes a new one.",
        operation_id="auth_token_destroy",
        request=None,
        responses={
            204: OpenApiResponse(description="Revoked."),
            401: NOT_SIGNED_IN,
            403: CSRF_FAILED,
        },
    )
    def delete(self, request: Request) -> Response:
        token_revoke(user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class MeApi(AccountApi):
    permission_classes = [IsAuthenticated]

    @extend_schema_serializer(component_name="AccountProfileUpdate")
    class InputSerializer(ClosedSerializer):
        display_name = StrictCharField(max_length=60, required=False, allow_blank=True)
        email = StrictEmailField(required=False, allow_blank=True, max_length=EMAIL_MAX_LENGTH)
        email_your_turn = StrictBooleanField(required=False)
        email_reminder = StrictBooleanField(required=False)
        email_game_over = StrictBooleanField(required=False)
        roll_until = StrictChoiceField(choices=Profile.RollUntil.choices, required=False)
        roll_until_armies = StrictIntegerField(min_value=1, max_value=999, required=False)

        def unknown_fields(self, unknown: list[str]) -> ApplicationError:
            return ApplicationError(
                f"Not a profile field: {', '.join(unknown)}.",
                field=unknown[0],
                allowed=self.fields.keys(),
                code="unknown_field",
            )

    @extend_schema(
        tags=TAGS,
        summary="My profile",
        operation_id="auth_me_retrieve",
        responses={
            200: OpenApiResponse(ProfileOutputSerializer, description="The profile."),
            401: NOT_SIGNED_IN,
            403: CSRF_FAILED,
        },
    )
    def get(self, request: Request) -> Response:
        return Response(_profile_body(request.user))

    @extend_schema(
        tags=TAGS,
        summary="Change my profile",
        description="Changes the fields given, leaves the others. A field not listed here is "
        "a 400 'unknown_field' naming the accepted ones.",
        operation_id="auth_me_update",
        request=InputSerializer,
        responses={
            200: OpenApiResponse(ProfileOutputSerializer, description="The changed profile."),
            400: BAD_INPUT,
            401: NOT_SIGNED_IN,
            403: CSRF_FAILED,
        },
    )
    def patch(self, request: Request) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        profile = profile_update(user=request.user, **serializer.validated_data)
        return Response(ProfileOutputSerializer(profile).data)


urlpatterns = [
    path("register", RegisterApi.as_view(), name="auth-register"),
    path("login", LoginApi.as_view(), name="auth-login"),
    path("logout", LogoutApi.as_view(), name="auth-logout"),
    path("csrf", CsrfApi.as_view(), name="auth-csrf"),
    path("token", TokenApi.as_view(), name="auth-token"),
    path("me", MeApi.as_view(), name="auth-me"),
]
