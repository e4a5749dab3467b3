from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Game server"

    def ready(self) -> None:
        from django.urls import register_converter

        from games import (
            inbound_webhook,
            signals,  # noqa: F401  (connects the receivers)
        )
        from games.web.web_errors import IdConverter, UsernameConverter

        # The mail limits before anymail parses an inbound mail's MIME.
        inbound_webhook.install()

        # ``<id:game_id>`` in the HTTP and websocket routes, registered before any is imported.
        register_converter(IdConverter, "id")
        register_converter(UsernameConverter, "username")
