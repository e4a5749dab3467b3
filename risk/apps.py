from django.apps import AppConfig


class RiskConfig(AppConfig):
    name = "risk"
    verbose_name = "Nautical-but-Nice Fast Risk"

    def ready(self) -> None:
        """The engine reads maps from the database first (``risk.maps.store.map_source``), the
        packaged files after."""
        from risk.maps.store import map_source
        from risk.rules.board_map import register_map_source

        register_map_source(map_source)
