"""The /ws/ping/ websocket through the full ASGI stack on the in-memory channel layer."""

from __future__ import annotations

import pytest
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.conf import settings as django_settings

from config.asgi import application
from tests.conftest import LOCAL_ORIGIN
from tests.sockets import ping_round_trip

pytestmark = pytest.mark.django_db(transaction=True)


async def test_ping_gets_pong_through_the_in_memory_layer():
    assert type(get_channel_layer()).__name__ == "InMemoryChannelLayer"
    assert await ping_round_trip() == {"type": "pong", "user": None, "echo": 42}


async def test_a_signed_in_session_reaches_the_socket(django_user_model):
    from asgiref.sync import sync_to_async
    from django.test import Client

    def sign_in() -> str:
        alice = django_user_model.objects.create_user("alice", password="x-Very-long-pw-1")
        client = Client()
        client.force_login(alice)
        return client.cookies[django_settings.SESSION_COOKIE_NAME].value

    session_key = await sync_to_async(sign_in)()
    cookie = (b"cookie", f"{django_settings.SESSION_COOKIE_NAME}={session_key}".encode())
    assert await ping_round_trip([cookie]) == {"type": "pong", "user": "alice", "echo": 42}


async def test_a_foreign_origin_is_refused():
    communicator = WebsocketCommunicator(
        application, "/ws/ping/", headers=[(b"origin", b"https://evil.example")]
    )
    connected, _ = await communicator.connect()
    assert connected is False


async def test_unknown_messages_get_an_error_naming_the_field():
    communicator = WebsocketCommunicator(application, "/ws/ping/", headers=[LOCAL_ORIGIN])
    assert (await communicator.connect())[0]
    await communicator.send_json_to({"type": "pang"})
    assert await communicator.receive_json_from() == {
        "type": "error",
        "field": "type",
        "error": 'expected {"type": "ping"}',
    }
    await communicator.send_to(text_data="{not json")
    assert await communicator.receive_json_from() == {
        "type": "error",
        "field": "body",
        "error": "not valid JSON",
    }
    await communicator.disconnect()
