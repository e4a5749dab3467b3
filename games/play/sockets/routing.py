"""Live games' websocket routes: a game's socket, the lobby's, and the ping."""

from django.urls import path

from games.play.sockets.consumers import GameConsumer, PingConsumer
from games.play.sockets.lobby_consumer import LobbyConsumer

websocket_urlpatterns = [
    path("ws/ping/", PingConsumer.as_asgi()),
    path("ws/games/<id:game_id>/", GameConsumer.as_asgi()),
    path("ws/lobby/", LobbyConsumer.as_asgi()),
]
