"""HTTP routes: the apps' URLs, the admin, and the OpenAPI schema and docs."""

from django.contrib import admin
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from games import urls as games_urls
from games.mail import webhook

handler400 = "games.web.web_errors.handler400"
handler404 = "games.web.web_errors.handler404"
handler500 = "games.web.web_errors.handler500"

urlpatterns = [
    path("", include("games.urls")),
    path("", include("frontend.urls")),
    path("admin/", admin.site.urls),
    # Inbound mail (moves by email): /anymail/<esp>/inbound/, e.g. /anymail/postmark/inbound/.
    # The inbound routes through games.mail.webhook first: the mail's limits before
    # anymail parses it, and an answer in JSON for every mail.
    re_path(r"^anymail/(?P<esp>[a-z_]+)/inbound(?P<mime>_mime)?/$", webhook.inbound),
    path("anymail/", include("anymail.urls")),
    path("api/combat/", include("combat.api.urls")),
    path("api/", include(games_urls.api_urlpatterns)),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
]
