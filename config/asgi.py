"""ASGI entry point: HTTP to Django, websockets through origin validation and session auth.

``AllowedHostsOriginValidator`` refuses a websocket whose ``Origin`` is not in ALLOWED_HOSTS
(cross-site websocket hijacking), and ``TokenAuthMiddlewareStack`` gives consumers
``scope["user"]`` from the same session cookie the web pages use or, for scripts and bots, from
an API token in the query string (``?token=<key>``, ``games.accounts.socket_auth``).
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# Django must be set up before anything imports models (consumers, auth middleware).
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.conf import settings  # noqa: E402

from config.outages import SocketBackendGuard  # noqa: E402
from config.routing import websocket_urlpatterns  # noqa: E402
from games import sweeper  # noqa: E402
from games.accounts.socket_auth import TokenAuthMiddlewareStack  # noqa: E402
from games.web.web_errors import BodyLimit  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": BodyLimit(django_asgi_app),
        "websocket": SocketBackendGuard(
            AllowedHostsOriginValidator(TokenAuthMiddlewareStack(URLRouter(websocket_urlpatterns)))
        ),
    }
)

# The embedded default has no Celery beat: the server process runs the deadline sweep on a
# daemon thread instead. Only a real server (daphne, runserver) starts it; tests import this
# module too and must not get a background thread (games.sweeper.server_process).
if settings.WARBOARD_EMBEDDED_TASKS and sweeper.server_process():
    sweeper.sweeper_start()
