from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Game server"

    def ready(self) -> None:
        from games import signals  # noqa: F401  (connects the receivers)
