"""ASGI entry point: HTTP to Django, websockets through origin validation and session auth.

``AllowedHostsOriginValidator`` refuses a websocket whose ``Origin`` is not in ALLOWED_HOSTS
(cross-site websocket hijacking), and ``AuthMiddlewareStack`` gives consumers ``scope["user"]``
from the same session cookie the web pages use.
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# Django must be set up before anything imports models (consumers, auth middleware).
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from config.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
        ),
    }
)
