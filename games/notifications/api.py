"""Notifications over HTTP, mounted at ``/api/notifications/``: the signed-in person's channel
per kind of notice, the server's VAPID public key, and their push devices.

The settings page (``frontend/static/frontend/notifications.js``) subscribes a browser with
``PushManager.subscribe`` after a button press, and hands the result to ``POST devices``;
unsubscribing (or signing out) calls ``POST devices/unsubscribe``. Writes with a session are
CSRF-checked (DRF's ``SessionAuthentication``); every refusal uses the one error shape.
"""

from __future__ import annotations

from typing import Any

from django.urls import path
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_serializer
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.notifications import devices, preferences, vapid
from games.notifications.kinds import LABELS, Channel, Kind
from games.web.exceptions import ErrorSerializer
from games.web.parsers import JSONParser
from games.web.strict import (
    ClosedSerializer,
    StrictCharField,
    StrictEnumField,
    StrictIntegerField,
)

TAGS = ["notifications"]
#: The choices a kind takes ("" for the default), the channels, the kinds: named enums in the
#: schema (SPECTACULAR_SETTINGS' ENUM_NAME_OVERRIDES).
CHANNELS = [str(c) for c in Channel]
CHOICES = ["", *CHANNELS]
KINDS = [str(k) for k in Kind]

BAD_INPUT = OpenApiResponse(
    ErrorSerializer, description="Bad input: the field at fault and what is wrong."
)
NOT_SIGNED_IN = OpenApiResponse(
    ErrorSerializer, description="Not signed in ('not_authenticated') or a bad token."
)
CSRF_FAILED = OpenApiResponse(
    ErrorSerializer, description="The CSRF check failed (error 'permission_denied')."
)


@extend_schema_serializer(component_name="NotificationKind")
class KindSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=KINDS)
    label = serializers.CharField(help_text="What the notice is about, in words.")
    choice = serializers.ChoiceField(
        choices=CHOICES, help_text='What the person chose; "" for the default.'
    )
    channel = serializers.ChoiceField(
        choices=CHANNELS,
        help_text="The channel such a notice takes now (the choice, or the default; none when "
        "it needs an address or a device the person lacks).",
    )


@extend_schema_serializer(component_name="NotificationSettings")
class SettingsOutputSerializer(serializers.Serializer):
    kinds = KindSerializer(many=True)
    devices = serializers.IntegerField(help_text="Browsers subscribed to push.")
    vapid_public_key = serializers.CharField(
        help_text="The server's applicationServerKey (base64url) for PushManager.subscribe."
    )


def _settings_body(user: Any) -> dict[str, Any]:
    body = preferences.settings_get(user)
    for row in body["kinds"]:
        row["label"] = LABELS[Kind(row["kind"])]
    body["vapid_public_key"] = vapid.public_key()
    return SettingsOutputSerializer(body).data


class NotificationsApi(APIView):
    parser_classes = [JSONParser]
    permission_classes = [IsAuthenticated]


