import threading

from django.apps import AppConfig
from django.conf import settings


class CombatConfig(AppConfig):
    name = "combat"
    verbose_name = "Combat resolver"

    def ready(self) -> None:
        if settings.COMBAT_WARM_UP:
            threading.Thread(target=_warm_up, name="combat-warm-up", daemon=True).start()


def _warm_up() -> None:
    """Compile the flanking walk before the first request needs it (``COMBAT_WARM_UP``)."""
    from combat import risk_flanking

    risk_flanking.warm_up()
