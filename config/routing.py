"""Every app's websocket routes, gathered in one list for ``config.asgi``."""

from games.routing import websocket_urlpatterns as games_routes

websocket_urlpatterns = [*games_routes]