class SettingsApi(NotificationsApi):
    @extend_schema_serializer(component_name="NotificationSettingsUpdate")
    class InputSerializer(ClosedSerializer):
        your_turn = StrictEnumField(CHOICES, required=False, allow_blank=True)
        deadline = StrictEnumField(CHOICES, required=False, allow_blank=True)
        attacked = StrictEnumField(CHOICES, required=False, allow_blank=True)
        room_entry = StrictEnumField(CHOICES, required=False, allow_blank=True)
        round_paired = StrictEnumField(CHOICES, required=False, allow_blank=True)

    @extend_schema(
        tags=TAGS,
        summary="My notification settings",
        description="Per kind of notice (your_turn, deadline, attacked, room_entry, "
        "round_paired) the channel chosen and the one that applies now, the number of "
        "subscribed browsers and the VAPID public key to subscribe one with.",
        operation_id="notifications_settings_retrieve",
        responses={200: SettingsOutputSerializer, 401: NOT_SIGNED_IN},
    )
    def get(self, request: Request) -> Response:
        return Response(_settings_body(request.user))

    @extend_schema(
        tags=TAGS,
        summary="Choose channels",
        description='Sets the channel of the kinds given: "push", "email", "none", or "" for '
        "the default (push while a browser is subscribed, else email for what was mailed "
        "before: your turn, deadlines, room entries, pairings). An unknown kind is a 400 "
        "'unknown_field', an unknown channel a 400 'invalid_choice' naming the kind.",
        operation_id="notifications_settings_update",
        request=InputSerializer,
        responses={200: SettingsOutputSerializer, 400: BAD_INPUT, 401: NOT_SIGNED_IN,
                   403: CSRF_FAILED},
    )  # fmt: skip
    def patch(self, request: Request) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        preferences.settings_update(request.user, dict(serializer.validated_data))
        return Response(_settings_body(request.user))


@extend_schema_serializer(component_name="PushKeys")
class KeysSerializer(ClosedSerializer):
    p256dh = StrictCharField(max_length=128, help_text="The browser's P-256 key, base64url.")
    auth = StrictCharField(max_length=64, help_text="The 16-byte auth secret, base64url.")


class DevicesApi(NotificationsApi):
    @extend_schema_serializer(component_name="PushSubscriptionInput")
    class SubscribeInput(ClosedSerializer):
        endpoint = StrictCharField(max_length=2048)
        keys = KeysSerializer()
        # PushSubscription.toJSON() has it (null); the server sets no expiry of its own.
        expirationTime = StrictIntegerField(required=False, allow_null=True)  # toJSON(): null

    @extend_schema(
        tags=TAGS,
        summary="Subscribe this browser to push",
        description="Takes what PushManager.subscribe returned (its toJSON()). The endpoint "
        "must be https on a known push service (400 'invalid_endpoint'); the keys must have "
        "their lengths (400 'invalid_key' naming keys.p256dh or keys.auth). The same endpoint "
        "again updates it (and moves it to this account).",
        operation_id="notifications_devices_create",
        request=SubscribeInput,
        responses={201: SettingsOutputSerializer, 400: BAD_INPUT, 401: NOT_SIGNED_IN,
                   403: CSRF_FAILED},
    )  # fmt: skip
    def post(self, request: Request) -> Response:
        serializer = self.SubscribeInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        devices.subscribe(
            request.user,
            endpoint=data["endpoint"],
            p256dh=data["keys"]["p256dh"],
            auth=data["keys"]["auth"],
            user_agent=request.headers.get("User-Agent", ""),
        )
        return Response(_settings_body(request.user), status=status.HTTP_201_CREATED)


class UnsubscribeApi(NotificationsApi):
    @extend_schema_serializer(component_name="PushUnsubscribeInput")
    class UnsubscribeInput(ClosedSerializer):
        endpoint = StrictCharField(max_length=2048)

    @extend_schema(
        tags=TAGS,
        summary="Unsubscribe a browser",
        description="Forgets the signed-in person's subscription at this endpoint (a no-op "
        "when there is none).",
        operation_id="notifications_devices_unsubscribe",
        request=UnsubscribeInput,
        responses={200: SettingsOutputSerializer, 400: BAD_INPUT, 401: NOT_SIGNED_IN,
                   403: CSRF_FAILED},
    )  # fmt: skip
    def post(self, request: Request) -> Response:
        serializer = self.UnsubscribeInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        devices.unsubscribe(request.user, endpoint=serializer.validated_data["endpoint"])
        return Response(_settings_body(request.user))


urlpatterns = [
    path("settings", SettingsApi.as_view(), name="notifications-settings"),
    path("devices", DevicesApi.as_view(), name="notifications-devices"),
    path("devices/unsubscribe", UnsubscribeApi.as_view(), name="notifications-unsubscribe"),
]
