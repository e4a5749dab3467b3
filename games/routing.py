"""Websocket routes of the game server."""

from django.urls import path

from games.consumers import GameConsumer, PingConsumer
from games.lobby_consumer import LobbyConsumer

websocket_urlpatterns = [
    path("ws/ping/", PingConsumer.as_asgi()),
    path("ws/games/<id:game_id>/", GameConsumer.as_asgi()),
    path("ws/lobby/", LobbyConsumer.as_asgi()),
]
