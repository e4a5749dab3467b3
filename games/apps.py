from django.apps import AppConfig
from django.urls import register_converter

from games.web.web_errors import IdConverter, UsernameConverter


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Game server"

    def ready(self) -> None:
        # Imported here, not at the top: these load models, which only exist once the app
        # registry is ready; importing them connects their receivers (the ratings' before the
        # tournaments': a finished game is rated, then recorded at its table, as before).
        from games.accounts import signals  # noqa: F401
        from games.mail import webhook
        from games.ratings import receivers as rating_receivers  # noqa: F401
        from games.tournaments import receivers as tournament_receivers  # noqa: F401

        # The mail limits before anymail parses an inbound mail's MIME.
        webhook.install()

        # ``<id:game_id>`` in the HTTP and websocket routes, registered before any is imported.
        register_converter(IdConverter, "id")
        register_converter(UsernameConverter, "username")
