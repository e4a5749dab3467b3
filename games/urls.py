"""The game server's routes, composed from its features: ``urlpatterns`` (the ``/healthz``
probe) at the root, ``api_urlpatterns`` under ``/api/`` (``config.urls`` mounts both)."""

from django.urls import include, path

from games.play import urls as play_urls
from games.ratings import urls as ratings_urls
from games.rooms import urls as rooms_urls
from games.tournaments import urls as tournaments_urls
from games.web import healthz

urlpatterns = [
    path("healthz", healthz.healthz, name="healthz"),
    *play_urls.page_urlpatterns,
]

api_urlpatterns = [
    path("auth/", include("games.accounts.api")),
    path("notifications/", include("games.notifications.api")),
    *play_urls.urlpatterns,
    *ratings_urls.urlpatterns,
    *rooms_urls.urlpatterns,
    *tournaments_urls.urlpatterns,
]
