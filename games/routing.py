"""The game server's websocket routes, composed from its features (one today: live play)."""

from games.play.sockets import routing as play_routing

websocket_urlpatterns = [*play_routing.websocket_urlpatterns]
